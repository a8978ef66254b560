//! Separating a model's `<think>…</think>` reasoning from its visible text,
//! both for a whole reply and for a stream whose tags may be split across
//! chunks.

/// The tags reasoning models wrap their thoughts in.
const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

/// Splits a whole reply into (visible text, reasoning). A reply holding only
/// a closing tag (templates that put `<think>` in the prompt) has everything
/// before it as reasoning.
pub fn split_think(text: &str) -> (String, Option<String>) {
    let mut visible = String::new();
    let mut reasoning = String::new();
    let mut rest = text;
    if !text.contains(OPEN) {
        if let Some(end) = text.find(CLOSE) {
            reasoning.push_str(&text[..end]);
            rest = &text[end + CLOSE.len()..];
        }
    }
    while let Some(start) = rest.find(OPEN) {
        visible.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len()..];
        match after.find(CLOSE) {
            Some(end) => {
                reasoning.push_str(&after[..end]);
                rest = &after[end + CLOSE.len()..];
            }
            None => {
                // Unclosed (cut off by max_tokens): all of it is reasoning.
                reasoning.push_str(after);
                rest = "";
            }
        }
    }
    visible.push_str(rest);
    let reasoning = reasoning.trim();
    let visible = visible.trim().to_string();
    (
        visible,
        (!reasoning.is_empty()).then(|| reasoning.to_string()),
    )
}

/// A piece of streamed text, routed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Visible text.
    Text(String),
    /// Reasoning text.
    Reasoning(String),
}

/// Routes streamed text into visible and reasoning pieces, holding back a
/// possible partial tag at the end of a chunk until the next one decides it.
#[derive(Debug, Default)]
pub struct ThinkSplitter {
    inside: bool,
    pending: String,
}

impl ThinkSplitter {
    /// Feeds one chunk; returns the pieces that are now certain.
    pub fn push(&mut self, chunk: &str) -> Vec<Piece> {
        self.pending.push_str(chunk);
        let mut out = Vec::new();
        loop {
            let tag = if self.inside { CLOSE } else { OPEN };
            if let Some(at) = self.pending.find(tag) {
                let before: String = self.pending[..at].to_string();
                self.emit(&before, &mut out);
                self.pending.drain(..at + tag.len());
                self.inside = !self.inside;
                continue;
            }
            // Keep the longest suffix that could still become the tag.
            let keep = (1..tag.len())
                .rev()
                .find(|&n| {
                    self.pending.len() >= n
                        && self.pending.is_char_boundary(self.pending.len() - n)
                        && tag.starts_with(&self.pending[self.pending.len() - n..])
                })
                .unwrap_or(0);
            let cut = self.pending.len() - keep;
            let ready: String = self.pending[..cut].to_string();
            self.emit(&ready, &mut out);
            self.pending.drain(..cut);
            return out;
        }
    }

    /// Flushes what was held back at the end of the stream.
    pub fn finish(&mut self) -> Vec<Piece> {
        let mut out = Vec::new();
        let rest = std::mem::take(&mut self.pending);
        self.emit(&rest, &mut out);
        out
    }

    fn emit(&self, s: &str, out: &mut Vec<Piece>) {
        if s.is_empty() {
            return;
        }
        out.push(if self.inside {
            Piece::Reasoning(s.to_string())
        } else {
            Piece::Text(s.to_string())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_replies_split() {
        assert_eq!(
            split_think("<think>hmm</think>Hello"),
            ("Hello".into(), Some("hmm".into()))
        );
        assert_eq!(
            split_think("plan</think>Done"),
            ("Done".into(), Some("plan".into()))
        );
        assert_eq!(
            split_think("<think>cut off"),
            ("".into(), Some("cut off".into()))
        );
        assert_eq!(split_think("no tags"), ("no tags".into(), None));
    }

    #[test]
    fn streamed_tags_split_across_chunks() {
        let mut s = ThinkSplitter::default();
        let mut all = Vec::new();
        for c in ["Hi <th", "ink>deep", " thought</thi", "nk> answer <", "b>"] {
            all.extend(s.push(c));
        }
        all.extend(s.finish());
        let text: String = all
            .iter()
            .filter_map(|p| match p {
                Piece::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        let reasoning: String = all
            .iter()
            .filter_map(|p| match p {
                Piece::Reasoning(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, "Hi  answer <b>");
        assert_eq!(reasoning, "deep thought");
    }
}
