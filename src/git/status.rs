//! The one reading of `git status --porcelain=v2 -z --no-renames`: each
//! record a path whose HEAD, index and working tree versions are not all
//! the same, or an untracked or ignored path. Callers run git with their
//! own options (which untracked and ignored files, locks, environment);
//! [`ARGS`] are the words every one of them passes.

use super::GitError;

/// The words that make `git status` print what [`parse`] reads: porcelain
/// v2, NUL-terminated records (paths as they are, unquoted), no renames
/// (a rename is a deletion and an addition).
pub const ARGS: [&str; 4] = ["status", "--porcelain=v2", "-z", "--no-renames"];

/// The all-zero object id git prints for "none".
const ZERO: &str = "0000000000000000000000000000000000000000";

/// One record of the status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path, relative to the top of the working tree (`/` at the end
    /// for a folder git does not open: a nested repository, an ignored
    /// folder). A path that is not UTF-8 is read lossily, and
    /// [`Entry::exact`] says so.
    pub path: String,
    /// Whether `path` is the path exactly (it was UTF-8).
    pub exact: bool,
    /// What differs.
    pub kind: EntryKind,
    /// The index holds a change against HEAD (a tracked path whose
    /// status letter `X` is not `.`).
    pub staged: bool,
}

/// What differs for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// Tracked: the index blob (`None`: not in the index) and what the
    /// working tree has relative to it.
    Changed {
        /// The index's blob id.
        index: Option<String>,
        /// The working tree against the index.
        worktree: WorktreeSide,
    },
    /// Not in the index.
    Untracked,
    /// Ignored (listed only with `--ignored`).
    Ignored,
    /// A merge conflict.
    Unmerged,
}

/// The working tree's version of a tracked path against the index's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorktreeSide {
    /// The working file matches the index.
    SameAsIndex,
    /// The working file is gone.
    Deleted,
    /// The working file differs from the index.
    Modified,
}

impl Entry {
    /// Whether the working tree matches the index for this path.
    pub fn staged_only(&self) -> bool {
        matches!(
            self.kind,
            EntryKind::Changed {
                worktree: WorktreeSide::SameAsIndex,
                ..
            }
        )
    }

    /// Whether the path is a change to tracked content or a conflict
    /// (neither untracked nor ignored).
    pub fn tracked(&self) -> bool {
        matches!(self.kind, EntryKind::Changed { .. } | EntryKind::Unmerged)
    }
}

/// [`parse`], its error a [`GitError`] naming the command.
pub fn read(raw: &[u8]) -> Result<Vec<Entry>, GitError> {
    parse(raw).map_err(|detail| GitError::Unreadable {
        args: ARGS.join(" "),
        detail,
    })
}

