//! Stock market movement.
