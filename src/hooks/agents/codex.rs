//! Codex CLI: `PreToolUse`/`PostToolUse` in `.codex/hooks.json` (hooks on by
//! default since 0.124; a new hook must be trusted once in `/hooks`). Shell
//! calls arrive as `tool_name: "Bash"` with `{command}` (a string, or an argv
//! list from older shell tools); `apply_patch` carries the raw envelope in
//! `tool_input.command`. Codex parses the answer with unknown fields
//! rejected, needs a non-empty reason, and exit 2 blocks only with a
//! non-empty stderr: the veto gives both, with exactly the known keys.

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

/// Codex CLI's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Codex,
    name: "codex",
    event: "/hook_event_name",
    pre_events: &["PreToolUse"],
    post_events: &["PostToolUse"],
    post_marker: "",
    event_tools: &[],
    tool_name: &["/tool_name"],
    tool_input: &["/tool_input"],
    input_may_be_string: false,
    session: &["/session_id"],
    cwd: &["/cwd"],
    tools: &[
        Tool {
            names: &[
                "Bash",
                "shell",
                "local_shell",
                "exec_command",
                "unified_exec",
            ],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
                dir: &["workdir"],
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["apply_patch"],
            kind: Kind::Patch,
            fields: Fields {
                command: "command",
                ..Fields::NONE
            },
            matching: Matching::CodexPatch,
        },
        // Tools that read, search or plan: they write nothing in the repository.
        Tool {
            names: &[
                "read_file",
                "list_dir",
                "grep_files",
                "view_image",
                "update_plan",
                "web_search",
            ],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Veto,
    contract: Contract::CodexJson,
};

/// The matcher the installer registers.
pub(super) const MATCHER: &str = "Bash|shell|local_shell|exec_command|unified_exec|apply_patch";