/// Parses the output of `git` with [`ARGS`]; an error names the record
/// that is not one of v2's (a rename despite `--no-renames`, a short one).
pub fn parse(raw: &[u8]) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for rec in raw.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let text = String::from_utf8_lossy(rec);
        let (kind, rest) = text.split_once(' ').unwrap_or((&text, ""));
        // The path is the last field; it may hold spaces.
        let mut staged = false;
        let (kind, path) = match kind {
            "1" => {
                // XY sub mH mI mW hH hI path
                let f: Vec<&str> = rest.splitn(8, ' ').collect();
                if f.len() != 8 {
                    return Err(format!("short record {text:?}"));
                }
                let xy = f[0].as_bytes();
                staged = xy.first().is_some_and(|x| *x != b'.');
                let y = xy.get(1).copied().unwrap_or(b'.');
                let index = (f[6] != ZERO && xy.first() != Some(&b'D')).then(|| f[6].to_string());
                let worktree = match y {
                    b'.' => WorktreeSide::SameAsIndex,
                    b'D' => WorktreeSide::Deleted,
                    _ => WorktreeSide::Modified,
                };
                (EntryKind::Changed { index, worktree }, f[7])
            }
            // XY sub m1 m2 m3 mW h1 h2 h3 path
            "u" => {
                let f: Vec<&str> = rest.splitn(10, ' ').collect();
                (EntryKind::Unmerged, f.last().copied().unwrap_or_default())
            }
            "?" => (EntryKind::Untracked, rest),
            "!" => (EntryKind::Ignored, rest),
            "#" => continue,
            "2" => return Err(format!("rename record despite --no-renames: {text:?}")),
            _ => return Err(format!("unknown record {text:?}")),
        };
        entries.push(Entry {
            path: path.to_string(),
            exact: std::str::from_utf8(rec).is_ok(),
            kind,
            staged,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_record_kind_is_read() {
        let h = "1".repeat(40);
        let i = "2".repeat(40);
        let raw = format!(
            "1 .M N... 100644 100644 100644 {h} {h} dir with space/ñ.txt\0\
             1 A. N... 000000 100644 100644 {ZERO} {i} new.txt\0\
             1 D. N... 100644 000000 000000 {h} {ZERO} gone.txt\0\
             1 .D N... 100644 100644 000000 {h} {h} deleted in tree.txt\0\
             u UU N... 100644 100644 100644 100644 {h} {i} {h} conflict.txt\0\
             ? untracked file.txt\0\
             ! target/\0"
        );
        let e = parse(raw.as_bytes()).expect("parses");
        assert_eq!(e.len(), 7);
        let staged: Vec<bool> = e.iter().map(|e| e.staged).collect();
        assert_eq!(staged, [false, true, true, false, false, false, false]);
        assert_eq!(e[0].path, "dir with space/ñ.txt");
        assert!(e[0].exact);
        assert_eq!(
            e[0].kind,
            EntryKind::Changed {
                index: Some(h.clone()),
                worktree: WorktreeSide::Modified
            }
        );
        assert!(e[1].staged_only());
        assert_eq!(
            e[2].kind,
            EntryKind::Changed {
                index: None,
                worktree: WorktreeSide::SameAsIndex
            }
        );
        assert_eq!(
            e[3].kind,
            EntryKind::Changed {
                index: Some(h),
                worktree: WorktreeSide::Deleted
            }
        );
        assert_eq!(e[4].kind, EntryKind::Unmerged);
        assert_eq!(e[4].path, "conflict.txt");
        assert!(e[4].tracked() && !e[5].tracked() && !e[6].tracked());
        assert_eq!(e[5].kind, EntryKind::Untracked);
        assert_eq!(e[5].path, "untracked file.txt");
        assert_eq!(
            (e[6].kind.clone(), e[6].path.as_str()),
            (EntryKind::Ignored, "target/")
        );
        assert!(parse(b"").expect("empty").is_empty());
        assert!(parse(b"1 short\0").is_err());
        assert!(parse(b"2 R. N... x\0").is_err());
        let lossy = parse(b"? caf\xe9.txt\0").expect("parses");
        assert!(!lossy[0].exact);
    }

    /// What real git prints, read back: a modified, a staged, a deleted,
    /// an untracked and an ignored file.
    #[test]
    fn real_git_status_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(d)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("HOME", d)
                .output()
                .expect("git runs");
            assert!(out.status.success(), "git {args:?}");
            out.stdout
        };
        git(&["init", "-q"]);
        for (name, body) in [("a.txt", "a"), ("b.txt", "b"), ("c.txt", "c")] {
            std::fs::write(d.join(name), body).expect("write");
        }
        std::fs::write(d.join(".gitignore"), "*.log\n").expect("write");
        git(&["add", "."]);
        git(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "x",
        ]);
        std::fs::write(d.join("a.txt"), "changed").expect("write");
        std::fs::write(d.join("b.txt"), "staged").expect("write");
        git(&["add", "b.txt"]);
        std::fs::remove_file(d.join("c.txt")).expect("remove");
        std::fs::write(d.join("new file.txt"), "n").expect("write");
        std::fs::write(d.join("x.log"), "l").expect("write");
        let mut args = ARGS.to_vec();
        args.extend(["--untracked-files=all", "--ignored=matching"]);
        let mut e = parse(&git(&args)).expect("parses");
        e.sort_by(|x, y| x.path.cmp(&y.path));
        let kinds: Vec<(&str, &EntryKind)> = e.iter().map(|e| (e.path.as_str(), &e.kind)).collect();
        assert_eq!(kinds.len(), 5, "{kinds:?}");
        assert!(matches!(
            kinds[0],
            (
                "a.txt",
                EntryKind::Changed {
                    worktree: WorktreeSide::Modified,
                    index: Some(_)
                }
            )
        ));
        assert!(e[1].path == "b.txt" && e[1].staged_only());
        assert!(matches!(
            kinds[2],
            (
                "c.txt",
                EntryKind::Changed {
                    worktree: WorktreeSide::Deleted,
                    ..
                }
            )
        ));
        assert_eq!(kinds[3], ("new file.txt", &EntryKind::Untracked));
        assert_eq!(kinds[4], ("x.log", &EntryKind::Ignored));
    }
}
