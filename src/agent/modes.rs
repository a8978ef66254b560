//! How tools reach a model in each [`ToolMode`], and how a reply comes back.
//!
//! `native` sends the server's `tools`. `prompted` renders the tool
//! definitions into a compact block of the first system message (for chat
//! templates without tool support) and leaves the calls in the text for the
//! extractor. `constrained` renders the same block and asks the server for
//! JSON-schema output: exactly one tool call `{name, arguments}` or a final
//! answer `{answer}`, which [`apply_constrained`] turns into `tool_calls` or
//! `content`. In the two text modes, earlier calls and their results are
//! replayed as plain text, since such templates know no `tool` role.

use serde_json::{json, Map, Value};

use super::client::{ChatMessage, ChatResponse, Role, ToolCall, ToolMode, ToolSpec};

/// What the model is told in prompted mode.
const PROMPTED_RULES: &str = "To use a tool, reply with only one JSON object and nothing else: {\"name\": \"TOOL\", \"arguments\": {...}}. When the task is done, reply in plain text.";

/// What the model is told in constrained mode.
const CONSTRAINED_RULES: &str = "Reply with one JSON object: {\"name\": \"TOOL\", \"parameters\": {...}} to use a tool, or {\"answer\": \"...\"} when the task is done.";

/// Returns the tool block of the system prompt for the text modes: one
/// line per tool, `name(arg: type, opt?: type): description`.
pub fn tools_block(tools: &[ToolSpec], mode: ToolMode) -> String {
    let rules = match mode {
        ToolMode::Constrained => CONSTRAINED_RULES,
        _ => PROMPTED_RULES,
    };
    let mut out = format!("# Tools\n{rules}\n");
    for t in tools {
        out.push_str(&format!(
            "- {}({}): {}\n",
            t.name,
            signature(&t.parameters),
            t.description
        ));
    }
    out
}

