//! `git fararoni hooks install|uninstall|status --agent NAME`: merging the
//! guard hook into each agent's own settings, as data ([`PLANS`]). JSON
//! settings are edited by the smallest span ([`json`]): every other setting
//! and hook stays byte-identical, installing twice changes nothing, and
//! uninstalling removes exactly what was added (a file we created is
//! removed again). Cline's hooks are executable files named after the
//! event; ours are written only where no file is, and removed only when
//! they are still exactly ours.
//!
//! The command written names the agent explicitly (a payload's agent
//! cannot be told reliably, and each agent's veto differs) and is
//! registered only for the tools it judges. Before a tool, where the agent
//! would take a broken hook for one that allows, it is the fail-closed
//! wrapper of [`wrapper`]; after a tool (nothing left to refuse) and for
//! agents that block on a failed hook themselves, it is plain `git
//! fararoni guard hook --agent NAME`. Installing again replaces an older
//! command of ours in place.

pub mod json;
pub mod trust;
pub mod wrapper;

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::spec::Agent;
use json::{Node, Style, J};

/// Where hooks are installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The repository's own settings files (shared with whoever clones it,
    /// where the agent reads them from the project).
    Project,
    /// The user's settings in their home directory (every project).
    User,
}

/// A failure of an installer.
#[derive(Debug, Error)]
pub enum InstallError {
    /// A settings file could not be read.
    #[error("could not read `{}`", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A settings file could not be written.
    #[error("could not write `{}`", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A settings file is not the JSON the agent reads.
    #[error("`{}` is not valid JSON ({why}); it was left as it is", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// Where and what.
        why: String,
    },
    /// A settings file has an unexpected shape at a key we must edit.
    #[error("`{}` has `{key}` that is not {expected}; it was left as it is", path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// The key.
        key: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A hook file of someone else's is where ours would go.
    #[error("`{}` exists and is not git-fararoni's; it was left as it is", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// There is no home directory for a user-scope install.
    #[error("no home directory (HOME is not set) for a user-scope install")]
    NoHome,
}

/// The plain command: after a tool, and before one where the agent blocks
/// on a failed hook itself (Cursor's `failClosed`, Cline's files).
pub fn command(agent: Agent) -> String {
    format!("git fararoni guard hook --agent {}", agent.name())
}

/// The command of `agent`'s hook before a tool: the fail-closed wrapper
/// where the agent has one ([`wrapper::ROWS`]), else [`command`].
pub fn pre_command(agent: Agent) -> String {
    wrapper::row(agent)
        .map(wrapper::command)
        .unwrap_or_else(|| command(agent))
}

/// Whether a hook command string is ours: the plain command, the wrapper
/// (which runs `git-fararoni guard hook`), and every older form.
pub fn is_ours(cmd: &str) -> bool {
    cmd.contains("fararoni guard hook")
}

/// How a JSON settings file holds one event's hooks.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// Claude/Gemini/Codex: `[{matcher, hooks: [{type, command, …}]}]`.
    Groups {
        /// The matcher (`None`: no matcher key).
        matcher: Option<&'static str>,
        /// The handler's extra keys.
        timeout: (&'static str, i64),
        /// A `name` for the handler (Gemini).
        name: bool,
    },
    /// Cursor: `[{command, matcher?, failClosed}]`.
    Flat {
        /// The matcher.
        matcher: Option<&'static str>,
        /// Whether to set `failClosed` (a crashed hook blocks).
        fail_closed: bool,
    },
    /// Copilot: `[{type, bash, timeoutSec}]`.
    Copilot,
}

/// One event to register in a JSON settings file.
#[derive(Debug, Clone, Copy)]
struct Event {
    /// The keys leading to the event's list, from the top.
    path: &'static [&'static str],
    /// How its entries look.
    shape: Shape,
    /// Before a tool runs (the hook can refuse it): the command is
    /// [`pre_command`]; after, [`command`].
    pre: bool,
}

impl Event {
    /// The command this event's entry runs for `agent`.
    fn command(&self, agent: Agent) -> String {
        if self.pre {
            pre_command(agent)
        } else {
            command(agent)
        }
    }
}

