//! The store itself: opening it for a working tree, listing and reading
//! versions, and [`Tx`], the locked transaction every mutation runs in
//! (backup, guarded replacement, restore, eviction).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use camino::{Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::atomic::{self, create_synced, mode_of, parent_of, sync_dir, temp_for};
use super::durable::Durability;
use super::journal::{Entry, Journal, JournalWriter, Op};
use super::paths::{self, RepoPath};
use super::retention::Retention;
use super::session::Session;
use super::ShadowError;
use crate::clock::Utc;
use crate::git::Repo;
use crate::lock::{RepoLock, DEFAULT_WAIT};

/// The store's directory name, at the top of the working tree.
pub const STORE_DIR: &str = ".fararoni";

/// The line added to `info/exclude`.
const EXCLUDE_LINE: &str = "/.fararoni/";

/// Returns the SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 0xf)]));
    }
    out
}

/// Returns a file's identity (device, inode) where the platform has one.
pub(crate) fn file_id(meta: &fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Returns how many names a file has (1 where unknown).
pub(crate) fn link_count(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// One backed-up version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The repository-relative path it is a version of.
    pub path: Utf8PathBuf,
    /// Its number, counting up per path from 1.
    pub number: u64,
    /// When it was taken, `YYYYMMDD-HHMMSS` UTC.
    pub stamp: String,
    /// The version file.
    pub file: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    pub(crate) id: Option<(u64, u64)>,
}

impl Version {
    /// Returns when the version was taken, in seconds since the Unix epoch.
    pub fn unix_time(&self) -> Option<i64> {
        parse_stamp(&self.stamp)
    }

    /// Returns when the version was taken, RFC 3339.
    pub fn rfc3339(&self) -> String {
        self.unix_time()
            .map(|t| Utc::from_unix(t).rfc3339())
            .unwrap_or_else(|| self.stamp.clone())
    }
}

/// Parses `YYYYMMDD-HHMMSS` into seconds since the epoch.
pub(crate) fn parse_stamp(stamp: &str) -> Option<i64> {
    let b = stamp.as_bytes();
    if b.len() != 15 || b[8] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = stamp.get(r)?;
        if !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (y, m, d) = (digits(0..4)?, digits(4..6)?, digits(6..8)?);
    let (hh, mm, ss) = (digits(9..11)?, digits(11..13)?, digits(13..15)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Splits a version file name `<name>.v<N>.<stamp>` into its parts.
pub(crate) fn parse_version_name(file: &str) -> Option<(&str, u64, &str)> {
    let (rest, stamp) = file.rsplit_once('.')?;
    parse_stamp(stamp)?;
    let (name, v) = rest.rsplit_once('.')?;
    let digits = v.strip_prefix('v')?;
    if name.is_empty() || digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((name, digits.parse().ok()?, stamp))
}

/// The content of a working file as read before a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Current {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its permission bits.
    pub mode: u32,
}

/// What [`Tx::apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    /// Whether the working file changed (false: it already held the content).
    pub changed: bool,
    /// The version holding the previous content (`None`: there was no file).
    pub backup: Option<u64>,
    /// Whether that version was created now (false: the newest version
    /// already held the same content).
    pub new_backup: bool,
}

/// A change to a working file, applied by [`Tx::apply`].
#[derive(Debug, Clone, Copy)]
pub struct Change<'b> {
    /// How the journal records it: `Write`, `Restore`, `Undo` or `Remove`.
    pub op: Op,
    /// The new content; `None` removes the file.
    pub new: Option<&'b [u8]>,
    /// Permission bits for a file that does not exist yet (else the umask
    /// default); an existing file keeps its own.
    pub mode: Option<u32>,
    /// For a restore, the version copied from.
    pub from: Option<u64>,
}

/// The shadow store of one working tree.
#[derive(Debug, Clone)]
pub struct Shadow {
    root: PathBuf,
    common_dir: PathBuf,
    store: PathBuf,
    retention: Retention,
}

impl Shadow {
    /// Opens the store of the repository containing `dir`.
    pub fn discover(dir: &Path) -> Result<Shadow, ShadowError> {
        let repo = Repo::discover(dir)?.ok_or_else(|| ShadowError::NotARepo {
            path: dir.to_path_buf(),
        })?;
        Shadow::open(&repo)
    }

    /// Opens the store of `repo`'s working tree (nothing is created until
    /// the first change).
    pub fn open(repo: &Repo) -> Result<Shadow, ShadowError> {
        let workdir = repo.workdir().ok_or_else(|| ShadowError::Bare {
            path: repo.git_dir().to_path_buf(),
        })?;
        let root = fs::canonicalize(workdir).map_err(|e| ShadowError::read(workdir, e))?;
        if root.to_str().is_none() {
            return Err(ShadowError::NonUtf8 { path: root });
        }
        let common_dir = fs::canonicalize(repo.common_dir())
            .map_err(|e| ShadowError::read(repo.common_dir(), e))?;
        Ok(Shadow {
            store: root.join(STORE_DIR),
            root,
            common_dir,
            retention: Retention::from_config(repo)?,
        })
    }

    /// Returns the top of the working tree (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns the store directory, `<root>/.fararoni`.
    pub fn store_dir(&self) -> &Path {
        &self.store
    }

    /// Returns the retention limits in force.
    pub fn retention(&self) -> &Retention {
        &self.retention
    }

    /// Replaces the retention limits (for tools and tests).
    pub fn with_retention(mut self, retention: Retention) -> Shadow {
        self.retention = retention;
        self
    }

