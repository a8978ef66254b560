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
/// How much prose before a call is searched for an example marker.
const EXAMPLE_WINDOW: usize = 160;

/// Returns every call-shaped thing in `text`, known tool or not, in order.
pub fn find_calls(text: &str) -> Vec<Extracted> {
    let visible = blank_think(text);
    let mut found = tagged_calls(&visible);
    let taken: Vec<Range<usize>> = found.iter().map(|c| c.span.clone()).collect();
    if found.is_empty() {
        if let Some(calls) = whole_pythonic(&visible) {
            return dedupe(calls);
        }
        let lines = line_pythonic(&visible);
        if !lines.is_empty() {
            return dedupe(lines);
        }
    }
    found.extend(bare_json_calls(&visible, &taken));
    found.sort_by_key(|c| c.span.start);
    dedupe(found)
}

/// Keeps the first of calls that are the same call (same name, same
/// arguments): a call printed twice in one reply is one call.
fn dedupe(calls: Vec<Extracted>) -> Vec<Extracted> {
    let mut seen = std::collections::HashSet::new();
    calls
        .into_iter()
        .filter(|c| {
            let name = normalize::normalize_name(&c.name)
                .map_or_else(|_| c.name.clone(), |(t, _)| t.to_string());
            seen.insert((name, c.arguments.to_string()))
        })
        .collect()
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
        if at < taken_until || in_inline_code(text, at) {
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

/// Whether `name` is written like a function name (`launch_rockets`,
/// `functions.read`), not a value (`my-app`, `web client`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':'))
}

/// Pythonic lists alone on their lines after a lead-in (`Sure.\n[f(a=1)]`),
/// each naming only known tools, the prose before not presenting them as
/// an example.
fn line_pythonic(text: &str) -> Vec<Extracted> {
    let fences = fences(text);
    let mut out = Vec::new();
    let mut pos = 0;
    let mut prev_end = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim();
        let lead = line.len() - line.trim_start().len();
        if l.starts_with('[') && l.ends_with(']') && l.contains('(') {
            if let Some(calls) = pythonic::parse_calls(l) {
                let start = pos + lead;
                let known = calls
                    .iter()
                    .all(|(n, _)| normalize::normalize_name(n).is_ok());
                let before = window_before(text, prev_end, start);
                if known
                    && fence_at(&fences, start).is_none()
                    && !BEFORE_RE.as_ref().is_some_and(|re| re.is_match(before))
                {
                    out.extend(calls.into_iter().map(|(name, arguments)| Extracted {
                        name,
                        arguments,
                        format: "pythonic",
                        span: start..start + l.len(),
                    }));
                    prev_end = start + l.len();
                }
            }
        }
        pos += line.len();
    }
    out
}

/// Whether `at` is inside an inline code span (`` `…` ``) of its line: a
/// call written there is quoted, not made.
fn in_inline_code(text: &str, at: usize) -> bool {
    let before = &text[line_start(text, at)..at];
    if before.trim_start().starts_with("```") {
        return false;
    }
    before.replace("```", "").matches('`').count() % 2 == 1
}

/// A reply that is nothing but pythonic lists `[f(a=1), …]`, one or more
/// (one a line).
fn whole_pythonic(text: &str) -> Option<Vec<Extracted>> {
    let t = text.trim();
    if !(t.starts_with('[') && t.ends_with(']')) {
        return None;
    }
    let start = text.len() - text.trim_start().len();
    if let Some(calls) = pythonic::parse_calls(t) {
        return Some(
            calls
                .into_iter()
                .map(|(name, arguments)| Extracted {
                    name,
                    arguments,
                    format: "pythonic",
                    span: start..start + t.len(),
                })
                .collect(),
        );
    }
    let mut out = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim();
        let lead = line.len() - line.trim_start().len();
        if !l.is_empty() {
            let calls = pythonic::parse_calls(l)?;
            out.extend(calls.into_iter().map(|(name, arguments)| Extracted {
                name,
                arguments,
                format: "pythonic",
                span: pos + lead..pos + lead + l.len(),
            }));
        }
        pos += line.len();
    }
    (!out.is_empty()).then_some(out)
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

