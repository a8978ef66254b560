//! The dirty set, saved before a program outside the store runs and
//! compared after, so that `undo --session` reverses what any program did.
//!
//! A guarded write knows what it replaces; a shell command does not say
//! what it will change. So before one runs, every file whose content git
//! could not give back — modified tracked files and untracked files that
//! are not ignored — is saved to the store (content-addressed: a file whose
//! newest version already holds its content costs nothing), and the state
//! of the dirty set is kept in `<git dir>/fararoni/dirty/<session>.json`.
//! Afterwards [`record`] compares the working tree with that state and
//! journals every file changed, created or deleted as an `external` change
//! whose `version` holds what was there before: from the snapshot for a
//! file that was dirty, from the commit HEAD pointed at for a file that was
//! clean (git has it). Ignored files are not saved, except the precious
//! ones people keep by hand ([`super::ignored`]: `.env*`, local
//! configuration, databases, keys). What a session saves only grows: a
//! file once in its dirty set stays saved at every later snapshot, even
//! when the session makes it look ignored or committed.
//!
//! Each saved content is also written as a git blob and every change is
//! noted in the session's ledger in the git dir ([`super::gitstate`], which
//! also saves refs, HEAD, the index, config and hooks), so a session that
//! deletes `.fararoni/` can still be undone. Cost: one `git status`, a read
//! of each dirty file, and a stat of each state file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use camino::{Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Serialize};

use super::gitstate::{self, Ledger, StateChanges};
use super::ignored::{self, Rules};
use super::store::{sha256_hex, Current, Shadow};
use super::{RepoPath, Session, ShadowError, Tx};
use crate::git::repo::{Head, Repo};
use crate::git::GitCommand;

/// What a snapshot saved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Files whose content was new to the store.
    pub saved: usize,
    /// Files whose newest version already held their content.
    pub unchanged: usize,
    /// Files in the dirty set (saved, unchanged, and deleted tracked files).
    pub files: usize,
    /// Entries of the dirty set that are not regular files (symlinks,
    /// nested repositories), left alone.
    pub skipped: usize,
    /// Changes since the session's previous snapshot, recorded first.
    pub recorded: Vec<ExternalChange>,
    /// Refs, HEAD and state files changed since the session's previous
    /// snapshot.
    pub state: StateChanges,
}

/// How a program changed a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// It did not exist before.
    Created,
    /// Its content changed.
    Modified,
    /// It is gone.
    Deleted,
}

/// One file a program changed, as [`record`] journaled it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExternalChange {
    /// The repository-relative path.
    pub path: Utf8PathBuf,
    /// What happened to it.
    pub kind: ChangeKind,
    /// The version holding its content from before (none when created).
    pub version: Option<u64>,
}

/// One file of the dirty set as the snapshot saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Saved {
    sha256: String,
    version: u64,
    mode: u32,
    /// The same content as a git blob (read when the store lost it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blob: Option<String>,
}

/// The state a snapshot leaves for the next [`record`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    /// The commit HEAD pointed at (clean files' content is there).
    head: Option<String>,
    /// Each dirty path: its saved content, or `None` when a tracked file
    /// was missing from the working tree.
    files: BTreeMap<String, Option<Saved>>,
}

/// Saves the dirty set of `repo`'s working tree under `session`. When the
/// session already has a snapshot, what changed since is recorded first
/// (a program that ran without an after-hook is accounted for here).
pub fn snapshot(shadow: &Shadow, repo: &Repo, session: &Session) -> Result<Snapshot, ShadowError> {
    snapshot_listed(shadow, repo, session, None)
}

/// The dirty set's paths, asked of git ahead of a [`snapshot_listed`] on
/// another thread, so the `git status` runs while the caller works (the
/// hook: while the kill-switch judges an edit).
/// Dropped unused, it waits for git, which must not outlive the caller's
/// decision (`git status` may refresh the index under its lock).
pub struct Listing(Option<std::thread::JoinHandle<Result<Vec<String>, ShadowError>>>);

impl Drop for Listing {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}