    /// Resolves `input`, relative to `base`, to a file of the working tree.
    pub fn resolve(&self, base: &Path, input: &Path) -> Result<RepoPath, ShadowError> {
        paths::resolve(&self.root, base, input)
    }

    /// Resolves a repository-relative path.
    pub fn resolve_rel(&self, rel: &Utf8Path) -> Result<RepoPath, ShadowError> {
        paths::resolve(&self.root, &self.root, rel.as_std_path())
    }

    pub(crate) fn shadow_dir(&self) -> PathBuf {
        self.store.join("shadow")
    }

    pub(crate) fn objects_dir(&self) -> PathBuf {
        self.store.join("objects")
    }

    pub(crate) fn journal(&self) -> Journal {
        Journal::new(self.store.join("journal.jsonl"))
    }

    fn session_index_path(&self) -> PathBuf {
        self.store.join("session.jsonl")
    }

    /// The running total of distinct bytes the store holds, as last
    /// recorded (`None`: unknown, recount).
    fn known_size(&self) -> Option<u64> {
        fs::read_to_string(self.size_path())
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
    }

    /// Records the store's running size. The number is overwritten in place,
    /// padded to a fixed width: truncating a file on ext4 forces its data to
    /// disk (`auto_da_alloc`), which measured ~0.3 ms on every write. A torn
    /// number only costs a recount.
    fn record_size(&self, total: u64) {
        use std::io::Write as _;
        let path = self.size_path();
        let _ = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .and_then(|mut f| f.write_all(format!("{total:<20}\n").as_bytes()));
    }

    fn size_path(&self) -> PathBuf {
        self.store.join("size")
    }

    fn version_dir(&self, rel: &Utf8Path) -> PathBuf {
        match rel.parent() {
            Some(p) if !p.as_str().is_empty() => self.shadow_dir().join(p),
            _ => self.shadow_dir(),
        }
    }

    /// Returns the versions of `rel` by name only (number, stamp, file),
    /// oldest first, without reading any file's metadata.
    fn version_names(&self, rel: &Utf8Path) -> Result<VersionNames, ShadowError> {
        let Some(name) = rel.file_name() else {
            return Ok(Vec::new());
        };
        let dir = self.version_dir(rel);
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(Vec::new())
            }
            Err(e) => return Err(ShadowError::read(&dir, e)),
        };
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| ShadowError::read(&dir, e))?;
            let file_name = entry.file_name();
            let Some((base, number, stamp)) = file_name.to_str().and_then(parse_version_name)
            else {
                continue;
            };
            if base == name {
                out.push((number, stamp.to_string(), entry.path()));
            }
        }
        out.sort_by_key(|v| v.0);
        Ok(out)
    }

    /// Returns the versions of `rel`, oldest first.
    pub fn versions(&self, rel: &Utf8Path) -> Result<Vec<Version>, ShadowError> {
        Ok(self
            .version_names(rel)?
            .into_iter()
            .filter_map(|(number, stamp, file)| version_of(rel.to_path_buf(), number, &stamp, file))
            .collect())
    }

    /// Returns the versions of every file in the store, by path.
    pub fn all_versions(&self) -> Result<BTreeMap<Utf8PathBuf, Vec<Version>>, ShadowError> {
        let mut out: BTreeMap<Utf8PathBuf, Vec<Version>> = BTreeMap::new();
        let top = self.shadow_dir();
        let mut stack = vec![(top.clone(), Utf8PathBuf::new())];
        while let Some((dir, rel_dir)) = stack.pop() {
            let entries = match fs::read_dir(&dir) {
                Ok(e) => e,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(ShadowError::read(&dir, e)),
            };
            for entry in entries {
                let entry = entry.map_err(|e| ShadowError::read(&dir, e))?;
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                let ft = entry
                    .file_type()
                    .map_err(|e| ShadowError::read(entry.path(), e))?;
                if ft.is_dir() {
                    stack.push((entry.path(), rel_dir.join(&name)));
                } else if let Some((base, number, stamp)) = parse_version_name(&name) {
                    let rel = rel_dir.join(base);
                    if let Some(v) = version_of(rel.clone(), number, stamp, entry.path()) {
                        out.entry(rel).or_default().push(v);
                    }
                }
            }
        }
        for versions in out.values_mut() {
            versions.sort_by_key(|v| v.number);
        }
        Ok(out)
    }

    /// Returns version `number` of `rel`, or the newest one.
    pub fn version(&self, rel: &Utf8Path, number: Option<u64>) -> Result<Version, ShadowError> {
        let versions = self.versions(rel)?;
        match number {
            None => versions
                .into_iter()
                .last()
                .ok_or_else(|| ShadowError::NoVersions {
                    path: rel.to_path_buf(),
                }),
            Some(n) => versions.into_iter().find(|v| v.number == n).ok_or_else(|| {
                ShadowError::NoSuchVersion {
                    path: rel.to_path_buf(),
                    version: n,
                }
            }),
        }
    }

    /// Returns the content of a version.
    pub fn read_version(&self, v: &Version) -> Result<Vec<u8>, ShadowError> {
        fs::read(&v.file).map_err(|e| ShadowError::read(&v.file, e))
    }

    /// Returns the SHA-256 of a version's content: the object it is linked
    /// to, else a hash of the file.
    pub fn version_sha256(
        &self,
        v: &Version,
        objects: &HashMap<(u64, u64), String>,
    ) -> Result<String, ShadowError> {
        if let Some(sha) = v.id.and_then(|id| objects.get(&id)) {
            return Ok(sha.clone());
        }
        Ok(sha256_hex(&self.read_version(v)?))
    }

    /// Returns the content-addressed objects by file identity.
    pub fn object_ids(&self) -> HashMap<(u64, u64), String> {
        let mut out = HashMap::new();
        if let Ok(entries) = fs::read_dir(self.objects_dir()) {
            for entry in entries.flatten() {
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                if name.len() != 64 {
                    continue;
                }
                if let Some(id) = entry.metadata().ok().as_ref().and_then(file_id) {
                    out.insert(id, name);
                }
            }
        }
        out
    }

    /// Returns every journal entry, oldest first.
    pub fn journal_entries(&self) -> Result<Vec<Entry>, ShadowError> {
        self.journal().read()
    }

    /// Returns the versions the last session's `undo` needs, by path.
    pub(crate) fn protected(&self) -> HashMap<String, HashSet<u64>> {
        let mut out: HashMap<String, HashSet<u64>> = HashMap::new();
        if let Some(index) = SessionIndex::load(&self.session_index_path()) {
            for line in index.paths {
                if let Some(v) = line.version {
                    out.entry(line.path).or_default().insert(v);
                }
            }
        }
        out
    }

    /// Takes the repository lock and starts a transaction for `session`:
    /// recreates the store if needed, keeps it out of git and cleans up
    /// after an operation a crash interrupted.
    pub fn begin(&self, session: Session) -> Result<Tx<'_>, ShadowError> {
        let lock = RepoLock::acquire(&self.common_dir, DEFAULT_WAIT)?;
        for dir in [self.shadow_dir(), self.objects_dir()] {
            fs::create_dir_all(&dir).map_err(|e| ShadowError::write(&dir, e))?;
        }
        self.ensure_excluded()?;
        let journal = self.journal().open()?;
        let mut tx = Tx {
            shadow: self,
            session,
            journal,
            index: None,
            durability: Durability::of(&self.store),
            _lock: lock,
        };
        tx.recover()?;
        if tx.journal.len() > JOURNAL_COMPACT_AT {
            // A failed compaction leaves the journal whole; it is retried
            // by the next transaction.
            let _ = tx.compact_journal(JOURNAL_KEEP);
        }
        Ok(tx)
    }

    /// Adds `/.fararoni/` to the common git dir's `info/exclude` unless an
    /// equivalent line is there.
    fn ensure_excluded(&self) -> Result<(), ShadowError> {
        let info = self.common_dir.join("info");
        let path = info.join("exclude");
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(ShadowError::read(&path, e)),
        };
        let present = text.lines().any(|l| {
            matches!(
                l.trim(),
                "/.fararoni/"
                    | ".fararoni/"
                    | "/.fararoni"
                    | ".fararoni"
                    | "/.fararoni/*"
                    | ".fararoni/*"
            )
        });
        if present {
            return Ok(());
        }
        fs::create_dir_all(&info).map_err(|e| ShadowError::write(&info, e))?;
        let mut add = String::new();
        if !text.is_empty() && !text.ends_with('\n') {
            add.push('\n');
        }
        add.push_str("# git-fararoni: the shadow store of pre-write backups\n");
        add.push_str(EXCLUDE_LINE);
        add.push('\n');
        use std::io::Write as _;
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(add.as_bytes()))
            .map_err(|e| ShadowError::write(&path, e))
    }
}

