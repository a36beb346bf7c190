//! SVG to PNG, through resvg (usvg parses, tiny-skia paints) with the system's fonts.

use resvg::{tiny_skia, usvg};

/// Why a picture could not be rasterised.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG does not parse (a defect of the drawing code).
    #[error("the drawing is not valid SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The picture is empty or too large to paint.
    #[error("the picture is {0}×{1} pixels, which cannot be painted")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

/// Paints `svg` at `scale` (1 = one pixel per SVG unit) and encodes it as PNG.
///
/// # Errors
/// An SVG that does not parse, an empty or huge picture, an encoding failure.
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let width = (size.width() * scale).ceil() as u32;
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(PngError::Size(width, height))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