/// What installing for an agent means.
#[derive(Debug, Clone, Copy)]
enum Plan {
    /// Entries merged into a JSON file.
    Json {
        /// The file, relative to the project's top.
        project: &'static str,
        /// The file, relative to the home directory.
        user: &'static str,
        /// The content of a file we create, before our entries.
        empty: &'static str,
        /// The events.
        events: &'static [Event],
    },
    /// Executable files named after the events, in a folder.
    Scripts {
        /// The folder, relative to the project's top.
        project: &'static str,
        /// The folder, relative to the home directory.
        user: &'static str,
        /// The events (file names).
        events: &'static [&'static str],
    },
}

const CLAUDE_GROUP: Shape = Shape::Groups {
    matcher: Some(super::claude::MATCHER),
    timeout: ("timeout", 30),
    name: false,
};
const GEMINI_GROUP: Shape = Shape::Groups {
    matcher: Some(super::gemini::MATCHER),
    timeout: ("timeout", 30_000),
    name: true,
};
const CODEX_GROUP: Shape = Shape::Groups {
    matcher: Some(super::codex::MATCHER),
    timeout: ("timeout", 30),
    name: false,
};

/// A settings file at the same place in the project and the home
/// directory, `{}` when we create it, with one group of hooks per event.
const fn groups_file(file: &'static str, events: &'static [Event]) -> Plan {
    Plan::Json {
        project: file,
        user: file,
        empty: "{}\n",
        events,
    }
}

/// The `hooks.<event>` lists of a [`groups_file`], before (`pre`) or after
/// a tool.
const fn group_event(event: &'static [&'static str], shape: Shape, pre: bool) -> Event {
    Event {
        path: event,
        shape,
        pre,
    }
}

/// Every agent's installer, as data.
fn plan(agent: Agent) -> Plan {
    const CLAUDE: &[Event] = &[
        group_event(&["hooks", "PreToolUse"], CLAUDE_GROUP, true),
        group_event(&["hooks", "PostToolUse"], CLAUDE_GROUP, false),
    ];
    const GEMINI: &[Event] = &[
        group_event(&["hooks", "BeforeTool"], GEMINI_GROUP, true),
        group_event(&["hooks", "AfterTool"], GEMINI_GROUP, false),
    ];
    const CODEX: &[Event] = &[
        group_event(&["hooks", "PreToolUse"], CODEX_GROUP, true),
        group_event(&["hooks", "PostToolUse"], CODEX_GROUP, false),
    ];
    match agent {
        Agent::Claude => groups_file(".claude/settings.json", CLAUDE),
        Agent::Gemini => groups_file(".gemini/settings.json", GEMINI),
        Agent::Codex => groups_file(".codex/hooks.json", CODEX),
        Agent::Cursor => Plan::Json {
            project: ".cursor/hooks.json",
            user: ".cursor/hooks.json",
            empty: "{\n  \"version\": 1\n}\n",
            events: &[
                Event {
                    path: &["hooks", "preToolUse"],
                    shape: Shape::Flat {
                        matcher: Some(super::cursor::MATCHER),
                        fail_closed: true,
                    },
                    pre: true,
                },
                Event {
                    path: &["hooks", "beforeShellExecution"],
                    shape: Shape::Flat {
                        matcher: None,
                        fail_closed: true,
                    },
                    pre: true,
                },
                Event {
                    path: &["hooks", "afterFileEdit"],
                    shape: Shape::Flat {
                        matcher: None,
                        fail_closed: false,
                    },
                    pre: false,
                },
                Event {
                    path: &["hooks", "afterShellExecution"],
                    shape: Shape::Flat {
                        matcher: None,
                        fail_closed: false,
                    },
                    pre: false,
                },
            ],
        },
        Agent::Cline => Plan::Scripts {
            project: ".clinerules/hooks",
            user: "Documents/Cline/Rules/Hooks",
            events: &["PreToolUse", "PostToolUse"],
        },
        Agent::Copilot => Plan::Json {
            project: ".github/hooks/fararoni.json",
            user: ".copilot/hooks/fararoni.json",
            empty: "{\n  \"version\": 1\n}\n",
            events: &[
                Event {
                    path: &["hooks", "preToolUse"],
                    shape: Shape::Copilot,
                    pre: true,
                },
                Event {
                    path: &["hooks", "postToolUse"],
                    shape: Shape::Copilot,
                    pre: false,
                },
            ],
        },
    }
}

