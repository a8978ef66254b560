//! Reading an agent's payload through its [`AgentSpec`]: the phase (before
//! or after the tool), the tool and its arguments, the session and the
//! working directory. Every field has the type the agent documents; a
//! payload that does not is refused (fail closed), never guessed at.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::spec::{AgentSpec, Tool};

/// Before or after the tool ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Before: the hook may veto.
    Pre,
    /// After: the hook records what changed.
    Post,
}

/// One tool call as the agent reported it.
#[derive(Debug, Clone)]
pub struct Call {
    /// Before or after.
    pub phase: Phase,
    /// The tool's name as reported.
    pub tool_name: String,
    /// The tool, when the tables know it.
    pub tool: Option<&'static Tool>,
    /// Its arguments.
    pub input: Map<String, Value>,
    /// The agent's session id, when the payload has one.
    pub session: Option<String>,
    /// The agent's working directory (absolute).
    pub cwd: PathBuf,
}

/// Why a payload could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPayload(pub String);

fn bad(s: impl Into<String>) -> BadPayload {
    BadPayload(s.into())
}

fn first<'v>(root: &'v Value, pointers: &[&'static str]) -> Option<(&'static str, &'v Value)> {
    pointers
        .iter()
        .find_map(|p| root.pointer(p).map(|v| (*p, v)))
}

/// Reads `root` (already parsed JSON) as a payload of `spec`.
pub fn read(spec: &'static AgentSpec, root: &Value) -> Result<Call, BadPayload> {
    if !root.is_object() {
        return Err(bad("the payload is not a JSON object"));
    }
    let event = if spec.event.is_empty() {
        None
    } else {
        match root.pointer(spec.event) {
            None => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return Err(bad(format!("`{}` is not a string", spec.event))),
        }
    };
    let phase = match event {
        Some(e) if spec.pre_events.contains(&e) => Phase::Pre,
        Some(e) if spec.post_events.contains(&e) => Phase::Post,
        Some(e) => return Err(bad(format!("unexpected hook event `{e:.40}`"))),
        None if !spec.post_marker.is_empty() && root.pointer(spec.post_marker).is_some() => {
            Phase::Post
        }
        None if spec.event.is_empty() || !spec.post_marker.is_empty() => Phase::Pre,
        None => return Err(bad(format!("the payload has no `{}`", spec.event))),
    };
    let implied = event.and_then(|e| spec.event_tools.iter().find(|(ev, _)| *ev == e));
    let (tool_name, input) = if let Some((_, name)) = implied {
        let Value::Object(m) = root else {
            return Err(bad("the payload is not a JSON object"));
        };
        (name.to_string(), m.clone())
    } else {
        let name = match first(root, spec.tool_name) {
            Some((_, Value::String(s))) => s.clone(),
            Some((p, _)) => return Err(bad(format!("`{p}` is not a string"))),
            // After a tool, only what changed matters (Cursor's
            // `afterFileEdit` names no tool).
            None if phase == Phase::Post => {
                return Ok(Call {
                    phase,
                    tool_name: event.unwrap_or("").to_string(),
                    tool: None,
                    input: Map::new(),
                    session: session_of(spec, root)?,
                    cwd: cwd_of(spec, root)?,
                })
            }
            None => return Err(bad("the payload names no tool")),
        };
        let input = match first(root, spec.tool_input) {
            Some((_, Value::Object(m))) => m.clone(),
            Some((p, Value::String(s))) if spec.input_may_be_string => {
                match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(m)) => m,
                    _ => return Err(bad(format!("`{p}` is a string but not a JSON object"))),
                }
            }
            Some((p, _)) => return Err(bad(format!("`{p}` is not an object"))),
            None => return Err(bad("the payload has no tool arguments")),
        };
        (name, input)
    };
    let session = session_of(spec, root)?;
    let cwd = cwd_of(spec, root)?;
    Ok(Call {
        phase,
        tool: spec.tool(&tool_name),
        tool_name,
        input,
        session,
        cwd,
    })
}

