//! Subcommands that read the repository, and the few read-mostly ones
//! (`format-patch`, `archive`, `bundle`, `merge-tree`, `hash-object`, …)
//! whose writing options are raised.
//!
//! Sources: `git <cmd> -h` of git 2.47 for parse-options commands, the
//! builtins' sources for the rest. Commands parsed with
//! `PARSE_OPT_KEEP_UNKNOWN_OPT` or `strcmp` (log family, diff family,
//! format-patch, fast-export, difftool, rev-parse, …) take no abbreviation
//! and are `.exact()`; blame, shortlog and range-diff accept abbreviations
//! of their own options (checked with the real git) and are not.
//!
//! Reading standard input (`--stdin`, `--batch`, `stripspace`) is read-only:
//! level 1 gives commands an empty or piped standard input, never a
//! terminal, so nothing waits.

use super::common::{COMMIT_DIFF, DIFF, DIFF_U, LOG_OPTIONS, PRETTY, REV, REV_COMMITTER, REV_N};
use crate::policy::git::{cmd, Command, Ctx, Outcome, Rule};
use crate::policy::parse::Parsed;
use crate::policy::spec::{flag, last, opt, req, Opt};
use crate::policy::Risk::{self, Destructive, LocalWrite, ReadOnly, Remote, UnsafeShell};

fn out(risk: Risk, why: &str) -> Outcome {
    (risk, why.to_string())
}

const STATUS: &[Opt] = &[
    flag('v', "verbose"),
    flag('s', "short"),
    flag('b', "branch"),
    flag('\0', "show-stash"),
    flag('\0', "ahead-behind"),
    opt('\0', "porcelain"),
    flag('\0', "long"),
    flag('z', "null"),
    opt('u', "untracked-files"),
    opt('\0', "ignored"),
    opt('\0', "ignore-submodules"),
    opt('\0', "column"),
    flag('\0', "no-renames"),
    opt('M', "find-renames").noneg(),
];

/// `git diff`'s own options; `-1`/`-2`/`-3` are `-<n>` (`.numeric()`).
const DIFF_CMD: &[Opt] = &[
    flag('\0', "cached").noneg(),
    flag('\0', "staged").noneg(),
    flag('\0', "merge-base").noneg(),
    // Compares two paths, inside the repository or not: it reads them.
    flag('\0', "no-index").noneg(),
    flag('\0', "base").noneg(),
    flag('\0', "ours").noneg(),
    flag('\0', "theirs").noneg(),
    flag('q', ""),
];

const DIFF_FILES: &[Opt] = &[
    flag('\0', "base").noneg(),
    flag('\0', "ours").noneg(),
    flag('\0', "theirs").noneg(),
    flag('q', ""),
];

/// `diff-index -m` is its own (`--match-missing`), so [`COMMIT_DIFF`] is
/// left out, as git itself suppresses its `-m`.
const DIFF_INDEX: &[Opt] = &[
    flag('\0', "cached").noneg(),
    flag('\0', "merge-base").noneg(),
    flag('m', ""),
];

const DIFF_TREE: &[Opt] = &[
    flag('\0', "stdin").noneg(),
    flag('\0', "merge-base").noneg(),
    flag('v', ""),
];

/// blame's own options; the revision options it hands on are [`REV`] and
/// [`PRETTY`] (`--since`, `--reverse`, `--first-parent`, `--date`, …).
/// blame also hands on git's diff options, `--output` among them, which
/// would write a file: they are not listed, so they are refused.
const BLAME: &[Opt] = &[
    flag('\0', "incremental"),
    flag('b', ""),
    flag('\0', "root"),
    flag('\0', "show-stats"),
    flag('\0', "progress"),
    flag('\0', "score-debug"),
    flag('f', "show-name"),
    flag('n', "show-number"),
    flag('p', "porcelain"),
    flag('\0', "line-porcelain"),
    flag('c', ""),
    flag('t', ""),
    flag('l', ""),
    flag('s', ""),
    flag('e', "show-email"),
    flag('w', ""),
    req('\0', "ignore-rev"),
    // Reads the list of revisions to skip.
    req('\0', "ignore-revs-file"),
    flag('\0', "color-lines"),
    flag('\0', "color-by-age"),
    flag('\0', "minimal"),
    // Reads revisions from a file.
    req('S', ""),
    // Reads a file (or standard input) as the final image.
    req('\0', "contents"),
    opt('C', ""),
    opt('M', ""),
    req('L', ""),
    opt('\0', "abbrev"),
];

/// grep's options. `-O` runs the pager, or the program it is given, on the
/// matching files.
const GREP: &[Opt] = &[
    flag('\0', "cached"),
    // Searches files outside git's control: it reads them.
    flag('\0', "no-index"),
    flag('\0', "untracked"),
    flag('\0', "exclude-standard"),
    flag('\0', "recurse-submodules"),
    flag('v', "invert-match"),
    flag('i', "ignore-case"),
    flag('w', "word-regexp"),
    flag('a', "text"),
    flag('I', ""),
    flag('\0', "textconv"),
    flag('r', "recursive"),
    req('\0', "max-depth").noneg(),
    flag('E', "extended-regexp"),
    flag('G', "basic-regexp"),
    flag('F', "fixed-strings"),
    flag('P', "perl-regexp"),
    flag('n', "line-number"),
    flag('\0', "column"),
    flag('h', ""),
    flag('H', ""),
    flag('\0', "full-name"),
    flag('l', "files-with-matches"),
    flag('\0', "name-only"),
    flag('L', "files-without-match"),
    flag('z', "null"),
    flag('o', "only-matching"),
    flag('c', "count"),
    opt('\0', "color"),
    flag('\0', "break"),
    flag('\0', "heading"),
    req('C', "context"),
    req('B', "before-context"),
    req('A', "after-context"),
    req('\0', "threads"),
    flag('p', "show-function"),
    flag('W', "function-context"),
    // Reads patterns from a file.
    req('f', ""),
    req('e', "").noneg(),
    flag('\0', "and").noneg(),
    flag('\0', "or").noneg(),
    flag('\0', "not").noneg(),
    flag('q', "quiet"),
    flag('\0', "all-match"),
    opt('O', "open-files-in-pager").raise(
        UnsafeShell,
        "runs a pager or the program it is given on the matching files",
    ),
    flag('\0', "ext-grep"),
    req('m', "max-count"),
];

/// shortlog's own options; `-c`, `-n` and `--committer` are its own, so
/// [`REV_N`] and [`REV_COMMITTER`] are left out.
const SHORTLOG: &[Opt] = &[
    flag('c', "committer"),
    flag('n', "numbered"),
    flag('s', "summary"),
    flag('e', "email"),
    opt('w', ""),
    req('\0', "group"),
];

const DESCRIBE: &[Opt] = &[
    flag('\0', "contains"),
    flag('\0', "debug"),
    flag('\0', "all"),
    flag('\0', "tags"),
    flag('\0', "long"),
    flag('\0', "first-parent"),
    opt('\0', "abbrev"),
    flag('\0', "exact-match"),
    req('\0', "candidates"),
    req('\0', "match"),
    req('\0', "exclude"),
    flag('\0', "always"),
    opt('\0', "dirty"),
    opt('\0', "broken"),
];

