//! Tool calls wrapped in a model family's markup: the table of markers,
//! and one body parser per family. Markup is explicit, so these are taken
//! wherever they appear outside `<think>`.

use serde_json::{Map, Value};

use super::{interpret, json::json_values, pythonic};
use crate::agent::http::sse::decode_arguments;

/// How the text between a marker and its end holds the calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// JSON calls (one or several objects, or an array).
    Json,
    /// Hermes `<tool_call>`: JSON, Qwen3-coder XML, or GLM's arg pairs.
    ToolCall,
    /// Qwen3-coder `<function=NAME><parameter=KEY>VALUE</parameter></function>`.
    QwenFunction,
    /// DeepSeek `function<｜tool▁sep｜>NAME ```json{…}```` or `NAME<｜tool▁sep｜>{…}`.
    DeepSeek,
    /// Kimi `functions.NAME:0<|tool_call_argument_begin|>{…}`.
    Kimi,
    /// Harmony `to=functions.NAME <|constrain|>json<|message|>{…}`.
    Harmony,
    /// Mistral `[TOOL_CALLS][{…}]` or `[TOOL_CALLS]NAME[ARGS]{…}`.
    Mistral,
    /// Llama `<|python_tag|>`: JSON calls, else pythonic ones.
    PythonTag,
    /// Pythonic calls only.
    Pythonic,
    /// FunctionGemma `call:NAME{key:<escape>value<escape>}`.
    FunctionGemma,
}

/// One family's markup: where a call starts, what may end it (the end of
/// the text otherwise), and how its body reads.
#[derive(Debug, Clone, Copy)]
pub struct Marker {
    /// The family, reported with each call.
    pub format: &'static str,
    /// The opening marker.
    pub open: &'static str,
    /// Markers that end the body (the first found wins).
    pub close: &'static [&'static str],
    /// How the body reads.
    pub body: Body,
}

/// Every markup we recognise (reference §3.3). Order matters only for
/// markers starting at the same position: the first row wins.
pub const MARKERS: &[Marker] = &[
    Marker {
        format: "hermes",
        open: "<tool_call>",
        close: &["</tool_call>", "<tool_call>"],
        body: Body::ToolCall,
    },
    Marker {
        format: "qwen3-coder",
        open: "<function=",
        close: &["</function>"],
        body: Body::QwenFunction,
    },
    Marker {
        format: "deepseek",
        open: "<｜tool▁call▁begin｜>",
        close: &["<｜tool▁call▁end｜>"],
        body: Body::DeepSeek,
    },
    Marker {
        format: "kimi",
        open: "<|tool_call_begin|>",
        close: &["<|tool_call_end|>"],
        body: Body::Kimi,
    },
    Marker {
        format: "harmony",
        open: "to=functions.",
        close: &["<|call|>", "<|end|>"],
        body: Body::Harmony,
    },
    Marker {
        format: "mistral",
        open: "[TOOL_CALLS]",
        close: &["[TOOL_CALLS]", "</s>"],
        body: Body::Mistral,
    },
    Marker {
        format: "llama",
        open: "<|python_tag|>",
        close: &["<|eom_id|>", "<|eot_id|>"],
        body: Body::PythonTag,
    },
    Marker {
        format: "granite",
        open: "<|tool_call|>",
        close: &[],
        body: Body::Json,
    },
    Marker {
        format: "jamba",
        open: "<tool_calls>",
        close: &["</tool_calls>"],
        body: Body::Json,
    },
    Marker {
        format: "internlm",
        open: "<|action_start|><|plugin|>",
        close: &["<|action_end|>"],
        body: Body::Json,
    },
    Marker {
        format: "olmo3",
        open: "<function_calls>",
        close: &["</function_calls>"],
        body: Body::Pythonic,
    },
    Marker {
        format: "functiongemma",
        open: "<start_function_call>",
        close: &["<end_function_call>"],
        body: Body::FunctionGemma,
    },
];

/// Parses one body into `(name, arguments)` calls.
pub fn parse_body(body: Body, text: &str) -> Vec<(String, Value)> {
    match body {
        Body::Json => json_calls(text),
        Body::ToolCall => {
            let t = text.trim();
            if t.starts_with('{') || t.starts_with('[') {
                json_calls(t)
            } else if let Some(at) = t.find("<function=") {
                qwen(&t[at + "<function=".len()..]).into_iter().collect()
            } else {
                glm(t).into_iter().collect()
            }
        }
        Body::QwenFunction => qwen(text).into_iter().collect(),
        Body::DeepSeek => deepseek(text).into_iter().collect(),
        Body::Kimi => split_named(text, "<|tool_call_argument_begin|>")
            .into_iter()
            .collect(),
        Body::Harmony => harmony(text).into_iter().collect(),
        Body::Mistral => mistral(text),
        Body::PythonTag => {
            let calls = json_calls(text);
            if calls.is_empty() {
                pythonic::parse_calls(text.trim().trim_end_matches(';')).unwrap_or_default()
            } else {
                calls
            }
        }
        Body::Pythonic => pythonic::parse_calls(text).unwrap_or_default(),
        Body::FunctionGemma => function_gemma(text).into_iter().collect(),
    }
}

fn json_calls(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (_, v) in json_values(text) {
        interpret(&v, &mut out);
    }
    out
}

