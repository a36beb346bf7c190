//! Located JSON access: the file is read once into a flat [`Tree`] of its values, each known by
//! the byte span of its text, so each problem can point at the exact place. Values are decoded
//! only when asked for.
//!
//! serde_json stays the authority on syntax: the tree accepts exactly the texts serde_json
//! accepts, a file it rejects is reported with serde_json's message, and values with escapes
//! or in unusual forms (`80.0`) are decoded by serde_json. The tree exists because reading a
//! log through serde_json's borrowed raw values visits every byte once per nesting level.

use std::borrow::Cow;
use std::fmt;

use serde_json::value::RawValue;

use crate::log::error::{Problem, ProblemKind};
use crate::log::span::{Span, Spanned};

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// One value of the tree. Offsets are `u32`: [`Tree::parse`] refuses texts of 4 GiB and more.
#[derive(Debug, Clone, Copy)]
struct Node {
    offset: u32,
    len: u32,
    /// For a member of an object: its key's text between the quotes.
    key_offset: u32,
    key_len: u32,
    /// The index after the value's last descendant: its next sibling, if it has one.
    end: u32,
    kind: Kind,
    /// A string value with escape sequences; an object with a key that has some.
    escaped: bool,
    /// A key with escape sequences.
    key_escaped: bool,
}

/// Every value of a JSON text, in text order (a container before its elements).
#[derive(Clone, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tree({} values)", self.nodes.len())
    }
}

/// A value of a [`Tree`], by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Val(u32);

