//! Text tool-call extraction: the calls a model printed in its reply when
//! the server returned no structured `tool_calls` (a template without tool
//! support, a parser mismatch, the prompted mode).
//!
//! Three passes over the reply with its `<think>` parts blanked out:
//! 1. family markup ([`tagged::MARKERS`]: `<tool_call>`, `<function=…>`,
//!    DeepSeek and Kimi tokens, `[TOOL_CALLS]`, `<|python_tag|>`, Harmony…),
//!    taken wherever it appears;
//! 2. bare JSON (objects, arrays, fenced or not) outside that markup, taken
//!    only when the reply is nothing but calls, or the calls close the reply
//!    and the prose before them does not present them as an example;
//! 3. a reply that is a pythonic list `[fn(a=1), …]` and nothing else.
//!
//! Each region is read once, so a call is found exactly once.
//! [`find_calls`] returns every call-shaped thing with the name as written;
//! [`extract`] keeps those whose name normalizes to a known tool.

pub mod json;
pub mod pythonic;
pub mod tagged;

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use serde_json::{Map, Value};

use super::client::ToolCall;
use super::http::sse::decode_arguments;
use super::normalize;

/// A call found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The name as the model wrote it.
    pub name: String,
    /// The arguments, always an object.
    pub arguments: Value,
    /// The format it was found in (`hermes`, `json`, `pythonic`…).
    pub format: &'static str,
    /// Where it was in the text.
    pub span: Range<usize>,
}

/// A call as read: the name as written and the arguments.
pub type Call = (String, Value);

/// Keys that name the tool in a JSON call, most common first.
const NAME_KEYS: &[&str] = &["name", "tool", "tool_name", "function", "action"];
/// Keys that hold the arguments in a JSON call.
const ARGS_KEYS: &[&str] = &[
    "arguments",
    "parameters",
    "args",
    "input",
    "params",
    "action_input",
];
/// Keys that wrap calls (llama.cpp's generic format, OpenAI objects).
const WRAPPER_KEYS: &[&str] = &["tool_calls", "tool_call", "function_call", "calls"];
/// Words with which prose introduces JSON as an illustration, not a call.
const EXAMPLE_MARKERS: &[&str] = &[
    "example",
    "e.g.",
    "for instance",
    "such as",
    "format",
    "looks like",
    "like this",
    "schema",
    "ejemplo",
    "formato",
];
/// How much prose before a call is searched for an example marker.
const EXAMPLE_WINDOW: usize = 160;
/// Fence lines that may surround JSON calls without being prose.
const FENCES: &[&str] = &["```json", "```JSON", "```tool_call", "```tool_code", "```"];

/// Returns every call-shaped thing in `text`, known tool or not, in order.
pub fn find_calls(text: &str) -> Vec<Extracted> {
    let visible = blank_think(text);
    let mut found = tagged_calls(&visible);
    let taken: Vec<Range<usize>> = found.iter().map(|c| c.span.clone()).collect();
    if found.is_empty() {
        if let Some(calls) = whole_pythonic(&visible) {
            return calls;
        }
    }
    found.extend(bare_json_calls(&visible, &taken));
    found.sort_by_key(|c| c.span.start);
    found
}

/// Returns the calls whose name normalizes to one of `known` (every
/// canonical tool when `known` is empty).
pub fn extract(text: &str, known: &[&str]) -> Vec<Extracted> {
    find_calls(text)
        .into_iter()
        .filter(|c| match normalize::normalize_name(&c.name) {
            Ok((tool, _)) => known.is_empty() || known.contains(&tool),
            Err(_) => false,
        })
        .collect()
}

/// Turns extracted calls into [`ToolCall`]s with made-up ids.
pub fn to_tool_calls(calls: Vec<Extracted>) -> Vec<ToolCall> {
    calls
        .into_iter()
        .enumerate()
        .map(|(i, c)| ToolCall {
            id: format!("text_call_{i}"),
            name: c.name,
            arguments: c.arguments,
        })
        .collect()
}

/// Replaces `<think>` parts with spaces (same byte length, still UTF-8),
/// so nothing inside them is taken and spans stay valid.
fn blank_think(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut blank = |r: Range<usize>| bytes[r].iter_mut().for_each(|b| *b = b' ');
    let mut pos = 0;
    if !text.contains("<think>") {
        if let Some(end) = text.find("</think>") {
            blank(0..end + "</think>".len());
        }
    }
    while let Some(s) = text[pos..].find("<think>").map(|s| s + pos) {
        let end = text[s..]
            .find("</think>")
            .map(|e| s + e + "</think>".len())
            .unwrap_or(text.len());
        blank(s..end);
        pos = end;
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// Reads a JSON value as zero or more calls.
pub fn interpret(v: &Value, out: &mut Vec<Call>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| interpret(i, out)),
        Value::Object(o) => {
            if let Some(inner) = WRAPPER_KEYS.iter().find_map(|k| o.get(*k)) {
                return interpret(inner, out);
            }
            if let Some(f) = o.get("function").filter(|f| f.is_object()) {
                return interpret(f, out);
            }
            let Some((name_key, name)) = NAME_KEYS
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str).map(|n| (*k, n)))
            else {
                return;
            };
            if name.trim().is_empty() || name.len() > 100 {
                return;
            }
            let args = match ARGS_KEYS.iter().find_map(|k| o.get(*k)) {
                Some(a) => decode_arguments(a),
                None => {
                    // A flat call: every other key is an argument.
                    let rest: Map<String, Value> = o
                        .iter()
                        .filter(|(k, _)| *k != name_key && !matches!(k.as_str(), "type" | "id"))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    Value::Object(rest)
                }
            };
            out.push((name.trim().to_string(), args));
        }
        _ => {}
    }
}

