//! The repository's own state, saved with the dirty set so that
//! `undo --session` brings back what a program did to it: every ref (the
//! stash and tags included, never our own `refs/fararoni/`), HEAD
//! (symbolic or detached), the index file, the git dir's `config` (and
//! `config.worktree`), every file of the effective hooks folder
//! (`core.hooksPath` or `<common dir>/hooks`), the files of `info/`
//! (`exclude`, `attributes`, …) and the stash's reflog (each stash entry is
//! one of its lines).
//!
//! Kept per session in the ledger `<git dir>/fararoni/state/<digest>.json`
//! (the git dir: out of the working tree, where a build could delete it,
//! and read-only to contained commands):
//!
//! - `last`: the state at the session's latest snapshot, with a stat
//!   fingerprint of each file, so an unchanged index, config or hook is
//!   neither read nor stored again;
//! - `first`: for each ref, file or HEAD the session changed, its value
//!   before the session's first change to it (first wins: what is saved
//!   only grows);
//! - `files`: the same for the working files the session changed, as git
//!   blobs, so undo works even when the session deleted `.fararoni/`.
//!
//! File contents are git blobs (content-addressed in the object database).
//! Objects that a session could delete and then prune — the commit every
//! ref pointed at, each stash entry, annotated tag objects, the blobs above
//! — stay alive because `refs/fararoni/keep/<digest>` points at a commit
//! whose parents are those commits and whose tree holds the rest (a tag
//! object as a blob of its raw bytes, written back as a tag on restore).
//! `git gc` and `git reflog expire` keep everything a ref reaches, so they
//! cannot prune what undo needs. Each snapshot that sees new objects adds
//! one such commit on top of the previous one.
//!
//! Reflogs other than the stash's are not restored: a branch the session
//! deleted comes back at its commit, with a fresh reflog.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod restore;

pub(crate) use restore::{read_blob, restore};
pub use restore::{StateItem, StateOutcome};

use super::store::sha256_hex;
use super::ShadowError;
use crate::git::{GitCommand, Repo};

/// Our own ref namespace: never saved, never restored.
pub const OWN_REFS: &str = "refs/fararoni/";

/// Where a session's anchor of kept objects lives.
const KEEP_REFS: &str = "refs/fararoni/keep/";

/// Files of the hooks folder and of `info/` larger than this are not saved.
const MAX_STATE_FILE: u64 = 16 << 20;

/// At most this many files are saved from the hooks folder and `info/`.
const MAX_STATE_FILES: usize = 2000;

/// A file's stat fingerprint: equal fingerprints mean an unchanged file
/// unless it changed within the same clock tick as the snapshot (racy; see
/// [`RACY_NS`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Fingerprint {
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    ino: u64,
}

/// A file modified less than this before the snapshot that saw it is read
/// again at the next one, whatever its fingerprint says (git's racy-clean
/// rule: a change within the same timestamp granule keeps size and time).
const RACY_NS: i128 = 2_000_000_000;

impl Fingerprint {
    fn of(meta: &std::fs::Metadata) -> Fingerprint {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Fingerprint {
                size: meta.size(),
                mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
                ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
                ino: meta.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let mtime_ns = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            Fingerprint {
                size: meta.len(),
                mtime_ns,
                ctime_ns: 0,
                ino: 0,
            }
        }
    }
}

/// A saved file of the repository's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Tracked {
    /// The git blob holding its content.
    blob: String,
    /// Its permission bits.
    mode: u32,
    fp: Fingerprint,
}

/// A file's content as saved: its blob and permission bits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Blob {
    /// The git blob id, hex.
    pub(crate) blob: String,
    /// Permission bits.
    pub(crate) mode: u32,
    /// The content's SHA-256 (working files only: what the journal uses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sha256: Option<String>,
}

/// The repository's state at one snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct State {
    /// Every ref but ours: an object id, or `ref: <target>` for a symbolic
    /// ref.
    refs: BTreeMap<String, String>,
    /// HEAD: `ref: refs/heads/<name>`, or the commit id when detached.
    head: String,
    /// The state files by key (`index`, `config`, `hooks/<name>`, …).
    files: BTreeMap<String, Tracked>,
    /// When the snapshot was taken, ns since the epoch.
    taken_ns: i128,
}