impl Val {
    /// The whole text's value.
    pub(crate) const ROOT: Val = Val(0);

    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

#[inline(always)]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    // Most values of a log follow their comma or colon directly, or after one space.
    while let Some(&c) = b.get(i) {
        if c > b' ' || !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` (little endian) that is a quote, a backslash or a control
/// character; the lowest one set is exact (the others may be false).
#[inline(always)]
pub(crate) fn specials(w: u64) -> u64 {
    let zero = |v: u64| v.wrapping_sub(ONES) & !v;
    let quote = zero(w ^ (ONES * u64::from(b'"')));
    let backslash = zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (quote | backslash | control) & HIGHS
}

/// The high bit of each byte of `w` (little endian) that is a quote; the lowest one set is
/// exact (the others may be false).
#[inline(always)]
pub(crate) fn quotes(w: u64) -> u64 {
    let v = w ^ (ONES * u64::from(b'"'));
    v.wrapping_sub(ONES) & !v & HIGHS
}

/// The end of the string starting with the quote at `i`, and whether it has escapes.
#[inline(always)]
pub(crate) fn string_end(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        // Eight bytes at a time up to the next byte that needs a look.
        while let Some(chunk) = b.get(j..j + 8) {
            let found = specials(u64::from_le_bytes(chunk.try_into().ok()?));
            if found != 0 {
                j += (found.trailing_zeros() / 8) as usize;
                break;
            }
            j += 8;
        }
        match *b.get(j)? {
            b'"' => return Some((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                j = escape_end(b, j)?;
            }
            c if c < 0x20 => return None,
            _ => j += 1,
        }
    }
}

/// The end of the escape sequence whose backslash is at `j`.
#[inline(never)]
fn escape_end(b: &[u8], j: usize) -> Option<usize> {
    match *b.get(j + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(j + 2),
        b'u' => b
            .get(j + 2..j + 6)?
            .iter()
            .all(u8::is_ascii_hexdigit)
            .then_some(j + 6),
        _ => None,
    }
}

/// The bytes of `w` (little endian) that are no ASCII digit, each as a non-zero byte (exact for
/// every byte: no carry crosses a byte).
#[inline(always)]
pub(crate) fn non_digits(w: u64) -> u64 {
    const HIGH_NIBBLES: u64 = ONES * 0xF0;
    // A digit's high nibble is 3 and its low nibble plus 6 stays below 16.
    ((w & HIGH_NIBBLES) ^ (ONES * 0x30)) | (((w & (ONES * 0x0F)) + ONES * 6) & HIGH_NIBBLES)
}

/// The end of the digits from `i`: eight at a time (a log's times have ten).
#[inline(always)]
pub(crate) fn digits_end(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let found = non_digits(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The end of the number starting at `i` (RFC 8259 grammar, as serde_json reads it).
#[inline(always)]
pub(crate) fn number_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    match *b.get(j)? {
        b'0' => j += 1,
        b'1'..=b'9' => j = digits_end(b, j + 1),
        _ => return None,
    }
    match b.get(j) {
        Some(b'.' | b'e' | b'E') => fraction_end(b, j),
        _ => Some(j),
    }
}

/// The end of a number's fraction and exponent, which start at `j`.
#[inline(never)]
fn fraction_end(b: &[u8], mut j: usize) -> Option<usize> {
    if b.get(j) == Some(&b'.') {
        let k = digits_end(b, j + 1);
        if k == j + 1 {
            return None;
        }
        j = k;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let k = digits_end(b, j);
        if k == j {
            return None;
        }
        j = k;
    }
    Some(j)
}

/// A member's key: where its text starts, how long it is, whether it has escapes.
#[derive(Clone, Copy)]
struct Key {
    offset: u32,
    len: u32,
    escaped: bool,
}

impl Key {
    /// An array's element has none.
    const NONE: Key = Key {
        offset: 0,
        len: 0,
        escaped: false,
    };
}

/// At the `"` of a member's key at `i`: reads the key, the colon and the whitespace before
/// the value; returns where the value starts.
#[inline(always)]
fn member_key(b: &[u8], i: usize, key: &mut Key) -> Option<usize> {
    if *b.get(i)? != b'"' {
        return None;
    }
    let (end, escaped) = string_end(b, i)?;
    *key = Key {
        offset: (i + 1) as u32,
        len: (end - i - 2) as u32,
        escaped,
    };
    let mut colon = end;
    if *b.get(colon)? != b':' {
        colon = skip_ws(b, colon);
        if *b.get(colon)? != b':' {
            return None;
        }
    }
    Some(skip_ws(b, colon + 1))
}

/// A container not yet closed.
#[derive(Clone, Copy)]
struct Open {
    index: u32,
    object: bool,
}

impl Tree {
    /// Reads a JSON text; `None` if it is not JSON (serde_json says why) or 4 GiB or more.
    fn parse(src: &str) -> Option<Tree> {
        let b = src.as_bytes();
        u32::try_from(b.len()).ok()?;
        // About one value per 8 bytes of an 18xx.games log.
        let mut nodes: Vec<Node> = Vec::with_capacity(b.len() / 8 + 1);
        // The containers not yet closed, innermost last.
        let mut open: Vec<Open> = Vec::with_capacity(16);
        let mut key = Key::NONE;
        let mut i = skip_ws(b, 0);
        loop {
            // A value starts at `i`.
            let start = i;
            let c = *b.get(i)?;
            let (kind, end, escaped) = match c {
                b'"' => {
                    let (end, escaped) = string_end(b, i)?;
                    (Kind::String, end, escaped)
                }
                b'-' | b'0'..=b'9' => (Kind::Number, number_end(b, i)?, false),
                b'{' | b'[' => {
                    let object = c == b'{';
                    let index = nodes.len() as u32;
                    open.push(Open { index, object });
                    nodes.push(Node {
                        offset: start as u32,
                        len: 0,
                        key_offset: key.offset,
                        key_len: key.len,
                        end: 0,
                        kind: if object { Kind::Object } else { Kind::Array },
                        escaped: false,
                        key_escaped: key.escaped,
                    });
                    i = skip_ws(b, i + 1);
                    let close = if object { b'}' } else { b']' };
                    if *b.get(i)? != close {
                        if object {
                            i = member_key(b, i, &mut key)?;
                            if key.escaped {
                                nodes[index as usize].escaped = true;
                            }
                        } else {
                            key = Key::NONE;
                        }
                        continue;
                    }
                    // An empty container: closed below.
                    (Kind::Null, i, false)
                }
                b't' => (Kind::Bool, literal_end(b, i, b"true")?, false),
                b'f' => (Kind::Bool, literal_end(b, i, b"false")?, false),
                b'n' => (Kind::Null, literal_end(b, i, b"null")?, false),
                _ => return None,
            };
            if end != i {
                let index = nodes.len() as u32;
                nodes.push(Node {
                    offset: start as u32,
                    len: (end - start) as u32,
                    key_offset: key.offset,
                    key_len: key.len,
                    end: index + 1,
                    kind,
                    escaped,
                    key_escaped: key.escaped,
                });
                i = end;
            }
            // After a value: the next element, or the end of the containers it closes.
            loop {
                i = skip_ws(b, i);
                let Some(&top) = open.last() else {
                    return (i == b.len()).then_some(Tree { nodes });
                };
                match (*b.get(i)?, top.object) {
                    (b',', true) => {
                        i = member_key(b, skip_ws(b, i + 1), &mut key)?;
                        if key.escaped {
                            nodes[top.index as usize].escaped = true;
                        }
                        break;
                    }
                    (b',', false) => {
                        i = skip_ws(b, i + 1);
                        key = Key::NONE;
                        break;
                    }
                    (b'}', true) | (b']', false) => {
                        let end = nodes.len() as u32;
                        let n = &mut nodes[top.index as usize];
                        n.len = (i + 1) as u32 - n.offset;
                        n.end = end;
                        open.pop();
                        i += 1;
                    }
                    _ => return None,
                }
            }
        }
    }
}

/// The end of the literal `word` expected at `i`.
#[inline(always)]
pub(crate) fn literal_end(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b.get(i..)?.starts_with(word).then_some(i + word.len())
}

/// A key of at most 16 bytes as one number (its bytes, little endian, zero-padded), so that
/// a [`field_set!`] finds a member's field with a few integer comparisons. Only keys that end
/// in zero bytes (written `\u0000`) could share a code with another: [`key_code_of`] gives
/// them none.
pub(crate) const fn key_code(key: &str) -> u128 {
    let b = key.as_bytes();
    assert!(b.len() <= 16, "a field set's keys have at most 16 bytes");
    let mut code = 0u128;
    let mut i = 0;
    while i < b.len() {
        code |= (b[i] as u128) << (8 * i);
        i += 1;
    }
    code
}

/// The bits of a [`key_code`] that a key of each length (0 to 16 bytes) fills.
pub(crate) const KEY_MASKS: [u128; 17] = {
    let mut masks = [0u128; 17];
    let mut len = 1;
    while len <= 16 {
        masks[len] = u128::MAX >> (128 - 8 * len);
        len += 1;
    }
    masks
};

/// [`key_code`] of the `len` bytes at `from`; `None` for a longer key (no field set's) and
/// one that ends in a zero byte.
#[inline(always)]
pub(crate) fn key_code_of(b: &[u8], from: usize, len: usize) -> Option<u128> {
    let mask = *KEY_MASKS.get(len)?;
    let word = match b.get(from..from + 16) {
        // Sixteen bytes are there (the key's end is not the text's): one load, then the mask.
        Some(bytes) => u128::from_le_bytes(bytes.try_into().ok()?),
        None => {
            let mut word = [0u8; 16];
            word[..len].copy_from_slice(b.get(from..from + len)?);
            u128::from_le_bytes(word)
        }
    };
    let code = word & mask;
    // A last byte of zero: the code of the key without it.
    if len > 0 && code >> (8 * (len - 1)) == 0 {
        return None;
    }
    Some(code)
}

/// [`key_code_of`] for a key or string as written in a JSON text, which has no zero bytes
/// (a control character is written escaped).
#[inline(always)]
pub(crate) fn written_code(src: &[u8], from: usize, len: usize) -> Option<u128> {
    let mask = *KEY_MASKS.get(len)?;
    match src.get(from..from + 16) {
        Some(bytes) => Some(u128::from_le_bytes(bytes.try_into().ok()?) & mask),
        None => key_code_of(src, from, len),
    }
}

/// The keys of a [`field_set!`], found by a perfect hash of their [`key_code`]s: a member's
/// field is one multiplication, one table look-up and one comparison away.
pub(crate) struct KeyTable<const N: usize> {
    codes: [u128; N],
    multiplier: u64,
    /// 1 + the index of the key in each bucket, 0 for none.
    buckets: [u8; 128],
}

impl<const N: usize> KeyTable<N> {
    /// The table of `keys`, at compile time.
    pub(crate) const fn new(keys: [&str; N]) -> KeyTable<N> {
        assert!(N < 64, "a field set has fewer than 64 keys");
        let mut codes = [0u128; N];
        let mut i = 0;
        while i < N {
            codes[i] = key_code(keys[i]);
            i += 1;
        }
        // Odd multipliers in turn until one sends every key to its own bucket.
        let mut multiplier: u64 = 0x9E37_79B9_7F4A_7C15;
        loop {
            let mut buckets = [0u8; 128];
            let mut i = 0;
            let mut clash = false;
            while i < N && !clash {
                let b = Self::bucket(codes[i], multiplier);
                clash = buckets[b] != 0;
                buckets[b] = i as u8 + 1;
                i += 1;
            }
            if !clash {
                return KeyTable {
                    codes,
                    multiplier,
                    buckets,
                };
            }
            multiplier = multiplier
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(2)
                | 1;
        }
    }

    #[inline(always)]
    const fn bucket(code: u128, multiplier: u64) -> usize {
        // Twice as many buckets as keys at least: a multiplier that parts them is soon found.
        ((code as u64 ^ (code >> 64) as u64).wrapping_mul(multiplier) >> 57) as usize
    }

    /// The index of the key whose code is `code`, if it is one of them.
    #[inline(always)]
    pub(crate) fn slot(&self, code: u128) -> Option<usize> {
        let at = usize::from(self.buckets[Self::bucket(code, self.multiplier)]).checked_sub(1)?;
        (self.codes.get(at) == Some(&code)).then_some(at)
    }
}

/// A set of fields an object is read for in one pass ([`Obj::find`]): a module `$set` with the
/// keys (`KEYS`), each field's index (`$field`), and `slot`, which finds a key code's index.
/// Whether every key of `some` is one of `all`.
pub(crate) const fn keys_cover(all: &[&str], some: &[&str]) -> bool {
    let mut i = 0;
    while i < some.len() {
        let mut found = false;
        let mut j = 0;
        while j < all.len() && !found {
            found = same_key(all[j], some[i]);
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

const fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

macro_rules! field_set {
    ($(#[$doc:meta])* $vis:vis $set:ident { $($field:ident = $key:literal),* $(,)? }) => {
        $(#[$doc])*
        #[allow(dead_code)]
        $vis mod $set {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            enum Index {
                $($field),*
            }

            // As visible as the module: the module's own visibility limits them.
            $(pub(crate) const $field: usize = Index::$field as usize;)*

            pub(crate) const KEYS: [&str; [$($key),*].len()] = [$($key),*];

            static TABLE: $crate::log::json::KeyTable<{ KEYS.len() }> =
                $crate::log::json::KeyTable::new(KEYS);

            #[inline(always)]
            pub(crate) fn slot(key: u128) -> Option<usize> {
                TABLE.slot(key)
            }
        }
    };
}
pub(crate) use field_set;

/// A JSON text and its tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Json<'s> {
    pub(crate) src: &'s str,
    tree: &'s Tree,
}

/// The elements of an array, in order.
#[derive(Debug, Clone)]
pub(crate) struct Elements<'s> {
    nodes: &'s [Node],
    next: u32,
    end: u32,
}

impl Iterator for Elements<'_> {
    type Item = Val;

    fn next(&mut self) -> Option<Val> {
        (self.next < self.end).then(|| {
            let v = Val(self.next);
            self.next = self.nodes[self.next as usize].end;
            v
        })
    }
}

impl<'s> Json<'s> {
    /// Reads the whole text.
    ///
    /// # Errors
    /// The text is not JSON.
    pub(crate) fn parse(src: &str) -> Result<Tree, Problem> {
        Tree::parse(src).ok_or_else(|| match serde_json::from_str::<&RawValue>(src) {
            Err(e) => syntax_problem(src, &e),
            // Only a text of 4 GiB or more gets here.
            Ok(_) => Problem::new(
                ProblemKind::Syntax,
                Span::new(0, 0),
                "the file is too large to be a game log",
                "here",
            ),
        })
    }

    /// The text `src` read into `tree` (by [`Json::parse`]).
    pub(crate) fn new(src: &'s str, tree: &'s Tree) -> Json<'s> {
        Json { src, tree }
    }

    fn node(self, v: Val) -> &'s Node {
        &self.tree.nodes[v.index()]
    }

    /// The span of a value's text.
    pub(crate) fn span(self, v: Val) -> Span {
        let n = self.node(v);
        Span::new(n.offset as usize, n.len as usize)
    }

    fn text(self, v: Val) -> &'s str {
        let n = self.node(v);
        &self.src[n.offset as usize..(n.offset + n.len) as usize]
    }

    fn elements(self, v: Val) -> Elements<'s> {
        Elements {
            nodes: &self.tree.nodes,
            next: v.0 + 1,
            end: self.node(v).end,
        }
    }