/// A step the user must take themselves after installing (Codex's trust
/// is checked, not told: [`trust::findings`]).
pub fn manual_step(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Gemini => Some(
            "if your Gemini CLI version has hooks switched off, enable them in `/settings` (\"Enable Hooks System\")",
        ),
        Agent::Cline => Some("Cline runs hooks from version 3.36 on, on macOS and Linux"),
        _ => None,
    }
}

fn entry(agent: Agent, ev: &Event) -> J {
    let cmd = J::Str(ev.command(agent));
    match ev.shape {
        Shape::Groups {
            matcher,
            timeout,
            name,
        } => {
            let mut handler = Vec::new();
            if name {
                handler.push(("name", J::Str("fararoni-guard".into())));
            }
            handler.push(("type", J::Str("command".into())));
            handler.push(("command", cmd));
            handler.push((timeout.0, J::Num(timeout.1)));
            let mut group = Vec::new();
            if let Some(m) = matcher {
                group.push(("matcher", J::Str(m.into())));
            }
            group.push(("hooks", J::Arr(vec![J::Obj(handler)])));
            J::Obj(group)
        }
        Shape::Flat {
            matcher,
            fail_closed,
        } => {
            let mut e = vec![("command", cmd)];
            if let Some(m) = matcher {
                e.push(("matcher", J::Str(m.into())));
            }
            if fail_closed {
                e.push(("failClosed", J::Bool(true)));
            }
            J::Obj(e)
        }
        Shape::Copilot => J::Obj(vec![
            ("type", J::Str("command".into())),
            ("bash", cmd),
            ("timeoutSec", J::Num(30)),
        ]),
    }
}

/// Where one agent's hooks go.
pub fn location(agent: Agent, scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    let (p, u) = match plan(agent) {
        Plan::Json { project, user, .. } => (project, user),
        Plan::Scripts { project, user, .. } => (project, user),
    };
    Ok(match scope {
        Scope::Project => project.join(p),
        Scope::User => home()?.join(u),
    })
}

fn home() -> Result<PathBuf, InstallError> {
    crate::settings::read::home_os()
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .ok_or(InstallError::NoHome)
}

/// What an install or uninstall did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The file was changed (or created, or removed).
    Changed(PathBuf),
    /// The file already said what it should.
    Unchanged(PathBuf),
}

impl Outcome {
    /// `Changed(path)` when `changed`, else `Unchanged(path)`.
    fn of(changed: bool, path: PathBuf) -> Outcome {
        if changed {
            Outcome::Changed(path)
        } else {
            Outcome::Unchanged(path)
        }
    }
}

/// The state of one agent's hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The agent.
    pub agent: Agent,
    /// The file or folder holding its hooks.
    pub path: PathBuf,
    /// Whether that exists.
    pub exists: bool,
    /// The events our hook is registered for.
    pub installed: Vec<String>,
    /// The events it should be registered for.
    pub expected: Vec<String>,
    /// The events where our hook runs an older command than the one
    /// `install` writes now (before a tool: the old form that fails open).
    pub outdated: Vec<String>,
    /// Something wrong with the file.
    pub problem: Option<String>,
}

/// Reads a file; `Ok(None)` when it does not exist.
fn read(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read(path) {
        Ok(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|_| InstallError::NotJson {
                path: path.to_path_buf(),
                why: "not UTF-8".into(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InstallError::Read {
            path: path.to_path_buf(),
            source: e,
        }),
    }
}

/// Writes a file through a symlink to its target (a settings file linked
/// from the user's dotfiles stays a link), atomically.
fn write(path: &Path, text: &str) -> Result<(), InstallError> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|e| InstallError::Write {
            path: path.to_path_buf(),
            source: e,
        })?;
    }
    crate::shadow::atomic_write(&target, text.as_bytes()).map_err(|e| InstallError::Write {
        path: path.to_path_buf(),
        source: e,
    })
}

/// Removes a file of ours.
fn remove(path: &Path) -> Result<(), InstallError> {
    std::fs::remove_file(path).map_err(|e| InstallError::Write {
        path: path.to_path_buf(),
        source: e,
    })
}

fn parse(path: &Path, text: &str) -> Result<Node, InstallError> {
    json::parse(text).map_err(|e| InstallError::NotJson {
        path: path.to_path_buf(),
        why: e.to_string(),
    })
}