/// What a session changed, each as it was before its first change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Firsts {
    /// Refs: their value, `None` when the session created them.
    refs: BTreeMap<String, Option<String>>,
    /// HEAD, when the session moved it.
    head: Option<String>,
    /// State files: their content, `None` when the session created them.
    files: BTreeMap<String, Option<Blob>>,
}

/// A working file the session changed: what it held before (`None`: it
/// did not exist) and what it held when last seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WorkFile {
    /// Before the session's first change.
    pub(crate) first: Option<Blob>,
    /// The SHA-256 of its content when last recorded (`None`: deleted).
    pub(crate) last: Option<String>,
}

/// The ledger of one session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ledger {
    /// The session id (the file name is a digest of it).
    session: String,
    /// The hooks folder at the session's first snapshot (absolute).
    #[serde(default)]
    hooks_dir: Option<PathBuf>,
    /// The state at the latest snapshot (`None`: none taken yet).
    last: Option<State>,
    first: Firsts,
    /// Working files the session changed.
    #[serde(default)]
    pub(crate) work: BTreeMap<String, WorkFile>,
    /// The mark of the store's journal when the first working file was
    /// noted: another mark at undo means the store was deleted and
    /// started again, and its journal no longer knows the session's start.
    #[serde(default)]
    pub(crate) journal_mark: Option<String>,
    /// Objects the anchor keeps alive.
    kept: BTreeSet<String>,
    /// The newest anchor commit.
    anchor: Option<String>,
    /// Blobs written since the last anchor, to keep at the next one.
    #[serde(skip)]
    pending: BTreeSet<String>,
}

/// Which file a state key names.
/// The state key of the saga's record (per worktree, in its git dir).
const SAGA_KEY: &str = "fararoni/saga.json";

fn key_path(repo: &Repo, hooks: &Path, key: &str) -> Option<PathBuf> {
    let safe = |rest: &str| super::paths::is_normal_rel(rest);
    match key {
        "index" => Some(repo.gix().index_path()),
        "config" => Some(repo.common_dir().join("config")),
        "config.worktree" => Some(repo.git_dir().join("config.worktree")),
        "logs/refs/stash" => Some(repo.common_dir().join("logs/refs/stash")),
        // The saga's record (`saga::state_path`; named here, as the saga
        // sits beside the shadow in the layers).
        SAGA_KEY => Some(repo.git_dir().join(SAGA_KEY)),
        _ => {
            if let Some(rest) = key.strip_prefix("hooks/").filter(|r| safe(r)) {
                Some(hooks.join(rest))
            } else {
                key.strip_prefix("info/")
                    .filter(|r| safe(r))
                    .map(|rest| repo.common_dir().join("info").join(rest))
            }
        }
    }
}

/// The effective hooks folder of `repo`: `core.hooksPath` resolved as git
/// does, else `<common dir>/hooks`.
pub(crate) fn hooks_dir(repo: &Repo) -> PathBuf {
    let root = repo.workdir().unwrap_or(repo.common_dir());
    repo.config_string("core.hooksPath")
        .and_then(|v| super::reserved::hooks_path(v.trim(), root))
        .unwrap_or_else(|| repo.common_dir().join("hooks"))
}

/// The ledger's file for `session` of `repo`.
fn ledger_path(repo: &Repo, session: &str) -> PathBuf {
    let digest = sha256_hex(session.as_bytes());
    repo.git_dir()
        .join("fararoni")
        .join("state")
        .join(format!("{}.json", &digest[..32]))
}

/// The keep ref of `session`: a digest of the git dir and the session, so
/// two worktrees never share one.
fn keep_ref(repo: &Repo, session: &str) -> String {
    let mut key = repo.git_dir().to_string_lossy().into_owned();
    key.push('\0');
    key.push_str(session);
    format!("{KEEP_REFS}{}", &sha256_hex(key.as_bytes())[..32])
}

