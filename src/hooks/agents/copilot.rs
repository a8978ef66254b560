//! GitHub Copilot CLI: `.github/hooks/*.json`, event `preToolUse` fed
//! `{timestamp, cwd, toolName, toolArgs}` (`toolArgs` an object, or a
//! JSON-encoded string) and `postToolUse` (the same plus `toolResult`).
//! Tools: `bash`/`powershell{command}`, `create{path, file_text}`,
//! `edit{path, old_str, new_str}` (the VS Code agent's `create_file`/
//! `replace_string_in_file` alike). Hook failures never block: the only veto
//! is `{"permissionDecision":"deny","permissionDecisionReason"}` on stdout.
//! The payload carries no session id (see [`super::session`]).

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

const PATH: &[&str] = &["path", "filePath", "file_path"];

/// Copilot CLI's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Copilot,
    name: "copilot",
    event: "/hook_event_name",
    pre_events: &["preToolUse", "PreToolUse"],
    post_events: &["postToolUse", "PostToolUse"],
    post_marker: "/toolResult",
    event_tools: &[],
    tool_name: &["/toolName", "/tool_name"],
    tool_input: &["/toolArgs", "/tool_input"],
    input_may_be_string: true,
    session: &["/sessionId", "/session_id"],
    cwd: &["/cwd"],
    tools: &[
        Tool {
            names: &["bash", "powershell", "run_in_terminal"],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        // `write_bash` types its `input` into a running shell session: a
        // command line like any other.
        Tool {
            names: &["write_bash"],
            kind: Kind::Shell,
            fields: Fields {
                command: "input",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["create"],
            kind: Kind::Write,
            fields: Fields {
                path: PATH,
                content: "file_text",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["create_file"],
            kind: Kind::Write,
            fields: Fields {
                path: PATH,
                content: "content",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["edit", "str_replace"],
            kind: Kind::Edit,
            fields: Fields {
                path: PATH,
                old: "old_str",
                new: "new_str",
                ..Fields::NONE
            },
            matching: Matching::Exact,
        },
        Tool {
            names: &["replace_string_in_file"],
            kind: Kind::Edit,
            fields: Fields {
                path: PATH,
                old: "oldString",
                new: "newString",
                ..Fields::NONE
            },
            matching: Matching::Exact,
        },
        Tool {
            names: &[
                "view",
                "read_bash",
                "list_bash",
                "read",
                "read_file",
                "glob",
                "grep",
                "rg",
                "list",
                "report_intent",
                "think",
                "fetch",
                "web_fetch",
                "update_todo",
                "task",
            ],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Snapshot,
    contract: Contract::CopilotJson,
};