/// Starts asking git for the dirty set of `repo`'s working tree; `None`
/// when no thread can be had (the snapshot then asks itself).
pub fn list_ahead(repo: &Repo) -> Option<Listing> {
    let dir = workdir(repo).ok()?;
    let rules = Rules::of_repo(Some(repo));
    std::thread::Builder::new()
        .spawn(move || dirty_paths_in(dir, &rules))
        .ok()
        .map(|h| Listing(Some(h)))
}

/// [`snapshot`], with the dirty set's paths from `listing` when given
/// (listed before the call: the caller vouches that nothing it did since
/// changed the working tree).
pub fn snapshot_listed(
    shadow: &Shadow,
    repo: &Repo,
    session: &Session,
    listing: Option<Listing>,
) -> Result<Snapshot, ShadowError> {
    let paths = match listing.and_then(|mut l| l.0.take()).map(|h| h.join()) {
        Some(Ok(listed)) => Some(listed?),
        // A panicked listing: ask again.
        Some(Err(_)) | None => None,
    };
    let mut tx = shadow.begin(session.clone())?;
    let mut read = Read {
        paths,
        ..Read::default()
    };
    let before = load(repo, session)?;
    let mut ledger = Ledger::load(repo, session.id());
    let recorded = match &before {
        Some(before) => record_in(&mut tx, repo, before, &mut read, &mut ledger)?,
        None => Vec::new(),
    };
    let mut snap = save_dirty(&mut tx, repo, session, read, before.as_ref(), &mut ledger)?;
    let (state, changed) = gitstate::capture(repo, &mut ledger)?;
    if changed || !recorded.is_empty() {
        ledger.store(repo)?;
    }
    snap.recorded = recorded;
    snap.state = state;
    Ok(snap)
}

/// Compares the working tree with the session's last snapshot and journals
/// every file changed, created or deleted since, so that `undo --session`
/// brings them back; then takes a new snapshot. Without an earlier
/// snapshot nothing can be compared, and none is taken.
pub fn record(
    shadow: &Shadow,
    repo: &Repo,
    session: &Session,
) -> Result<Vec<ExternalChange>, ShadowError> {
    // No snapshot of this session: nothing it was allowed could have
    // written (every call that may write snapshots first), and a baseline
    // taken only now could not undo what just ran. Taking none keeps a
    // session of reads from leaving anything behind (the store, a keep
    // ref) in a repository it never changed.
    if !manifest_path(repo, session).exists() {
        return Ok(Vec::new());
    }
    snapshot(shadow, repo, session).map(|s| s.recorded)
}

/// The dirty set: each path git reports as modified, added, deleted or
/// untracked-not-ignored, and the precious ignored files; never the store.
fn dirty_paths(repo: &Repo) -> Result<Vec<String>, ShadowError> {
    dirty_paths_in(workdir(repo)?, &Rules::of_repo(Some(repo)))
}

/// [`dirty_paths`] of the working tree at `dir`: one `git status` that
/// also lists ignored paths (an ignored folder once, not its content), of
/// which the precious files are kept ([`ignored::precious_files`]).
fn dirty_paths_in(dir: PathBuf, rules: &Rules) -> Result<Vec<String>, ShadowError> {
    let cmd = GitCommand::new([
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignored=matching",
        "--no-renames",
        "--ignore-submodules=all",
    ])
    .dir(&dir)
    // A read: the index is never refreshed behind the session's back (it
    // is part of the state a snapshot saves).
    .env("GIT_OPTIONAL_LOCKS", "0")
    .protected()
    .user_work();
    let out = cmd.output().map_err(ShadowError::Git)?;
    if !out.status.success() {
        return Err(ShadowError::Git(cmd.failed(&out)));
    }
    let mut paths = Vec::new();
    let mut ignored_paths = Vec::new();
    for r in out.stdout.split(|&b| b == 0).filter(|r| r.len() > 3) {
        let Ok(p) = std::str::from_utf8(&r[3..]) else {
            continue;
        };
        if r.starts_with(b"!! ") {
            if p.split('/').next() != Some(super::STORE_DIR) {
                ignored_paths.push(p.to_string());
            }
        } else if !p.ends_with('/') {
            // (A trailing `/`: a nested repository or an untracked folder
            // git would not open.)
            paths.push(p.to_string());
        }
    }
    ignored::precious_files(&dir, rules, &ignored_paths, &mut paths);
    Ok(paths)
}

