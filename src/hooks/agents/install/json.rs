//! Editing a JSON settings file by the smallest span: the document is read
//! into a tree of byte spans, and text is inserted or removed at exact
//! places, so every other byte — key order, indentation, the user's own
//! hooks, even comments (`//`, `/* */`, read as whitespace as Gemini and
//! VS Code-style files allow) — stays as it was. Values we insert are
//! rendered in the document's own indentation (or compact when the
//! document is on one line).

/// A JSON value with its byte span `[start, end)` in the document.
#[derive(Debug, Clone)]
pub enum Node {
    /// `{…}` with its members in order.
    Object {
        /// The span of the braces and everything between.
        span: (usize, usize),
        /// The members.
        members: Vec<Member>,
    },
    /// `[…]` with its elements in order.
    Array {
        /// The span.
        span: (usize, usize),
        /// The elements.
        items: Vec<Node>,
    },
    /// A string, number, boolean or null.
    Scalar {
        /// The span.
        span: (usize, usize),
        /// The decoded string, for strings.
        string: Option<String>,
    },
}

/// One `"key": value` of an object.
#[derive(Debug, Clone)]
pub struct Member {
    /// The decoded key.
    pub key: String,
    /// The span of the key (with its quotes).
    pub key_span: (usize, usize),
    /// The value.
    pub value: Node,
}

impl Node {
    /// Returns the span.
    pub fn span(&self) -> (usize, usize) {
        match self {
            Node::Object { span, .. } | Node::Array { span, .. } | Node::Scalar { span, .. } => {
                *span
            }
        }
    }

    /// Returns the member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object { members, .. } => members
                .iter()
                .rev()
                .find(|m| m.key == key)
                .map(|m| &m.value),
            _ => None,
        }
    }

    /// Returns the string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar { string, .. } => string.as_deref(),
            _ => None,
        }
    }
}

/// Why a settings file could not be read as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset.
    pub at: usize,
    /// What was expected.
    pub what: &'static str,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

struct P<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

impl P<'_> {
    fn err(&self, what: &'static str) -> JsonError {
        JsonError { at: self.i, what }
    }

    fn ws(&mut self) {
        loop {
            while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
            if self.b[self.i..].starts_with(b"//") {
                while self.i < self.b.len() && self.b[self.i] != b'\n' {
                    self.i += 1;
                }
            } else if self.b[self.i..].starts_with(b"/*") {
                match self.b[self.i + 2..].windows(2).position(|w| w == b"*/") {
                    Some(p) => self.i += 2 + p + 2,
                    None => {
                        self.i = self.b.len();
                    }
                }
            } else {
                return;
            }
        }
    }

    fn string(&mut self) -> Result<(String, (usize, usize)), JsonError> {
        let start = self.i;
        if self.b.get(self.i) != Some(&b'"') {
            return Err(self.err("a string"));
        }
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw = std::str::from_utf8(&self.b[start..self.i])
                        .map_err(|_| self.err("UTF-8"))?;
                    let s: String =
                        serde_json::from_str(raw).map_err(|_| self.err("a valid string"))?;
                    return Ok((s, (start, self.i)));
                }
                _ => self.i += 1,
            }
        }
        Err(self.err("the end of a string"))
    }

    fn value(&mut self) -> Result<Node, JsonError> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.err("less nesting"));
        }
        self.ws();
        let start = self.i;
        let node = match self.b.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let (key, key_span) = self.string()?;
                        self.ws();
                        if self.b.get(self.i) != Some(&b':') {
                            return Err(self.err("`:`"));
                        }
                        self.i += 1;
                        let value = self.value()?;
                        members.push(Member {
                            key,
                            key_span,
                            value,
                        });
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("`,` or `}`")),
                        }
                    }
                }
                Node::Object {
                    span: (start, self.i),
                    members,
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("`,` or `]`")),
                        }
                    }
                }
                Node::Array {
                    span: (start, self.i),
                    items,
                }
            }
            Some(b'"') => {
                let (s, span) = self.string()?;
                Node::Scalar {
                    span,
                    string: Some(s),
                }
            }
            Some(_) => {
                while self.i < self.b.len()
                    && (self.b[self.i].is_ascii_alphanumeric() || b"+-.".contains(&self.b[self.i]))
                {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(self.err("a value"));
                }
                let raw =
                    std::str::from_utf8(&self.b[start..self.i]).map_err(|_| self.err("UTF-8"))?;
                if serde_json::from_str::<serde_json::Value>(raw).is_err() {
                    return Err(self.err("a number, true, false or null"));
                }
                Node::Scalar {
                    span: (start, self.i),
                    string: None,
                }
            }
            None => return Err(self.err("a value")),
        };
        self.depth -= 1;
        Ok(node)
    }
}