/// rev-parse matches its options with `strcmp` (builtin/rev-parse.c), and
/// prints the ones it does not know; none writes anything.
/// `--git-path`, `--prefix`, `--default` and `--resolve-git-dir` take the
/// next word and refuse `--opt=value`, so they are flags here and their
/// value an operand: the canonical argv then keeps git's two words. That
/// is safe because no rev-parse option does harm, hidden or not.
const REV_PARSE: &[Opt] = &[
    flag('\0', "parseopt").noneg(),
    flag('\0', "keep-dashdash").noneg(),
    flag('\0', "stop-at-non-option").noneg(),
    flag('\0', "stuck-long").noneg(),
    flag('\0', "sq-quote").noneg(),
    flag('\0', "local-env-vars").noneg(),
    flag('\0', "resolve-git-dir").noneg(),
    flag('\0', "git-path").noneg(),
    opt('\0', "path-format").noneg(),
    flag('\0', "default").noneg(),
    flag('\0', "prefix").noneg(),
    flag('\0', "revs-only").noneg(),
    flag('\0', "no-revs").noneg(),
    flag('\0', "flags").noneg(),
    flag('\0', "no-flags").noneg(),
    flag('\0', "verify").noneg(),
    flag('q', "quiet").noneg(),
    opt('\0', "output-object-format").noneg(),
    opt('\0', "short").noneg(),
    flag('\0', "sq").noneg(),
    flag('\0', "not").noneg(),
    flag('\0', "symbolic").noneg(),
    flag('\0', "symbolic-full-name").noneg(),
    opt('\0', "abbrev-ref").noneg(),
    flag('\0', "all").noneg(),
    opt('\0', "disambiguate").noneg(),
    flag('\0', "bisect").noneg(),
    opt('\0', "branches").noneg(),
    opt('\0', "tags").noneg(),
    opt('\0', "remotes").noneg(),
    opt('\0', "glob").noneg(),
    opt('\0', "exclude").noneg(),
    opt('\0', "exclude-hidden").noneg(),
    flag('\0', "show-toplevel").noneg(),
    flag('\0', "show-superproject-working-tree").noneg(),
    flag('\0', "show-prefix").noneg(),
    flag('\0', "show-cdup").noneg(),
    flag('\0', "git-dir").noneg(),
    flag('\0', "absolute-git-dir").noneg(),
    flag('\0', "git-common-dir").noneg(),
    flag('\0', "is-inside-git-dir").noneg(),
    flag('\0', "is-inside-work-tree").noneg(),
    flag('\0', "is-bare-repository").noneg(),
    flag('\0', "is-shallow-repository").noneg(),
    flag('\0', "shared-index-path").noneg(),
    opt('\0', "since").noneg(),
    opt('\0', "after").noneg(),
    opt('\0', "before").noneg(),
    opt('\0', "until").noneg(),
    opt('\0', "show-object-format").noneg(),
    flag('\0', "show-ref-format").noneg(),
];

/// rev-list's own options (builtin/rev-list.c); `--quiet` and `--abbrev`
/// come from the diff options, which rev-list otherwise does not need.
const REV_LIST: &[Opt] = &[
    flag('\0', "quiet"),
    opt('\0', "abbrev"),
    flag('\0', "count").noneg(),
    flag('\0', "header").noneg(),
    flag('\0', "timestamp").noneg(),
    flag('\0', "bisect-all").noneg(),
    flag('\0', "bisect-vars").noneg(),
    flag('\0', "use-bitmap-index").noneg(),
    flag('\0', "test-bitmap").noneg(),
    opt('\0', "progress").noneg(),
    flag('\0', "filter-provided-objects").noneg(),
    flag('\0', "filter-print-omitted").noneg(),
    flag('\0', "exclude-promisor-objects").noneg(),
    opt('\0', "missing").noneg(),
    flag('\0', "object-names"),
    flag('\0', "commit-header"),
    opt('\0', "disk-usage").noneg(),
    flag('v', ""),
];

const LS_FILES: &[Opt] = &[
    flag('z', ""),
    flag('t', ""),
    flag('v', ""),
    flag('f', ""),
    flag('c', "cached"),
    flag('d', "deleted"),
    flag('m', "modified"),
    flag('o', "others"),
    flag('i', "ignored"),
    flag('s', "stage"),
    flag('k', "killed"),
    flag('\0', "directory"),
    flag('\0', "eol"),
    flag('\0', "empty-directory"),
    flag('u', "unmerged"),
    flag('\0', "resolve-undo"),
    req('x', "exclude").noneg(),
    // Reads exclude patterns from a file.
    req('X', "exclude-from").noneg(),
    req('\0', "exclude-per-directory"),
    flag('\0', "exclude-standard").noneg(),
    flag('\0', "full-name").noneg(),
    flag('\0', "recurse-submodules"),
    flag('\0', "error-unmatch"),
    req('\0', "with-tree"),
    opt('\0', "abbrev"),
    flag('\0', "debug"),
    flag('\0', "deduplicate"),
    flag('\0', "sparse"),
    req('\0', "format").noneg(),
];

const LS_TREE: &[Opt] = &[
    flag('d', ""),
    flag('r', ""),
    flag('t', ""),
    flag('z', ""),
    flag('l', "long").noneg(),
    flag('\0', "name-only").noneg(),
    flag('\0', "name-status").noneg(),
    flag('\0', "object-only").noneg(),
    flag('\0', "full-name"),
    flag('\0', "full-tree"),
    req('\0', "format").noneg(),
    opt('\0', "abbrev"),
];

/// cat-file: `--textconv` and `--filters` run the filters the user's
/// configuration names, like `diff --textconv`.
const CAT_FILE: &[Opt] = &[
    flag('e', ""),
    flag('p', ""),
    flag('t', ""),
    flag('s', ""),
    flag('\0', "allow-unknown-type"),
    flag('\0', "use-mailmap"),
    flag('\0', "mailmap"),
    opt('\0', "batch").noneg(),
    opt('\0', "batch-check").noneg(),
    flag('z', ""),
    flag('Z', ""),
    opt('\0', "batch-command").noneg(),
    flag('\0', "batch-all-objects").noneg(),
    flag('\0', "buffer"),
    flag('\0', "follow-symlinks"),
    flag('\0', "unordered"),
    flag('\0', "textconv").noneg(),
    flag('\0', "filters").noneg(),
    req('\0', "path"),
];

/// show-ref; `-h` is its hidden `--head` (only a lone `-h` is help).
const SHOW_REF: &[Opt] = &[
    flag('\0', "tags"),
    flag('\0', "branches"),
    flag('\0', "heads"),
    flag('\0', "exists"),
    flag('\0', "verify"),
    flag('h', ""),
    flag('\0', "head"),
    flag('d', "dereference"),
    opt('s', "hash"),
    opt('\0', "abbrev"),
    flag('q', "quiet"),
    opt('\0', "exclude-existing").noneg(),
];

/// for-each-ref. `--merged`, `--no-merged`, `--contains` and
/// `--no-contains` default to HEAD when last (PARSE_OPT_LASTARG_DEFAULT),
/// which the parser cannot say: here they need their commit.
const FOR_EACH_REF: &[Opt] = &[
    flag('s', "shell"),
    flag('p', "perl"),
    flag('\0', "python"),
    flag('\0', "tcl"),
    flag('\0', "omit-empty"),
    req('\0', "count"),
    req('\0', "format"),
    opt('\0', "color"),
    req('\0', "exclude"),
    req('\0', "sort"),
    req('\0', "points-at"),
    last('\0', "merged").noneg(),
    last('\0', "no-merged").noneg(),
    last('\0', "contains").noneg(),
    last('\0', "no-contains").noneg(),
    flag('\0', "ignore-case"),
    flag('\0', "stdin"),
    flag('\0', "include-root-refs"),
];

const NAME_REV: &[Opt] = &[
    flag('\0', "name-only"),
    flag('\0', "tags"),
    req('\0', "refs"),
    req('\0', "exclude"),
    flag('\0', "all"),
    flag('\0', "stdin"),
    flag('\0', "annotate-stdin"),
    flag('\0', "undefined"),
    flag('\0', "always"),
    flag('\0', "peel-tag"),
];

const MERGE_BASE: &[Opt] = &[
    flag('a', "all"),
    flag('\0', "octopus").noneg(),
    flag('\0', "independent").noneg(),
    flag('\0', "is-ancestor").noneg(),
    flag('\0', "fork-point").noneg(),
];

const COUNT_OBJECTS: &[Opt] = &[flag('v', "verbose"), flag('H', "human-readable")];

const CHERRY: &[Opt] = &[opt('\0', "abbrev"), flag('v', "verbose")];

/// range-diff's own options; it takes the diff options too, and runs
/// `git log` with `--notes`.
const RANGE_DIFF: &[Opt] = &[
    req('\0', "creation-factor"),
    flag('\0', "no-dual-color"),
    opt('\0', "notes"),
    flag('\0', "left-only"),
    flag('\0', "right-only"),
];

const SHOW_BRANCH: &[Opt] = &[
    flag('a', "all"),
    flag('r', "remotes"),
    opt('\0', "color"),
    opt('\0', "more"),
    flag('\0', "list"),
    flag('\0', "no-name"),
    flag('\0', "current"),
    flag('\0', "sha1-name"),
    flag('\0', "merge-base"),
    flag('\0', "independent"),
    flag('\0', "topo-order").noneg(),
    flag('\0', "topics"),
    flag('\0', "sparse"),
    flag('\0', "date-order").noneg(),
    opt('g', "reflog").noneg(),
];

const CHECK_IGNORE: &[Opt] = &[
    flag('q', "quiet"),
    flag('v', "verbose"),
    flag('\0', "stdin"),
    flag('z', ""),
    flag('n', "non-matching"),
    flag('\0', "no-index"),
];

const CHECK_ATTR: &[Opt] = &[
    flag('a', "all"),
    flag('\0', "cached"),
    flag('\0', "stdin"),
    flag('z', ""),
    req('\0', "source"),
];