fn state_err(action: &'static str, why: impl std::fmt::Display) -> ShadowError {
    ShadowError::State {
        action,
        why: why.to_string(),
    }
}

impl Ledger {
    /// Reads the ledger of `session`; a missing one is empty, and so is an
    /// unreadable one (a planted or torn file: everything it names is
    /// checked again before use).
    pub(crate) fn load(repo: &Repo, session: &str) -> Ledger {
        let fresh = || Ledger {
            session: session.to_string(),
            ..Ledger::default()
        };
        match std::fs::read(ledger_path(repo, session)) {
            Ok(bytes) => serde_json::from_slice::<Ledger>(&bytes)
                .ok()
                .filter(|l| l.session == session)
                .unwrap_or_else(fresh),
            Err(_) => fresh(),
        }
    }

    /// Whether the session changed a ref, HEAD or a state file.
    pub(crate) fn changed_state(&self) -> bool {
        !self.first.refs.is_empty() || self.first.head.is_some() || !self.first.files.is_empty()
    }

    /// Writes the ledger (atomically).
    pub(crate) fn store(&self, repo: &Repo) -> Result<(), ShadowError> {
        let path = ledger_path(repo, &self.session);
        let text = serde_json::to_vec(self)
            .map_err(|e| ShadowError::write(&path, std::io::Error::other(e)))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| ShadowError::write(dir, e))?;
        }
        super::atomic_write(&path, &text).map_err(|e| ShadowError::write(&path, e))
    }

    /// Notes that the working file `rel` changed from `was` (`None`: it did
    /// not exist) to content whose SHA-256 is `now` (`None`: deleted); the
    /// first change of a path is the one undo goes back to.
    pub(crate) fn note_work(
        &mut self,
        repo: &Repo,
        rel: &str,
        was: Option<(&[u8], u32)>,
        now: Option<String>,
    ) -> Result<(), ShadowError> {
        if let Some(w) = self.work.get_mut(rel) {
            w.last = now;
            return Ok(());
        }
        let first = match was {
            Some((bytes, mode)) => Some(Blob {
                blob: self.write_blob(repo, bytes)?,
                mode,
                sha256: Some(sha256_hex(bytes)),
            }),
            None => None,
        };
        self.work
            .insert(rel.to_string(), WorkFile { first, last: now });
        Ok(())
    }

    /// Writes `bytes` as a git blob to be kept alive at the next anchor.
    pub(crate) fn write_blob(&mut self, repo: &Repo, bytes: &[u8]) -> Result<String, ShadowError> {
        let id = repo
            .gix()
            .write_blob(bytes)
            .map_err(|e| state_err("saved", e))?
            .detach()
            .to_string();
        if !self.kept.contains(&id) {
            self.pending.insert(id.clone());
        }
        Ok(id)
    }
}

/// One file of the repository's state, as found now.
struct Found {
    key: String,
    path: PathBuf,
    meta: std::fs::Metadata,
}

/// Lists the regular files under `dir` (keys `<prefix><rel>`), at most
/// [`MAX_STATE_FILES`], never following a symlink.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<Found>) {
    let mut stack = vec![(dir.to_path_buf(), String::new(), 0usize)];
    while let Some((here, rel, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&here) else {
            continue;
        };
        for e in entries.flatten() {
            if out.len() >= MAX_STATE_FILES {
                return;
            }
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
                continue;
            };
            let child = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if meta.is_dir() && depth < 8 {
                stack.push((e.path(), child, depth + 1));
            } else if meta.is_file() && meta.len() <= MAX_STATE_FILE {
                out.push(Found {
                    key: format!("{prefix}{child}"),
                    path: e.path(),
                    meta,
                });
            }
        }
    }
}

