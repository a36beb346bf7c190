//! Located JSON access: the file is validated once by serde_json, then every object field and
//! array element is known by the byte span of its text, so each problem can point at the exact
//! place. Values are decoded only when asked for.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::value::RawValue;

use crate::log::error::{Problem, ProblemKind};
use crate::log::span::{Span, Spanned};

/// The span of a borrowed raw value inside `src` (the raw value must be a slice of `src`).
fn span_of(src: &str, raw: &RawValue) -> Span {
    let text = raw.get();
    let offset = text.as_ptr() as usize - src.as_ptr() as usize;
    debug_assert!(offset + text.len() <= src.len());
    Span::new(offset, text.len())
}

/// The JSON type of the value written at `span`, for "expected …, found …" messages.
pub(crate) fn found(src: &str, span: Span) -> &'static str {
    match src.as_bytes()[span.offset..span.end()].first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

fn is_null(src: &str, span: Span) -> bool {
    &src[span.offset..span.end()] == "null"
}

fn wrong_type(src: &str, span: Span, what: &dyn Fn() -> String, expected: &str) -> Problem {
    Problem::new(
        ProblemKind::WrongType,
        span,
        format!("{} must be {expected}", what()),
        format!("found {}", found(src, span)),
    )
}

/// Syntax error from serde_json, located in `src`.
pub(crate) fn syntax_problem(src: &str, err: &serde_json::Error) -> Problem {
    let offset = offset_of(src, err.line(), err.column());
    let message = err.to_string();
    // serde_json appends " at line L column C"; the label shows the place instead.
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message,
    };
    let len = src[offset..].chars().next().map_or(0, char::len_utf8);
    Problem::new(ProblemKind::Syntax, Span::new(offset, len), "the file is not valid JSON", message)
        .with_help("an 18xx.games game log is one JSON object: {\"title\": …, \"players\": […], \"actions\": […]}")
}

/// Byte offset of a 1-based line and column (serde_json counts columns in bytes).
fn offset_of(src: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (offset + column.saturating_sub(1)).min(src.len());
        }
        offset += l.len();
    }
    src.len()
}

/// Decodes the value at `span` as a string.
pub(crate) fn string_at(
    src: &str,
    span: Span,
    what: &dyn Fn() -> String,
) -> Result<Spanned<String>, Problem> {
    serde_json::from_str::<String>(&src[span.offset..span.end()])
        .map(|s| Spanned::new(s, span))
        .map_err(|_| wrong_type(src, span, what, "a string"))
}

/// Decodes the value at `span` as an integer (an integral float such as `80.0` is accepted).
pub(crate) fn int_at(
    src: &str,
    span: Span,
    what: &dyn Fn() -> String,
) -> Result<Spanned<i64>, Problem> {
    let text = &src[span.offset..span.end()];
    if let Ok(i) = serde_json::from_str::<i64>(text) {
        return Ok(Spanned::new(i, span));
    }
    match serde_json::from_str::<f64>(text) {
        Ok(f) if f.fract() == 0.0 && f.abs() < 1e15 => Ok(Spanned::new(f as i64, span)),
        _ => Err(wrong_type(src, span, what, "an integer")),
    }
}

/// Decodes the value at `span` as a string or an integer, as text (player ids are either).
pub(crate) fn id_at(
    src: &str,
    span: Span,
    what: &dyn Fn() -> String,
) -> Result<Spanned<String>, Problem> {
    let text = &src[span.offset..span.end()];
    if let Ok(s) = serde_json::from_str::<String>(text) {
        return Ok(Spanned::new(s, span));
    }
    match serde_json::from_str::<i64>(text) {
        Ok(i) => Ok(Spanned::new(i.to_string(), span)),
        Err(_) => Err(wrong_type(src, span, what, "a string or an integer")),
    }
}

/// The spans of the elements of the array at `span`.
pub(crate) fn array_at(
    src: &str,
    span: Span,
    what: &dyn Fn() -> String,
) -> Result<Vec<Span>, Problem> {
    let text = &src[span.offset..span.end()];
    match serde_json::from_str::<Vec<&RawValue>>(text) {
        Ok(items) => Ok(items.into_iter().map(|raw| span_of(src, raw)).collect()),
        Err(_) => Err(wrong_type(src, span, what, "an array")),
    }
}

/// A JSON object whose fields are known by span.
#[derive(Debug, Clone)]
pub(crate) struct Obj<'s> {
    pub(crate) src: &'s str,
    pub(crate) span: Span,
    /// What the object is, for messages ("the `bid` action").
    pub(crate) what: String,
    fields: BTreeMap<Cow<'s, str>, Span>,
}

