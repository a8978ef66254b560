//! [`Tx`], the locked transaction every mutation of the store runs in:
//! validating the store (and moving it aside when it fails), recovering
//! what a killed predecessor left, backups, guarded replacements, restores,
//! eviction and pruning.
//!
//! Everything is reached through verified directory handles: the store's
//! folders opened once per transaction, the target's folders walked from the
//! working tree's top without following a symlink, so a folder swapped for
//! a symlink after the path was resolved stops the write instead of
//! redirecting it.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write as _};
use std::path::Path;

use camino::{Utf8Path, Utf8PathBuf};

use super::journal::{self, is_op_id, Entry, JournalWriter, Op};
use super::paths::RepoPath;
use super::session::{IndexHeader, IndexLine, Session, SessionIndex};
use super::store::{
    self, folder_versions, read_store_file, store_sub, version_dirs, version_of, Change, Current,
    Replaced, Shadow, Version, VersionNames, EXCLUDE_STORE, OBJECTS, SESSION_INDEX, SHADOW, SIZE,
    STORE_DIR,
};
use super::ShadowError;
use crate::clock::Utc;
use crate::fsx::atomic::{set_mode, temp_name};
use crate::fsx::dir::{self, why, Access, Dir, Kind};
use crate::fsx::durable::Durability;
use crate::lock::{RepoLock, DEFAULT_WAIT};

mod batch;
mod upkeep;
mod write;

/// The journal size past which a transaction compacts it.
const JOURNAL_COMPACT_AT: u64 = 8 * 1024 * 1024;

/// About how much of the newest sessions' history compaction keeps.
const JOURNAL_KEEP: u64 = 2 * 1024 * 1024;

/// The size past which a new session rewrites the index with only itself.
const INDEX_COMPACT_AT: u64 = 256 * 1024;

/// The temporary name of a rewritten index (fixed: under the lock only one
/// exists, even after a crash).
const INDEX_TMP: &str = "session.jsonl.tmp";

/// The store's folders, opened and verified for one transaction.
#[derive(Debug)]
pub(crate) struct Dirs {
    /// The top of the working tree.
    pub(crate) root: Dir,
    /// `.fararoni`.
    pub(crate) store: Dir,
    /// `.fararoni/shadow`.
    pub(crate) shadow: Dir,
    /// `.fararoni/objects`.
    pub(crate) objects: Dir,
}

/// A locked transaction on the store; mutations happen only through it.
/// Dropping it releases the repository lock.
#[derive(Debug)]
pub struct Tx<'a> {
    shadow: &'a Shadow,
    dirs: Dirs,
    session: Session,
    journal: JournalWriter,
    index: Option<SessionIndex>,
    /// How the store's file system makes steps durable.
    durability: Durability,
    /// The store was moved aside in this transaction (once is enough: a
    /// fresh store that fails again is an error).
    moved_aside: bool,
    /// The version names of each version folder listed so far (by the
    /// folder's path in the working tree), then by file name: a folder is
    /// listed once per transaction, not once per file in it. Only this
    /// transaction changes the store while it holds the lock, and each
    /// version it adds or drops updates this.
    listings: HashMap<Utf8PathBuf, HashMap<String, VersionNames>>,
    _lock: RepoLock,
}

/// A process-unique id for one operation; [`is_op_id`] recognises exactly
/// this form.
fn op_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{}-{:08x}-{}",
        std::process::id(),
        nanos,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A backup planned by [`Tx::apply`].
struct Plan {
    sha: String,
    size: u64,
    mode: u32,
    /// The newest version already holds this content.
    reuse: Option<u64>,
    /// The content-addressed object already exists and holds this content.
    obj_exists: bool,
    /// The new version (when not reused): its number, stamp and file name.
    number: u64,
    stamp: String,
    file: String,
    /// The path's versions, with the new one once published.
    names: VersionNames,
}

impl Plan {
    /// The version holding the content, and whether it is new.
    fn version(&self) -> (u64, bool) {
        match self.reuse {
            Some(n) => (n, false),
            None => (self.number, true),
        }
    }
}

