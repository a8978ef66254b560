//! `NAME=value` prefixes: an allow-list. Everything not listed is refused,
//! because environment variables are how programs are told to run other
//! programs (`GIT_SSH_COMMAND`, `PAGER`, `LD_PRELOAD`), to write files
//! (`GIT_TRACE=<path>`), or to work on another repository (`GIT_DIR`).

/// How a variable may be set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// Any value.
    Any,
    /// `0`, `1`, `true` or `false`.
    Bool,
    /// Only where it names the current repository (checked by git's place
    /// rules: `GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`).
    Place,
}

/// Variables any allowed program may be given, with why they are harmless.
const ANYWHERE: &[(&str, Allowed, &str)] = &[
    ("LANG", Allowed::Any, "locale"),
    ("LANGUAGE", Allowed::Any, "message language"),
    ("TZ", Allowed::Any, "time zone"),
    ("NO_COLOR", Allowed::Any, "turns colour off"),
    ("COLUMNS", Allowed::Any, "output width"),
];

/// Variables git may be given in addition.
const GIT: &[(&str, Allowed, &str)] = &[
    ("GIT_AUTHOR_NAME", Allowed::Any, "identity of a new commit"),
    ("GIT_AUTHOR_EMAIL", Allowed::Any, "identity of a new commit"),
    ("GIT_AUTHOR_DATE", Allowed::Any, "date of a new commit"),
    (
        "GIT_COMMITTER_NAME",
        Allowed::Any,
        "identity of a new commit",
    ),
    (
        "GIT_COMMITTER_EMAIL",
        Allowed::Any,
        "identity of a new commit",
    ),
    ("GIT_COMMITTER_DATE", Allowed::Any, "date of a new commit"),
    ("GIT_LITERAL_PATHSPECS", Allowed::Bool, "pathspec syntax"),
    ("GIT_GLOB_PATHSPECS", Allowed::Bool, "pathspec syntax"),
    ("GIT_NOGLOB_PATHSPECS", Allowed::Bool, "pathspec syntax"),
    ("GIT_ICASE_PATHSPECS", Allowed::Bool, "pathspec syntax"),
    ("GIT_OPTIONAL_LOCKS", Allowed::Bool, "index refresh locking"),
    ("GIT_ADVICE", Allowed::Bool, "advice messages"),
    ("GIT_FLUSH", Allowed::Bool, "output buffering"),
    ("GIT_DIR", Allowed::Place, "only the current repository"),
    (
        "GIT_WORK_TREE",
        Allowed::Place,
        "only the current work tree",
    ),
    ("GIT_INDEX_FILE", Allowed::Place, "only the current index"),
];

/// Looks `name` up for a program (`git` gets the git table too); `LC_*`
/// are locale variables.
pub fn lookup(name: &str, git: bool) -> Option<Allowed> {
    if name.starts_with("LC_")
        && name[3..]
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b == b'_')
    {
        return Some(Allowed::Any);
    }
    ANYWHERE
        .iter()
        .chain(if git { GIT } else { &[] })
        .find(|(n, _, _)| *n == name)
        .map(|(_, a, _)| *a)
}

/// Why `name=value` is refused, if it is; `Place` variables are accepted
/// here and checked by the caller.
pub fn refusal(name: &str, value: &str, git: bool) -> Option<String> {
    match lookup(name, git) {
        Some(Allowed::Any) | Some(Allowed::Place) => None,
        Some(Allowed::Bool) => (!matches!(value, "0" | "1" | "true" | "false")).then(|| {
            format!("rule env: `{name}` takes 0, 1, true or false, not `{value}`")
        }),
        None => Some(format!(
            "rule env: the environment variable `{name}` is not on the allow-list (locale, time zone, commit identity and dates{}); variables can make programs run other programs or write files",
            if git { ", pathspec switches" } else { "" }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_listed_variables_pass() {
        assert!(refusal("LC_ALL", "C", false).is_none());
        assert!(refusal("TZ", "UTC", false).is_none());
        assert!(refusal("GIT_AUTHOR_NAME", "x", true).is_none());
        assert!(refusal("GIT_AUTHOR_NAME", "x", false).is_some());
        for bad in [
            "GIT_TRACE",
            "GIT_SSH_COMMAND",
            "PAGER",
            "GIT_PAGER",
            "LD_PRELOAD",
            "PATH",
            "GIT_CONFIG_COUNT",
            "GIT_CONFIG_PARAMETERS",
            "GIT_EXTERNAL_DIFF",
            "EDITOR",
            "lc_all",
            "LC_ALL2",
        ] {
            assert!(refusal(bad, "x", true).is_some(), "{bad}");
        }
        assert!(refusal("GIT_LITERAL_PATHSPECS", "yes", true).is_some());
    }
}