fn signature(schema: &Value) -> String {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema["properties"].as_object() else {
        return String::new();
    };
    props
        .iter()
        .map(|(k, v)| {
            let ty = v["type"].as_str().unwrap_or("any");
            let opt = if required.contains(&k.as_str()) {
                ""
            } else {
                "?"
            };
            format!("{k}{opt}: {ty}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The longest a constrained reply's short arguments may be, in
/// characters. A tiny model decoding greedily can repeat itself inside a
/// string (`file-name-file-name-…`) until the token limit cuts the reply,
/// which is then neither a call nor an answer; with a bound the grammar
/// closes the string and the call, and the tool's answer (a refusal, a
/// missing file) puts the model back on track. File contents and patch
/// texts stay unbounded.
pub const SHORT_ARGUMENTS: &[(&str, u64)] = &[
    ("path", 256),
    ("pattern", 200),
    ("command", 256),
    ("args", 256),
];

/// `parameters` with [`SHORT_ARGUMENTS`]' bounds on its string properties
/// (a bound the tool already sets stays).
fn bounded_parameters(parameters: &Value) -> Value {
    let mut p = parameters.clone();
    if let Some(props) = p.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, max) in SHORT_ARGUMENTS {
            if let Some(Value::Object(prop)) = props.get_mut(*name) {
                if prop.get("type") == Some(&json!("string")) && !prop.contains_key("maxLength") {
                    prop.insert("maxLength".into(), json!(max));
                }
            }
        }
    }
    p
}

/// Returns the JSON schema of a constrained reply: one call of one of
/// `tools` with that tool's argument schema (short arguments bounded), or
/// (unless `require_tool`) a final answer.
pub fn constrained_schema(tools: &[ToolSpec], require_tool: bool) -> Value {
    let mut any_of: Vec<Value> = tools
        .iter()
        .map(|t| {
            // `parameters`, not `arguments`: grammar engines emit properties
            // in the order the schema lists them, and serde_json lists keys
            // sorted — the name must come first so that it picks the
            // branch whose argument schema then constrains the rest.
            json!({
                "type": "object",
                "properties": {"name": {"const": t.name}, "parameters": bounded_parameters(&t.parameters)},
                "required": ["name", "parameters"],
                "additionalProperties": false
            })
        })
        .collect();
    if !require_tool {
        any_of.push(json!({
            "type": "object",
            "properties": {"answer": {"type": "string"}},
            "required": ["answer"],
            "additionalProperties": false
        }));
    }
    json!({"anyOf": any_of})
}

/// Turns a constrained reply's JSON text into a tool call or the answer.
/// Text that is not such JSON stays as content, for the extractor.
pub fn apply_constrained(resp: &mut ChatResponse) {
    let Ok(v) = serde_json::from_str::<Value>(resp.content.trim()) else {
        return;
    };
    if let Some(name) = v["name"].as_str().filter(|n| !n.is_empty()) {
        resp.tool_calls.push(ToolCall {
            id: "call_c0".into(),
            name: name.to_string(),
            arguments: super::http::sse::decode_arguments(
                v.get("parameters").unwrap_or(&v["arguments"]),
            ),
        });
        resp.content.clear();
    } else if let Some(answer) = v["answer"].as_str() {
        resp.content = answer.to_string();
    }
}

/// Returns the wire form of `messages` for `mode`.
pub fn wire_messages(messages: &[ChatMessage], tools: &[ToolSpec], mode: ToolMode) -> Vec<Value> {
    let text_mode = matches!(mode, ToolMode::Prompted | ToolMode::Constrained);
    let mut out = Vec::with_capacity(messages.len() + 1);
    let block = (text_mode && !tools.is_empty()).then(|| tools_block(tools, mode));
    let mut block_placed = false;
    for m in messages {
        match m.role {
            Role::System if !block_placed && block.is_some() => {
                // The block joins the first system message, so the fixed
                // part of every request stays byte-identical (prompt cache).
                let b = block.as_deref().unwrap_or_default();
                out.push(json!({"role": "system", "content": format!("{}\n\n{b}", m.content)}));
                block_placed = true;
            }
            Role::Assistant if !m.tool_calls.is_empty() => {
                if mode == ToolMode::Native {
                    let calls: Vec<Value> = m
                        .tool_calls
                        .iter()
                        .map(|c| {
                            json!({"id": c.id, "type": "function",
                                   "function": {"name": c.name, "arguments": c.arguments.to_string()}})
                        })
                        .collect();
                    out.push(
                        json!({"role": "assistant", "content": m.content, "tool_calls": calls}),
                    );
                } else {
                    let mut text = m.content.clone();
                    for c in &m.tool_calls {
                        if !text.is_empty() {
                            text.push('\n');
                        }
                        text.push_str(
                            &json!({"name": c.name, "arguments": c.arguments}).to_string(),
                        );
                    }
                    out.push(json!({"role": "assistant", "content": text}));
                }
            }
            Role::Tool if mode != ToolMode::Native => {
                let name = m
                    .tool_call_id
                    .as_deref()
                    .and_then(|id| call_name(messages, id))
                    .unwrap_or("the tool");
                out.push(json!({"role": "user", "content": format!("[result of {name}]\n{}", m.content)}));
            }
            _ => {
                let mut obj = Map::new();
                obj.insert("role".into(), json!(m.role));
                obj.insert("content".into(), json!(m.content));
                if let Some(id) = &m.tool_call_id {
                    obj.insert("tool_call_id".into(), json!(id));
                }
                out.push(Value::Object(obj));
            }
        }
    }
    if let (Some(b), false) = (block, block_placed) {
        out.insert(0, json!({"role": "system", "content": b}));
    }
    if mode != ToolMode::Native {
        out = merge_adjacent(out);
    }
    out
}

/// Joins messages of the same role that follow each other (two results
/// of one reply, replayed as user turns) into one: templates such as
/// Gemma's and Mistral's refuse a conversation whose user and assistant
/// turns do not alternate, and llama.cpp answers such a request with an
/// error. Earlier messages are never changed by a later one, so the
/// prompt's prefix stays byte-identical for the server's cache.
fn merge_adjacent(messages: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(messages.len());
    for m in messages {
        if let Some(prev) = out.last_mut() {
            let same = prev["role"] == m["role"]
                && m["role"] != "system"
                && prev.get("tool_call_id").is_none()
                && m.get("tool_call_id").is_none();
            if let (true, Some(a), Some(b)) =
                (same, prev["content"].as_str(), m["content"].as_str())
            {
                prev["content"] = json!(format!("{a}\n\n{b}"));
                continue;
            }
        }
        out.push(m);
    }
    out
}

fn call_name<'a>(messages: &'a [ChatMessage], id: &str) -> Option<&'a str> {
    messages
        .iter()
        .flat_map(|m| &m.tool_calls)
        .find(|c| c.id == id)
        .map(|c| c.name.as_str())
}

