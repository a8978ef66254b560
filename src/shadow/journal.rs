//! The journal `.fararoni/journal.jsonl`: one JSON object per line for every
//! step the store takes (backup, write, restore, undo, remove, done,
//! recover, evict, prune). Appends that must survive a power cut are
//! fsync'd; a line torn by a crash is skipped on reading and sealed with a
//! newline before the next append.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ShadowError;

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
    /// Retention dropped `version` of `path`.
    Evict,
    /// `shadow prune` dropped `version` of `path`.
    Prune,
}

impl Op {
    /// Returns whether the op changes a working file (the ones `undo` reverts).
    pub fn changes_file(self) -> bool {
        matches!(self, Op::Write | Op::Restore | Op::Undo | Op::Remove)
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

/// The journal file.
#[derive(Debug, Clone)]
pub(crate) struct Journal {
    path: PathBuf,
}

impl Journal {
    pub(crate) fn new(path: PathBuf) -> Journal {
        Journal { path }
    }

    /// Opens the journal for appending, creating it, and ends a line a
    /// crash may have torn so that the next append starts cleanly.
    pub(crate) fn open(&self) -> Result<JournalWriter, ShadowError> {
        let err = |e| ShadowError::write(&self.path, e);
        let mut file = OpenOptions::new()
            .read(true)
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(err)?;
        let len = file.metadata().map_err(err)?.len();
        if len > 0 {
            file.seek(SeekFrom::Start(len - 1)).map_err(err)?;
            let mut last = [0u8];
            file.read_exact(&mut last).map_err(err)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(err)?;
            }
        }
        Ok(JournalWriter {
            path: self.path.clone(),
            file,
            torn: false,
        })
    }

    /// Returns every readable entry, oldest first (torn or foreign lines are
    /// skipped).
    pub(crate) fn read(&self) -> Result<Vec<Entry>, ShadowError> {
        let text = match std::fs::read(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(ShadowError::read(&self.path, e)),
        };
        Ok(text
            .split(|&b| b == b'\n')
            .filter_map(|line| serde_json::from_slice::<Entry>(line).ok())
            .collect())
    }
}

/// The journal, open for appending (held by a transaction).
#[derive(Debug)]
pub(crate) struct JournalWriter {
    path: PathBuf,
    file: File,
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
        self.file.metadata().map_or(0, |m| m.len())
    }

    /// Returns the file, for the caller to make appended lines durable.
    pub(crate) fn file(&self) -> (&Path, &File) {
        (&self.path, &self.file)
    }

    /// Returns the last change (`write`, `restore`, `undo`, `remove`) when
    /// no `done` or `recover` of its id follows it: a step a crash cut
    /// short. Changes run one at a time, so only the last can be unsettled;
    /// the journal is read backwards from its end, a few KB in the usual
    /// case, until that change is found.
    pub(crate) fn unfinished(&self) -> Result<Option<Entry>, ShadowError> {
        let err = |e| ShadowError::read(&self.path, e);
        let len = self.file.metadata().map_err(err)?.len();
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
                    return Ok((!done).then_some(e));
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

    #[test]
    fn torn_lines_are_skipped_and_sealed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("journal.jsonl");
        let j = Journal::new(file.clone());
        let mut e = Entry::new("s1", Op::Write, "a b/ñ.txt");
        e.version = Some(3);
        j.open()
            .and_then(|mut w| w.append(std::slice::from_ref(&e), true))
            .expect("append");
        std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .and_then(|mut f| f.write_all(b"{\"time\":\"2026"))
            .expect("tear");
        let mut w = j.open().expect("open seals");
        w.append(std::slice::from_ref(&e), false).expect("append");
        let read = j.read().expect("read");
        assert_eq!(read, vec![e.clone(), e]);
    }

    fn entry(op: Op, id: &str) -> Entry {
        let mut e = Entry::new("s1", op, "src/a.rs");
        e.id = Some(id.to_string());
        e
    }

    #[test]
    fn the_last_change_without_its_done_is_unfinished() {
        let dir = tempfile::tempdir().expect("tempdir");
        let j = Journal::new(dir.path().join("journal.jsonl"));
        let mut w = j.open().expect("open");
        assert_eq!(w.unfinished().expect("read"), None, "an empty journal");
        w.append(&[entry(Op::Backup, "1"), entry(Op::Write, "1")], false)
            .expect("append");
        assert_eq!(
            w.unfinished().expect("read").and_then(|e| e.id),
            Some("1".to_string())
        );
        w.append(&[entry(Op::Done, "1"), entry(Op::Evict, "1")], false)
            .expect("append");
        assert_eq!(w.unfinished().expect("read"), None);
        w.append(&[entry(Op::Restore, "2")], false).expect("append");
        assert_eq!(
            w.unfinished().expect("read").map(|e| e.op),
            Some(Op::Restore)
        );
        w.append(&[entry(Op::Recover, "2")], false).expect("append");
        assert_eq!(w.unfinished().expect("read"), None);
        // A `done` of another id does not settle it.
        w.append(&[entry(Op::Undo, "3"), entry(Op::Done, "2")], false)
            .expect("append");
        assert_eq!(w.unfinished().expect("read").map(|e| e.op), Some(Op::Undo));
    }

    #[test]
    fn a_long_journal_is_read_from_its_tail_past_a_cut_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let j = Journal::new(dir.path().join("journal.jsonl"));
        let mut w = j.open().expect("open");
        // An unfinished change far back, then 100 KB of finished ones.
        w.append(&[entry(Op::Write, "old")], false).expect("append");
        for n in 0..600 {
            let id = format!("n{n}");
            w.append(&[entry(Op::Write, &id), entry(Op::Done, &id)], false)
                .expect("append");
        }
        assert!(
            std::fs::metadata(dir.path().join("journal.jsonl"))
                .expect("meta")
                .len()
                > 100_000
        );
        assert_eq!(w.unfinished().expect("read"), None);
        // An unsettled change behind more than one read window of evictions.
        w.append(&[entry(Op::Write, "last")], false)
            .expect("append");
        let evictions: Vec<Entry> = (0..200).map(|_| entry(Op::Evict, "e")).collect();
        w.append(&evictions, false).expect("append");
        assert_eq!(
            w.unfinished().expect("read").and_then(|e| e.id),
            Some("last".to_string())
        );
    }
}
