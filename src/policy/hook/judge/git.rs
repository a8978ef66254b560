//! `git` inside a shell line: handed to the git policy with the walk's
//! directory and environment.

use super::*;

impl Judge<'_> {
    pub(super) fn git(&mut self, args: &[Arg], assigns: &[(String, Option<String>)]) {
        let wrote_before = self.may_write;
        // `git fararoni VERB` runs `git-fararoni VERB`: ours, judged as ours.
        if args.get(1).and_then(Arg::lit) == Some("fararoni") {
            self.own(&args[1..]);
            return;
        }
        let Some(cwd) = self.cwd.clone() else {
            self.deny("After a `cd` the guard cannot follow, it cannot tell which repository `git` would act on");
            return;
        };
        let mut argv: Vec<String> = Vec::with_capacity(args.len());
        // A word computed at run time where git takes a revision, a path
        // or a directory (`git -C "$r" log`, `git diff main $b`): judged
        // with a stand-in; it may only read, and the dirty set is saved
        // first, since the real word could still be an option.
        let mut computed: Option<String> = None;
        for (k, a) in args.iter().enumerate() {
            match a {
                Arg::Lit(t) => argv.push(t.clone()),
                Arg::Unknown { prefix, shown } => {
                    let after_value_option = k > 0
                        && args[k - 1]
                            .lit()
                            .is_some_and(|p| GIT_VALUE_OPTIONS.contains(&p));
                    let attached = prefix.starts_with("--") && prefix.contains('=')
                        || (prefix.len() > 2
                            && prefix.starts_with('-')
                            && GIT_VALUE_OPTIONS.contains(&&prefix[..2]));
                    if !(after_value_option || attached) {
                        if !prefix.is_empty() || k == 0 {
                            self.deny(format!(
                                "`git` is given `{shown}`, computed at run time, so the guard cannot tell what it would do"
                            ));
                            return;
                        }
                        computed.get_or_insert_with(|| shown.clone());
                        let after_dir = args[k - 1].lit() == Some("-C");
                        argv.push(if after_dir { ".".into() } else { "HEAD".into() });
                        continue;
                    }
                    argv.push(format!("{prefix}computed"));
                }
            }
        }
        if let Some(first) = argv.first_mut() {
            *first = "git".into();
        }
        let mut env = Vec::new();
        // Variables set earlier on the line (`export GIT_DIR=…`; with
        // `set -a` any assignment) reach git too, unless the prefix
        // assignments override them.
        let mut earlier: Vec<(&String, &Option<String>)> = self
            .vars
            .iter()
            .filter(|(n, _)| passes_to_git_policy(n) && !assigns.iter().any(|(a, _)| a == *n))
            .collect();
        earlier.sort();
        for (name, value) in earlier
            .into_iter()
            .chain(assigns.iter().map(|(n, v)| (n, v)))
        {
            if !passes_to_git_policy(name) {
                continue;
            }
            match value {
                Some(v) => env.push((name.clone(), v.clone())),
                None => {
                    self.deny(format!("`{name}` for git is computed at run time"));
                    return;
                }
            }
        }
        let v = policy::classify(&argv, &env, Actor::Hook, self.ctx.facts, &cwd);
        if let Some(shown) = computed {
            if v.blocked() || v.risk != Risk::ReadOnly {
                self.deny(format!(
                    "`git` is given `{shown}`, computed at run time, and `{}` would not only read, so the guard cannot tell what it would do",
                    short_argv(&argv)
                ));
                return;
            }
            self.may_write = true;
            if self.ctx.unknown_programs == UnknownPrograms::Deny {
                self.deny(format!(
                    "`git` is given `{shown}`, computed at run time, and fararoni.hook.unknownPrograms is deny"
                ));
            }
            return;
        }
        if v.risk >= Risk::LocalWrite || v.unknown {
            self.may_write = true;
        }
        let why = v
            .reason
            .strip_prefix("rule ")
            .unwrap_or(&v.reason)
            // Level 1 tells a person to run it themselves; the model must not.
            .replace("; run it yourself if you mean it", "")
            .replace(" — run it yourself if you mean it", "")
            .replace(" — run it yourself", "")
            .replace("; run it yourself", "");
        if v.unknown {
            self.deny(format!("`{}`: {why}", short_argv(&argv)));
            return;
        }
        if v.risk == Risk::Destructive && env.is_empty() && self.state_spares(&v.argv, &cwd) {
            // Decided at the end of the line: only if nothing else on it
            // changes the repository (see `judge_line`).
            if wrote_before || self.spared.is_some() {
                self.deny(format!(
                    "`{}` loses nothing only in the repository as it is now, and the line changes it too; run it on its own",
                    short_argv(&argv)
                ));
            }
            self.spared = Some(short_argv(&argv));
            // Whether anything else writes is decided at the end of the line.
            self.may_write = wrote_before;
            return;
        }
        if v.risk == Risk::LocalWrite && env.is_empty() {
            if let Some(why) = self.unstages_only_copy(&v.argv) {
                self.deny(why);
                return;
            }
        }
        match v.risk {
            Risk::Destructive | Risk::UnsafeShell => {
                self.deny(format!("`{}` is refused — {why}", short_argv(&argv)));
            }
            Risk::Remote if self.ctx.remote == RemotePosture::Deny => {
                self.deny(format!(
                    "`{}` contacts a remote, and fararoni.hook.remote is deny",
                    short_argv(&argv)
                ));
            }
            _ => {}
        }
    }
}