/// Returns the OpenAI `tools` array.
pub fn native_tools(tools: &[ToolSpec]) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {"name": t.name,
                       "description": t.description, "parameters": t.parameters}})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: "fs_read".into(),
            description: "Read a file.".into(),
            parameters: json!({"type":"object","properties":{"path":{"type":"string"},"start_line":{"type":"integer"}},"required":["path"]}),
        }]
    }

    #[test]
    fn the_block_joins_the_first_system_message_only() {
        let msgs = [
            ChatMessage::text(Role::System, "You are X."),
            ChatMessage::text(Role::User, "hi"),
            ChatMessage::text(Role::System, "MANDATE"),
        ];
        let w = wire_messages(&msgs, &tools(), ToolMode::Prompted);
        let first = w[0]["content"].as_str().expect("text");
        assert!(first.starts_with("You are X.\n\n# Tools\n"), "{first}");
        assert!(first.contains("- fs_read(path: string, start_line?: integer): Read a file."));
        assert_eq!(w[2]["content"], "MANDATE");
        let native = wire_messages(&msgs, &tools(), ToolMode::Native);
        assert_eq!(native[0]["content"], "You are X.");
    }

    #[test]
    fn text_modes_replay_calls_and_results_as_text() {
        let mut asst = ChatMessage::text(Role::Assistant, "");
        asst.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "fs_read".into(),
            arguments: json!({"path":"a"}),
        });
        let msgs = [asst, ChatMessage::tool_result("c1", "line 1")];
        let w = wire_messages(&msgs, &tools(), ToolMode::Constrained);
        assert_eq!(w[0]["role"], "system");
        assert_eq!(
            w[1]["content"],
            "{\"arguments\":{\"path\":\"a\"},\"name\":\"fs_read\"}"
        );
        assert_eq!(w[2]["role"], "user");
        assert_eq!(w[2]["content"], "[result of fs_read]\nline 1");
        let n = wire_messages(&msgs, &tools(), ToolMode::Native);
        assert_eq!(
            n[0]["tool_calls"][0]["function"]["arguments"],
            "{\"path\":\"a\"}"
        );
        assert_eq!(n[1]["tool_call_id"], "c1");
    }

    /// Two results of one reply become one user turn in the text modes:
    /// user and assistant turns alternate, as strict templates require.
    #[test]
    fn text_modes_keep_turns_alternating() {
        let mut asst = ChatMessage::text(Role::Assistant, "");
        for (id, path) in [("c1", "a"), ("c2", "b")] {
            asst.tool_calls.push(ToolCall {
                id: id.into(),
                name: "fs_read".into(),
                arguments: json!({"path": path}),
            });
        }
        let msgs = [
            ChatMessage::text(Role::System, "S"),
            ChatMessage::text(Role::User, "read a and b"),
            asst,
            ChatMessage::tool_result("c1", "A"),
            ChatMessage::tool_result("c2", "B"),
            ChatMessage::text(Role::System, "DIRECTIVE"),
        ];
        for mode in [ToolMode::Prompted, ToolMode::Constrained, ToolMode::None] {
            let w = wire_messages(&msgs, &tools(), mode);
            let roles: Vec<&str> = w.iter().filter_map(|m| m["role"].as_str()).collect();
            assert_eq!(
                roles,
                ["system", "user", "assistant", "user", "system"],
                "{mode:?}"
            );
            assert_eq!(
                w[3]["content"], "[result of fs_read]\nA\n\n[result of fs_read]\nB",
                "{mode:?}"
            );
        }
        // Native keeps one `tool` message per call: the server pairs them.
        let n = wire_messages(&msgs, &tools(), ToolMode::Native);
        assert_eq!(n.iter().filter(|m| m["role"] == "tool").count(), 2);
    }

    #[test]
    fn constrained_replies_become_calls_or_answers() {
        let mut r = ChatResponse {
            content: "{\"name\":\"fs_read\",\"arguments\":{\"path\":\"a\"}}".into(),
            ..Default::default()
        };
        apply_constrained(&mut r);
        assert_eq!(r.tool_calls[0].name, "fs_read");
        assert!(r.content.is_empty());
        let mut a = ChatResponse {
            content: "{\"answer\":\"done\"}".into(),
            ..Default::default()
        };
        apply_constrained(&mut a);
        assert_eq!(a.content, "done");
        assert!(a.tool_calls.is_empty());
        let mut p = ChatResponse {
            content: "prose".into(),
            ..Default::default()
        };
        apply_constrained(&mut p);
        assert_eq!(p.content, "prose");
        let schema = constrained_schema(&tools(), false);
        assert_eq!(schema["anyOf"].as_array().map(Vec::len), Some(2));
        let path = &schema["anyOf"][0]["properties"]["parameters"]["properties"]["path"];
        assert_eq!(path["maxLength"], 256, "{schema}");
        let start = &schema["anyOf"][0]["properties"]["parameters"]["properties"]["start_line"];
        assert!(start.get("maxLength").is_none(), "{schema}");
        let all = constrained_schema(&crate::agent::tools::specs(), true);
        let write = all["anyOf"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .find(|b| b["properties"]["name"]["const"] == "fs_write")
            })
            .expect("fs_write");
        assert!(
            write["properties"]["parameters"]["properties"]["content"]
                .get("maxLength")
                .is_none(),
            "file contents stay unbounded: {write}"
        );
    }
}