/// Words before a JSON call that present it as an illustration, a quote
/// or something not to do (matched on word boundaries, lowercase).
const SHOWN_BEFORE: &[&str] = &[
    "example",
    "examples",
    "e.g",
    "for instance",
    "such as",
    "format",
    "looks like",
    "look like",
    "like this",
    "schema",
    "sample",
    "template",
    "here is what",
    "not to do",
    "don't",
    "do not",
    "never",
    "won't",
    "wouldn't",
    "shouldn't",
    "avoid",
    "instead of",
    "i could",
    "should i",
    "would you like",
    "previous turn",
    "you printed",
    "you wrote",
    "you sent",
    "returned",
    "output from",
    "the tool returned",
    "response from",
    "contains",
    "is:",
    "was:",
    "ejemplo",
    "formato",
    "por ejemplo",
    "no ejecutes",
    "nunca",
];
/// Words right after a JSON call that say it was shown, not made.
const SHOWN_AFTER: &[&str] = &[
    "that is how",
    "this is how",
    "is how",
    "is the format",
    "format",
    "example",
    "snippet",
    "echoes",
    "the parser",
    "was not executed",
    "registers",
    "would be",
    "is what",
];
/// How much prose after a call is searched for [`SHOWN_AFTER`].
const AFTER_WINDOW: usize = 80;
/// A label that may stand before a call on its line (`Fararoni: {…}`).
const LABEL_MAX: usize = 24;

fn phrase_re(phrases: &[&str]) -> Option<Regex> {
    let alt = phrases
        .iter()
        .map(|p| regex::escape(p))
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&format!(r"(?i)(^|[^\w])({alt})([^\w]|$)")).ok()
}

static BEFORE_RE: LazyLock<Option<Regex>> = LazyLock::new(|| phrase_re(SHOWN_BEFORE));
static AFTER_RE: LazyLock<Option<Regex>> = LazyLock::new(|| phrase_re(SHOWN_AFTER));

fn window_before(text: &str, from: usize, to: usize) -> &str {
    let mut start = to.saturating_sub(EXAMPLE_WINDOW).max(from);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..to]
}

fn window_after(text: &str, from: usize) -> &str {
    let mut end = (from + AFTER_WINDOW).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[from..end]
}

/// How far before or after a call its line is looked at: a call's line
/// is examined in bounded time, so extraction stays linear in the reply.
const LINE_REACH: usize = 4096;

/// Where the line holding `at` starts, looking back at most
/// [`LINE_REACH`] bytes (a longer line starts "before the window").
fn line_start(text: &str, at: usize) -> usize {
    let mut from = at.saturating_sub(LINE_REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text[from..at].rfind('\n').map_or(from, |i| from + i + 1)
}

/// Where the line holding `at` ends, looking ahead at most [`LINE_REACH`].
fn line_end(text: &str, at: usize) -> usize {
    let mut to = (at + LINE_REACH).min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    text[at..to].find('\n').map_or(to, |i| at + i)
}

/// The fences of a text, found once: the span each covers and its opening
/// line's label (`json`, `python`, empty).
fn fences(text: &str) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some((start, label)) => out.push((start..pos, label)),
                None => open = Some((pos, rest.trim().to_lowercase())),
            }
        }
        pos += line.len();
    }
    if let Some((start, label)) = open {
        out.push((start..text.len(), label));
    }
    out
}

/// The label of the fence `at` is inside, or `None` outside fences.
fn fence_at(fences: &[(Range<usize>, String)], at: usize) -> Option<&str> {
    let i = fences.partition_point(|(r, _)| r.end <= at);
    fences
        .get(i)
        .filter(|(r, _)| r.start <= at)
        .map(|(_, l)| l.as_str())
}

