//! The places of a repository that no guarded write, restore or undo may
//! touch, found from the repository rather than from names: its real git
//! dir and common dir (whatever they are called: `gitdir:` files, the
//! dotfiles layout `--git-dir=.cfg`, linked worktrees), the hooks folder git
//! would run programs from (`core.hooksPath`, relative or absolute), and the
//! store itself. Names are refused too, at any depth, the way git refuses
//! them on case-insensitive and normalising file systems (`.GIT`, `.git.`,
//! `GIT~1`, `.git` with ignorable code points): a nested repository's git
//! dir or store is as off limits as ours.
//!
//! Comparisons of locations are case-folded when the repository says its
//! file system ignores case (`core.ignorecase`) or a probe of the working
//! tree shows it.

use std::path::{Path, PathBuf};

use camino::Utf8Path;

use super::paths::normalize;
use super::ShadowError;
use crate::git::Repo;

/// A name refused wherever it appears in a path.
struct NameRule {
    /// The name, lowercase.
    name: &'static str,
    /// Its 8.3 short form on NTFS, lowercase.
    short: &'static str,
    /// Whether names that merely start with it are refused too.
    prefix: bool,
    /// What it is, for the message.
    what: &'static str,
}

/// Every name rule. A folded name matches a rule when it equals (or, for a
/// prefix rule, starts with) `name`, or equals `short`.
const NAME_RULES: &[NameRule] = &[
    NameRule {
        name: ".git",
        short: "git~1",
        prefix: false,
        what: "a git dir",
    },
    NameRule {
        name: ".fararoni",
        short: "fararo~1",
        // `.fararoni.corrupt-*`: a store moved aside is evidence, kept as is.
        prefix: true,
        what: "the shadow store `.fararoni/` (or one moved aside)",
    },
];

/// Code points HFS+ ignores in names (git's `is_hfs_dotgit` list): a name
/// holding them is the same file as the name without them.
fn hfs_ignorable(c: char) -> bool {
    matches!(c,
        '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}')
}

/// Folds a name the way the most lenient file system would compare it:
/// ignorable code points dropped, lowercase, trailing dots and spaces
/// removed (NTFS).
fn fold_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| !hfs_ignorable(*c))
        .flat_map(char::to_lowercase)
        .collect();
    kept.trim_end_matches([' ', '.']).to_string()
}

/// Returns what `name` is when a name rule refuses it.
fn reserved_name(name: &str) -> Option<&'static str> {
    let folded = fold_name(name);
    NAME_RULES
        .iter()
        .find(|r| folded == r.name || folded == r.short || (r.prefix && folded.starts_with(r.name)))
        .map(|r| r.what)
}

/// A folder of the repository that is off limits, by absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Area {
    path: PathBuf,
    what: &'static str,
}

/// Everything a target path must stay out of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reserved {
    areas: Vec<Area>,
    /// Compare locations case-insensitively.
    fold: bool,
}

/// Returns `path` with its symlinks resolved as far as it exists, the rest
/// folded lexically.
fn real(path: &Path) -> PathBuf {
    let path = normalize(path);
    let mut existing = path.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(c) = std::fs::canonicalize(existing) {
            let mut out = c;
            out.extend(rest.iter().rev());
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path,
        }
    }
}

/// Whether the file system holding `root` ignores case: `.git` (when the
/// working tree has one) is also found as `.GIT`, the same file.
fn probe_case_insensitive(root: &Path) -> bool {
    let id = |p: &Path| {
        std::fs::symlink_metadata(p).ok().map(|m| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                (m.dev(), m.ino())
            }
            #[cfg(not(unix))]
            {
                let _ = m;
                (0, 0)
            }
        })
    };
    match (id(&root.join(".git")), id(&root.join(".GIT"))) {
        (Some(a), Some(b)) => cfg!(not(unix)) || a == b,
        _ => cfg!(any(target_os = "macos", target_os = "windows")),
    }
}

/// Resolves the value of `core.hooksPath` the way git does: `~/` from
/// `HOME`, a relative path from the top of the working tree (where hooks
/// run), an optional `:(optional)` prefix ignored.
pub(crate) fn hooks_path(value: &str, root: &Path) -> Option<PathBuf> {
    let value = value.strip_prefix(":(optional)").unwrap_or(value);
    if value.is_empty() {
        return None;
    }
    let path = match value.strip_prefix("~/") {
        Some(rest) => PathBuf::from(crate::settings::read::home_os()?).join(rest),
        None => PathBuf::from(value),
    };
    Some(if path.is_absolute() {
        path
    } else {
        root.join(path)
    })
}

