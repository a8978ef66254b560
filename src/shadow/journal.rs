//! The journal `.fararoni/journal.jsonl`: one JSON object per line for every
//! step the store takes (backup, write, restore, undo, remove, done,
//! recover, evict, prune). Appends that must survive a power cut are
//! fsync'd; a line torn by a crash is skipped on reading and sealed with a
//! newline before the next append.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::paths::is_normal_rel;
use super::session::Session;
use super::ShadowError;
use crate::fsx::dir::{self, Access, Dir};

/// The journal's file name in the store.
pub(crate) const JOURNAL: &str = "journal.jsonl";

/// The SHA-256 of no bytes.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Whether `id` has the exact form of an operation id this store writes:
/// `<pid>-<8 hex digits>-<counter>` (see `store::op_id`).
pub(crate) fn is_op_id(id: &str) -> bool {
    let mut parts = id.split('-');
    let (Some(pid), Some(nanos), Some(n), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let digits = |s: &str, max: usize| {
        !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit())
    };
    digits(pid, 10)
        && nanos.len() == 8
        && nanos
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && digits(n, 20)
}

/// Whether `s` is a SHA-256 as this store writes it: 64 lowercase hex digits.
pub(crate) fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// What a journal line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// The current content of `path` was saved as `version`.
    Backup,
    /// `path` is about to get new content (`sha256`, `size`) by a guarded
    /// write; `version` holds what it replaces (`null`: no file before).
    Write,
    /// Like `write`, by `shadow restore` from version `from`.
    Restore,
    /// Like `write`, by `undo`.
    Undo,
    /// `path` is about to be removed by `undo` (a file the session created);
    /// `version` holds its content.
    Remove,
    /// The step with the same `id` completed.
    Done,
    /// A step interrupted by a crash was cleaned up; `note` says whether its
    /// change had been applied.
    Recover,
    /// `path` was changed by a program outside the store, seen after the
    /// fact; `version` holds what it replaced (`null`: no file before),
    /// `sha256`/`size` the new content (absent: the program deleted it).
    External,
    /// Retention dropped `version` of `path`.
    Evict,
    /// `shadow prune` dropped `version` of `path`.
    Prune,
}

impl Op {
    /// Returns whether the op changes a working file (the ones `undo` reverts).
    pub fn changes_file(self) -> bool {
        matches!(
            self,
            Op::Write | Op::Restore | Op::Undo | Op::Remove | Op::External
        )
    }

    /// Returns whether every line of the op carries an operation id.
    fn has_id(self) -> bool {
        !matches!(self, Op::Evict | Op::Prune)
    }
}

/// One journal line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// When, RFC 3339 UTC.
    pub time: String,
    /// The session that made the step.
    pub session: String,
    /// What happened.
    pub op: Op,
    /// The repository-relative path.
    pub path: String,
    /// The version concerned (see [`Op`]).
    #[serde(default)]
    pub version: Option<u64>,
    /// The SHA-256 of the content concerned, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The size of the content concerned, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The operation id tying a step to its `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The file's permission bits (backups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// The version a restore copied from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u64>,
    /// A remark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// On `done` and `recover`: whether the step's change reached the
    /// working file (absent on a `done` that completed normally).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
}

impl Entry {
    /// Returns why the entry is not one this store could have written
    /// (`None`: it could have). The journal is untrusted input: recovery,
    /// `undo` and restores act only on entries that pass.
    pub fn invalid(&self) -> Option<&'static str> {
        let rules: [(bool, &'static str); 11] = [
            (
                Session::new(self.session.clone()).is_err(),
                "its session id is not one git-fararoni accepts",
            ),
            (
                !is_normal_rel(&self.path),
                "its path is not a normal relative path inside the working tree",
            ),
            (
                self.id.as_deref().is_some_and(|id| !is_op_id(id)),
                "its operation id is not of the form git-fararoni writes",
            ),
            (
                self.op.has_id() && self.id.is_none(),
                "it lacks the operation id such a step always carries",
            ),
            (
                self.sha256.as_deref().is_some_and(|s| !is_sha256_hex(s)),
                "its sha256 is not 64 lowercase hex digits",
            ),
            (
                self.size == Some(0) && self.sha256.as_deref().is_some_and(|s| s != EMPTY_SHA256),
                "its size is 0 but its sha256 is not that of no bytes",
            ),
            (
                self.version == Some(0) || self.from == Some(0),
                "version numbers start at 1",
            ),
            (
                self.mode.is_some_and(|m| m > 0o7777),
                "its mode has bits beyond the permission bits",
            ),
            (
                matches!(self.op, Op::Backup | Op::Remove)
                    && (self.version.is_none() || self.sha256.is_none() || self.size.is_none()),
                "a backup or removal must record its version, sha256 and size",
            ),
            (
                matches!(self.op, Op::Write | Op::Restore | Op::Undo)
                    && (self.sha256.is_none()
                        || self.size.is_none()
                        || (self.op == Op::Write) == self.from.is_some()),
                "a change must record the new content's sha256 and size, and a restore or undo its source version",
            ),
            (
                self.op == Op::External
                    && (self.sha256.is_some() != self.size.is_some() || self.from.is_some()),
                "an external change records the new content's sha256 and size together, or neither",
            ),
        ];
        rules.iter().find(|(bad, _)| *bad).map(|(_, why)| *why)
    }

