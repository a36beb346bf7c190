//! A small SVG writer: elements appended to a string with attributes in the order given and
//! numbers printed with one decimal at most, so that the same drawing is the same bytes.

use std::fmt::{self, Write};

/// A number as SVG attributes print it: rounded to one decimal, no trailing `.0`, no `-0`.
#[derive(Debug, Clone, Copy)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        if tenths == 0 {
            return f.write_str("0");
        }
        let sign = if tenths < 0 { "-" } else { "" };
        let abs = tenths.unsigned_abs();
        if abs.is_multiple_of(10) {
            write!(f, "{sign}{}", abs / 10)
        } else {
            write!(f, "{sign}{}.{}", abs / 10, abs % 10)
        }
    }
}

/// Text escaped for an SVG/HTML text node or attribute value. Characters XML 1.0 does not
/// allow at all (control characters other than tab and line breaks, U+FFFE, U+FFFF), which a
/// player's name in a JSON log can hold, become U+FFFD: one of them makes the whole SVG
/// unreadable.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&#39;")?,
                '\t' | '\n' | '\r' => f.write_char(c)?,
                c if (c.is_control() && c < '\u{7f}') || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                    f.write_char(char::REPLACEMENT_CHARACTER)?
                }
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// An attribute value: a number or text.
#[derive(Debug, Clone, Copy)]
pub enum Value<'a> {
    /// Printed with [`Num`].
    Num(f64),
    /// Escaped text.
    Text(&'a str),
}

impl From<f64> for Value<'_> {
    fn from(v: f64) -> Self {
        Value::Num(v)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Text(v)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}

/// An SVG document or fragment being written.
#[derive(Debug, Default, Clone)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// An empty fragment.
    pub fn new() -> Svg {
        Svg {
            out: String::with_capacity(4096),
        }
    }

    fn attrs(&mut self, attrs: &[(&str, Value<'_>)]) {
        for (name, value) in attrs {
            // Writing to a String cannot fail.
            let _ = match value {
                Value::Num(v) => write!(self.out, " {name}=\"{}\"", Num(*v)),
                Value::Text(t) => write!(self.out, " {name}=\"{}\"", Escaped(t)),
            };
        }
    }

    /// Opens an element: `<name attrs…>`.
    pub fn open(&mut self, name: &str, attrs: &[(&str, Value<'_>)]) {
        self.out.push('<');
        self.out.push_str(name);
        self.attrs(attrs);
        self.out.push('>');
    }

    /// Closes an element.
    pub fn close(&mut self, name: &str) {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    /// An empty element: `<name attrs…/>`.
    pub fn leaf(&mut self, name: &str, attrs: &[(&str, Value<'_>)]) {
        self.out.push('<');
        self.out.push_str(name);
        self.attrs(attrs);
        self.out.push_str("/>");
    }

    /// An element holding text: `<name attrs…>text</name>`.
    pub fn text(&mut self, name: &str, attrs: &[(&str, Value<'_>)], text: &str) {
        self.open(name, attrs);
        let _ = write!(self.out, "{}", Escaped(text));
        self.close(name);
    }

    /// Appends already written SVG.
    pub fn raw(&mut self, svg: &str) {
        self.out.push_str(svg);
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }
}

/// Path data (`d`) built from points, printed with [`Num`].
#[derive(Debug, Default, Clone)]
pub struct PathData(String);

impl PathData {
    /// Empty path data.
    pub fn new() -> PathData {
        PathData(String::new())
    }

    /// `M x y`.
    pub fn move_to(mut self, (x, y): (f64, f64)) -> PathData {
        let _ = write!(self.0, "M{} {}", Num(x), Num(y));
        self
    }

    /// `L x y`.
    pub fn line_to(mut self, (x, y): (f64, f64)) -> PathData {
        let _ = write!(self.0, "L{} {}", Num(x), Num(y));
        self
    }

    /// A circular arc of radius `r` to `(x, y)`, the short way, clockwise when `sweep`.
    pub fn arc_to(mut self, r: f64, sweep: bool, (x, y): (f64, f64)) -> PathData {
        let _ = write!(
            self.0,
            "A{} {} 0 0 {} {} {}",
            Num(r),
            Num(r),
            u8::from(sweep),
            Num(x),
            Num(y)
        );
        self
    }

    /// A cubic Bézier curve to `to`.
    pub fn cubic_to(mut self, c1: (f64, f64), c2: (f64, f64), to: (f64, f64)) -> PathData {
        let _ = write!(
            self.0,
            "C{} {} {} {} {} {}",
            Num(c1.0),
            Num(c1.1),
            Num(c2.0),
            Num(c2.1),
            Num(to.0),
            Num(to.1)
        );
        self
    }

    /// `Z`.
    pub fn close(mut self) -> PathData {
        self.0.push('Z');
        self
    }

    /// The `d` attribute value.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_with_one_decimal_at_most() {
        let shown: Vec<String> = [0.0, -0.04, 1.0, 1.25, -3.16, 86.6025, 100.0]
            .iter()
            .map(|v| Num(*v).to_string())
            .collect();
        assert_eq!(shown, ["0", "0", "1", "1.3", "-3.2", "86.6", "100"]);
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut svg = Svg::new();
        svg.text("text", &[("title", "a\"b".into())], "R&D <1>");
        assert_eq!(
            svg.finish(),
            "<text title=\"a&quot;b\">R&amp;D &lt;1&gt;</text>"
        );
    }
}