/// Reads `text` as one JSON value (comments allowed as whitespace).
pub fn parse(text: &str) -> Result<Node, JsonError> {
    let mut p = P {
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(p.err("the end of the document"));
    }
    Ok(v)
}

/// A value to insert, with its keys in the order written.
#[derive(Debug, Clone, PartialEq)]
pub enum J {
    /// An object.
    Obj(Vec<(&'static str, J)>),
    /// An array.
    Arr(Vec<J>),
    /// A string.
    Str(String),
    /// A whole number.
    Num(i64),
    /// A boolean.
    Bool(bool),
}

/// How the document is laid out.
#[derive(Debug, Clone)]
pub struct Style {
    /// One level of indentation; `None` for a one-line document.
    pub unit: Option<String>,
    /// The line ending.
    pub eol: &'static str,
}

impl Style {
    /// Learns the style from `text`: the indentation of its first indented
    /// line, CRLF if it uses it, compact if it has no line break inside.
    pub fn of(text: &str) -> Style {
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let body = text.trim_end();
        if !body.contains('\n') && !body.is_empty() {
            return Style { unit: None, eol };
        }
        let unit = text
            .lines()
            .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
            .find(|w| !w.is_empty())
            .unwrap_or("  ")
            .to_string();
        Style {
            unit: Some(unit),
            eol,
        }
    }

    fn pad(&self, depth: usize) -> String {
        self.unit.as_deref().unwrap_or("").repeat(depth)
    }

    /// Renders `v` as it would appear at `depth`.
    pub fn render(&self, v: &J, depth: usize) -> String {
        match v {
            J::Str(s) => serde_json::Value::String(s.clone()).to_string(),
            J::Num(n) => n.to_string(),
            J::Bool(b) => b.to_string(),
            J::Obj(members) => {
                if self.unit.is_none() {
                    let inner: Vec<String> = members
                        .iter()
                        .map(|(k, v)| format!("\"{k}\":{}", self.render(v, depth + 1)))
                        .collect();
                    return format!("{{{}}}", inner.join(","));
                }
                let inner: Vec<String> = members
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{}\"{k}\": {}",
                            self.pad(depth + 1),
                            self.render(v, depth + 1)
                        )
                    })
                    .collect();
                format!(
                    "{{{eol}{}{eol}{}}}",
                    inner.join(&format!(",{}", self.eol)),
                    self.pad(depth),
                    eol = self.eol
                )
            }
            J::Arr(items) => {
                if self.unit.is_none() {
                    let inner: Vec<String> =
                        items.iter().map(|v| self.render(v, depth + 1)).collect();
                    return format!("[{}]", inner.join(","));
                }
                let inner: Vec<String> = items
                    .iter()
                    .map(|v| format!("{}{}", self.pad(depth + 1), self.render(v, depth + 1)))
                    .collect();
                format!(
                    "[{eol}{}{eol}{}]",
                    inner.join(&format!(",{}", self.eol)),
                    self.pad(depth),
                    eol = self.eol
                )
            }
        }
    }
}

/// Returns `text` with `piece` (an object member `"key": value` or an
/// array element, already rendered) added at the end of the container
/// `node` at nesting `depth`. An empty container is opened up as `{`,
/// the piece on its own line, `}`; a removal that empties it again closes
/// it back to `{}`.
pub fn append(text: &str, node: &Node, piece: &str, depth: usize, style: &Style) -> String {
    let (start, end) = node.span();
    let last_end = match node {
        Node::Object { members, .. } => members.last().map(|m| m.value.span().1),
        Node::Array { items, .. } => items.last().map(|n| n.span().1),
        Node::Scalar { .. } => None,
    };
    let close = end - 1;
    match (last_end, &style.unit) {
        (Some(at), Some(_)) => format!(
            "{},{}{}{}{}",
            &text[..at],
            style.eol,
            style.pad(depth + 1),
            piece,
            &text[at..]
        ),
        (Some(at), None) => format!("{},{}{}", &text[..at], piece, &text[at..]),
        (None, Some(_)) => format!(
            "{}{}{}{}{}{}{}",
            &text[..=start],
            style.eol,
            style.pad(depth + 1),
            piece,
            style.eol,
            style.pad(depth),
            &text[close..]
        ),
        (None, None) => format!("{}{}{}", &text[..=start], piece, &text[close..]),
    }
}

