//! Cursor: `.cursor/hooks.json`. Shell commands through
//! `beforeShellExecution` (`{command, cwd}` at the top level), file tools
//! through `preToolUse` (`{tool_name, tool_input}`: `Write{file_path,
//! content}`, `StrReplace`/`Edit{file_path, old_string, new_string,
//! replace_all?}`, `Delete{file_path}`); `afterFileEdit`,
//! `afterShellExecution` and `postToolUse` are recorded. The veto is
//! `{"permission":"deny", "user_message", "agent_message"}` — the model reads
//! only `agent_message` — with exit 2, which Cursor also reads as a block.

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

const PATH: &[&str] = &["file_path", "path", "target_file"];

/// Cursor's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Cursor,
    name: "cursor",
    event: "/hook_event_name",
    pre_events: &["preToolUse", "beforeShellExecution", "beforeReadFile"],
    post_events: &["postToolUse", "afterFileEdit", "afterShellExecution"],
    post_marker: "",
    event_tools: &[
        ("beforeShellExecution", "Shell"),
        ("beforeReadFile", "Read"),
    ],
    tool_name: &["/tool_name"],
    tool_input: &["/tool_input"],
    input_may_be_string: false,
    session: &["/conversation_id", "/session_id"],
    cwd: &["/cwd", "/workspace_roots"],
    tools: &[
        Tool {
            names: &["Shell"],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
                dir: &["cwd"],
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["Write"],
            kind: Kind::Write,
            fields: Fields {
                path: PATH,
                content: "content",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["StrReplace", "Edit"],
            kind: Kind::Edit,
            fields: Fields {
                path: PATH,
                old: "old_string",
                new: "new_string",
                all: "replace_all",
                ..Fields::NONE
            },
            matching: Matching::Exact,
        },
        Tool {
            names: &["MultiEdit"],
            kind: Kind::MultiEdit,
            fields: Fields {
                path: PATH,
                edits: "edits",
                old: "old_string",
                new: "new_string",
                all: "replace_all",
                ..Fields::NONE
            },
            matching: Matching::Exact,
        },
        Tool {
            names: &["Delete"],
            kind: Kind::Delete,
            fields: Fields {
                path: PATH,
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        // Tools that read or search (and `Task`, whose sub-agent's own calls
        // reach the hook): they write nothing in the repository.
        Tool {
            names: &["Read", "Grep", "Glob", "LS", "Task"],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Veto,
    contract: Contract::CursorJson,
};

/// The `preToolUse` matcher the installer registers (shell goes through
/// `beforeShellExecution`).
pub(super) const MATCHER: &str = "Write|StrReplace|Edit|MultiEdit|Delete";
