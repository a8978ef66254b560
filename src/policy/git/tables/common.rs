//! Option groups shared by several subcommands: git's diff options, its
//! revision options, commit formatting and the `log` builtin's own.
//!
//! Sources: git 2.47's `add_diff_options` (diff.c), `handle_revision_opt`
//! and `handle_revision_pseudo_opt` (revision.c), `diff_merges_parse_opts`
//! (diff-merges.c) and `cmd_log_init_finish` (builtin/log.c). The revision
//! options are compared with `strcmp`, and the diff and log options are
//! parsed with `PARSE_OPT_KEEP_UNKNOWN_OPT`, which turns abbreviation off:
//! every command made of these groups is `.exact()`.
//!
//! A few letters mean different things in different commands, and a
//! command's table may hold a letter once, so those letters live in groups
//! of their own that a command leaves out when it redefines them:
//! `-u` ([`DIFF_U`]: `stash show -u` is `--include-untracked`), `-n`
//! ([`REV_N`]: blame, shortlog and format-patch), `--committer`
//! ([`REV_COMMITTER`]: a flag in shortlog), and the merge-diff letters
//! `-m`, `-c`, `-t` ([`COMMIT_DIFF`]: blame, diff-index, format-patch).
//!
//! Arity follows git, with the canonical argv in mind: a long option with
//! a required value is re-emitted as `--name=value`, which git's parsers
//! all accept; one whose value is only ever attached (`--format=`,
//! `--min-parents=`) is `opt`, so the next word is never taken for it.

use crate::policy::parse::Table;
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Risk::Destructive;

/// `--pathspec-from-file` and `--pathspec-file-nul`.
pub const PATHSPEC_FILE: &[Opt] = &[
    req('\0', "pathspec-from-file"),
    flag('\0', "pathspec-file-nul"),
];

/// Why `--output` is refused wherever the diff options are accepted.
const WRITES_FILE: &str = "writes to a file git is told";

/// git's diff options (Documentation/diff-options.txt, `add_diff_options`),
/// except `-u` (see [`DIFF_U`]). `--ext-diff` and `--textconv` run the
/// programs the user's own configuration names (`diff.external`,
/// `diff.<driver>.command`, `diff.<driver>.textconv`): allowed, as the
/// configuration is theirs and `-c` cannot add to it.
pub const DIFF: &[Opt] = &[
    // Output format.
    flag('p', "patch").noneg(),
    flag('s', "no-patch").noneg(),
    opt('U', "unified").noneg(),
    flag('W', "function-context"),
    flag('\0', "raw").noneg(),
    flag('\0', "patch-with-raw").noneg(),
    flag('\0', "patch-with-stat").noneg(),
    flag('\0', "numstat").noneg(),
    flag('\0', "shortstat").noneg(),
    opt('X', "dirstat").noneg(),
    flag('\0', "cumulative").noneg(),
    opt('\0', "dirstat-by-file").noneg(),
    flag('\0', "check").noneg(),
    flag('\0', "summary").noneg(),
    flag('\0', "name-only").noneg(),
    flag('\0', "name-status").noneg(),
    opt('\0', "stat").noneg(),
    req('\0', "stat-width").noneg(),
    req('\0', "stat-name-width").noneg(),
    req('\0', "stat-graph-width").noneg(),
    req('\0', "stat-count").noneg(),
    flag('\0', "compact-summary"),
    flag('\0', "binary").noneg(),
    flag('\0', "full-index"),
    opt('\0', "color"),
    req('\0', "ws-error-highlight").noneg(),
    flag('z', ""),
    opt('\0', "abbrev"),
    req('\0', "src-prefix").noneg(),
    req('\0', "dst-prefix").noneg(),
    req('\0', "line-prefix").noneg(),
    flag('\0', "no-prefix").noneg(),
    flag('\0', "default-prefix").noneg(),
    req('\0', "inter-hunk-context").noneg(),
    req('\0', "output-indicator-new").noneg(),
    req('\0', "output-indicator-old").noneg(),
    req('\0', "output-indicator-context").noneg(),
    // Renames.
    opt('B', "break-rewrites").noneg(),
    opt('M', "find-renames").noneg(),
    flag('D', "irreversible-delete").noneg(),
    opt('C', "find-copies").noneg(),
    flag('\0', "find-copies-harder"),
    flag('\0', "no-renames").noneg(),
    flag('\0', "rename-empty"),
    flag('\0', "follow"),
    req('l', ""),
    // Algorithm.
    flag('\0', "minimal").noneg(),
    flag('w', "ignore-all-space").noneg(),
    flag('b', "ignore-space-change").noneg(),
    flag('\0', "ignore-space-at-eol").noneg(),
    flag('\0', "ignore-cr-at-eol").noneg(),
    flag('\0', "ignore-blank-lines").noneg(),
    req('I', "ignore-matching-lines"),
    flag('\0', "indent-heuristic"),
    flag('\0', "patience").noneg(),
    flag('\0', "histogram").noneg(),
    req('\0', "diff-algorithm").noneg(),
    req('\0', "anchored").noneg(),
    opt('\0', "word-diff").noneg(),
    req('\0', "word-diff-regex").noneg(),
    opt('\0', "color-words").noneg(),
    opt('\0', "color-moved"),
    req('\0', "color-moved-ws"),
    // Other.
    opt('\0', "relative"),
    flag('a', "text"),
    flag('R', ""),
    flag('\0', "exit-code"),
    flag('\0', "quiet"),
    flag('\0', "ext-diff"),
    flag('\0', "textconv"),
    opt('\0', "ignore-submodules").noneg(),
    opt('\0', "submodule").noneg(),
    flag('\0', "ita-invisible-in-index").noneg(),
    flag('\0', "ita-visible-in-index").noneg(),
    req('S', ""),
    req('G', ""),
    flag('\0', "pickaxe-all").noneg(),
    flag('\0', "pickaxe-regex").noneg(),
    // `-O` reads the order file; it writes nothing.
    req('O', ""),
    req('\0', "rotate-to").noneg(),
    req('\0', "skip-to").noneg(),
    req('\0', "find-object").noneg(),
    req('\0', "diff-filter").noneg(),
    req('\0', "output").noneg().raise(Destructive, WRITES_FILE),
];

