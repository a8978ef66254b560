//! The shape of an agent's hook protocol, as data: where each field of its
//! payload is, which tool names mean which kind of call and where their
//! arguments are, and how it is told "no". One file per agent fills these
//! tables; nothing else in the adapter knows an agent's spelling.

/// A coding agent whose pre-tool hook git-fararoni answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// Anthropic's Claude Code.
    Claude,
    /// Google's Gemini CLI.
    Gemini,
    /// OpenAI's Codex CLI.
    Codex,
    /// Cursor's agent.
    Cursor,
    /// Cline (VS Code extension and CLI).
    Cline,
    /// GitHub Copilot CLI.
    Copilot,
}

impl Agent {
    /// Every agent, in the order they are documented.
    pub const ALL: [Agent; 6] = [
        Agent::Claude,
        Agent::Gemini,
        Agent::Codex,
        Agent::Cursor,
        Agent::Cline,
        Agent::Copilot,
    ];

    /// Returns the name used on the command line (`--agent NAME`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Returns the agent called `name` (as on the command line).
    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Returns the product's name, for people (`Claude Code`).
    pub fn title(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Gemini => "Gemini CLI",
            Agent::Codex => "Codex CLI",
            Agent::Cursor => "Cursor",
            Agent::Cline => "Cline",
            Agent::Copilot => "GitHub Copilot CLI",
        }
    }

    /// Returns the agent's protocol tables.
    pub fn spec(self) -> &'static AgentSpec {
        match self {
            Agent::Claude => &super::claude::SPEC,
            Agent::Gemini => &super::gemini::SPEC,
            Agent::Codex => &super::codex::SPEC,
            Agent::Cursor => &super::cursor::SPEC,
            Agent::Cline => &super::cline::SPEC,
            Agent::Copilot => &super::copilot::SPEC,
        }
    }
}

/// `--agent NAME` on the command line: the names and help come from the
/// specs, so the agent list is written once.
impl clap::ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Self] {
        &Agent::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let spec = self.spec();
        let events = spec.pre_events.iter().chain(spec.post_events);
        let events = events.copied().collect::<Vec<_>>().join(", ");
        Some(
            clap::builder::PossibleValue::new(self.name())
                .help(format!("{} ({events})", self.title())),
        )
    }
}

/// What a tool call does, which decides how it is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Runs a shell command line (`command`, optional working directory `dir`).
    Shell,
    /// Replaces a file's whole content (`path`, `content`).
    Write,
    /// Replaces text in a file (`path`, `old`, `new`, optional `all` or `count`).
    Edit,
    /// Several [`Kind::Edit`]s in order (`path`, `edits` = list of {old, new, all}).
    MultiEdit,
    /// A Codex `apply_patch` envelope (`command` holds the patch body).
    Patch,
    /// Cline's SEARCH/REPLACE blocks (`path`, `diff`).
    SearchReplace,
    /// Deletes a file (`path`).
    Delete,
    /// Reads only: passes without judgement.
    Read,
}

/// Where a tool's arguments are, by key in its input object; `""` = none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fields {
    /// The file (first key present wins).
    pub path: &'static [&'static str],
    /// The whole new content.
    pub content: &'static str,
    /// The text to replace.
    pub old: &'static str,
    /// The replacement.
    pub new: &'static str,
    /// Boolean: replace every occurrence.
    pub all: &'static str,
    /// Number: how many occurrences must be replaced (Gemini).
    pub count: &'static str,
    /// The list of edits ([`Kind::MultiEdit`]), each with `old`/`new`/`all` keys.
    pub edits: &'static str,
    /// The shell command line or the patch body.
    pub command: &'static str,
    /// The working directory of a shell command, when it is not the
    /// payload's (first key present wins).
    pub dir: &'static [&'static str],
    /// The SEARCH/REPLACE text ([`Kind::SearchReplace`]).
    pub diff: &'static str,
}