/// Whether `path` is `area` or inside it, comparing components folded when
/// `fold`.
fn inside(path: &Path, area: &Path, fold: bool) -> bool {
    if !fold {
        return path.starts_with(area);
    }
    let lower = |p: &Path| -> Vec<String> {
        p.components()
            .map(|c| c.as_os_str().to_string_lossy().to_lowercase())
            .collect()
    };
    let (p, a) = (lower(path), lower(area));
    p.len() >= a.len() && p[..a.len()] == a[..]
}

impl Reserved {
    /// Returns name rules alone, without any area (for unit tests).
    #[cfg(test)]
    pub(crate) fn names_only() -> Reserved {
        Reserved {
            areas: Vec::new(),
            fold: false,
        }
    }

    /// Finds the reserved areas of `repo`, whose working tree's top is
    /// `root` (canonical).
    pub(crate) fn of(repo: &Repo, root: &Path) -> Reserved {
        let mut areas = vec![
            Area {
                path: real(repo.git_dir()),
                what: "the repository's git dir",
            },
            Area {
                path: real(repo.common_dir()),
                what: "the repository's common git dir",
            },
            Area {
                path: root.join(super::STORE_DIR),
                what: "the shadow store `.fararoni/`",
            },
        ];
        if let Some(hooks) = repo
            .config_string("core.hooksPath")
            .and_then(|v| hooks_path(v.trim(), root))
        {
            areas.push(Area {
                path: real(&hooks),
                what: "the hooks folder `core.hooksPath` names",
            });
        }
        let ignorecase = repo
            .gix()
            .config_snapshot()
            .boolean("core.ignorecase")
            .unwrap_or(false);
        Reserved {
            areas,
            fold: ignorecase || probe_case_insensitive(root),
        }
    }

    /// Refuses `rel` (at `abs`, symlinks resolved) when a name on it or the
    /// place it leads to is reserved.
    pub(crate) fn check(&self, rel: &Utf8Path, abs: &Path) -> Result<(), ShadowError> {
        for c in rel.components() {
            if let Some(what) = reserved_name(c.as_str()) {
                return Err(ShadowError::Reserved {
                    path: rel.to_path_buf(),
                    what,
                });
            }
        }
        for area in &self.areas {
            if inside(abs, &area.path, self.fold) {
                return Err(ShadowError::Reserved {
                    path: rel.to_path_buf(),
                    what: area.what,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_folded_like_lenient_file_systems() {
        for name in [
            ".git",
            ".GIT",
            ".Git",
            ".git.",
            ".git ",
            ".git. .",
            "GIT~1",
            ".g\u{200c}it",
            "\u{feff}.git",
            ".fararoni",
            ".FARARONI",
            ".fararoni.corrupt-20260101-000000",
        ] {
            assert!(reserved_name(name).is_some(), "{name:?}");
        }
        for name in [".github", ".gitignore", "git", "x.git", ".gitx", "fararoni"] {
            assert_eq!(reserved_name(name), None, "{name:?}");
        }
    }

    #[test]
    fn hooks_paths_resolve_like_git() {
        let root = Path::new("/repo");
        assert_eq!(
            hooks_path(".githooks", root),
            Some(PathBuf::from("/repo/.githooks"))
        );
        assert_eq!(hooks_path("/abs/h", root), Some(PathBuf::from("/abs/h")));
        assert_eq!(
            hooks_path(":(optional)hooks", root),
            Some(PathBuf::from("/repo/hooks"))
        );
        assert_eq!(hooks_path("", root), None);
    }

    #[test]
    fn areas_compare_folded_only_when_asked() {
        let a = Path::new("/r/.cfg");
        assert!(inside(Path::new("/r/.cfg/hooks/x"), a, false));
        assert!(!inside(Path::new("/r/.CFG/hooks/x"), a, false));
        assert!(inside(Path::new("/r/.CFG/hooks/x"), a, true));
        assert!(!inside(Path::new("/r/.cfgx"), a, true));
    }
}
