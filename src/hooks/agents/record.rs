//! What the hook remembers of another agent's session: the dirty set saved
//! before anything may write (`shadow::dirty`, so `git fararoni undo
//! --session ID` reverses what any program did), and the session log
//! `<git dir>/fararoni/sessions/<id>.jsonl` — one JSON object per line with
//! `time`, `kind` and the event's fields — that `git fararoni session show`
//! reads.

use std::io::Write as _;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::spec::Agent;
use crate::git::Repo;
use crate::shadow::{dirty, Session, Shadow, ShadowError};

/// Returns the session id for `agent`'s session `raw`: `<agent>-<raw>` when
/// `raw` is a plain name (letters, digits, `._-`, at most 100, not starting
/// with a dot), else `<agent>-h<hash of raw>`, so a planted id can never
/// name a path. Without an id (Copilot CLI's payload has none), one per
/// agent and UTC day: `<agent>-<YYYYMMDD>`.
pub fn session_id(agent: Agent, raw: Option<&str>) -> Session {
    let name = agent.name();
    let id = match raw {
        Some(r)
            if !r.is_empty()
                && r.len() <= 100
                && !r.starts_with('.')
                && r.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) =>
        {
            format!("{name}-{r}")
        }
        Some(r) => format!("{name}-h{}", &crate::shadow::sha256_hex(r.as_bytes())[..16]),
        None => format!("{name}-{}", &crate::clock::Utc::now().compact()[..8]),
    };
    // Every id built above is valid; fall back to a fresh one rather than fail.
    Session::new(id).unwrap_or_else(|_| Session::fresh(name))
}

/// A file the dirty-set recording found changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    /// The repository-relative path.
    pub path: String,
    /// `created`, `modified` or `deleted`.
    pub kind: &'static str,
}

/// Saves the dirty set of `repo` under `session` before a call that may
/// write (`shadow::dirty::snapshot`); what changed since the session's
/// previous snapshot (a tool that ran without an after-hook) is journaled
/// first and returned.
pub fn snapshot(
    shadow: &Shadow,
    repo: &Repo,
    session: &Session,
) -> Result<Vec<Changed>, ShadowError> {
    snapshot_listed(shadow, repo, session, None)
}

/// [`snapshot`] with the dirty set's paths listed ahead
/// ([`dirty::list_ahead`]), when given.
pub fn snapshot_listed(
    shadow: &Shadow,
    repo: &Repo,
    session: &Session,
    listing: Option<dirty::Listing>,
) -> Result<Vec<Changed>, ShadowError> {
    dirty::snapshot_listed(shadow, repo, session, listing).map(|s| changed(&s.recorded))
}

/// Journals what changed since the session's last snapshot
/// (`shadow::dirty::record`) and returns it.
pub fn record(
    shadow: &Shadow,
    repo: &Repo,
    session: &Session,
) -> Result<Vec<Changed>, ShadowError> {
    dirty::record(shadow, repo, session).map(|c| changed(&c))
}

fn changed(list: &[dirty::ExternalChange]) -> Vec<Changed> {
    list.iter()
        .map(|c| Changed {
            path: c.path.to_string(),
            kind: match c.kind {
                dirty::ChangeKind::Created => "created",
                dirty::ChangeKind::Modified => "modified",
                dirty::ChangeKind::Deleted => "deleted",
            },
        })
        .collect()
}

/// The session log of `session` in `repo`.
fn log_path(repo: &Repo, session: &Session) -> PathBuf {
    repo.git_dir()
        .join("fararoni")
        .join("sessions")
        .join(format!("{}.jsonl", session.id()))
}

/// Appends one event (`kind` plus `fields`, an object) to the session log.
/// Best effort: a log that cannot be written never changes a decision.
pub fn log(repo: &Repo, session: &Session, kind: &str, fields: Value) {
    let mut line = json!({"time": crate::clock::Utc::now().rfc3339(), "kind": kind});
    if let (Some(obj), Value::Object(extra)) = (line.as_object_mut(), fields) {
        obj.extend(extra);
    }
    let path = log_path(repo, session);
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.custom_flags(libc_nofollow());
    }
    if let Ok(mut f) = opts.open(&path) {
        let _ = f.write_all(format!("{line}\n").as_bytes());
    }
}

/// `O_NOFOLLOW`: the log is never written through a planted symlink.
#[cfg(unix)]
fn libc_nofollow() -> i32 {
    #[cfg(target_os = "linux")]
    {
        libc::O_NOFOLLOW
    }
    #[cfg(not(target_os = "linux"))]
    {
        0x0100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_never_name_a_path() {
        assert_eq!(
            session_id(Agent::Claude, Some("abc-123")).id(),
            "claude-abc-123"
        );
        for bad in ["../../etc/x", "a/b", ".hidden", "", "x y"] {
            let s = session_id(Agent::Codex, Some(bad));
            assert!(s.id().starts_with("codex-"), "{}", s.id());
            assert!(
                !s.id().contains('/') && !s.id().contains(".."),
                "{}",
                s.id()
            );
        }
        assert!(session_id(Agent::Copilot, None)
            .id()
            .starts_with("copilot-20"));
    }
}