/// `-u`, git's synonym of `-p`: apart from [`DIFF`] because `stash show`
/// takes `-u` for `--include-untracked`.
pub const DIFF_U: &[Opt] = &[flag('u', "")];

/// How a commit's own diff is made (diff-merges.c and revision.c): merge
/// commits (`-m`, `-c`, `--cc`, …), root commits, recursion into trees.
pub const COMMIT_DIFF: &[Opt] = &[
    flag('m', ""),
    flag('c', ""),
    flag('\0', "cc").noneg(),
    flag('\0', "dd").noneg(),
    flag('\0', "remerge-diff").noneg(),
    req('\0', "diff-merges").noneg(),
    flag('\0', "no-diff-merges").noneg(),
    flag('\0', "combined-all-paths").noneg(),
    flag('r', ""),
    flag('t', ""),
    flag('\0', "root").noneg(),
    flag('\0', "full-diff").noneg(),
];

/// git's revision options (Documentation/rev-list-options.txt): commit
/// limiting, the refs to start from, history simplification, ordering and
/// object traversal; without `-n` ([`REV_N`]) and `--committer`
/// ([`REV_COMMITTER`]). `--stdin` reads revisions from standard input.
/// `--default REV` is left out: git accepts only the two-word form, which
/// the canonical argv cannot keep.
pub const REV: &[Opt] = &[
    // Limiting.
    req('\0', "max-count").noneg(),
    req('\0', "skip").noneg(),
    req('\0', "since").noneg(),
    req('\0', "since-as-filter").noneg(),
    req('\0', "after").noneg(),
    req('\0', "until").noneg(),
    req('\0', "before").noneg(),
    req('\0', "max-age").noneg(),
    req('\0', "min-age").noneg(),
    req('\0', "author").noneg(),
    req('\0', "grep-reflog").noneg(),
    req('\0', "grep").noneg(),
    flag('\0', "all-match").noneg(),
    flag('\0', "invert-grep").noneg(),
    flag('i', "regexp-ignore-case").noneg(),
    flag('\0', "basic-regexp").noneg(),
    flag('E', "extended-regexp").noneg(),
    flag('F', "fixed-strings").noneg(),
    flag('P', "perl-regexp").noneg(),
    flag('\0', "remove-empty").noneg(),
    flag('\0', "merges").noneg(),
    flag('\0', "no-merges").noneg(),
    opt('\0', "min-parents").noneg(),
    flag('\0', "no-min-parents").noneg(),
    opt('\0', "max-parents").noneg(),
    flag('\0', "no-max-parents").noneg(),
    flag('\0', "first-parent").noneg(),
    flag('\0', "exclude-first-parent-only").noneg(),
    flag('\0', "cherry-mark").noneg(),
    flag('\0', "cherry-pick").noneg(),
    flag('\0', "left-only").noneg(),
    flag('\0', "right-only").noneg(),
    flag('\0', "cherry").noneg(),
    flag('g', "walk-reflogs").noneg(),
    flag('\0', "merge").noneg(),
    flag('\0', "boundary").noneg(),
    flag('\0', "ignore-missing").noneg(),
    // Where to start.
    flag('\0', "not").noneg(),
    flag('\0', "all").noneg(),
    opt('\0', "branches").noneg(),
    opt('\0', "tags").noneg(),
    opt('\0', "remotes").noneg(),
    req('\0', "glob").noneg(),
    req('\0', "exclude").noneg(),
    req('\0', "exclude-hidden").noneg(),
    flag('\0', "reflog").noneg(),
    flag('\0', "alternate-refs").noneg(),
    flag('\0', "single-worktree").noneg(),
    flag('\0', "indexed-objects").noneg(),
    flag('\0', "bisect").noneg(),
    flag('\0', "stdin").noneg(),
    opt('\0', "no-walk").noneg(),
    flag('\0', "do-walk").noneg(),
    // History simplification.
    flag('\0', "full-history").noneg(),
    flag('\0', "dense").noneg(),
    flag('\0', "sparse").noneg(),
    flag('\0', "simplify-merges").noneg(),
    flag('\0', "simplify-by-decoration").noneg(),
    opt('\0', "ancestry-path").noneg(),
    flag('\0', "show-pulls").noneg(),
    // Ordering.
    flag('\0', "date-order").noneg(),
    flag('\0', "author-date-order").noneg(),
    flag('\0', "topo-order").noneg(),
    flag('\0', "reverse").noneg(),
    opt('\0', "early-output").noneg(),
    // Object traversal.
    flag('\0', "objects").noneg(),
    flag('\0', "objects-edge").noneg(),
    flag('\0', "objects-edge-aggressive").noneg(),
    flag('\0', "verify-objects").noneg(),
    flag('\0', "unpacked").noneg(),
    opt('\0', "no-kept-objects").noneg(),
    flag('\0', "in-commit-order").noneg(),
    opt('\0', "filter").noneg(),
    flag('\0', "no-filter").noneg(),
];