/// git subcommands that write the files a patch names: the paths are read
/// from the patch, and each is judged as a place to write.
pub(super) const PATCHERS: &[&str] = &["apply", "am"];

/// Options of [`PATCHERS`] that only report (no file is written).
const PATCH_REPORTS: &[&str] = &[
    "--check",
    "--stat",
    "--numstat",
    "--summary",
    "--abort",
    "--quit",
    "--show-current-patch",
    "--skip",
];

/// The largest patch read; a larger one is refused.
const MAX_PATCH: u64 = 16 << 20;

/// The paths a patch (unified or git diff, mbox) creates, changes, renames
/// or deletes, with `strip` leading components removed from `---`/`+++`
/// names (`-pN`; git's own headers always strip `a/` and `b/`).
pub(super) fn patch_paths(text: &str, strip: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let unquote = |p: &str| -> String { p.trim().trim_matches('"').to_string() };
    let strip_n = |p: &str, n: usize| -> String {
        let p = unquote(p);
        let p = p.split('\t').next().unwrap_or("").to_string();
        p.splitn(n + 1, '/').nth(n).unwrap_or("").to_string()
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            // `a/X b/Y`: split at the ` b/` (names with spaces are quoted).
            if let Some((a, b)) = rest.split_once(" b/") {
                out.push(strip_n(a, 1));
                out.push(unquote(b));
            }
        } else if let Some(p) = line
            .strip_prefix("--- ")
            .or_else(|| line.strip_prefix("+++ "))
        {
            if !p.trim_start().starts_with("/dev/null") {
                out.push(strip_n(p, strip));
            }
        } else if let Some(p) = ["rename from ", "rename to ", "copy to ", "copy from "]
            .iter()
            .find_map(|h| line.strip_prefix(h))
        {
            out.push(unquote(p));
        }
    }
    out.retain(|p| !p.is_empty());
    out.sort();
    out.dedup();
    out
}

