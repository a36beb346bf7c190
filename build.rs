//! Compiles the titles' data files (`data/<dir>/title.json` and `map.json`, the single source
//! of the facts) into Rust statics: each file becomes a tree of
//! `crate::engine::title::embedded::Data` nodes in `$OUT_DIR/embedded_titles.rs`, which the
//! title loader deserializes with the same serde types it would read the JSON text with. A
//! process then never scans JSON text for its titles (that was an eighth of a one-game
//! replay). Objects keep their keys in file order, duplicates included, and numbers keep
//! serde_json's reading (unsigned, signed or float), so the types see exactly what the JSON
//! text would have given them.

use std::fmt::Write as _;
use std::path::Path;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value as serde_json reads it, objects in file order.
enum Node {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Unsigned(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Signed(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Node::Object(entries))
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

/// The arena the files are written into: nodes whose children are consecutive nodes (a
/// list's items; an object's keys and values, alternating), and one text holding every string
/// once. Spans are offsets, not pointers, so the loader relocates nothing when it starts.
#[derive(Default)]
struct Arena {
    nodes: Vec<String>,
    text: String,
    strings: std::collections::HashMap<String, (usize, usize)>,
}

impl Arena {
    fn text(&mut self, s: &str) -> String {
        let (start, len) = *self.strings.entry(s.to_string()).or_insert_with(|| {
            self.text.push_str(s);
            (self.text.len() - s.len(), s.len())
        });
        format!("Data::Text(Span {{ start: {start}, len: {len} }})")
    }

    /// Rust source of the node as a `Data` constant; its children are placed first.
    fn place(&mut self, node: &Node) -> String {
        match node {
            Node::Null => "Data::Null".to_string(),
            Node::Bool(b) => format!("Data::Bool({b})"),
            Node::Unsigned(n) => format!("Data::Unsigned({n})"),
            Node::Signed(n) => format!("Data::Signed({n})"),
            // `{:?}` prints an f64 that reads back to the same value, always with `.` or `e`.
            Node::Float(x) => format!("Data::Float({x:?})"),
            Node::Text(s) => self.text(s),
            Node::List(items) => {
                let start = self.reserve(items.len());
                for (i, item) in items.iter().enumerate() {
                    self.nodes[start + i] = self.place(item);
                }
                format!(
                    "Data::List(Span {{ start: {start}, len: {} }})",
                    items.len()
                )
            }
            Node::Object(entries) => {
                let start = self.reserve(2 * entries.len());
                for (i, (key, value)) in entries.iter().enumerate() {
                    self.nodes[start + 2 * i] = self.text(key);
                    self.nodes[start + 2 * i + 1] = self.place(value);
                }
                format!(
                    "Data::Object(Span {{ start: {start}, len: {} }})",
                    entries.len()
                )
            }
        }
    }

    fn reserve(&mut self, count: usize) -> usize {
        let start = self.nodes.len();
        self.nodes.resize(start + count, String::new());
        start
    }

    /// Places a whole file; its root is the returned node index.
    fn root(&mut self, node: &Node) -> usize {
        let index = self.reserve(1);
        self.nodes[index] = self.place(node);
        index
    }
}

fn read(path: &Path) -> Node {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn main() {
    let data = Path::new("data");
    println!("cargo:rerun-if-changed=data");
    // The command line starts faster as a position-dependent executable: a PIE's loader
    // applies about 15,700 relocations (0.2M instructions) and writes 64 pages of
    // `.data.rel.ro` at every start, a sixth of `railnote --version`'s page faults. The price
    // is that the executable's own code and data are not placed at random addresses (shared
    // libraries, stack and heap still are).
    // Only where the linker is GNU-style and the default is a PIE (Linux); other targets keep
    // their linker's defaults. Not for a static C library (musl, or glibc with `crt-static`):
    // rustc links those as a static PIE, which `-no-pie` turns into a binary that crashes at
    // start; `cargo build-static` (.cargo/config.toml) asks rustc itself for a
    // position-dependent one.
    // Cargo leaves `crt-static` out of the features of a musl target, where it is the default.
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    let static_c = std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("musl")
        || std::env::var("CARGO_CFG_TARGET_FEATURE")
            .is_ok_and(|features| features.split(',').any(|f| f == "crt-static"));
    if linux && !static_c {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let mut folders: Vec<String> = std::fs::read_dir(data)
        .expect("data/ is readable")
        .map(|e| e.expect("data/ entry").file_name().into_string().unwrap())
        .filter(|name| data.join(name).join("title.json").is_file())
        .collect();
    folders.sort();
    let mut arena = Arena::default();
    let mut files = String::new();
    for folder in &folders {
        let dir = data.join(folder);
        for file in ["title.json", "map.json"] {
            println!("cargo:rerun-if-changed={}", dir.join(file).display());
        }
        let title = arena.root(&read(&dir.join("title.json")));
        let map = arena.root(&read(&dir.join("map.json")));
        writeln!(files, "    ({folder:?}, {title}, {map}),").unwrap();
    }
    let mut out = format!(
        "/// Every folder of `data/`: its name and the nodes of its `title.json` and `map.json`.\n\
         static FILES: [(&str, usize, usize); {}] = [\n{files}];\n\n\
         /// The strings of the files.\n\
         static TEXT: &str = {:?};\n\n\
         /// The nodes of the files.\n\
         static NODES: [Data; {}] = [\n",
        folders.len(),
        arena.text,
        arena.nodes.len()
    );
    for node in &arena.nodes {
        writeln!(out, "    {node},").unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded_titles.rs");
    std::fs::write(target, out).expect("writing embedded_titles.rs");
}
