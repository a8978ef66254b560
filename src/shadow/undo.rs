//! `undo`: bring every file a session changed back to its content from
//! before the session, and — for a session whose snapshots saved the
//! repository's state ([`super::gitstate`]) — every ref, HEAD, the index,
//! config, hooks, `info/` files and stash entries it changed. It touches
//! only what the session changed — never a clean or a reset — saves what
//! it overwrites (so an undo can itself be undone: its changes form their
//! own session), and reports anything it cannot bring back.
//!
//! A file's content from before the session comes from the journal, or
//! from the session's ledger in the git dir when the journal no longer
//! knows the session's start (the session deleted `.fararoni/`).

use std::collections::{HashMap, HashSet};

use camino::{Utf8Path, Utf8PathBuf};

use super::gitstate::{self, Ledger, StateItem, StateOutcome, WorkFile};
use super::journal::{Entry, Op};
use super::session::Session;
use super::store::{sha256_hex, verify_version, Change, Current, Shadow};
use super::{RepoPath, ShadowError};
use crate::git::Repo;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoOutcome {
    /// The file got its content from before the session back.
    Restored {
        /// The version restored.
        version: u64,
        /// The version that now holds what was overwritten.
        saved: Option<u64>,
        /// The file had changed after the session's last write to it.
        changed_since: bool,
    },
    /// The session created the file, it was unchanged since, and it is gone.
    Removed {
        /// The version that holds its content.
        saved: Option<u64>,
    },
    /// The file already had its content from before the session.
    AlreadyAsBefore,
    /// The session created the file but it changed since; left in place.
    Kept(String),
    /// The content from before the session could not be brought back.
    Failed(String),
}

/// One file of an undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoItem {
    /// The repository-relative path.
    pub path: Utf8PathBuf,
    /// What happened to it.
    pub outcome: UndoOutcome,
}

/// The result of an undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoReport {
    /// The session undone.
    pub session: String,
    /// The session the undo's own writes are recorded under.
    pub undo_session: String,
    /// Every file the session changed, in the order it first changed them.
    pub items: Vec<UndoItem>,
    /// Every ref, HEAD and state file the session changed.
    pub state: Vec<StateItem>,
}

impl UndoReport {
    /// Returns whether every file is back to its content from before the
    /// session.
    pub fn complete(&self) -> bool {
        !self
            .items
            .iter()
            .any(|i| matches!(i.outcome, UndoOutcome::Kept(_) | UndoOutcome::Failed(_)))
            && !self
                .state
                .iter()
                .any(|i| matches!(i.outcome, StateOutcome::Failed(_)))
    }
}

/// Returns the changes that reached their file: every file-changing entry
/// but those whose `done` or `recover` says it was not applied (a failure,
/// or a crash before the new content took the file's name).
fn applied(entries: &[Entry]) -> impl DoubleEndedIterator<Item = &Entry> {
    let skipped: HashSet<&str> = entries
        .iter()
        .filter(|e| matches!(e.op, Op::Done | Op::Recover) && e.applied == Some(false))
        .filter_map(|e| e.id.as_deref())
        .collect();
    entries.iter().filter(move |e| {
        e.op.changes_file() && !e.id.as_deref().is_some_and(|id| skipped.contains(id))
    })
}

/// Returns the sessions that changed files, newest first.
pub fn sessions(entries: &[Entry]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in applied(entries).rev() {
        if !out.contains(&e.session) {
            out.push(e.session.clone());
        }
    }
    out
}

/// Undoes `session` (default: the last session that changed a file).
/// The journal is validated first: a store holding a line it could not
/// have written is moved aside and nothing is undone.
pub fn undo(shadow: &Shadow, session: Option<&str>) -> Result<UndoReport, ShadowError> {
    undo_with(shadow, session, &mut |_, _| {})
}