const CHECK_MAILMAP: &[Opt] = &[
    flag('\0', "stdin"),
    // Both read extra mailmap entries.
    req('\0', "mailmap-file"),
    req('\0', "mailmap-blob"),
];

/// check-ref-format matches its options with `strcmp`.
const CHECK_REF_FORMAT: &[Opt] = &[
    flag('\0', "normalize").noneg(),
    flag('\0', "print").noneg(),
    flag('\0', "allow-onelevel"),
    flag('\0', "refspec-pattern").noneg(),
    flag('\0', "branch").noneg(),
];

const VAR: &[Opt] = &[flag('l', "")];

const VERSION: &[Opt] = &[flag('\0', "build-options")];

/// help: `-m`/`-i` run `man`/`info` on git's own pages, as `man.viewer`
/// and `help.format` (the user's configuration) say.
const HELP: &[Opt] = &[
    flag('a', "all").noneg(),
    flag('\0', "external-commands"),
    flag('\0', "aliases"),
    flag('\0', "exclude-guides"),
    flag('m', "man"),
    flag('w', "web").raise(UnsafeShell, "opens the manual in a web browser"),
    flag('i', "info"),
    flag('v', "verbose"),
    flag('g', "guides").noneg(),
    flag('\0', "user-interfaces").noneg(),
    flag('\0', "developer-interfaces").noneg(),
    flag('c', "config").noneg(),
    flag('\0', "config-for-completion").noneg(),
    flag('\0', "config-sections-for-completion").noneg(),
];

const FSCK: &[Opt] = &[
    flag('v', "verbose"),
    flag('\0', "unreachable"),
    flag('\0', "dangling"),
    flag('\0', "tags"),
    flag('\0', "root"),
    flag('\0', "cache"),
    flag('\0', "reflogs"),
    flag('\0', "full"),
    flag('\0', "connectivity-only"),
    flag('\0', "strict"),
    flag('\0', "lost-found").raise(LocalWrite, "writes dangling objects into `.git/lost-found`"),
    flag('\0', "progress"),
    flag('\0', "name-objects"),
];

/// verify-commit and verify-tag run gpg as `gpg.program` (the user's
/// configuration) says, to check a signature.
const VERIFY_COMMIT: &[Opt] = &[flag('v', "verbose"), flag('\0', "raw")];

const VERIFY_TAG: &[Opt] = &[flag('v', "verbose"), flag('\0', "raw"), req('\0', "format")];

const VERIFY_PACK: &[Opt] = &[
    flag('v', "verbose"),
    flag('s', "stat-only"),
    req('\0', "object-format"),
];

const SHOW_INDEX: &[Opt] = &[req('\0', "object-format")];

const STRIPSPACE: &[Opt] = &[
    flag('s', "strip-comments").noneg(),
    flag('c', "comment-lines").noneg(),
];

/// column: `--command` names the `column.<name>` setting to read, not a
/// program.
const COLUMN: &[Opt] = &[
    req('\0', "command"),
    opt('\0', "mode"),
    req('\0', "raw-mode"),
    req('\0', "width"),
    req('\0', "indent"),
    req('\0', "nl"),
    req('\0', "padding"),
];

const PATCH_ID: &[Opt] = &[
    flag('\0', "unstable").noneg(),
    flag('\0', "stable").noneg(),
    flag('\0', "verbatim").noneg(),
];

const FMT_MERGE_MSG: &[Opt] = &[
    opt('\0', "log"),
    opt('\0', "summary"),
    req('m', "message"),
    req('\0', "into-name"),
    // Reads the merge's FETCH_HEAD-style input from a file.
    req('F', "file"),
];

const MERGE_TREE: &[Opt] = &[
    flag('\0', "write-tree").noneg(),
    flag('\0', "trivial-merge").noneg(),
    flag('\0', "messages"),
    flag('z', ""),
    flag('\0', "name-only").noneg(),
    flag('\0', "allow-unrelated-histories").noneg(),
    flag('\0', "stdin").noneg(),
    req('\0', "merge-base"),
    req('X', "strategy-option"),
];

/// difftool's own options; the rest go to `git diff`. The `--no-index` of
/// [`DIFF_CMD`] stands for difftool's own.
const DIFFTOOL: &[Opt] = &[
    flag('g', "gui"),
    flag('d', "dir-diff"),
    flag('y', "no-prompt").noneg(),
    flag('\0', "prompt").noneg(),
    flag('\0', "symlinks"),
    req('t', "tool"),
    flag('\0', "tool-help"),
    flag('\0', "trust-exit-code"),
    req('x', "extcmd").raise(UnsafeShell, "runs the command it is given"),
];

/// format-patch's own options. Its `-s` (signoff), `-p` (no-stat) and
/// `--quiet` are flags like [`DIFF`]'s entries for those spellings, which
/// stand for them here (same arity, same canonical word).
const FORMAT_PATCH: &[Opt] = &[
    flag('n', "numbered"),
    flag('N', "no-numbered").noneg(),
    flag('\0', "signoff"),
    flag('\0', "stdout"),
    flag('\0', "cover-letter"),
    flag('\0', "numbered-files"),
    req('\0', "suffix"),
    req('\0', "start-number"),
    req('v', "reroll-count"),
    req('\0', "filename-max-length"),
    opt('\0', "rfc"),
    req('\0', "cover-from-description"),
    req('\0', "description-file"),
    req('\0', "subject-prefix").noneg(),
    req('o', "output-directory")
        .noneg()
        .raise(Destructive, "writes patch files into a folder it is told"),
    flag('k', "keep-subject").noneg(),
    flag('\0', "no-binary"),
    flag('\0', "zero-commit"),
    flag('\0', "ignore-if-in-upstream"),
    flag('\0', "no-stat").noneg(),
    req('\0', "add-header"),
    req('\0', "to"),
    req('\0', "cc"),
    opt('\0', "from"),
    req('\0', "in-reply-to"),
    opt('\0', "attach"),
    opt('\0', "inline").noneg(),
    opt('\0', "thread"),
    req('\0', "signature"),
    req('\0', "base"),
    req('\0', "signature-file"),
    flag('q', ""),
    flag('\0', "progress"),
    req('\0', "interdiff"),
    req('\0', "range-diff"),
    req('\0', "creation-factor"),
    flag('\0', "force-in-body-from"),
];

/// archive: to standard output unless `-o`. `--prefix` is the path inside
/// the archive, not on disk; `--add-file` reads a file into it.
/// Compression levels are `-<n>` (`.numeric()`).
const ARCHIVE: &[Opt] = &[
    req('\0', "format"),
    req('\0', "prefix"),
    req('\0', "add-file"),
    req('\0', "add-virtual-file"),
    req('o', "output").raise(Destructive, "writes the archive to a file it is told"),
    flag('\0', "worktree-attributes"),
    flag('v', "verbose"),
    req('\0', "mtime").noneg(),
    flag('l', "list"),
    req('\0', "remote").raise(Remote, "fetches the archive from another repository"),
    req('\0', "exec").raise(
        UnsafeShell,
        "runs the program it is given on the remote side",
    ),
];

const BUNDLE_CREATE: &[Opt] = &[
    flag('q', "quiet"),
    flag('\0', "progress"),
    flag('\0', "all-progress"),
    flag('\0', "all-progress-implied"),
    req('\0', "version"),
];

const QUIET: &[Opt] = &[flag('q', "quiet")];

const PROGRESS: &[Opt] = &[flag('\0', "progress")];

const BUNDLE_VERBS: &[Command] = &[
    cmd(
        "create",
        &[BUNDLE_CREATE, REV, REV_N, REV_COMMITTER],
        Rule::Decide(bundle_create),
    ),
    cmd(
        "verify",
        &[QUIET],
        Rule::Fixed(ReadOnly, "checks that a bundle file applies here"),
    ),
    cmd(
        "list-heads",
        &[],
        Rule::Fixed(ReadOnly, "lists the refs a bundle file holds"),
    ),
    cmd(
        "unbundle",
        &[PROGRESS],
        Rule::Fixed(
            LocalWrite,
            "stores a bundle's objects in the repository (no ref changes)",
        ),
    ),
];

/// fast-export's own options; it writes the stream to standard output.
const FAST_EXPORT: &[Opt] = &[
    req('\0', "progress"),
    req('\0', "signed-tags"),
    req('\0', "tag-of-filtered-object"),
    req('\0', "reencode"),
    req('\0', "export-marks").raise(Destructive, "writes marks to a file it is told"),
    req('\0', "import-marks"),
    req('\0', "import-marks-if-exists"),
    flag('\0', "fake-missing-tagger"),
    flag('\0', "full-tree"),
    flag('\0', "use-done-feature"),
    flag('\0', "no-data"),
    req('\0', "refspec"),
    flag('\0', "anonymize"),
    req('\0', "anonymize-map").noneg(),
    flag('\0', "reference-excluded-parents"),
    flag('\0', "show-original-ids"),
    flag('\0', "mark-tags"),
];

