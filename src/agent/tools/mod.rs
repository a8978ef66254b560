//! The tools of level 3: their definitions for the model ([`specs`]) and
//! their execution inside one working tree ([`Workspace::execute`]).
//!
//! Every path is resolved by the shadow store's resolver: relative to the
//! top of the working tree, never outside it, never through a symlink that
//! leaves it, never into the git dir (any spelling), the hooks folder or
//! `.fararoni/`. Writes go through the guard; commands through the policy
//! with the `Agent` posture. A refusal is a result the model reads, never
//! an error of the run.

mod fs;
mod reads;
mod shell;

use std::path::{Path, PathBuf};
use std::time::Duration;

use camino::Utf8PathBuf;
use serde::Serialize;
use serde_json::{json, Value};

use super::client::ToolSpec;
use super::dirty;
use super::protocol::Step;
use super::session_log::SessionLog;
use crate::git::Repo;
use crate::guard::write::Guard;
use crate::shadow::{RepoPath, Session, ShadowError};

pub use shell::AROUND_GUARD;

/// The canonical tool names, in the order they are offered.
pub const TOOL_NAMES: &[&str] = &[
    "fs_read",
    "fs_write",
    "fs_patch",
    "fs_list",
    "fs_search",
    "fs_glob",
    "ShellCommand",
    "GitAction",
];

/// Every tool definition, compact: the whole fixed prompt must stay small
/// enough for a 4k-context model, and byte-identical across calls.
pub fn specs() -> Vec<ToolSpec> {
    fn spec(name: &str, description: &str, props: Value, required: &[&str]) -> ToolSpec {
        ToolSpec {
            name: name.to_string(),
            description: description.to_string(),
            parameters: json!({"type": "object", "properties": props, "required": required}),
        }
    }
    let s = json!({"type": "string"});
    let n = json!({"type": "integer"});
    vec![
        spec(
            "fs_read",
            "Read a file (optionally lines start..end, 1-based).",
            json!({"path": s, "start": n, "end": n}),
            &["path"],
        ),
        spec(
            "fs_write",
            "Write a whole file (new file or full replacement; never elide code).",
            json!({"path": s, "content": s}),
            &["path", "content"],
        ),
        spec(
            "fs_patch",
            "Replace the exact text `search` (must occur once) with `replace` in a file.",
            json!({"path": s, "search": s, "replace": s}),
            &["path", "search", "replace"],
        ),
        spec(
            "fs_list",
            "List a directory of the repository.",
            json!({"path": s}),
            &[],
        ),
        spec(
            "fs_search",
            "Search files for a regex; optional path prefix.",
            json!({"pattern": s, "path": s}),
            &["pattern"],
        ),
        spec(
            "fs_glob",
            "Find files by glob, e.g. src/**/*.rs.",
            json!({"pattern": s}),
            &["pattern"],
        ),
        spec(
            "ShellCommand",
            "Run a command in the repository: read-only tools, git, builds and tests.",
            json!({"command": s}),
            &["command"],
        ),
        spec(
            "GitAction",
            "Run git with these arguments, e.g. `commit -m msg`.",
            json!({"args": s}),
            &["args"],
        ),
    ]
}

/// What one executed (or refused) call produced.
#[derive(Debug, Clone, Serialize)]
pub struct ToolOutcome {
    /// The text the model reads as the `role: tool` message.
    pub content: String,
    /// Whether the tool did what was asked.
    pub ok: bool,
    /// A short verdict for the user's one line and the session log
    /// (`ok`, `blocked: …`, `refused: …`, `error: …`).
    pub verdict: String,
    /// The path or command the call was about.
    pub target: String,
    /// What the protocol learns from it.
    #[serde(skip)]
    pub step: Step,
    /// The file written and its shadow version, for a write.
    pub wrote: Option<Wrote>,
    /// The commit made, for a git command that committed.
    pub commit: Option<String>,
}

/// A file the run changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wrote {
    /// Repository-relative path.
    #[serde(serialize_with = "utf8_path")]
    pub path: Utf8PathBuf,
    /// `created`, `updated` or `unchanged`.
    pub outcome: &'static str,
    /// The shadow version holding what it replaced.
    pub shadow: Option<u64>,
}

fn utf8_path<S: serde::Serializer>(p: &Utf8PathBuf, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.as_str())
}

impl ToolOutcome {
    fn ok(target: impl Into<String>, content: impl Into<String>, step: Step) -> ToolOutcome {
        ToolOutcome {
            content: content.into(),
            ok: true,
            verdict: "ok".into(),
            target: target.into(),
            step,
            wrote: None,
            commit: None,
        }
    }