    /// Creates an entry stamped now.
    pub fn new(session: &str, op: Op, path: &str) -> Entry {
        Entry {
            time: crate::clock::Utc::now().rfc3339(),
            session: session.to_string(),
            op,
            path: path.to_string(),
            version: None,
            sha256: None,
            size: None,
            id: None,
            mode: None,
            from: None,
            note: None,
            applied: None,
        }
    }
}

/// Parses one journal line: `None` for a torn or foreign line (skipped),
/// else the entry or why it is not one this store could have written.
fn parse(line: &[u8]) -> Option<Result<Entry, &'static str>> {
    let e = serde_json::from_slice::<Entry>(line).ok()?;
    Some(match e.invalid() {
        Some(why) => Err(why),
        None => Ok(e),
    })
}

/// Opens the journal of `store` for appending, creating it, and ends a
/// line a crash may have torn so that the next append starts cleanly.
pub(crate) fn open(store: &Dir) -> Result<JournalWriter, ShadowError> {
    let path = store.join(JOURNAL);
    let err = |e| ShadowError::from_io(&path, e, true);
    let (mut file, stat) = store
        .open_stat(JOURNAL, Access::Append)
        .map_err(err)?
        .ok_or_else(|| err(std::io::ErrorKind::NotFound.into()))?;
    let mut len = stat.size;
    if len > 0 {
        file.seek(SeekFrom::Start(len - 1)).map_err(err)?;
        let mut last = [0u8];
        file.read_exact(&mut last).map_err(err)?;
        if last[0] != b'\n' {
            file.write_all(b"\n").map_err(err)?;
            len += 1;
        }
    }
    Ok(JournalWriter {
        path,
        file,
        len,
        torn: false,
    })
}

/// Returns every entry of the journal of `store`, oldest first. Torn or
/// foreign lines are skipped; a line that parses as an entry but could not
/// have been written by this store makes the whole journal untrusted.
pub(crate) fn read(store: &Dir) -> Result<Vec<Entry>, ShadowError> {
    let path = store.join(JOURNAL);
    let text = match store.open_stat(JOURNAL, Access::Read) {
        Ok(Some((f, st))) => {
            dir::read_all(f, st.size).map_err(|e| ShadowError::from_io(&path, e, false))?
        }
        Ok(None) => return Ok(Vec::new()),
        Err(e) => return Err(ShadowError::from_io(&path, e, false)),
    };
    let mut out = Vec::new();
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        match parse(line) {
            None => {}
            Some(Ok(e)) => out.push(e),
            Some(Err(why)) => {
                return Err(ShadowError::Untrusted {
                    path,
                    why: format!("line {}: {why}", n + 1),
                })
            }
        }
    }
    Ok(out)
}

/// Returns a mark of the journal of `store`: a digest of its first line,
/// which changes when the store is deleted and started again (or the
/// journal compacted). `None` when it is empty or unreadable.
pub(crate) fn first_mark(store: &Dir) -> Option<String> {
    use std::io::Read as _;
    let (file, _) = store.open_stat(JOURNAL, Access::Read).ok()??;
    let mut head = Vec::with_capacity(4096);
    file.take(4096).read_to_end(&mut head).ok()?;
    let line = head
        .split(|&b| b == b'\n')
        .next()
        .filter(|l| !l.is_empty())?;
    Some(super::store::sha256_hex(line))
}

/// The journal, open for appending (held by a transaction).
#[derive(Debug)]
pub(crate) struct JournalWriter {
    path: PathBuf,
    file: File,
    /// The file's length: only this writer appends to it, under the lock.
    len: u64,
    /// The last write failed, perhaps midway through a line.
    torn: bool,
}

impl JournalWriter {
    /// Appends `entries`, fsyncing them when `sync`.
    pub(crate) fn append(&mut self, entries: &[Entry], sync: bool) -> Result<(), ShadowError> {
        self.write(entries)?;
        if sync {
            self.file
                .sync_all()
                .map_err(|e| ShadowError::write(&self.path, e))?;
        }
        Ok(())
    }