    /// The key of an object's member, decoded; `None` if it cannot be (a lone surrogate).
    fn key(self, member: Val) -> Option<Cow<'s, str>> {
        let n = self.node(member);
        let (from, to) = (n.key_offset as usize, (n.key_offset + n.key_len) as usize);
        if n.key_escaped {
            serde_json::from_str::<String>(&self.src[from - 1..to + 1])
                .ok()
                .map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(&self.src[from..to]))
        }
    }

    fn key_is(self, member: Val, key: &str) -> bool {
        let n = self.node(member);
        if n.key_escaped {
            return self.key(member).is_some_and(|k| k == key);
        }
        let from = n.key_offset as usize;
        &self.src[from..from + n.key_len as usize] == key
    }
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
    // serde_json counts columns in bytes and may place an error inside a character (a text
    // cut off after `é`): the label starts at that character.
    let offset = src.floor_char_boundary(offset);
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

/// Decodes a value as a string, borrowed from the text unless it has escapes.
pub(crate) fn text_at<'s>(
    json: Json<'s>,
    v: Val,
    what: &dyn Fn() -> String,
) -> Result<Spanned<Cow<'s, str>>, Problem> {
    let n = json.node(v);
    let span = json.span(v);
    match (n.kind, n.escaped) {
        (Kind::String, false) => {
            let text = json.text(v);
            Ok(Spanned::new(Cow::Borrowed(&text[1..text.len() - 1]), span))
        }
        _ => serde_json::from_str::<String>(json.text(v))
            .map(|s| Spanned::new(Cow::Owned(s), span))
            .map_err(|_| wrong_type(json.src, span, what, "a string")),
    }
}

