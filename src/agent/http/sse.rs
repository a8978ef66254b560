//! Server-sent events of an OpenAI-compatible stream: the byte-level event
//! decoder, and the accumulator that turns `chat.completion.chunk` deltas
//! (text, reasoning, tool-call fragments by index, usage) into one reply.

use std::collections::BTreeMap;

use serde_json::Value;

use super::think::{split_think, Piece, ThinkSplitter};
use crate::agent::client::{ChatResponse, ToolCall, Usage};

/// Splits a byte stream into the `data:` payloads of its events.
#[derive(Debug, Default)]
pub struct SseDecoder {
    buf: Vec<u8>,
    data: Vec<String>,
}

impl SseDecoder {
    /// Feeds bytes; returns the payloads of the events they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(nl) = self.buf[start..].iter().position(|&b| b == b'\n') {
            let line = &self.buf[start..start + nl];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = String::from_utf8_lossy(line);
            start += nl + 1;
            if line.is_empty() {
                if !self.data.is_empty() {
                    out.push(self.data.join("\n"));
                    self.data.clear();
                }
            } else if let Some(d) = line.strip_prefix("data:") {
                self.data.push(d.strip_prefix(' ').unwrap_or(d).to_string());
            }
            // Other fields (`event:`, `id:`, comments) carry nothing we use.
        }
        self.buf.drain(..start);
        out
    }

    /// Returns the last event when the stream ended without a blank line.
    pub fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.buf);
        let _ = self.push(&rest);
        if !rest.is_empty() && !rest.ends_with(b"\n") {
            let line = String::from_utf8_lossy(&rest);
            if let Some(d) = line.trim_end().strip_prefix("data:") {
                self.data.push(d.trim_start().to_string());
            }
        }
        (!self.data.is_empty()).then(|| std::mem::take(&mut self.data).join("\n"))
    }
}

/// What the accumulator tells a live caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// Visible text.
    Text(String),
    /// Reasoning text.
    Reasoning(String),
    /// A tool call's name arrived.
    ToolCallStarted(String),
}

#[derive(Debug, Default)]
struct CallBuilder {
    id: String,
    name: String,
    text_args: String,
    object_args: Option<Value>,
}

/// Accumulates the chunks of one streamed reply.
#[derive(Debug, Default)]
pub struct StreamAccumulator {
    splitter: ThinkSplitter,
    content: String,
    reasoning: String,
    calls: BTreeMap<u64, CallBuilder>,
    usage: Usage,
    finish_reason: Option<String>,
    done: bool,
    chunks: usize,
}

impl StreamAccumulator {
    /// Whether `[DONE]` or a finish reason arrived (a stream that ends
    /// before that was cut).
    pub fn complete(&self) -> bool {
        self.done || self.finish_reason.is_some()
    }

