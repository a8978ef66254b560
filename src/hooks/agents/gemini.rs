//! Gemini CLI: `BeforeTool`/`AfterTool` in `.gemini/settings.json`. Tools
//! from docs/tools/file-system.md: `write_file{file_path, content}`,
//! `replace{file_path, old_string, new_string, expected_replacements?}` (the
//! count must match, default 1; an empty `old_string` creates a new file),
//! `run_shell_command{command, dir_path?}`. A veto is exit 2 with the reason
//! on stderr ("sent to the agent as a tool error"); other codes only warn.

use super::spec::{Agent, AgentSpec, Contract, Fields, Kind, Matching, Tool, UnknownTool};

const PATH: &[&str] = &["file_path", "absolute_path", "path"];

/// Gemini CLI's protocol.
pub(super) const SPEC: AgentSpec = AgentSpec {
    agent: Agent::Gemini,
    name: "gemini",
    event: "/hook_event_name",
    pre_events: &["BeforeTool"],
    post_events: &["AfterTool"],
    post_marker: "",
    event_tools: &[],
    tool_name: &["/tool_name"],
    tool_input: &["/tool_input"],
    input_may_be_string: false,
    session: &["/session_id"],
    cwd: &["/cwd"],
    tools: &[
        Tool {
            names: &["run_shell_command"],
            kind: Kind::Shell,
            fields: Fields {
                command: "command",
                // `directory` is the older spelling.
                dir: &["dir_path", "directory"],
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["write_file"],
            kind: Kind::Write,
            fields: Fields {
                path: PATH,
                content: "content",
                ..Fields::NONE
            },
            matching: Matching::None,
        },
        Tool {
            names: &["replace"],
            kind: Kind::Edit,
            fields: Fields {
                path: PATH,
                old: "old_string",
                new: "new_string",
                count: "expected_replacements",
                ..Fields::NONE
            },
            matching: Matching::ExactCount,
        },
        // Tools that read, search or fetch: they write nothing in the repository.
        Tool {
            names: &[
                "read_file",
                "read_many_files",
                "list_directory",
                "glob",
                "search_file_content",
                "web_fetch",
                "google_web_search",
                "write_todos",
            ],
            kind: Kind::Read,
            fields: Fields::NONE,
            matching: Matching::None,
        },
    ],
    unknown_tool: UnknownTool::Veto,
    contract: Contract::Exit2Stderr,
};

/// The matcher the installer registers.
pub(super) const MATCHER: &str = "run_shell_command|write_file|replace";
