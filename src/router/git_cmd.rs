//! Risk classification of a literal `git …` command line.
//!
//! Works on the parsed argv, never on the raw string: git's global options
//! (`-C`, `-c`, `--git-dir`, …), `GIT_*=` prefixes and the user's aliases are
//! resolved first, then the subcommand is classified together with its flags.

use super::opts::Opts;
use super::{Risk, RouteEnv};
use crate::text::edit_distance;

/// Every subcommand git 2.47 knows (`git --list-cmds=main,nohelpers`).
pub const BUILTINS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archimport",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "credential-cache",
    "credential-store",
    "cvsexportcommit",
    "cvsimport",
    "cvsserver",
    "daemon",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "filter-branch",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "fsck-objects",
    "gc",
    "get-tar-commit-id",
    "grep",
    "hash-object",
    "help",
    "hook",
    "http-backend",
    "http-fetch",
    "http-push",
    "imap-send",
    "index-pack",
    "init",
    "init-db",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-octopus",
    "merge-one-file",
    "merge-ours",
    "merge-recursive",
    "merge-recursive-ours",
    "merge-recursive-theirs",
    "merge-resolve",
    "merge-subtree",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "p4",
    "pack-objects",
    "pack-redundant",
    "pack-refs",
    "patch-id",
    "pickaxe",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "quiltimport",
    "range-diff",
    "read-tree",
    "rebase",
    "receive-pack",
    "reflog",
    "refs",
    "remote",
    "remote-ext",
    "remote-fd",
    "remote-ftp",
    "remote-ftps",
    "remote-http",
    "remote-https",
    "repack",
    "replace",
    "replay",
    "request-pull",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "send-email",
    "send-pack",
    "shell",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stage",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "svn",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "upload-archive",
    "upload-pack",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
];

/// Commands suggested first for typos, as git's own autocorrect favours them.
const COMMON: &[&str] = &[
    "add",
    "branch",
    "checkout",
    "cherry-pick",
    "clone",
    "commit",
    "config",
    "diff",
    "fetch",
    "grep",
    "init",
    "log",
    "merge",
    "mv",
    "pull",
    "push",
    "rebase",
    "reset",
    "restore",
    "rm",
    "show",
    "stash",
    "status",
    "switch",
    "tag",
];

/// How a `git …` command line was classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitClass {
    /// The risk of what would run.
    pub risk: Risk,
    /// Whether git would not recognise the subcommand (typo or unknown alias).
    pub unknown: bool,
    /// Why the command got this class, in a few words.
    pub reason: String,
    /// What would run, aliases expanded, starting with `git`.
    pub argv: Vec<String>,
    /// `NAME=value` prefixes to set in the command's environment.
    pub env: Vec<(String, String)>,
    /// The commit message, when the command commits with `-m`.
    pub message: Option<String>,
}

impl GitClass {
    /// Whether the command must not run.
    pub fn blocked(&self) -> bool {
        self.unknown || self.risk.is_blocked()
    }
}

/// Global options that shape where and how git runs, collected for alias
/// and ref lookups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Globals {
    /// `-C` directories, in order (each relative to the previous).
    pub dirs: Vec<String>,
    /// `--git-dir`, when given.
    pub git_dir: Option<String>,
    /// `--work-tree`, when given.
    pub work_tree: Option<String>,
}

/// Classifies `git ARGS`, where `assignments` are the `NAME=value` words that
/// preceded `git` on the command line.
pub fn classify(assignments: &[(String, String)], args: &[String], env: &dyn RouteEnv) -> GitClass {
    for (name, _) in assignments {
        if let Some(reason) = env_assignment_risk(name) {
            return class(Risk::UnsafeShell, reason, args, assignments, None);
        }
    }
    classify_args(assignments, args, env, &mut Vec::new())
}

fn class(
    risk: Risk,
    reason: impl Into<String>,
    args: &[String],
    assignments: &[(String, String)],
    message: Option<String>,
) -> GitClass {
    GitClass {
        risk,
        unknown: false,
        reason: reason.into(),
        argv: std::iter::once("git".to_string())
            .chain(args.iter().cloned())
            .collect(),
        env: assignments.to_vec(),
        message,
    }
}

