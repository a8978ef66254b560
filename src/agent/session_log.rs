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

/// A session log. Nothing is written until [`SessionLog::activate`]: a run
/// whose model never answered leaves no trace in the repository.
#[derive(Debug)]
pub struct SessionLog {
    path: PathBuf,
    file: Option<File>,
    pending: Vec<String>,
    active: bool,
    enabled: bool,
    failed: Option<String>,
}

/// A file name safe for a session id (ids may hold `/` and `:`).
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.@+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl SessionLog {
    /// The log of session `id` under `git_dir` (created on activation).
    pub fn create(git_dir: &Path, id: &str) -> Result<SessionLog, (PathBuf, std::io::Error)> {
        let path = sessions_dir(git_dir).join(format!("{}.jsonl", file_name(id)));
        Ok(SessionLog {
            path,
            file: None,
            pending: Vec::new(),
            active: false,
            enabled: true,
            failed: None,
        })
    }

    /// A log that records nothing (benchmarks).
    pub fn disabled() -> SessionLog {
        SessionLog {
            path: PathBuf::new(),
            file: None,
            pending: Vec::new(),
            active: false,
            enabled: false,
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

    /// Creates the file and writes what was buffered; every event after
    /// this is appended at once.
    pub fn activate(&mut self) {
        if self.active || !self.enabled {
            return;
        }
        self.active = true;
        let opened = self
            .path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
            });
        match opened {
            Ok(f) => self.file = Some(f),
            Err(e) => self.failed = Some(e.to_string()),
        }
        for line in std::mem::take(&mut self.pending) {
            self.write_line(&line);
        }
    }

    fn write_line(&mut self, line: &str) {
        let Some(file) = &mut self.file else { return };
        if let Err(e) = file.write_all(line.as_bytes()) {
            if self.failed.is_none() {
                self.failed = Some(e.to_string());
            }
        }
    }

    /// Appends one event of `kind` with its fields.
    pub fn event(&mut self, kind: &str, fields: Value) {
        if !self.enabled {
            return;
        }
        let mut obj = json!({"t": crate::clock::Utc::now().rfc3339(), "kind": kind});
        if let (Some(o), Value::Object(f)) = (obj.as_object_mut(), fields) {
            o.extend(f);
        }
        let mut line = obj.to_string();
        line.push('\n');
        if self.active {
            self.write_line(&line);
        } else {
            self.pending.push(line);
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
        None => Ok(list(git_dir)?.pop().map(|s| {
            (
                s.id.clone(),
                sessions_dir(git_dir).join(format!("{}.jsonl", s.id)),
            )
        })),
    }
}
