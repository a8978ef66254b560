//! Where a file operation lands, and the places no agent's shell command
//! may delete or write whatever the repository says: the git dir and the
//! hooks folder, our own store, the agents' hook settings, and the user's
//! dotfiles. The lists are data.

use std::path::{Component, Path, PathBuf};

use super::LossFacts;

/// Paths inside the working tree (relative, `/`-separated, compared
/// case-insensitively) that are never deleted or written: a trailing `/`
/// covers everything below; `*` matches within one name.
pub const PROTECTED_IN_TREE: &[(&str, &str)] = &[
    (".git/", "the git dir"),
    (".git", "the git dir"),
    (".fararoni/", "git-fararoni's backup store"),
    (".fararoni", "git-fararoni's backup store"),
    (".claude/settings*.json", "Claude Code's hook settings"),
    (".claude", "Claude Code's settings folder"),
    (".gemini/settings.json", "Gemini CLI's hook settings"),
    (".gemini", "Gemini CLI's settings folder"),
    (".codex/", "Codex CLI's settings"),
    (".codex", "Codex CLI's settings"),
    (".cursor/hooks.json", "Cursor's hook settings"),
    (".cursor", "Cursor's settings folder"),
    (".clinerules/hooks/", "Cline's hooks"),
    (".clinerules", "Cline's rules and hooks"),
    (".github/hooks/", "Copilot CLI's hooks"),
    (".github/hooks", "Copilot CLI's hooks"),
    (".github", "the repository's GitHub settings and hooks"),
];

/// Paths under `$HOME` that are never deleted or written (the rest of
/// `$HOME` is outside the working tree, which is vetoed anyway; this list
/// names them in the reason and holds even when the worktree is `$HOME`).
/// Matched on the first name below `$HOME`, first entry wins.
pub const PROTECTED_IN_HOME: &[(&str, &str)] = &[
    (".ssh", "SSH keys and config"),
    (".config", "user configuration"),
    (".local", "user programs and data"),
    (".claude", "Claude Code's settings"),
    (".gemini", "Gemini CLI's settings"),
    (".codex", "Codex CLI's settings"),
    (".cursor", "Cursor's settings"),
    (".bashrc", "a shell rc file"),
    (".zshrc", "a shell rc file"),
    (".profile", "a shell rc file"),
    (".gitconfig", "the user's git configuration"),
    (".*", "a dotfile in the home folder"),
];

/// Absolute places never written, wherever the worktree is.
pub const PROTECTED_ABSOLUTE: &[(&str, &str)] = &[
    ("/var/spool/cron/", "crontabs"),
    ("/etc/", "system configuration"),
];

/// Temporary folders whose contents are expendable.
pub fn temp_dirs() -> Vec<PathBuf> {
    let mut v = vec![resolve_abs(&std::env::temp_dir(), true)];
    for t in ["/tmp", "/var/tmp", "/dev/shm"] {
        let p = resolve_abs(Path::new(t), true);
        if !v.contains(&p) {
            v.push(p);
        }
    }
    v
}

/// Joins `word` to `cwd` (with `~` for `home`) and normalises `.`/`..`
/// lexically.
pub fn absolute(cwd: &Path, home: Option<&str>, word: &str) -> PathBuf {
    let joined = if let Some(rest) = word.strip_prefix('~') {
        let (user, tail) = rest.split_once('/').unwrap_or((rest, ""));
        match (home, user) {
            (Some(h), "") => PathBuf::from(format!("{h}{rest}")),
            (None, "") => cwd.join(word),
            // `~+` is the cwd, `~-` the previous one (not known: `/`).
            (_, "+") => cwd.join(tail),
            (_, "-") => Path::new("/").join(tail),
            (_, u)
                if u.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) =>
            {
                user_home(u).join(tail)
            }
            _ => cwd.join(word),
        }
    } else {
        cwd.join(word)
    };
    normalize(&joined)
}