fn env_assignment_risk(name: &str) -> Option<String> {
    const SAFE: &[&str] = &[
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_NAMESPACE",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_COMMITTER_DATE",
        "GIT_OPTIONAL_LOCKS",
        "GIT_PAGER_IN_USE",
        "GIT_FLUSH",
        "GIT_LITERAL_PATHSPECS",
        "GIT_GLOB_PATHSPECS",
        "GIT_NOGLOB_PATHSPECS",
        "GIT_ICASE_PATHSPECS",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        "GIT_TRACE",
        "GIT_TRACE2",
        "GIT_REDACT_COOKIES",
        "GIT_ADVICE",
        "LC_ALL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "NO_COLOR",
    ];
    if SAFE.contains(&name) || name.starts_with("LC_") {
        None
    } else {
        Some(format!(
            "the environment variable `{name}` can make git run other programs or change its configuration"
        ))
    }
}

/// Why setting config `key` for one command is risky, if it is.
pub fn config_key_risk(key: &str) -> Option<(Risk, String)> {
    let key = key.to_ascii_lowercase();
    let parts: Vec<&str> = key.split('.').collect();
    let (section, name) = match (parts.first(), parts.last()) {
        (Some(s), Some(n)) if parts.len() >= 2 => (*s, *n),
        _ => return None,
    };
    if key == "core.hookspath" {
        return Some((
            Risk::Destructive,
            "`core.hooksPath` switches the repository's hooks, and their protections, off".into(),
        ));
    }
    let runs_program = matches!(
        (section, name),
        (
            "core",
            "pager" | "editor" | "sshcommand" | "fsmonitor" | "askpass" | "gitproxy"
        ) | ("core", "alternaterefscommand" | "worktree")
            | ("diff", "external" | "textconv" | "command")
            | ("sequence", "editor")
            | ("gpg", "program")
            | ("credential", "helper")
            | ("uploadpack", "packobjectshook")
            | ("web", "browser")
            | ("pager", _)
            | ("filter", "clean" | "smudge" | "process")
            | ("merge", "driver")
            | ("browser" | "man" | "difftool" | "mergetool", "cmd" | "path")
            | ("interactive", "difffilter")
            | ("include" | "includeif", _)
            | ("remote", "uploadpack" | "receivepack" | "proxy")
            | ("protocol", _)
            | ("init", "templatedir")
            | ("ssh", "variant")
    );
    runs_program.then(|| {
        (
            Risk::UnsafeShell,
            format!("the config key `{key}` can make git run other programs"),
        )
    })
}

fn classify_args(
    assignments: &[(String, String)],
    args: &[String],
    env: &dyn RouteEnv,
    seen_aliases: &mut Vec<String>,
) -> GitClass {
    let mut globals = Globals::default();
    let mut alias_overrides: Vec<(String, String)> = Vec::new();
    // A risky `-c` does not stop parsing: the command's own class (and its
    // commit message) still counts, and the worse of the two wins.
    let mut forced: Option<(Risk, String)> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') {
            break;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let takes_value = matches!(
            name,
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--super-prefix"
                | "--config-env"
                | "--attr-source"
                | "--list-cmds"
        );
        let value = if takes_value {
            match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => {
                            return class(
                                Risk::None,
                                format!("git's option `{name}` needs a value"),
                                args,
                                assignments,
                                None,
                            )
                            .unknown()
                        }
                    }
                }
            }
        } else {
            inline
        };
        match name {
            "-C" => globals.dirs.extend(value),
            "--git-dir" => globals.git_dir = value,
            "--work-tree" => globals.work_tree = value,
            "-c" | "--config-env" => {
                let v = value.unwrap_or_default();
                let (key, val) = v.split_once('=').unwrap_or((v.as_str(), "true"));
                if let Some((risk, reason)) = config_key_risk(key) {
                    if forced.as_ref().is_none_or(|(r, _)| risk > *r) {
                        forced = Some((risk, reason));
                    }
                }
                if let Some(alias) = key.to_ascii_lowercase().strip_prefix("alias.") {
                    alias_overrides.push((alias.to_string(), val.to_string()));
                }
            }
            "--exec-path" if value.is_some() => {
                return class(
                    Risk::Destructive,
                    "`--exec-path=…` changes where git finds its own programs",
                    args,
                    assignments,
                    None,
                )
            }
            "--version" | "-v" | "--help" | "-h" | "--html-path" | "--man-path" | "--info-path"
            | "--exec-path" => {
                let (risk, reason) =
                    forced.unwrap_or((Risk::ReadOnly, "prints information about git".into()));
                return class(risk, reason, args, assignments, None);
            }
            "--no-pager"
            | "-P"
            | "-p"
            | "--paginate"
            | "--bare"
            | "--no-replace-objects"
            | "--literal-pathspecs"
            | "--no-literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs"
            | "--no-optional-locks"
            | "--no-lazy-fetch"
            | "--no-advice"
            | "--namespace"
            | "--super-prefix"
            | "--attr-source"
            | "--list-cmds" => {}
            _ => {
                return class(
                    Risk::None,
                    format!("git does not know the option `{a}`"),
                    args,
                    assignments,
                    None,
                )
                .unknown()
            }
        }
        i += 1;
    }
    let Some(sub_raw) = args.get(i) else {
        return class(
            Risk::ReadOnly,
            "`git` alone prints its usage",
            args,
            assignments,
            None,
        );
    };
    let sub = sub_raw.to_ascii_lowercase();
    let rest = &args[i + 1..];
    // Runs with the subcommand's case normalised, as the router promises.
    let mut normalized: Vec<String> = args[..i].to_vec();
    normalized.push(sub.clone());
    normalized.extend(rest.iter().cloned());

    if !BUILTINS.contains(&sub.as_str()) {
        let alias = alias_overrides
            .iter()
            .rev()
            .find(|(n, _)| *n == sub)
            .map(|(_, v)| v.clone())
            .or_else(|| env.git_alias(&globals, sub_raw));
        return match alias {
            Some(value) => expand_alias(assignments, args, i, sub_raw, &value, env, seen_aliases),
            None => unknown_subcommand(assignments, args, sub_raw),
        };
    }
    let (mut risk, mut reason, message) = classify_subcommand(&sub, rest, &globals, env);
    if let Some((r, why)) = forced {
        if r > risk {
            (risk, reason) = (r, why);
        }
    }
    class(risk, reason, &normalized, assignments, message)
}

