//! Properties of the model-facing parsers: the text tool-call extractor,
//! the SSE decoder and accumulator, and the `<think>` splitter never panic
//! on any input, and chunk boundaries never change what a stream means.

use git_fararoni::agent::extract::{extract, find_calls};
use git_fararoni::agent::http::sse::{SseDecoder, StreamAccumulator};
use git_fararoni::agent::http::think::{split_think, Piece, ThinkSplitter};
use git_fararoni::agent::normalize::{normalize_arguments, normalize_name, TOOLS};
use proptest::prelude::*;

/// Fragments of every markup family, so generated text hits the parsers'
/// corners rather than only plain prose.
const FRAGMENTS: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<function=",
    "</function>",
    "<parameter=",
    "</parameter>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "[CALL_ID]",
    "<|python_tag|>",
    "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "to=functions.",
    "<|message|>",
    "<|call|>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<think>",
    "</think>",
    "<function_calls>",
    "</function_calls>",
    "<start_function_call>",
    "call:",
    "<escape>",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ":",
    ",",
    "(",
    ")",
    "=",
    "'",
    "\n",
    "```json",
    "```",
    "fs_read",
    "\"name\"",
    "\"arguments\"",
    "é",
    "🌍",
    "{\"name\": \"fs_read\", \"arguments\": {\"path\": \"a\"}}",
    "example",
    " ",
];

fn markup_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(FRAGMENTS).prop_map(str::to_string),
            "[a-z ]{0,8}",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn test_llm_props_extractor_never_panics_on_markup_soup(text in markup_soup()) {
        let all = find_calls(&text);
        let known = extract(&text, &[]);
        prop_assert!(known.len() <= all.len());
        for c in &all {
            prop_assert!(c.arguments.is_object(), "{:?}", c);
            prop_assert!(c.span.end <= text.len());
        }
    }

    #[test]
    fn test_llm_props_extractor_never_panics_on_any_string(text in any::<String>()) {
        let _ = find_calls(&text);
    }

    #[test]
    fn test_llm_props_nothing_inside_think_is_ever_a_call(inner in markup_soup(), after in "[a-z .]{0,30}") {
        let text = format!("<think>{}</think>{after}", inner.replace("</think>", ""));
        prop_assert!(find_calls(&text).is_empty(), "{}", text);
    }

    #[test]
    fn test_llm_props_sse_never_panics_and_chunking_does_not_matter(
        soup in markup_soup(),
        cut in prop::collection::vec(1usize..64, 1..20),
    ) {
        let mut stream = String::new();
        for line in soup.split('\n') {
            stream.push_str("data: ");
            stream.push_str(line);
            stream.push_str("\n\n");
        }
        let bytes = stream.as_bytes();
        let whole = {
            let mut d = SseDecoder::default();
            let mut v = d.push(bytes);
            v.extend(d.finish());
            v
        };
        let mut d = SseDecoder::default();
        let mut pieces = Vec::new();
        let mut pos = 0;
        let mut i = 0;
        while pos < bytes.len() {
            let n = cut[i % cut.len()].min(bytes.len() - pos);
            pieces.extend(d.push(&bytes[pos..pos + n]));
            pos += n;
            i += 1;
        }
        pieces.extend(d.finish());
        prop_assert_eq!(&pieces, &whole);
        let mut acc = StreamAccumulator::default();
        for p in &pieces {
            let _ = acc.feed(p);
        }
        let _ = acc.finish();
    }

    #[test]
    fn test_llm_props_sse_accumulator_survives_arbitrary_json(
        deltas in prop::collection::vec(any::<(Option<u8>, Option<String>, Option<String>, Option<String>)>(), 0..20)
    ) {
        let mut acc = StreamAccumulator::default();
        for (index, name, args, content) in deltas {
            let v = serde_json::json!({"choices": [{"delta": {
                "content": content,
                "tool_calls": [{"index": index, "function": {"name": name, "arguments": args}}]
            }}]});
            prop_assert!(acc.feed(&v.to_string()).is_ok());
        }
        let (r, _) = acc.finish();
        for c in r.tool_calls {
            prop_assert!(c.arguments.is_object());
        }
    }

    #[test]
    fn test_llm_props_streamed_think_split_equals_whole_split(
        text in markup_soup(),
        cut in prop::collection::vec(1usize..16, 1..10),
    ) {
        // Compare on texts with balanced tags only: that is what both agree on.
        let text = text.replace("<think>", "").replace("</think>", "");
        let half: String = text.chars().take(text.chars().count() / 2).collect();
        let text = format!("a<think>{half}</think>b{}", &text[half.len()..]);
        let mut s = ThinkSplitter::default();
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        let mut pos = 0;
        let mut i = 0;
        while pos < chars.len() {
            let n = cut[i % cut.len()].min(chars.len() - pos);
            let chunk: String = chars[pos..pos + n].iter().collect();
            out.extend(s.push(&chunk));
            pos += n;
            i += 1;
        }
        out.extend(s.finish());
        let visible: String = out.iter().filter_map(|p| match p { Piece::Text(t) => Some(t.as_str()), _ => None }).collect();
        let (whole_visible, _) = split_think(&text);
        prop_assert_eq!(visible.trim(), whole_visible.as_str());
    }

    #[test]
    fn test_llm_props_normalization_never_panics_and_only_yields_tools(name in any::<String>(), key in any::<String>()) {
        if let Ok((tool, _)) = normalize_name(&name) {
            prop_assert!(TOOLS.contains(&tool));
            let (args, _) = normalize_arguments(tool, serde_json::json!({ key.clone(): 1 }));
            prop_assert_eq!(args.as_object().map(|o| o.len()), Some(1));
        }
    }
}
