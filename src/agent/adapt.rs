//! The seam to name normalization and text tool-call extraction, built on
//! another branch (`agent::normalize`, `agent::extract`). The loop calls
//! only these three functions; until those modules are merged they hold a
//! small table-driven version (seed 002 §3.3's names and the issue's
//! argument keys) so the loop is complete on its own.

use serde_json::{Map, Value};

use super::client::ToolCall;
use super::tools::TOOL_NAMES;

/// Names models use for our tools (lowercase, `_`/`-` removed), as data.
pub const NAME_ALIASES: &[(&str, &str)] = &[
    ("fsread", "fs_read"),
    ("readfile", "fs_read"),
    ("read", "fs_read"),
    ("cat", "fs_read"),
    ("viewfile", "fs_read"),
    ("fswrite", "fs_write"),
    ("writefile", "fs_write"),
    ("write", "fs_write"),
    ("createfile", "fs_write"),
    ("fspatch", "fs_patch"),
    ("edit", "fs_patch"),
    ("editfile", "fs_patch"),
    ("strreplace", "fs_patch"),
    ("replace", "fs_patch"),
    ("applypatch", "fs_patch"),
    ("fslist", "fs_list"),
    ("listfiles", "fs_list"),
    ("ls", "fs_list"),
    ("listdir", "fs_list"),
    ("listdirectory", "fs_list"),
    ("fssearch", "fs_search"),
    ("grep", "fs_search"),
    ("filesearch", "fs_search"),
    ("searchfiles", "fs_search"),
    ("fsglob", "fs_glob"),
    ("glob", "fs_glob"),
    ("findfiles", "fs_glob"),
    ("shellcommand", "ShellCommand"),
    ("bash", "ShellCommand"),
    ("shell", "ShellCommand"),
    ("shellexecute", "ShellCommand"),
    ("runcommand", "ShellCommand"),
    ("executecommand", "ShellCommand"),
    ("terminal", "ShellCommand"),
    ("gitaction", "GitAction"),
    ("git", "GitAction"),
];

/// Argument keys models use, per canonical key.
pub const ARG_ALIASES: &[(&str, &[&str])] = &[
    (
        "path",
        &[
            "file_path",
            "filePath",
            "filepath",
            "file",
            "filename",
            "path",
            "dir",
            "directory",
        ],
    ),
    (
        "search",
        &[
            "old_string",
            "old_str",
            "oldString",
            "search",
            "old",
            "find",
        ],
    ),
    (
        "replace",
        &[
            "new_string",
            "new_str",
            "newString",
            "replace",
            "new",
            "replacement",
        ],
    ),
    (
        "content",
        &["content", "contents", "text", "file_text", "data"],
    ),
    ("command", &["command", "cmd", "script"]),
    ("pattern", &["pattern", "regex", "query", "glob"]),
    (
        "start",
        &["start", "start_line", "startLine", "offset", "from"],
    ),
    ("end", &["end", "end_line", "endLine", "to"]),
];

fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The canonical tool for a name the model wrote, and whether it had to
/// be repaired; `Err` lists the tools when nothing (or more than one tool)
/// is close.
pub fn normalize_tool(raw: &str) -> Result<(&'static str, bool), String> {
    if let Some(t) = TOOL_NAMES.iter().find(|t| **t == raw) {
        return Ok((t, false));
    }
    let s = squash(raw);
    if let Some((_, t)) = NAME_ALIASES.iter().find(|(a, _)| *a == s) {
        return Ok((t, true));
    }
    let close: Vec<&&str> = TOOL_NAMES
        .iter()
        .filter(|t| crate::text::edit_distance(&squash(t), &s) <= 2)
        .collect();
    match close.as_slice() {
        [one] => Ok((one, true)),
        _ => Err(format!(
            "there is no tool `{raw}`; the tools are {}",
            TOOL_NAMES.join(", ")
        )),
    }
}