const HASH_OBJECT: &[Opt] = &[
    req('t', ""),
    flag('w', "").raise(LocalWrite, "writes the object into the repository"),
    flag('\0', "stdin"),
    flag('\0', "stdin-paths"),
    flag('\0', "no-filters"),
    flag('\0', "literally"),
    req('\0', "path"),
];

/// interpret-trailers prints unless `--in-place`. Adding a trailer runs
/// the `trailer.<key>.cmd` of the user's configuration, which `-c` cannot
/// set.
const INTERPRET_TRAILERS: &[Opt] = &[
    flag('\0', "in-place").raise(Destructive, "rewrites the files it is told"),
    flag('\0', "trim-empty"),
    req('\0', "where"),
    req('\0', "if-exists"),
    req('\0', "if-missing"),
    flag('\0', "only-trailers"),
    flag('\0', "only-input"),
    flag('\0', "unfold"),
    flag('\0', "parse").noneg(),
    flag('\0', "no-divider"),
    req('\0', "trailer"),
];

const RERERE: &[Opt] = &[flag('\0', "rerere-autoupdate")];

const RERERE_VERBS: &[Command] = &[
    cmd(
        "status",
        &[],
        Rule::Fixed(ReadOnly, "lists paths with a recorded preimage"),
    ),
    cmd(
        "remaining",
        &[],
        Rule::Fixed(ReadOnly, "lists paths rerere could not resolve"),
    ),
    cmd(
        "diff",
        &[],
        Rule::Fixed(ReadOnly, "shows the current state of the resolution"),
    ),
    cmd(
        "forget",
        &[],
        Rule::Fixed(
            LocalWrite,
            "drops rerere's recorded resolution for the paths; files are untouched",
        ),
    ),
    cmd(
        "clear",
        &[],
        Rule::Fixed(
            LocalWrite,
            "drops rerere's bookkeeping for the current conflict; files are untouched",
        ),
    ),
    cmd(
        "gc",
        &[],
        Rule::Fixed(
            LocalWrite,
            "prunes recorded resolutions older than the configured ages",
        ),
    ),
];

/// `format-patch`: patches go to files named after their subjects in the
/// current folder (or `-o`), overwriting any of that name, unless
/// `--stdout`.
fn format_patch(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("stdout") {
        out(ReadOnly, "`--stdout` prints the patches")
    } else {
        out(
            Destructive,
            "writes one file per patch into the current folder, overwriting files of the same name; add `--stdout` to print them",
        )
    }
}

/// `bundle create FILE`: writes the bundle where it is told, unless FILE
/// is `-` (standard output).
fn bundle_create(p: &Parsed, _: &Ctx) -> Outcome {
    match p.all_operands().next().map(String::as_str) {
        Some("-") => out(ReadOnly, "`bundle create -` prints the bundle"),
        _ => out(Destructive, "writes a bundle file at a path it is told"),
    }
}

/// `merge-tree`: with two commits (the default mode since git 2.38) or
/// `--write-tree`/`--stdin`, it writes the merged trees and blobs as
/// unreferenced objects; the trivial three-tree mode only prints.
fn merge_tree(p: &Parsed, _: &Ctx) -> Outcome {
    let trivial = p.has("trivial-merge")
        || (!p.has("write-tree") && !p.has("stdin") && p.all_operands().count() == 3);
    if trivial {
        out(ReadOnly, "the trivial merge only prints")
    } else {
        out(
            LocalWrite,
            "writes the merged tree's objects (unreferenced) into the repository",
        )
    }
}

/// `difftool` exists to launch another program: the configured tool, a
/// tool it is named (`-t vimdiff`: the value picks the program), or
/// `-x CMD`. That program is interactive, and in `--dir-diff` mode what is
/// edited in it is copied back over the working tree. Level 1 gives no
/// terminal, so only `--tool-help` runs.
fn difftool(p: &Parsed, _: &Ctx) -> Outcome {
    if p.has("tool-help") {
        out(ReadOnly, "`--tool-help` lists the diff tools")
    } else {
        out(
            UnsafeShell,
            "launches an external diff program, which may edit files; run it yourself",
        )
    }
}

/// `reflog`: `show` (the default, also for `git reflog REF`), `list` and
/// `exists` read; `expire` and `delete` drop reflog entries, which are
/// the way back to lost commits.
/// The options of `reflog expire` and `reflog delete`, so that those
/// parse (and are refused by the rule) rather than fail as unknown.
const REFLOG_EXPIRE: &[Opt] = &[
    req('\0', "expire"),
    req('\0', "expire-unreachable"),
    flag('\0', "rewrite"),
    flag('\0', "updateref"),
    flag('\0', "stale-fix"),
    flag('\0', "dry-run"),
    flag('\0', "verbose"),
];

/// `reflog`'s table: the log options of `reflog show`, and those of
/// `expire`/`delete`.
const REFLOG: crate::policy::parse::Table = &[
    super::common::LOG,
    REV,
    REV_N,
    REV_COMMITTER,
    PRETTY,
    COMMIT_DIFF,
    DIFF,
    DIFF_U,
    REFLOG_EXPIRE,
];

/// `reflog`'s verbs (its first operand), newest git included: a git that
/// predates a verb takes the word as a ref to show, one that has it runs
/// it, so a verb is judged here whatever the installed git knows.
/// Anything else is a ref: `show`.
const REFLOG_VERBS: &[(&str, Risk, &str)] = &[
    (
        "expire",
        Destructive,
        "drops reflog entries, which are the way back to lost commits",
    ),
    (
        "delete",
        Destructive,
        "drops reflog entries, which are the way back to lost commits",
    ),
    (
        "drop",
        Destructive,
        "drops whole reflogs (newer git), the way back to lost commits",
    ),
    (
        "write",
        LocalWrite,
        "appends an entry to a reflog (newer git)",
    ),
    ("list", ReadOnly, "lists the refs that have a reflog"),
    ("exists", ReadOnly, "checks whether a ref has a reflog"),
];

fn reflog(p: &Parsed, _: &Ctx) -> Outcome {
    let verb = p.operands.first().map(String::as_str);
    match REFLOG_VERBS.iter().find(|(name, ..)| Some(*name) == verb) {
        Some((_, risk, why)) => out(*risk, why),
        None => out(ReadOnly, "shows a reflog"),
    }
}

const SHOWS_HISTORY: Rule = Rule::Fixed(ReadOnly, "shows history");

/// The family's tables.
/// `git lfs` verbs that only read the repository's LFS state; the others
/// (fetch, pull, push, track, migrate, prune, …) are not in the table.
const LFS_VERBS: &[Command] = &[
    cmd(
        "ls-files",
        &[&[
            flag('l', "long"),
            flag('s', "size"),
            flag('d', "debug"),
            flag('a', "all"),
            flag('\0', "deleted"),
            req('I', "include"),
            req('X', "exclude"),
            flag('n', "name-only"),
            flag('\0', "json"),
        ]],
        Rule::Fixed(ReadOnly, "lists the files LFS tracks"),
    ),
    cmd(
        "status",
        &[&[flag('\0', "porcelain"), flag('\0', "json")]],
        Rule::Fixed(ReadOnly, "shows which LFS files changed"),
    ),
    cmd(
        "env",
        &[],
        Rule::Fixed(ReadOnly, "prints LFS's environment"),
    ),
    cmd(
        "version",
        &[],
        Rule::Fixed(ReadOnly, "prints LFS's version"),
    ),
];

