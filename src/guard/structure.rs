//! Structured files (JSON, TOML, YAML) are compared by their structure, not
//! their lines: a 6 KB one-line JSON cut to `{}` has one line before and
//! after, but hundreds of entries fewer. A file that parsed before must
//! parse after. Pure functions, no I/O.
//!
//! Parsers: `serde_json` (already a dependency), `toml` and
//! `saphyr-parser` (pure Rust; docs/decisions.md records their cost). Each
//! document becomes a small tree; its *entries* are its leaves (`key=value`,
//! `key[]=value` for list elements) and its containers (`key:{}`,
//! `key:[]`), named by their last key so that renaming or moving a parent
//! keeps its children's entries. The Jaccard index is taken over the
//! multiset of entries and the volume over their count.

use std::collections::HashMap;

use super::lang::Format;

/// A parsed document, reduced to what the comparison needs.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A scalar, written the way the format's parser gives it back.
    Leaf(String),
    /// A mapping, in document order.
    Map(Vec<(String, Node)>),
    /// A sequence.
    Seq(Vec<Node>),
}

/// Why a document did not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

/// Parses `bytes` as `format`.
pub fn parse(bytes: &[u8], format: Format) -> Result<Node, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ParseError(e.to_string()))?;
    match format {
        Format::Json => serde_json::from_str::<serde_json::Value>(text)
            .map(|v| from_json(&v))
            .map_err(|e| ParseError(e.to_string())),
        Format::Jsonc => serde_json::from_str::<serde_json::Value>(&without_comments(text))
            .map(|v| from_json(&v))
            .map_err(|e| ParseError(e.to_string())),
        Format::Toml => text
            .parse::<toml::Table>()
            .map(|t| from_toml(&toml::Value::Table(t)))
            .map_err(|e| ParseError(e.to_string().lines().next().unwrap_or("").to_string())),
        Format::Yaml => from_yaml(text),
    }
}

/// Returns JSONC as JSON: `//`, `#` and `/* */` comments blanked (line
/// breaks kept, so a parse error's line is the file's), and a comma
/// before a closing bracket dropped. Strings are left as they are.
fn without_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                // A string, to its closing quote (escapes skipped).
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.extend_from_slice(&b[start..i]);
                line_start = false;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'#' if line_start => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] == b'\n' {
                        out.push(b'\n');
                    }
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(b' ');
                continue;
            }
            b'}' | b']' => {
                if let Some(p) = out.iter().rposition(|x| !x.is_ascii_whitespace()) {
                    if out[p] == b',' {
                        out[p] = b' ';
                    }
                }
            }
            _ => {}
        }
        if c == b'\n' {
            line_start = true;
        } else if !c.is_ascii_whitespace() {
            line_start = false;
        }
        out.push(c);
        i += 1;
    }
    // Only ASCII bytes were removed or replaced, outside strings.
    String::from_utf8(out).unwrap_or_default()
}

fn from_json(v: &serde_json::Value) -> Node {
    use serde_json::Value;
    match v {
        Value::Object(m) => Node::Map(m.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()),
        Value::Array(a) => Node::Seq(a.iter().map(from_json).collect()),
        Value::Null => Node::Leaf(String::new()),
        Value::String(s) => Node::Leaf(s.clone()),
        other => Node::Leaf(other.to_string()),
    }
}

/// Documents nested deeper than this are cut there: a subtree below is one
/// entry, so a crafted document cannot exhaust the stack.
const MAX_DEPTH: usize = 256;

fn from_toml(v: &toml::Value) -> Node {
    from_toml_at(v, 0)
}

fn from_toml_at(v: &toml::Value, depth: usize) -> Node {
    use toml::Value;
    if depth > MAX_DEPTH {
        return Node::Leaf("…".into());
    }
    match v {
        Value::Table(t) => Node::Map(
            t.iter()
                .map(|(k, v)| (k.clone(), from_toml_at(v, depth + 1)))
                .collect(),
        ),
        Value::Array(a) => Node::Seq(a.iter().map(|v| from_toml_at(v, depth + 1)).collect()),
        Value::String(s) => Node::Leaf(s.clone()),
        Value::Integer(i) => Node::Leaf(i.to_string()),
        Value::Float(f) => Node::Leaf(f.to_string()),
        Value::Boolean(b) => Node::Leaf(b.to_string()),
        Value::Datetime(d) => Node::Leaf(d.to_string()),
    }
}