fn version_of(path: Utf8PathBuf, number: u64, stamp: &str, file: PathBuf) -> Option<Version> {
    let meta = fs::metadata(&file).ok()?;
    if !meta.is_file() {
        return None;
    }
    Some(Version {
        path,
        number,
        stamp: stamp.to_string(),
        size: meta.len(),
        id: file_id(&meta),
        file,
    })
}

/// `.fararoni/session.jsonl`, append-only: a header line names a session
/// that changed files, each line after it a path that session changed with
/// the version holding the path's content from before the session. The
/// last header is the last session. (Appending instead of rewriting the
/// file: truncating a file on ext4 forces its data to disk, ~0.3 ms.)
#[derive(Debug, Default)]
struct SessionIndex {
    session: String,
    paths: Vec<IndexLine>,
    /// The file's size when read or last appended to.
    len: u64,
}

/// The journal size past which a transaction compacts it.
const JOURNAL_COMPACT_AT: u64 = 8 * 1024 * 1024;

/// About how much of the newest sessions' history compaction keeps.
const JOURNAL_KEEP: u64 = 2 * 1024 * 1024;

/// The size past which a new session rewrites the index with only itself.
const INDEX_COMPACT_AT: u64 = 256 * 1024;

#[derive(Debug, Serialize, Deserialize)]
struct IndexHeader {
    session: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct IndexLine {
    path: String,
    version: Option<u64>,
}

impl SessionIndex {
    fn load(path: &Path) -> Option<SessionIndex> {
        let text = fs::read(path).ok()?;
        let mut index: Option<SessionIndex> = None;
        for line in text.split(|&b| b == b'\n') {
            if let Ok(l) = serde_json::from_slice::<IndexLine>(line) {
                if let Some(i) = index.as_mut() {
                    i.paths.push(l);
                }
            } else if let Ok(h) = serde_json::from_slice::<IndexHeader>(line) {
                index = Some(SessionIndex {
                    session: h.session,
                    paths: Vec::new(),
                    len: 0,
                });
            }
        }
        let mut index = index?;
        index.len = text.len() as u64;
        Some(index)
    }
}

/// A locked transaction on the store; mutations happen only through it.
/// Dropping it releases the repository lock.
#[derive(Debug)]
pub struct Tx<'a> {
    shadow: &'a Shadow,
    session: Session,
    journal: JournalWriter,
    index: Option<SessionIndex>,
    /// How the store's file system makes steps durable.
    durability: Durability,
    _lock: RepoLock,
}