/// One pass over the text for every marker of the table (aho-corasick
/// inside `regex`), instead of one search per marker.
static MARKER_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let alternation = tagged::MARKERS
        .iter()
        .map(|m| regex::escape(m.open))
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&alternation).ok()
});

fn tagged_calls(text: &str) -> Vec<Extracted> {
    let Some(re) = MARKER_RE.as_ref() else {
        return Vec::new();
    };
    // Leftmost-first alternation: at one position the first row wins.
    let opens: Vec<(usize, &tagged::Marker)> = re
        .find_iter(text)
        .filter_map(|m| {
            tagged::MARKERS
                .iter()
                .find(|k| k.open == m.as_str())
                .map(|k| (m.start(), k))
        })
        .collect();
    let mut out = Vec::new();
    let mut taken_until = 0;
    for (at, m) in opens {
        if at < taken_until {
            continue;
        }
        let body_start = at + m.open.len();
        let (body_end, end) = m
            .close
            .iter()
            .filter_map(|c| {
                text[body_start..]
                    .find(c)
                    .map(|e| (body_start + e, c.len()))
            })
            .min_by_key(|(e, _)| *e)
            .map(|(e, len)| {
                // A closing marker that is also an opening one starts the next call.
                let reopen = tagged::MARKERS
                    .iter()
                    .any(|o| text[e..].starts_with(o.open));
                (e, if reopen { e } else { e + len })
            })
            .unwrap_or((text.len(), text.len()));
        for (name, arguments) in tagged::parse_body(m.body, &text[body_start..body_end]) {
            out.push(Extracted {
                name,
                arguments,
                format: m.format,
                span: at..end,
            });
        }
        taken_until = end;
    }
    out
}

fn whole_pythonic(text: &str) -> Option<Vec<Extracted>> {
    let t = text.trim();
    if !(t.starts_with('[') && t.ends_with(']')) {
        return None;
    }
    let start = text.len() - text.trim_start().len();
    let calls = pythonic::parse_calls(t)?;
    Some(
        calls
            .into_iter()
            .map(|(name, arguments)| Extracted {
                name,
                arguments,
                format: "pythonic",
                span: start..start + t.len(),
            })
            .collect(),
    )
}

/// Whether `s` is only whitespace and code fences.
fn is_filler(s: &str) -> bool {
    s.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || FENCES.contains(&l)
    })
}

fn presents_example(prose: &str) -> bool {
    let mut from = prose.len().saturating_sub(EXAMPLE_WINDOW);
    while !prose.is_char_boundary(from) {
        from += 1;
    }
    let window = prose[from..].to_lowercase();
    EXAMPLE_MARKERS.iter().any(|m| window.contains(m))
}

/// Quoted keys one of which a JSON call must hold; parsing is skipped for
/// JSON without any (most JSON in prose).
const CALL_KEYS: &[&str] = &[
    "\"name\"",
    "\"tool\"",
    "\"tool_name\"",
    "\"function\"",
    "\"action\"",
    "\"tool_calls\"",
    "\"tool_call\"",
    "\"function_call\"",
    "\"calls\"",
];

/// Returns the parts of `0..len` outside the (sorted, disjoint) `taken` spans.
fn gaps(len: usize, taken: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut pos = 0;
    for t in taken {
        if t.start > pos {
            out.push(pos..t.start);
        }
        pos = pos.max(t.end);
    }
    if pos < len {
        out.push(pos..len);
    }
    out
}

