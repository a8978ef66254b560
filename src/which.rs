//! Finding the programs we spawn: the one the policy judged, never one
//! planted in the repository.

use std::path::{Path, PathBuf};

/// Finds `name` on `PATH` the way a shell would, except that relative
/// entries (`.`, `node_modules/.bin`) and entries inside the working tree
/// around `cwd` are skipped: a program planted in the repository must never
/// run in place of the one the policy judged. `None` when not found (or
/// when `name` is a path).
pub fn resolve_program(name: &str, cwd: &Path) -> Option<PathBuf> {
    if name.contains('/') || name.is_empty() {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    let mut top: Option<Option<PathBuf>> = None;
    for dir in std::env::split_paths(&path) {
        if !dir.is_absolute() {
            continue;
        }
        let candidate = dir.join(name);
        if !is_executable(&candidate) {
            continue;
        }
        // Only directories that hold the program are resolved.
        let top = top.get_or_insert_with(|| {
            cwd.ancestors()
                .find(|d| d.join(".git").symlink_metadata().is_ok())
                .and_then(|d| d.canonicalize().ok())
        });
        let inside = match (top.as_ref(), dir.canonicalize()) {
            (Some(t), Ok(d)) => d.starts_with(t),
            (Some(_), Err(_)) => true,
            (None, _) => false,
        };
        if !inside {
            return Some(candidate);
        }
    }
    None
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_entries_are_skipped() {
        // `sh` is on every PATH this runs on; a relative name never is.
        let found = resolve_program("sh", Path::new("/"));
        assert!(found.is_some_and(|p| p.is_absolute()));
        assert!(resolve_program("./sh", Path::new("/")).is_none());
    }
}