/// A process-unique id for one operation.
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

/// A path's versions by name only: (number, stamp, file), oldest first.
type VersionNames = Vec<(u64, String, PathBuf)>;

/// A backup planned by [`Tx::apply`].
struct Plan {
    sha: String,
    size: u64,
    mode: u32,
    /// The newest version already holds this content.
    reuse: Option<u64>,
    /// The content-addressed object, and whether it exists already.
    obj: PathBuf,
    obj_exists: bool,
    /// The new version (when not reused): its number, stamp and file.
    number: u64,
    stamp: String,
    file: PathBuf,
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

/// The temporary files of one operation, named after its id so that the
/// journal line that carries the id is enough to find them after a crash.
struct Temps {
    /// The backup's content-addressed object, before its rename.
    obj: PathBuf,
    /// A copy of the backup where hard links are not available.
    copy: PathBuf,
    /// The new content, before it takes the target's name.
    target: PathBuf,
}

/// Creates `path`, writes `bytes` and applies `mode`, without syncing;
/// returns the open file for a later `sync_all`.
fn stage_file(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<fs::File> {
    use std::io::Write as _;
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    f.write_all(bytes)?;
    if let Some(m) = mode {
        atomic::set_mode(&f, m)?;
    }
    Ok(f)
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

    /// Reads the working file `path`; `Ok(None)` when it does not exist.
    pub fn read_current(&self, path: &RepoPath) -> Result<Option<Current>, ShadowError> {
        let meta = match fs::metadata(&path.abs) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(ShadowError::read(&path.abs, e)),
        };
        if !meta.is_file() {
            return Err(ShadowError::NotAFile {
                path: path.rel.clone(),
            });
        }
        let bytes = fs::read(&path.abs).map_err(|e| ShadowError::read(&path.abs, e))?;
        Ok(Some(Current {
            bytes,
            mode: mode_of(&meta),
        }))
    }

    /// Finishes what an operation killed midway left: the journal's last
    /// change without a `done` (only the last can lack one: changes run one
    /// at a time under the lock). Removes its temporary files and records
    /// whether its change had reached the working file.
    fn recover(&mut self) -> Result<(), ShadowError> {
        let Some(op) = self.journal.unfinished()? else {
            return Ok(());
        };
        let Some(id) = op.id.clone() else {
            return Ok(());
        };
        // The path as recorded, not resolved: a recovery must not stop at a
        // path that no longer resolves (a parent turned symlink), or the
        // change would stay unsettled and count as applied.
        let rel = Utf8Path::new(&op.path);
        let abs = self.shadow.root().join(rel);
        let temps = self.temps(rel, &abs, &id);
        for t in [&temps.obj, &temps.copy, &temps.target] {
            match fs::remove_file(t) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(ShadowError::write(t, e)),
            }
        }
        let now = fs::read(&abs).ok().map(|b| sha256_hex(&b));
        let applied = match op.op {
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

    /// Rewrites the journal with only the newest sessions (whole, newest
    /// first, until about `keep` bytes) and the `backup` lines of versions
    /// still in the store (their file modes). Older sessions can no longer
    /// be undone as a whole, but their versions stay listed and restorable.
    /// Atomic: a crash leaves the old journal or the new one.
    fn compact_journal(&mut self, keep: u64) -> Result<(), ShadowError> {
        let journal = self.shadow.journal();
        let entries = journal.read()?;
        let lines: Vec<Vec<u8>> = entries
            .iter()
            .map(|e| serde_json::to_vec(e).unwrap_or_default())
            .collect();
        let mut size: HashMap<&str, u64> = HashMap::new();
        let mut newest_first: Vec<&str> = Vec::new();
        for (e, l) in entries.iter().zip(&lines).rev() {
            let s = size.entry(e.session.as_str()).or_insert_with(|| {
                newest_first.push(e.session.as_str());
                0
            });
            *s += l.len() as u64 + 1;
        }
        let mut kept: HashSet<&str> = HashSet::new();
        let mut total = 0;
        for s in newest_first {
            if total > 0 && total + size[s] > keep {
                break;
            }
            total += size[s];
            kept.insert(s);
        }
        let existing: HashSet<(String, u64)> = self
            .shadow
            .all_versions()?
            .into_iter()
            .flat_map(|(path, vs)| vs.into_iter().map(move |v| (path.to_string(), v.number)))
            .collect();
        let mut out = Vec::with_capacity(total as usize);
        for (e, l) in entries.iter().zip(&lines) {
            let version_kept = e.op == Op::Backup
                && e.version
                    .is_some_and(|v| existing.contains(&(e.path.clone(), v)));
            if kept.contains(e.session.as_str()) || version_kept {
                out.extend_from_slice(l);
                out.push(b'\n');
            }
        }
        let (path, _) = self.journal.file();
        let path = path.to_path_buf();
        let tmp = path.with_extension("jsonl.compact");
        atomic::replace_via(&path, &tmp, &out, None).map_err(|e| ShadowError::write(&path, e))?;
        // The writer still holds the replaced file: write to the new one.
        self.journal = journal.open()?;
        Ok(())
    }

    /// The temporary files operation `id` on `rel` (at `abs`) may create.
    fn temps(&self, rel: &Utf8Path, abs: &Path, id: &str) -> Temps {
        let version_dir = self.shadow.version_dir(rel);
        Temps {
            obj: self.shadow.objects_dir().join(format!(".tmp-{id}")),
            copy: temp_for(&version_dir.join(rel.file_name().unwrap_or("")), id),
            target: temp_for(abs, id),
        }
    }

    /// Plans saving `cur` as the next version of `path`: whether the newest
    /// version already holds it, else the new version's number and name
    /// and whether its content is already in the store.
    fn plan_backup(&self, path: &RepoPath, cur: &Current) -> Result<Plan, ShadowError> {
        let sha = sha256_hex(&cur.bytes);
        let size = cur.bytes.len() as u64;
        let names = self.shadow.version_names(&path.rel)?;
        let obj = self.shadow.objects_dir().join(&sha);
        let obj_meta = fs::metadata(&obj)
            .ok()
            .filter(|m| m.is_file() && m.len() == size);
        let newest = names
            .last()
            .and_then(|(n, stamp, file)| version_of(path.rel.clone(), *n, stamp, file.clone()));
        let reuse = newest
            .filter(|v| same_content(v, obj_meta.as_ref(), &cur.bytes))
            .map(|v| v.number);
        let name = path.rel.file_name().ok_or_else(|| ShadowError::NotAFile {
            path: path.rel.clone(),
        })?;
        let number = names.last().map_or(1, |v| v.0 + 1);
        let stamp = Utc::now().compact();
        let file = self
            .shadow
            .version_dir(&path.rel)
            .join(format!("{name}.v{number}.{stamp}"));
        Ok(Plan {
            sha,
            size,
            mode: cur.mode,
            reuse,
            obj,
            obj_exists: obj_meta.is_some(),
            number,
            stamp,
            file,
            names,
        })
    }

    /// Gives a planned backup its version name: a hard link to the object
    /// (renaming the staged object into place first), else an atomic copy.
    /// Returns the size of a content new to the store. The caller makes the
    /// version's folder durable.
    fn publish_backup(
        &mut self,
        plan: &mut Plan,
        bytes: &[u8],
        temps: &Temps,
        staged_obj: bool,
    ) -> Result<Option<u64>, ShadowError> {
        let mut new_object = None;
        let source = if staged_obj {
            match fs::rename(&temps.obj, &plan.obj) {
                Ok(()) => {
                    new_object = Some(plan.size);
                    Some(&plan.obj)
                }
                Err(_) => {
                    let _ = fs::remove_file(&temps.obj);
                    None
                }
            }
        } else {
            Some(&plan.obj)
        };
        let dir = parent_of(&plan.file);
        if plan.names.is_empty() {
            fs::create_dir_all(dir).map_err(|e| ShadowError::write(dir, e))?;
        }
        let linked = match source {
            Some(src) => fs::hard_link(src, &plan.file),
            None => Err(io::Error::from(io::ErrorKind::Unsupported)),
        };
        match linked {
            Ok(()) => {}
            // The journal already names this version: never another one.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(ShadowError::write(&plan.file, e))
            }
            Err(_) => {
                // No hard links here (or too many): a copy, atomically.
                let r = create_synced(&temps.copy, bytes, Some(0o444))
                    .and_then(|()| fs::rename(&temps.copy, &plan.file));
                if let Err(e) = r {
                    let _ = fs::remove_file(&temps.copy);
                    return Err(ShadowError::write(&plan.file, e));
                }
                new_object = Some(plan.size);
            }
        }
        plan.names
            .push((plan.number, plan.stamp.clone(), plan.file.clone()));
        Ok(new_object)
    }
    /// Records that this session changes `rel`, whose content from before
    /// the session is in `version`, unless the session already changed it.
    /// Not made durable on its own: the index only keeps retention from
    /// dropping what the last session's `undo` needs, and costs an fsync
    /// per write where steps are fsync'd one by one.
    fn touch_session(&mut self, rel: &str, version: Option<u64>) -> Result<(), ShadowError> {
        let path = self.shadow.session_index_path();
        if self.index.is_none() {
            self.index = Some(SessionIndex::load(&path).unwrap_or_default());
        }
        let index = self.index.get_or_insert_with(SessionIndex::default);
        let line = IndexLine {
            path: rel.to_string(),
            version,
        };
        // Every append starts with a newline, which ends a line a crash
        // may have torn (empty lines are skipped).
        let mut text = b"\n".to_vec();
        let json_err = |e: serde_json::Error| ShadowError::write(&path, io::Error::other(e));
        let new_session = index.session != self.session.id();
        if new_session {
            let header = IndexHeader {
                session: self.session.id().to_string(),
            };
            serde_json::to_writer(&mut text, &header).map_err(json_err)?;
            text.push(b'\n');
        } else if index.paths.iter().any(|l| l.path == rel) {
            return Ok(());
        }
        serde_json::to_writer(&mut text, &line).map_err(json_err)?;
        text.push(b'\n');
        use std::io::Write as _;
        let file = if new_session && index.len > INDEX_COMPACT_AT {
            // Only the last session matters: start over, atomically.
            // A fixed name: under the lock only one exists, even after a crash.
            let tmp = path.with_extension("jsonl.tmp");
            let durability = self.durability;
            let r = fs::File::create(&tmp)
                .and_then(|mut f| f.write_all(&text).map(|()| f))
                .and_then(|f| durability.data(&[&f]).map_err(|e| e.1).map(|()| f))
                .and_then(|f| fs::rename(&tmp, &path).map(|()| f));
            index.len = 0;
            r.inspect_err(|_| {
                let _ = fs::remove_file(&tmp);
            })
        } else {
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| f.write_all(&text).map(|()| f))
        }
        .map_err(|e| ShadowError::write(&path, e))?;
        index.len += text.len() as u64;
        if new_session {
            index.session = self.session.id().to_string();
            index.paths.clear();
        }
        index.paths.push(line);
        drop(file);
        Ok(())
    }