impl Fields {
    /// No field at all (start from this with `..Fields::NONE`).
    pub const NONE: Fields = Fields {
        path: &[],
        content: "",
        old: "",
        new: "",
        all: "",
        count: "",
        edits: "",
        command: "",
        dir: &[],
        diff: "",
    };
}

/// One tool of an agent: its names, what it does, where its arguments are.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// The names the agent reports for it (`tool_name`).
    pub names: &'static [&'static str],
    /// What it does.
    pub kind: Kind,
    /// Where its arguments are.
    pub fields: Fields,
    /// How the agent applies an edit, which decides whether it would refuse one.
    pub matching: Matching,
}

/// How an agent finds the text an edit replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matching {
    /// Exact text; absent or (without `all`) repeated text is refused by the agent.
    Exact,
    /// Exact text; the number of occurrences must equal `count` (default 1).
    ExactCount,
    /// Cline: exact, then line-trimmed, then first/last-line anchors; in order.
    ClineBlocks,
    /// Codex: lines sought exact, then without trailing, then any surrounding blanks.
    CodexPatch,
    /// Not an edit.
    None,
}

/// How an agent is told "no" and "yes".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// Exit 2 with the reason on stderr (Gemini CLI, which would read JSON
    /// on stdout first and let the tool run without a top-level `decision`).
    Exit2Stderr,
    /// Exit 2 with the reason on stderr *and* the `hookSpecificOutput` deny on
    /// stdout, exactly the keys Codex's parser knows (it rejects unknown
    /// ones); Claude Code reads the same and shows the model only the reason.
    CodexJson,
    /// `{"permission":"deny","user_message","agent_message"}` and exit 2
    /// (Cursor: the model reads only `agent_message`).
    CursorJson,
    /// `{"cancel":true,"errorMessage","contextModification"}`, exit 0 (Cline
    /// takes the last JSON object; the model reads `contextModification`).
    ClineJson,
    /// `{"permissionDecision":"deny","permissionDecisionReason"}`, exit 0
    /// (Copilot CLI never blocks on an exit code).
    CopilotJson,
}

/// What to do with a tool name the tables do not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownTool {
    /// The hook is registered only for the tools it judges (matchers): an
    /// unknown name means the registration and the tables disagree. Veto.
    Veto,
    /// The agent sends every tool (no matcher): an unknown tool is treated
    /// like an unknown program — allowed after the dirty set is saved.
    Snapshot,
}

/// An agent's hook protocol.
#[derive(Debug, Clone, Copy)]
pub struct AgentSpec {
    /// The agent.
    pub agent: Agent,
    /// Its name on the command line.
    pub name: &'static str,
    /// JSON pointer of the event name (`""`: the payload has none).
    pub event: &'static str,
    /// Event names before a tool runs.
    pub pre_events: &'static [&'static str],
    /// Event names after a tool ran (recorded, never vetoed).
    pub post_events: &'static [&'static str],
    /// Without an event name: a pointer whose presence marks a post-tool payload.
    pub post_marker: &'static str,
    /// Events that carry one implied tool with its arguments at the top
    /// level (Cursor's `beforeShellExecution`): (event, tool name).
    pub event_tools: &'static [(&'static str, &'static str)],
    /// JSON pointers of the tool name, first present wins.
    pub tool_name: &'static [&'static str],
    /// JSON pointers of the tool's arguments object, first present wins.
    pub tool_input: &'static [&'static str],
    /// Whether the arguments may arrive as a JSON-encoded string.
    pub input_may_be_string: bool,
    /// JSON pointers of the session id, first present wins.
    pub session: &'static [&'static str],
    /// JSON pointers of the working directory (a string, or a list whose
    /// first element is used), first present wins.
    pub cwd: &'static [&'static str],
    /// The tools it judges.
    pub tools: &'static [Tool],
    /// What an unknown tool name means.
    pub unknown_tool: UnknownTool,
    /// How it is told "no".
    pub contract: Contract,
}

impl AgentSpec {
    /// Returns the tool called `name`.
    pub fn tool(&self, name: &str) -> Option<&'static Tool> {
        self.tools.iter().find(|t| t.names.contains(&name))
    }
}