/// The home folder bash's `~user` expands to (the password file). A user
/// the file does not list (a directory service, or none) is taken to live
/// in `/home/user`: outside the worktree, never the literal `~user`.
fn user_home(user: &str) -> PathBuf {
    std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                let f: Vec<&str> = l.split(':').collect();
                (f.len() >= 6 && f[0] == user).then(|| PathBuf::from(f[5]))
            })
        })
        .unwrap_or_else(|| Path::new("/home").join(user))
}

/// Removes `.` and `..` lexically.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The symlink inside the working tree `top` through which `abs` (as
/// written, not resolved) leaves it, if any: a planted `escape ->
/// /elsewhere` makes `rm escape/x` a deletion outside, wherever that lies
/// (even in a temp folder). The last name counts only when the operation
/// follows it (`rm link` removes the link itself). The one place the
/// shell judgement decides symlink escapes, beside [`resolve_abs`].
pub fn escaping_link(top: &Path, abs: &Path, follow: bool) -> Option<PathBuf> {
    let lexical = normalize(abs);
    let rel = lexical.strip_prefix(top).ok()?;
    let names: Vec<_> = rel.components().collect();
    let checked = if follow {
        names.len()
    } else {
        names.len().saturating_sub(1)
    };
    let mut here = top.to_path_buf();
    for c in names.iter().take(checked) {
        here.push(c);
        let is_link = here
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if is_link && !resolve_abs(&here, true).starts_with(top) {
            return Some(here);
        }
    }
    None
}

/// Resolves symlinks in `p` the way an operation on it would: the parent
/// always, the last name only when `follow` (a write goes through a link;
/// `rm link` removes the link itself). Names that do not exist yet are
/// kept as written.
pub fn resolve_abs(p: &Path, follow: bool) -> PathBuf {
    let p = normalize(p);
    let (parent, name) = match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) if !follow => (parent.to_path_buf(), Some(name.to_owned())),
        _ => (p.clone(), None),
    };
    // The longest existing ancestor, canonicalised, plus the rest.
    let mut base = parent.clone();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    let resolved = loop {
        match base.canonicalize() {
            Ok(c) => break c,
            Err(_) => match (base.parent(), base.file_name()) {
                (Some(up), Some(n)) => {
                    rest.push(n.to_owned());
                    base = up.to_path_buf();
                }
                _ => break base.clone(),
            },
        }
    };
    let mut out = resolved;
    for n in rest.iter().rev() {
        out.push(n);
    }
    if let Some(n) = name {
        out.push(n);
    }
    out
}

fn glob_match(pattern: &str, name: &str) -> bool {
    crate::text::glob::matches(pattern, name)
}

/// Whether the relative path `rel` (lower-cased, `/`-separated) is the
/// table entry `pat` or below it.
fn covered(pat: &str, rel: &str) -> bool {
    if let Some(dir) = pat.strip_suffix('/') {
        return rel == dir || rel.starts_with(&format!("{dir}/"));
    }
    let pn = pat.split('/').count();
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.len() < pn {
        return false;
    }
    let head = parts[..pn].join("/");
    // A file entry covers only itself; a glob in the last name matches it.
    parts.len() == pn
        && pat
            .split('/')
            .zip(head.split('/'))
            .all(|(p, h)| glob_match(p, h))
}

/// Why `path` (absolute, resolved) may never be deleted or written, if so.
pub fn protected(path: &Path, loss: &dyn LossFacts, home: Option<&str>) -> Option<String> {
    protected_as(path, loss, home, true)
}