    /// Changes the working file `path` from `current` (as just read) by
    /// `change`, write-ahead: the journal records the backup and the change,
    /// the current content is saved in the store, then the file is replaced
    /// atomically (or removed). A crash at any point leaves the file wholly
    /// old or wholly new, with the old content recoverable from the store.
    pub fn apply(
        &mut self,
        path: &RepoPath,
        current: Option<&Current>,
        change: Change<'_>,
    ) -> Result<Replaced, ShadowError> {
        let unchanged = match (current, change.new) {
            (Some(c), Some(n)) => c.bytes == n,
            (None, None) => true,
            _ => false,
        };
        if unchanged {
            return Ok(Replaced {
                changed: false,
                backup: None,
                new_backup: false,
            });
        }
        let id = op_id();
        let temps = self.temps(&path.rel, &path.abs, &id);
        let mut plan = current.map(|c| self.plan_backup(path, c)).transpose()?;

        // The journal says what is about to happen before anything does;
        // the lines become durable with the data below. A crash leaves them
        // without a `done`, which the next transaction settles.
        let mut lines = Vec::with_capacity(2);
        let backup = plan.as_ref().map(Plan::version);
        if let (Some(p), Some((number, true))) = (&plan, backup) {
            let mut e = Entry::new(self.session.id(), Op::Backup, path.rel.as_str());
            e.version = Some(number);
            e.sha256 = Some(p.sha.clone());
            e.size = Some(p.size);
            e.mode = Some(p.mode);
            e.id = Some(id.clone());
            lines.push(e);
        }
        let mut intent = Entry::new(self.session.id(), change.op, path.rel.as_str());
        intent.version = backup.map(|b| b.0);
        intent.sha256 = match change.new {
            Some(n) => Some(sha256_hex(n)),
            None => plan.as_ref().map(|p| p.sha.clone()),
        };
        intent.size = change
            .new
            .map(|n| n.len() as u64)
            .or_else(|| plan.as_ref().map(|p| p.size));
        intent.id = Some(id.clone());
        intent.from = change.from;
        lines.push(intent);
        self.journal.append(&lines, false)?;

        let result = self.apply_steps(path, current, change, &temps, plan.as_mut());
        let mut done = Entry::new(self.session.id(), Op::Done, path.rel.as_str());
        done.id = Some(id);
        let new_object = match result {
            Ok(n) => n,
            Err(e) => {
                for t in [&temps.obj, &temps.copy, &temps.target] {
                    let _ = fs::remove_file(t);
                }
                done.applied = Some(false);
                done.note = Some("failed; the working file was not changed".into());
                let _ = self.journal.append(&[done], false);
                return Err(e);
            }
        };
        self.journal.append(&[done], false)?;
        let created = backup.is_some_and(|b| b.1);
        if let (true, Some(p)) = (created, plan) {
            // Retention trims the store; a failure there never undoes a
            // completed write, and the next write or `shadow prune` retries.
            let _ = self.enforce_retention(&path.rel, new_object, p.names);
        }
        Ok(Replaced {
            changed: true,
            backup: backup.map(|b| b.0),
            new_backup: created,
        })
    }

