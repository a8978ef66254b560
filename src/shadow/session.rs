//! Session ids group the writes that `undo` reverts together: the value of
//! `FARARONI_SESSION` when set (an agent or script sets it once for a run),
//! else one id generated per process, `<YYYYMMDD-HHMMSS>-<pid>`.
//!
//! The session index (`.fararoni/session.jsonl`) records, for each session,
//! the version holding each path's content from before the session's first
//! change to it: what the last session's `undo` needs (retention keeps it)
//! and the baseline a session's later writes are also judged against.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::paths::is_normal_rel;
use super::store::{read_store_file, SESSION_INDEX};
use super::ShadowError;
use crate::fsx::dir::Dir;

/// The environment variable naming the current session.
pub const SESSION_ENV: &str = "FARARONI_SESSION";

/// A validated session id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Session(String);

static PROCESS: OnceLock<String> = OnceLock::new();
static FRESH: AtomicU32 = AtomicU32::new(0);

impl Session {
    /// Validates `id`: 1–128 characters among letters, digits and `-_.:@+/`.
    pub fn new(id: impl Into<String>) -> Result<Session, ShadowError> {
        let id = id.into();
        let why = if id.is_empty() {
            Some("it is empty")
        } else if id.chars().count() > 128 {
            Some("it is longer than 128 characters")
        } else if !id
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.:@+/".contains(c))
        {
            Some("use only letters, digits and `-_.:@+/`")
        } else {
            None
        };
        match why {
            Some(why) => Err(ShadowError::Session { id, why }),
            None => Ok(Session(id)),
        }
    }

    /// Returns the session of this process: `FARARONI_SESSION` if set and
    /// not blank, else the id generated once for the process.
    pub fn current() -> Result<Session, ShadowError> {
        match std::env::var(SESSION_ENV) {
            Ok(v) if !v.trim().is_empty() => Session::new(v.trim()),
            _ => Ok(Session(
                PROCESS
                    .get_or_init(|| {
                        format!(
                            "{}-{}",
                            crate::clock::Utc::now().compact(),
                            std::process::id()
                        )
                    })
                    .clone(),
            )),
        }
    }

    /// Returns a new id distinct from every other one of this process (used
    /// by `undo`, whose own writes form a session that can be undone).
    pub fn fresh(prefix: &str) -> Session {
        let n = FRESH.fetch_add(1, Ordering::Relaxed);
        let mut id = format!(
            "{prefix}-{}-{}",
            crate::clock::Utc::now().compact(),
            std::process::id()
        );
        if n > 0 {
            id.push_str(&format!(".{n}"));
        }
        Session(id)
    }

    /// Returns the id.
    pub fn id(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `.fararoni/session.jsonl`, append-only: a header line names a session
/// that changed files, each line after it a path that session changed with
/// the version holding the path's content from before the session. The
/// last header is the last session; a session that comes back after
/// another one gets a header again. (Appending instead of rewriting the
/// file: truncating a file on ext4 forces its data to disk, ~0.3 ms.)
#[derive(Debug, Default)]
pub(crate) struct SessionIndex {
    /// The last session.
    pub(crate) session: String,
    /// The paths the last session changed since its last header.
    pub(crate) paths: Vec<IndexLine>,
    /// For the session the index was loaded for: each path it changed, with
    /// the version holding the content from before its first change
    /// (`None`: the session created the file).
    pub(crate) first: HashMap<String, Option<u64>>,
    /// The file's size when read or last appended to.
    pub(crate) len: u64,
}

/// A header line of the session index.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct IndexHeader {
    /// The session.
    pub(crate) session: String,
}

/// A path line of the session index.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct IndexLine {
    /// The repository-relative path.
    pub(crate) path: String,
    /// The version holding its content from before the session.
    pub(crate) version: Option<u64>,
}

impl SessionIndex {
    /// Reads the index of `store`, collecting the first lines of session
    /// `ours` too. Lines that are not the index's own (a path out of normal
    /// form, a session id git-fararoni does not accept) are skipped: the
    /// file is untrusted input.
    pub(crate) fn load(store: &Dir, ours: Option<&str>) -> Option<SessionIndex> {
        let text = read_store_file(store, SESSION_INDEX).ok()??;
        let mut index: Option<SessionIndex> = None;
        let mut first: HashMap<String, Option<u64>> = HashMap::new();
        for line in text.split(|&b| b == b'\n') {
            if let Ok(l) = serde_json::from_slice::<IndexLine>(line) {
                if !is_normal_rel(&l.path) || l.version == Some(0) {
                    continue;
                }
                if let Some(i) = index.as_mut() {
                    if Some(i.session.as_str()) == ours {
                        first.entry(l.path.clone()).or_insert(l.version);
                    }
                    i.paths.push(l);
                }
            } else if let Ok(h) = serde_json::from_slice::<IndexHeader>(line) {
                // Lines after a header that is not ours belong to no one.
                index = Session::new(h.session.clone())
                    .is_ok()
                    .then(|| SessionIndex {
                        session: h.session,
                        ..SessionIndex::default()
                    });
            }
        }
        let mut index = index?;
        index.len = text.len() as u64;
        index.first = first;
        Some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_gives_each_session_its_first_version_and_skips_forgeries() {
        let dir = tempfile::tempdir().expect("tempdir");
        let index = [
            r#"{"session":"a"}"#,
            r#"{"path":"f.txt","version":1}"#,
            r#"{"path":"new.txt","version":null}"#,
            r#"{"session":"b"}"#,
            r#"{"path":"f.txt","version":2}"#,
            r#"{"session":"a"}"#,
            r#"{"path":"f.txt","version":3}"#,
            r#"{"path":"../outside.txt","version":4}"#,
            r#"{"session":"bad id"}"#,
            r#"{"path":"g.txt","version":5}"#,
            r#"{"session":"a"}"#,
            r#"{"path":"h.txt","version":6}"#,
            r#"{"path":"h.txt","version":0}"#,
        ]
        .join("\n");
        std::fs::write(dir.path().join(SESSION_INDEX), index).expect("write");
        let store = Dir::open_root(dir.path()).expect("open");
        let a = SessionIndex::load(&store, Some("a")).expect("index");
        assert_eq!(a.session, "a");
        assert_eq!(
            a.first.get("f.txt"),
            Some(&Some(1)),
            "the first, not a later one"
        );
        assert_eq!(
            a.first.get("new.txt"),
            Some(&None),
            "created by the session"
        );
        assert_eq!(a.first.get("h.txt"), Some(&Some(6)));
        assert!(!a.first.contains_key("../outside.txt"));
        assert!(
            !a.first.contains_key("g.txt"),
            "lines under a forged header"
        );
        let paths: Vec<&str> = a.paths.iter().map(|l| l.path.as_str()).collect();
        assert_eq!(paths, ["h.txt"], "the last session's own lines");
        let b = SessionIndex::load(&store, Some("b")).expect("index");
        assert_eq!(b.first.get("f.txt"), Some(&Some(2)));
    }

    #[test]
    fn validates_ids() {
        assert!(Session::new("agent-run:42").is_ok());
        assert!(Session::new("").is_err());
        assert!(Session::new("a b").is_err());
        assert!(Session::new("line\nbreak").is_err());
        assert_ne!(Session::fresh("undo"), Session::fresh("undo"));
    }
}
