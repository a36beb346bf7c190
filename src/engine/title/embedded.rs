//! The titles' data files compiled into the binary (by `build.rs`): each JSON file is a static
//! tree of [`Data`], read through serde exactly as serde_json reads the text, so the same
//! schema types load it — without scanning text when a process starts.
//!
//! The deserializer follows serde_json's choices wherever the schema can tell them apart:
//! numbers are visited as unsigned, signed or float as serde_json read them; `null` is
//! `None`; a string or a one-key object is an enum variant; object keys are strings, read as
//! numbers or enum variants when the type asks (`BTreeMap<u8, _>`, `BTreeMap<CorpKind, _>`).

use serde::de::value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserializer, IntoDeserializer, Visitor};

/// A JSON value compiled into the binary. A list's items, and an object's keys and values
/// (alternating), are consecutive nodes of one static array; strings are spans of one static
/// text. Offsets instead of pointers: the binary has nothing to relocate for them at start.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Data {
    Null,
    Bool(bool),
    Unsigned(u64),
    // No data file has a negative or fractional number today; the next one may.
    #[allow(dead_code)]
    Signed(i64),
    #[allow(dead_code)]
    Float(f64),
    Text(Span),
    List(Span),
    /// `len` entries: `2 * len` nodes.
    Object(Span),
}

/// Where a node's children (or a string's bytes) are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn range(self, per_item: usize) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + per_item * self.len as usize
    }
}

include!(concat!(env!("OUT_DIR"), "/embedded_titles.rs"));

/// The `title.json` and `map.json` of the folder `data/<folder>/`.
pub(crate) fn files(folder: &str) -> Option<(&'static Data, &'static Data)> {
    FILES
        .iter()
        .find(|(name, _, _)| *name == folder)
        .map(|&(_, title, map)| (&NODES[title], &NODES[map]))
}

/// The errors are serde_json's, so a loader reports a bad embedded file as it would the text.
type Error = serde_json::Error;

fn text(span: Span) -> &'static str {
    &TEXT[span.range(1)]
}

fn entries<'de>(
    object: Span,
) -> MapDeserializer<'de, impl Iterator<Item = (Key, &'static Data)>, Error> {
    MapDeserializer::new(NODES[object.range(2)].chunks_exact(2).map(|pair| {
        let key = match pair[0] {
            Data::Text(span) => text(span),
            // build.rs writes every key as a text node.
            _ => "",
        };
        (Key(key), &pair[1])
    }))
}

impl<'de> Deserializer<'de> for &'static Data {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Data::Null => visitor.visit_unit(),
            Data::Bool(b) => visitor.visit_bool(*b),
            Data::Unsigned(n) => visitor.visit_u64(*n),
            Data::Signed(n) => visitor.visit_i64(*n),
            Data::Float(x) => visitor.visit_f64(*x),
            Data::Text(span) => visitor.visit_borrowed_str(text(*span)),
            Data::List(items) => {
                let mut seq = SeqDeserializer::new(NODES[items.range(1)].iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Data::Object(object) => {
                let mut map = entries(*object);
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Data::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Data::Text(span) => visitor.visit_enum(text(*span).into_deserializer()),
            Data::Object(object) if object.len == 1 => {
                visitor.visit_enum(MapAccessDeserializer::new(entries(*object)))
            }
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Other("a value that is not a string or a one-key object"),
                &"an enum variant",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Error> for &'static Data {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// An object key: a string, or the number or enum variant it spells when the type asks for
/// one (as serde_json reads keys).
struct Key(&'static str);

impl Key {
    fn number<T: std::str::FromStr>(&self) -> Result<T, Error> {
        self.0.parse().map_err(|_| {
            de::Error::invalid_value(de::Unexpected::Str(self.0), &"a number as an object key")
        })
    }
}

macro_rules! number_keys {
    ($($method:ident $visit:ident $ty:ty),*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            visitor.$visit(self.number::<$ty>()?)
        })*
    };
}

impl<'de> Deserializer<'de> for Key {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    number_keys! {
        deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64,
        deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Error> for Key {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}