/// Every state file of `repo` that exists now.
fn state_files(repo: &Repo, hooks: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    // `fararoni/saga.json` names the saga's branch: undone with the refs,
    // so an undo that removes a branch the session made never leaves a
    // saga behind that names it.
    for key in [
        "index",
        "config",
        "config.worktree",
        "logs/refs/stash",
        SAGA_KEY,
    ] {
        if let Some(path) = key_path(repo, hooks, key) {
            if let Ok(meta) = std::fs::symlink_metadata(&path) {
                if meta.is_file() {
                    out.push(Found {
                        key: key.to_string(),
                        path,
                        meta,
                    });
                }
            }
        }
    }
    walk(hooks, "hooks/", &mut out);
    walk(&repo.common_dir().join("info"), "info/", &mut out);
    out
}

/// Every ref of `repo` but ours, and HEAD.
fn read_refs(repo: &Repo) -> Result<(BTreeMap<String, String>, String), ShadowError> {
    let g = repo.gix();
    let mut refs = BTreeMap::new();
    let platform = g.references().map_err(|e| state_err("read", e))?;
    for r in platform.all().map_err(|e| state_err("read", e))? {
        let Ok(r) = r else { continue };
        let name = r.name().as_bstr().to_string();
        if name.starts_with(OWN_REFS) {
            continue;
        }
        let value = match r.target() {
            gix::refs::TargetRef::Object(id) => id.to_string(),
            gix::refs::TargetRef::Symbolic(to) => format!("ref: {}", to.as_bstr()),
        };
        refs.insert(name, value);
    }
    let head = match g.head_name().map_err(|e| state_err("read", e))? {
        Some(name) => format!("ref: {}", name.as_bstr()),
        None => g
            .head_id()
            .map(|id| id.detach().to_string())
            .map_err(|e| state_err("read", e))?,
    };
    Ok((refs, head))
}

fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// The object ids the stash's reflog names (each entry's commit).
fn reflog_ids(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes.split(|&b| b == b'\n').filter_map(|line| {
        let new = line.get(41..81)?;
        let s = std::str::from_utf8(new).ok()?;
        gix::ObjectId::from_hex(s.as_bytes())
            .ok()
            .map(|id| id.to_string())
    })
}

/// What one capture saw change since the session's previous one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StateChanges {
    /// Refs changed, created or deleted (HEAD included).
    pub refs: Vec<String>,
    /// State files changed, created or deleted (`index`, `config`,
    /// `hooks/pre-commit`, …).
    pub files: Vec<String>,
}

impl StateChanges {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.refs.is_empty() && self.files.is_empty()
    }
}

