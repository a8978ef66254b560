//! The store itself: opening it for a working tree, verifying its folders,
//! listing and reading versions, and moving a store that fails validation
//! aside. Mutations happen in [`super::Tx`] (`tx.rs`).
//!
//! Every path of the store is reached through verified directory handles
//! ([`crate::fsx::dir`]): `.fararoni`, `shadow`, `objects` and every folder below
//! must be real folders on the working tree's device, and the files the
//! store writes in place (journal, session index, size) real files with no
//! other name.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use camino::{Utf8Path, Utf8PathBuf};
use sha2::{Digest as _, Sha256};

use super::journal::{self, Entry, Op};
use super::paths::{self, RepoPath};
use super::reserved::Reserved;
use super::retention::Retention;
use super::session::SessionIndex;
use super::{Notice, ShadowError};
use crate::clock::Utc;
use crate::fsx::dir::{self, why, Access, Dir, Kind};
use crate::git::Repo;
use crate::settings::read::SettingWarning;

/// The store's directory name, at the top of the working tree.
pub const STORE_DIR: &str = ".fararoni";

/// The folder of version files, in the store.
pub(crate) const SHADOW: &str = "shadow";

/// The folder of content-addressed objects, in the store.
pub(crate) const OBJECTS: &str = "objects";

/// The session index, in the store.
pub(crate) const SESSION_INDEX: &str = "session.jsonl";

/// The running size of the store, in the store.
pub(crate) const SIZE: &str = "size";

/// The lines added to `info/exclude`: the store, and stores moved aside.
pub(crate) const EXCLUDE_STORE: &str = "/.fararoni/";
const EXCLUDE_MOVED_ASIDE: &str = "/.fararoni.corrupt-*";

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