    /// Returns the journal's size in bytes (0 when it cannot be read).
    pub(crate) fn len(&self) -> u64 {
        if self.torn {
            // A failed write may have left part of a line.
            return self.file.metadata().map_or(0, |m| m.len());
        }
        self.len
    }

    /// Returns the file, for the caller to make appended lines durable.
    pub(crate) fn file(&self) -> (&Path, &File) {
        (&self.path, &self.file)
    }

    /// Returns the last change (`write`, `restore`, `undo`, `remove`) when
    /// no `done` or `recover` of its id follows it: a step a crash cut
    /// short. Changes run one at a time, so only the last can be unsettled;
    /// the journal is read backwards from its end, a few KB in the usual
    /// case, until that change is found. The change is validated
    /// ([`Entry::invalid`]) before it is returned: recovery acts on it.
    pub(crate) fn unfinished(&self) -> Result<Option<Entry>, ShadowError> {
        let err = |e| ShadowError::read(&self.path, e);
        let len = if self.torn {
            self.file.metadata().map_err(err)?.len()
        } else {
            self.len
        };
        let mut window = 4096u64;
        loop {
            let start = len.saturating_sub(window);
            let mut buf = vec![0u8; (len - start) as usize];
            read_at(&self.file, &mut buf, start).map_err(err)?;
            let mut lines: Vec<&[u8]> = buf.split(|&b| b == b'\n').collect();
            if start > 0 {
                lines.remove(0); // cut mid-line
            }
            let mut settled: Vec<String> = Vec::new();
            for e in lines
                .iter()
                .rev()
                .filter_map(|l| serde_json::from_slice::<Entry>(l).ok())
            {
                if matches!(e.op, Op::Done | Op::Recover) {
                    settled.extend(e.id);
                } else if e.op.changes_file() {
                    // Without an id (not written by this store) nothing
                    // could settle it: leave it be.
                    let done = e.id.as_ref().is_none_or(|id| settled.contains(id));
                    if done {
                        return Ok(None);
                    }
                    if let Some(why) = e.invalid() {
                        return Err(ShadowError::Untrusted {
                            path: self.path.clone(),
                            why: format!("its last change: {why}"),
                        });
                    }
                    return Ok(Some(e));
                }
            }
            if start == 0 {
                return Ok(None);
            }
            window = window.saturating_mul(8);
        }
    }

    fn write(&mut self, entries: &[Entry]) -> Result<(), ShadowError> {
        let err = |e| ShadowError::write(&self.path, e);
        let mut buf = Vec::with_capacity(256 * entries.len() + 1);
        if self.torn {
            // A failed write may have left half a line: end it first.
            buf.push(b'\n');
        }
        for e in entries {
            serde_json::to_writer(&mut buf, e).map_err(|e| err(std::io::Error::other(e)))?;
            buf.push(b'\n');
        }
        self.torn = true;
        self.file.write_all(&buf).map_err(err)?;
        self.torn = false;
        self.len += buf.len() as u64;
        Ok(())
    }
}