/// Whether a value is a string without escapes: text as it is written.
pub(crate) fn is_plain_string(json: Json<'_>, v: Val) -> bool {
    let n = json.node(v);
    n.kind == Kind::String && !n.escaped
}

/// The [`key_code`] of a string value written without escapes (`None` for others).
pub(crate) fn string_code(json: Json<'_>, v: Val) -> Option<u128> {
    let n = json.node(v);
    if n.kind != Kind::String || n.escaped {
        return None;
    }
    written_code(
        json.src.as_bytes(),
        n.offset as usize + 1,
        n.len as usize - 2,
    )
}

/// Decodes a value as a string.
pub(crate) fn string_at(
    json: Json<'_>,
    v: Val,
    what: &dyn Fn() -> String,
) -> Result<Spanned<String>, Problem> {
    text_at(json, v, what).map(|t| Spanned::new(t.value.into_owned(), t.span))
}

/// Decodes a value as an integer (an integral float such as `80.0` is accepted).
pub(crate) fn int_at(
    json: Json<'_>,
    v: Val,
    what: &dyn Fn() -> String,
) -> Result<Spanned<i64>, Problem> {
    let text = json.text(v);
    let span = json.span(v);
    // A JSON integer that fits: what serde_json would read, without its setup.
    if json.node(v).kind == Kind::Number {
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Spanned::new(i, span));
        }
    }
    if let Ok(i) = serde_json::from_str::<i64>(text) {
        return Ok(Spanned::new(i, span));
    }
    match serde_json::from_str::<f64>(text) {
        Ok(f) if f.fract() == 0.0 && f.abs() < 1e15 => Ok(Spanned::new(f as i64, span)),
        _ => Err(wrong_type(json.src, span, what, "an integer")),
    }
}

/// Decodes a value that is a string or an integer, as text (player ids are either); borrowed
/// from the file unless it has escapes or is not written as the integer would be printed.
pub(crate) fn id_at<'s>(
    json: Json<'s>,
    v: Val,
    what: &dyn Fn() -> String,
) -> Result<Spanned<Cow<'s, str>>, Problem> {
    let span = json.span(v);
    match json.node(v).kind {
        Kind::String => text_at(json, v, what),
        Kind::Number => {
            let text = json.text(v);
            // A JSON integer is written as it is printed, but for `-0`.
            if text.parse::<i64>().is_ok() && text != "-0" {
                return Ok(Spanned::new(Cow::Borrowed(text), span));
            }
            match text
                .parse::<i64>()
                .or_else(|_| serde_json::from_str::<i64>(text))
            {
                Ok(i) => Ok(Spanned::new(Cow::Owned(i.to_string()), span)),
                Err(_) => Err(wrong_type(json.src, span, what, "a string or an integer")),
            }
        }
        _ => Err(wrong_type(json.src, span, what, "a string or an integer")),
    }
}