impl GitClass {
    fn unknown(mut self) -> GitClass {
        self.unknown = true;
        self.risk = Risk::None;
        self
    }
}

fn expand_alias(
    assignments: &[(String, String)],
    args: &[String],
    sub_index: usize,
    name: &str,
    value: &str,
    env: &dyn RouteEnv,
    seen: &mut Vec<String>,
) -> GitClass {
    let value = value.trim();
    if value.starts_with('!') {
        return class(
            Risk::UnsafeShell,
            format!("`{name}` is a shell alias (`{value}`), which runs arbitrary commands"),
            args,
            assignments,
            None,
        );
    }
    if seen.iter().any(|s| s == name) || seen.len() >= 16 {
        return class(
            Risk::None,
            format!("the alias `{name}` expands into itself"),
            args,
            assignments,
            None,
        )
        .unknown();
    }
    seen.push(name.to_string());
    let lexed = super::lex::lex(value);
    if lexed.words.is_empty() {
        return class(
            Risk::None,
            format!("the alias `{name}` is empty"),
            args,
            assignments,
            None,
        )
        .unknown();
    }
    let mut expanded: Vec<String> = args[..sub_index].to_vec();
    expanded.extend(lexed.words.into_iter().map(|w| w.text));
    expanded.extend(args[sub_index + 1..].iter().cloned());
    let mut inner = classify_args(assignments, &expanded, env, seen);
    inner.reason = format!("alias `{name}` = `{value}`: {}", inner.reason);
    inner
}

