//! Running what the guard allows but cannot judge contained, in agents that
//! let a pre-tool hook change the call: the shell command is replaced by
//! `git-fararoni run --session ID -- sh -c '<the command>'`, and the rest
//! of the tool input is returned as it came. Each agent's form, as data,
//! checked in the real client: a form that keeps the user's own permission
//! prompts (no "allow" where the agent would read it as an approval).
//!
//! Agents not in [`FORMS`] run such commands uncontained, after the dirty
//! set is saved: Cursor and Copilot document a rewrite this project has not
//! proved in their clients; Cline offers none.

use serde_json::{json, Map, Value};

use super::spec::Agent;

/// How an agent takes a changed tool input from a pre-tool hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `hookSpecificOutput.updatedInput` with no `permissionDecision`:
    /// Claude Code then runs its own permission check on the new input.
    UpdatedInput,
    /// `hookSpecificOutput.updatedInput` with `permissionDecision: allow`,
    /// which Codex requires and reads as "not blocked"; its own approval
    /// policy still applies to the new command.
    AllowedUpdatedInput,
    /// `hookSpecificOutput.tool_input` with no decision: Gemini CLI checks
    /// its policy on the new call.
    ToolInput,
}

/// The agents whose clients were shown to run a rewritten call.
pub const FORMS: &[(Agent, Form)] = &[
    (Agent::Claude, Form::UpdatedInput),
    (Agent::Codex, Form::AllowedUpdatedInput),
    (Agent::Gemini, Form::ToolInput),
];

/// Returns `agent`'s form, if it has one.
pub fn form(agent: Agent) -> Option<Form> {
    FORMS.iter().find(|(a, _)| *a == agent).map(|(_, f)| *f)
}

/// The command line that runs `command` contained and journaled in
/// `session`. Our binary is named by the path this hook runs from: an
/// agent may run commands with another `PATH` than its hooks (Codex's
/// login shell resets it).
pub fn contained_line(command: &str, session: &str) -> String {
    let exe = std::env::current_exe()
        .ok()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("git-fararoni"))
        })
        .and_then(|p| p.into_os_string().into_string().ok())
        .unwrap_or_else(|| "git-fararoni".to_string());
    format!(
        "{} run --session {} -- sh -c {}",
        crate::text::quote::word(&exe),
        crate::text::quote::word(session),
        crate::text::quote::word(command)
    )
}

/// Returns the hook's stdout that makes `agent` run the call whose tool
/// input is `input` with its `key` (a string command) replaced by the
/// contained form; `None` when the agent has no form or the command is
/// not a plain string.
pub fn render(
    agent: Agent,
    input: &Map<String, Value>,
    key: &str,
    session: &str,
) -> Option<String> {
    let form = form(agent)?;
    let Some(Value::String(command)) = input.get(key) else {
        return None;
    };
    // Already ours (the model typed it, or a client re-sent the rewritten
    // call): its command was judged through the wrapper; a second
    // sandbox around the first could not save the work.
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or("").trim_matches('\'');
    let program = program.rsplit('/').next().unwrap_or("");
    let program = crate::policy::hook::programs::canonical(program);
    if program == "git-fararoni" && words.next() == Some("run") {
        return None;
    }
    let mut changed = input.clone();
    changed.insert(
        key.to_string(),
        Value::String(contained_line(command, session)),
    );
    let changed = Value::Object(changed);
    let out = match form {
        Form::UpdatedInput => json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": changed,
        }}),
        Form::AllowedUpdatedInput => json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": changed,
        }}),
        Form::ToolInput => json!({"hookSpecificOutput": {"tool_input": changed}}),
    };
    Some(format!("{out}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> Map<String, Value> {
        let v = json!({"command": "make test && echo 'done'", "description": "run tests", "timeout": 120000});
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn keeps_the_rest_of_the_input_and_quotes_the_command() {
        let out = render(Agent::Claude, &input(), "command", "claude-abc").unwrap_or_default();
        let v: Value = serde_json::from_str(&out).unwrap_or_default();
        let u = &v["hookSpecificOutput"]["updatedInput"];
        assert_eq!(u["description"], "run tests");
        assert_eq!(u["timeout"], 120000);
        let line = u["command"].as_str().unwrap_or_default();
        assert!(
            line.contains("run --session claude-abc -- sh -c "),
            "{line}"
        );
        assert!(line.ends_with("echo '\\''done'\\'''"), "{line}");
        assert!(v["hookSpecificOutput"].get("permissionDecision").is_none());
    }

    #[test]
    fn each_agent_in_its_own_form() {
        let codex = render(Agent::Codex, &input(), "command", "s").unwrap_or_default();
        assert!(
            codex.contains("\"permissionDecision\":\"allow\""),
            "{codex}"
        );
        let gemini = render(Agent::Gemini, &input(), "command", "s").unwrap_or_default();
        assert!(gemini.contains("\"tool_input\""), "{gemini}");
        assert!(render(Agent::Cline, &input(), "command", "s").is_none());
        assert!(render(Agent::Cursor, &input(), "command", "s").is_none());
        let mut argv = input();
        argv.insert("command".into(), json!(["bash", "-lc", "make"]));
        assert!(render(Agent::Claude, &argv, "command", "s").is_none());
    }
}