    /// Feeds one event payload; returns what to show, or what was wrong.
    pub fn feed(&mut self, payload: &str) -> Result<Vec<Delta>, String> {
        let payload = payload.trim();
        if payload == "[DONE]" {
            self.done = true;
            return Ok(Vec::new());
        }
        if payload.is_empty() {
            return Ok(Vec::new());
        }
        let v: Value = serde_json::from_str(payload).map_err(|e| {
            format!(
                "a stream event is not JSON ({e}): `{}`",
                payload.chars().take(120).collect::<String>()
            )
        })?;
        if let Some(err) = v.get("error") {
            return Err(format!("the stream carried an error: {}", short(err)));
        }
        self.chunks += 1;
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            self.usage = parse_usage(u);
        }
        let mut out = Vec::new();
        let Some(choice) = v["choices"].get(0) else {
            return Ok(out);
        };
        if let Some(f) = choice["finish_reason"].as_str() {
            self.finish_reason = Some(f.to_string());
        }
        let delta = &choice["delta"];
        for key in ["reasoning_content", "reasoning"] {
            if let Some(r) = delta[key].as_str().filter(|r| !r.is_empty()) {
                self.reasoning.push_str(r);
                out.push(Delta::Reasoning(r.to_string()));
            }
        }
        if let Some(t) = delta["content"].as_str() {
            for piece in self.splitter.push(t) {
                out.push(self.route(piece));
            }
        }
        if let Some(calls) = delta["tool_calls"].as_array() {
            for (pos, c) in calls.iter().enumerate() {
                let index = c["index"].as_u64().unwrap_or(pos as u64);
                let b = self.calls.entry(index).or_default();
                if let Some(id) = c["id"].as_str().filter(|s| !s.is_empty()) {
                    b.id = id.to_string();
                }
                let f = &c["function"];
                if let Some(n) = f["name"].as_str().filter(|s| !s.is_empty()) {
                    let first = b.name.is_empty();
                    b.name.push_str(n);
                    if first {
                        out.push(Delta::ToolCallStarted(n.to_string()));
                    }
                }
                match &f["arguments"] {
                    Value::String(s) => b.text_args.push_str(s),
                    Value::Null => {}
                    other => b.object_args = Some(other.clone()),
                }
            }
        }
        Ok(out)
    }

    fn route(&mut self, piece: Piece) -> Delta {
        match piece {
            Piece::Text(t) => {
                self.content.push_str(&t);
                Delta::Text(t)
            }
            Piece::Reasoning(r) => {
                self.reasoning.push_str(&r);
                Delta::Reasoning(r)
            }
        }
    }

    /// Ends the stream: flushes held-back text and returns the whole reply.
    pub fn finish(mut self) -> (ChatResponse, Vec<Delta>) {
        let mut tail = Vec::new();
        for piece in self.splitter.finish() {
            let d = self.route(piece);
            tail.push(d);
        }
        // A closing tag alone (the template opened the think block) is only
        // recognisable once the whole text is there.
        let (content, extra) = split_think(&self.content);
        let mut reasoning = self.reasoning.trim().to_string();
        if let Some(e) = extra {
            if !reasoning.is_empty() {
                reasoning.push('\n');
            }
            reasoning.push_str(&e);
        }
        let tool_calls = self
            .calls
            .into_iter()
            .map(|(i, b)| ToolCall {
                id: if b.id.is_empty() {
                    format!("call_{i}")
                } else {
                    b.id
                },
                name: b.name,
                arguments: match b.object_args {
                    Some(v) => decode_arguments(&v),
                    None => decode_arguments(&Value::String(b.text_args)),
                },
            })
            .collect();
        let resp = ChatResponse {
            content,
            reasoning: (!reasoning.is_empty()).then_some(reasoning),
            tool_calls,
            usage: self.usage,
            finish_reason: self.finish_reason,
        };
        (resp, tail)
    }
}

/// Reads a non-streamed chat completion (`choices[0].message`).
pub fn parse_completion(v: &Value) -> Result<ChatResponse, String> {
    if let Some(err) = v.get("error") {
        return Err(format!("the reply carried an error: {}", short(err)));
    }
    let Some(choice) = v["choices"].get(0) else {
        return Err("the reply has no `choices[0]`".into());
    };
    let msg = &choice["message"];
    if !msg.is_object() {
        return Err("the reply has no `choices[0].message`".into());
    }
    Ok(message_to_response(
        msg,
        choice["finish_reason"].as_str(),
        v.get("usage"),
    ))
}

/// Builds a reply from an assistant message object (OpenAI or Ollama shape).
pub fn message_to_response(
    msg: &Value,
    finish: Option<&str>,
    usage: Option<&Value>,
) -> ChatResponse {
    let raw = msg["content"].as_str().unwrap_or_default();
    let (content, think) = split_think(raw);
    let field = ["reasoning_content", "reasoning", "thinking"]
        .iter()
        .find_map(|k| msg[*k].as_str().filter(|s| !s.trim().is_empty()))
        .map(|s| s.trim().to_string());
    let reasoning = match (field, think) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    let tool_calls = msg["tool_calls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .map(|(i, c)| ToolCall {
                    id: c["id"]
                        .as_str()
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("call_{i}")),
                    name: c["function"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    arguments: decode_arguments(&c["function"]["arguments"]),
                })
                .collect()
        })
        .unwrap_or_default();
    ChatResponse {
        content,
        reasoning,
        tool_calls,
        usage: usage.map(parse_usage).unwrap_or_default(),
        finish_reason: finish.map(str::to_string),
    }
}