/// Paths whose content differs from `head` (a commit HEAD has left), so a
/// checkout, reset or merge that rewrote clean files is seen too.
fn changed_since(repo: &Repo, head: &str) -> Result<Vec<String>, ShadowError> {
    let out = GitCommand::new(["diff", "--name-only", "-z", "--no-renames", head])
        .dir(workdir(repo)?)
        .protected()
        .user_work()
        .output()
        .map_err(ShadowError::Git)?;
    // A commit that no longer exists: nothing more can be compared.
    Ok(out
        .stdout
        .split(|&b| b == 0)
        .filter(|r| !r.is_empty())
        .filter_map(|r| std::str::from_utf8(r).ok().map(str::to_string))
        .collect())
}

fn workdir(repo: &Repo) -> Result<PathBuf, ShadowError> {
    repo.workdir()
        .map(PathBuf::from)
        .ok_or_else(|| ShadowError::Bare {
            path: repo.git_dir().to_path_buf(),
        })
}

fn head_id(repo: &Repo) -> Option<String> {
    match repo.head().ok()? {
        Head::Branch { id, .. } | Head::Detached { id } => Some(id),
        Head::Unborn { .. } => None,
    }
}

/// The content of `rel` in commit `head`, with git's idea of its mode;
/// `None` when the commit has no such regular file.
fn committed(repo: &Repo, head: &str, rel: &str) -> Option<Current> {
    let id = gix::ObjectId::from_hex(head.as_bytes()).ok()?;
    let tree = repo.gix().find_commit(id).ok()?.tree().ok()?;
    let entry = tree.lookup_entry_by_path(rel).ok()??;
    let mode = entry.mode();
    if !mode.is_blob() {
        return None;
    }
    let blob = entry.object().ok()?;
    Some(Current {
        bytes: blob.data.clone(),
        mode: if mode.is_executable() { 0o755 } else { 0o644 },
    })
}

/// The most content one batch of [`Tx::save_all`] holds in memory: a
/// dirty set of large files is saved in several batches, each with its
/// own durability point.
const BATCH_BYTES: usize = 64 * 1024 * 1024;

/// Saves every file of the dirty set and writes the manifest (unless it
/// says what `before`, the one on disk, says). `read` holds the dirty set
/// and what [`record_in`] just read of the working tree (asked and read
/// again otherwise).
fn save_dirty(
    tx: &mut Tx<'_>,
    repo: &Repo,
    session: &Session,
    mut read: Read,
    before: Option<&Manifest>,
    ledger: &mut Ledger,
) -> Result<Snapshot, ShadowError> {
    let shadow = tx.shadow();
    let mut snap = Snapshot::default();
    let mut manifest = Manifest {
        head: head_id(repo),
        files: BTreeMap::new(),
    };
    let mut batch: Vec<(RepoPath, Current)> = Vec::new();
    let mut rels: Vec<String> = Vec::new();
    let mut bytes = 0usize;
    let mut paths = match read.paths.take() {
        Some(p) => p,
        None => dirty_paths(repo)?,
    };
    // What the session saved stays saved: a file it made look ignored (or
    // committed) is still compared and kept.
    if let Some(before) = before {
        let listed: BTreeSet<&String> = paths.iter().collect();
        let kept: Vec<String> = before
            .files
            .keys()
            .filter(|k| !listed.contains(k))
            .cloned()
            .collect();
        paths.extend(kept);
    }
    let count = paths.len();
    for (i, rel) in paths.into_iter().enumerate() {
        let Ok(path) = shadow.resolve_rel(Utf8Path::new(&rel)) else {
            snap.skipped += 1;
            continue;
        };
        let current = match read.files.remove(&rel) {
            Some(c) => c,
            None => match tx.read_current(&path) {
                Ok(c) => c,
                Err(ShadowError::NotAFile { .. } | ShadowError::TargetChanged { .. }) => {
                    snap.skipped += 1;
                    continue;
                }
                Err(e) => return Err(e),
            },
        };
        snap.files += 1;
        match current {
            None => {
                manifest.files.insert(rel, None);
            }
            Some(current) => {
                bytes += current.bytes.len();
                batch.push((path, current));
                rels.push(rel);
            }
        }
        if bytes >= BATCH_BYTES || (i + 1 == count && !batch.is_empty()) {
            let mut b = Batch {
                batch: &mut batch,
                rels: &mut rels,
                snap: &mut snap,
                manifest: &mut manifest,
            };
            b.save(tx, repo, before, ledger)?;
            bytes = 0;
        }
    }
    let mut b = Batch {
        batch: &mut batch,
        rels: &mut rels,
        snap: &mut snap,
        manifest: &mut manifest,
    };
    b.save(tx, repo, before, ledger)?;
    // Nothing changed since the last snapshot (the common case: a clean
    // tree, or an edit judged before it was made): the manifest on disk is
    // already this one, durably, and two fsyncs are saved.
    if before != Some(&manifest) {
        store(repo, session, &manifest)?;
    }
    Ok(snap)
}