impl Judge<'_> {
    /// `git apply` / `git am`: every path the patch writes is judged as a
    /// place (the hooks folder, `.git/`, our store, the agents' hook
    /// settings, included configuration are refused); a patch the guard
    /// cannot read (piped in, redirected) is refused.
    pub(super) fn git_patch(&mut self, args: &[Arg], stdin: &Stdin) {
        let words: Vec<&str> = args.iter().filter_map(Arg::lit).collect();
        // The subcommand after git's global options (`-C DIR`, `-c K=V`).
        let mut k = 1;
        while k < words.len() && words[k].starts_with('-') {
            k += if matches!(
                words[k],
                "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
            ) {
                2
            } else {
                1
            };
        }
        let Some(sub) = words.get(k) else {
            return;
        };
        if !PATCHERS.contains(sub) {
            return;
        }
        let rest = &words[k + 1..];
        if rest
            .iter()
            .any(|w| PATCH_REPORTS.contains(w) || w.starts_with("--show-current"))
        {
            return;
        }
        let mut strip = 1usize;
        let mut files: Vec<&str> = Vec::new();
        let mut after_dashes = false;
        let mut i = 0;
        while i < rest.len() {
            let w = rest[i];
            i += 1;
            if after_dashes || !w.starts_with('-') || w == "-" {
                files.push(w);
                continue;
            }
            if w == "--" {
                after_dashes = true;
            } else if let Some(n) = w.strip_prefix("-p") {
                strip = n.parse().unwrap_or(1);
            } else if matches!(
                w,
                "--directory"
                    | "--exclude"
                    | "--include"
                    | "-C"
                    | "--whitespace"
                    | "--patch-format"
                    | "--resolvemsg"
            ) {
                i += 1;
            }
        }
        let mut texts: Vec<(String, String)> = Vec::new();
        if files.is_empty() || files == ["-"] {
            match stdin {
                Stdin::Known(t) => texts.push(("stdin".into(), t.clone())),
                Stdin::Inherited => return,
                Stdin::File | Stdin::Pipe => {
                    self.deny(format!(
                        "`git {sub}` reads a patch from stdin, which the guard cannot read to see where it writes; pass the patch as a file"
                    ));
                    return;
                }
            }
        }
        for f in files.iter().filter(|f| **f != "-") {
            let Some(abs) = self.absolute(f) else {
                return;
            };
            match std::fs::metadata(&abs) {
                Ok(m) if m.is_dir() => {
                    // `git am DIR`: a Maildir; not read here.
                    self.deny(format!("`git {sub}` of the folder `{f}` is refused: the guard reads patches from files"));
                    return;
                }
                Ok(m) if m.len() > MAX_PATCH => {
                    self.deny(format!("`git {sub}`: the patch `{f}` is too large to read"));
                    return;
                }
                Ok(_) => match std::fs::read(&abs) {
                    Ok(bytes) => {
                        texts.push((f.to_string(), String::from_utf8_lossy(&bytes).into_owned()))
                    }
                    Err(_) => return,
                },
                // A patch that does not exist: git refuses.
                Err(_) => return,
            }
        }
        let Some(top) = self.ctx.loss.worktree() else {
            return;
        };
        for (shown, text) in texts {
            for p in patch_paths(&text, strip) {
                let abs = paths::resolve_abs(&top.join(&p), false);
                if let Some(why) =
                    paths::protected_as(&abs, self.ctx.loss, self.home.as_deref(), false)
                {
                    self.deny(format!(
                        "`git {sub}`: the patch `{shown}` writes `{p}`, and {why}"
                    ));
                    return;
                }
                if !abs.starts_with(&top) {
                    self.deny(format!(
                        "`git {sub}`: the patch `{shown}` names `{p}`, outside the working tree"
                    ));
                    return;
                }
            }
        }
    }
}

/// Destructive git commands whose harm is a state of the repository:
/// each shape (the canonical argv after `git`, as the policy parsed it),
/// and the state that makes it lose something. When the repository is not
/// in that state the command loses nothing and runs (after the dirty set is
/// saved); any other spelling keeps its veto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Harm {
    /// Drops stash entries: harmful while there is one.
    Stash,
    /// Deletes branches: harmful when one holds commits no other ref has.
    Branches,
    /// Puts tracked files back as committed or staged: harmful when one
    /// of them (under the paths) has uncommitted changes.
    TrackedChanges,
    /// Deletes untracked, unignored files: harmful when there is one
    /// under the paths.
    Untracked,
}

