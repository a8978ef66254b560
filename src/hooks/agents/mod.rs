//! `git fararoni guard hook --agent NAME`: the pre-tool hook of other coding
//! agents. One adapter reads each agent's payload through its protocol
//! tables ([`spec`]; one file per agent: [`claude`], [`gemini`], [`codex`],
//! [`cursor`], [`cline`], [`copilot`]), judges the call — shell commands
//! through the shell judgement ([`shell`]), file writes and edits rebuilt
//! exactly as the agent would apply them ([`edit`], [`patch`]) and judged
//! by place and kill-switch ([`files`]) — and answers in the agent's own
//! terms ([`verdict`]). Allow is silence. Everything it cannot judge is a
//! veto that names the bypass (`FARARONI_GUARD=off` in the hook's own
//! environment).
//!
//! Before anything may write, the dirty set is saved ([`record`]), so
//! `git fararoni undo --session <agent>-<id>` reverses what the agent did.
//!
//! Never prints: the command line writes the [`Answer`].

pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod edit;
pub mod files;
pub mod gemini;
pub mod install;
pub mod patch;
pub mod payload;
pub mod protect;
pub mod record;
pub mod rewrite;
pub mod shell;
pub mod spec;
pub mod userstore;
pub mod verdict;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::git::Repo;
use crate::guard::killswitch::{self, Thresholds};
use crate::settings::read::{self as config, HookPosture};
use crate::shadow::{Session, Shadow};

pub use spec::{Agent, Kind};
pub use verdict::{answer, Answer, Decision, Veto, BYPASS_ENV, MAX_MESSAGE};

use edit::{Rebuilt, Replace};
use files::Change;
use payload::{Call, Phase};

/// The largest payload judged; a larger one is a veto (read at most one
/// byte more than this).
pub const MAX_PAYLOAD: usize = 24 * 1024 * 1024;

/// Everything one hook call judges with.
#[derive(Debug)]
pub struct Ctx {
    /// The agent's protocol.
    pub spec: &'static spec::AgentSpec,
    /// The agent's working directory.
    pub cwd: PathBuf,
    /// The repository containing it, if any.
    pub repo: Option<Repo>,
    /// Its shadow store and the kill-switch thresholds, opened when first
    /// needed (a read-only shell command needs neither).
    opened: std::cell::OnceCell<Result<(Option<Shadow>, Thresholds), Veto>>,
    /// The session the agent's changes are recorded under.
    pub session: Session,
    /// The call was allowed and reads only: nothing to log.
    read_only: std::cell::Cell<bool>,
    /// `fararoni.hook.remote`.
    pub remote: HookPosture,
    /// `fararoni.hook.unknownPrograms`.
    pub unknown: HookPosture,
}