    /// The steps of [`Tx::apply`] after the journal lines; returns the size
    /// of a content new to the store.
    fn apply_steps(
        &mut self,
        path: &RepoPath,
        current: Option<&Current>,
        change: Change<'_>,
        temps: &Temps,
        plan: Option<&mut Plan>,
    ) -> Result<Option<u64>, ShadowError> {
        // Stage: the backup's content when the store lacks it, and the new
        // content, in temporary files in their own folders.
        let obj_file = match (&plan, current) {
            (Some(p), Some(cur)) if p.reuse.is_none() && !p.obj_exists => Some(
                stage_file(&temps.obj, &cur.bytes, Some(0o444))
                    .map_err(|e| ShadowError::write(&temps.obj, e))?,
            ),
            _ => None,
        };
        let mode = current.map(|c| c.mode).or(change.mode);
        let target_file = match change.new {
            Some(bytes) => {
                let parent = parent_of(&path.abs);
                fs::create_dir_all(parent).map_err(|e| ShadowError::write(parent, e))?;
                Some(
                    stage_file(&temps.target, bytes, mode)
                        .map_err(|e| ShadowError::write(&temps.target, e))?,
                )
            }
            None => None,
        };
        let version = plan.as_ref().map(|p| p.version().0);
        self.touch_session(path.rel.as_str(), version)?;

        // Everything written so far but the session index reaches the disk
        // before any name points at it: one overlapped write-out where
        // directory operations are ordered, else an fsync each. (Fsyncs
        // issued from threads measured slower on ext4.)
        let mut files: Vec<(&Path, &fs::File)> = Vec::with_capacity(3);
        files.extend(obj_file.as_ref().map(|f| (temps.obj.as_path(), f)));
        files.extend(target_file.as_ref().map(|f| (temps.target.as_path(), f)));
        files.push(self.journal.file());
        let durability = self.durability.for_target(parent_of(&path.abs));
        let handles: Vec<&fs::File> = files.iter().map(|f| f.1).collect();
        durability
            .data(&handles)
            .map_err(|(i, e)| ShadowError::write(files[i].0, e))?;

        // The backup gets its version name.
        let mut new_object = None;
        if let (Some(p), Some(cur)) = (plan, current) {
            if p.reuse.is_none() {
                let staged_obj = obj_file.is_some();
                drop(obj_file);
                new_object = self.publish_backup(p, &cur.bytes, temps, staged_obj)?;
                if durability.per_step() {
                    let dir = parent_of(&p.file);
                    sync_dir(dir).map_err(|e| ShadowError::write(dir, e))?;
                    if p.names.len() == 1 {
                        // The path's first version: its folders may be new,
                        // and each is a name in its parent.
                        for up in dir.ancestors().skip(1) {
                            sync_dir(up).map_err(|e| ShadowError::write(up, e))?;
                            if up == self.shadow.store_dir() {
                                break;
                            }
                        }
                    }
                }
            }
        }

        // The new content takes the file's name.
        match target_file {
            Some(file) => {
                drop(file);
                fs::rename(&temps.target, &path.abs)
                    .map_err(|e| ShadowError::write(&path.abs, e))?;
            }
            None => fs::remove_file(&path.abs).map_err(|e| ShadowError::write(&path.abs, e))?,
        }
        // The one fsync that makes the new name durable (and, ordered, every
        // step before it). The change is made whatever it reports: an error
        // here can only mean the name may not survive a power cut, which
        // leaves the old content, itself backed up.
        let _ = sync_dir(parent_of(&path.abs));
        Ok(new_object)
    }
    /// Restores `path` from version `number` (default: the newest), saving
    /// its current content first so that the restore can itself be undone.
    pub fn restore(
        &mut self,
        path: &RepoPath,
        number: Option<u64>,
    ) -> Result<(Version, Replaced), ShadowError> {
        let version = self.shadow.version(&path.rel, number)?;
        let bytes = self.shadow.read_version(&version)?;
        let current = self.read_current(path)?;
        let mode = self.backup_mode(&path.rel, version.number);
        let replaced = self.apply(
            path,
            current.as_ref(),
            Change {
                op: Op::Restore,
                new: Some(&bytes),
                mode,
                from: Some(version.number),
            },
        )?;
        Ok((version, replaced))
    }