/// The elements of an array value.
pub(crate) fn array_at<'s>(
    json: Json<'s>,
    v: Val,
    what: &dyn Fn() -> String,
) -> Result<Elements<'s>, Problem> {
    match json.node(v).kind {
        Kind::Array => Ok(json.elements(v)),
        _ => Err(wrong_type(json.src, json.span(v), what, "an array")),
    }
}

/// What an object is, for messages.
#[derive(Debug, Clone, Copy)]
pub(crate) enum What<'a> {
    /// Said as written ("a route").
    Text(&'a str),
    /// An action of the named type ("the `bid` action").
    Action(&'a str),
}

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::Text(t) => f.write_str(t),
            What::Action(kind) => write!(f, "the `{kind}` action"),
        }
    }
}

/// A JSON object whose members are found by key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Obj<'s> {
    pub(crate) json: Json<'s>,
    val: Val,
    pub(crate) span: Span,
    what: What<'s>,
}

impl<'s> Obj<'s> {
    /// The object value `v`.
    pub(crate) fn at(json: Json<'s>, v: Val, what: What<'s>) -> Result<Obj<'s>, Problem> {
        let span = json.span(v);
        // A key that cannot be decoded makes the value unreadable as an object, as it is for
        // serde_json.
        let n = json.node(v);
        let readable = n.kind == Kind::Object
            && (!n.escaped || json.elements(v).all(|m| json.key(m).is_some()));
        if !readable {
            return Err(wrong_type(
                json.src,
                span,
                &|| what.to_string(),
                "an object",
            ));
        }
        Ok(Obj {
            json,
            val: v,
            span,
            what,
        })
    }

    /// The value `v`, already read as an object by [`Obj::at`].
    pub(crate) fn read(json: Json<'s>, v: Val, what: What<'s>) -> Obj<'s> {
        debug_assert_eq!(json.node(v).kind, Kind::Object);
        Obj {
            json,
            val: v,
            span: json.span(v),
            what,
        }
    }

    /// The whole text as an object.
    pub(crate) fn document(json: Json<'s>) -> Result<Obj<'s>, Problem> {
        Obj::at(json, Val::ROOT, What::Text("the game log")).map_err(|p| Problem {
            kind: ProblemKind::NotALog,
            help: Some("an 18xx.games game log is one JSON object: {\"title\": …, \"players\": […], \"actions\": […]}".into()),
            ..p
        })
    }

    /// The keys, sorted, each once.
    pub(crate) fn keys(&self) -> Vec<Cow<'s, str>> {
        let mut keys: Vec<Cow<'s, str>> = self
            .json
            .elements(self.val)
            .filter_map(|m| self.json.key(m))
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// A member's value; when a key is repeated, the last one counts (as for serde_json).
    fn member(&self, key: &str) -> Option<Val> {
        let (nodes, src) = (&self.json.tree.nodes, self.json.src.as_bytes());
        let (mut i, end) = (self.val.0 + 1, nodes[self.val.index()].end);
        let mut found = None;
        while i < end {
            let n = &nodes[i as usize];
            let is = if n.key_escaped {
                self.json.key_is(Val(i), key)
            } else {
                let from = n.key_offset as usize;
                n.key_len as usize == key.len() && &src[from..from + key.len()] == key.as_bytes()
            };
            if is {
                found = Some(Val(i));
            }
            i = n.end;
        }
        found
    }

    /// The fields of a [`field_set!`] in one pass over the members. When a key is repeated
    /// the last one counts (as for serde_json); `null` counts as absent.
    pub(crate) fn find<const N: usize>(
        &self,
        keys: &'static [&'static str; N],
        slot: impl Fn(u128) -> Option<usize>,
    ) -> Fields<'s, N> {
        let (nodes, src) = (&self.json.tree.nodes, self.json.src.as_bytes());
        let (mut i, end) = (self.val.0 + 1, nodes[self.val.index()].end);
        let mut found = [0; N];
        while i < end {
            let n = &nodes[i as usize];
            let code = if n.key_escaped {
                self.json
                    .key(Val(i))
                    .and_then(|k| key_code_of(k.as_bytes(), 0, k.len()))
            } else {
                written_code(src, n.key_offset as usize, n.key_len as usize)
            };
            if let Some(at) = code.and_then(&slot).and_then(|at| found.get_mut(at)) {
                // The root is no member: 0 is free to say "absent".
                *at = if n.kind == Kind::Null { 0 } else { i };
            }
            i = n.end;
        }
        Fields {
            obj: *self,
            keys,
            found,
        }
    }

    /// A field's value; `null` counts as absent.
    pub(crate) fn get(&self, key: &str) -> Option<Val> {
        self.member(key)
            .filter(|v| self.json.node(*v).kind != Kind::Null)
    }

    /// The span of a field's value; `null` counts as absent.
    pub(crate) fn get_span(&self, key: &str) -> Option<Span> {
        self.get(key).map(|v| self.json.span(v))
    }

    /// A required field's value.
    pub(crate) fn req(&self, key: &str, expected: &str) -> Result<Val, Problem> {
        self.required(key, self.get(key), expected)
    }

    /// A required field's value, found already.
    pub(crate) fn required(
        &self,
        key: &str,
        found: Option<Val>,
        expected: &str,
    ) -> Result<Val, Problem> {
        found.ok_or_else(|| {
            Problem::new(
                ProblemKind::MissingField,
                self.span,
                format!("{} has no `{key}` field", self.what),
                format!("`{key}` missing here"),
            )
            .with_help(format!("`{key}` is {expected}"))
        })
    }

    /// How a field is named in messages: "`price` of the `bid` action".
    pub(crate) fn field_name(&self, key: &str) -> String {
        format!("`{key}` of {}", self.what)
    }

    pub(crate) fn str(&self, key: &str, expected: &str) -> Result<Spanned<String>, Problem> {
        string_at(self.json, self.req(key, expected)?, &|| {
            self.field_name(key)
        })
    }

    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<Spanned<String>>, Problem> {
        self.get(key)
            .map(|v| string_at(self.json, v, &|| self.field_name(key)))
            .transpose()
    }

    pub(crate) fn int(&self, key: &str, expected: &str) -> Result<Spanned<i64>, Problem> {
        int_at(self.json, self.req(key, expected)?, &|| {
            self.field_name(key)
        })
    }

    pub(crate) fn opt_int(&self, key: &str) -> Result<Option<Spanned<i64>>, Problem> {
        self.get(key)
            .map(|v| int_at(self.json, v, &|| self.field_name(key)))
            .transpose()
    }

    pub(crate) fn opt_id(&self, key: &str) -> Result<Option<Spanned<String>>, Problem> {
        self.get(key)
            .map(|v| {
                id_at(self.json, v, &|| self.field_name(key))
                    .map(|t| Spanned::new(t.value.into_owned(), t.span))
            })
            .transpose()
    }

    pub(crate) fn array(&self, key: &str, expected: &str) -> Result<Elements<'s>, Problem> {
        array_at(self.json, self.req(key, expected)?, &|| {
            self.field_name(key)
        })
    }

    /// An optional array; absent reads as empty.
    pub(crate) fn opt_array(&self, key: &str) -> Result<Elements<'s>, Problem> {
        match self.get(key) {
            Some(v) => array_at(self.json, v, &|| self.field_name(key)),
            None => Ok(Elements {
                nodes: &[],
                next: 0,
                end: 0,
            }),
        }
    }
}