/// Fills `buf` from `file` at `offset`.
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt as _;
        file.read_exact_at(buf, offset)
    }
    #[cfg(not(unix))]
    {
        let mut f = file;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation id of the form the store writes.
    fn id(n: u32) -> String {
        format!("4242-0badf00d-{n}")
    }

    /// A valid entry of `op` with operation id `n`.
    fn entry(op: Op, n: u32) -> Entry {
        let mut e = Entry::new("s1", op, "src/a.rs");
        e.id = op.has_id().then(|| id(n));
        if op.changes_file() || op == Op::Backup {
            e.sha256 = Some("ab".repeat(32));
            e.size = Some(3);
        }
        if matches!(op, Op::Backup | Op::Remove | Op::Evict) {
            e.version = Some(1);
        }
        if matches!(op, Op::Restore | Op::Undo) {
            e.from = Some(1);
        }
        e
    }

    fn store() -> (tempfile::TempDir, Dir) {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = Dir::open_root(dir.path()).expect("open");
        (dir, d)
    }

    #[test]
    fn torn_lines_are_skipped_and_sealed() {
        let (dir, store) = store();
        let file = dir.path().join(JOURNAL);
        let mut e = entry(Op::Write, 1);
        e.path = "a b/ñ.txt".into();
        e.version = Some(3);
        open(&store)
            .and_then(|mut w| w.append(std::slice::from_ref(&e), true))
            .expect("append");
        std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .and_then(|mut f| f.write_all(b"{\"time\":\"2026"))
            .expect("tear");
        let mut w = open(&store).expect("open seals");
        w.append(std::slice::from_ref(&e), false).expect("append");
        let read = read(&store).expect("read");
        assert_eq!(read, vec![e.clone(), e]);
    }

    #[test]
    fn entries_this_store_could_not_have_written_are_invalid() {
        for op in [
            Op::Backup,
            Op::Write,
            Op::Restore,
            Op::Undo,
            Op::Remove,
            Op::Done,
            Op::Recover,
            Op::Evict,
            Op::Prune,
        ] {
            assert_eq!(entry(op, 1).invalid(), None, "{op:?}");
        }
        let forged: [fn(&mut Entry); 13] = [
            |e| e.path = "../outside/victim.txt".into(),
            |e| e.path = "/etc/passwd".into(),
            |e| e.path = "a/../../b".into(),
            |e| e.path = String::new(),
            |e| e.id = Some("../../.git/hooks/pre-commit".into()),
            |e| e.id = Some("crash-1".into()),
            |e| e.id = Some("1-0BADF00D-2".into()),
            |e| e.id = None,
            |e| e.sha256 = Some("00".into()),
            |e| e.sha256 = None,
            |e| e.version = Some(0),
            |e| e.session = "a b".into(),
            |e| {
                e.size = Some(0);
            },
        ];
        for (i, f) in forged.iter().enumerate() {
            let mut e = entry(Op::Write, 1);
            f(&mut e);
            assert!(e.invalid().is_some(), "forgery {i}: {e:?}");
        }
        assert!(is_op_id("12-0badf00d-0"));
        assert!(!is_op_id("12-badf00d-0"));
        assert!(!is_op_id("12-0badf00d-0-1"));
    }

    #[test]
    fn a_forged_line_makes_the_journal_untrusted() {
        let (dir, store) = store();
        let mut w = open(&store).expect("open");
        w.append(&[entry(Op::Write, 1), entry(Op::Done, 1)], false)
            .expect("append");
        let mut bad = entry(Op::Write, 2);
        bad.path = "../outside/victim.txt".into();
        w.append(std::slice::from_ref(&bad), false).expect("append");
        assert!(matches!(
            read(&store),
            Err(ShadowError::Untrusted { ref why, .. }) if why.starts_with("line 3:")
        ));
        assert!(matches!(w.unfinished(), Err(ShadowError::Untrusted { .. })));
        // Foreign lines (not entries at all) are skipped, as torn ones are.
        let file = dir.path().join(JOURNAL);
        std::fs::write(&file, "{\"op\":\"write\",\"path\":\"../x\"}\nnot json\n").expect("write");
        assert_eq!(read(&store).expect("read"), Vec::new());
    }

    #[test]
    fn the_last_change_without_its_done_is_unfinished() {
        let (_dir, store) = store();
        let mut w = open(&store).expect("open");
        assert_eq!(w.unfinished().expect("read"), None, "an empty journal");
        w.append(&[entry(Op::Backup, 1), entry(Op::Write, 1)], false)
            .expect("append");
        assert_eq!(
            w.unfinished().expect("read").and_then(|e| e.id),
            Some(id(1))
        );
        w.append(&[entry(Op::Done, 1), entry(Op::Evict, 1)], false)
            .expect("append");
        assert_eq!(w.unfinished().expect("read"), None);
        w.append(&[entry(Op::Restore, 2)], false).expect("append");
        assert_eq!(
            w.unfinished().expect("read").map(|e| e.op),
            Some(Op::Restore)
        );
        w.append(&[entry(Op::Recover, 2)], false).expect("append");
        assert_eq!(w.unfinished().expect("read"), None);
        // A `done` of another id does not settle it.
        w.append(&[entry(Op::Undo, 3), entry(Op::Done, 2)], false)
            .expect("append");
        assert_eq!(w.unfinished().expect("read").map(|e| e.op), Some(Op::Undo));
    }

    #[test]
    fn a_long_journal_is_read_from_its_tail_past_a_cut_line() {
        let (dir, store) = store();
        let mut w = open(&store).expect("open");
        // An unfinished change far back, then 100 KB of finished ones.
        w.append(&[entry(Op::Write, 1_000_000)], false)
            .expect("append");
        for n in 0..600 {
            w.append(&[entry(Op::Write, n), entry(Op::Done, n)], false)
                .expect("append");
        }
        assert!(
            std::fs::metadata(dir.path().join(JOURNAL))
                .expect("meta")
                .len()
                > 100_000
        );
        assert_eq!(w.unfinished().expect("read"), None);
        // An unsettled change behind more than one read window of evictions.
        w.append(&[entry(Op::Write, 2_000_000)], false)
            .expect("append");
        let evictions: Vec<Entry> = (0..200).map(|_| entry(Op::Evict, 0)).collect();
        w.append(&evictions, false).expect("append");
        assert_eq!(
            w.unfinished().expect("read").and_then(|e| e.id),
            Some(id(2_000_000))
        );
    }
}