/// `-n <count>`: apart from [`REV`] because blame (`--show-number`),
/// shortlog (`--numbered`) and format-patch (`--numbered`) give `-n` their
/// own meaning.
pub const REV_N: &[Opt] = &[req('n', "")];

/// `--committer=<pattern>`: apart from [`REV`] because shortlog's
/// `--committer` is a flag.
pub const REV_COMMITTER: &[Opt] = &[req('\0', "committer").noneg()];

/// How each commit is shown (Documentation/pretty-options.txt and the
/// formatting part of rev-list-options.txt).
pub const PRETTY: &[Opt] = &[
    opt('\0', "pretty").noneg(),
    opt('\0', "format").noneg(),
    flag('\0', "oneline").noneg(),
    flag('\0', "abbrev-commit"),
    req('\0', "encoding").noneg(),
    opt('\0', "expand-tabs"),
    opt('\0', "notes"),
    opt('\0', "show-notes").noneg(),
    flag('\0', "standard-notes"),
    flag('\0', "show-notes-by-default").noneg(),
    flag('\0', "show-signature"),
    flag('\0', "relative-date").noneg(),
    req('\0', "date").noneg(),
    flag('\0', "parents").noneg(),
    flag('\0', "children").noneg(),
    flag('\0', "left-right").noneg(),
    flag('\0', "graph"),
    opt('\0', "show-linear-break").noneg(),
    flag('\0', "log-size").noneg(),
    flag('\0', "always").noneg(),
    flag('\0', "no-commit-id").noneg(),
    flag('\0', "encode-email-headers"),
];