/// Captures the repository's state into `ledger`: what changed since its
/// previous capture is noted in `first` (unless noted already), and every
/// object a later undo needs is kept alive. Returns what changed, and
/// whether the ledger must be stored.
pub(crate) fn capture(
    repo: &Repo,
    ledger: &mut Ledger,
) -> Result<(StateChanges, bool), ShadowError> {
    let taken_ns = now_ns();
    let hooks = match &ledger.hooks_dir {
        Some(h) => h.clone(),
        None => hooks_dir(repo),
    };
    let (refs, head) = read_refs(repo)?;
    let prev = ledger.last.take();
    let mut files = BTreeMap::new();
    let mut changes = StateChanges::default();
    let mut stash_log: Option<Vec<u8>> = None;
    for f in state_files(repo, &hooks) {
        let fp = Fingerprint::of(&f.meta);
        let old = prev.as_ref().and_then(|p| p.files.get(&f.key));
        let settled = prev
            .as_ref()
            .is_some_and(|p| fp.mtime_ns < p.taken_ns - RACY_NS);
        if let Some(old) = old.filter(|o| o.fp == fp && settled) {
            files.insert(f.key, old.clone());
            continue;
        }
        let Ok(bytes) = std::fs::read(&f.path) else {
            continue;
        };
        let mode = file_mode(&f.meta);
        let hash = gix::objs::compute_hash(repo.gix().object_hash(), gix::objs::Kind::Blob, &bytes)
            .map_err(|e| state_err("read", e))?
            .to_string();
        let blob = match old {
            Some(o) if o.blob == hash => hash,
            _ => ledger.write_blob(repo, &bytes)?,
        };
        if f.key == "logs/refs/stash" {
            stash_log = Some(bytes);
        }
        files.insert(f.key, Tracked { blob, mode, fp });
    }
    let mut changed_ledger = prev.is_none();
    if let Some(prev) = &prev {
        for (name, value) in prev.refs.iter() {
            if refs.get(name) != Some(value) {
                changes.refs.push(name.clone());
                if !ledger.first.refs.contains_key(name) {
                    ledger.first.refs.insert(name.clone(), Some(value.clone()));
                }
            }
        }
        for name in refs.keys().filter(|n| !prev.refs.contains_key(*n)) {
            changes.refs.push(name.clone());
            ledger.first.refs.entry(name.clone()).or_insert(None);
        }
        if prev.head != head {
            changes.refs.push("HEAD".into());
            ledger.first.head.get_or_insert_with(|| prev.head.clone());
        }
        for (key, t) in prev.files.iter() {
            if files.get(key).map(|n| (&n.blob, n.mode)) != Some((&t.blob, t.mode)) {
                changes.files.push(key.clone());
                ledger.first.files.entry(key.clone()).or_insert(Some(Blob {
                    blob: t.blob.clone(),
                    mode: t.mode,
                    sha256: None,
                }));
            }
        }
        for key in files.keys().filter(|k| !prev.files.contains_key(*k)) {
            changes.files.push(key.clone());
            ledger.first.files.entry(key.clone()).or_insert(None);
        }
        changed_ledger |= !changes.is_empty()
            || prev.files != files
            || (prev.taken_ns < taken_ns - RACY_NS
                && files
                    .values()
                    .any(|t| t.fp.mtime_ns >= prev.taken_ns - RACY_NS));
    }
    if ledger.hooks_dir.is_none() {
        ledger.hooks_dir = Some(hooks);
        changed_ledger = true;
    }
    // Everything a later undo may need: every ref's object, every stash
    // entry, every file blob.
    let mut want: BTreeSet<String> = refs
        .values()
        .filter(|v| !v.starts_with("ref: "))
        .cloned()
        .collect();
    if let Some(log) = &stash_log {
        want.extend(reflog_ids(log));
    }
    want.extend(files.values().map(|t| t.blob.clone()));
    want.extend(std::mem::take(&mut ledger.pending));
    want.retain(|id| !ledger.kept.contains(id));
    if !want.is_empty() {
        keep(repo, ledger, want)?;
        changed_ledger = true;
    }
    ledger.last = Some(State {
        refs,
        head,
        files,
        taken_ns: if changed_ledger {
            taken_ns
        } else {
            prev.as_ref().map_or(taken_ns, |p| p.taken_ns)
        },
    });
    Ok((changes, changed_ledger))
}

fn file_mode(meta: &std::fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0o644
    }
}

/// The signature of the anchor commits (fixed: they are ours, not the
/// user's, and need no identity configured).
fn signature() -> gix::actor::Signature {
    gix::actor::Signature {
        name: "git-fararoni".into(),
        email: "git-fararoni@localhost".into(),
        time: gix::date::Time::now_utc(),
    }
}