/// Whether a JSON call at `span` is made, not shown: alone on its lines
/// (or after a short label), not quoted, not in a fence of code, and not
/// presented by the prose around it as an example, a quote or a warning.
fn made_not_shown(
    text: &str,
    fences: &[(Range<usize>, String)],
    span: &Range<usize>,
    prev_end: usize,
) -> bool {
    let before_on_line = &text[line_start(text, span.start)..span.start];
    let t = before_on_line.trim();
    if t.starts_with('>') || t.ends_with('`') {
        return false;
    }
    if !t.is_empty() {
        let label = t.ends_with(':') && t.chars().count() <= LABEL_MAX && !t.contains(' ');
        if !label {
            return false;
        }
    }
    let after_on_line = text[span.end..line_end(text, span.end)].trim();
    if !after_on_line.is_empty() && !matches!(after_on_line, "." | "," | ";" | "```") {
        return false;
    }
    match fence_at(fences, span.start) {
        Some(label)
            if !matches!(
                label,
                "" | "json"
                    | "json5"
                    | "tool_call"
                    | "tool_code"
                    | "tool"
                    | "tool_calls"
                    | "function_call"
            ) =>
        {
            return false
        }
        _ => {}
    }
    let before = window_before(text, prev_end, span.start);
    if BEFORE_RE.as_ref().is_some_and(|re| re.is_match(before)) {
        return false;
    }
    let after = window_after(text, span.end);
    // Only the prose up to the next JSON value counts.
    let after = after.split(['{', '[']).next().unwrap_or("");
    !AFTER_RE.as_ref().is_some_and(|re| re.is_match(after))
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
            // Outside markup, JSON is a call only when it names a tool:
            // a package.json's `"name"` is no call.
            // An unknown name counts only in the full call shape (a name
            // that is an identifier, and an arguments key), so the model
            // hears the list of tools.
            let slice = &text[r.clone()];
            let full_shape = ["\"arguments\"", "\"parameters\""]
                .iter()
                .any(|k| slice.contains(k));
            calls.retain(|(name, _)| {
                normalize::normalize_name(name).is_ok() || (full_shape && is_identifier(name))
            });
            (!calls.is_empty()).then_some((r, calls))
        })
        .collect();
    let mut out = Vec::new();
    let mut prev_end = 0;
    let fences = fences(text);
    for (span, calls) in candidates {
        // The prose before a call starts after the previous call or markup.
        // `taken` is sorted by start: only the spans just before count.
        let before = taken.partition_point(|t| t.start < span.start);
        let from = taken[before.saturating_sub(8)..before]
            .iter()
            .filter(|t| t.end <= span.start)
            .map(|t| t.end)
            .max()
            .unwrap_or(0)
            .max(prev_end);
        let keep = made_not_shown(text, &fences, &span, from);
        prev_end = span.end;
        if !keep {
            continue;
        }
        out.extend(calls.into_iter().map(|(name, arguments)| Extracted {
            name,
            arguments,
            format: "json",
            span: span.clone(),
        }));
    }
    out
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
    fn many_calls_stay_linear() {
        let call = r#"{"name": "fs_read", "arguments": {"path": "a"}}"#;
        let lines: String = (0..20_000)
            .map(|i| call.replace("\"a\"", &format!("\"f{i}\"")) + "\n")
            .collect();
        let one_line = lines.replace('\n', " and ");
        let fenced = format!("```json\n{lines}```\n");
        let started = std::time::Instant::now();
        assert_eq!(find_calls(&lines).len(), 20_000);
        assert!(
            find_calls(&one_line).is_empty(),
            "inline JSON is shown, not made"
        );
        assert_eq!(find_calls(&fenced).len(), 20_000);
        let elapsed = started.elapsed();
        assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
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
