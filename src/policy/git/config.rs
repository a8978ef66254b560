//! `-c key=value` for one command: an allow-list of keys that change only
//! how git shows things or the identity of a new commit. Every other key
//! is refused — configuration is how git is told to run programs
//! (`core.pager`, `trailer.*.cmd`, `tar.*.command`, `gpg.*`), to drop its
//! protections (`core.hooksPath`), to prune (`gc.pruneExpire`) or to talk
//! to other hosts (`url.*.insteadOf`).

use crate::policy::Risk;

/// What values a key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Values {
    /// Anything.
    Any,
    /// A boolean (`pager.*`: a string would be a program to run).
    Bool,
    /// An alias that is not a shell command (`!…`); it is expanded and
    /// classified like any command.
    Alias,
}

/// Allowed keys: `section.name`, `section.*` (any name, no subsection) or
/// `section.*.name` (any subsection). Compared case-insensitively.
const ALLOWED: &[(&str, Values)] = &[
    ("color.*", Values::Any),
    ("color.*.*", Values::Any),
    ("advice.*", Values::Any),
    ("user.name", Values::Any),
    ("user.email", Values::Any),
    ("author.name", Values::Any),
    ("author.email", Values::Any),
    ("committer.name", Values::Any),
    ("committer.email", Values::Any),
    ("init.defaultbranch", Values::Any),
    ("core.quotepath", Values::Any),
    ("core.abbrev", Values::Any),
    ("column.ui", Values::Any),
    ("column.branch", Values::Any),
    ("column.status", Values::Any),
    ("column.tag", Values::Any),
    ("log.date", Values::Any),
    ("log.decorate", Values::Any),
    ("log.abbrevcommit", Values::Any),
    ("log.follow", Values::Any),
    ("log.showroot", Values::Any),
    ("log.mailmap", Values::Any),
    ("log.graphcolors", Values::Any),
    ("log.excludedecoration", Values::Any),
    ("log.initialdecorationset", Values::Any),
    ("format.pretty", Values::Any),
    ("pretty.*", Values::Any),
    ("diff.renames", Values::Any),
    ("diff.renamelimit", Values::Any),
    ("diff.algorithm", Values::Any),
    ("diff.noprefix", Values::Any),
    ("diff.mnemonicprefix", Values::Any),
    ("diff.relative", Values::Any),
    ("diff.context", Values::Any),
    ("diff.interhunkcontext", Values::Any),
    ("diff.colormoved", Values::Any),
    ("diff.colormovedws", Values::Any),
    ("diff.indentheuristic", Values::Any),
    ("diff.suppressblankempty", Values::Any),
    ("diff.statgraphwidth", Values::Any),
    ("diff.statnamewidth", Values::Any),
    ("diff.dirstat", Values::Any),
    ("diff.ignoresubmodules", Values::Any),
    ("diff.submodule", Values::Any),
    ("diff.wserrorhighlight", Values::Any),
    ("status.short", Values::Any),
    ("status.branch", Values::Any),
    ("status.showuntrackedfiles", Values::Any),
    ("status.showstash", Values::Any),
    ("status.relativepaths", Values::Any),
    ("status.aheadbehind", Values::Any),
    ("status.renames", Values::Any),
    ("status.renamelimit", Values::Any),
    ("status.displaycommentprefix", Values::Any),
    ("branch.sort", Values::Any),
    ("tag.sort", Values::Any),
    ("grep.linenumber", Values::Any),
    ("grep.column", Values::Any),
    ("grep.patterntype", Values::Any),
    ("grep.extendedregexp", Values::Any),
    ("grep.fullname", Values::Any),
    ("grep.threads", Values::Any),
    ("blame.blankboundary", Values::Any),
    ("blame.showroot", Values::Any),
    ("blame.showemail", Values::Any),
    ("blame.date", Values::Any),
    ("blame.coloring", Values::Any),
    ("merge.conflictstyle", Values::Any),
    ("commit.verbose", Values::Any),
    ("commit.status", Values::Any),
    ("commit.cleanup", Values::Any),
    ("i18n.commitencoding", Values::Any),
    ("i18n.logoutputencoding", Values::Any),
    ("pager.*", Values::Bool),
    ("alias.*", Values::Alias),
];