/// [`undo`], calling `progress(done, total)` after each file.
pub fn undo_with(
    shadow: &Shadow,
    session: Option<&str>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<UndoReport, ShadowError> {
    let mut tx = shadow.begin(Session::fresh("undo"))?;
    let entries = tx.entries()?;
    let recent = sessions(&entries);
    let target = match session {
        Some(s) => s.to_string(),
        None => recent
            .first()
            .cloned()
            .ok_or_else(|| ShadowError::NoSession {
                id: None,
                recent: Vec::new(),
            })?,
    };
    let mut order: Vec<&str> = Vec::new();
    let mut span: HashMap<&str, (&Entry, &Entry)> = HashMap::new();
    for e in applied(&entries).filter(|e| e.session == target) {
        span.entry(e.path.as_str())
            .and_modify(|s| s.1 = e)
            .or_insert_with(|| {
                order.push(e.path.as_str());
                (e, e)
            });
    }
    let repo = Repo::discover(shadow.root())?.ok_or_else(|| ShadowError::NotARepo {
        path: shadow.root().to_path_buf(),
    })?;
    let ledger = Ledger::load(&repo, &target);
    // The journal knows the session's start unless the store was started
    // again since the ledger first noted a file.
    let journal_whole = ledger.journal_mark.is_none() || ledger.journal_mark == tx.journal_mark();
    for path in ledger.work.keys() {
        if !span.contains_key(path.as_str()) {
            order.push(path.as_str());
        }
    }
    if order.is_empty() && !ledger.changed_state() {
        return Err(ShadowError::NoSession {
            id: Some(target),
            recent: recent.into_iter().take(5).collect(),
        });
    }
    let state = if ledger.changed_state() {
        undo_state(&repo, &ledger, tx.session())?
    } else {
        Vec::new()
    };
    // A restored `info/exclude` must still keep the store out of git.
    shadow.ensure_excluded(&[super::store::EXCLUDE_STORE])?;
    let mut items = Vec::new();
    let total = order.len();
    for path in order {
        let rel = Utf8Path::new(path);
        let from_ledger = ledger
            .work
            .get(path)
            .filter(|_| !journal_whole || !span.contains_key(path));
        let outcome = match (from_ledger, span.get(path)) {
            (Some(w), _) => undo_from_ledger(&mut tx, &repo, rel, w),
            (None, Some((first, last))) => {
                // A removal's sha256 is what it removed; an external
                // deletion has none.
                let after = if last.op == Op::Remove {
                    None
                } else {
                    last.sha256.clone()
                };
                undo_one(&mut tx, &entries, rel, first.version, after)
            }
            // (Every path listed came from the journal or the ledger.)
            (None, None) => Ok(UndoOutcome::AlreadyAsBefore),
        }
        .unwrap_or_else(|e| UndoOutcome::Failed(crate::text::chain::one_line(&e)));
        items.push(UndoItem {
            path: Utf8PathBuf::from(path),
            outcome,
        });
        progress(items.len(), total);
    }
    Ok(UndoReport {
        session: target,
        undo_session: tx.session().id().to_string(),
        items,
        state,
    })
}

/// Puts back the refs, HEAD and state files `ledger` says its session
/// changed, noting them in the ledger of `undo` (the undo's own session)
/// before and after, so that undoing the undo puts them back again.
fn undo_state(repo: &Repo, ledger: &Ledger, undo: &Session) -> Result<Vec<StateItem>, ShadowError> {
    let mut mine = Ledger::load(repo, undo.id());
    gitstate::capture(repo, &mut mine)?;
    let items = gitstate::restore(repo, ledger);
    // A fresh view: git changed refs and files behind the first one.
    let after = Repo::discover(repo.git_dir())?.ok_or_else(|| ShadowError::NotARepo {
        path: repo.git_dir().to_path_buf(),
    })?;
    gitstate::capture(&after, &mut mine)?;
    mine.store(&after)?;
    Ok(items)
}

/// Brings `rel` back to what the session's ledger saved of it (`w`).
fn undo_from_ledger(
    tx: &mut super::Tx<'_>,
    repo: &Repo,
    rel: &Utf8Path,
    w: &WorkFile,
) -> Result<UndoOutcome, ShadowError> {
    let shadow = tx.shadow();
    let path = shadow.resolve_rel(rel)?;
    let current = tx.read_current(&path)?;
    let current_sha = current.as_ref().map(|c| sha256_hex(&c.bytes));
    let Some(first) = &w.first else {
        return undo_creation(tx, &path, current, current_sha == w.last);
    };
    let sound = |b: &Vec<u8>| first.sha256.as_deref().is_none_or(|s| s == sha256_hex(b));
    let Some(bytes) = gitstate::read_blob(repo, &first.blob).filter(sound) else {
        return Ok(UndoOutcome::Failed(format!(
            "its content from before the session (git blob {}) is gone from the repository",
            first.blob
        )));
    };
    if current.as_ref().is_some_and(|c| c.bytes == bytes) {
        return Ok(UndoOutcome::AlreadyAsBefore);
    }
    // The content gets a version of its own, for the journal to name.
    let kept = tx.save(
        &path,
        &Current {
            bytes: bytes.clone(),
            mode: first.mode,
        },
    )?;
    let Some(version) = kept.backup else {
        return Ok(UndoOutcome::Failed(
            "its content from before the session could not be saved in the store".into(),
        ));
    };
    let r = tx.apply(
        &path,
        current.as_ref(),
        Change {
            op: Op::Undo,
            new: Some(&bytes),
            mode: Some(first.mode),
            from: Some(version),
        },
    )?;
    Ok(UndoOutcome::Restored {
        version,
        saved: r.backup,
        changed_since: current_sha != w.last,
    })
}

/// Undoes a file the session created: removed when it still holds what
/// the session left there (`as_left`), kept when it changed since.
fn undo_creation(
    tx: &mut super::Tx<'_>,
    path: &RepoPath,
    current: Option<Current>,
    as_left: bool,
) -> Result<UndoOutcome, ShadowError> {
    Ok(match current {
        None => UndoOutcome::AlreadyAsBefore,
        Some(c) if as_left => {
            let r = tx.apply(
                path,
                Some(&c),
                Change {
                    op: Op::Remove,
                    new: None,
                    mode: None,
                    from: None,
                },
            )?;
            UndoOutcome::Removed { saved: r.backup }
        }
        Some(_) => {
            UndoOutcome::Kept("the session created it and it changed since; left in place".into())
        }
    })
}

fn undo_one(
    tx: &mut super::Tx<'_>,
    entries: &[Entry],
    rel: &Utf8Path,
    before: Option<u64>,
    after: Option<String>,
) -> Result<UndoOutcome, ShadowError> {
    let shadow = tx.shadow();
    let path = shadow.resolve_rel(rel)?;
    let current = tx.read_current(&path)?;
    let current_sha = current.as_ref().map(|c| sha256_hex(&c.bytes));
    let Some(number) = before else {
        return undo_creation(tx, &path, current, current_sha == after);
    };
    let version = match shadow.version(rel, Some(number)) {
        Ok(v) => v,
        Err(ShadowError::NoSuchVersion { .. }) => {
            return Ok(UndoOutcome::Failed(format!(
                "version {number}, its content from before the session, is no longer in the shadow store"
            )))
        }
        Err(e) => return Err(e),
    };
    let bytes = shadow.read_version(&version)?;
    let record = verify_version(entries, rel, number, &bytes)?;
    if current.as_ref().is_some_and(|c| c.bytes == bytes) {
        return Ok(UndoOutcome::AlreadyAsBefore);
    }
    let changed_since = current_sha != after;
    let mode = record.and_then(|r| r.mode);
    let r = tx.apply(
        &path,
        current.as_ref(),
        Change {
            op: Op::Undo,
            new: Some(&bytes),
            mode,
            from: Some(number),
        },
    )?;
    Ok(UndoOutcome::Restored {
        version: number,
        saved: r.backup,
        changed_since,
    })
}
