//! Backups outside any repository (a user-scope install judging a file that
//! belongs to no repository): content-addressed copies in a per-user store,
//! `$XDG_STATE_HOME/git-fararoni/shadow` (default
//! `~/.local/state/git-fararoni/shadow`), with a `journal.jsonl` line per
//! backup (`time`, `session`, `path`, `sha256`, `size`). Restoring is by
//! hand: `cp <store>/objects/<sha256> <path>`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The per-user store's folder.
pub fn dir() -> Option<PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            crate::settings::read::home_os()
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".local").join("state"))
        })?;
    Some(state.join("git-fararoni").join("shadow"))
}

/// Saves `bytes`, the content of `path`, for `session`.
pub fn back_up(path: &Path, bytes: &[u8], session: &str) -> std::io::Result<PathBuf> {
    let store = dir().ok_or_else(|| std::io::Error::other("no HOME or XDG_STATE_HOME"))?;
    let objects = store.join("objects");
    std::fs::create_dir_all(&objects)?;
    let sha = crate::shadow::sha256_hex(bytes);
    let obj = objects.join(&sha);
    if std::fs::symlink_metadata(&obj).is_err() {
        crate::shadow::atomic_write(&obj, bytes)?;
    }
    let line = serde_json::json!({
        "time": crate::clock::Utc::now().rfc3339(),
        "session": session,
        "path": path.to_string_lossy(),
        "sha256": sha,
        "size": bytes.len(),
    });
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(store.join("journal.jsonl"))?;
    f.write_all(format!("{line}\n").as_bytes())?;
    Ok(obj)
}
