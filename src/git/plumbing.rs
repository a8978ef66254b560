//! Reading what git's plumbing prints: `merge-tree --write-tree`,
//! `ls-tree -r`, `worktree list --porcelain`, each with `-z` (names as
//! they are, NUL-terminated). Callers run the commands with their own
//! options and environment; the words these readers need are here.

use std::collections::HashMap;
use std::path::PathBuf;

/// The words that make `git merge-tree` print what [`merge`] reads (then
/// `--merge-base=B` if wanted, ours, theirs).
pub const MERGE_TREE: [&str; 5] = [
    "merge-tree",
    "--write-tree",
    "-z",
    "--name-only",
    "--no-messages",
];

/// The outcome of `git merge-tree --write-tree`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    /// The merged tree (with conflict markers when there are conflicts).
    pub tree: String,
    /// The conflicted files; empty when the merge is clean.
    pub conflicts: Vec<String>,
}

/// Reads [`MERGE_TREE`]'s output with its exit code: 0 clean, 1 with
/// conflicts (their names follow the tree id); `None` for any other code,
/// which is git failing. An error says what is missing.
pub fn merge(code: i32, stdout: &[u8]) -> Option<Result<Merge, String>> {
    if code != 0 && code != 1 {
        return None;
    }
    let first = stdout
        .split(|b| *b == 0 || *b == b'\n')
        .next()
        .unwrap_or_default();
    let tree = String::from_utf8_lossy(first).trim().to_string();
    if tree.len() < 40 || !tree.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(Err(format!(
            "no tree id in {:?}",
            String::from_utf8_lossy(stdout)
        )));
    }
    let mut conflicts: Vec<String> = Vec::new();
    if code == 1 {
        // With -z the names are NUL-terminated; split only on NUL.
        let after = stdout
            .iter()
            .position(|b| *b == 0)
            .map(|i| &stdout[i + 1..])
            .unwrap_or_default();
        for name in after.split(|b| *b == 0).filter(|n| !n.is_empty()) {
            let name = String::from_utf8_lossy(name).into_owned();
            if !conflicts.contains(&name) {
                conflicts.push(name);
            }
        }
        if conflicts.is_empty() {
            conflicts.push("(unknown file)".into());
        }
    }
    Some(Ok(Merge { tree, conflicts }))
}

/// The blob (or other object) id of every entry of `ls-tree -r -z`'s
/// output, by path.
pub fn ls_tree(stdout: &[u8]) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for rec in stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rec = String::from_utf8_lossy(rec);
        let Some((meta, path)) = rec.split_once('\t') else {
            continue;
        };
        if let Some(oid) = meta.split(' ').nth(2) {
            map.insert(path.to_string(), oid.to_string());
        }
    }
    map
}

/// The worktrees of `worktree list --porcelain -z`'s output that have
/// `full_ref` checked out, by the path git lists them at.
pub fn worktrees_on(out: &str, full_ref: &str) -> Vec<PathBuf> {
    let mut path: Option<PathBuf> = None;
    let mut on = Vec::new();
    for field in out.split('\0') {
        if let Some(p) = field.strip_prefix("worktree ") {
            path = Some(PathBuf::from(p));
        } else if field.strip_prefix("branch ") == Some(full_ref) {
            on.extend(path.clone());
        }
    }
    on
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_tree_output_is_read() {
        let t = "a".repeat(40);
        let clean = merge(0, format!("{t}\0").as_bytes()).expect("a code git uses");
        assert_eq!(
            clean,
            Ok(Merge {
                tree: t.clone(),
                conflicts: vec![]
            })
        );
        let conflicted = merge(1, format!("{t}\0a b.txt\0c\0a b.txt\0\0").as_bytes());
        assert_eq!(
            conflicted.expect("a code git uses").map(|m| m.conflicts),
            Ok(vec!["a b.txt".to_string(), "c".to_string()])
        );
        assert_eq!(
            merge(1, format!("{t}\0").as_bytes()).map(|m| m.map(|m| m.conflicts)),
            Some(Ok(vec!["(unknown file)".to_string()]))
        );
        assert!(merge(128, b"").is_none());
        assert!(matches!(merge(0, b"fatal\0"), Some(Err(_))));
    }

    #[test]
    fn ls_tree_and_worktree_lists_are_read() {
        let m = ls_tree(b"100644 blob 1111\ta b.txt\x00040000 tree 2222\tdir\x00garbage\x00");
        assert_eq!(m.get("a b.txt").map(String::as_str), Some("1111"));
        assert_eq!(m.get("dir").map(String::as_str), Some("2222"));
        assert_eq!(m.len(), 2);
        let list = "worktree /a\0HEAD 1\0branch refs/heads/main\0\0worktree /b c\0HEAD 2\0branch refs/heads/x\0\0worktree /d\0HEAD 3\0detached\0\0";
        assert_eq!(worktrees_on(list, "refs/heads/x"), [PathBuf::from("/b c")]);
        assert_eq!(worktrees_on(list, "refs/heads/main"), [PathBuf::from("/a")]);
        assert!(worktrees_on(list, "refs/heads/none").is_empty());
    }
}