/// The `log` builtin's own options (log, show, whatchanged, reflog).
/// `-q` is short only: its long spelling `--quiet` is [`DIFF`]'s entry,
/// which every command with this group also has.
pub const LOG: &[Opt] = &[
    flag('q', ""),
    flag('\0', "source"),
    flag('\0', "use-mailmap"),
    flag('\0', "mailmap"),
    flag('\0', "clear-decorations").noneg(),
    req('\0', "decorate-refs"),
    req('\0', "decorate-refs-exclude"),
    opt('\0', "decorate"),
    req('L', ""),
];

/// Every option of `git log` and the commands that are `log` underneath
/// (`show`, `whatchanged`, `reflog show`, `stash list`).
/// Every option of `git log` (keep `inspect::REFLOG` in step).
pub const LOG_OPTIONS: Table = &[
    LOG,
    REV,
    REV_N,
    REV_COMMITTER,
    PRETTY,
    COMMIT_DIFF,
    DIFF,
    DIFF_U,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::git::tables::all;
    use crate::policy::git::{Command, Rule};
    use crate::policy::spec::Arity;
    use crate::policy::{classify_words, Risk};

    /// Every command (and verb) whose table holds `group`, by its path as
    /// typed after `git`.
    fn holders(group: &'static [Opt]) -> Vec<(String, &'static Command)> {
        fn walk(
            path: String,
            c: &'static Command,
            group: &'static [Opt],
            found: &mut Vec<(String, &'static Command)>,
        ) {
            // Constants are inlined where used, so groups are compared by
            // their entries, not their addresses.
            let same = |g: &[Opt]| {
                g.len() == group.len()
                    && g.iter()
                        .zip(group)
                        .all(|(a, b)| a.long == b.long && a.short == b.short)
            };
            if c.opts.iter().any(|g| same(g)) {
                found.push((path.clone(), c));
            }
            if let Rule::Verbs(verbs, ..) = c.rule {
                for v in verbs {
                    walk(format!("{path} {}", v.name), v, group, found);
                }
            }
        }
        let mut found = Vec::new();
        for c in all() {
            walk(c.name.to_string(), c, group, &mut found);
        }
        found
    }

    #[test]
    fn output_is_destructive_wherever_the_diff_options_are() {
        let holders = holders(DIFF);
        // log, whatchanged, show, reflog, diff, diff-files, diff-index,
        // diff-tree, range-diff, difftool, format-patch, fast-export,
        // stash show: if a group split drops DIFF somewhere, this shrinks.
        assert!(holders.len() >= 13, "{}", holders.len());
        for (path, _) in &holders {
            for spelling in [
                format!("git {path} --output=out.txt"),
                format!("git {path} --output out.txt"),
                format!("git {path} -p --output=.git/hooks/pre-commit"),
                format!("git {path} HEAD --output=../outside"),
                format!("git {path} -U 3 --output=out.txt"),
                format!("git {path} --stat=80 -M --output ~/.bashrc"),
            ] {
                let v = classify_words(&spelling);
                assert!(v.blocked(), "{spelling}: {v:?}");
                assert!(!v.unknown, "{spelling} is refused as unknown: {v:?}");
                assert!(v.risk >= Risk::Destructive, "{spelling}: {v:?}");
            }
            // The table refuses `--no-output`, as git does.
            let v = classify_words(&format!("git {path} --no-output"));
            assert!(v.unknown, "{path} --no-output: {v:?}");
        }
    }

    #[test]
    fn exact_commands_refuse_abbreviations_of_output() {
        for path in [
            "log",
            "show",
            "diff",
            "diff-tree",
            "format-patch --stdout",
            "stash show",
        ] {
            for abbreviated in ["--outp=x", "--outpu=x", "--out=x", "--o=x", "--output-=x"] {
                let line = format!("git {path} {abbreviated}");
                let v = classify_words(&line);
                assert!(v.unknown, "{line}: {v:?}");
            }
        }
    }

    /// A spelling git accepts for `o`, as the canonical argv would write it.
    fn spelling(o: &Opt) -> Vec<String> {
        let long = (!o.long.is_empty()).then(|| format!("--{}", o.long));
        let short = (o.short != '\0').then(|| format!("-{}", o.short));
        match (o.arity, long, short) {
            (Arity::Flag | Arity::Optional, Some(l), _) => vec![l],
            (Arity::Flag | Arity::Optional, None, Some(s)) => vec![s],
            (Arity::Required | Arity::LastDefault, Some(l), _) => vec![format!("{l}=1")],
            (Arity::Required | Arity::LastDefault, None, Some(s)) => vec![format!("{s}1")],
            _ => Vec::new(),
        }
    }

    #[test]
    fn every_log_option_parses_in_every_log_command() {
        let mut checked = 0;
        for path in ["log", "show", "whatchanged", "reflog show"] {
            for o in LOG_OPTIONS.iter().flat_map(|g| g.iter()) {
                let words = spelling(o).join(" ");
                let line = format!("git {path} {words}");
                let v = classify_words(&line);
                assert!(!v.unknown, "{line}: {v:?}");
                assert_eq!(v.argv.join(" "), line, "{line}");
                if o.long == "output" {
                    assert_eq!(v.risk, Risk::Destructive, "{line}");
                } else {
                    assert_eq!(v.risk, Risk::ReadOnly, "{line}: {v:?}");
                }
                checked += 1;
            }
        }
        assert!(checked > 4 * 200, "{checked}");
    }

    #[test]
    fn values_that_look_like_options_stay_values() {
        for (line, canonical) in [
            // git takes the next word as the pickaxe string: nothing is written.
            ("git log -S--output=x.txt", "git log -S--output=x.txt"),
            ("git log --grep --output=x", "git log --grep=--output=x"),
            ("git log --author -p", "git log --author=-p"),
            ("git diff -I--output=x", "git diff -I--output=x"),
            ("git log -L--output=x", "git log -L--output=x"),
            (
                "git diff --src-prefix --output=x",
                "git diff --src-prefix=--output=x",
            ),
            ("git log --date --output", "git log --date=--output"),
        ] {
            let v = classify_words(line);
            assert_eq!(v.risk, Risk::ReadOnly, "{line}: {v:?}");
            assert!(!v.blocked(), "{line}: {v:?}");
            assert_eq!(v.argv.join(" "), canonical, "{line}");
        }
        // An optional value is never the next word: the next word is judged.
        for line in [
            "git diff --stat --output=x",
            "git log --format --output=x",
            "git log --pretty --output=x",
            "git diff -U --output=x",
            "git diff --color --output x",
            "git log --decorate --output=x",
            "git log --notes --output=x",
            "git diff --relative --output=x",
            "git log --abbrev --output=x",
        ] {
            let v = classify_words(line);
            assert!(v.blocked() && !v.unknown, "{line}: {v:?}");
        }
    }

    #[test]
    fn negations_are_the_ones_git_has() {
        for line in [
            "git log --no-notes --no-abbrev-commit --no-decorate --no-color -1",
            "git log --no-merges --no-walk --no-graph --no-expand-tabs",
            "git show --no-patch --no-ext-diff --no-textconv --no-mailmap",
            "git diff --no-renames --no-prefix --no-indent-heuristic --no-relative",
            "git log --no-min-parents --no-max-parents --no-standard-notes",
            "git show --no-show-signature --no-abbrev --no-color-moved",
        ] {
            let v = classify_words(line);
            assert_eq!(v.risk, Risk::ReadOnly, "{line}: {v:?}");
            assert_eq!(v.argv.join(" "), line);
        }
        // git refuses these, so the policy does too.
        for line in [
            "git diff --renames",
            "git log --no-stat",
            "git log --no-oneline",
            "git diff --no-binary",
            "git log --no-first-parent",
            "git log --walk",
            "git diff --prefix",
        ] {
            assert!(classify_words(line).unknown, "{line}");
        }
    }

    #[test]
    fn colliding_letters_belong_to_one_group_per_command() {
        // `-u` is `--include-untracked` in `stash show`, a patch elsewhere.
        assert_eq!(
            classify_words("git stash show -u").argv.join(" "),
            "git stash show -u"
        );
        assert_eq!(classify_words("git diff -u").risk, Risk::ReadOnly);
        // `-n` takes a count in log, is a flag in blame and shortlog.
        assert_eq!(classify_words("git log -n3").argv.join(" "), "git log -n3");
        let v = classify_words("git blame -n README.md");
        assert_eq!(v.argv.join(" "), "git blame -n README.md");
        // `--committer` takes a pattern in log, is a flag in shortlog.
        assert_eq!(
            classify_words("git log --committer alice").argv.join(" "),
            "git log --committer=alice"
        );
        assert_eq!(
            classify_words("git shortlog --committer HEAD")
                .argv
                .join(" "),
            "git shortlog --committer HEAD"
        );
    }
}