    /// Returns the permission bits recorded when `version` of `rel` was
    /// taken, for recreating a deleted file.
    pub(crate) fn backup_mode(&self, rel: &Utf8Path, version: u64) -> Option<u32> {
        self.shadow
            .journal()
            .read()
            .ok()?
            .into_iter()
            .rev()
            .find_map(|e| {
                (e.op == Op::Backup && e.path == rel.as_str() && e.version == Some(version))
                    .then_some(e.mode)
                    .flatten()
            })
    }

    /// Removes a version file, journaling why.
    pub(crate) fn drop_version(&mut self, v: &Version, op: Op) -> Result<(), ShadowError> {
        self.drop_file(&v.path, v.number, &v.file, Some(v.size), op)
    }

    fn drop_file(
        &mut self,
        rel: &Utf8Path,
        number: u64,
        file: &Path,
        size: Option<u64>,
        op: Op,
    ) -> Result<(), ShadowError> {
        // When the only other name of this content is its object, the
        // object goes too, so the store holds what its versions need.
        let meta = match fs::metadata(file) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(ShadowError::read(file, e)),
        };
        let mut orphan = None;
        let mut sha = None;
        if link_count(&meta) == 2 {
            if let Ok(bytes) = fs::read(file) {
                let hex = sha256_hex(&bytes);
                let obj = self.shadow.objects_dir().join(&hex);
                let same = fs::metadata(&obj).ok().and_then(|m| file_id(&m)) == file_id(&meta);
                if same && file_id(&meta).is_some() {
                    orphan = Some(obj);
                }
                sha = Some(hex);
            }
        }
        fs::remove_file(file).map_err(|e| ShadowError::write(file, e))?;
        if let Some(obj) = orphan {
            if fs::remove_file(obj).is_ok() {
                // Keep the running size in step (the next sweep recounts).
                if let Some(total) = self.shadow.known_size() {
                    self.shadow.record_size(total.saturating_sub(meta.len()));
                }
            }
        }
        let mut e = Entry::new(self.session.id(), op, rel.as_str());
        e.version = Some(number);
        e.size = size.or(Some(meta.len()));
        e.sha256 = sha;
        self.journal.append(&[e], false)
    }

    /// Removes the versions `plan` selected, then the contents no version
    /// uses any more; returns the bytes the store holds afterwards.
    pub fn prune(&mut self, plan: &super::PrunePlan) -> Result<u64, ShadowError> {
        for v in &plan.remove {
            self.drop_version(v, Op::Prune)?;
        }
        self.sweep()
    }

    /// Removes objects no version links to any more and temporary files
    /// left by crashes; returns the bytes the store holds afterwards
    /// (distinct contents).
    pub(crate) fn sweep(&mut self) -> Result<u64, ShadowError> {
        let dir = self.shadow.objects_dir();
        let mut total = 0u64;
        let mut seen = HashSet::new();
        if let Ok(entries) = fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let Ok(meta) = entry.metadata() else { continue };
                if name.starts_with(".tmp-") || (meta.is_file() && link_count(&meta) <= 1) {
                    let _ = fs::remove_file(entry.path());
                } else if meta.is_file() {
                    total += meta.len();
                    seen.extend(file_id(&meta));
                }
            }
        }
        // Copies made where hard links are unavailable count too.
        for versions in self.shadow.all_versions()?.values() {
            for v in versions {
                if v.id.is_none_or(|id| seen.insert(id)) {
                    total += v.size;
                }
            }
        }
        self.shadow.record_size(total);
        Ok(total)
    }

    /// Keeps the store within its retention limits after a new version of
    /// `rel`: at most `max_versions` for the path, and at most `max_bytes`
    /// of distinct contents overall, dropping the oldest versions first but
    /// never the newest of a file nor one the last session's `undo` needs.
    /// `names` are the path's versions as the write left them.
    fn enforce_retention(
        &mut self,
        rel: &Utf8Path,
        new_bytes: Option<u64>,
        names: VersionNames,
    ) -> Result<(), ShadowError> {
        let limits = self.shadow.retention.clone();
        if names.len() > limits.max_versions {
            let protected = self
                .shadow
                .protected()
                .remove(rel.as_str())
                .unwrap_or_default();
            let newest = names.last().map(|v| v.0);
            let mut excess = names.len() - limits.max_versions;
            for (number, _, file) in &names {
                if excess == 0 {
                    break;
                }
                if Some(*number) == newest || protected.contains(number) {
                    continue;
                }
                self.drop_file(rel, *number, file, None, Op::Evict)?;
                excess -= 1;
            }
        }
        if let Some(added) = new_bytes {
            let total = match self.shadow.known_size() {
                Some(t) => t + added,
                None => self.sweep()?,
            };
            self.shadow.record_size(total);
            if total > limits.max_bytes {
                let total = self.sweep()?;
                if total > limits.max_bytes {
                    let plan = super::retention::plan(
                        self.shadow,
                        &self.shadow.all_versions()?,
                        &super::retention::Rules {
                            keep: None,
                            older_than: None,
                            max_bytes: Some(limits.max_bytes),
                        },
                    );
                    for v in &plan.remove {
                        self.drop_version(v, Op::Evict)?;
                    }
                    self.sweep()?;
                }
            }
        }
        Ok(())
    }
}