    /// A refusal or failure: the model reads `ERROR: why`.
    pub fn fail(
        target: impl Into<String>,
        verdict: impl Into<String>,
        why: impl Into<String>,
    ) -> ToolOutcome {
        let why = why.into();
        ToolOutcome {
            content: format!("ERROR: {why}"),
            ok: false,
            verdict: verdict.into(),
            target: target.into(),
            step: Step::Other,
            wrote: None,
            commit: None,
        }
    }
}

/// How the workspace treats secrets and commands.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Whether the model's endpoint is not on loopback.
    pub remote: bool,
    /// `fararoni.llm.sendSecrets`: send secret files to a remote model anyway.
    pub send_secrets: bool,
    /// How long a build or test may run.
    pub build_timeout: Duration,
    /// How long any other command may run.
    pub command_timeout: Duration,
    /// The most bytes of a command's output kept (the rest is counted).
    pub output_cap: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            remote: false,
            send_secrets: false,
            build_timeout: Duration::from_secs(600),
            command_timeout: Duration::from_secs(60),
            output_cap: 4 << 20,
        }
    }
}

/// One working tree the agent works in, with its guard and session.
pub struct Workspace {
    root: PathBuf,
    guard: Guard,
    session: Session,
    limits: Limits,
    log: SessionLog,
    saga: Option<String>,
    changed: Vec<Wrote>,
    /// What commands changed: files the dirty set recorded, commits made.
    effects: Vec<String>,
    shadows: usize,
    snapshotted: bool,
}