impl<'s> Obj<'s> {
    /// The object at `span`.
    pub(crate) fn at(
        src: &'s str,
        span: Span,
        what: impl Into<String>,
    ) -> Result<Obj<'s>, Problem> {
        let what = what.into();
        let text = &src[span.offset..span.end()];
        // Keys borrow from the file unless they contain escapes (then they are owned).
        let fields: BTreeMap<Cow<'s, str>, Span> =
            match serde_json::from_str::<BTreeMap<&'s str, &'s RawValue>>(text) {
                Ok(map) => map
                    .into_iter()
                    .map(|(k, raw)| (Cow::Borrowed(k), span_of(src, raw)))
                    .collect(),
                Err(_) => serde_json::from_str::<BTreeMap<String, &RawValue>>(text)
                    .map_err(|_| wrong_type(src, span, &|| what.clone(), "an object"))?
                    .into_iter()
                    .map(|(k, raw)| (Cow::Owned(k), span_of(src, raw)))
                    .collect(),
            };
        Ok(Obj {
            src,
            span,
            what,
            fields,
        })
    }

    /// An object whose fields were already located (no second parse of its text).
    pub(crate) fn with_fields<'k: 's>(
        src: &'s str,
        span: Span,
        what: impl Into<String>,
        fields: &'k BTreeMap<String, Span>,
    ) -> Obj<'s> {
        Obj {
            src,
            span,
            what: what.into(),
            fields: fields
                .iter()
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), *v))
                .collect(),
        }
    }

    /// The whole file as an object.
    pub(crate) fn document(src: &'s str) -> Result<Obj<'s>, Problem> {
        let raw: &RawValue = serde_json::from_str(src).map_err(|e| syntax_problem(src, &e))?;
        let span = span_of(src, raw);
        Obj::at(src, span, "the game log").map_err(|p| Problem {
            kind: ProblemKind::NotALog,
            help: Some("an 18xx.games game log is one JSON object: {\"title\": …, \"players\": […], \"actions\": […]}".into()),
            ..p
        })
    }

    /// The field names, sorted.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.fields.keys().map(|k| k.as_ref())
    }

    /// The span of a field's value; `null` counts as absent.
    pub(crate) fn get(&self, key: &str) -> Option<Span> {
        self.fields
            .get(key)
            .copied()
            .filter(|s| !is_null(self.src, *s))
    }

    /// The span of a required field's value.
    pub(crate) fn req(&self, key: &str, expected: &str) -> Result<Span, Problem> {
        self.get(key).ok_or_else(|| {
            Problem::new(
                ProblemKind::MissingField,
                self.span,
                format!("{} has no `{key}` field", self.what),
                format!("`{key}` missing here"),
            )
            .with_help(format!("`{key}` is {expected}"))
        })
    }

    fn field_name(&self, key: &str) -> String {
        format!("`{key}` of {}", self.what)
    }

    pub(crate) fn str(&self, key: &str, expected: &str) -> Result<Spanned<String>, Problem> {
        string_at(self.src, self.req(key, expected)?, &|| self.field_name(key))
    }

    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<Spanned<String>>, Problem> {
        self.get(key)
            .map(|s| string_at(self.src, s, &|| self.field_name(key)))
            .transpose()
    }

    pub(crate) fn int(&self, key: &str, expected: &str) -> Result<Spanned<i64>, Problem> {
        int_at(self.src, self.req(key, expected)?, &|| self.field_name(key))
    }

    pub(crate) fn opt_int(&self, key: &str) -> Result<Option<Spanned<i64>>, Problem> {
        self.get(key)
            .map(|s| int_at(self.src, s, &|| self.field_name(key)))
            .transpose()
    }

    pub(crate) fn opt_id(&self, key: &str) -> Result<Option<Spanned<String>>, Problem> {
        self.get(key)
            .map(|s| id_at(self.src, s, &|| self.field_name(key)))
            .transpose()
    }

    pub(crate) fn array(&self, key: &str, expected: &str) -> Result<Vec<Span>, Problem> {
        array_at(self.src, self.req(key, expected)?, &|| self.field_name(key))
    }

    pub(crate) fn opt_array(&self, key: &str) -> Result<Vec<Span>, Problem> {
        Ok(self
            .get(key)
            .map(|s| array_at(self.src, s, &|| self.field_name(key)))
            .transpose()?
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_know_their_spans() {
        let src = r#"{"a": [1, "x"], "b": {"c": null}}"#;
        let doc = Obj::document(src).unwrap();
        let items = doc.array("a", "a list").unwrap();
        assert_eq!(&src[items[1].offset..items[1].end()], "\"x\"");
        let b = Obj::at(src, doc.get("b").unwrap(), "b").unwrap();
        assert_eq!(b.get("c"), None);
        assert_eq!(b.req("c", "x").unwrap_err().kind, ProblemKind::MissingField);
    }

    #[test]
    fn syntax_errors_point_into_the_file() {
        let src = "{\n  \"title\": \"1836Jr30\",\n  \"players\": [}\n";
        let p = Obj::document(src).unwrap_err();
        assert_eq!(p.kind, ProblemKind::Syntax);
        assert_eq!(p.span.line_col(src).0, 3);
    }

    #[test]
    fn integers_accept_integral_floats() {
        let src = "[80.0, 80.5]";
        let items = array_at(src, Span::new(0, src.len()), &|| "x".into()).unwrap();
        assert_eq!(int_at(src, items[0], &|| "p".into()).unwrap().value, 80);
        assert!(int_at(src, items[1], &|| "p".into()).is_err());
    }
}