/// Makes `want` reachable from the session's keep ref: one commit on top
/// of the previous anchor, whose parents are the commits and whose tree
/// holds the blobs, trees and (as blobs of their raw bytes) tag objects.
fn keep(repo: &Repo, ledger: &mut Ledger, want: BTreeSet<String>) -> Result<(), ShadowError> {
    use gix::objs::tree::{Entry, EntryKind};
    let g = repo.gix();
    let mut parents: Vec<gix::ObjectId> = ledger
        .anchor
        .as_deref()
        .and_then(|a| gix::ObjectId::from_hex(a.as_bytes()).ok())
        .into_iter()
        .collect();
    let mut entries: Vec<Entry> = Vec::new();
    let mut queue: Vec<gix::ObjectId> = want
        .iter()
        .filter_map(|w| gix::ObjectId::from_hex(w.as_bytes()).ok())
        .collect();
    let mut seen = BTreeSet::new();
    while let Some(id) = queue.pop() {
        if !seen.insert(id) {
            continue;
        }
        // A ref to an object that does not exist keeps nothing.
        let Ok(header) = g.find_header(id) else {
            continue;
        };
        match header.kind() {
            gix::objs::Kind::Commit => parents.push(id),
            gix::objs::Kind::Blob => entries.push(Entry {
                mode: EntryKind::Blob.into(),
                filename: format!("b-{id}").into(),
                oid: id,
            }),
            gix::objs::Kind::Tree => entries.push(Entry {
                mode: EntryKind::Tree.into(),
                filename: format!("t-{id}").into(),
                oid: id,
            }),
            gix::objs::Kind::Tag => {
                let Ok(obj) = g.find_object(id) else { continue };
                let raw = g
                    .write_blob(&obj.data)
                    .map_err(|e| state_err("saved", e))?
                    .detach();
                entries.push(Entry {
                    mode: EntryKind::Blob.into(),
                    filename: format!("g-{id}").into(),
                    oid: raw,
                });
                if let Ok(tag) = obj.try_into_tag() {
                    if let Ok(target) = tag.target_id() {
                        queue.push(target.detach());
                    }
                }
            }
        }
    }
    entries.sort_by(|a, b| a.filename.cmp(&b.filename));
    entries.dedup_by(|a, b| a.filename == b.filename);
    let tree = g
        .write_object(gix::objs::Tree { entries })
        .map_err(|e| state_err("saved", e))?
        .detach();
    let commit = gix::objs::Commit {
        tree,
        parents: parents.into_iter().collect(),
        author: signature(),
        committer: signature(),
        encoding: None,
        message: format!(
            "git-fararoni: objects kept for `undo --session {}`\n",
            ledger.session
        )
        .into(),
        extra_headers: Vec::new(),
    };
    let anchor = g
        .write_object(commit)
        .map_err(|e| state_err("saved", e))?
        .detach();
    set_keep_ref(repo, &keep_ref(repo, &ledger.session), anchor)?;
    ledger.anchor = Some(anchor.to_string());
    ledger.kept.extend(want);
    Ok(())
}

/// Points our ref `name` at `id`: in process (no reflog: git keeps none
/// for our namespace), else with git (no hooks run: ours is not the user's
/// change).
fn set_keep_ref(repo: &Repo, name: &str, id: gix::ObjectId) -> Result<(), ShadowError> {
    use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
    let edit = name.try_into().map(|name| RefEdit {
        change: Change::Update {
            log: LogChange {
                mode: RefLog::AndReference,
                force_create_reflog: false,
                message: "git-fararoni: keep".into(),
            },
            expected: PreviousValue::Any,
            new: gix::refs::Target::Object(id),
        },
        name,
        deref: false,
    });
    if let Ok(edit) = edit {
        if repo.gix().edit_references_as([edit], None).is_ok() {
            return Ok(());
        }
    }
    git(repo, &["update-ref", "--no-deref", name, &id.to_string()])
        .read()
        .map(|_| ())
        .map_err(ShadowError::Git)
}

/// A git of ours on `repo`: the user's hooks never run (the session may
/// have planted them), protections on.
fn git(repo: &Repo, args: &[&str]) -> GitCommand {
    let dir = repo.workdir().unwrap_or(repo.git_dir()).to_path_buf();
    let mut all = vec!["-c", "core.hooksPath=/dev/null"];
    all.extend_from_slice(args);
    GitCommand::new(all).dir(dir).protected()
}

/// Saves the repository's state alone (refs, HEAD, index, config, hooks,
/// `info/`, stash entries) under `session`, under the repository lock:
/// what [`super::dirty::snapshot`] does besides the dirty set. Returns what
/// changed since the session's previous save.
pub fn save_state(repo: &Repo, session: &super::Session) -> Result<StateChanges, ShadowError> {
    let _lock = crate::lock::RepoLock::acquire(repo.common_dir(), crate::lock::DEFAULT_WAIT)?;
    let mut ledger = Ledger::load(repo, session.id());
    let (changes, changed) = capture(repo, &mut ledger)?;
    if changed {
        ledger.store(repo)?;
    }
    Ok(changes)
}