fn session_of(spec: &AgentSpec, root: &Value) -> Result<Option<String>, BadPayload> {
    Ok(match first(root, spec.session) {
        Some((_, Value::String(s))) if !s.is_empty() => Some(s.clone()),
        Some((_, Value::String(_))) | None => None,
        Some((_, Value::Number(n))) => Some(n.to_string()),
        Some((p, _)) => return Err(bad(format!("`{p}` is not a string"))),
    })
}

fn cwd_of(spec: &AgentSpec, root: &Value) -> Result<PathBuf, BadPayload> {
    let cwd = match first(root, spec.cwd) {
        Some((_, Value::String(s))) => s.clone(),
        Some((_, Value::Array(a))) => match a.first() {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(bad("the workspace roots are not a list of paths")),
        },
        Some((p, _)) => return Err(bad(format!("`{p}` is not a path"))),
        None => return Err(bad("the payload has no working directory")),
    };
    let cwd = PathBuf::from(cwd);
    if !cwd.is_absolute() || cwd.as_os_str().to_string_lossy().contains('\0') {
        return Err(bad("the working directory is not an absolute path"));
    }
    Ok(cwd)
}

/// Returns the string argument `key` (`Ok(None)` when absent or null).
pub fn opt_str<'a>(
    input: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, BadPayload> {
    if key.is_empty() {
        return Ok(None);
    }
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("the argument `{key}` is not a string"))),
    }
}

/// Returns the string argument `key`, which must be present.
pub fn req_str<'a>(input: &'a Map<String, Value>, key: &str) -> Result<&'a str, BadPayload> {
    opt_str(input, key)?.ok_or_else(|| bad(format!("the argument `{key}` is missing")))
}

/// Returns the first of `keys` present, as a string.
pub fn path_arg<'a>(input: &'a Map<String, Value>, keys: &[&str]) -> Result<&'a str, BadPayload> {
    for k in keys {
        if let Some(s) = opt_str(input, k)? {
            if s.is_empty() {
                return Err(bad(format!("the argument `{k}` is empty")));
            }
            return Ok(s);
        }
    }
    Err(bad("the call names no file"))
}

/// Returns the boolean argument `key` (false when absent).
pub fn opt_bool(input: &Map<String, Value>, key: &str) -> Result<bool, BadPayload> {
    if key.is_empty() {
        return Ok(false);
    }
    match input.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(bad(format!("the argument `{key}` is not a boolean"))),
    }
}

/// Returns the whole-number argument `key`.
pub fn opt_u64(input: &Map<String, Value>, key: &str) -> Result<Option<u64>, BadPayload> {
    if key.is_empty() {
        return Ok(None);
    }
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad(format!("the argument `{key}` is not a whole number"))),
        Some(_) => Err(bad(format!("the argument `{key}` is not a number"))),
    }
}

/// Returns a shell command: a string, or an argv list (Codex's older shell
/// tools), where `bash -lc SCRIPT` is the script and anything else is
/// quoted back into one line.
pub fn command(input: &Map<String, Value>, key: &str) -> Result<String, BadPayload> {
    match input.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(a)) => {
            let mut words = Vec::with_capacity(a.len());
            for w in a {
                match w {
                    Value::String(s) => words.push(s.as_str()),
                    _ => return Err(bad(format!("the argument `{key}` is not a list of words"))),
                }
            }
            if words.len() == 3
                && ["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"].contains(&words[0])
                && ["-c", "-lc"].contains(&words[1])
            {
                return Ok(words[2].to_string());
            }
            Ok(crate::text::quote::words(&words))
        }
        None | Some(Value::Null) => Err(bad(format!("the argument `{key}` is missing"))),
        Some(_) => Err(bad(format!("the argument `{key}` is not a command"))),
    }
}