/// Strips the namespace and call number formats add (`functions.NAME:0`).
fn bare_name(name: &str) -> String {
    let n = name.trim();
    let n = n.strip_prefix("functions.").unwrap_or(n);
    let n = n.split(':').next().unwrap_or(n);
    n.trim().to_string()
}

fn first_object(text: &str) -> Value {
    json_values(text)
        .into_iter()
        .map(|(_, v)| v)
        .find(Value::is_object)
        .map(|v| decode_arguments(&v))
        .unwrap_or_else(|| Value::Object(Map::new()))
}

/// A value read from XML-ish markup: JSON objects and arrays as such,
/// everything else as the string it is (typing is the tool's job).
fn markup_value(raw: &str) -> Value {
    let v = raw.strip_prefix('\n').unwrap_or(raw);
    let v = v.strip_suffix('\n').unwrap_or(v);
    let t = v.trim();
    if t.starts_with('{') || t.starts_with('[') {
        if let Ok(j) = serde_json::from_str::<Value>(t) {
            return j;
        }
    }
    Value::String(v.to_string())
}

fn qwen(text: &str) -> Option<(String, Value)> {
    let end = text.find('>')?;
    let name = text[..end].trim().to_string();
    let mut rest = &text[end + 1..];
    let rest_end = rest.find("</function>").unwrap_or(rest.len());
    rest = &rest[..rest_end];
    let mut args = Map::new();
    while let Some(at) = rest.find("<parameter=") {
        let after = &rest[at + "<parameter=".len()..];
        let close = after.find('>')?;
        let key = after[..close].trim().to_string();
        let body = &after[close + 1..];
        let stop = body
            .find("</parameter>")
            .or_else(|| body.find("<parameter="))
            .unwrap_or(body.len());
        args.insert(key, markup_value(&body[..stop]));
        rest = &body[stop..];
    }
    (!name.is_empty()).then_some((name, Value::Object(args)))
}

fn glm(text: &str) -> Option<(String, Value)> {
    let name_end = text.find(['\n', '<']).unwrap_or(text.len());
    let name = text[..name_end].trim().to_string();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let mut args = Map::new();
    let mut rest = &text[name_end..];
    while let Some(k) = rest.find("<arg_key>") {
        let after = &rest[k + "<arg_key>".len()..];
        let kend = after.find("</arg_key>")?;
        let key = after[..kend].trim().to_string();
        let after = &after[kend..];
        let vstart = after.find("<arg_value>")? + "<arg_value>".len();
        let vend = after[vstart..]
            .find("</arg_value>")
            .map(|e| vstart + e)
            .unwrap_or(after.len());
        args.insert(key, markup_value(&after[vstart..vend]));
        rest = &after[vend..];
    }
    Some((name, Value::Object(args)))
}

fn deepseek(text: &str) -> Option<(String, Value)> {
    let (left, right) = text.split_once("<｜tool▁sep｜>")?;
    if left.trim() == "function" {
        let name_end = right.find('\n').unwrap_or(right.len());
        let name = right[..name_end].trim().to_string();
        (!name.is_empty()).then(|| (name, first_object(&right[name_end..])))
    } else {
        let name = left.trim().to_string();
        (!name.is_empty()).then(|| (name, first_object(right)))
    }
}

fn split_named(text: &str, sep: &str) -> Option<(String, Value)> {
    let (left, right) = text.split_once(sep)?;
    let name = bare_name(left);
    (!name.is_empty()).then(|| (name, first_object(right)))
}

fn harmony(text: &str) -> Option<(String, Value)> {
    let end = text
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(text.len());
    let name = bare_name(&text[..end]);
    let msg = text.find("<|message|>")? + "<|message|>".len();
    (!name.is_empty()).then(|| (name, first_object(&text[msg..])))
}

fn mistral(text: &str) -> Vec<(String, Value)> {
    let t = text.trim();
    if t.starts_with('[') || t.starts_with('{') {
        return json_calls(t);
    }
    // v11+: NAME[ARGS]{…}, optionally NAME[CALL_ID]id[ARGS]{…}.
    let Some(args_at) = t.find("[ARGS]") else {
        return Vec::new();
    };
    let head = &t[..args_at];
    let name = head
        .split("[CALL_ID]")
        .next()
        .unwrap_or(head)
        .trim()
        .to_string();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Vec::new();
    }
    vec![(name, first_object(&t[args_at + "[ARGS]".len()..]))]
}

fn function_gemma(text: &str) -> Option<(String, Value)> {
    const ESC: &str = "<escape>";
    let t = text.trim().strip_prefix("call:")?;
    let open = t.find('{')?;
    let name = t[..open].trim().to_string();
    let mut rest = &t[open + 1..];
    let mut args = Map::new();
    loop {
        rest = rest.trim_start().trim_start_matches(',').trim_start();
        if rest.is_empty() || rest.starts_with('}') {
            break;
        }
        let colon = rest.find(':')?;
        let key = rest[..colon].trim().to_string();
        rest = &rest[colon + 1..];
        let value = if let Some(after) = rest.strip_prefix(ESC) {
            let end = after.find(ESC)?;
            let v = after[..end].to_string();
            rest = &after[end + ESC.len()..];
            Value::String(v)
        } else {
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            let raw = rest[..end].trim();
            rest = &rest[end..];
            serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
        };
        args.insert(key, value);
    }
    (!name.is_empty()).then_some((name, Value::Object(args)))
}
