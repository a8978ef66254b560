//! The session log: one JSON line per event of an agent run, in
//! `<git dir>/fararoni/sessions/<id>.jsonl` — requests, directives, tool
//! calls with their verdicts, repairs, rejections, writes with their shadow
//! versions, commits, and the run's end. `git fararoni session list|show`
//! reads it back.
//!
//! Appends are best effort after the file is created: a log that cannot be
//! written must not stop a run halfway through a change (the error is
//! remembered and reported at the end).

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{json, Value};

/// The folder of session logs under the git dir.
pub fn sessions_dir(git_dir: &Path) -> PathBuf {
    git_dir.join("fararoni").join("sessions")
}

/// An open session log.
#[derive(Debug)]
pub struct SessionLog {
    path: PathBuf,
    file: Option<File>,
    failed: Option<String>,
}

/// A file name safe for a session id (ids may hold `/` and `:`).
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_alphanumeric() || "-_.@+".contains(c) { c } else { '_' })
        .collect()
}

impl SessionLog {
    /// Creates (or appends to) the log of session `id`.
    pub fn create(git_dir: &Path, id: &str) -> Result<SessionLog, (PathBuf, std::io::Error)> {
        let dir = sessions_dir(git_dir);
        let path = dir.join(format!("{}.jsonl", file_name(id)));
        std::fs::create_dir_all(&dir).map_err(|e| (dir.clone(), e))?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| (path.clone(), e))?;
        Ok(SessionLog {
            path,
            file: Some(file),
            failed: None,
        })
    }

    /// A log that records nothing (benchmarks).
    pub fn disabled() -> SessionLog {
        SessionLog {
            path: PathBuf::new(),
            file: None,
            failed: None,
        }
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The first write error, if any.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Appends one event of `kind` with its fields.
    pub fn event(&mut self, kind: &str, fields: Value) {
        let Some(file) = &mut self.file else { return };
        let mut obj = json!({"t": crate::clock::Utc::now().rfc3339(), "kind": kind});
        if let (Some(o), Value::Object(f)) = (obj.as_object_mut(), fields) {
            o.extend(f);
        }
        let mut line = obj.to_string();
        line.push('\n');
        if let Err(e) = file.write_all(line.as_bytes()) {
            if self.failed.is_none() {
                self.failed = Some(e.to_string());
            }
        }
    }

    /// Appends a serializable record as an event.
    pub fn record<T: Serialize>(&mut self, kind: &str, value: &T) {
        let fields = serde_json::to_value(value).unwrap_or(Value::Null);
        self.event(kind, fields);
    }
}

/// One session as `session list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The session id (the file name).
    pub id: String,
    /// When it started.
    pub started: String,
    /// The request.
    pub request: String,
    /// Tool calls made.
    pub tool_calls: usize,
    /// Calls rejected by the protocol.
    pub rejections: usize,
    /// Files written.
    pub writes: usize,
    /// Commits made.
    pub commits: usize,
    /// How it ended, when it did.
    pub outcome: Option<String>,
}

/// Reads every event of one log; lines that are not JSON objects (a torn
/// last line, a planted line) are skipped.
pub fn read(path: &Path) -> std::io::Result<Vec<Value>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(Value::is_object)
        .collect())
}

/// Summarizes one log's events.
pub fn summarize(id: &str, events: &[Value]) -> Summary {
    let count = |k: &str| events.iter().filter(|e| e["kind"] == k).count();
    Summary {
        id: id.to_string(),
        started: events
            .first()
            .and_then(|e| e["t"].as_str())
            .unwrap_or("")
            .to_string(),
        request: events
            .iter()
            .find(|e| e["kind"] == "request")
            .and_then(|e| e["text"].as_str())
            .unwrap_or("")
            .to_string(),
        tool_calls: count("tool"),
        rejections: count("rejection"),
        writes: events
            .iter()
            .filter(|e| e["kind"] == "tool" && e["wrote"].is_object())
            .count(),
        commits: events
            .iter()
            .filter(|e| e["kind"] == "tool" && e["commit"].is_string())
            .count(),
        outcome: events
            .iter()
            .rev()
            .find(|e| e["kind"] == "end")
            .and_then(|e| e["outcome"].as_str())
            .map(String::from),
    }
}

/// Every session log under `git_dir`, oldest first.
pub fn list(git_dir: &Path) -> std::io::Result<Vec<Summary>> {
    let dir = sessions_dir(git_dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        // Only regular files: a planted symlink is not followed.
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Some(id) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".jsonl"))
        else {
            continue;
        };
        if let Ok(events) = read(&path) {
            out.push(summarize(id, &events));
        }
    }
    out.sort_by(|a, b| a.started.cmp(&b.started).then(a.id.cmp(&b.id)));
    Ok(out)
}

/// The log file of session `id` (the newest when `id` is `None`).
pub fn find(git_dir: &Path, id: Option<&str>) -> std::io::Result<Option<(String, PathBuf)>> {
    match id {
        Some(id) => {
            let path = sessions_dir(git_dir).join(format!("{}.jsonl", file_name(id)));
            let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
            Ok(regular.then(|| (id.to_string(), path)))
        }
        None => Ok(list(git_dir)?
            .pop()
            .map(|s| (s.id.clone(), sessions_dir(git_dir).join(format!("{}.jsonl", s.id))))),
    }
}