/// Keys refused as destructive rather than as running programs.
const DESTRUCTIVE: &[&str] = &[
    "core.hookspath",
    "core.worktree",
    "core.bare",
    "gc.",
    "maintenance.",
    "receive.",
    "safe.",
    "fararoni.",
];

fn matches(pattern: &str, key: &str) -> bool {
    let p: Vec<&str> = pattern.split('.').collect();
    let k: Vec<&str> = key.split('.').collect();
    p.len() == k.len() && p.iter().zip(&k).all(|(p, k)| *p == "*" || p == k)
}

/// Why `-c key=value` is refused, if it is: the risk and the reason.
pub fn key_refusal(key: &str, value: &str) -> Option<(Risk, String)> {
    let lower = key.to_ascii_lowercase();
    // The expiries gc runs with: `never` keeps everything, which only
    // protects (the argv gc runs with carries them, and is judged again).
    let keeps = super::tables::history::GC_KEEPS.iter().any(|k| {
        k.split_once('=')
            .is_some_and(|(kk, v)| kk.eq_ignore_ascii_case(key) && v.eq_ignore_ascii_case(value))
    });
    if keeps {
        return None;
    }
    // The subsection keeps its case in git, but the allow-list has no
    // case-sensitive subsections, so folding everything is safe.
    let allowed = ALLOWED.iter().find(|(p, _)| matches(p, &lower));
    match allowed {
        Some((_, Values::Any)) => None,
        Some((_, Values::Bool)) => {
            let v = value.to_ascii_lowercase();
            (!matches!(
                v.as_str(),
                "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
            ))
            .then(|| {
                (
                    Risk::UnsafeShell,
                    format!("rule git.config-key: `{key}` takes true or false here; any other value is a program to run"),
                )
            })
        }
        Some((_, Values::Alias)) => value.trim_start().starts_with('!').then(|| {
            (
                Risk::UnsafeShell,
                format!("rule git.config-key: `{key}` defines a shell alias, which runs arbitrary commands"),
            )
        }),
        None => {
            let destructive = DESTRUCTIVE
                .iter()
                .any(|d| lower == *d || (d.ends_with('.') && lower.starts_with(d)));
            Some(if destructive {
                (
                    Risk::Destructive,
                    format!("rule git.config-key: `-c {key}` can switch protections off or lose work (keys that show output or set the commit identity are allowed)"),
                )
            } else {
                (
                    Risk::UnsafeShell,
                    format!("rule git.config-key: `-c {key}` is not on the allow-list of configuration keys; configuration can make git run other programs"),
                )
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_display_and_identity_keys_pass() {
        for ok in [
            ("color.ui", "always"),
            ("color.diff.old", "red"),
            ("user.name", "x"),
            ("pager.log", "false"),
            ("alias.st", "status"),
            ("Log.Date", "iso"),
        ] {
            assert!(key_refusal(ok.0, ok.1).is_none(), "{ok:?}");
        }
        for (bad, risk) in [
            ("core.hooksPath", Risk::Destructive),
            ("gc.pruneExpire", Risk::Destructive),
            ("fararoni.guard.jaccard", Risk::Destructive),
            ("core.pager", Risk::UnsafeShell),
            ("trailer.x.cmd", Risk::UnsafeShell),
            ("tar.tgz.command", Risk::UnsafeShell),
            ("gpg.ssh.defaultKeyCommand", Risk::UnsafeShell),
            ("url.x.insteadOf", Risk::UnsafeShell),
            ("pager.log", Risk::UnsafeShell),
            ("alias.x", Risk::UnsafeShell),
            ("include.path", Risk::UnsafeShell),
            ("color", Risk::UnsafeShell),
        ] {
            let value = if bad == "pager.log" {
                "less; touch x"
            } else {
                "!x"
            };
            assert_eq!(key_refusal(bad, value).map(|r| r.0), Some(risk), "{bad}");
        }
    }
}
