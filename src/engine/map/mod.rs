//! Map, tiles, track graph, tokens and routes.
