//! Cline ≥ 3.36: an executable `.clinerules/hooks/PreToolUse` (and
//! `PostToolUse`) fed `{clineVersion, hookName, taskId, workspaceRoots,
//! preToolUse: {toolName, parameters}}`. Tools: `execute_command{command}`,
//! `write_to_file{path, content}`, `replace_in_file{path, diff}` (SEARCH/
//! REPLACE blocks). Every tool reaches the hook (no matcher): reading tools
//! pass, an unknown one is treated like an unknown program. The veto is
//! the last JSON object on stdout, `{"cancel": true, "errorMessage",
//! "contextModification"}` (the model reads the latter).

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

const PATH: &[&str] = &["path", "absolutePath"];

/// Cline's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Cline,
    name: "cline",
    event: "/hookName",
    pre_events: &["PreToolUse"],
    post_events: &["PostToolUse"],
    post_marker: "",
    event_tools: &[],
    tool_name: &["/preToolUse/toolName", "/postToolUse/toolName"],
    tool_input: &["/preToolUse/parameters", "/postToolUse/parameters"],
    input_may_be_string: false,
    session: &["/taskId"],
    cwd: &["/workspaceRoots"],
    tools: &[
        Tool {
            names: &["execute_command"],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["write_to_file"],
            kind: Kind::Write,
            fields: Fields {
                path: PATH,
                content: "content",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["replace_in_file"],
            kind: Kind::SearchReplace,
            fields: Fields {
                path: PATH,
                diff: "diff",
                ..Fields::NONE
            },
            matching: Matching::ClineBlocks,
        },
        Tool {
            names: &[
                "read_file",
                "list_files",
                "search_files",
                "list_code_definition_names",
                "ask_followup_question",
                "attempt_completion",
                "plan_mode_respond",
                "act_mode_respond",
                "browser_action",
                "access_mcp_resource",
                "load_mcp_documentation",
                "web_fetch",
                "new_task",
                "condense",
                "summarize_task",
                "report_bug",
                "focus_chain",
            ],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Snapshot,
    contract: Contract::ClineJson,
};