/// The temporary names of one operation, built from its id so that the
/// journal line that carries the id is enough to find them after a crash.
struct Temps {
    /// The backup's content-addressed object, before its rename (objects).
    obj: String,
    /// A copy of the backup where hard links are not available (version
    /// folder), and the new content before it takes the target's name
    /// (target's folder).
    next_to: String,
}

impl Temps {
    fn new(rel: &Utf8Path, id: &str) -> Temps {
        Temps {
            obj: format!(".tmp-{id}"),
            next_to: temp_name(rel.file_name().unwrap_or(""), id),
        }
    }
}

/// Whether `name` is one of our temporary names: `.tmp-<id>` or
/// `.<name>.fararoni-<id>.tmp`, with an id of the exact form we write.
fn is_own_temp(name: &str) -> bool {
    if let Some(id) = name.strip_prefix(".tmp-") {
        return is_op_id(id);
    }
    name.strip_suffix(".tmp")
        .and_then(|rest| rest.rsplit_once(".fararoni-"))
        .is_some_and(|(head, id)| head.starts_with('.') && is_op_id(id))
}

/// Removes a temporary file we made: our name pattern, in a folder reached
/// through verified handles, a regular file (a symlink or anything else of
/// that name is left alone).
fn remove_own_temp(dir: &Dir, name: &str) -> Result<(), ShadowError> {
    if !is_own_temp(name) {
        return Ok(());
    }
    match dir.stat(name) {
        Ok(Some(st)) if st.kind == Kind::File => match dir.unlink(name) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(ShadowError::write(dir.join(name), e)),
        },
        _ => Ok(()),
    }
}

/// Creates `name` in `dir` (which must not have it), writes `bytes` and
/// applies `mode`, without syncing; returns the open file.
fn stage_file(dir: &Dir, name: &str, bytes: &[u8], mode: Option<u32>) -> io::Result<File> {
    let mut f = dir
        .open(name, Access::CreateNew)?
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    f.write_all(bytes)?;
    if let Some(m) = mode {
        set_mode(&f, m)?;
    }
    Ok(f)
}

impl Shadow {
    /// Takes the repository lock and starts a transaction for `session`:
    /// keeps the store out of git, verifies it (moving it aside and starting
    /// a fresh one when it fails validation), recreates it if needed and
    /// cleans up after an operation a crash interrupted.
    pub fn begin(&self, session: Session) -> Result<Tx<'_>, ShadowError> {
        let lock = RepoLock::acquire(&self.common_dir, DEFAULT_WAIT)?;
        self.ensure_excluded(&[EXCLUDE_STORE])?;
        let mut moved_aside = false;
        let (dirs, journal, unfinished) = loop {
            match self.open_for_tx() {
                Ok(opened) => break opened,
                Err(ShadowError::Untrusted { path, why }) if !moved_aside => {
                    self.quarantine(&self.open_root()?, &path, &why)?;
                    moved_aside = true;
                }
                Err(e) => return Err(e),
            }
        };
        let durability = Durability::of(dirs.store.path());
        let mut tx = Tx {
            shadow: self,
            dirs,
            session,
            journal,
            index: None,
            durability,
            moved_aside,
            listings: HashMap::new(),
            _lock: lock,
        };
        if let Some(op) = unfinished {
            tx.recover(op)?;
        }
        let len = tx.journal.len();
        if len > JOURNAL_COMPACT_AT && len > 2 * upkeep::compacted_len(&tx.dirs.store) {
            // Compaction reads (and so validates) the whole journal. A
            // failure of any other kind leaves the journal whole; the next
            // transaction retries.
            if let Err(e) = tx.compact_journal(JOURNAL_KEEP) {
                tx.settle_untrusted(e)?;
            }
        }
        Ok(tx)
    }

    /// Opens and verifies the store for a transaction: its folders, the
    /// files it writes in place, the journal and its unsettled change.
    fn open_for_tx(&self) -> Result<(Dirs, JournalWriter, Option<Entry>), ShadowError> {
        let root = self.open_root()?;
        let dev = root.dev();
        let missing = |p: &Path| ShadowError::write(p, io::ErrorKind::NotFound.into());
        let store = store_sub(&root, STORE_DIR, true, dev)?
            .ok_or_else(|| missing(&root.join(STORE_DIR)))?;
        let shadow =
            store_sub(&store, SHADOW, true, dev)?.ok_or_else(|| missing(&store.join(SHADOW)))?;
        let objects =
            store_sub(&store, OBJECTS, true, dev)?.ok_or_else(|| missing(&store.join(OBJECTS)))?;
        for name in [SESSION_INDEX, SIZE] {
            let st = store
                .stat(name)
                .map_err(|e| ShadowError::read(store.join(name), e))?;
            let why = match st {
                None => None,
                Some(s) if s.kind == Kind::Symlink => Some(why::SYMLINK),
                Some(s) if s.kind != Kind::File => Some(why::NOT_A_FILE),
                Some(s) if s.nlink > 1 => Some(why::HARD_LINKED),
                Some(_) => None,
            };
            if let Some(why) = why {
                return Err(ShadowError::Untrusted {
                    path: store.join(name),
                    why: why.to_string(),
                });
            }
        }
        let journal = journal::open(&store)?;
        let unfinished = journal.unfinished()?;
        if let Some(op) = &unfinished {
            if let Err(why) = self.check_recorded(&op.path) {
                return Err(ShadowError::Untrusted {
                    path: store.join(journal::JOURNAL),
                    why: format!("its last change: {why}"),
                });
            }
        }
        let dirs = Dirs {
            root,
            store,
            shadow,
            objects,
        };
        Ok((dirs, journal, unfinished))
    }
}