/// Whether version `v` holds exactly `bytes` (same object, else same bytes).
fn same_content(v: &Version, obj: Option<&fs::Metadata>, bytes: &[u8]) -> bool {
    if v.size != bytes.len() as u64 {
        return false;
    }
    if let (Some(a), Some(b)) = (v.id, obj.and_then(file_id)) {
        if a == b {
            return true;
        }
    }
    fs::read(&v.file).is_ok_and(|b| b == bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `content` to `rel` in `session` through a transaction.
    fn write(shadow: &Shadow, session: &str, rel: &str, content: &str) {
        let mut tx = shadow
            .begin(Session::new(session).expect("session"))
            .expect("begin");
        let path = shadow.resolve_rel(Utf8Path::new(rel)).expect("path");
        let current = tx.read_current(&path).expect("read");
        tx.apply(
            &path,
            current.as_ref(),
            Change {
                op: Op::Write,
                new: Some(content.as_bytes()),
                mode: None,
                from: None,
            },
        )
        .expect("apply");
    }

    #[test]
    fn compaction_keeps_the_newest_sessions_whole_and_every_live_backup() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ok = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git init");
        std::fs::write(dir.path().join("a.txt"), "a0\n").expect("write");
        let shadow = Shadow::discover(dir.path()).expect("shadow");
        for n in 0..20 {
            write(
                &shadow,
                &format!("old-{n}"),
                "a.txt",
                &format!("a{}\n", n + 1),
            );
        }
        write(&shadow, "new", "a.txt", "new 1\n");
        write(&shadow, "new", "b.txt", "b1\n");
        write(&shadow, "new", "a.txt", "new 2\n");
        let before = shadow.journal_entries().expect("read");
        let mut tx = shadow
            .begin(Session::new("compact").expect("session"))
            .expect("begin");
        tx.compact_journal(1).expect("compact");
        drop(tx);
        let after = shadow.journal_entries().expect("read");
        // The newest session whole, in order.
        let newest = |es: &[Entry]| -> Vec<Entry> {
            es.iter().filter(|e| e.session == "new").cloned().collect()
        };
        assert!(!newest(&before).is_empty());
        assert_eq!(newest(&after), newest(&before));
        // No other session's steps, but a backup line for every version
        // still in the store.
        let live: Vec<(String, u64)> = shadow
            .all_versions()
            .expect("versions")
            .into_iter()
            .flat_map(|(p, vs)| vs.into_iter().map(move |v| (p.to_string(), v.number)))
            .collect();
        for (path, number) in &live {
            assert!(
                after
                    .iter()
                    .any(|e| e.op == Op::Backup && &e.path == path && e.version == Some(*number)),
                "backup line of {path} v{number} kept"
            );
        }
        assert!(after
            .iter()
            .all(|e| e.session == "new" || e.op == Op::Backup));
        assert!(after.len() < before.len());
        // The journal still takes appends and undo still finds the session.
        write(&shadow, "later", "c.txt", "c1\n");
        let sessions = crate::shadow::sessions(&shadow.journal_entries().expect("read"));
        assert_eq!(sessions, vec!["later".to_string(), "new".to_string()]);
    }

    #[test]
    fn version_names_parse_from_the_right() {
        assert_eq!(
            parse_version_name("pom.xml.v12.20260302-005551"),
            Some(("pom.xml", 12, "20260302-005551"))
        );
        assert_eq!(
            parse_version_name("a.v1.20260101-000000.v3.20260102-000000"),
            Some(("a.v1.20260101-000000", 3, "20260102-000000"))
        );
        assert_eq!(parse_version_name(".pom.xml.fararoni-1-2-3.tmp"), None);
        assert_eq!(parse_version_name("x.v.20260101-000000"), None);
        assert_eq!(parse_version_name("x.v1.2026010-000000"), None);
    }

    #[test]
    fn stamps_round_trip_through_the_clock() {
        for t in [0i64, 1_772_412_951, 951_782_400, 4_102_444_799] {
            assert_eq!(parse_stamp(&Utc::from_unix(t).compact()), Some(t));
        }
    }

    #[test]
    fn hashes_are_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