/// Why a workspace could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// Not inside a repository with a working tree.
    #[error("`{}` is not inside a git repository's working tree", path.display())]
    NotARepo {
        /// Where.
        path: PathBuf,
    },
    /// The guard or store could not be opened.
    #[error(transparent)]
    Guard(#[from] crate::guard::GuardError),
    /// The repository could not be read.
    #[error(transparent)]
    Repo(#[from] crate::git::RepoError),
    /// The session log could not be written.
    #[error("could not write the session log `{}`", path.display())]
    Log {
        /// The log.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl Workspace {
    /// Opens the working tree containing `dir` for session `session`.
    pub fn open(dir: &Path, session: Session, limits: Limits) -> Result<Workspace, WorkspaceError> {
        let repo = Repo::discover(dir)?.ok_or_else(|| WorkspaceError::NotARepo {
            path: dir.to_path_buf(),
        })?;
        let root = repo
            .workdir()
            .ok_or_else(|| WorkspaceError::NotARepo {
                path: dir.to_path_buf(),
            })?
            .to_path_buf();
        let root = root.canonicalize().unwrap_or(root);
        let log = SessionLog::create(repo.git_dir(), session.id())
            .map_err(|(path, source)| WorkspaceError::Log { path, source })?;
        let guard = Guard::discover(&root)?;
        Ok(Workspace {
            root,
            guard,
            session,
            limits,
            log,
            saga: None,
            changed: Vec::new(),
            effects: Vec::new(),
            shadows: 0,
            snapshotted: false,
        })
    }

    /// The top of the working tree.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The session every write and shell effect is recorded under.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session log.
    pub fn log(&mut self) -> &mut SessionLog {
        &mut self.log
    }

    /// The saga the run's git writes went into, when one was needed.
    pub fn saga(&self) -> Option<&str> {
        self.saga.as_deref()
    }

    /// Files the run changed, in order.
    pub fn changed(&self) -> &[Wrote] {
        &self.changed
    }

    /// Whether the run changed anything: a file through the file tools, or
    /// a file or a commit through a command (`git commit`, a formatter).
    pub fn changed_anything(&self) -> bool {
        !self.changed.is_empty() || !self.effects.is_empty()
    }

    /// Shadow copies taken (writes that replaced content, and files saved
    /// before commands).
    pub fn shadows(&self) -> usize {
        self.shadows
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Saves the dirty set before the run's first tool call, so
    /// `undo --session` can bring back anything a command of the run
    /// changes (and a run whose model never answers touches nothing).
    pub fn snapshot_dirty(&mut self) -> Result<usize, String> {
        if self.snapshotted {
            return Ok(0);
        }
        let saved = dirty::snapshot(self.guard.shadow(), &self.root, &self.session)?;
        self.snapshotted = true;
        self.shadows += saved;
        self.log.event(
            "dirty_snapshot",
            serde_json::json!({"saved": saved, "available": dirty::AVAILABLE}),
        );
        Ok(saved)
    }

    /// Resolves a path the model gave to a file of the working tree.
    fn resolve(&self, input: &str) -> Result<RepoPath, String> {
        if input.trim().is_empty() {
            return Err("the path is empty".into());
        }
        if input.contains('\0') {
            return Err("the path holds a NUL byte".into());
        }
        if let Some(rule) = PATH_RULES.iter().find(|(bad, _)| bad(input)) {
            return Err(format!("`{}`: {}", shorten(input), rule.1));
        }
        self.guard
            .shadow()
            .resolve(&self.root, Path::new(input))
            .map_err(|e| path_refusal(input, &e))
    }

    /// Executes one call of canonical tool `tool`.
    pub fn execute(&mut self, tool: &str, args: &Value) -> ToolOutcome {
        if let Err(why) = self.snapshot_dirty() {
            return ToolOutcome::fail(tool, "refused: snapshot", format!("the working tree's changed files could not be saved first ({why}); nothing was run"));
        }
        let outcome = match tool {
            "fs_read" => fs::read(self, args),
            "fs_write" => fs::write(self, args),
            "fs_patch" => fs::patch(self, args),
            "fs_list" => fs::list(self, args),
            "fs_search" => fs::search(self, args),
            "fs_glob" => fs::glob(self, args),
            "ShellCommand" => shell::shell(self, args),
            "GitAction" => shell::git_action(self, args),
            other => ToolOutcome::fail(
                other,
                "refused: unknown tool",
                format!(
                    "there is no tool `{other}`; the tools are {}",
                    TOOL_NAMES.join(", ")
                ),
            ),
        };
        if let Some(w) = &outcome.wrote {
            if w.shadow.is_some() {
                self.shadows += 1;
            }
            if w.outcome != "unchanged" && !self.changed.iter().any(|c| c.path == w.path) {
                self.changed.push(w.clone());
            }
        }
        outcome
    }

    fn secret_refusal(&self, rel: &str) -> Option<String> {
        (self.limits.remote && !self.limits.send_secrets && super::secrets::is_secret_file(rel)).then(|| {
            format!("`{rel}` looks like a secret and the model's endpoint is not on this machine; it is not sent (the user can allow it with `git config fararoni.llm.sendSecrets true`)")
        })
    }
}

/// The longest path a tool accepts, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;
/// The longest name of one file or folder, in bytes (most file systems').
pub const MAX_NAME_BYTES: usize = 255;
/// The most folders deep a path may go.
pub const MAX_PATH_DEPTH: usize = 48;

/// Paths refused before they are resolved, each with the rule it breaks.
type PathRule = (fn(&str) -> bool, &'static str);
const PATH_RULES: &[PathRule] = &[
    (
        |p| p.starts_with('~'),
        "`~` is the home folder, outside the repository; paths are relative to the repository's root",
    ),
    (
        |p| p.contains('\\'),
        "a backslash separates folders on Windows (`.git\\hooks\\…` would be a hook there); write paths with `/`",
    ),
    (
        |p| p.len() > MAX_PATH_BYTES,
        "the path is longer than 1024 bytes",
    ),
    (
        |p| p.split('/').any(|c| c.len() > MAX_NAME_BYTES),
        "a file or folder name is longer than 255 bytes",
    ),
    (
        |p| p.split('/').filter(|c| !c.is_empty()).count() > MAX_PATH_DEPTH,
        "the path is more than 48 folders deep",
    ),
];

/// At most 80 characters of a path, for a message.
fn shorten(p: &str) -> String {
    let mut s: String = p.chars().take(80).collect();
    if s.len() < p.len() {
        s.push('…');
    }
    s
}

/// The one sentence a refused path gets.
fn path_refusal(input: &str, e: &ShadowError) -> String {
    match e {
        ShadowError::Outside { .. } => format!("`{input}` is outside the repository's working tree; every path must stay inside it"),
        ShadowError::SymlinkEscapes { .. } => format!("`{input}` goes through a symbolic link that leads out of the working tree"),
        ShadowError::Reserved { .. } => format!("`{input}` is inside the git dir, the hooks folder or git-fararoni's store `.fararoni/`, which no tool touches"),
        ShadowError::DanglingSymlink { .. } => format!("`{input}` is a symbolic link to nothing"),
        ShadowError::NotAFile { .. } => format!("`{input}` is not a file"),
        other => format!("`{input}`: {other}"),
    }
}

/// Reads a string argument; the model's common misspellings of keys are
/// already normalized by the caller.
fn arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

fn arg_usize(args: &Value, key: &str) -> Option<usize> {
    match args.get(key)? {
        Value::Number(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}