/// The handler commands of one entry of an event list.
fn entry_commands(entry: &Node) -> Vec<(Option<usize>, String)> {
    let own = ["command", "bash"]
        .iter()
        .filter_map(|k| entry.get(k).and_then(Node::as_str))
        .map(|c| (None, c.to_string()));
    let nested = match entry.get("hooks") {
        Some(Node::Array { items, .. }) => items
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                h.get("command")
                    .and_then(Node::as_str)
                    .map(|c| (Some(i), c.to_string()))
            })
            .collect(),
        _ => Vec::new(),
    };
    own.chain(nested).collect()
}

/// The command values of our handlers in an event list.
fn our_commands(list: &Node) -> Vec<&Node> {
    let Node::Array { items, .. } = list else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in items {
        let nested = match e.get("hooks") {
            Some(Node::Array { items, .. }) => {
                items.iter().filter_map(|h| h.get("command")).collect()
            }
            _ => Vec::new(),
        };
        let own = ["command", "bash"].into_iter().filter_map(|k| e.get(k));
        out.extend(
            own.chain(nested)
                .filter(|n| n.as_str().is_some_and(is_ours)),
        );
    }
    out
}

/// Whether some handler of ours in the event list runs another command
/// than `want`.
fn outdated(list: &Node, want: &str) -> bool {
    our_commands(list).iter().any(|n| n.as_str() != Some(want))
}

/// Whether the event list holds our hook.
fn has_ours(list: &Node) -> bool {
    match list {
        Node::Array { items, .. } => items
            .iter()
            .any(|e| entry_commands(e).iter().any(|(_, c)| is_ours(c))),
        _ => false,
    }
}

/// Follows `path` from `root`, returning the deepest node reached and how
/// many keys matched.
fn walk<'n>(root: &'n Node, path: &[&str]) -> (&'n Node, usize) {
    let mut node = root;
    for (i, k) in path.iter().enumerate() {
        match node.get(k) {
            Some(n) => node = n,
            None => return (node, i),
        }
    }
    (node, path.len())
}

/// What an install remembers so uninstall can restore a file byte for
/// byte: the file before (`None`: there was none) and as we left it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Memory {
    original: Option<String>,
    installed: String,
}

fn memory_file(state: &Path, agent: Agent) -> PathBuf {
    state.join(format!("{}.json", agent.name()))
}

fn remember(state: &Path, agent: Agent, m: &Memory) -> Result<(), InstallError> {
    let text = serde_json::to_string(m).unwrap_or_default();
    write(&memory_file(state, agent), &text)
}

fn forget(state: &Path, agent: Agent) {
    let _ = std::fs::remove_file(memory_file(state, agent));
}

