//! Claude Code: `PreToolUse`/`PostToolUse` in `.claude/settings.json`.
//! Tool inputs from the hooks reference: Write `{file_path, content}`, Edit
//! `{file_path, old_string, new_string, replace_all}`, the legacy MultiEdit
//! `{file_path, edits: [...]}`, Bash `{command, ...}` (PowerShell alike).
//! A veto is exit 2 with the `hookSpecificOutput` deny on stdout and the
//! reason on stderr too: with stderr alone, Claude Code shows the model
//! `[<the whole hook command>]: <stderr>`, and the installed command is a
//! long fail-closed wrapper; with the deny, the model reads just the
//! reason. Any other non-zero exit lets the tool run.

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

const PATH: &[&str] = &["file_path"];

/// Claude Code's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Claude,
    name: "claude",
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
            names: &["Bash", "PowerShell"],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
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
            names: &["Edit"],
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
        // Tools that read, search, fetch or plan: they write nothing in the
        // repository, so a catch-all matcher must not turn them into vetoes.
        Tool {
            names: &[
                "Read",
                "Glob",
                "Grep",
                "LS",
                "WebFetch",
                "WebSearch",
                "TodoWrite",
                "TodoRead",
                "NotebookRead",
                "BashOutput",
                "ExitPlanMode",
                "AskUserQuestion",
                "ListMcpResourcesTool",
                "ReadMcpResourceTool",
            ],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Veto,
    contract: Contract::CodexJson,
};

/// The matcher the installer registers: exactly the tools above.
pub(super) const MATCHER: &str = "Bash|PowerShell|Write|Edit|MultiEdit";