/// One batch of files to save, and where to note them.
struct Batch<'a> {
    batch: &'a mut Vec<(RepoPath, Current)>,
    rels: &'a mut Vec<String>,
    snap: &'a mut Snapshot,
    manifest: &'a mut Manifest,
}

impl Batch<'_> {
    /// Saves the batch (whose paths are `rels`) in the store and, for a
    /// content the previous manifest did not have, as a git blob; notes it
    /// in the snapshot and the manifest; empties both.
    fn save(
        &mut self,
        tx: &mut Tx<'_>,
        repo: &Repo,
        before: Option<&Manifest>,
        ledger: &mut Ledger,
    ) -> Result<(), ShadowError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let saved = tx.save_all(self.batch)?;
        for ((rel, (_, current)), r) in self.rels.drain(..).zip(self.batch.drain(..)).zip(saved) {
            if r.new_backup {
                self.snap.saved += 1;
            } else {
                self.snap.unchanged += 1;
            }
            if let Some(version) = r.backup {
                let sha256 = sha256_hex(&current.bytes);
                let known = before
                    .and_then(|b| b.files.get(&rel))
                    .and_then(|s| s.as_ref())
                    .filter(|s| s.sha256 == sha256)
                    .and_then(|s| s.blob.clone());
                let blob = match known {
                    Some(b) => b,
                    None => ledger.write_blob(repo, &current.bytes)?,
                };
                self.manifest.files.insert(
                    rel,
                    Some(Saved {
                        sha256,
                        version,
                        mode: current.mode,
                        blob: Some(blob),
                    }),
                );
            }
        }
        Ok(())
    }
}