impl Ctx {
    fn opened(&self) -> Result<&(Option<Shadow>, Thresholds), Veto> {
        self.opened
            .get_or_init(|| {
                let shadow = match &self.repo {
                    Some(r) => Some(Shadow::open(r).map_err(|e| {
                        Veto::fail_closed(&format!(
                            "the repository's shadow store cannot be opened: {e}"
                        ))
                    })?),
                    None => None,
                };
                let (thresholds, _) = crate::guard::write::configured_thresholds(
                    self.repo.as_ref(),
                )
                .map_err(|e| Veto::fail_closed(&format!("a guard setting cannot be read: {e}")))?;
                Ok((shadow, thresholds))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Returns the shadow store of the agent's repository, if it is in one.
    pub fn shadow(&self) -> Result<Option<&Shadow>, Veto> {
        self.opened().map(|o| o.0.as_ref())
    }

    /// Returns the kill-switch thresholds in force.
    pub fn thresholds(&self) -> Result<&Thresholds, Veto> {
        self.opened().map(|o| &o.1)
    }

    /// Backs up the current content of an existing target before an
    /// allowed change: the repository's dirty set in its shadow store, or a
    /// copy in the per-user store outside any repository.
    /// `listing` is the repository's dirty set asked of git ahead
    /// ([`Ctx::list_ahead`]), if it was.
    pub fn back_up(
        &self,
        target: &files::Target,
        current: &files::Current,
        listing: Option<crate::shadow::dirty::Listing>,
    ) -> Result<(), Veto> {
        if let Some(owner) = &target.owner {
            return record::snapshot(&owner.1, &owner.0, &self.session)
                .map(|_| ())
                .map_err(|e| Veto::fail_closed(&format!("the backup failed: {e}")));
        }
        match (self.shadow()?, &self.repo) {
            (Some(shadow), Some(repo)) => {
                record::snapshot_listed(shadow, repo, &self.session, listing)
                    .map(|c| self.log_changes("before", &c))
            }
            .map_err(|e| Veto::fail_closed(&format!("the backup failed: {e}"))),
            _ => match &current.bytes {
                Some(b) => userstore::back_up(&target.abs, b, self.session.id())
                    .map(|_| ())
                    .map_err(|e| Veto::fail_closed(&format!("the backup failed: {e}"))),
                None => Ok(()),
            },
        }
    }

    /// Starts asking git for the dirty set of the agent's repository, so the
    /// `git status` of a backup runs while the kill-switch judges; `None`
    /// outside a repository (or without a thread).
    pub fn list_ahead(&self) -> Option<crate::shadow::dirty::Listing> {
        match (self.shadow(), &self.repo) {
            (Ok(Some(_)), Some(repo)) => crate::shadow::dirty::list_ahead(repo),
            _ => None,
        }
    }

    /// Saves the dirty set before a call that may write anything.
    fn save_dirty_set(&self) -> Result<(), Veto> {
        if let (Some(shadow), Some(repo)) = (self.shadow()?, &self.repo) {
            let c = record::snapshot(shadow, repo, &self.session).map_err(|e| {
                Veto::fail_closed(&format!("the dirty set could not be saved: {e}"))
            })?;
            self.log_changes("before", &c);
        }
        Ok(())
    }

    /// Logs what changed outside any hook's sight (found at the next
    /// snapshot or after-hook) as one `external` event.
    fn log_changes(&self, when: &str, changes: &[record::Changed]) {
        if changes.is_empty() {
            return;
        }
        self.log(
            "external",
            json!({
                "agent": self.spec.name,
                "found": when,
                "changes": changes
                    .iter()
                    .map(|c| json!({"path": c.path, "change": c.kind}))
                    .collect::<Vec<_>>(),
            }),
        );
    }

    fn log(&self, kind: &str, fields: Value) {
        if let Some(repo) = &self.repo {
            record::log(repo, &self.session, kind, fields);
        }
    }
}

/// Whether the bypass is set in this process's environment.
pub fn bypassed() -> bool {
    crate::settings::read::guard_off()
}

/// Answers one hook call of `agent`: `input` is what was read from stdin,
/// `oversized` that more than [`MAX_PAYLOAD`] bytes were offered.
pub fn handle(agent: Agent, input: &[u8], oversized: bool) -> Answer {
    let spec = agent.spec();
    if bypassed() {
        return Answer::default();
    }
    let decision = run(spec, input, oversized);
    answer(spec.contract, &decision)
}

fn run(spec: &'static spec::AgentSpec, input: &[u8], oversized: bool) -> Decision {
    if oversized {
        return Decision::Veto(Veto::fail_closed(
            "the hook payload is larger than 24 MiB and was not judged",
        ));
    }
    let root: Value = match serde_json::from_slice(input) {
        Ok(v) => v,
        Err(e) => {
            return Decision::Veto(Veto::fail_closed(&format!(
                "the hook payload is not valid JSON ({})",
                e.classify_name()
            )))
        }
    };
    let call = match payload::read(spec, &root) {
        Ok(c) => c,
        Err(e) => {
            return Decision::Veto(Veto::fail_closed(&format!(
                "malformed hook payload: {}",
                e.0
            )))
        }
    };
    // A tool that only reads passes by its table, before anything is
    // opened: it is the most frequent call and must stay instant.
    if call.phase == Phase::Pre && call.tool.is_some_and(|t| t.kind == Kind::Read) {
        return Decision::Allow;
    }
    let ctx = match open(spec, &call) {
        Ok(c) => c,
        Err(v) => return Decision::Veto(v),
    };
    match call.phase {
        Phase::Post => {
            after(&ctx, &call);
            Decision::Allow
        }
        Phase::Pre => {
            let decision = match decide(&ctx, &call) {
                Ok(d) => d,
                Err(e) => Decision::Veto(Veto::fail_closed(&format!(
                    "malformed tool arguments: {}",
                    e.0
                ))),
            };
            let (verdict, reason) = match &decision {
                // A read-only command changes nothing the log tells of.
                Decision::Allow if ctx.read_only.get() => return decision,
                Decision::Allow => ("allow", String::new()),
                Decision::Contain(_) => ("contain", String::new()),
                Decision::Veto(v) => ("veto", v.message.clone()),
            };
            ctx.log(
                "hook",
                json!({
                    "agent": spec.name,
                    "event": "pre",
                    "tool": call.tool_name,
                    "target": describe(&call),
                    "verdict": verdict,
                    "reason": reason,
                }),
            );
            decision
        }
    }
}

trait ClassifyName {
    fn classify_name(&self) -> &'static str;
}

impl ClassifyName for serde_json::Error {
    fn classify_name(&self) -> &'static str {
        match self.classify() {
            serde_json::error::Category::Io => "unreadable",
            serde_json::error::Category::Syntax => "syntax error",
            serde_json::error::Category::Data => "wrong data",
            serde_json::error::Category::Eof => "truncated",
        }
    }
}

/// What the call is about, for the log: its file or command (clipped).
fn describe(call: &Call) -> String {
    let text = call
        .tool
        .and_then(|t| {
            t.fields
                .path
                .iter()
                .chain([&t.fields.command])
                .find_map(|k| call.input.get(*k).and_then(Value::as_str))
        })
        .unwrap_or("");
    text.chars().take(200).collect()
}

fn open(spec: &'static spec::AgentSpec, call: &Call) -> Result<Ctx, Veto> {
    let repo = Repo::discover(&call.cwd).map_err(|e| {
        Veto::fail_closed(&format!(
            "the repository at the working directory cannot be opened: {e}"
        ))
    })?;
    Ok(Ctx {
        spec,
        remote: config::hook_remote(crate::settings::of(repo.as_ref())),
        unknown: config::hook_unknown_programs(crate::settings::of(repo.as_ref())),
        session: record::session_id(spec.agent, call.session.as_deref()),
        cwd: call.cwd.clone(),
        repo,
        opened: std::cell::OnceCell::new(),
        read_only: std::cell::Cell::new(false),
    })
}

/// After a tool ran: journal what changed and log it — in the agent's
/// repository, or (outside any) in the repository of the file the tool
/// named.
fn after(ctx: &Ctx, call: &Call) {
    let owner;
    let (shadow, repo) = match (ctx.shadow().ok().flatten(), &ctx.repo) {
        (Some(s), Some(r)) => (s, r),
        _ => {
            let path = call
                .tool
                .and_then(|t| payload::path_arg(&call.input, t.fields.path).ok());
            let Some(Ok(t)) = path.map(|p| files::locate(ctx, &ctx.cwd, p)) else {
                return;
            };
            let Some(o) = t.owner else { return };
            owner = o;
            (&owner.1, &owner.0)
        }
    };
    let fields = match record::record(shadow, repo, &ctx.session) {
        Ok(changes) => json!({
            "agent": ctx.spec.name,
            "found": "after",
            "tool": call.tool_name,
            "changes": changes
                .iter()
                .map(|c| json!({"path": c.path, "change": c.kind}))
                .collect::<Vec<_>>(),
        }),
        Err(e) => {
            json!({"agent": ctx.spec.name, "found": "after", "tool": call.tool_name, "error": e.to_string()})
        }
    };
    record::log(repo, &ctx.session, "external", fields);
}

fn veto_first(decisions: impl IntoIterator<Item = Decision>) -> Decision {
    for d in decisions {
        if let Decision::Veto(_) = d {
            return d;
        }
    }
    Decision::Allow
}

fn decide(ctx: &Ctx, call: &Call) -> Result<Decision, payload::BadPayload> {
    let Some(tool) = call.tool else {
        return Ok(match ctx.spec.unknown_tool {
            spec::UnknownTool::Veto => Decision::Veto(Veto::fail_closed(&format!(
                "the hook does not know the tool `{}`",
                call.tool_name.chars().take(60).collect::<String>()
            ))),
            spec::UnknownTool::Snapshot => match ctx.save_dirty_set() {
                Ok(()) => Decision::Allow,
                Err(v) => Decision::Veto(v),
            },
        });
    };
    let f = &tool.fields;
    let input = &call.input;
    let base = ctx.cwd.as_path();
    Ok(match tool.kind {
        Kind::Read => Decision::Allow,
        Kind::Shell => {
            let command = payload::command(input, f.command)?;
            let mut given = None;
            for key in f.dir {
                if let Some(d) = payload::opt_str(input, key)? {
                    given = Some(d);
                    break;
                }
            }
            let dir = match given {
                Some(d) if !d.is_empty() => crate::shadow::paths_normalize(&base.join(d)),
                _ => base.to_path_buf(),
            };
            match judge_shell(ctx, &command, &dir) {
                // Allowed without being judged: contained where the agent
                // lets the hook change the call (inside a working tree).
                Shell::Unjudged if ctx.repo.as_ref().is_some_and(|r| r.workdir().is_some()) => {
                    match rewrite::render(ctx.spec.agent, input, f.command, ctx.session.id()) {
                        Some(stdout) => Decision::Contain(stdout),
                        None => Decision::Allow,
                    }
                }
                Shell::Unjudged | Shell::Judged => Decision::Allow,
                Shell::Refused(d) => d,
            }
        }
        Kind::Write => {
            let path = payload::path_arg(input, f.path)?;
            let content = payload::req_str(input, f.content)?.to_string();
            files::judge(ctx, base, path, Change::Write, &|_| {
                Ok(Rebuilt::Content(content.clone()))
            })
        }
        Kind::Edit => {
            let path = payload::path_arg(input, f.path)?;
            let old = payload::req_str(input, f.old)?;
            let new = payload::req_str(input, f.new)?;
            let edit = Replace {
                old,
                new,
                all: payload::opt_bool(input, f.all)?,
                count: payload::opt_u64(input, f.count)?,
            };
            files::judge(ctx, base, path, Change::Write, &|cur| {
                Ok(edit::apply_edits(
                    cur.text()?,
                    std::slice::from_ref(&edit),
                    tool.matching,
                ))
            })
        }
        Kind::MultiEdit => {
            let path = payload::path_arg(input, f.path)?;
            let Some(Value::Array(list)) = input.get(f.edits) else {
                return Err(payload::BadPayload(format!(
                    "the argument `{}` is not a list",
                    f.edits
                )));
            };
            let mut edits = Vec::with_capacity(list.len());
            for e in list {
                let Value::Object(m) = e else {
                    return Err(payload::BadPayload("an edit is not an object".into()));
                };
                edits.push(Replace {
                    old: payload::req_str(m, f.old)?,
                    new: payload::req_str(m, f.new)?,
                    all: payload::opt_bool(m, f.all)?,
                    count: None,
                });
            }
            if edits.is_empty() {
                return Err(payload::BadPayload("the list of edits is empty".into()));
            }
            files::judge(ctx, base, path, Change::Write, &|cur| {
                Ok(edit::apply_edits(cur.text()?, &edits, tool.matching))
            })
        }
        Kind::SearchReplace => {
            let path = payload::path_arg(input, f.path)?;
            let diff = payload::req_str(input, f.diff)?;
            files::judge(ctx, base, path, Change::Write, &|cur| {
                edit::apply_cline(cur.text()?, diff).map_err(|m| {
                    Veto::fail_closed(&format!("the SEARCH/REPLACE diff cannot be read: {}", m.0))
                })
            })
        }
        Kind::Delete => {
            let path = payload::path_arg(input, f.path)?;
            files::judge(ctx, base, path, Change::Delete, &|_| {
                Ok(Rebuilt::Refused("delete"))
            })
        }
        Kind::Patch => {
            let text = payload::command(input, f.command)?;
            judge_patch(ctx, base, &text)
        }
    })
}

/// Judges a Codex patch: every file it touches, all or nothing (a hunk
/// Codex cannot place makes it refuse the whole patch, which then passes
/// untouched). The patch is one change: code it takes out of one file and
/// puts into another (of the repository, as the patch leaves it) was
/// moved, not removed.
fn judge_patch(ctx: &Ctx, base: &Path, text: &str) -> Decision {
    match judge_patch_inner(ctx, base, text) {
        Ok(d) => d,
        Err(v) => Decision::Veto(v),
    }
}

/// A file a patch touches: its name, whether it is outside the repository
/// (scratch), what it holds now, and what the patch leaves in it (`None`:
/// deleted or moved away).
struct File {
    name: String,
    scratch: bool,
    old: Option<Vec<u8>>,
    left: Option<Vec<u8>>,
}

/// Every file a patch names, once each by where it really is.
#[derive(Default)]
struct Touched {
    files: Vec<File>,
    at: std::collections::HashMap<PathBuf, usize>,
}

impl Touched {
    /// Returns the index of the file `path` names, read on first sight.
    fn index(&mut self, ctx: &Ctx, base: &Path, path: &str) -> Result<usize, Veto> {
        let target = files::locate(ctx, base, path)?;
        if let Some(&i) = self.at.get(&target.abs) {
            return Ok(i);
        }
        let cur = files::read_current(&target, path)?;
        self.files.push(File {
            name: target
                .rel
                .clone()
                .unwrap_or_else(|| target.abs.to_string_lossy().into_owned()),
            scratch: target.scratch,
            left: cur.bytes.clone(),
            old: cur.bytes,
        });
        self.at.insert(target.abs, self.files.len() - 1);
        Ok(self.files.len() - 1)
    }
}

fn judge_patch_inner(ctx: &Ctx, base: &Path, text: &str) -> Result<Decision, Veto> {
    let ops = patch::parse(text)
        .map_err(|e| Veto::fail_closed(&format!("the patch cannot be read: {}", e.0)))?;
    let mut touched = Touched::default();
    // What each update would leave, as Codex computes it before touching
    // anything, and what the whole patch leaves in each file.
    let mut updated: Vec<Option<String>> = Vec::with_capacity(ops.len());
    let mut places: Vec<(usize, Option<usize>)> = Vec::with_capacity(ops.len());
    for op in &ops {
        match op {
            patch::PatchOp::Add { path, content } => {
                let i = touched.index(ctx, base, path)?;
                touched.files[i].left = Some(content.clone().into_bytes());
                places.push((i, None));
                updated.push(None);
            }
            patch::PatchOp::Delete { path } => {
                let i = touched.index(ctx, base, path)?;
                touched.files[i].left = None;
                places.push((i, None));
                updated.push(None);
            }
            patch::PatchOp::Update {
                path,
                move_to,
                hunks,
            } => {
                let i = touched.index(ctx, base, path)?;
                let text = match touched.files[i].old.as_deref().map(std::str::from_utf8) {
                    Some(Ok(t)) => t,
                    // Codex refuses to update a missing file.
                    None => return Ok(Decision::Allow),
                    Some(Err(_)) => {
                        return Err(Veto::fail_closed(
                            "the file is not UTF-8 text, so the edit cannot be judged",
                        ))
                    }
                };
                let new = match patch::apply_hunks(text, hunks) {
                    Rebuilt::Content(c) => c,
                    Rebuilt::Refused(_) => return Ok(Decision::Allow),
                };
                let dest = match move_to {
                    Some(m) => {
                        let d = touched.index(ctx, base, m)?;
                        touched.files[i].left = None;
                        touched.files[d].left = Some(new.clone().into_bytes());
                        Some(d)
                    }
                    None => {
                        touched.files[i].left = Some(new.clone().into_bytes());
                        None
                    }
                };
                places.push((i, dest));
                updated.push(Some(new));
            }
        }
    }
    // Files outside the repository (new ones under the temp dir) keep
    // nothing: code moved there is not counted as kept.
    let files: Vec<killswitch::ChangedFile> = touched
        .files
        .iter()
        .map(|t| {
            let old = t.old.as_deref();
            let left = if t.scratch {
                old.unwrap_or_default()
            } else {
                t.left.as_deref().unwrap_or_default()
            };
            (t.name.as_str(), old, left)
        })
        .collect();
    let change = killswitch::Change::new(&files);
    let mut decisions = Vec::new();
    for ((op, new), (i, dest)) in ops.iter().zip(updated).zip(places) {
        let elsewhere = change.elsewhere(i);
        match op {
            patch::PatchOp::Add { path, content } => {
                decisions.push(files::judge_in_change(
                    ctx,
                    base,
                    path,
                    Change::Write,
                    &|_| Ok(Rebuilt::Content(content.clone())),
                    &elsewhere,
                ));
            }
            patch::PatchOp::Delete { path } => {
                decisions.push(files::judge(ctx, base, path, Change::Delete, &|_| {
                    Ok(Rebuilt::Refused("delete"))
                }));
            }
            patch::PatchOp::Update { path, move_to, .. } => {
                let new = new.unwrap_or_default();
                decisions.push(files::judge_in_change(
                    ctx,
                    base,
                    path,
                    Change::Write,
                    &|_| Ok(Rebuilt::Content(new.clone())),
                    &elsewhere,
                ));
                if let (Some(dest), Some(d)) = (move_to, dest) {
                    decisions.push(files::judge_in_change(
                        ctx,
                        base,
                        dest,
                        Change::Write,
                        &|_| Ok(Rebuilt::Content(new.clone())),
                        &change.elsewhere(d),
                    ));
                }
            }
        }
        if let Some(Decision::Veto(_)) = decisions.last() {
            break;
        }
    }
    Ok(veto_first(decisions))
}

/// Judges a shell command line: the shell judgement, a patch carried in it,
/// the writes of known content it makes, then the dirty set saved when it
/// may write.
/// What the shell judgement concluded, for the adapter.
enum Shell {
    /// Refused (or the dirty set could not be saved).
    Refused(Decision),
    /// Allowed, every command judged.
    Judged,
    /// Allowed, but something in it runs unjudged (a script, a program
    /// the guard does not know): it should run contained.
    Unjudged,
}

fn judge_shell(ctx: &Ctx, command: &str, dir: &Path) -> Shell {
    if patch::envelope(command).is_some() {
        if let d @ Decision::Veto(_) = judge_patch(ctx, dir, command) {
            return Shell::Refused(d);
        }
    }
    let j = shell::judge(command, dir, ctx.remote, ctx.unknown);
    if j.veto {
        return Shell::Refused(Decision::Veto(Veto::message(&j.reason)));
    }
    for w in &j.known_writes {
        let shown = w.path.to_string_lossy().into_owned();
        let content = String::from_utf8_lossy(&w.content).into_owned();
        let append = w.append;
        let d = files::judge(ctx, dir, &shown, Change::Write, &|cur| {
            Ok(Rebuilt::Content(if append {
                format!("{}{content}", cur.text()?.unwrap_or(""))
            } else {
                content.clone()
            }))
        });
        if let Decision::Veto(_) = d {
            return Shell::Refused(d);
        }
    }
    if j.may_write {
        if let Err(v) = ctx.save_dirty_set() {
            return Shell::Refused(Decision::Veto(v));
        }
    } else if j.known_writes.is_empty() {
        ctx.read_only.set(true);
    }
    if j.unjudged {
        Shell::Unjudged
    } else {
        Shell::Judged
    }
}