/// The shapes of [`Harm`]: subcommand, the options it may carry (all
/// others keep the veto), whether it takes paths (else the whole tree).
pub(super) const STATE_DEPENDENT: &[(&str, &[&str], bool, Harm)] = &[
    ("stash drop", &["-q", "--quiet"], false, Harm::Stash),
    ("stash clear", &[], false, Harm::Stash),
    (
        "branch",
        &["-D", "-d", "--delete", "-f", "--force", "-q", "--quiet"],
        false,
        Harm::Branches,
    ),
    (
        "checkout",
        &["--", "-q", "--quiet"],
        true,
        Harm::TrackedChanges,
    ),
    (
        "checkout",
        &["-f", "--force", "-q", "--quiet"],
        false,
        Harm::TrackedChanges,
    ),
    (
        "restore",
        &["--", "-W", "--worktree", "-S", "--staged", "-q", "--quiet"],
        true,
        Harm::TrackedChanges,
    ),
    (
        "reset",
        &["--hard", "-q", "--quiet"],
        false,
        Harm::TrackedChanges,
    ),
    (
        "clean",
        &["-f", "--force", "-d", "-q", "--quiet", "--"],
        true,
        Harm::Untracked,
    ),
];

/// Commands that put the index back to HEAD for some paths (the
/// working tree untouched): subcommand words, and the options that make
/// it so. Staged content that is in neither HEAD nor the working tree is
/// lost by them.
const UNSTAGES: &[(&str, &[&str])] = &[
    (
        "reset",
        &["--mixed", "-q", "--quiet", "--", "-N", "--intent-to-add"],
    ),
    ("restore", &["--staged", "-S", "-q", "--quiet", "--"]),
    (
        "rm",
        &["--cached", "-r", "-q", "--quiet", "-f", "--force", "--"],
    ),
];