fn bare_json_calls(text: &str, taken: &[Range<usize>]) -> Vec<Extracted> {
    let candidates: Vec<(Range<usize>, Vec<Call>)> = gaps(text.len(), taken)
        .into_iter()
        .flat_map(|g| {
            json::json_values_where(&text[g.clone()], |slice| {
                CALL_KEYS.iter().any(|k| slice.contains(k))
            })
            .into_iter()
            .map(move |(r, v)| (g.start + r.start..g.start + r.end, v))
        })
        .filter_map(|(r, v)| {
            let mut calls = Vec::new();
            interpret(&v, &mut calls);
            (!calls.is_empty()).then_some((r, calls))
        })
        .collect();
    // Walk back from the end: a candidate counts while only filler (or
    // markup already taken) separates it from the end or the next one kept.
    let gap_is_filler = |from: usize, to: usize| {
        let mut s = String::new();
        let mut pos = from;
        // `taken` is sorted: only the spans from `from` on are looked at.
        let first = taken.partition_point(|t| t.start < from);
        for t in taken[first..].iter().take_while(|t| t.end <= to) {
            // Taken spans may nest or overlap (markup inside a block
            // another format took): only the part past `pos` is new.
            if let Some(gap) = text.get(pos..t.start) {
                s.push_str(gap);
            }
            pos = pos.max(t.end);
        }
        if let Some(rest) = text.get(pos..to) {
            s.push_str(rest);
        }
        is_filler(&s)
    };
    let only_calls = {
        let mut pos = 0;
        let mut ok = true;
        for (r, _) in &candidates {
            ok &= gap_is_filler(pos, r.start);
            pos = r.end;
        }
        ok && !candidates.is_empty() && gap_is_filler(pos, text.len())
    };
    let mut keep = vec![only_calls; candidates.len()];
    if !only_calls {
        let mut next_start = text.len();
        for i in (0..candidates.len()).rev() {
            let r = &candidates[i].0;
            if !gap_is_filler(r.end, next_start) {
                break;
            }
            let prev_end = if i == 0 { 0 } else { candidates[i - 1].0.end };
            if presents_example(&text[prev_end..r.start]) {
                break;
            }
            keep[i] = true;
            next_start = r.start;
        }
    }
    candidates
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .flat_map(|((span, calls), _)| {
            calls.into_iter().map(move |(name, arguments)| Extracted {
                name,
                arguments,
                format: "json",
                span: span.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(text: &str) -> Vec<String> {
        extract(text, &[]).into_iter().map(|c| c.name).collect()
    }

    #[test]
    fn overlapping_markup_spans_do_not_panic() {
        // Found by the markup-soup property: a `[TOOL_CALLS]` block whose
        // span overlaps the plain JSON objects after it.
        let call = r#"{"name": "fs_read", "arguments": {"path": "a"}}"#;
        let t = format!("{call}[TOOL_CALLS]{call}{call}");
        assert!(!find_calls(&t).is_empty());
        let _ = extract(&t, &[]);
    }

    #[test]
    fn think_parts_are_never_read() {
        let t = r#"<think>{"name":"ShellCommand","arguments":{"command":"rm -rf /"}}</think>Done."#;
        assert!(find_calls(t).is_empty());
        let t = r#"<think>maybe <tool_call>{"name":"fs_read","arguments":{}}</tool_call>"#;
        assert!(
            find_calls(t).is_empty(),
            "an unclosed think hides everything after it"
        );
    }

    #[test]
    fn prose_examples_are_not_calls() {
        assert!(names(
            r#"The format is {"name": "fs_read", "arguments": {"path": "x"}} and so on."#
        )
        .is_empty());
        assert!(
            names(r#"For example: {"name": "fs_read", "arguments": {"path": "x"}}"#).is_empty()
        );
        assert_eq!(
            names(
                r#"I will read it now.
{"name": "fs_read", "arguments": {"path": "x"}}"#
            ),
            ["fs_read"]
        );
        assert_eq!(
            names("```json\n{\"name\": \"fs_read\", \"arguments\": {\"path\": \"x\"}}\n```"),
            ["fs_read"]
        );
    }

    #[test]
    fn a_call_is_found_once_and_unknown_names_are_dropped() {
        let t = r#"<tool_call>{"name":"fs_read","arguments":{"path":"a"}}</tool_call>"#;
        assert_eq!(find_calls(t).len(), 1);
        let t = r#"{"name":"launch_missiles","arguments":{}}"#;
        assert_eq!(find_calls(t).len(), 1);
        assert!(extract(t, &[]).is_empty());
        assert_eq!(
            extract(r#"{"name":"ReadFile","arguments":{}}"#, &["fs_read"]).len(),
            1
        );
        assert!(extract(r#"{"name":"ReadFile","arguments":{}}"#, &["fs_write"]).is_empty());
    }

    #[test]
    fn json_shapes_are_all_read() {
        let shapes = [
            json!({"name": "fs_read", "arguments": {"path": "a"}}),
            json!({"name": "fs_read", "parameters": {"path": "a"}}),
            json!({"function": {"name": "fs_read", "arguments": "{\"path\": \"a\"}"}}),
            json!({"type": "function", "id": "x", "function": {"name": "fs_read", "arguments": {"path": "a"}}}),
            json!({"tool_call": {"name": "fs_read", "arguments": {"path": "a"}}}),
            json!({"tool": "fs_read", "args": {"path": "a"}}),
            json!({"name": "fs_read", "path": "a"}),
            json!([{"name": "fs_read", "arguments": {"path": "a"}}]),
        ];
        for s in shapes {
            let got = extract(&s.to_string(), &[]);
            assert_eq!(got.len(), 1, "{s}");
            assert_eq!(got[0].arguments, json!({"path": "a"}), "{s}");
        }
    }
}