fn recall(state: &Path, agent: Agent) -> Option<Memory> {
    let text = std::fs::read_to_string(memory_file(state, agent)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Installs `agent`'s hook in `scope` (`project`: the top of the worktree;
/// `state`: where installs remember what they changed — the git dir's
/// `fararoni/agent-hooks` for a project, the per-user state folder for the
/// user's settings).
pub fn install(
    agent: Agent,
    scope: Scope,
    project: &Path,
    state: &Path,
) -> Result<Outcome, InstallError> {
    let path = location(agent, scope, project)?;
    match plan(agent) {
        Plan::Scripts { events, .. } => {
            let mut changed = false;
            for ev in events {
                let file = path.join(ev);
                let want = script(agent);
                match read(&file)? {
                    Some(t) if t == want => {}
                    Some(_) => return Err(InstallError::Foreign { path: file }),
                    None => {
                        write(&file, &want)?;
                        set_executable(&file)?;
                        changed = true;
                    }
                }
            }
            Ok(Outcome::of(changed, path))
        }
        Plan::Json { empty, events, .. } => {
            let original = read(&path)?;
            let mut text = original.clone().unwrap_or_else(|| empty.to_string());
            let mut had_ours = false;
            for ev in events {
                // An older command of ours is replaced where it stands, one
                // at a time (each replacement moves the spans after it).
                let want = ev.command(agent);
                for _ in 0..64 {
                    let root = parse(&path, &text)?;
                    let (node, depth) = walk(&root, ev.path);
                    if depth < ev.path.len() {
                        break;
                    }
                    had_ours |= has_ours(node);
                    let old = our_commands(node)
                        .into_iter()
                        .find(|n| n.as_str() != Some(want.as_str()));
                    let Some(old) = old else { break };
                    let piece = Style::of(&text).render(&J::Str(want.clone()), 0);
                    text = json::replace(&text, old, &piece);
                }
                let root = parse(&path, &text)?;
                if !matches!(root, Node::Object { .. }) {
                    return Err(InstallError::Shape {
                        path,
                        key: "(top)".into(),
                        expected: "an object",
                    });
                }
                let style = Style::of(&text);
                let (node, depth) = walk(&root, ev.path);
                if depth == ev.path.len() {
                    if !matches!(node, Node::Array { .. }) {
                        return Err(InstallError::Shape {
                            path,
                            key: ev.path.join("."),
                            expected: "a list",
                        });
                    }
                    if has_ours(node) {
                        continue;
                    }
                    let piece = style.render(&entry(agent, ev), depth + 1);
                    text = json::append(&text, node, &piece, depth, &style);
                } else {
                    if !matches!(node, Node::Object { .. }) {
                        return Err(InstallError::Shape {
                            path,
                            key: ev.path[..depth].join("."),
                            expected: "an object",
                        });
                    }
                    // Build the missing keys inside out.
                    let mut value = J::Arr(vec![entry(agent, ev)]);
                    for k in ev.path[depth + 1..].iter().rev() {
                        value = J::Obj(vec![(k, value)]);
                    }
                    let key = ev.path[depth];
                    let sep = if style.unit.is_some() { ": " } else { ":" };
                    let piece = format!("\"{key}\"{sep}{}", style.render(&value, depth + 1));
                    text = json::append(&text, node, &piece, depth, &style);
                }
            }
            if original.as_deref() == Some(text.as_str()) {
                return Ok(Outcome::Unchanged(path));
            }
            // Where the file held our hook already, what it was without us
            // is known only from the first install's memory, and only if
            // the file is still as that install left it; otherwise
            // uninstall removes our entries one by one.
            let memory = if had_ours {
                recall(state, agent)
                    .filter(|m| original.as_deref() == Some(m.installed.as_str()))
                    .map(|m| Memory {
                        original: m.original,
                        installed: text.clone(),
                    })
            } else {
                Some(Memory {
                    original,
                    installed: text.clone(),
                })
            };
            match memory {
                Some(m) => remember(state, agent, &m)?,
                None => forget(state, agent),
            }
            write(&path, &text)?;
            Ok(Outcome::Changed(path))
        }
    }
}

fn script(agent: Agent) -> String {
    format!(
        "#!/bin/sh\n# Installed by `git fararoni hooks install --agent {name}`; removed by `git fararoni hooks uninstall --agent {name}`.\nexec {}\n",
        command(agent),
        name = agent.name()
    )
}

fn set_executable(path: &Path) -> Result<(), InstallError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(|e| {
            InstallError::Write {
                path: path.to_path_buf(),
                source: e,
            }
        })?;
    }
    let _ = path;
    Ok(())
}

/// Removes one of our entries from `text`, the smallest enclosing thing
/// that holds nothing else (handler, group, event list, `hooks` object).
/// Returns `None` when there is none.
fn remove_one(text: &str, event_path: &[&str]) -> Option<String> {
    let root = json::parse(text).ok()?;
    // The chain of containers from the top to the event list.
    let mut chain: Vec<&Node> = vec![&root];
    for k in event_path {
        chain.push(chain.last()?.get(k)?);
    }
    let Node::Array { items, .. } = chain.last()? else {
        return None;
    };
    for (i, e) in items.iter().enumerate() {
        let cmds = entry_commands(e);
        let ours: Vec<&(Option<usize>, String)> = cmds.iter().filter(|(_, c)| is_ours(c)).collect();
        if ours.is_empty() {
            continue;
        }
        // Inside a group that also holds someone else's handler: only ours.
        if cmds.len() > ours.len() {
            if let (Some((Some(h), _)), Some(hooks @ Node::Array { .. })) =
                (ours.first(), e.get("hooks"))
            {
                return Some(json::remove(text, hooks, *h));
            }
        }
        // Remove the entry, or the highest container it alone fills.
        let list = *chain.last()?;
        if items.len() > 1 {
            return Some(json::remove(text, list, i));
        }
        let mut level = chain.len() - 1;
        while level > 0 {
            let parent = chain[level - 1];
            let Node::Object { members, .. } = parent else {
                break;
            };
            let key = event_path[level - 1];
            let idx = members.iter().rposition(|m| m.key == key)?;
            if members.len() > 1 || level == 1 {
                return Some(json::remove(text, parent, idx));
            }
            level -= 1;
        }
        return Some(json::remove(text, list, i));
    }
    None
}

