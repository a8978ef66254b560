//! Resolving a user's path to a file of the working tree: relative to a
//! base directory, through symlinks that stay inside the repository, never
//! into `.git` or the store, never out of the working tree.

use std::io;
use std::path::{Component, Path, PathBuf};

use camino::{Utf8Path, Utf8PathBuf};

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
fn normalize(path: &Path) -> PathBuf {
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

/// Resolves `input` (relative to `base`) to a file under `root`, which must
/// be canonical.
pub(crate) fn resolve(root: &Path, base: &Path, input: &Path) -> Result<RepoPath, ShadowError> {
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
    check_rel(&rel)?;
    Ok(RepoPath { rel, abs })
}

/// Rejects the root itself and paths inside `.git` or `.fararoni`.
fn check_rel(rel: &Utf8Path) -> Result<(), ShadowError> {
    let mut comps = rel.components();
    match comps.next() {
        None => Err(ShadowError::NotAFile {
            path: Utf8PathBuf::from("."),
        }),
        Some(c) if c.as_str() == ".fararoni" => Err(ShadowError::Reserved {
            path: rel.to_path_buf(),
            what: "the shadow store `.fararoni/`",
        }),
        _ if rel.components().any(|c| c.as_str() == ".git") => Err(ShadowError::Reserved {
            path: rel.to_path_buf(),
            what: "a git dir",
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_inside_and_refuses_outside() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir(root.join("sub")).expect("mkdir");
        let p = resolve(&root, &root.join("sub"), Path::new("../new dir/ñ.txt")).expect("resolve");
        assert_eq!(p.rel, "new dir/ñ.txt");
        assert_eq!(p.abs, root.join("new dir/ñ.txt"));
        assert!(matches!(
            resolve(&root, &root, Path::new("../elsewhere")),
            Err(ShadowError::Outside { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new(".git/config")),
            Err(ShadowError::Reserved { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new(".fararoni/journal.jsonl")),
            Err(ShadowError::Reserved { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new(".")),
            Err(ShadowError::NotAFile { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_may_not_leave_the_repository() {
        let outside = tempfile::tempdir().expect("tempdir");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::write(root.join("real.txt"), "x").expect("write");
        std::os::unix::fs::symlink(root.join("real.txt"), root.join("inside")).expect("ln");
        std::os::unix::fs::symlink(outside.path(), root.join("out")).expect("ln");
        std::os::unix::fs::symlink(root.join("gone"), root.join("dangling")).expect("ln");
        let p = resolve(&root, &root, Path::new("inside")).expect("resolve");
        assert_eq!(p.rel, "real.txt");
        assert!(matches!(
            resolve(&root, &root, Path::new("out/file")),
            Err(ShadowError::SymlinkEscapes { .. })
        ));
        assert!(matches!(
            resolve(&root, &root, Path::new("dangling")),
            Err(ShadowError::DanglingSymlink { .. })
        ));
    }
}