/// Fields of an object found in one pass ([`Obj::find`]), read by their index in its keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields<'s, const N: usize> {
    pub(crate) obj: Obj<'s>,
    keys: &'static [&'static str; N],
    /// Each field's value by index, 0 if absent.
    found: [u32; N],
}

impl<'s, const N: usize> Fields<'s, N> {
    /// Every field's value, in the order of the keys.
    pub(crate) fn values(&self) -> [Option<Val>; N] {
        self.found.map(|v| (v != 0).then_some(Val(v)))
    }

    /// A field's value; `null` counts as absent.
    pub(crate) fn get(&self, k: usize) -> Option<Val> {
        let v = self.found[k];
        (v != 0).then_some(Val(v))
    }

    /// A required field's value.
    pub(crate) fn req(&self, k: usize, expected: &str) -> Result<Val, Problem> {
        self.obj.required(self.keys[k], self.get(k), expected)
    }

    /// How a field is named in messages: "`price` of the `bid` action".
    pub(crate) fn field_name(&self, k: usize) -> String {
        self.obj.field_name(self.keys[k])
    }

    /// A required string field, borrowed from the text unless it has escapes.
    pub(crate) fn text(&self, k: usize, expected: &str) -> Result<Spanned<Cow<'s, str>>, Problem> {
        text_at(self.obj.json, self.req(k, expected)?, &|| {
            self.field_name(k)
        })
    }

    /// An optional string field, borrowed from the text unless it has escapes.
    pub(crate) fn opt_text(&self, k: usize) -> Result<Option<Spanned<Cow<'s, str>>>, Problem> {
        self.get(k)
            .map(|v| text_at(self.obj.json, v, &|| self.field_name(k)))
            .transpose()
    }

    pub(crate) fn int(&self, k: usize, expected: &str) -> Result<Spanned<i64>, Problem> {
        int_at(self.obj.json, self.req(k, expected)?, &|| {
            self.field_name(k)
        })
    }

    pub(crate) fn opt_int(&self, k: usize) -> Result<Option<Spanned<i64>>, Problem> {
        self.get(k)
            .map(|v| int_at(self.obj.json, v, &|| self.field_name(k)))
            .transpose()
    }

    pub(crate) fn array(&self, k: usize, expected: &str) -> Result<Elements<'s>, Problem> {
        array_at(self.obj.json, self.req(k, expected)?, &|| {
            self.field_name(k)
        })
    }

    /// An optional array; absent reads as empty.
    pub(crate) fn opt_array(&self, k: usize) -> Result<Elements<'s>, Problem> {
        match self.get(k) {
            Some(v) => array_at(self.obj.json, v, &|| self.field_name(k)),
            None => Ok(Elements {
                nodes: &[],
                next: 0,
                end: 0,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn tree(src: &str) -> Tree {
        Json::parse(src).unwrap()
    }

    #[test]
    fn fields_know_their_spans() {
        let src = r#"{"a": [1, "x"], "b": {"c": null}}"#;
        let t = tree(src);
        let json = Json::new(src, &t);
        let doc = Obj::document(json).unwrap();
        let items: Vec<Val> = doc.array("a", "a list").unwrap().collect();
        let x = json.span(items[1]);
        assert_eq!(&src[x.offset..x.end()], "\"x\"");
        let b = Obj::at(json, doc.get("b").unwrap(), What::Text("b")).unwrap();
        assert_eq!(b.get("c"), None);
        assert_eq!(b.req("c", "x").unwrap_err().kind, ProblemKind::MissingField);
    }

    #[test]
    fn syntax_errors_point_into_the_file() {
        let src = "{\n  \"title\": \"1836Jr30\",\n  \"players\": [}\n";
        let p = Json::parse(src).unwrap_err();
        assert_eq!(p.kind, ProblemKind::Syntax);
        assert_eq!(p.span.line_col(src).0, 3);
        assert_eq!(p.label, "expected value");
    }

    #[test]
    fn integers_accept_integral_floats() {
        let src = "[80.0, 80.5, 1e2, -0, 12345678901234567890]";
        let t = tree(src);
        let json = Json::new(src, &t);
        let items: Vec<Val> = array_at(json, Val::ROOT, &|| "x".into()).unwrap().collect();
        let int = |i: usize| int_at(json, items[i], &|| "p".into()).map(|s| s.value);
        assert_eq!(int(0).unwrap(), 80);
        assert!(int(1).is_err());
        assert_eq!(int(2).unwrap(), 100);
        assert_eq!(int(3).unwrap(), 0);
        assert!(int(4).is_err());
    }

    #[test]
    fn escaped_keys_and_strings_are_decoded_and_the_last_repeated_key_counts() {
        let src = r#"{"t\u0069tle": "a\"b", "x": 1, "x": 2, "y": 3, "y": null}"#;
        let t = tree(src);
        let json = Json::new(src, &t);
        let doc = Obj::document(json).unwrap();
        assert_eq!(doc.str("title", "").unwrap().value, "a\"b");
        assert_eq!(doc.int("x", "").unwrap().value, 2);
        assert_eq!(doc.get("y"), None);
        assert_eq!(doc.keys(), ["title", "x", "y"]);
        // A lone surrogate in a key: not readable as an object.
        let src = r#"{"\ud800": 1}"#;
        let t = tree(src);
        let p = Obj::document(Json::new(src, &t)).unwrap_err();
        assert_eq!(p.kind, ProblemKind::NotALog);
    }

    #[test]
    fn digits_end_at_the_first_byte_of_any_value_that_is_no_digit() {
        for byte in 0..=255u8 {
            for at in 0..20 {
                let mut text = vec![b'7'; 20];
                text[at] = byte;
                let end = if byte.is_ascii_digit() { 20 } else { at };
                assert_eq!(digits_end(&text, 0), end, "{byte:#x} at {at}");
                // Where fewer than eight bytes are left.
                text.extend([byte, b'1', b'x']);
                let end = if byte.is_ascii_digit() { 22 } else { 20 };
                assert_eq!(digits_end(&text, 20), end, "{byte:#x} near the end");
            }
        }
        assert_eq!(digits_end(b"", 0), 0);
        assert_eq!(digits_end(b"12", 2), 2);
    }

    #[test]
    fn the_first_quote_is_found_exactly() {
        for at in 0..8 {
            for other in 0..=255u8 {
                let mut word = [b'a'; 8];
                word[at] = b'"';
                for (i, b) in word.iter_mut().enumerate().skip(at + 1) {
                    *b = if i % 2 == 0 { other } else { b'"' };
                }
                let found = quotes(u64::from_le_bytes(word));
                assert_eq!(
                    found.trailing_zeros() / 8,
                    at as u32,
                    "{other:#x} after {at}"
                );
            }
        }
        assert_eq!(quotes(u64::from_le_bytes(*b"no quote")), 0);
    }

    #[test]
    fn key_tables_find_their_keys_and_no_others() {
        const KEYS: [&str; 8] = [
            "entity",
            "entity_type",
            "a",
            "",
            "0123456789abcdef",
            "id",
            "ID",
            "i",
        ];
        let table = KeyTable::new(KEYS);
        for (i, k) in KEYS.iter().enumerate() {
            assert_eq!(
                key_code_of(k.as_bytes(), 0, k.len()).and_then(|c| table.slot(c)),
                Some(i)
            );
            // Where sixteen bytes follow and where they do not.
            let padded = format!("{k}\"{}", "x".repeat(20));
            assert_eq!(
                key_code_of(padded.as_bytes(), 0, k.len()).and_then(|c| table.slot(c)),
                Some(i)
            );
        }
        for other in [
            "entit",
            "entity_",
            "b",
            "0123456789abcdeF",
            "Id",
            "id\0",
            "a\0\0",
            "\0",
        ] {
            let code = key_code_of(other.as_bytes(), 0, other.len());
            assert_eq!(code.and_then(|c| table.slot(c)), None, "{other:?}");
        }
        assert_eq!(key_code_of(b"0123456789abcdefg", 0, 17), None);
    }

    #[test]
    fn a_field_set_reads_the_last_of_repeated_keys_and_escaped_keys() {
        field_set! {
            probe {
                TYPE = "type",
                HEX = "hex",
            }
        }
        let src = r#"{"type": 1, "h\u0065x": 2, "type": 3, "hex\u0000": 4, "x": 5}"#;
        let t = tree(src);
        let json = Json::new(src, &t);
        let doc = Obj::document(json).unwrap();
        let fields = doc.find(&probe::KEYS, probe::slot);
        let int = |k| fields.int(k, "").unwrap().value;
        assert_eq!((int(probe::TYPE), int(probe::HEX)), (3, 2));
        let src = r#"{"type": 1, "type": null}"#;
        let t = tree(src);
        let doc = Obj::document(Json::new(src, &t)).unwrap();
        assert_eq!(doc.find(&probe::KEYS, probe::slot).get(probe::TYPE), None);
    }

    /// Where the tree and serde_json's raw values disagree about a text, if anywhere: whether
    /// it is JSON, and the spans of the members of every object and the elements of every array.
    fn disagreement(src: &str) -> Option<String> {
        let serde = serde_json::from_str::<&RawValue>(src).is_ok();
        let t = match Tree::parse(src) {
            Some(t) if serde => t,
            Some(_) => return Some("only the tree accepts it".into()),
            None if serde => return Some("only serde_json accepts it".into()),
            None => return None,
        };
        let json = Json::new(src, &t);
        let span_in = |raw: &RawValue| {
            let offset = raw.get().as_ptr() as usize - src.as_ptr() as usize;
            Span::new(offset, raw.get().len())
        };
        for i in 0..t.nodes.len() {
            let v = Val(i as u32);
            let text = json.text(v);
            match json.node(v).kind {
                Kind::Object => {
                    let theirs: BTreeMap<String, Span> =
                        match serde_json::from_str::<BTreeMap<String, &RawValue>>(text) {
                            Ok(m) => m.into_iter().map(|(k, r)| (k, span_in(r))).collect(),
                            Err(_) => continue,
                        };
                    let obj = Obj::at(json, v, What::Text("x")).ok()?;
                    let ours: BTreeMap<String, Span> = obj
                        .keys()
                        .into_iter()
                        .map(|k| (k.to_string(), json.span(obj.member(&k).unwrap())))
                        .collect();
                    if ours != theirs {
                        return Some(format!("object {text}: {ours:?} != {theirs:?}"));
                    }
                }
                Kind::Array => {
                    let theirs: Vec<Span> = serde_json::from_str::<Vec<&RawValue>>(text)
                        .unwrap()
                        .into_iter()
                        .map(span_in)
                        .collect();
                    let ours: Vec<Span> = json.elements(v).map(|e| json.span(e)).collect();
                    if ours != theirs {
                        return Some(format!("array {text}: {ours:?} != {theirs:?}"));
                    }
                }
                _ => {}
            }
        }
        None
    }

    #[test]
    fn the_tree_reads_texts_as_serde_json_does() {
        for src in [
            "",
            " ",
            "{}",
            "[]",
            " [ ] ",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "[01]",
            "[-]",
            "[1.]",
            "[1e]",
            "[1e+5, -0.5E-3]",
            "[tru]",
            "[nulll]",
            "\"\\x\"",
            "\"\\u12g4\"",
            "\"a\tb\"",
            "{\"a\":{\"b\":[[],{}]}} x",
            "[\"\\ud800\"]",
            "{1:2}",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "\u{feff}{}",
            "[\"é\", \"\\u00e9\"]",
        ] {
            assert_eq!(disagreement(src), None, "{src:?}");
        }
        let log = include_str!("../../samples/1836jr30-opening.json");
        assert_eq!(disagreement(log), None);
    }

    /// A JSON text with random whitespace.
    fn json_text() -> impl Strategy<Value = String> {
        let ws = prop::sample::select(vec!["", " ", "\n", "\t ", "\r\n"]);
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("false".to_string()),
            "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?([eE][+-]?[0-9]{1,2})?",
            "\"([a-z ]|\\\\[\"nt/]|\\\\u00[0-9a-f]{2}|é){0,4}\"",
        ];
        leaf.prop_recursive(4, 24, 4, move |inner| {
            let ws = ws.clone();
            prop_oneof![
                prop::collection::vec((inner.clone(), ws.clone()), 0..4).prop_map(|items| {
                    let items: Vec<String> = items
                        .into_iter()
                        .map(|(v, w)| format!("{w}{v}{w}"))
                        .collect();
                    format!("[{}]", items.join(","))
                }),
                prop::collection::vec(("[a-c]{1,2}", inner, ws), 0..4).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v, w)| format!("{w}\"{k}\"{w}:{w}{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        // Broken texts are many and each is quick to judge.
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_tree_agrees_with_serde_json_on_texts(text in json_text()) {
            prop_assert_eq!(disagreement(&text), None);
        }

        /// One byte changed, removed or added: mostly broken texts.
        #[test]
        fn the_tree_agrees_with_serde_json_on_changed_texts(
            text in json_text(),
            at in any::<prop::sample::Index>(),
            byte in prop::sample::select(b"{}[]\",:0-.eE+ x\\u".to_vec()),
            how in 0..3u8,
        ) {
            let mut bytes = text.into_bytes();
            let i = at.index(bytes.len() + 1);
            match how {
                0 if i < bytes.len() => bytes[i] = byte,
                1 if i < bytes.len() => { bytes.remove(i); }
                _ => bytes.insert(i, byte),
            }
            if let Ok(text) = String::from_utf8(bytes) {
                prop_assert_eq!(disagreement(&text), None);
            }
        }
    }
}