/// Journals what changed since `before`.
fn record_in(
    tx: &mut Tx<'_>,
    repo: &Repo,
    before: &Manifest,
    read: &mut Read,
    ledger: &mut Ledger,
) -> Result<Vec<ExternalChange>, ShadowError> {
    let shadow = tx.shadow();
    let mut candidates: BTreeSet<String> = before.files.keys().cloned().collect();
    // The snapshot that follows saves this same dirty set: git is asked once
    // (or was asked ahead).
    let dirty = match read.paths.take() {
        Some(p) => p,
        None => dirty_paths(repo)?,
    };
    candidates.extend(dirty.iter().cloned());
    read.paths = Some(dirty);
    let now_head = head_id(repo);
    if let Some(old) = before
        .head
        .as_deref()
        .filter(|h| Some(*h) != now_head.as_deref())
    {
        candidates.extend(changed_since(repo, old)?);
    }
    let mut changes = Vec::new();
    for rel in candidates {
        let Ok(path) = shadow.resolve_rel(Utf8Path::new(&rel)) else {
            continue;
        };
        let now = match tx.read_current(&path) {
            Ok(c) => c,
            Err(ShadowError::NotAFile { .. } | ShadowError::TargetChanged { .. }) => continue,
            Err(e) => return Err(e),
        };
        let now_sha = now.as_ref().map(|c| sha256_hex(&c.bytes));
        let saved = before.files.get(&rel);
        if let (Some(Some(saved)), Some(sha)) = (saved, &now_sha) {
            if *sha == saved.sha256 {
                // What the snapshot saved: nothing to compare or record.
                read.keep(rel, now);
                continue;
            }
        }
        let was = match saved {
            Some(Some(saved)) => {
                let sound = |b: &Vec<u8>| sha256_hex(b) == saved.sha256;
                let from_store = tx
                    .read_version_number(Utf8Path::new(&rel), saved.version)?
                    .filter(sound);
                // The store lost it (deleted by the program): the blob.
                let from_git = || {
                    saved
                        .blob
                        .as_deref()
                        .and_then(|b| gitstate::read_blob(repo, b))
                        .filter(sound)
                };
                match from_store.or_else(from_git) {
                    Some(bytes) => Some(Current {
                        bytes,
                        mode: saved.mode,
                    }),
                    // Nothing trustworthy to bring back.
                    None => continue,
                }
            }
            Some(None) => None,
            None => before
                .head
                .as_deref()
                .and_then(|h| committed(repo, h, &rel)),
        };
        let kind = match (&was, &now) {
            (None, None) => continue,
            (Some(a), Some(b)) if a.bytes == b.bytes => {
                read.keep(rel, now);
                continue;
            }
            (None, Some(_)) => ChangeKind::Created,
            (Some(_), None) => ChangeKind::Deleted,
            (Some(_), Some(_)) => ChangeKind::Modified,
        };
        let r = tx.record_external(
            &path,
            was.as_ref(),
            now.as_ref().map(|c| c.bytes.as_slice()),
        )?;
        if ledger.journal_mark.is_none() {
            ledger.journal_mark = tx.journal_mark();
        }
        ledger.note_work(
            repo,
            &rel,
            was.as_ref().map(|c| (c.bytes.as_slice(), c.mode)),
            now_sha.clone(),
        )?;
        changes.push(ExternalChange {
            path: Utf8PathBuf::from(rel.as_str()),
            kind,
            version: r.backup,
        });
        read.keep(rel, now);
    }
    Ok(changes)
}

/// What [`record_in`] learnt of the working tree, kept for the snapshot
/// that follows: the dirty set git reported, and the files read while they
/// stay under [`BATCH_BYTES`] (past that, read again).
#[derive(Default)]
struct Read {
    paths: Option<Vec<String>>,
    files: BTreeMap<String, Option<Current>>,
    bytes: usize,
}

impl Read {
    /// Keeps `now`, just read from `rel`, when there is room.
    fn keep(&mut self, rel: String, now: Option<Current>) {
        let len = now.as_ref().map_or(0, |c| c.bytes.len());
        if self.bytes + len <= BATCH_BYTES {
            self.bytes += len;
            self.files.insert(rel, now);
        }
    }
}

/// The manifest's file: named by a digest of the session id, which may
/// hold `/` and `..` (a name built from it could leave the folder).
fn manifest_path(repo: &Repo, session: &Session) -> PathBuf {
    let digest = sha256_hex(session.id().as_bytes());
    repo.git_dir()
        .join("fararoni")
        .join("dirty")
        .join(format!("{}.json", &digest[..32]))
}

/// Reads the session's manifest; a missing or unreadable one is no
/// snapshot (a planted or torn file must not make undo act on it: its
/// versions are checked against their sha256 before use anyway).
fn load(repo: &Repo, session: &Session) -> Result<Option<Manifest>, ShadowError> {
    let path = manifest_path(repo, session);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ShadowError::read(&path, e)),
    }
}

fn store(repo: &Repo, session: &Session, manifest: &Manifest) -> Result<(), ShadowError> {
    let path = manifest_path(repo, session);
    let text = serde_json::to_vec(manifest)
        .map_err(|e| ShadowError::write(&path, std::io::Error::other(e)))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ShadowError::write(dir, e))?;
    }
    super::atomic_write(&path, &text).map_err(|e| ShadowError::write(&path, e))
}
