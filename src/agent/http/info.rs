//! Reading what a server says about itself: llama.cpp's `/props`, Ollama's
//! `/api/show`. Anything missing is "unknown", never an error.

use serde_json::Value;

use crate::agent::client::ServerInfo;

/// Which kind of server answered, when we could tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flavor {
    /// Unknown: plain OpenAI-compatible behaviour.
    #[default]
    OpenAi,
    /// llama.cpp's server (answered `/props`).
    LlamaCpp,
    /// Ollama (answered `/api/show`).
    Ollama,
}

/// Reads llama.cpp's `/props`.
pub fn from_props(v: &Value) -> Option<ServerInfo> {
    if !v.is_object() {
        return None;
    }
    let n_ctx = v["default_generation_settings"]["n_ctx"]
        .as_u64()
        .or_else(|| v["n_ctx"].as_u64())
        .or_else(|| v["default_generation_settings"]["params"]["n_ctx"].as_u64())
        .filter(|n| *n > 0);
    let caps = &v["chat_template_caps"];
    let tools = caps["supports_tools"]
        .as_bool()
        .or_else(|| caps["supports_tool_calls"].as_bool());
    Some(ServerInfo {
        context_tokens: n_ctx,
        supports_tools: tools,
        // llama.cpp turns `response_format` json_schema into a grammar.
        supports_schema: Some(true),
    })
}

/// Reads Ollama's `/api/show` (`model_info.<arch>.context_length`,
/// `capabilities`).
pub fn from_ollama_show(v: &Value) -> Option<ServerInfo> {
    let info = v["model_info"].as_object()?;
    let ctx = info
        .iter()
        .find(|(k, _)| k.ends_with(".context_length"))
        .and_then(|(_, n)| n.as_u64());
    let tools = v["capabilities"]
        .as_array()
        .map(|caps| caps.iter().any(|c| c == "tools"));
    Some(ServerInfo {
        context_tokens: ctx,
        supports_tools: tools,
        // `format` on /api/chat takes a JSON schema.
        supports_schema: Some(true),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn props_and_show_are_read_or_unknown() {
        let p = from_props(&json!({"default_generation_settings":{"n_ctx":2048},
            "chat_template_caps":{"supports_tools":false}}))
        .expect("object");
        assert_eq!(p.context_tokens, Some(2048));
        assert_eq!(p.supports_tools, Some(false));
        assert_eq!(from_props(&json!({})).map(|i| i.supports_tools), Some(None));
        assert_eq!(from_props(&json!("x")), None);
        let o = from_ollama_show(&json!({"model_info":{"llama.context_length":8192},
            "capabilities":["completion","tools"]}))
        .expect("object");
        assert_eq!(o.context_tokens, Some(8192));
        assert_eq!(o.supports_tools, Some(true));
    }
}
