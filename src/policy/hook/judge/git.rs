//! `git` inside a shell line: handed to the git policy with the walk's
//! directory and environment.

use super::*;

impl Judge<'_> {
    pub(super) fn git(&mut self, args: &[Arg], assigns: &[(String, Option<String>)]) {
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