/// Renames argument keys to the tool's own; returns the repairs made.
pub fn normalize_args(args: &Value) -> (Value, Vec<String>) {
    let Value::Object(map) = args else {
        return (args.clone(), Vec::new());
    };
    let mut out = Map::new();
    let mut repairs = Vec::new();
    for (k, v) in map {
        let canonical = ARG_ALIASES
            .iter()
            .find(|(_, aliases)| aliases.contains(&k.as_str()))
            .map_or(k.as_str(), |(c, _)| c);
        if canonical != k && !map.contains_key(canonical) {
            repairs.push(format!("{k}→{canonical}"));
            out.insert(canonical.to_string(), v.clone());
        } else {
            out.insert(k.clone(), v.clone());
        }
    }
    (Value::Object(out), repairs)
}

/// Tool calls a model printed in its text instead of `tool_calls`:
/// `<tool_call>{…}</tool_call>`, a fenced or bare JSON object with `name`
/// and `arguments`/`parameters`. Only names that normalize to a tool count;
/// nothing inside `<think>…</think>`.
pub fn extract_calls(text: &str) -> Vec<ToolCall> {
    let visible = strip_think(text);
    let mut out = Vec::new();
    let mut candidates: Vec<&str> = Vec::new();
    let mut rest = visible.as_str();
    while let Some(i) = rest.find("<tool_call>") {
        let after = &rest[i + "<tool_call>".len()..];
        let end = after.find("</tool_call>").unwrap_or(after.len());
        candidates.push(&after[..end]);
        rest = &after[end..];
    }
    if candidates.is_empty() {
        let t = visible.trim();
        let t = t
            .strip_prefix("```json")
            .or_else(|| t.strip_prefix("```"))
            .and_then(|x| x.strip_suffix("```"))
            .unwrap_or(t);
        candidates.push(t);
    }
    for c in candidates {
        let Ok(v) = serde_json::from_str::<Value>(c.trim()) else {
            continue;
        };
        let items = match v {
            Value::Array(a) => a,
            other => vec![other],
        };
        for item in items {
            let obj = item.get("function").unwrap_or(&item);
            let Some(name) = obj.get("name").and_then(Value::as_str) else {
                continue;
            };
            if normalize_tool(name).is_err() {
                continue;
            }
            let args = obj
                .get("arguments")
                .or_else(|| obj.get("parameters"))
                .cloned()
                .unwrap_or(Value::Object(Map::new()));
            let args = match args {
                Value::String(s) => {
                    serde_json::from_str(&s).unwrap_or_else(|_| serde_json::json!({"_raw": s}))
                }
                other => other,
            };
            out.push(ToolCall {
                id: format!("text_call_{}", out.len() + 1),
                name: name.to_string(),
                arguments: args,
            });
        }
    }
    out
}

fn strip_think(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("<think>") {
        out.push_str(&rest[..i]);
        match rest[i..].find("</think>") {
            Some(j) => rest = &rest[i + j + "</think>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(normalize_tool("ReadFile"), Ok(("fs_read", true)));
        assert_eq!(normalize_tool("Bash"), Ok(("ShellCommand", true)));
        assert_eq!(normalize_tool("str_replace"), Ok(("fs_patch", true)));
        assert_eq!(normalize_tool("fs_reed"), Ok(("fs_read", true)));
        assert_eq!(normalize_tool("fs_list"), Ok(("fs_list", false)));
        assert!(normalize_tool("launch_missiles").is_err());
    }

    #[test]
    fn args() {
        let (v, r) = normalize_args(
            &serde_json::json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
        );
        assert_eq!(
            v,
            serde_json::json!({"path": "a", "search": "x", "replace": "y"})
        );
        assert_eq!(r.len(), 3);
    }

    #[test]
    fn text_calls() {
        let c = extract_calls(
            "<tool_call>{\"name\": \"Read\", \"arguments\": {\"path\": \"a\"}}</tool_call>",
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].arguments["path"], "a");
        assert!(
            extract_calls("<think>{\"name\":\"fs_read\",\"arguments\":{}}</think>ok").is_empty()
        );
        assert!(extract_calls("{\"name\": \"nope\", \"arguments\": {}}").is_empty());
        assert!(extract_calls("For example {\"name\": \"fs_read\"} is a call.").is_empty());
    }
}