/// Builds the tree of a YAML stream from the parser's events; several
/// documents become a sequence.
fn from_yaml(text: &str) -> Result<Node, ParseError> {
    use saphyr_parser::{Event, Parser};
    enum Open {
        Map(Vec<(String, Node)>, Option<String>),
        Seq(Vec<Node>),
    }
    let mut stack: Vec<Open> = vec![Open::Seq(Vec::new())];
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut anchor_of: Vec<usize> = Vec::new();
    fn push(stack: &mut [Open], node: Node) {
        match stack.last_mut() {
            Some(Open::Seq(items)) => items.push(node),
            Some(Open::Map(entries, key)) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => {
                    *key = Some(match node {
                        Node::Leaf(s) => s,
                        _ => "?".to_string(),
                    })
                }
            },
            None => {}
        }
    }
    for event in Parser::new_from_str(text) {
        let (event, _) = event.map_err(|e| ParseError(e.to_string()))?;
        match event {
            Event::Scalar(value, _, anchor, _) => {
                let node = Node::Leaf(value.into_owned());
                if anchor > 0 {
                    anchors.insert(anchor, node.clone());
                }
                push(&mut stack, node);
            }
            Event::Alias(id) => {
                let node = anchors
                    .get(&id)
                    .cloned()
                    .unwrap_or(Node::Leaf(String::new()));
                push(&mut stack, node);
            }
            Event::SequenceStart(anchor, _) => {
                anchor_of.push(anchor);
                stack.push(Open::Seq(Vec::new()));
            }
            Event::MappingStart(anchor, _) => {
                anchor_of.push(anchor);
                stack.push(Open::Map(Vec::new(), None));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match stack.pop() {
                    Some(Open::Seq(items)) => Node::Seq(items),
                    Some(Open::Map(entries, _)) => Node::Map(entries),
                    None => continue,
                };
                if let Some(anchor) = anchor_of.pop().filter(|a| *a > 0) {
                    anchors.insert(anchor, node.clone());
                }
                push(&mut stack, node);
            }
            _ => {}
        }
    }
    match stack.pop() {
        Some(Open::Seq(mut docs)) if docs.len() == 1 => Ok(docs.remove(0)),
        Some(Open::Seq(docs)) => Ok(Node::Seq(docs)),
        _ => Err(ParseError("unbalanced document".into())),
    }
}

/// What comparing two documents found.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Multiset Jaccard index of the entries.
    pub jaccard: f64,
    /// New entry count over old entry count.
    pub volume: f64,
    /// Entries in the old document.
    pub old_entries: usize,
    /// Entries in the new document.
    pub new_entries: usize,
    /// Paths of containers that held at least `min` entries and are now
    /// empty (`{}`, `[]`, null, an empty string).
    pub emptied: Vec<String>,
}

/// Compares two documents; containers of at least `min` entries that are
/// emptied are reported.
pub fn compare(old: &Node, new: &Node, min: usize) -> Comparison {
    let mut old_walk = Walk::default();
    let mut new_walk = Walk::default();
    let old_entries = old_walk.walk(old, "");
    let new_entries = new_walk.walk(new, "");
    let (mut common, mut union) = (0usize, 0usize);
    for (e, &a) in &old_walk.counts {
        let b = new_walk.counts.get(e).copied().unwrap_or(0);
        common += a.min(b);
        union += a.max(b);
    }
    union += new_walk
        .counts
        .iter()
        .filter(|(e, _)| !old_walk.counts.contains_key(*e))
        .map(|(_, n)| n)
        .sum::<usize>();
    let jaccard = if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    };
    let volume = new_entries as f64 / old_entries.max(1) as f64;
    let new_sizes: HashMap<&str, usize> = new_walk
        .sizes
        .iter()
        .map(|(p, n)| (p.as_str(), *n))
        .collect();
    let emptied = old_walk
        .sizes
        .into_iter()
        .filter(|(p, n)| *n >= min && !p.is_empty() && new_sizes.get(p.as_str()) == Some(&0))
        .map(|(p, _)| p)
        .collect();
    Comparison {
        jaccard,
        volume,
        old_entries,
        new_entries,
        emptied,
    }
}

/// One document's entries (hashed, counted) and the sizes of its
/// containers and empty leaves by path.
#[derive(Default)]
struct Walk {
    counts: HashMap<u64, usize>,
    sizes: Vec<(String, usize)>,
    path: String,
    depth: usize,
}

impl Walk {
    fn entry(&mut self, parts: &[&str]) {
        use std::hash::{BuildHasher as _, Hasher as _};
        static STATE: std::sync::OnceLock<std::collections::hash_map::RandomState> =
            std::sync::OnceLock::new();
        let mut h = STATE.get_or_init(Default::default).build_hasher();
        for p in parts {
            h.write(p.as_bytes());
            h.write_u8(0xff);
        }
        *self.counts.entry(h.finish()).or_default() += 1;
    }