/// Removes the folders above `path` that are left empty, up to `top`
/// (folders an install created; an empty folder holds nothing to keep).
fn prune_empty(path: &Path, top: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == top || !d.starts_with(top) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Removes `agent`'s hook from `scope`.
pub fn uninstall(
    agent: Agent,
    scope: Scope,
    project: &Path,
    state: &Path,
) -> Result<Outcome, InstallError> {
    let path = location(agent, scope, project)?;
    let top = match scope {
        Scope::Project => project.to_path_buf(),
        Scope::User => home()?,
    };
    let outcome = uninstall_at(agent, &path, state)?;
    if let Outcome::Changed(_) = outcome {
        match plan(agent) {
            Plan::Scripts { events, .. } => prune_empty(&path.join(events[0]), &top),
            Plan::Json { .. } => prune_empty(&path, &top),
        }
    }
    Ok(outcome)
}

fn uninstall_at(agent: Agent, path: &Path, state: &Path) -> Result<Outcome, InstallError> {
    let path = path.to_path_buf();
    // Untouched since we installed: the file as it was, byte for byte.
    if let Some(m) = recall(state, agent) {
        let _ = std::fs::remove_file(memory_file(state, agent));
        if read(&path)?.as_deref() == Some(m.installed.as_str()) {
            match m.original {
                Some(o) => write(&path, &o)?,
                None => remove(&path)?,
            }
            return Ok(Outcome::Changed(path));
        }
    }
    match plan(agent) {
        Plan::Scripts { events, .. } => {
            let mut changed = false;
            for ev in events {
                let file = path.join(ev);
                if read(&file)?.is_some_and(|t| t == script(agent)) {
                    remove(&file)?;
                    changed = true;
                }
            }
            Ok(Outcome::of(changed, path))
        }
        Plan::Json { empty, events, .. } => {
            let Some(original) = read(&path)? else {
                return Ok(Outcome::Unchanged(path));
            };
            parse(&path, &original)?;
            let mut text = original.clone();
            for ev in events {
                // Bounded: each pass removes one entry.
                for _ in 0..64 {
                    match remove_one(&text, ev.path) {
                        Some(t) => text = t,
                        None => break,
                    }
                }
            }
            if text == original {
                return Ok(Outcome::Unchanged(path));
            }
            if text == empty {
                remove(&path)?;
            } else {
                write(&path, &text)?;
            }
            Ok(Outcome::Changed(path))
        }
    }
}

/// Reports whether `agent`'s hook is installed in `scope`.
pub fn status(agent: Agent, scope: Scope, project: &Path) -> Result<Status, InstallError> {
    let path = location(agent, scope, project)?;
    let mut st = Status {
        agent,
        exists: path.exists(),
        path: path.clone(),
        installed: Vec::new(),
        expected: Vec::new(),
        outdated: Vec::new(),
        problem: None,
    };
    match plan(agent) {
        Plan::Scripts { events, .. } => {
            for ev in events {
                st.expected.push(ev.to_string());
                match read(&path.join(ev)) {
                    Ok(Some(t)) if t == script(agent) => st.installed.push(ev.to_string()),
                    Ok(Some(t)) if t.contains("fararoni guard hook") => {
                        st.installed.push(ev.to_string())
                    }
                    Ok(Some(_)) => st.problem = Some(format!("`{ev}` is someone else's hook")),
                    Ok(None) => {}
                    Err(e) => st.problem = Some(e.to_string()),
                }
            }
        }
        Plan::Json { events, .. } => {
            let text = read(&path)?;
            let root = match text.as_deref().map(json::parse) {
                Some(Ok(r)) => Some(r),
                Some(Err(e)) => {
                    st.problem = Some(format!("not valid JSON ({e})"));
                    None
                }
                None => None,
            };
            for ev in events {
                let name = ev.path.join(".");
                st.expected.push(name.clone());
                if let Some(r) = &root {
                    let (node, depth) = walk(r, ev.path);
                    if depth == ev.path.len() && has_ours(node) {
                        if outdated(node, &ev.command(agent)) {
                            st.outdated.push(name.clone());
                        }
                        st.installed.push(name);
                    }
                }
            }
        }
    }
    Ok(st)
}