pub const COMMANDS: &[Command] = &[
    cmd(
        "lfs",
        &[],
        Rule::Verbs(LFS_VERBS, None, ReadOnly, "prints git-lfs's usage"),
    ),
    cmd(
        "status",
        &[STATUS],
        Rule::Fixed(ReadOnly, "shows the working tree status"),
    ),
    cmd("log", LOG_OPTIONS, SHOWS_HISTORY).exact().numeric(),
    cmd("whatchanged", LOG_OPTIONS, SHOWS_HISTORY)
        .exact()
        .numeric(),
    cmd("show", LOG_OPTIONS, Rule::Fixed(ReadOnly, "shows objects"))
        .exact()
        .numeric(),
    cmd("reflog", REFLOG, Rule::Decide(reflog))
        .exact()
        .numeric(),
    cmd(
        "diff",
        &[DIFF_CMD, COMMIT_DIFF, DIFF, DIFF_U],
        Rule::Fixed(ReadOnly, "shows changes"),
    )
    .exact()
    .numeric(),
    cmd(
        "diff-files",
        &[DIFF_FILES, COMMIT_DIFF, DIFF, DIFF_U],
        Rule::Fixed(ReadOnly, "compares the working tree with the index"),
    )
    .exact()
    .numeric(),
    cmd(
        "diff-index",
        &[DIFF_INDEX, DIFF, DIFF_U],
        Rule::Fixed(ReadOnly, "compares a tree with the index or working tree"),
    )
    .exact(),
    cmd(
        "diff-tree",
        &[DIFF_TREE, PRETTY, COMMIT_DIFF, DIFF, DIFF_U],
        Rule::Fixed(ReadOnly, "compares trees"),
    )
    .exact(),
    cmd(
        "blame",
        &[BLAME, REV, PRETTY],
        Rule::Fixed(ReadOnly, "shows who changed each line"),
    ),
    cmd(
        "annotate",
        &[BLAME, REV, PRETTY],
        Rule::Fixed(ReadOnly, "shows who changed each line"),
    ),
    cmd(
        "grep",
        &[GREP],
        Rule::Fixed(ReadOnly, "searches file contents"),
    )
    .numeric(),
    cmd(
        "shortlog",
        &[SHORTLOG, REV, PRETTY],
        Rule::Fixed(ReadOnly, "summarises history by author"),
    )
    .numeric(),
    cmd(
        "describe",
        &[DESCRIBE],
        Rule::Fixed(ReadOnly, "names a commit after a tag"),
    ),
    cmd(
        "rev-parse",
        &[REV_PARSE],
        Rule::Fixed(ReadOnly, "resolves names and repository paths"),
    )
    .exact(),
    cmd(
        "rev-list",
        &[REV_LIST, REV, REV_N, REV_COMMITTER, PRETTY],
        Rule::Fixed(ReadOnly, "lists commits"),
    )
    .exact()
    .numeric(),
    cmd(
        "ls-files",
        &[LS_FILES],
        Rule::Fixed(ReadOnly, "lists files in the index and working tree"),
    ),
    cmd("ls-tree", &[LS_TREE], Rule::Fixed(ReadOnly, "lists a tree")),
    cmd(
        "cat-file",
        &[CAT_FILE],
        Rule::Fixed(ReadOnly, "shows objects"),
    ),
    cmd("show-ref", &[SHOW_REF], Rule::Fixed(ReadOnly, "lists refs")),
    cmd(
        "for-each-ref",
        &[FOR_EACH_REF],
        Rule::Fixed(ReadOnly, "lists refs"),
    ),
    cmd(
        "name-rev",
        &[NAME_REV],
        Rule::Fixed(ReadOnly, "names commits after refs"),
    ),
    cmd(
        "merge-base",
        &[MERGE_BASE],
        Rule::Fixed(ReadOnly, "finds common ancestors"),
    ),
    cmd(
        "count-objects",
        &[COUNT_OBJECTS],
        Rule::Fixed(ReadOnly, "counts objects"),
    ),
    cmd(
        "cherry",
        &[CHERRY],
        Rule::Fixed(ReadOnly, "lists commits not yet upstream"),
    ),
    cmd(
        "range-diff",
        &[RANGE_DIFF, DIFF, DIFF_U],
        Rule::Fixed(ReadOnly, "compares two ranges of commits"),
    ),
    cmd(
        "show-branch",
        &[SHOW_BRANCH],
        Rule::Fixed(ReadOnly, "shows branches and their commits"),
    ),
    cmd(
        "check-ignore",
        &[CHECK_IGNORE],
        Rule::Fixed(ReadOnly, "explains ignore rules"),
    ),
    cmd(
        "check-attr",
        &[CHECK_ATTR],
        Rule::Fixed(ReadOnly, "shows attributes"),
    ),
    cmd(
        "check-mailmap",
        &[CHECK_MAILMAP],
        Rule::Fixed(ReadOnly, "maps names and emails"),
    ),
    cmd(
        "check-ref-format",
        &[CHECK_REF_FORMAT],
        Rule::Fixed(ReadOnly, "checks a ref name"),
    )
    .exact(),
    cmd("var", &[VAR], Rule::Fixed(ReadOnly, "prints git variables")).exact(),
    cmd(
        "version",
        &[VERSION],
        Rule::Fixed(ReadOnly, "prints git's version"),
    ),
    cmd(
        "help",
        &[HELP],
        Rule::Fixed(ReadOnly, "shows documentation"),
    ),
    cmd(
        "fsck",
        &[FSCK],
        Rule::Fixed(ReadOnly, "checks the object database"),
    ),
    cmd(
        "verify-commit",
        &[VERIFY_COMMIT],
        Rule::Fixed(ReadOnly, "checks commit signatures"),
    ),
    cmd(
        "verify-tag",
        &[VERIFY_TAG],
        Rule::Fixed(ReadOnly, "checks tag signatures"),
    ),
    cmd(
        "verify-pack",
        &[VERIFY_PACK],
        Rule::Fixed(ReadOnly, "checks pack files"),
    ),
    cmd(
        "show-index",
        &[SHOW_INDEX],
        Rule::Fixed(ReadOnly, "prints a pack index read from standard input"),
    ),
    cmd(
        "stripspace",
        &[STRIPSPACE],
        Rule::Fixed(ReadOnly, "cleans up text from standard input"),
    ),
    cmd(
        "column",
        &[COLUMN],
        Rule::Fixed(ReadOnly, "lays out standard input in columns"),
    ),
    cmd(
        "get-tar-commit-id",
        &[],
        Rule::Fixed(
            ReadOnly,
            "reads a commit id from a tar archive on standard input",
        ),
    )
    .exact(),
    cmd(
        "patch-id",
        &[PATCH_ID],
        Rule::Fixed(ReadOnly, "computes patch ids from standard input"),
    ),
    cmd(
        "fmt-merge-msg",
        &[FMT_MERGE_MSG],
        Rule::Fixed(ReadOnly, "prints a merge message"),
    ),
    cmd("merge-tree", &[MERGE_TREE], Rule::Decide(merge_tree)),
    cmd(
        "difftool",
        &[DIFFTOOL, DIFF_CMD, DIFF, DIFF_U],
        Rule::Decide(difftool),
    )
    .exact(),
    cmd(
        "format-patch",
        &[FORMAT_PATCH, REV, PRETTY, DIFF, DIFF_U],
        Rule::Decide(format_patch),
    )
    .exact()
    .numeric(),
    cmd(
        "archive",
        &[ARCHIVE],
        Rule::Fixed(ReadOnly, "writes an archive to standard output"),
    )
    .numeric(),
    cmd(
        "bundle",
        &[],
        Rule::Verbs(BUNDLE_VERBS, None, ReadOnly, "prints its usage"),
    ),
    cmd(
        "fast-export",
        &[FAST_EXPORT, REV, REV_N, REV_COMMITTER, DIFF],
        Rule::Fixed(ReadOnly, "writes a fast-import stream to standard output"),
    )
    .exact()
    .numeric(),
    cmd(
        "hash-object",
        &[HASH_OBJECT],
        Rule::Fixed(ReadOnly, "computes object ids"),
    ),
    cmd(
        "interpret-trailers",
        &[INTERPRET_TRAILERS],
        Rule::Fixed(ReadOnly, "prints a message with its trailers"),
    ),
    cmd(
        "rerere",
        &[RERERE],
        Rule::Verbs(
            RERERE_VERBS,
            None,
            LocalWrite,
            "records and replays conflict resolutions in conflicted files",
        ),
    ),
];

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::process::{Command as Process, Output, Stdio};

    use crate::policy::{classify_words, Risk, Verdict};

    /// Lines people type that only read, with the argv that runs (`=`:
    /// the line as typed). Every one of them also runs in a real
    /// repository (`benign_lines_run_in_git_and_change_nothing`).
    const BENIGN: &[(&str, &str)] = &[
        ("git status", "="),
        ("git status -sb", "git status -s -b"),
        ("git status --porcelain=v2 --branch", "="),
        ("git status -uno", "="),
        ("git status --short --untracked-files=all", "="),
        ("git status --ignored --renames", "="),
        ("git log --oneline -5", "="),
        ("git log --oneline --graph --decorate --all", "="),
        ("git log -n3 --stat", "git log -n3 --stat"),
        (
            "git log --since 2.weeks --author=alice",
            "git log --since=2.weeks --author=alice",
        ),
        ("git log --pretty=format:%h%x20%s -3", "="),
        ("git log --format=%H -1", "="),
        ("git log -p -1 -- README.md", "="),
        ("git log --follow -p -- README.md", "="),
        ("git log -Shello --oneline", "git log -Shello --oneline"),
        ("git log -Gwor --oneline --pickaxe-all", "="),
        ("git log --grep=first -i --all-match", "="),
        ("git log --name-status -2", "="),
        ("git log --no-merges --first-parent main", "="),
        ("git log main..feature --oneline", "="),
        (
            "git log --left-right --cherry-pick --oneline main...feature",
            "=",
        ),
        ("git log -L1,2:README.md", "="),
        ("git log -L1,2:README.md -1", "git log -L1,2:README.md -1"),
        ("git log --date=relative --format=%ad -1", "="),
        ("git log --no-decorate --no-color -1", "="),
        ("git log --reverse --topo-order --oneline", "="),
        ("git log --all --source --oneline", "="),
        ("git log -g --oneline -3", "="),
        ("git log --walk-reflogs -2", "="),
        ("git log --stat=120 -1", "="),
        ("git log -U1 -p -1", "="),
        ("git log -M -C --stat -1", "="),
        ("git log --diff-filter=M --name-only -3", "="),
        ("git log -5 --abbrev-commit --abbrev=10", "="),
        ("git log --merges --cc -1", "="),
        ("git log --remerge-diff -1", "="),
        (
            "git log --since=1.year --until=now --committer A",
            "git log --since=1.year --until=now --committer=A",
        ),
        ("git log --ext-diff -p -1", "="),
        ("git log -S--output=out.txt --oneline", "="),
        ("git whatchanged -1", "="),
        ("git show", "="),
        ("git show HEAD~1 --stat", "="),
        ("git show --name-only HEAD", "="),
        ("git show -s --format=%s HEAD", "="),
        ("git show v1.0", "="),
        ("git show HEAD:README.md", "="),
        ("git show --word-diff=color HEAD", "="),
        ("git show --color-words HEAD", "="),
        ("git show --textconv HEAD:README.md", "="),
        ("git diff", "="),
        ("git diff --cached", "="),
        ("git diff --staged --stat", "="),
        ("git diff HEAD~1 HEAD -- src/app.rs", "="),
        ("git diff --name-only main feature", "="),
        ("git diff -w --ignore-blank-lines", "="),
        ("git diff --word-diff", "="),
        ("git diff --stat --summary HEAD~2", "="),
        ("git diff --no-index README.md src/app.rs", "="),
        ("git diff --merge-base main feature", "="),
        ("git diff --check", "="),
        ("git diff --exit-code --quiet", "="),
        ("git diff -U0", "="),
        ("git diff --color=always --color-moved=zebra", "="),
        ("git diff -R HEAD", "="),
        ("git diff --diff-algorithm=histogram --minimal", "="),
        ("git diff -M50% HEAD~1", "="),
        ("git diff --relative=src", "="),
        ("git diff -u --no-prefix", "="),
        ("git diff -Osrc/app.rs HEAD~1", "="),
        ("git diff-tree --no-commit-id --name-only -r HEAD", "="),
        ("git diff-tree -r --name-status HEAD~1 HEAD", "="),
        ("git diff-files --name-only", "="),
        ("git diff-index --cached HEAD", "="),
        ("git blame README.md", "="),
        ("git blame -L1,2 README.md", "="),
        ("git blame -L1,2 README.md", "git blame -L1,2 README.md"),
        (
            "git blame --porc README.md",
            "git blame --porcelain README.md",
        ),
        ("git blame -w -M -C README.md", "="),
        ("git blame -CCC README.md", "="),
        ("git blame --date=short README.md", "="),
        ("git blame -e --since=1.year README.md", "="),
        ("git blame --line-porcelain HEAD -- README.md", "="),
        (
            "git blame --ignore-rev HEAD~1 README.md",
            "git blame --ignore-rev=HEAD~1 README.md",
        ),
        ("git annotate README.md", "="),
        ("git grep hello", "="),
        ("git grep -n -i hello", "="),
        ("git grep -nI world -- *.md", "git grep -n -I world -- *.md"),
        ("git grep -c fn", "="),
        ("git grep -l main", "="),
        ("git grep --untracked hello", "="),
        ("git grep -3 hello", "="),
        ("git grep -C2 hello", "="),
        ("git grep --no-index hello README.md", "="),
        ("git grep -E h.llo", "="),
        ("git grep --cached -w hello", "="),
        (
            "git grep -pW main src/app.rs",
            "git grep -p -W main src/app.rs",
        ),
        ("git grep --line hello", "git grep --line-number hello"),
        ("git grep -ehello --or -eworld", "="),
        ("git shortlog -sn HEAD", "git shortlog -s -n HEAD"),
        ("git shortlog -sne --all", "git shortlog -s -n -e --all"),
        ("git shortlog --summary --numbered --no-merges HEAD", "="),
        ("git shortlog --summ HEAD", "git shortlog --summary HEAD"),
        ("git shortlog -5 HEAD", "="),
        ("git describe --tags", "="),
        ("git describe --always --dirty", "="),
        ("git describe --abbrev=0 --tags", "="),
        ("git rev-parse HEAD", "="),
        ("git rev-parse --short HEAD", "="),
        ("git rev-parse --abbrev-ref HEAD", "="),
        ("git rev-parse --show-toplevel", "="),
        ("git rev-parse --git-dir --is-inside-work-tree", "="),
        ("git rev-parse --verify -q main", "="),
        ("git rev-parse --symbolic-full-name HEAD", "="),
        ("git rev-parse --git-path hooks", "="),
        ("git rev-parse --show-prefix --show-cdup", "="),
        ("git rev-list --count HEAD", "="),
        ("git rev-list --all --max-count=3", "="),
        ("git rev-list -n2 HEAD", "="),
        ("git rev-list --left-right --count main...feature", "="),
        ("git ls-files", "="),
        ("git ls-files -m", "="),
        ("git ls-files --others --exclude-standard", "="),
        ("git ls-files -s", "="),
        ("git ls-files --error-unmatch README.md", "="),
        ("git ls-tree HEAD", "="),
        ("git ls-tree -r --name-only HEAD", "="),
        ("git cat-file -p HEAD", "="),
        ("git cat-file -t HEAD", "="),
        ("git cat-file -s HEAD:README.md", "="),
        ("git cat-file blob HEAD:README.md", "="),
        ("git show-ref", "="),
        ("git show-ref --tags", "="),
        (
            "git for-each-ref --sort=-committerdate refs/heads/ --format=%(refname:short)",
            "=",
        ),
        ("git for-each-ref --count 5", "git for-each-ref --count=5"),
        ("git name-rev HEAD", "="),
        ("git merge-base main feature", "="),
        ("git merge-base --is-ancestor HEAD~1 HEAD", "="),
        ("git count-objects -vH", "git count-objects -v -H"),
        ("git cherry -v main feature", "="),
        ("git range-diff main~1..main main~1..feature", "="),
        (
            "git range-diff --no-dual-color --stat main~1..main main~1..feature",
            "=",
        ),
        ("git show-branch --all", "="),
        ("git check-ignore -v target/x", "="),
        ("git check-attr -a README.md", "="),
        ("git check-mailmap <a@b.c>", "="),
        ("git check-ref-format --branch main", "="),
        ("git var GIT_EDITOR", "="),
        ("git version --build-options", "="),
        ("git help -a", "="),
        ("git help -g", "="),
        ("git fsck", "="),
        ("git fsck --no-dangling", "="),
        ("git stripspace -s", "="),
        ("git patch-id --stable", "="),
        ("git column --mode=plain", "="),
        ("git format-patch -1 --stdout", "="),
        ("git format-patch --stdout HEAD~2..HEAD", "="),
        ("git format-patch -2 --stdout --cover-letter -M", "="),
        ("git format-patch -n --stdout -1", "="),
        ("git archive HEAD", "="),
        ("git archive --format=zip --prefix=proj/ HEAD", "="),
        ("git archive -9 --format=tar.gz HEAD", "="),
        ("git archive -l", "="),
        ("git bundle create - --all", "="),
        ("git fast-export --all", "="),
        ("git fast-export --anonymize --all", "="),
        ("git hash-object README.md", "="),
        ("git interpret-trailers --parse README.md", "="),
        ("git rerere status", "="),
        ("git rerere diff", "="),
        ("git merge-tree --trivial-merge HEAD~1 main feature", "="),
        ("git reflog", "="),
        ("git reflog -5", "="),
        ("git reflog show --oneline main", "="),
        ("git reflog main", "="),
        ("git reflog list", "="),
        ("git reflog exists main", "="),
        ("git difftool --tool-help", "="),
        ("git stash list", "="),
    ];

    /// Local, recoverable writes: allowed, and classified as writes.
    const LOCAL_WRITES: &[&str] = &[
        "git hash-object -w README.md",
        "git fsck --lost-found",
        "git merge-tree main feature",
        "git merge-tree --write-tree --messages main feature",
        "git rerere",
        "git rerere forget README.md",
        "git rerere clear",
        "git rerere gc",
    ];

    /// Attacks, each with the risk it must get (`None`: refused as an
    /// option the policy does not know, as git itself refuses or as it
    /// would do harm).
    const ATTACKS: &[(&str, Option<Risk>)] = &[
        // `--output` in every spelling and behind other options' values.
        ("git diff --output=src/app.rs", Some(Risk::Destructive)),
        ("git diff --output src/app.rs", Some(Risk::Destructive)),
        (
            "git diff HEAD --output=.git/hooks/pre-commit",
            Some(Risk::Destructive),
        ),
        ("git log -p --output=x.patch", Some(Risk::Destructive)),
        ("git log --output x -p", Some(Risk::Destructive)),
        (
            "git log --oneline -5 --stat --output=~/.bashrc",
            Some(Risk::Destructive),
        ),
        ("git show --output=/tmp/x HEAD", Some(Risk::Destructive)),
        ("git show --pretty --output=x", Some(Risk::Destructive)),
        ("git log --format --output=x", Some(Risk::Destructive)),
        ("git diff -U 3 --output=x", Some(Risk::Destructive)),
        (
            "git log --grep=x --author=y --output=z",
            Some(Risk::Destructive),
        ),
        (
            "git log -L 1,2:README.md --output=x",
            Some(Risk::Destructive),
        ),
        (
            "git log --decorate-refs x --output=y",
            Some(Risk::Destructive),
        ),
        (
            "git diff --no-index --output=x a b",
            Some(Risk::Destructive),
        ),
        ("git diff-tree -p HEAD --output=x", Some(Risk::Destructive)),
        ("git diff-files --output=x", Some(Risk::Destructive)),
        ("git diff-index HEAD --output=x", Some(Risk::Destructive)),
        ("git whatchanged --output=x", Some(Risk::Destructive)),
        ("git reflog --output=x", Some(Risk::Destructive)),
        (
            "git range-diff --output=x a..b c..d",
            Some(Risk::Destructive),
        ),
        (
            "git range-diff --output x a..b c..d",
            Some(Risk::Destructive),
        ),
        ("git stash show -p --output=x", Some(Risk::Destructive)),
        ("git fast-export --all --output=x", Some(Risk::Destructive)),
        // Abbreviations, where git refuses them and where it takes them.
        ("git diff --outp=x", None),
        ("git log --out=x", None),
        ("git range-diff --outp=x a..b c..d", None),
        ("git diff --no-output", None),
        // Commands that take diff options but have no use for them.
        ("git rev-list --output=x HEAD", None),
        ("git blame --output=x README.md", None),
        ("git shortlog --output=x HEAD", None),
        ("git blame -L 1,2 --output x README.md", None),
        // format-patch writes files unless --stdout.
        ("git format-patch -1", Some(Risk::Destructive)),
        ("git format-patch HEAD~3", Some(Risk::Destructive)),
        ("git format-patch -o /tmp/x -1", Some(Risk::Destructive)),
        (
            "git format-patch --output-directory=.git/hooks -1 --stdout",
            Some(Risk::Destructive),
        ),
        (
            "git format-patch -1 --stdout --output=x",
            Some(Risk::Destructive),
        ),
        (
            "git format-patch -1 --stdout --no-stdout",
            Some(Risk::Destructive),
        ),
        ("git format-patch --stdo -1", None),
        // archive, bundle, fast-export, interpret-trailers write files.
        ("git archive -o x.tar HEAD", Some(Risk::Destructive)),
        ("git archive --output=x.zip HEAD", Some(Risk::Destructive)),
        ("git archive --out=x.tar HEAD", Some(Risk::Destructive)),
        ("git archive -ox.tar HEAD", Some(Risk::Destructive)),
        ("git archive --remote=../origin HEAD", Some(Risk::Remote)),
        (
            "git archive --remote x --exec=sh HEAD",
            Some(Risk::UnsafeShell),
        ),
        ("git bundle create x.bundle --all", Some(Risk::Destructive)),
        (
            "git bundle create -q ../x.bundle HEAD",
            Some(Risk::Destructive),
        ),
        (
            "git fast-export --export-marks=marks --all",
            Some(Risk::Destructive),
        ),
        (
            "git fast-export --export-marks marks --all",
            Some(Risk::Destructive),
        ),
        (
            "git interpret-trailers --in-place README.md",
            Some(Risk::Destructive),
        ),
        (
            "git interpret-trailers --in-p --trailer=a:b README.md",
            Some(Risk::Destructive),
        ),
        // Running programs.
        ("git grep -O hello", Some(Risk::UnsafeShell)),
        ("git grep -Osh hello", Some(Risk::UnsafeShell)),
        (
            "git grep --open-files-in-pager=sh hello",
            Some(Risk::UnsafeShell),
        ),
        ("git grep --open hello", Some(Risk::UnsafeShell)),
        (
            "git grep -n --open-files-in-pager=vim -e x",
            Some(Risk::UnsafeShell),
        ),
        ("git grep -nO hello", Some(Risk::UnsafeShell)),
        ("git help -w log", Some(Risk::UnsafeShell)),
        ("git help --web log", Some(Risk::UnsafeShell)),
        ("git help --we log", Some(Risk::UnsafeShell)),
        ("git difftool", Some(Risk::UnsafeShell)),
        ("git difftool -x sh", Some(Risk::UnsafeShell)),
        ("git difftool --extcmd=sh HEAD", Some(Risk::UnsafeShell)),
        ("git difftool -t vimdiff HEAD", Some(Risk::UnsafeShell)),
        ("git difftool --tool-help -x sh", Some(Risk::UnsafeShell)),
        // Losing the reflog.
        ("git reflog expire --all", Some(Risk::Destructive)),
        ("git reflog delete HEAD@{1}", Some(Risk::Destructive)),
        // Verbs a newer git has, whatever the installed one knows.
        ("git reflog drop HEAD", Some(Risk::Destructive)),
        ("git reflog drop --all", Some(Risk::Destructive)),
        (
            "git reflog expire --expire=now --all",
            Some(Risk::Destructive),
        ),
        // Options no table has.
        ("git log --default --output=x", None),
        ("git rev-parse --output=x", None),
        ("git cat-file --batch --output=x", None),
        ("git describe --dirty --output=x", None),
    ];

    fn words(v: &Verdict) -> String {
        v.argv.join(" ")
    }

    fn canonical<'a>(line: &'a str, expected: &'a str) -> &'a str {
        if expected == "=" {
            line
        } else {
            expected
        }
    }

    #[test]
    fn benign_lines_read_only() {
        assert!(BENIGN.len() >= 60);
        for (line, expected) in BENIGN {
            let v = classify_words(line);
            assert!(!v.blocked(), "{line}: {v:?}");
            assert_eq!(v.risk, Risk::ReadOnly, "{line}: {v:?}");
            assert_eq!(words(&v), canonical(line, expected), "{line}");
        }
    }

    #[test]
    fn local_writes_are_writes() {
        for line in LOCAL_WRITES {
            let v = classify_words(line);
            assert!(!v.blocked(), "{line}: {v:?}");
            assert_eq!(v.risk, Risk::LocalWrite, "{line}: {v:?}");
        }
    }

    #[test]
    fn attacks_are_blocked() {
        assert!(ATTACKS.len() >= 40);
        for (line, risk) in ATTACKS {
            let v = classify_words(line);
            assert!(v.blocked(), "{line}: {v:?}");
            match risk {
                Some(r) => {
                    assert!(!v.unknown, "{line}: {v:?}");
                    assert_eq!(v.risk, *r, "{line}: {v:?}");
                }
                None => assert!(v.unknown, "{line}: {v:?}"),
            }
        }
    }

    #[test]
    fn reasons_name_the_rule_and_the_option() {
        let v = classify_words("git log -p --output x.patch");
        assert!(
            v.reason.contains("git.log") && v.reason.contains("`--output=x.patch`"),
            "{}",
            v.reason
        );
        let v = classify_words("git grep -Osh x");
        assert!(
            v.reason.contains("git.grep") && v.reason.contains("`-O`"),
            "{}",
            v.reason
        );
        let v = classify_words("git format-patch -1");
        assert!(v.reason.contains("--stdout"), "{}", v.reason);
    }

    /// A repository for the real-git checks: three commits on `main`, a
    /// `feature` branch, an annotated tag, an unstaged edit.
    struct Sandbox {
        dir: tempfile::TempDir,
    }

    impl Sandbox {
        fn new() -> Sandbox {
            let dir = tempfile::tempdir().expect("a temporary folder");
            let sandbox = Sandbox { dir };
            let root = sandbox.dir.path();
            std::fs::write(root.join("gitconfig"), "").expect("write gitconfig");
            std::fs::create_dir(root.join("repo")).expect("mkdir repo");
            let write = |path: &str, text: &str| {
                let p = root.join("repo").join(path);
                if let Some(parent) = p.parent() {
                    std::fs::create_dir_all(parent).expect("mkdir");
                }
                std::fs::write(p, text).expect("write a file");
            };
            sandbox.git_ok("init -q -b main");
            write("README.md", "hello\nworld\n");
            write("src/app.rs", "fn main() {}\n");
            write("victim.txt", "zzvictim\n");
            sandbox.git_ok("add .");
            sandbox.git_ok("commit -q -m first");
            sandbox.git_ok("tag -a -m v1.0 v1.0");
            write("README.md", "hello\nworld\nagain\n");
            sandbox.git_ok("commit -q -a -m second");
            sandbox.git_ok("switch -q -c feature");
            write("feature.txt", "feature\n");
            sandbox.git_ok("add feature.txt");
            sandbox.git_ok("commit -q -m feature-work");
            sandbox.git_ok("switch -q main");
            write("src/app.rs", "fn main() {\n    println!(\"hi\");\n}\n");
            sandbox.git_ok("commit -q -a -m third");
            write("README.md", "hello\nworld\nagain\nunstaged\n");
            sandbox
        }

        fn repo(&self) -> std::path::PathBuf {
            self.dir.path().join("repo")
        }

        fn run(&self, argv: &[String]) -> Output {
            let root = self.dir.path();
            Process::new("git")
                .args(argv)
                .current_dir(self.repo())
                .env_remove("GIT_DIR")
                .env_remove("GIT_WORK_TREE")
                .env_remove("GIT_INDEX_FILE")
                .env("HOME", root)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", root.join("gitconfig"))
                .env("GIT_AUTHOR_NAME", "A")
                .env("GIT_AUTHOR_EMAIL", "a@example.com")
                .env("GIT_COMMITTER_NAME", "A")
                .env("GIT_COMMITTER_EMAIL", "a@example.com")
                .env("GIT_PAGER", "cat")
                .env("PAGER", "cat")
                .env("GIT_EDITOR", "true")
                .env("GIT_TERMINAL_PROMPT", "0")
                .env("LC_ALL", "C")
                .stdin(Stdio::null())
                .output()
                .expect("git runs")
        }

        fn git_ok(&self, line: &str) -> String {
            let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
            let out = self.run(&argv);
            assert!(
                out.status.success(),
                "git {line}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).into_owned()
        }

        /// What a read must not change: files, index entries, refs.
        fn state(&self) -> String {
            let mut files = Vec::new();
            list(&self.repo(), &self.repo(), &mut files);
            files.sort();
            format!(
                "{}\n{}\n{}",
                files.join("\n"),
                self.git_ok("status --porcelain=v1 --untracked-files=all --ignored"),
                self.git_ok("for-each-ref")
            )
        }
    }

    /// Every path below `dir`, with contents for files, `.git` left out
    /// but for its hooks.
    fn list(root: &Path, dir: &Path, into: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap_or(&p).display().to_string();
            if p.is_dir() {
                if rel == ".git" {
                    list(root, &p.join("hooks"), into);
                    continue;
                }
                into.push(format!("{rel}/"));
                list(root, &p, into);
            } else {
                let text = std::fs::read(&p).unwrap_or_default();
                into.push(format!("{rel} {}", String::from_utf8_lossy(&text)));
            }
        }
    }

    #[test]
    fn benign_lines_run_in_git_and_change_nothing() {
        let sandbox = Sandbox::new();
        let before = sandbox.state();
        for (line, _) in BENIGN {
            let v = classify_words(line);
            let out = sandbox.run(&v.argv[1..]);
            let err = String::from_utf8_lossy(&out.stderr);
            // 0, or 1 for "found nothing" / "there are differences".
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "`{}` exited {code:?}: {err}",
                words(&v)
            );
            for refusal in [
                "usage:",
                "unknown option",
                "unrecognized argument",
                "unknown switch",
            ] {
                assert!(!err.contains(refusal), "`{}`: {err}", words(&v));
            }
        }
        assert_eq!(sandbox.state(), before, "a read changed the repository");
    }

    #[test]
    fn attacks_do_what_they_say_in_git() {
        // The attack as typed, run by git itself, has the effect the
        // policy refuses it for.
        let sandbox = Sandbox::new();
        let repo = sandbox.repo();
        for (line, written) in [
            ("diff HEAD~1 --output=o1.txt", "o1.txt"),
            ("log -p -1 --output o2.txt", "o2.txt"),
            ("show --output=o3.txt", "o3.txt"),
            ("diff-tree -p HEAD --output=o4.txt", "o4.txt"),
            ("rev-list --output=o5.txt HEAD", "o5.txt"),
            ("blame --output=o6.txt README.md", "o6.txt"),
            ("shortlog --output=o7.txt HEAD", "o7.txt"),
            (
                "range-diff --output=o8.txt main~1..main main~1..feature",
                "o8.txt",
            ),
            ("format-patch -1", "0001-third.patch"),
            ("format-patch -o pdir -1", "pdir"),
            ("archive -o a.tar HEAD", "a.tar"),
            ("bundle create b.bundle --all", "b.bundle"),
            ("fast-export --export-marks=m.txt --all", "m.txt"),
        ] {
            let typed = format!("git {line}");
            assert!(classify_words(&typed).blocked(), "{typed}");
            assert!(!repo.join(written).exists(), "{written} before {typed}");
            let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
            sandbox.run(&argv);
            assert!(repo.join(written).exists(), "{typed} wrote no {written}");
        }
        // `-O` runs the program it is given on the matching files.
        let typed = "git grep -Orm zzvictim";
        assert!(classify_words(typed).blocked());
        sandbox.run(&[
            "grep".to_string(),
            "-Orm".to_string(),
            "zzvictim".to_string(),
        ]);
        assert!(!repo.join("victim.txt").exists(), "{typed} removed nothing");
        // `--in-place` rewrites the file it is given.
        let typed = "git interpret-trailers --in-place --trailer=Fixes:x README.md";
        assert!(classify_words(typed).blocked());
        let argv: Vec<String> = typed.split_whitespace().skip(1).map(String::from).collect();
        sandbox.run(&argv);
        let text = std::fs::read_to_string(repo.join("README.md")).expect("README.md");
        assert!(text.contains("Fixes: x"), "{typed}: {text}");
    }

    #[test]
    fn values_and_separators_that_look_like_output_write_nothing_in_git() {
        let sandbox = Sandbox::new();
        let before = sandbox.state();
        for line in [
            "git log -S --output=out1.txt --oneline",
            "git log --grep --output=out2.txt",
            "git log --end-of-options --output=out3.txt",
            "git log -- --output=out4.txt",
            "git diff \u{2014}output=out5.txt",
        ] {
            let v = classify_words(line);
            assert!(!v.blocked(), "{line}: {v:?}");
            sandbox.run(&v.argv[1..]);
        }
        assert_eq!(sandbox.state(), before);
    }

    #[test]
    fn merge_tree_writes_objects_only_in_its_default_mode() {
        let trivial = classify_words("git merge-tree HEAD~1 main feature");
        assert_eq!(trivial.risk, Risk::ReadOnly);
        let stdin = classify_words("git merge-tree --stdin");
        assert_eq!(stdin.risk, Risk::LocalWrite);
        let forced = classify_words("git merge-tree --write-tree HEAD~1 main feature");
        assert_eq!(forced.risk, Risk::LocalWrite);
    }

    #[test]
    fn bundle_verbs_are_judged_one_by_one() {
        for (line, risk) in [
            ("git bundle verify x.bundle", Risk::ReadOnly),
            ("git bundle list-heads x.bundle", Risk::ReadOnly),
            ("git bundle unbundle x.bundle", Risk::LocalWrite),
            ("git bundle create - main", Risk::ReadOnly),
            ("git bundle create out.bundle main", Risk::Destructive),
            ("git bundle", Risk::ReadOnly),
        ] {
            assert_eq!(classify_words(line).risk, risk, "{line}");
        }
        assert!(classify_words("git bundle frobnicate x").unknown);
    }
}