    /// Visits the entries under `node` (named `key`, at `self.path`) and
    /// returns their count.
    fn walk(&mut self, node: &Node, key: &str) -> usize {
        if self.depth > MAX_DEPTH {
            self.entry(&[key, "=…"]);
            return 1;
        }
        self.depth += 1;
        let n = self.walk_node(node, key);
        self.depth -= 1;
        n
    }

    fn walk_node(&mut self, node: &Node, key: &str) -> usize {
        match node {
            Node::Leaf(v) => {
                self.entry(&[key, "=", v]);
                // Empty, or a placeholder standing for what was there.
                let t = v.trim();
                if t.is_empty()
                    || t == "null"
                    || t == "~"
                    || t.chars().all(|c| matches!(c, '.' | '…' | '⋯' | ' '))
                {
                    self.sizes.push((self.path.clone(), 0));
                }
                1
            }
            Node::Map(entries) => {
                let mut n = 0;
                let len = self.path.len();
                for (k, child) in entries {
                    if len > 0 {
                        self.path.push('.');
                    }
                    self.path.push_str(k);
                    n += self.walk(child, k);
                    self.path.truncate(len);
                }
                if !key.is_empty() {
                    self.entry(&[key, ":{}"]);
                }
                self.sizes.push((self.path.clone(), n));
                n + usize::from(!key.is_empty())
            }
            Node::Seq(items) => {
                let item_key = format!("{key}[]");
                let mut n = 0;
                let len = self.path.len();
                for (i, child) in items.iter().enumerate() {
                    self.path.push_str(&format!("[{i}]"));
                    n += self.walk(child, &item_key);
                    self.path.truncate(len);
                }
                if !key.is_empty() {
                    self.entry(&[key, ":[]"]);
                }
                self.sizes.push((self.path.clone(), n));
                n + usize::from(!key.is_empty())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(old: &str, new: &str, f: Format) -> Comparison {
        compare(
            &parse(old.as_bytes(), f).expect("old parses"),
            &parse(new.as_bytes(), f).expect("new parses"),
            5,
        )
    }

    #[test]
    fn reformatting_keeps_every_entry() {
        let c = cmp(
            "{\"a\": 1, \"b\": [1, 2], \"c\": {\"d\": \"x\"}}",
            "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {\"d\": \"x\"}\n}\n",
            Format::Json,
        );
        assert_eq!((c.jaccard, c.volume), (1.0, 1.0));
        assert_eq!(c.old_entries, 6);
    }

    #[test]
    fn cutting_to_an_empty_object_loses_every_entry() {
        let big: String = format!(
            "{{{}}}",
            (0..50)
                .map(|i| format!("\"k{i}\": {i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let c = cmp(&big, "{}", Format::Json);
        assert_eq!((c.new_entries, c.volume), (0, 0.0));
    }

    #[test]
    fn renaming_a_parent_keeps_its_children() {
        let c = cmp(
            "[server]\nhost = \"a\"\nport = 1\nname = \"x\"\n",
            "[service]\nhost = \"a\"\nport = 1\nname = \"x\"\n",
            Format::Toml,
        );
        assert!(c.jaccard > 0.5, "{c:?}");
    }

    #[test]
    fn yaml_truncated_mid_way_empties_a_container() {
        let old = "services:\n  web:\n    image: nginx\n    ports: [80]\n  db:\n    image: pg\n    env:\n      A: 1\n      B: 2\n      C: 3\n";
        let new = "services:\n  web:\n    image: nginx\n    ports: [80]\n  db:\n";
        let c = cmp(old, new, Format::Yaml);
        assert_eq!(c.emptied, ["services.db"]);
        assert!(parse(b"a: [1, 2\n", Format::Yaml).is_err());
        assert!(parse(b"a = \"unterminated\n", Format::Toml).is_err());
        assert!(parse(b"{\"a\": [1, 2", Format::Json).is_err());
    }

    #[test]
    fn deep_documents_do_not_exhaust_the_stack() {
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        if let Ok(doc) = parse(deep.as_bytes(), Format::Yaml) {
            let c = compare(&doc, &doc, 3);
            assert_eq!(c.jaccard, 1.0);
        }
        let deep = format!("a = {}1{}", "[".repeat(5_000), "]".repeat(5_000));
        let _ = parse(deep.as_bytes(), Format::Toml);
        let deep = format!("{}1{}", "[".repeat(5_000), "]".repeat(5_000));
        assert!(parse(deep.as_bytes(), Format::Json).is_err());
    }

    #[test]
    fn yaml_anchors_and_documents() {
        let n = parse(b"a: &x {k: 1}\nb: *x\n---\nc: 2\n", Format::Yaml).expect("parses");
        let Node::Seq(docs) = n else {
            panic!("two documents")
        };
        assert_eq!(docs.len(), 2);
    }
}