/// Reads OpenAI's `usage` (with `prompt_tokens_details.cached_tokens`) or
/// Ollama's counts.
pub fn parse_usage(u: &Value) -> Usage {
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    Usage {
        prompt_tokens: n(&u["prompt_tokens"]).max(n(&u["prompt_eval_count"])),
        completion_tokens: n(&u["completion_tokens"]).max(n(&u["eval_count"])),
        cached_tokens: n(&u["prompt_tokens_details"]["cached_tokens"]),
    }
}

/// Turns tool-call arguments into an object: a string is decoded, an
/// unparsable one kept as `{"_raw": …}`, nothing becomes `{}`.
pub fn decode_arguments(v: &Value) -> Value {
    match v {
        Value::Object(_) => v.clone(),
        Value::Null => Value::Object(Default::default()),
        Value::String(s) if s.trim().is_empty() => Value::Object(Default::default()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(o @ Value::Object(_)) => o,
            // Some models double-encode: a string holding a JSON string.
            Ok(Value::String(inner)) => match serde_json::from_str::<Value>(&inner) {
                Ok(o @ Value::Object(_)) => o,
                _ => serde_json::json!({ "_raw": s }),
            },
            _ => serde_json::json!({ "_raw": s }),
        },
        other => serde_json::json!({ "_raw": other.to_string() }),
    }
}

fn short(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| other.to_string()),
    };
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_split_on_blank_lines_across_chunks() {
        let mut d = SseDecoder::default();
        assert!(d.push(b"data: {\"a\"").is_empty());
        assert_eq!(
            d.push(b":1}\r\n\r\n: comment\n\ndata: [DONE]\n\n"),
            vec!["{\"a\":1}".to_string(), "[DONE]".to_string()]
        );
        assert!(d.push(b"data: tail").is_empty());
        assert_eq!(d.finish().as_deref(), Some("tail"));
    }

    #[test]
    fn tool_call_fragments_accumulate_by_index() {
        let mut acc = StreamAccumulator::default();
        let chunks = [
            json!({"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"fs_list","arguments":""}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"fs_read","arguments":"{\"pa"}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\"x\"}"}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":{"path":"."}}}]}}]}),
            json!({"choices":[{"delta":{},"finish_reason":"tool_calls"}]}),
            json!({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":5}}}),
        ];
        for c in chunks {
            acc.feed(&c.to_string()).expect("valid");
        }
        assert!(acc.complete());
        let (r, _) = acc.finish();
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].name, "fs_read");
        assert_eq!(r.tool_calls[0].arguments, json!({"path": "x"}));
        assert_eq!(r.tool_calls[1].arguments, json!({"path": "."}));
        assert_eq!(r.usage.cached_tokens, 5);
        assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn reasoning_fields_and_think_tags_are_separated() {
        let mut acc = StreamAccumulator::default();
        acc.feed(&json!({"choices":[{"delta":{"reasoning_content":"because"}}]}).to_string())
            .expect("valid");
        acc.feed(
            &json!({"choices":[{"delta":{"content":"<think>more</think>Answer"}}]}).to_string(),
        )
        .expect("valid");
        let (r, _) = acc.finish();
        assert_eq!(r.content, "Answer");
        assert_eq!(r.reasoning.as_deref(), Some("becausemore"));
    }

    #[test]
    fn arguments_decode_in_every_shape() {
        assert_eq!(decode_arguments(&json!("{\"a\":1}")), json!({"a": 1}));
        assert_eq!(
            decode_arguments(&json!("\"{\\\"a\\\":1}\"")),
            json!({"a": 1})
        );
        assert_eq!(decode_arguments(&json!("")), json!({}));
        assert_eq!(decode_arguments(&json!("{oops")), json!({"_raw": "{oops"}));
        assert_eq!(decode_arguments(&json!([1])), json!({"_raw": "[1]"}));
    }
}