fn unknown_subcommand(assignments: &[(String, String)], args: &[String], sub: &str) -> GitClass {
    let lower = sub.to_ascii_lowercase();
    // Like git: commands the typo starts, else the closest few.
    let mut similar: Vec<&str> = COMMON
        .iter()
        .copied()
        .filter(|c| lower.len() >= 2 && c.starts_with(&lower))
        .collect();
    if similar.is_empty() {
        let best = BUILTINS
            .iter()
            .map(|c| edit_distance(&lower, c))
            .min()
            .unwrap_or(usize::MAX);
        if best <= 2 && best < lower.len() {
            for c in COMMON.iter().chain(BUILTINS.iter()).copied() {
                if edit_distance(&lower, c) == best && !similar.contains(&c) && similar.len() < 3 {
                    similar.push(c);
                }
            }
        }
    }
    let hint = match similar.as_slice() {
        [] => String::new(),
        [one] => format!("; the most similar command is `{one}`"),
        many => format!(
            "; the most similar commands are {}",
            many.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    class(
        Risk::None,
        format!("git: `{sub}` is not a git command{hint}"),
        args,
        assignments,
        None,
    )
    .unknown()
}

type Outcome = (Risk, String, Option<String>);

fn r(risk: Risk, reason: &str) -> Outcome {
    (risk, reason.to_string(), None)
}

/// True when `s` looks like a file path rather than a ref name.
fn looks_like_path(s: &str) -> bool {
    if s == "." || s == ".." || s.ends_with('/') || s.starts_with("./") || s.starts_with("../") {
        return true;
    }
    if s.contains(['*', '?', '[']) || s.starts_with(':') {
        return true;
    }
    let last = s.rsplit('/').next().unwrap_or(s);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

fn classify_subcommand(
    sub: &str,
    args: &[String],
    globals: &Globals,
    env: &dyn RouteEnv,
) -> Outcome {
    use Risk::{Destructive, LocalWrite, ReadOnly, Remote, UnsafeShell};
    if args.first().map(String::as_str) == Some("--help")
        || args.first().map(String::as_str) == Some("-h")
    {
        return r(ReadOnly, "shows the subcommand's help");
    }
    // Parsed once with no value-taking options; arms that need a precise
    // parse (commit, checkout, …) parse again with their own specs.
    let o = Opts::parse(args, "", &[]);
    match sub {
        "status" | "show" | "blame" | "annotate" | "shortlog" | "describe" | "rev-parse"
        | "rev-list" | "ls-files" | "ls-tree" | "cat-file" | "whatchanged" | "name-rev"
        | "for-each-ref" | "show-ref" | "show-branch" | "count-objects" | "cherry"
        | "merge-base" | "diff-tree" | "diff-files" | "diff-index" | "range-diff"
        | "verify-commit" | "verify-tag" | "verify-pack" | "check-ignore" | "check-attr"
        | "check-mailmap" | "check-ref-format" | "var" | "version" | "help" | "show-index"
        | "stripspace" | "column" | "get-tar-commit-id" | "patch-id" | "fmt-merge-msg"
        | "pickaxe" | "merge-tree" | "log" | "diff" | "fast-export" | "pack-redundant" => {
            if o.long("output") {
                r(LocalWrite, "writes its output to a file")
            } else {
                r(ReadOnly, "reads the repository")
            }
        }
        "fsck" | "fsck-objects" => {
            if o.long("lost-found") {
                r(LocalWrite, "writes dangling objects into .git/lost-found")
            } else {
                r(ReadOnly, "checks the object database")
            }
        }
        "grep" => {
            if o.short('O') || o.long("open-files-in-pager") {
                r(UnsafeShell, "`-O` runs a program on the matching files")
            } else {
                r(ReadOnly, "searches tracked files")
            }
        }
        "difftool" => {
            if o.short('x') || o.long("extcmd") {
                r(UnsafeShell, "`--extcmd` runs an arbitrary program")
            } else {
                r(ReadOnly, "shows differences in a diff tool")
            }
        }
        "archive" => {
            if o.long("remote") {
                r(Remote, "`--remote` contacts a remote repository")
            } else if o.short('o') || o.long("output") {
                r(LocalWrite, "writes an archive file")
            } else {
                r(ReadOnly, "writes an archive to standard output")
            }
        }
        "bundle" => match args.first().map(String::as_str) {
            Some("verify" | "list-heads") => r(ReadOnly, "reads a bundle"),
            _ => r(LocalWrite, "writes a bundle or its refs"),
        },
        "format-patch" => {
            if o.long("stdout") {
                r(ReadOnly, "prints patches")
            } else {
                r(LocalWrite, "writes patch files")
            }
        }
        "add" | "stage" => {
            if o.flag('n', "dry-run") {
                r(ReadOnly, "dry run")
            } else {
                r(LocalWrite, "stages changes in the index")
            }
        }
        "commit" => {
            let o = Opts::parse(
                args,
                "mFCcStu",
                &[
                    "message",
                    "file",
                    "reuse-message",
                    "reedit-message",
                    "fixup",
                    "squash",
                    "author",
                    "date",
                    "template",
                    "cleanup",
                    "trailer",
                    "pathspec-from-file",
                    "gpg-sign",
                    "untracked-files",
                ],
            );
            let msgs: Vec<&str> = o.values_of(&["m", "message"]).collect();
            let message = (!msgs.is_empty()).then(|| msgs.join("\n\n"));
            if o.flag('n', "no-verify") {
                (
                    Destructive,
                    "`--no-verify` skips the pre-commit and commit-msg hooks".into(),
                    message,
                )
            } else if o.long("dry-run") {
                (ReadOnly, "dry run".into(), message)
            } else {
                (LocalWrite, "records a commit locally".into(), message)
            }
        }
        "init" | "init-db" => r(LocalWrite, "creates a repository"),
        "checkout" => classify_checkout(args, globals, env),
        "switch" => {
            let o = Opts::parse(
                args,
                "cC",
                &["create", "force-create", "orphan", "conflict"],
            );
            if o.short('C') || o.long("force-create") {
                r(Destructive, "`-C` resets an existing branch")
            } else if o.flag('f', "force") || o.long("discard-changes") {
                r(
                    Destructive,
                    "`--discard-changes` throws away uncommitted edits",
                )
            } else {
                r(LocalWrite, "switches branches, keeping uncommitted work")
            }
        }
        "restore" => {
            let o = Opts::parse(args, "s", &["source", "conflict", "pathspec-from-file"]);
            if (o.flag('S', "staged")) && !(o.flag('W', "worktree")) {
                r(
                    LocalWrite,
                    "unstages changes; the working tree is untouched",
                )
            } else {
                r(
                    Destructive,
                    "`restore` without `--staged` overwrites uncommitted edits",
                )
            }
        }
        "reset" => {
            if o.long("hard") {
                r(Destructive, "`reset --hard` discards uncommitted work")
            } else if o.long("merge") {
                r(Destructive, "`reset --merge` can discard uncommitted work")
            } else {
                r(
                    LocalWrite,
                    "moves HEAD or unstages; the working tree is untouched",
                )
            }
        }
        "rm" => {
            if o.flag('f', "force") {
                r(
                    Destructive,
                    "`rm -f` deletes files even with uncommitted edits",
                )
            } else if o.flag('n', "dry-run") {
                r(ReadOnly, "dry run")
            } else if o.long("cached") {
                r(LocalWrite, "removes files from the index only")
            } else {
                r(
                    LocalWrite,
                    "removes committed files (git refuses if they have edits)",
                )
            }
        }
        "mv" => {
            if o.flag('f', "force") {
                r(Destructive, "`mv -f` overwrites the destination")
            } else if o.flag('n', "dry-run") {
                r(ReadOnly, "dry run")
            } else {
                r(LocalWrite, "moves tracked files")
            }
        }
        "branch" => classify_branch(args),
        "tag" => {
            let o = Opts::parse(
                args,
                "mFu",
                &["message", "file", "local-user", "sort", "format", "cleanup"],
            );
            if o.flag('d', "delete") {
                r(Destructive, "deleting a tag loses it (tags have no reflog)")
            } else if o.flag('f', "force") {
                r(Destructive, "`tag -f` replaces an existing tag")
            } else if o.flag('l', "list")
                || o.short('n')
                || o.flag('v', "verify")
                || o.long("contains")
                || o.long("no-contains")
                || o.long("points-at")
                || o.long("merged")
                || o.long("no-merged")
                || o.operands.is_empty()
            {
                r(ReadOnly, "lists tags")
            } else {
                r(LocalWrite, "creates a tag")
            }
        }
        "stash" => match args.first().map(String::as_str) {
            Some("list" | "show") => r(ReadOnly, "shows stash entries"),
            Some("drop" | "clear") => r(Destructive, "deletes stash entries for good"),
            _ => r(LocalWrite, "stashes or re-applies work"),
        },
        "remote" => match args
            .iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str)
        {
            None => r(ReadOnly, "lists remotes from .git/config; no network"),
            Some("get-url") => r(ReadOnly, "reads a remote's URL"),
            Some("show") if o.short('n') => r(ReadOnly, "`-n` shows cached information only"),
            Some("show") => r(
                Remote,
                "`remote show NAME` queries the remote over the network",
            ),
            Some(_) => r(Remote, "changes the configured remotes"),
        },
        "config" => classify_config(args),
        "clean" => {
            if o.flag('n', "dry-run") {
                r(ReadOnly, "`-n` only lists what would be removed")
            } else {
                r(Destructive, "`clean` deletes untracked files for good")
            }
        }
        "push" => {
            let o = Opts::parse(args, "o", &["push-option", "receive-pack", "exec", "repo"]);
            let refspec_forced = o
                .operands
                .iter()
                .skip(1)
                .any(|s| s.starts_with('+') || s.starts_with(':'));
            if o.flag('f', "force")
                || o.long("force-with-lease")
                || o.long("force-if-includes")
                || o.long("mirror")
                || o.long("prune")
                || o.flag('d', "delete")
                || refspec_forced
            {
                r(Destructive, "rewrites or deletes history on the remote")
            } else {
                r(Remote, "network operation")
            }
        }
        "pull" | "fetch" | "clone" | "ls-remote" | "fetch-pack" | "send-pack" | "http-fetch"
        | "http-push" | "upload-pack" | "receive-pack" | "upload-archive" | "request-pull"
        | "send-email" | "imap-send" | "daemon" | "http-backend" | "remote-ext" | "remote-fd"
        | "remote-ftp" | "remote-ftps" | "remote-http" | "remote-https" | "svn" | "p4"
        | "cvsimport" | "cvsexportcommit" | "cvsserver" | "archimport" | "credential"
        | "credential-cache" | "credential-store" => r(Remote, "network operation"),
        "instaweb" | "shell" | "for-each-repo" => r(UnsafeShell, "runs other programs"),
        "submodule" => match args
            .iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str)
        {
            None | Some("status" | "summary") => r(ReadOnly, "shows submodules"),
            Some("foreach") => r(UnsafeShell, "`submodule foreach` runs a shell command"),
            Some("init" | "absorbgitdirs" | "set-branch") => r(LocalWrite, "configures submodules"),
            Some("deinit") if o.flag('f', "force") => r(
                Destructive,
                "`deinit -f` removes submodule work trees with local edits",
            ),
            Some("deinit") => r(LocalWrite, "unregisters submodules"),
            Some(_) => r(Remote, "fetches or clones submodules"),
        },
        "rebase" => {
            let o = Opts::parse(args, "xs", &["exec", "strategy", "onto"]);
            if o.short('x') || o.long("exec") {
                r(UnsafeShell, "`rebase --exec` runs a shell command")
            } else {
                r(LocalWrite, "rewrites local commits (kept in the reflog)")
            }
        }
        "bisect" => match args.first().map(String::as_str) {
            Some("run") => r(UnsafeShell, "`bisect run` runs a command"),
            Some("log" | "visualize" | "view") => r(ReadOnly, "shows the bisect state"),
            _ => r(LocalWrite, "moves HEAD for a bisection"),
        },
        "reflog" => match args.first().map(String::as_str) {
            Some("expire" | "delete" | "drop") => r(
                Destructive,
                "removes reflog entries, the last record of lost commits",
            ),
            _ => r(ReadOnly, "shows the reflog"),
        },
        "gc" => {
            let prune_now = o.values_of(&["prune"]).any(|v| v == "now" || v == "all");
            if prune_now {
                r(
                    Destructive,
                    "`--prune=now` deletes unreachable objects immediately",
                )
            } else {
                r(LocalWrite, "packs the repository")
            }
        }
        "prune" => r(Destructive, "deletes unreachable objects"),
        "repack" => {
            if o.short('a') && o.short('d') && !o.short('A') && !o.long("keep-unreachable") {
                r(Destructive, "`repack -a -d` drops unreachable objects")
            } else {
                r(LocalWrite, "repacks objects")
            }
        }
        "filter-branch" => r(Destructive, "rewrites every commit of the history"),
        "update-ref" => {
            if o.short('d') {
                r(Destructive, "`update-ref -d` deletes a ref")
            } else {
                r(LocalWrite, "moves a ref")
            }
        }
        "symbolic-ref" => {
            if o.flag('d', "delete") {
                r(Destructive, "deletes a symbolic ref")
            } else if args.iter().filter(|a| !a.starts_with('-')).count() >= 2 {
                r(LocalWrite, "points a symbolic ref elsewhere")
            } else {
                r(ReadOnly, "reads a symbolic ref")
            }
        }
        "read-tree" => {
            if o.long("reset") {
                r(
                    Destructive,
                    "`read-tree --reset` can discard uncommitted work",
                )
            } else {
                r(LocalWrite, "reads trees into the index")
            }
        }
        "checkout-index" => {
            if o.flag('f', "force") {
                r(Destructive, "`checkout-index -f` overwrites working files")
            } else {
                r(LocalWrite, "writes files from the index")
            }
        }
        "worktree" => match args.first().map(String::as_str) {
            Some("list") | None => r(ReadOnly, "lists worktrees"),
            Some("remove") if o.flag('f', "force") => r(
                Destructive,
                "`worktree remove --force` deletes a worktree with local edits",
            ),
            _ => r(LocalWrite, "manages worktrees"),
        },
        "notes" => match args.first().map(String::as_str) {
            None | Some("list" | "show" | "get-ref") => r(ReadOnly, "shows notes"),
            _ => r(LocalWrite, "edits notes"),
        },
        "hash-object" => {
            if o.short('w') {
                r(LocalWrite, "writes an object")
            } else {
                r(ReadOnly, "computes an object id")
            }
        }
        "interpret-trailers" => {
            if o.long("in-place") {
                r(LocalWrite, "edits a file in place")
            } else {
                r(ReadOnly, "prints trailers")
            }
        }
        "rerere" => match args.first().map(String::as_str) {
            None | Some("status" | "diff" | "remaining") => {
                r(ReadOnly, "shows recorded resolutions")
            }
            _ => r(LocalWrite, "edits recorded resolutions"),
        },
        "merge"
        | "cherry-pick"
        | "revert"
        | "am"
        | "apply"
        | "replace"
        | "commit-tree"
        | "write-tree"
        | "mktree"
        | "mktag"
        | "update-index"
        | "index-pack"
        | "pack-objects"
        | "unpack-objects"
        | "pack-refs"
        | "prune-packed"
        | "multi-pack-index"
        | "commit-graph"
        | "update-server-info"
        | "fast-import"
        | "maintenance"
        | "merge-file"
        | "merge-index"
        | "merge-octopus"
        | "merge-one-file"
        | "merge-ours"
        | "merge-recursive"
        | "merge-recursive-ours"
        | "merge-recursive-theirs"
        | "merge-resolve"
        | "merge-subtree"
        | "mailinfo"
        | "mailsplit"
        | "quiltimport"
        | "bugreport"
        | "diagnose"
        | "hook"
        | "sparse-checkout"
        | "refs"
        | "replay"
        | "unpack-file"
        | "mergetool" => r(LocalWrite, "changes the local repository"),
        _ => r(
            UnsafeShell,
            "this git command is not classified, so it is not run",
        ),
    }
}

fn classify_checkout(args: &[String], globals: &Globals, env: &dyn RouteEnv) -> Outcome {
    use Risk::{Destructive, LocalWrite, ReadOnly};
    let o = Opts::parse(args, "bB", &["orphan", "conflict", "pathspec-from-file"]);
    if o.flag('f', "force")
        || o.flag('p', "patch")
        || o.long("ours")
        || o.long("theirs")
        || o.flag('m', "merge")
        || o.long("pathspec-from-file")
    {
        return r(
            Destructive,
            "overwrites uncommitted edits in the working tree",
        );
    }
    if o.short('B') {
        return r(Destructive, "`checkout -B` resets an existing branch");
    }
    if o.dashdash && !o.paths.is_empty() {
        return r(
            Destructive,
            "`checkout -- PATH` overwrites uncommitted edits",
        );
    }
    if o.short('b') || o.long("orphan") || o.long("detach") {
        return r(LocalWrite, "creates or switches a branch");
    }
    match o.operands.as_slice() {
        [] => r(ReadOnly, "`checkout` alone only reports the branch state"),
        [name] => {
            if name == "-" {
                return r(LocalWrite, "switches to the previous branch");
            }
            let is_rev = env.ref_exists(globals, name);
            let path = match is_rev {
                Some(true) => false,
                Some(false) => true,
                None => looks_like_path(name),
            };
            if path {
                r(Destructive, "`checkout PATH` overwrites uncommitted edits")
            } else {
                r(LocalWrite, "switches branches, keeping uncommitted work")
            }
        }
        _ => r(
            Destructive,
            "`checkout REV PATH` overwrites uncommitted edits",
        ),
    }
}

fn classify_branch(args: &[String]) -> Outcome {
    use Risk::{Destructive, LocalWrite, ReadOnly};
    let o = Opts::parse(
        args,
        "u",
        &["set-upstream-to", "sort", "format", "color", "column"],
    );
    let force = o.flag('f', "force");
    if o.short('D') || (o.flag('d', "delete") && force) {
        return r(
            Destructive,
            "force-deletes a branch even if it is not merged",
        );
    }
    if o.flag('d', "delete") {
        return r(
            LocalWrite,
            "deletes a merged branch (git refuses unmerged ones)",
        );
    }
    if o.short('M') || o.short('C') || ((o.flag('m', "move") || o.flag('c', "copy")) && force) {
        return r(Destructive, "overwrites an existing branch");
    }
    if o.flag('m', "move") || o.flag('c', "copy") {
        return r(LocalWrite, "renames or copies a branch");
    }
    if o.short('u')
        || o.long("set-upstream-to")
        || o.long("unset-upstream")
        || o.long("edit-description")
    {
        return r(LocalWrite, "changes branch configuration");
    }
    if o.flag('l', "list") || o.operands.is_empty() || o.long("show-current") {
        return r(ReadOnly, "lists branches");
    }
    if force {
        return r(Destructive, "`branch -f` moves an existing branch");
    }
    r(LocalWrite, "creates a branch")
}

fn classify_config(args: &[String]) -> Outcome {
    use Risk::{Destructive, LocalWrite, ReadOnly, UnsafeShell};
    let o = Opts::parse(
        args,
        "f",
        &["file", "blob", "type", "default", "value", "comment"],
    );
    let reads = [
        "get",
        "get-all",
        "get-regexp",
        "get-urlmatch",
        "get-color",
        "get-colorbool",
        "list",
    ];
    if reads.iter().any(|l| o.longs.iter().any(|g| g == l)) || o.short('l') {
        return r(ReadOnly, "reads configuration");
    }
    let mut ops = o.operands.iter().map(String::as_str);
    let (key, is_write) = match o.operands.first().map(String::as_str) {
        Some("get" | "list") => return r(ReadOnly, "reads configuration"),
        Some("set" | "unset" | "rename-section" | "remove-section" | "edit") => {
            ops.next();
            (ops.next(), true)
        }
        Some(_) => {
            let key = ops.next();
            (key, o.operands.len() >= 2)
        }
        None => (None, false),
    };
    let writes_flag = [
        "unset",
        "unset-all",
        "add",
        "replace-all",
        "rename-section",
        "remove-section",
        "edit",
    ]
    .iter()
    .any(|w| o.longs.iter().any(|g| g == w))
        || o.short('e');
    if !is_write && !writes_flag {
        return r(ReadOnly, "reads configuration");
    }
    if let Some((risk, reason)) = key.and_then(config_key_risk) {
        return (risk.max(Destructive), reason, None);
    }
    if let Some(k) = key {
        if k.to_ascii_lowercase().starts_with("alias.")
            && o.operands
                .last()
                .is_some_and(|v| v.trim_start().starts_with('!'))
        {
            return r(
                UnsafeShell,
                "defines a shell alias, which runs arbitrary commands",
            );
        }
    }
    r(LocalWrite, "writes configuration")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::router::NoEnv;

    fn c(line: &str) -> GitClass {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        classify(&[], &words[1..], &NoEnv)
    }

    #[test]
    fn classifies_by_subcommand_and_flags() {
        assert_eq!(c("git status").risk, Risk::ReadOnly);
        assert_eq!(c("git -C sub push").risk, Risk::Remote);
        assert_eq!(c("git push --force-with-lease").risk, Risk::Destructive);
        assert_eq!(c("git push origin +main").risk, Risk::Destructive);
        assert_eq!(c("git commit -n -m x").risk, Risk::Destructive);
        assert_eq!(
            c("git -c core.hooksPath=/dev/null commit").risk,
            Risk::Destructive
        );
        assert_eq!(c("git clean -xdf").risk, Risk::Destructive);
        assert_eq!(c("git clean -nd").risk, Risk::ReadOnly);
        assert_eq!(c("git checkout -- .").risk, Risk::Destructive);
        assert_eq!(c("git checkout src/main.rs").risk, Risk::Destructive);
        assert_eq!(c("git checkout feature/x").risk, Risk::LocalWrite);
        assert_eq!(c("git restore --staged a").risk, Risk::LocalWrite);
        assert_eq!(c("git restore a").risk, Risk::Destructive);
        assert_eq!(c("git branch -vv").risk, Risk::ReadOnly);
        assert_eq!(c("git branch -d old").risk, Risk::LocalWrite);
        assert_eq!(c("git stash drop").risk, Risk::Destructive);
        assert_eq!(c("git reset --har").risk, Risk::Destructive);
        assert_eq!(c("git Status").argv, ["git", "status"]);
        assert_eq!(c("git config core.pager less").risk, Risk::UnsafeShell);
        assert_eq!(c("git config user.name me").risk, Risk::LocalWrite);
        assert_eq!(c("git config --get user.name").risk, Risk::ReadOnly);
    }

    #[test]
    fn unknown_subcommands_and_aliases() {
        let s = c("git stauts");
        assert!(s.unknown && s.blocked());
        assert!(s.reason.contains("`status`"), "{}", s.reason);
        let a = c("git -c alias.p=push p");
        assert_eq!(a.risk, Risk::Remote);
        assert_eq!(a.argv, ["git", "-c", "alias.p=push", "push"]);
        let shell = c("git -c alias.x=!rm x");
        assert_eq!(shell.risk, Risk::UnsafeShell);
        let looped = c("git -c alias.x=x x");
        assert!(looped.unknown);
    }

    #[test]
    fn commit_messages_are_extracted() {
        let words: Vec<String> = ["commit", "-m", "a b", "-m", "c"]
            .map(String::from)
            .to_vec();
        let k = classify(&[], &words, &NoEnv);
        assert_eq!(k.message.as_deref(), Some("a b\n\nc"));
    }
}
