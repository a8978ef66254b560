//! What of a level-3 reply may be shown while it streams.
//!
//! A model without native tools prints its calls as text, and whether a
//! piece of text is a call is only known once the reply is complete (the
//! extractor needs the whole structure, and the prose-example rule looks
//! around it). So text streams live up to the first place a printed call
//! could begin — any opener of [`OPENERS`] — and everything from there is
//! held until the reply ends: shown if the reply turns out to be an answer,
//! dropped if it made a call. Prose before a call is the model's
//! narration, shown as in native mode; a call is never shown as an answer.

/// Where a printed tool call can begin, in every format the extractor
/// reads: JSON objects and arrays (bare, OpenAI-style, pythonic lists,
/// `[TOOL_CALLS]`), markdown fences, and every tagged marker (`<tool_call>`,
/// `<function=`, `<|python_tag|>`, DeepSeek's `<｜…｜>`, Kimi, GLM…) — all
/// start with `<` — and Harmony's `to=functions.`, which has no bracket.
pub const OPENERS: &[&str] = &["{", "[", "<", "```", "to=functions."];

/// The live view of one reply's text.
#[derive(Debug, Default)]
pub struct TextGate {
    text: String,
    shown: usize,
    held: bool,
}

impl TextGate {
    /// A gate for a new reply.
    pub fn new() -> TextGate {
        TextGate::default()
    }

    /// Takes the next piece of the reply's text; returns what may be shown
    /// now (possibly nothing).
    pub fn push(&mut self, piece: &str) -> &str {
        self.text.push_str(piece);
        let from = self.shown;
        if self.held {
            return "";
        }
        let rest = &self.text[from..];
        let mut cut = rest.len();
        for (i, c) in rest.char_indices() {
            if !matches!(c, '{' | '[' | '<' | '`' | 't') {
                continue;
            }
            let tail = &rest[i..];
            if OPENERS.iter().any(|o| tail.starts_with(o)) {
                cut = i;
                self.held = true;
                break;
            }
            // The end of what arrived may be the start of an opener: wait
            // for the next piece to tell.
            if OPENERS
                .iter()
                .any(|o| o.len() > tail.len() && o.starts_with(tail))
            {
                cut = i;
                break;
            }
        }
        self.shown = from + cut;
        &self.text[from..from + cut]
    }

    /// The reply ended as an answer (no call in it): returns the rest,
    /// held text included.
    pub fn finish_answer(&mut self) -> &str {
        let from = self.shown;
        self.shown = self.text.len();
        &self.text[from..]
    }

    /// Everything the reply streamed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether any of the reply was shown.
    pub fn shown_any(&self) -> bool {
        self.shown > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::extract;

    /// Streams `text` in pieces of `n` characters; returns what was shown
    /// live and what the end added, as the loop does.
    fn stream(text: &str, n: usize) -> (String, String) {
        let chars: Vec<char> = text.chars().collect();
        let mut g = TextGate::new();
        let mut live = String::new();
        for piece in chars.chunks(n) {
            let piece: String = piece.iter().collect();
            live.push_str(g.push(&piece));
        }
        let end = if extract::extract(g.text(), &[]).is_empty() {
            g.finish_answer().to_string()
        } else {
            String::new()
        };
        (live, end)
    }

    #[test]
    fn prose_streams_whole_at_every_piece_size() {
        let text = "The file says the release is on friday. It is tested.";
        for n in 1..8 {
            let (live, end) = stream(text, n);
            assert_eq!(live, text, "piece size {n}");
            assert_eq!(end, "");
        }
    }

    #[test]
    fn a_printed_call_is_never_shown_in_any_format() {
        let calls = [
            r#"{"name": "fs_read", "arguments": {"path": "a.txt"}}"#,
            r#"[{"name": "fs_read", "arguments": {"path": "a.txt"}}]"#,
            "```json\n{\"name\": \"fs_read\", \"arguments\": {\"path\": \"a.txt\"}}\n```",
            "<tool_call>{\"name\": \"fs_read\", \"arguments\": {\"path\": \"a.txt\"}}</tool_call>",
            "<function=fs_read><parameter=path>a.txt</parameter></function>",
            "[TOOL_CALLS]fs_read[ARGS]{\"path\": \"a.txt\"}",
            "<|python_tag|>{\"name\": \"fs_read\", \"parameters\": {\"path\": \"a.txt\"}}",
            "[fs_read(path=\"a.txt\")]",
        ];
        for call in calls {
            for prefix in ["", "Let me read it. "] {
                let text = format!("{prefix}{call}");
                if extract::extract(&text, &[]).is_empty() {
                    // A pythonic list counts only as the whole reply.
                    assert!(!prefix.is_empty(), "not a call: {text}");
                    continue;
                }
                for n in [1, 3, 7, 500] {
                    let (live, end) = stream(&text, n);
                    assert_eq!(live, prefix, "{text} in pieces of {n}");
                    assert_eq!(end, "", "{text}");
                }
            }
        }
    }

    #[test]
    fn an_answer_with_code_is_shown_whole_at_the_end() {
        let text = "Use this:\n```rust\nfn main() { println!(\"hi\"); }\n```\nThat is all.";
        let (live, end) = stream(text, 4);
        assert_eq!(live, "Use this:\n");
        assert_eq!(format!("{live}{end}"), text);
    }

    #[test]
    fn a_partial_opener_waits_for_the_next_piece() {
        let mut g = TextGate::new();
        assert_eq!(g.push("see t"), "see ");
        assert_eq!(g.push("he file"), "the file");
        assert_eq!(g.push(" `x` ``"), " `x` ");
        assert_eq!(g.push("`json"), "");
        assert_eq!(g.finish_answer(), "```json");
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let (live, end) = stream("Ça marche très bien — voilà ✓", 2);
        assert_eq!(live, "Ça marche très bien — voilà ✓");
        assert_eq!(end, "");
    }
}