/// Like [`protected`]; `whole` says the operation takes everything below
/// `path` too (a recursive delete), so a protected place inside counts.
pub fn protected_as(
    path: &Path,
    loss: &dyn LossFacts,
    home: Option<&str>,
    whole: bool,
) -> Option<String> {
    let touches =
        |path: &Path, place: &Path| path.starts_with(place) || (whole && place.starts_with(path));
    for g in loss.git_dirs() {
        if touches(path, &g) {
            return Some(format!("`{}` holds the git dir", path.display()));
        }
    }
    if let Some(h) = loss.hooks_dir() {
        if touches(path, &h) {
            return Some(format!(
                "`{}` holds the hooks folder git runs",
                path.display()
            ));
        }
    }
    for f in loss.config_includes() {
        if touches(path, &f) {
            return Some(format!(
                "`{}` is read by git as configuration (`include.path`), which can set hooks and programs git runs",
                path.display()
            ));
        }
    }
    if let Some(top) = loss.worktree() {
        if let Ok(rel) = path.strip_prefix(&top) {
            let rel = rel.to_string_lossy().to_lowercase().replace('\\', "/");
            for (pat, what) in PROTECTED_IN_TREE {
                if covered(pat, &rel) {
                    return Some(format!("`{rel}` is {what}"));
                }
            }
            // Any `.git` name inside (a nested repository's, or a planted
            // one) counts as a git dir.
            if rel.split('/').any(|c| c == ".git") {
                return Some(format!("`{rel}` is inside a git dir"));
            }
        } else if whole && path != top && top.starts_with(path) {
            return Some(format!(
                "`{}` contains the whole working tree",
                path.display()
            ));
        }
    }
    if let Some(h) = home {
        let h = resolve_abs(Path::new(h), true);
        if let Ok(rel) = path.strip_prefix(&h) {
            let rel = rel.to_string_lossy().to_string();
            if rel.is_empty() {
                return Some("the home folder".to_string());
            }
            let first = rel.split('/').next().unwrap_or("");
            for (pat, what) in PROTECTED_IN_HOME {
                if glob_match(pat, first) {
                    return Some(format!("`~/{rel}` is {what}"));
                }
            }
        } else if whole && h.starts_with(path) {
            return Some(format!("`{}` contains the home folder", path.display()));
        }
    }
    let s = path.to_string_lossy();
    for (pat, what) in PROTECTED_ABSOLUTE {
        if s.starts_with(pat) {
            return Some(format!("`{s}` is {what}"));
        }
    }
    None
}

/// Whether `path` (absolute, resolved) is inside a temporary folder (and
/// not the folder itself), and not inside the home directory: a home that
/// lies under the temp dir (CI runners, sandboxes, test harnesses) holds a
/// person's files, never scratch space.
pub fn in_temp(path: &Path) -> bool {
    let home = crate::settings::read::home_os()
        .filter(|h| !h.is_empty())
        .map(|h| resolve_abs(Path::new(&h), true));
    if home.is_some_and(|h| path.starts_with(&h)) {
        return false;
    }
    temp_dirs()
        .iter()
        .any(|t| path.starts_with(t) && path != t.as_path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_entries_cover_what_they_say() {
        assert!(covered(".git/", ".git/hooks/pre-commit"));
        assert!(covered(".git/", ".git"));
        assert!(covered(
            ".claude/settings*.json",
            ".claude/settings.local.json"
        ));
        assert!(!covered(".claude/settings*.json", ".claude/other.json"));
        assert!(covered(".clinerules/hooks/", ".clinerules/hooks/x.sh"));
        assert!(!covered(".git/", ".gitignore"));
    }

    #[test]
    fn absolute_handles_tilde_and_dots() {
        let cwd = Path::new("/w/r");
        assert_eq!(
            absolute(cwd, Some("/h"), "~/.ssh"),
            PathBuf::from("/h/.ssh")
        );
        assert_eq!(absolute(cwd, Some("/h"), "../x"), PathBuf::from("/w/x"));
        assert_eq!(absolute(cwd, None, "./a/./b"), PathBuf::from("/w/r/a/b"));
    }

    #[test]
    fn tilde_user_is_a_home_never_a_literal_name() {
        let cwd = Path::new("/w/r");
        assert_eq!(
            absolute(cwd, Some("/h"), "~root/x"),
            user_home("root").join("x")
        );
        assert!(!absolute(cwd, Some("/h"), "~someone-unknown/x").starts_with(cwd));
        assert_eq!(absolute(cwd, None, "~+/src"), PathBuf::from("/w/r/src"));
        assert_eq!(absolute(cwd, None, "~-/x"), PathBuf::from("/x"));
    }
}