impl Judge<'_> {
    /// Why `argv` (canonical) loses staged-only content, when it does: a
    /// mixed `reset`, `restore --staged`, `rm --cached` of paths whose
    /// staged version is neither committed nor in the working tree.
    fn unstages_only_copy(&mut self, argv: &[String]) -> Option<String> {
        let sub = argv.get(1)?.as_str();
        let (_, options) = UNSTAGES.iter().find(|(s, _)| *s == sub)?;
        let rest = &argv[2..];
        let mut operands = Vec::new();
        let mut dashes = false;
        for w in rest {
            if !dashes && w.starts_with('-') {
                if !options.contains(&w.as_str()) {
                    // Another shape (`reset --soft`, `restore -W`): its own rule.
                    return None;
                }
                dashes = w == "--";
                continue;
            }
            operands.push(w.as_str());
        }
        match sub {
            "restore" if !rest.iter().any(|w| w == "--staged" || w == "-S") => return None,
            "rm" if !rest.iter().any(|w| w == "--cached") => return None,
            _ => {}
        }
        // `reset [HEAD] [--] [PATHS]`: a revision first is the source.
        if sub == "reset" && operands.first().is_some_and(|o| matches!(*o, "HEAD" | "@")) {
            operands.remove(0);
        }
        let mut targets = Vec::new();
        for o in &operands {
            if o.starts_with(':') || o.contains(['*', '?', '[']) {
                return Some(format!(
                    "`{}` with a pattern: the guard cannot tell whether it drops staged changes that exist nowhere else",
                    short_argv(argv)
                ));
            }
            let abs = self.absolute(o)?;
            targets.push(paths::resolve_abs(&abs, true));
        }
        if targets.is_empty() {
            targets.extend(self.ctx.loss.worktree());
        }
        let lost = self.ctx.loss.staged_only(&targets)?;
        if lost.is_empty() {
            return None;
        }
        let top = self.ctx.loss.worktree();
        let names: Vec<String> = lost
            .iter()
            .take(3)
            .map(|p| {
                let r = top
                    .as_ref()
                    .and_then(|t| p.strip_prefix(t).ok())
                    .unwrap_or(p);
                format!("`{}`", r.display())
            })
            .collect();
        Some(format!(
            "`{}` would drop staged changes that are neither committed nor in the working tree ({}); commit them or `git stash` first",
            short_argv(argv),
            names.join(", ")
        ))
    }

    /// Whether the destructive git command `argv` (canonical) is one of
    /// [`STATE_DEPENDENT`] and the repository is not in the state that
    /// makes it lose something.
    pub(super) fn state_spares(&mut self, argv: &[String], cwd: &Path) -> bool {
        // Only the repository the facts are about: no `-C`, no other dir.
        if self.elsewhere.is_some()
            || self.ctx.loss.worktree().is_none()
            || argv.get(1).is_none_or(|a| a.starts_with('-'))
        {
            return false;
        }
        let place = crate::policy::Place {
            dir: cwd.to_path_buf(),
            ..Default::default()
        };
        if self.ctx.facts.same_repository(&place) != Some(true) {
            return false;
        }
        for (sub, options, paths, harm) in STATE_DEPENDENT {
            let words: Vec<&str> = sub.split(' ').collect();
            if argv.len() < 1 + words.len()
                || argv[1..1 + words.len()]
                    .iter()
                    .map(String::as_str)
                    .ne(words.iter().copied())
            {
                continue;
            }
            let rest = &argv[1 + words.len()..];
            let mut operands: Vec<&str> = Vec::new();
            let mut after_dashes = false;
            let mut fits = true;
            for w in rest {
                if !after_dashes && w.starts_with('-') {
                    if !options.contains(&w.as_str()) {
                        fits = false;
                        break;
                    }
                    after_dashes = w == "--";
                    continue;
                }
                operands.push(w);
            }
            if !fits {
                continue;
            }
            return match harm {
                Harm::Stash => {
                    // `drop stash@{N}` of an entry that exists is a loss.
                    self.ctx.loss.stash_entries() == Some(0)
                }
                Harm::Branches => {
                    let deletes = rest.iter().any(|w| w == "-D")
                        || (rest.iter().any(|w| w == "-d" || w == "--delete")
                            && rest.iter().any(|w| w == "-f" || w == "--force"));
                    if !deletes || operands.is_empty() {
                        return false;
                    }
                    // Only plain branch names: `@{-1}`, `@`, `x^` are revisions
                    // git resolves to a branch the question would not name.
                    if operands.iter().any(|o| {
                        *o == "@"
                            || o.contains("@{")
                            || o.contains(['~', '^', ':', '?', '*', '[', '\\'])
                            || o.contains("..")
                    }) {
                        return false;
                    }
                    let names: Vec<String> = operands.iter().map(|o| o.to_string()).collect();
                    // The branch checked out: git refuses it here, and in
                    // another worktree its checkout would be left headless.
                    let current = self.ctx.facts.current_branch();
                    if current.is_none() || names.iter().any(|n| Some(n) == current.as_ref()) {
                        return false;
                    }
                    self.ctx
                        .loss
                        .branches_holding_only(&names)
                        .is_some_and(|only| only.is_empty())
                }
                Harm::TrackedChanges | Harm::Untracked => {
                    let sub = words[0];
                    // `checkout -- P` needs its `--`, `checkout -f` takes no
                    // operand (a branch would move HEAD); `reset --hard`
                    // only at HEAD; `restore` from the index or HEAD only.
                    let ok_shape = match (sub, *paths) {
                        ("checkout", true) => {
                            rest.iter().any(|w| w == "--")
                                && !operands.is_empty()
                                && rest
                                    .first()
                                    .is_some_and(|w| w == "--" || w == "-q" || w == "--quiet")
                        }
                        ("checkout", false) => operands.is_empty(),
                        ("reset", _) => {
                            rest.iter().any(|w| w == "--hard")
                                && operands.iter().all(|o| matches!(*o, "HEAD" | "@"))
                                && operands.len() <= 1
                        }
                        ("clean", _) => rest.iter().any(|w| w == "-f" || w == "--force"),
                        _ => !operands.is_empty(),
                    };
                    if !ok_shape {
                        return false;
                    }
                    let targets: Vec<PathBuf> = if *paths && sub != "reset" {
                        let mut t = Vec::new();
                        for o in &operands {
                            // Pathspec magic and globs: the guard does not
                            // expand them.
                            if o.starts_with(':') || o.contains(['*', '?', '[']) {
                                return false;
                            }
                            let Some(abs) = self.absolute(o) else {
                                return false;
                            };
                            t.push(paths::resolve_abs(&abs, true));
                        }
                        if t.is_empty() {
                            if let Some(top) = self.ctx.loss.worktree() {
                                t.push(top);
                            }
                        }
                        t
                    } else {
                        self.ctx.loss.worktree().into_iter().collect()
                    };
                    match self.ctx.loss.loss(&targets) {
                        Ok(l) if *harm == Harm::TrackedChanges => l.modified.is_empty(),
                        Ok(l) => l.untracked.is_empty(),
                        Err(_) => false,
                    }
                }
            };
        }
        false
    }
}