/// Returns `text` with the value `node` replaced by `piece` (rendered).
pub fn replace(text: &str, node: &Node, piece: &str) -> String {
    let (start, end) = node.span();
    format!("{}{piece}{}", &text[..start], &text[end..])
}

/// Returns `text` without the element `index` of the container `node`
/// (an object member with its key, or an array element), with the comma
/// and layout that separated it; a container left empty closes to `{}`/`[]`.
pub fn remove(text: &str, node: &Node, index: usize) -> String {
    let spans: Vec<(usize, usize)> = match node {
        Node::Object { members, .. } => members
            .iter()
            .map(|m| (m.key_span.0, m.value.span().1))
            .collect(),
        Node::Array { items, .. } => items.iter().map(Node::span).collect(),
        Node::Scalar { .. } => return text.to_string(),
    };
    let (start, end) = node.span();
    if spans.len() == 1 {
        return format!("{}{}", &text[..=start], &text[end - 1..]);
    }
    if index == 0 {
        // From the element to the start of the next one.
        let next = spans[1].0;
        let (a, _) = spans[0];
        let lead = &text[start + 1..a];
        // Keep the layout before the first element; drop ours and the comma.
        return format!("{}{}{}", &text[..start + 1], lead, &text[next..]);
    }
    // From the end of the previous element to the end of this one.
    let prev_end = spans[index - 1].1;
    let this_end = spans[index].1;
    format!("{}{}", &text[..prev_end], &text[this_end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add_to_list(text: &str, key: &str) -> String {
        let root = parse(text).expect("parse");
        let list = root.get(key).expect("list");
        let style = Style::of(text);
        let piece = style.render(&J::Obj(vec![("command", J::Str("x".into()))]), 2);
        append(text, list, &piece, 1, &style)
    }

    #[test]
    fn appending_then_removing_gives_the_same_bytes() {
        for text in [
            "{\n  \"a\": [1, 2],\n  \"b\": true\n}\n",
            "{\"a\":[1],\"b\":null}",
            "{\n\t\"a\": [\n\t\t3\n\t]\n}\n",
            "{\r\n    \"a\": []\r\n}\r\n",
            "{\n  // comment\n  \"a\": [ /* inline */ 4 ] \n}\n",
        ] {
            let added = add_to_list(text, "a");
            assert_ne!(added, text);
            let root = parse(&added).expect("still JSON");
            let Node::Array { items, .. } = root.get("a").expect("list") else {
                panic!("list expected");
            };
            let v: serde_json::Value = serde_json::from_str(
                &added
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .replace("/* inline */", ""),
            )
            .expect("valid JSON without comments");
            assert_eq!(v["a"].as_array().map(Vec::len), Some(items.len()));
            let list = root.get("a").expect("list");
            let back = remove(&added, list, items.len() - 1);
            assert_eq!(back, text, "{text:?} -> {added:?}");
        }
    }

    #[test]
    fn the_style_is_learnt_from_the_document() {
        assert_eq!(Style::of("{\"a\":1}").unit, None);
        assert_eq!(
            Style::of("{\n    \"a\": 1\n}\n").unit.as_deref(),
            Some("    ")
        );
        assert_eq!(Style::of("{\n\t\"a\": 1\n}\n").unit.as_deref(), Some("\t"));
        assert_eq!(Style::of("{\r\n  \"a\": 1\r\n}").eol, "\r\n");
    }

    #[test]
    fn malformed_documents_are_refused() {
        for bad in [
            "{",
            "{\"a\":}",
            "[1,]",
            "{\"a\":1} x",
            "{'a':1}",
            "",
            "{\"a\":tru}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&deep).is_err(), "nesting is bounded");
    }
}