impl<'a> Tx<'a> {
    /// Returns the store this transaction works on.
    pub fn shadow(&self) -> &'a Shadow {
        self.shadow
    }

    /// Returns the session the transaction records.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Moves the store aside when `e` says it failed validation, and starts
    /// a fresh one in its place for the rest of the transaction; returns
    /// `e` (to stop the operation that found it) unless it was moved.
    fn settle_untrusted(&mut self, e: ShadowError) -> Result<(), ShadowError> {
        let ShadowError::Untrusted { path, why } = &e else {
            return Ok(());
        };
        if self.moved_aside {
            return Err(e);
        }
        self.shadow.quarantine(&self.dirs.root, path, why)?;
        self.moved_aside = true;
        let (dirs, journal, _) = self.shadow.open_for_tx()?;
        self.dirs = dirs;
        self.journal = journal;
        self.index = None;
        self.listings.clear();
        Ok(())
    }

    /// Runs `f`; when it finds the store untrusted (a folder or file of the
    /// store that only shows up on this path), moves the store aside and
    /// runs `f` again on the fresh one.
    fn settled<T>(
        &mut self,
        mut f: impl FnMut(&mut Self) -> Result<T, ShadowError>,
    ) -> Result<T, ShadowError> {
        match f(self) {
            Err(e @ ShadowError::Untrusted { .. }) => {
                self.settle_untrusted(e)?;
                f(self)
            }
            other => other,
        }
    }

    /// Returns every journal entry, validated. A journal with a line this
    /// store could not have written is moved aside with the whole store
    /// (the error is returned: what it held can no longer be acted on).
    pub(crate) fn entries(&mut self) -> Result<Vec<Entry>, ShadowError> {
        match journal::read(&self.dirs.store) {
            Ok(entries) => Ok(entries),
            Err(ShadowError::Untrusted { path, why }) => {
                let found = ShadowError::Untrusted {
                    path: path.clone(),
                    why: why.clone(),
                };
                self.settle_untrusted(found)?;
                Err(ShadowError::Untrusted { path, why })
            }
            Err(e) => Err(e),
        }
    }

    /// Opens the folder of the working tree holding `rel`, walking from the
    /// top without following a symlink (created when `create`; `None` when
    /// absent).
    fn target_dir(&self, rel: &Utf8Path, create: bool) -> Result<Option<Dir>, ShadowError> {
        let mut here: Option<Dir> = None;
        if let Some(parent) = rel.parent() {
            for c in parent.components() {
                let from = here.as_ref().unwrap_or(&self.dirs.root);
                let next =
                    from.sub(c.as_str(), create)
                        .map_err(|e| match dir::why_untrusted(&e) {
                            Some(why) => ShadowError::TargetChanged {
                                path: rel.to_path_buf(),
                                why,
                            },
                            None => ShadowError::write(from.join(c.as_str()), e),
                        })?;
                match next {
                    Some(d) => here = Some(d),
                    None => return Ok(None),
                }
            }
        }
        match here {
            Some(d) => Ok(Some(d)),
            None => clone_dir(&self.dirs.root).map(Some),
        }
    }

    /// Reads the working file `path`; `Ok(None)` when it does not exist.
    pub fn read_current(&self, path: &RepoPath) -> Result<Option<Current>, ShadowError> {
        let Some(parent) = self.target_dir(&path.rel, false)? else {
            return Ok(None);
        };
        let name = path.rel.file_name().unwrap_or("");
        let (file, stat) = match parent.open_stat(name, Access::Read) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(match dir::why_untrusted(&e) {
                    Some(why::NOT_A_FILE) => ShadowError::NotAFile {
                        path: path.rel.clone(),
                    },
                    Some(why) => ShadowError::TargetChanged {
                        path: path.rel.clone(),
                        why,
                    },
                    None => ShadowError::read(&path.abs, e),
                })
            }
        };
        let bytes = dir::read_all(file, stat.size).map_err(|e| ShadowError::read(&path.abs, e))?;
        Ok(Some(Current {
            bytes,
            mode: stat.mode,
        }))
    }

    /// Returns a mark of the store's journal that changes when the store is
    /// started again ([`journal::first_mark`]).
    pub(crate) fn journal_mark(&self) -> Option<String> {
        journal::first_mark(&self.dirs.store)
    }

    /// Returns the version holding `rel`'s content from before this
    /// session's first change to it: `None` when the session has not
    /// changed it (or created it). Read from the session index.
    pub fn session_baseline(&mut self, rel: &Utf8Path) -> Option<u64> {
        let index = self.index();
        index.first.get(rel.as_str()).copied().flatten()
    }

    /// Returns the content of version `number` of `rel`, `None` when the
    /// store no longer has it.
    pub fn read_version_number(
        &mut self,
        rel: &Utf8Path,
        number: u64,
    ) -> Result<Option<Vec<u8>>, ShadowError> {
        self.settled(|tx| tx.read_version_in_store(rel, number))
    }

    fn read_version_in_store(
        &mut self,
        rel: &Utf8Path,
        number: u64,
    ) -> Result<Option<Vec<u8>>, ShadowError> {
        let Some(vdir) = self.version_dir(rel, false)? else {
            return Ok(None);
        };
        let name = rel.file_name().unwrap_or("");
        let names = self.version_listing(rel, &vdir, name)?;
        let file = names.iter().find(|v| v.0 == number).map(|v| v.2.clone());
        match file {
            Some(file) => read_store_file(&vdir, &file),
            None => Ok(None),
        }
    }

    /// Returns the version names of `rel` (file `name`) in its version
    /// folder `vdir`, listing the folder when this transaction has not yet.
    fn version_listing(
        &mut self,
        rel: &Utf8Path,
        vdir: &Dir,
        name: &str,
    ) -> Result<VersionNames, ShadowError> {
        let folder = rel.parent().unwrap_or(Utf8Path::new(""));
        if !self.listings.contains_key(folder) {
            let listed = folder_versions(vdir)?;
            self.listings.insert(folder.to_path_buf(), listed);
        }
        Ok(self
            .listings
            .get(folder)
            .and_then(|f| f.get(name))
            .cloned()
            .unwrap_or_default())
    }

    /// Forgets the listing of `rel`'s version folder (a version was
    /// dropped; the next use lists it again).
    pub(super) fn forget_listing(&mut self, rel: &Utf8Path) {
        self.listings
            .remove(rel.parent().unwrap_or(Utf8Path::new("")));
    }

    /// Opens the version folder of `rel`.
    fn version_dir(&self, rel: &Utf8Path, create: bool) -> Result<Option<Dir>, ShadowError> {
        match version_dirs(&self.dirs.shadow, rel, create)? {
            Some(mut chain) => match chain.pop() {
                Some(d) => Ok(Some(d)),
                None => clone_dir(&self.dirs.shadow).map(Some),
            },
            None => Ok(None),
        }
    }

    /// Finishes what an operation killed midway left: the journal's last
    /// change without a `done` (only the last can lack one: changes run one
    /// at a time under the lock), already validated. Removes the temporary
    /// files it can prove it made (their names carry its id; in the store,
    /// or in the target's folder reached without following a symlink) and
    /// records whether its change had reached the working file.
    fn recover(&mut self, op: Entry) -> Result<(), ShadowError> {
        let Some(id) = op.id.clone() else {
            return Ok(());
        };
        // The path as recorded (validated), not resolved: a recovery must
        // not stop at a path that no longer resolves (a parent turned
        // symlink), or the change would stay unsettled and count as applied.
        let rel = Utf8Path::new(&op.path);
        let temps = Temps::new(rel, &id);
        remove_own_temp(&self.dirs.objects, &temps.obj)?;
        if let Ok(Some(vdir)) = self.version_dir(rel, false) {
            remove_own_temp(&vdir, &temps.next_to)?;
        }
        // A folder on the way that is no longer a real one holds nothing of
        // ours we could prove: left alone, and the change counts as not
        // applied unless the file is there with the new content.
        let target = self.target_dir(rel, false).ok().flatten();
        if let Some(d) = &target {
            remove_own_temp(d, &temps.next_to)?;
        }
        let now = target
            .as_ref()
            .and_then(|d| {
                d.open_stat(rel.file_name().unwrap_or(""), Access::Read)
                    .ok()
                    .flatten()
            })
            .and_then(|(f, st)| dir::read_all(f, st.size).ok())
            .map(|b| store::sha256_hex(&b));
        let applied = match op.op {
            // The program made the change before it was recorded.
            Op::External => true,
            Op::Remove => now.is_none(),
            _ => now.is_some() && now == op.sha256,
        };
        let mut e = Entry::new(&op.session, Op::Recover, &op.path);
        e.id = Some(id);
        e.applied = Some(applied);
        e.note = Some(
            if applied {
                "interrupted after the change was applied"
            } else {
                "interrupted before the change was applied"
            }
            .into(),
        );
        self.journal.append(&[e], true)
    }

    /// Returns the object named `sha` when it exists and can stand for a
    /// content of `bytes`: a regular read-only file (as the store makes
    /// them) holding exactly those bytes. A planted object — a hard link to
    /// some other file, a writable file, other bytes — is not used: the
    /// write stages its own and renames it over the name.
    fn verified_object(&self, sha: &str, bytes: &[u8]) -> Option<dir::Stat> {
        let objects = &self.dirs.objects;
        let st = objects.stat(sha).ok()??;
        if st.kind != Kind::File || st.size != bytes.len() as u64 || st.mode & 0o222 != 0 {
            return None;
        }
        let held = read_store_file(objects, sha).ok()??;
        (held == bytes).then_some(st)
    }

    /// Returns the session index, loaded once per transaction.
    fn index(&mut self) -> &SessionIndex {
        let store = &self.dirs.store;
        let ours = self.session.id();
        self.index
            .get_or_insert_with(|| SessionIndex::load(store, Some(ours)).unwrap_or_default())
    }
}

/// Returns a second handle to `dir`.
fn clone_dir(dir: &Dir) -> Result<Dir, ShadowError> {
    dir.try_clone()
        .map_err(|e| ShadowError::read(dir.path(), e))
}

/// Whether version `v` (in `vdir`) holds exactly `bytes` (same object,
/// else same bytes).
fn same_content(vdir: &Dir, v: &Version, obj: Option<&dir::Stat>, bytes: &[u8]) -> bool {
    if v.size != bytes.len() as u64 {
        return false;
    }
    if let (Some(a), Some(b)) = (v.id, obj.map(|s| s.id)) {
        if a == b {
            return true;
        }
    }
    read_store_file(vdir, v.file_name()).is_ok_and(|b| b.as_deref() == Some(bytes))
}

/// A fresh git repository in a temporary folder, for the transaction tests
/// of [`batch`] and [`upkeep`].
#[cfg(test)]
fn test_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git init");
    dir
}