/// git options whose value may be computed at run time without changing
/// what git does (a message, an author, a date, a format).
pub(super) const GIT_VALUE_OPTIONS: &[&str] = &[
    "-m",
    "--message",
    "-F",
    "--file",
    "--author",
    "--date",
    "--since",
    "--until",
    "--after",
    "--before",
    "--format",
    "--pretty",
    "-S",
    "-G",
    "--grep",
    "-e",
];

/// Variables the Hook posture lets through to git without asking the
/// policy's allow-list: they change output, editors, identity or transport,
/// never which repository or what is lost. Those whose value is a program
/// (editors, pagers, `GIT_SSH_COMMAND`) are judged as the command they run
/// where they are set ([`programs::COMMAND_VARS`]).
pub(super) const GIT_ENV_HARMLESS: &[&str] = &[
    "GIT_PAGER",
    "PAGER",
    "GIT_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_SEQUENCE_EDITOR",
    "GIT_TERMINAL_PROMPT",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_MERGE_AUTOEDIT",
    "GIT_PROGRESS_DELAY",
    "GIT_CURL_VERBOSE",
    "GIT_TRACE",
    "GIT_TRACE2",
    "GIT_TRACE_PACKET",
    "LESS",
    "TERM",
    "CI",
    "FARARONI_GUARD",
];

/// Whether an assignment before `git` goes to the policy's environment
/// rules (place variables, config injection) rather than being harmless.
pub(super) fn passes_to_git_policy(name: &str) -> bool {
    if GIT_ENV_HARMLESS.contains(&name) {
        return false;
    }
    name.starts_with("GIT_") || matches!(name, "HOME" | "XDG_CONFIG_HOME" | "PREFIX")
}

/// Whether a `find` name filter would match anything inside the git dir
/// `g` (a walk capped at 20,000 entries; past it, assume it would).
pub(super) fn git_dir_matches(g: &Path, names: &[(String, bool)], simple: bool) -> bool {
    if !simple || names.is_empty() {
        return true;
    }
    let mut stack = vec![g.to_path_buf()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            seen += 1;
            if seen > 20_000 {
                return true;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            let hit = names.iter().all(|(p, icase)| {
                if *icase {
                    crate::text::glob::matches(&p.to_lowercase(), &name.to_lowercase())
                } else {
                    crate::text::glob::matches(p, &name)
                }
            });
            if hit {
                return true;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(e.path());
            }
        }
    }
    false
}
