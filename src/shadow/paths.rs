//! Resolving a user's path to a file of the working tree: relative to a
//! base directory, through symlinks that stay inside the repository, never
//! into a reserved place ([`super::reserved`]: the git dir, the hooks
//! folder, the store), never out of the working tree.
//!
//! A target that is itself a symlink is written through when it leads to a
//! file of the working tree outside every reserved place (the link stays a
//! link; its target gets the content, as an editor would do), and refused
//! when it leads anywhere else.

use std::io;
use std::path::{Component, Path, PathBuf};

use camino::{Utf8Path, Utf8PathBuf};

use super::reserved::Reserved;
use super::ShadowError;

/// A file of the working tree, by repository-relative and absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoPath {
    /// Relative to the top of the working tree, `/`-separated.
    pub rel: Utf8PathBuf,
    /// Absolute, with every existing symlink resolved.
    pub abs: PathBuf,
}

/// Removes `.` and folds `..` lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` is a repository-relative path in the normal form the store
/// writes: `/`-separated names, none empty, `.` or `..`, not absolute, no
/// NUL or backslash, at most 4096 bytes.
pub(crate) fn is_normal_rel(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 4096
        && !path.starts_with('/')
        && !path.contains(['\\', '\0'])
        && path
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..")
}

/// Resolves `input` (relative to `base`) to a file under `root`, which must
/// be canonical, outside every reserved place.
pub(crate) fn resolve(
    root: &Path,
    base: &Path,
    input: &Path,
    reserved: &Reserved,
) -> Result<RepoPath, ShadowError> {
    if input.to_str().is_none() {
        return Err(ShadowError::NonUtf8 {
            path: input.to_path_buf(),
        });
    }
    let joined = normalize(&base.join(input));
    // Split into the longest existing ancestor and the missing rest.
    let mut existing = joined.clone();
    let mut missing = Vec::new();
    loop {
        match std::fs::symlink_metadata(&existing) {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let Some(name) = existing.file_name().map(|n| n.to_os_string()) else {
                    return Err(ShadowError::read(&joined, e));
                };
                missing.push(name);
                if !existing.pop() {
                    return Err(ShadowError::read(&joined, e));
                }
            }
            Err(e) => return Err(ShadowError::read(&joined, e)),
        }
    }
    let mut abs = match std::fs::canonicalize(&existing) {
        Ok(p) => p,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(ShadowError::DanglingSymlink { path: existing });
        }
        Err(e) => return Err(ShadowError::read(&existing, e)),
    };
    for name in missing.iter().rev() {
        abs.push(name);
    }
    let Ok(rel) = abs.strip_prefix(root) else {
        return Err(if joined.starts_with(root) {
            ShadowError::SymlinkEscapes {
                path: input.to_path_buf(),
                target: abs,
            }
        } else {
            ShadowError::Outside {
                path: input.to_path_buf(),
                root: root.to_path_buf(),
            }
        });
    };
    let rel = Utf8Path::from_path(rel)
        .ok_or_else(|| ShadowError::NonUtf8 {
            path: rel.to_path_buf(),
        })?
        .to_path_buf();
    if rel.as_str().is_empty() {
        return Err(ShadowError::NotAFile {
            path: Utf8PathBuf::from("."),
        });
    }
    reserved.check(&rel, &abs)?;
    Ok(RepoPath { rel, abs })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_rel_paths() {
        for ok in ["a", "a/b.txt", "dir with space/ñ.txt", ".hidden/x"] {
            assert!(is_normal_rel(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../outside/victim.txt",
            "a/../../b",
            "a//b",
            "./a",
            "a/.",
            "a\\b",
            "a\0b",
        ] {
            assert!(!is_normal_rel(bad), "{bad:?}");
        }
    }

    #[test]
    fn resolves_inside_and_refuses_outside() {
        let names = Reserved::names_only();
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir(root.join("sub")).expect("mkdir");
        let p = resolve(
            &root,
            &root.join("sub"),
            Path::new("../new dir/ñ.txt"),
            &names,
        )
        .expect("resolve");
        assert_eq!(p.rel, "new dir/ñ.txt");
        assert_eq!(p.abs, root.join("new dir/ñ.txt"));
        assert!(matches!(
            resolve(&root, &root, Path::new("../elsewhere"), &names),
            Err(ShadowError::Outside { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new(".git/config"), &names),
            Err(ShadowError::Reserved { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new(".fararoni/journal.jsonl"), &names),
            Err(ShadowError::Reserved { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new("."), &names),
            Err(ShadowError::NotAFile { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_may_not_leave_the_repository() {
        let names = Reserved::names_only();
        let outside = tempfile::tempdir().expect("tempdir");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::write(root.join("real.txt"), "x").expect("write");
        std::os::unix::fs::symlink(root.join("real.txt"), root.join("inside")).expect("ln");
        std::os::unix::fs::symlink(outside.path(), root.join("out")).expect("ln");
        std::os::unix::fs::symlink(root.join("gone"), root.join("dangling")).expect("ln");
        let p = resolve(&root, &root, Path::new("inside"), &names).expect("resolve");
        assert_eq!(p.rel, "real.txt");
        assert!(matches!(
            resolve(&root, &root, Path::new("out/file"), &names),
            Err(ShadowError::SymlinkEscapes { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new("dangling"), &names),
            Err(ShadowError::DanglingSymlink { .. })
        ));
    }
}