/// One backed-up version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The repository-relative path it is a version of.
    pub path: Utf8PathBuf,
    /// Its number, counting up per path from 1.
    pub number: u64,
    /// When it was taken, `YYYYMMDD-HHMMSS` UTC.
    pub stamp: String,
    /// The version file (for people; reads go through verified handles).
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

    /// Returns the version file's name.
    pub(crate) fn file_name(&self) -> &str {
        self.file.file_name().and_then(|n| n.to_str()).unwrap_or("")
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

/// A path's versions by name only: (number, stamp, file name), oldest
/// first.
pub(crate) type VersionNames = Vec<(u64, String, String)>;

/// Returns the versions of the file `name` in the version folder `vdir`, by
/// name only. Anything but a regular file is not a version.
pub(crate) fn version_names(vdir: &Dir, name: &str) -> Result<VersionNames, ShadowError> {
    let entries = vdir
        .entries()
        .map_err(|e| ShadowError::from_io(vdir.path(), e, false))?;
    let mut out: VersionNames = dir::utf8_entries(entries)
        .filter(|(_, kind)| *kind == Kind::File)
        .filter_map(|(file, _)| {
            let (base, number, stamp) = parse_version_name(&file)?;
            (base == name).then(|| (number, stamp.to_string(), file.clone()))
        })
        .collect();
    out.sort_by_key(|v| v.0);
    Ok(out)
}

/// Returns the versions of every file of the version folder `vdir`, by
/// file name: one listing for a whole folder, where [`version_names`]
/// lists it again for each file.
pub(crate) fn folder_versions(
    vdir: &Dir,
) -> Result<std::collections::HashMap<String, VersionNames>, ShadowError> {
    let entries = vdir
        .entries()
        .map_err(|e| ShadowError::from_io(vdir.path(), e, false))?;
    let mut out: std::collections::HashMap<String, VersionNames> = Default::default();
    for (file, _) in dir::utf8_entries(entries).filter(|(_, kind)| *kind == Kind::File) {
        if let Some((base, number, stamp)) = parse_version_name(&file) {
            let v = (number, stamp.to_string(), file.clone());
            out.entry(base.to_string()).or_default().push(v);
        }
    }
    for names in out.values_mut() {
        names.sort_by_key(|v| v.0);
    }
    Ok(out)
}

/// Returns the version `file` of `rel` in `vdir`, when it is a regular file.
pub(crate) fn version_of(
    vdir: &Dir,
    rel: &Utf8Path,
    number: u64,
    stamp: &str,
    file: &str,
) -> Option<Version> {
    let st = vdir.stat(file).ok()??;
    (st.kind == Kind::File).then(|| Version {
        path: rel.to_path_buf(),
        number,
        stamp: stamp.to_string(),
        file: vdir.join(file),
        size: st.size,
        id: cfg!(unix).then_some(st.id),
    })
}

/// Opens one of the store's folders under `parent`: a real folder (never a
/// symlink) on the working tree's device `dev`.
pub(crate) fn store_sub(
    parent: &Dir,
    name: &str,
    create: bool,
    dev: u64,
) -> Result<Option<Dir>, ShadowError> {
    let d = parent
        .sub(name, create)
        .map_err(|e| ShadowError::from_io(parent.join(name), e, create))?;
    match d {
        Some(d) if d.dev() != dev => Err(ShadowError::Untrusted {
            path: d.path().to_path_buf(),
            why: why::OTHER_DEVICE.to_string(),
        }),
        d => Ok(d),
    }
}

/// Opens the version folder of `rel` (its parent folders mirrored under
/// `shadow/`), creating it when `create`; every folder on the way is
/// returned, outermost first (empty for a file at the top).
pub(crate) fn version_dirs(
    shadow: &Dir,
    rel: &Utf8Path,
    create: bool,
) -> Result<Option<Vec<Dir>>, ShadowError> {
    let mut chain: Vec<Dir> = Vec::new();
    if let Some(parent) = rel.parent() {
        for c in parent.components() {
            let next = {
                let here = chain.last().unwrap_or(shadow);
                store_sub(here, c.as_str(), create, shadow.dev())?
            };
            match next {
                Some(d) => chain.push(d),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(chain))
}

/// Reads a file of the store, or `None` when absent.
pub(crate) fn read_store_file(dir: &Dir, name: &str) -> Result<Option<Vec<u8>>, ShadowError> {
    let path = || dir.join(name);
    match dir.open_stat(name, Access::Read) {
        Ok(Some((f, st))) => dir::read_all(f, st.size)
            .map(Some)
            .map_err(|e| ShadowError::from_io(path(), e, false)),
        Ok(None) => Ok(None),
        Err(e) => Err(ShadowError::from_io(path(), e, false)),
    }
}

/// The content of a working file as read before a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Current {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its permission bits.
    pub mode: u32,
}

/// What [`super::Tx::apply`] did.
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

/// A change to a working file, applied by [`super::Tx::apply`].
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

/// What the journal recorded when a version was taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BackupRecord {
    /// The file's permission bits.
    pub(crate) mode: Option<u32>,
    /// The content's SHA-256.
    pub(crate) sha256: Option<String>,
    /// The content's size.
    pub(crate) size: Option<u64>,
}

/// Returns the newest `backup` line of version `version` of `rel`.
pub(crate) fn backup_record(
    entries: &[Entry],
    rel: &Utf8Path,
    version: u64,
) -> Option<BackupRecord> {
    entries.iter().rev().find_map(|e| {
        (e.op == Op::Backup && e.path == rel.as_str() && e.version == Some(version)).then(|| {
            BackupRecord {
                mode: e.mode,
                sha256: e.sha256.clone(),
                size: e.size,
            }
        })
    })
}

/// Checks `bytes`, read from version `version` of `rel`, against what the
/// journal recorded when the version was taken (when it recorded anything).
pub(crate) fn verify_version(
    entries: &[Entry],
    rel: &Utf8Path,
    version: u64,
    bytes: &[u8],
) -> Result<Option<BackupRecord>, ShadowError> {
    let record = backup_record(entries, rel, version);
    if let Some(r) = &record {
        let size_ok = r.size.is_none_or(|s| s == bytes.len() as u64);
        let sha_ok = r.sha256.as_deref().is_none_or(|s| s == sha256_hex(bytes));
        if !(size_ok && sha_ok) {
            return Err(ShadowError::VersionMismatch {
                path: rel.to_path_buf(),
                version,
            });
        }
    }
    Ok(record)
}

/// The shadow store of one working tree.
#[derive(Debug, Clone)]
pub struct Shadow {
    pub(crate) root: PathBuf,
    pub(crate) common_dir: PathBuf,
    store: PathBuf,
    pub(crate) retention: Retention,
    pub(crate) reserved: Reserved,
    warnings: Vec<SettingWarning>,
    /// What the store did on its own, until the caller takes it.
    notices: Arc<Mutex<Vec<Notice>>>,
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
        let root = std::fs::canonicalize(workdir).map_err(|e| ShadowError::read(workdir, e))?;
        if root.to_str().is_none() {
            return Err(ShadowError::NonUtf8 { path: root });
        }
        let common_dir = std::fs::canonicalize(repo.common_dir())
            .map_err(|e| ShadowError::read(repo.common_dir(), e))?;
        let (retention, warnings) = Retention::from_config(repo)?;
        Ok(Shadow {
            store: root.join(STORE_DIR),
            reserved: Reserved::of(repo, &root),
            root,
            common_dir,
            retention,
            warnings,
            notices: Arc::new(Mutex::new(Vec::new())),
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

    /// Returns the `fararoni.shadow.*` settings that were weaker than their
    /// floor (the floor is in force).
    pub fn setting_warnings(&self) -> &[SettingWarning] {
        &self.warnings
    }

    /// Returns, and forgets, what the store did on its own since the last
    /// call (a store moved aside): for the caller to tell the user, whether
    /// the operation that did it succeeded or not.
    pub fn take_notices(&self) -> Vec<Notice> {
        self.notices
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    /// Replaces the retention limits (for tools and tests).
    pub fn with_retention(mut self, retention: Retention) -> Shadow {
        self.retention = retention;
        self
    }

    /// Resolves `input`, relative to `base`, to a file of the working tree.
    pub fn resolve(&self, base: &Path, input: &Path) -> Result<RepoPath, ShadowError> {
        paths::resolve(&self.root, base, input, &self.reserved)
    }

    /// Resolves a repository-relative path.
    pub fn resolve_rel(&self, rel: &Utf8Path) -> Result<RepoPath, ShadowError> {
        paths::resolve(&self.root, &self.root, rel.as_std_path(), &self.reserved)
    }

    /// Refuses a repository-relative path read from the store (the journal)
    /// unless it is in normal form and outside every reserved place, judged
    /// without following anything.
    pub(crate) fn check_recorded(&self, rel: &str) -> Result<(), &'static str> {
        if !paths::is_normal_rel(rel) {
            return Err("its path is not a normal relative path inside the working tree");
        }
        self.reserved
            .check(Utf8Path::new(rel), &self.root.join(rel))
            .map_err(|_| "its path names a place git-fararoni never writes (git dir, hooks, store)")
    }

    /// Opens the working tree's top.
    pub(crate) fn open_root(&self) -> Result<Dir, ShadowError> {
        Dir::open_root(&self.root).map_err(|e| ShadowError::read(&self.root, e))
    }

    /// Opens `.fararoni` and `sub` in it for reading (`None`: absent).
    fn read_dir(&self, sub: Option<&str>) -> Result<Option<Dir>, ShadowError> {
        let root = self.open_root()?;
        let Some(store) = store_sub(&root, STORE_DIR, false, root.dev())? else {
            return Ok(None);
        };
        match sub {
            None => Ok(Some(store)),
            Some(name) => store_sub(&store, name, false, root.dev()),
        }
    }

    /// Opens the version folder of `rel` for reading.
    fn read_version_dir(&self, rel: &Utf8Path) -> Result<Option<Dir>, ShadowError> {
        let Some(shadow) = self.read_dir(Some(SHADOW))? else {
            return Ok(None);
        };
        Ok(version_dirs(&shadow, rel, false)?.map(|mut chain| chain.pop().unwrap_or(shadow)))
    }

    /// Returns the versions of `rel`, oldest first.
    pub fn versions(&self, rel: &Utf8Path) -> Result<Vec<Version>, ShadowError> {
        let (Some(name), Some(vdir)) = (rel.file_name(), self.read_version_dir(rel)?) else {
            return Ok(Vec::new());
        };
        Ok(version_names(&vdir, name)?
            .into_iter()
            .filter_map(|(number, stamp, file)| version_of(&vdir, rel, number, &stamp, &file))
            .collect())
    }

    /// Returns the versions of every file in the store, by path.
    pub fn all_versions(&self) -> Result<BTreeMap<Utf8PathBuf, Vec<Version>>, ShadowError> {
        match self.read_dir(Some(SHADOW))? {
            Some(shadow) => all_versions_in(shadow),
            None => Ok(BTreeMap::new()),
        }
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
        let vdir = self
            .read_version_dir(&v.path)?
            .ok_or_else(|| ShadowError::NoSuchVersion {
                path: v.path.clone(),
                version: v.number,
            })?;
        read_store_file(&vdir, v.file_name())?.ok_or_else(|| ShadowError::NoSuchVersion {
            path: v.path.clone(),
            version: v.number,
        })
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
        let Ok(Some(objects)) = self.read_dir(Some(OBJECTS)) else {
            return out;
        };
        let Ok(entries) = objects.entries() else {
            return out;
        };
        for (name, kind) in dir::utf8_entries(entries) {
            if kind != Kind::File || !journal::is_sha256_hex(&name) {
                continue;
            }
            if let Ok(Some(st)) = objects.stat(&name) {
                out.insert(st.id, name);
            }
        }
        out
    }

    /// Returns every journal entry, oldest first (an error when a line is
    /// one this store could not have written).
    pub fn journal_entries(&self) -> Result<Vec<Entry>, ShadowError> {
        match self.read_dir(None)? {
            Some(store) => journal::read(&store),
            None => Ok(Vec::new()),
        }
    }

    /// Returns the versions the last session's `undo` needs, by path.
    pub(crate) fn protected(&self) -> HashMap<String, HashSet<u64>> {
        let mut out: HashMap<String, HashSet<u64>> = HashMap::new();
        let index = self
            .read_dir(None)
            .ok()
            .flatten()
            .and_then(|store| SessionIndex::load(&store, None));
        if let Some(index) = index {
            for line in index.paths {
                if let Some(v) = line.version {
                    out.entry(line.path).or_default().insert(v);
                }
            }
        }
        out
    }

    /// Moves the store aside into the git dir, to
    /// `<common dir>/fararoni/quarantine/<time>` (never deleting anything
    /// in it, and out of the working tree, where `git add -A` would commit
    /// it), and records a notice. `.fararoni` is renamed as whatever it is:
    /// a symlink moves, not its target. Only when the git dir is on another
    /// file system (a rename cannot cross) does it stay in the working
    /// tree, as `.fararoni.corrupt-<time>`, kept out of git by
    /// `info/exclude` and refused by the pre-commit hook.
    pub(crate) fn quarantine(&self, root: &Dir, path: &Path, why: &str) -> Result<(), ShadowError> {
        let failed = |source| ShadowError::Quarantine {
            path: path.to_path_buf(),
            why: why.to_string(),
            source,
        };
        let stamp = Utc::now().compact();
        let free = |dir: &Dir, base: &str| -> Result<String, ShadowError> {
            let mut name = base.to_string();
            let mut n = 1;
            while dir.stat(&name).map_err(failed)?.is_some() {
                n += 1;
                name = format!("{base}-{n}");
            }
            Ok(name)
        };
        let quarantine = quarantine_dir(&self.common_dir);
        let moved = match &quarantine {
            Ok(q) => {
                let name = free(q, &stamp)?;
                match root.rename(STORE_DIR, q, &name) {
                    Ok(()) => {
                        let _ = q.sync();
                        Some(q.join(&name))
                    }
                    Err(e) if e.raw_os_error() == Some(EXDEV) => None,
                    Err(e) => return Err(failed(e)),
                }
            }
            Err(_) => None,
        };
        let to = match moved {
            Some(to) => to,
            None => {
                let name = free(root, &format!("{STORE_DIR}.corrupt-{stamp}"))?;
                root.rename(STORE_DIR, root, &name).map_err(failed)?;
                self.ensure_excluded(&[EXCLUDE_STORE, EXCLUDE_MOVED_ASIDE])?;
                root.join(&name)
            }
        };
        let _ = root.sync();
        self.ensure_excluded(&[EXCLUDE_STORE])?;
        if let Ok(mut notices) = self.notices.lock() {
            notices.push(Notice::MovedAside {
                path: path.to_path_buf(),
                why: why.to_string(),
                to,
            });
        }
        Ok(())
    }

    /// Adds each of `lines` to the common git dir's `info/exclude` unless
    /// an equivalent line is there. The file is opened without following a
    /// symlink: a write outside the git dir is refused.
    pub(crate) fn ensure_excluded(&self, lines: &[&str]) -> Result<(), ShadowError> {
        ensure_excluded(&self.common_dir, lines)
    }
}

/// Makes sure the store (`/.fararoni/`) is in the `info/exclude` of the
/// repository whose shared git dir is `common_dir` (what `post-checkout`
/// checks, without opening the store).
pub fn exclude_store(common_dir: &Path) -> Result<(), ShadowError> {
    ensure_excluded(common_dir, &[EXCLUDE_STORE])
}

/// Adds each of `lines` to `common_dir`'s `info/exclude` unless an
/// equivalent line is there, never following a symlink.
fn ensure_excluded(common_dir: &Path, lines: &[&str]) -> Result<(), ShadowError> {
    {
        let info = common_dir.join("info");
        let path = info.join("exclude");
        let git_dir = Dir::open_root(common_dir).map_err(|e| ShadowError::read(common_dir, e))?;
        let Some(info_dir) = git_dir
            .sub("info", true)
            .map_err(|e| ShadowError::write(&info, e))?
        else {
            return Err(ShadowError::write(
                &info,
                std::io::ErrorKind::NotFound.into(),
            ));
        };
        let text = match info_dir.open_stat("exclude", Access::Read) {
            Ok(Some((f, st))) => {
                dir::read_all(f, st.size).map_err(|e| ShadowError::read(&path, e))?
            }
            Ok(None) => Vec::new(),
            Err(e) => return Err(ShadowError::read(&path, e)),
        };
        let text = String::from_utf8_lossy(&text);
        let present = |line: &str| {
            let bare = line.trim_start_matches('/').trim_end_matches('/');
            text.lines().any(|l| {
                let l = l.trim();
                let l = l.strip_suffix("/*").unwrap_or(l);
                l.trim_start_matches('/').trim_end_matches('/') == bare
            })
        };
        let missing: Vec<&str> = lines.iter().copied().filter(|l| !present(l)).collect();
        if missing.is_empty() {
            return Ok(());
        }
        let mut add = String::new();
        if !text.is_empty() && !text.ends_with('\n') {
            add.push('\n');
        }
        for line in missing {
            add.push_str(match line {
                EXCLUDE_MOVED_ASIDE => {
                    "# git-fararoni: shadow stores moved aside after failing validation\n"
                }
                _ => "# git-fararoni: the shadow store of pre-write backups\n",
            });
            add.push_str(line);
            add.push('\n');
        }
        use std::io::Write as _;
        info_dir
            .open("exclude", Access::Append)
            .and_then(|f| match f {
                Some(mut f) => f.write_all(add.as_bytes()),
                None => Err(std::io::ErrorKind::NotFound.into()),
            })
            .map_err(|e| ShadowError::write(&path, e))
    }
}

/// The error a rename across file systems fails with.
#[cfg(unix)]
const EXDEV: i32 = 18;
#[cfg(not(unix))]
const EXDEV: i32 = 17;

/// The folder stores that failed validation are moved to:
/// `<common dir>/fararoni/quarantine`, created as real folders (never
/// through a symlink).
pub(crate) fn quarantine_dir(common_dir: &Path) -> std::io::Result<Dir> {
    let git = Dir::open_root(common_dir)?;
    let ours = git
        .sub("fararoni", true)?
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))?;
    ours.sub("quarantine", true)?
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
}

/// Returns the versions of every file under the version folder `shadow`.
pub(crate) fn all_versions_in(
    shadow: Dir,
) -> Result<BTreeMap<Utf8PathBuf, Vec<Version>>, ShadowError> {
    let mut out: BTreeMap<Utf8PathBuf, Vec<Version>> = BTreeMap::new();
    let dev = shadow.dev();
    let mut stack = vec![(shadow, Utf8PathBuf::new())];
    while let Some((dir, rel_dir)) = stack.pop() {
        let entries = dir
            .entries()
            .map_err(|e| ShadowError::from_io(dir.path(), e, false))?;
        for (name, kind) in dir::utf8_entries(entries) {
            match kind {
                Kind::Dir => {
                    if let Some(sub) = store_sub(&dir, &name, false, dev)? {
                        stack.push((sub, rel_dir.join(&name)));
                    }
                }
                Kind::File => {
                    if let Some((base, number, stamp)) = parse_version_name(&name) {
                        let rel = rel_dir.join(base);
                        if let Some(v) = version_of(&dir, &rel, number, stamp, &name) {
                            out.entry(rel).or_default().push(v);
                        }
                    }
                }
                // A symlink or special file is never a version.
                Kind::Symlink | Kind::Other => {}
            }
        }
    }
    for versions in out.values_mut() {
        versions.sort_by_key(|v| v.number);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
