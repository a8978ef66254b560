//! Session ids group the writes that `undo` reverts together: the value of
//! `FARARONI_SESSION` when set (an agent or script sets it once for a run),
//! else one id generated per process, `<YYYYMMDD-HHMMSS>-<pid>`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use super::ShadowError;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_ids() {
        assert!(Session::new("agent-run:42").is_ok());
        assert!(Session::new("").is_err());
        assert!(Session::new("a b").is_err());
        assert!(Session::new("line\nbreak").is_err());
        assert_ne!(Session::fresh("undo"), Session::fresh("undo"));
    }
}
