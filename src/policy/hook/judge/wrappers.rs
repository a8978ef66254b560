//! Programs that run another program: `sudo`, `env`, `nice`, `xargs`,
//! `parallel`, terminal multiplexers and job runners.

use super::*;

impl Judge<'_> {
    pub(super) fn wrapper(
        &mut self,
        name: &str,
        w: &Wrapper,
        args: &[Arg],
        assigns: &[(String, Option<String>)],
        stdin: Stdin,
    ) {
        if name == "env" {
            return self.env(args, assigns, stdin);
        }
        let mut assigns = assigns.to_vec();
        let mut i = 1;
        if !w.verbs.is_empty() {
            // `npm exec CMD` runs CMD; `npm test` is just npm.
            match args.get(1).and_then(Arg::lit) {
                Some(v) if w.verbs.contains(&v) => i = 2,
                _ => return self.unknown_program(name),
            }
        }
        let mut positionals = w.positionals;
        let mut by_shell = false;
        while i < args.len() {
            let Some(a) = args[i].lit() else {
                self.deny(format!(
                    "`{name}` is given `{}`, computed at run time, so the guard cannot tell what it runs",
                    args[i].shown()
                ));
                return;
            };
            if a == "--" {
                i += 1;
                break;
            }
            if w.command_string.contains(&a) {
                match args.get(i + 1) {
                    Some(Arg::Lit(line)) => {
                        let line = line.clone();
                        self.line(&line);
                    }
                    Some(other) => self.deny(format!(
                        "`{name} {a}` is given `{}`, computed at run time",
                        other.shown()
                    )),
                    None => {}
                }
                return;
            }
            if a.starts_with('-') && a.len() > 1 && positionals == w.positionals {
                if w.no_command.contains(&a) {
                    return;
                }
                // `sudo -s CMD`, `sudo -is CMD`: a shell runs the words.
                by_shell |= w.shell_flags.contains(&a);
                let flag = a.split('=').next().unwrap_or(a);
                if w.with_value.contains(&flag) && !a.contains('=') {
                    i += 2;
                } else if !a.starts_with("--") && a.len() > 2 {
                    // A cluster (`sudo -Eu root`): flags, then maybe one
                    // option whose value is the rest or the next word.
                    let (cluster, shell) = cluster_value(w, a);
                    by_shell |= shell;
                    match cluster {
                        Cluster::NoCommand => return,
                        Cluster::NextWord => i += 2,
                        Cluster::Within => i += 1,
                    }
                } else {
                    i += 1;
                }
                continue;
            }
            if positionals > 0 {
                positionals -= 1;
                i += 1;
                continue;
            }
            if let Some((n, v)) = a.split_once('=').filter(|_| w.assignments) {
                if self.wrapper_assignment(n, v, &mut assigns) {
                    return;
                }
                i += 1;
                continue;
            }
            break;
        }
        if by_shell && i < args.len() {
            match args[i..].iter().map(Arg::lit).collect::<Option<Vec<&str>>>() {
                Some(words) => self.line(&words.join(" ")),
                None => self.deny(format!(
                    "`{name}`'s shell is given words computed at run time, so the guard cannot tell what it runs"
                )),
            }
            return;
        }
        if i < args.len() {
            let cwd = self.cwd.clone();
            if w.moves_cwd {
                self.cwd = None;
            }
            self.run(&args[i..], &assigns, stdin);
            if w.moves_cwd {
                self.cwd = cwd;
            }
        }
    }

    pub(super) fn env(&mut self, args: &[Arg], assigns: &[(String, Option<String>)], stdin: Stdin) {
        let mut assigns = assigns.to_vec();
        let mut args = args.to_vec();
        let mut i = 1;
        let saved = self.cwd.clone();
        while i < args.len() {
            let Some(a) = args[i].lit() else {
                self.deny(format!(
                    "`env` is given `{}`, computed at run time, so the guard cannot tell what it runs",
                    args[i].shown()
                ));
                return;
            };
            // Bundled short options: `-iS'rm -rf src'` is `-i -S'rm -rf src'`.
            if let Some(rest) = a.strip_prefix('-') {
                let mut cs = rest.chars();
                if let (Some(c @ ('i' | '0' | 'v')), Some(_)) = (cs.next(), cs.clone().next()) {
                    let tail = format!("-{}", cs.as_str());
                    args[i] = Arg::Lit(format!("-{c}"));
                    args.insert(i + 1, Arg::Lit(tail));
                    continue;
                }
            }
            if a == "--" {
                i += 1;
                break;
            }
            let value_of = |flag: &str, long: &str| -> Option<Option<String>> {
                if a == flag || a == long {
                    return Some(args.get(i + 1).and_then(|v| v.lit()).map(String::from));
                }
                if let Some(v) = a.strip_prefix(&format!("{long}=")) {
                    return Some(Some(v.to_string()));
                }
                if a.starts_with(flag) && a.len() > flag.len() && !a.starts_with("--") {
                    return Some(Some(a[flag.len()..].to_string()));
                }
                None
            };
            if let Some(s) = value_of("-S", "--split-string") {
                let Some(s) = s else {
                    self.deny("`env -S` is given a string computed at run time");
                    return;
                };
                let attached = !(a == "-S" || a == "--split-string");
                let rest_start = if attached { i + 1 } else { i + 2 };
                let rest: Option<Vec<String>> = args[rest_start.min(args.len())..]
                    .iter()
                    .map(|a| a.lit().map(crate::text::quote::word))
                    .collect();
                let Some(rest) = rest else {
                    self.deny("`env -S` is followed by arguments computed at run time");
                    return;
                };
                let line = std::iter::once(s).chain(rest).collect::<Vec<_>>().join(" ");
                self.line(&line);
                return;
            }
            if let Some(dir) = value_of("-C", "--chdir") {
                self.cwd = match (dir, &self.cwd) {
                    (Some(d), Some(c)) => self.ctx.facts.enter_dir(c, &d),
                    _ => None,
                };
                i += if a == "-C" || a == "--chdir" { 2 } else { 1 };
                continue;
            }
            if value_of("-u", "--unset").is_some() {
                i += if a == "-u" || a == "--unset" { 2 } else { 1 };
                continue;
            }
            // BSD `-P PATH` (where to look the program up) and GNU 9.x
            // `-a ARG0` take a value: the program is the word after it.
            if value_of("-P", "-P").is_some() || value_of("-a", "--argv0").is_some() {
                i += if matches!(a, "-P" | "-a" | "--argv0") {
                    2
                } else {
                    1
                };
                continue;
            }
            if a.starts_with('-') {
                i += 1;
                continue;
            }
            if let Some((n, v)) = a.split_once('=') {
                if self.wrapper_assignment(n, v, &mut assigns) {
                    return;
                }
                i += 1;
                continue;
            }
            break;
        }
        if i < args.len() {
            self.run(&args[i..], &assigns, stdin);
        }
        self.cwd = saved;
    }

    pub(super) fn xargs(&mut self, args: &[Arg]) {
        const WITH_VALUE: &[&str] = &[
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "-a",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--eof",
            "-J",
            "-R",
            "-S",
            "--max-lines",
            "--process-slot-var",
        ];
        let mut i = 1;
        let mut replace: Option<String> = None;
        while i < args.len() {
            let Some(a) = args[i].lit() else {
                self.deny("`xargs` is given options computed at run time");
                return;
            };
            if a == "--" {
                i += 1;
                break;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            if a == "-I" || a == "-J" {
                replace = args.get(i + 1).and_then(|v| v.lit()).map(String::from);
            } else if a == "--replace" {
                // GNU: `--replace[=R]`, the value only attached.
                replace = Some("{}".into());
            } else if let Some(r) = a.strip_prefix("--replace=") {
                replace = Some(r.to_string());
            } else if a == "-i" {
                replace = Some("{}".into());
            } else if let Some(r) = a.strip_prefix("-I").or_else(|| a.strip_prefix("-i")) {
                replace = Some(r.to_string());
            }
            if WITH_VALUE.contains(&a) {
                i += 2;
            } else {
                i += 1;
            }
        }
        let stdin_arg = Arg::Unknown {
            prefix: String::new(),
            shown: "(arguments read from stdin)".into(),
        };
        let mut inner: Vec<Arg> = if i < args.len() {
            args[i..].to_vec()
        } else {
            vec![Arg::Lit("echo".into())]
        };
        match &replace {
            Some(r) if !r.is_empty() => {
                for a in inner.iter_mut().skip(1) {
                    if a.lit().is_some_and(|t| t.contains(r.as_str())) {
                        *a = stdin_arg.clone();
                    }
                }
            }
            _ => inner.push(stdin_arg),
        }
        self.run(&inner, &[], Stdin::Inherited);
    }

    /// The literal words after the program name, or a veto naming the first
    /// word computed at run time (`what`: what the guard then cannot tell).
    pub(super) fn literals(&mut self, name: &str, args: &[Arg], what: &str) -> Option<Vec<String>> {
        let lits = lit_args(args);
        if lits.is_none() {
            let bad = args[1..]
                .iter()
                .find(|a| a.lit().is_none())
                .map(|a| a.shown().to_string())
                .unwrap_or_default();
            self.deny(format!(
                "`{name}` is given `{bad}`, computed at run time, so the guard cannot tell {what}"
            ));
        }
        lits
    }

    pub(super) fn parallel(&mut self, name: &str, args: &[Arg]) {
        let Some(lits) = self.literals(name, args, "what it runs") else {
            return;
        };
        // `sem ARGS…` is `parallel --semaphore ARGS…`.
        let lits = if name == "sem" {
            std::iter::once("--semaphore".to_string())
                .chain(lits)
                .collect()
        } else {
            lits
        };
        let lines = match parallel::jobs(&lits) {
            Ok(l) => l,
            Err(e) => {
                self.deny(format!("{e}; the guard refuses what it cannot read"));
                return;
            }
        };
        self.may_write = true;
        // Jobs run in their own shells: the line's variables do not reach
        // them, and an input the guard cannot see stays unknown.
        let vars = std::mem::take(&mut self.vars);
        self.vars.insert(parallel::UNKNOWN_VAR.to_string(), None);
        let cwd = self.cwd.clone();
        for line in lines {
            self.line(&line);
            self.cwd = cwd.clone();
            if self.done() {
                break;
            }
        }
        self.vars = vars;
    }

    /// A [`Kind::Runner`]: every command its arguments could hold is
    /// judged — each argument holding white space (or the value of a
    /// `--long=` option) as a command line, and the words from each
    /// position on as a command — and its stdin as a script (`at`,
    /// `batch`), beside the snapshot any other program gets. Reading the
    /// arguments as a tmux or screen command would is a parser per
    /// program and version; reading every way is what the dedicated
    /// guards do, with this one's judgement of each command.
    pub(super) fn runner(&mut self, name: &str, args: &[Arg], stdin: Stdin) {
        let Some(lits) = self.literals(name, args, "what it runs") else {
            return;
        };
        self.unknown_program(name);
        let cwd = self.cwd.clone();
        for (k, a) in lits.iter().enumerate() {
            let text = match a.strip_prefix("--").and_then(|o| o.split_once('=')) {
                Some((_, value)) => value,
                None => a.as_str(),
            };
            for line in runner_lines(text) {
                self.line(&line);
                self.cwd = cwd.clone();
                if self.done() {
                    return;
                }
            }
            // A runner among the words is not judged from its position:
            // this loop reaches every position after it anyway, and
            // runners judging runners would take exponential time.
            let nested = programs::kind(a.rsplit('/').next().unwrap_or(a));
            if !matches!(nested, Some(Kind::Runner)) {
                self.run(&args[k + 1..], &[], Stdin::Inherited);
                self.cwd = cwd.clone();
                if self.done() {
                    return;
                }
            }
        }
        if matches!(name, "at" | "batch") && !lits.iter().any(|a| a.starts_with("-f")) {
            self.code_on_stdin(name, None, stdin);
        }
    }
}

/// The words after the program name when every one is a literal.
/// The command lines a runner's argument `text` could hold: itself when
/// it holds white space; with `\n` and `\r` typed as Enter (tmux
/// `send-keys`, screen `stuff`, expect `send`); and, in each of its lines
/// or statements, what follows a word of [`programs::RUNS_THE_REST`] or an
/// editor's `!`, unquoted.
pub(super) fn runner_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !text.contains(char::is_whitespace) {
        return out;
    }
    out.push(text.to_string());
    let typed = text.replace("\\n", "\n").replace("\\r", "\n");
    if typed != text {
        out.push(typed.clone());
    }
    let unwrap = |rest: &str| {
        let rest = rest
            .trim()
            .trim_matches(['"', '\'', '{', '}', '(', ')'])
            .trim();
        (!rest.is_empty()).then(|| rest.to_string())
    };
    for statement in typed.split(['\n', ';']) {
        let bytes = statement.as_bytes();
        for (k, _) in statement.match_indices('!') {
            // An editor's `!CMD` (after `:`, `+`, `silent`, `r`, `w`…)
            // runs CMD; `!=`, `! -f`, `done!"` are not that.
            let cmd_follows = bytes
                .get(k + 1)
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'~'));
            if cmd_follows {
                out.extend(unwrap(&statement[k + 1..]));
            }
        }
        // A word of RUNS_THE_REST anywhere (`spawn CMD`, `call
        // system("CMD")`, `(shell-command"CMD")`) runs what follows it.
        for verb in programs::RUNS_THE_REST {
            for (k, _) in statement.match_indices(verb) {
                let starts =
                    k == 0 || !bytes[k - 1].is_ascii_alphanumeric() && bytes[k - 1] != b'-';
                let rest = &statement[k + verb.len()..];
                let ends = rest.starts_with([' ', '\t', '(', '"', '\'', '{']);
                if starts && ends {
                    out.extend(unwrap(rest));
                }
            }
        }
    }
    out
}

/// Where a wrapper's cluster of short options (`-Eu`, `-nu5`) leaves the
/// command.
pub(super) enum Cluster {
    /// An option that runs no command (`sudo -lE`).
    NoCommand,
    /// The last option takes the next word as its value (`-Eu root`).
    NextWord,
    /// Flags only, or a value attached (`-n5`): the command is next.
    Within,
}

/// Also whether one of the flags before any value is a shell flag
/// (`sudo -su root`; in `sudo -us` the `s` is the user).
pub(super) fn cluster_value(w: &Wrapper, cluster: &str) -> (Cluster, bool) {
    let mut shell = false;
    for (k, c) in cluster.char_indices().skip(1) {
        let option = &*format!("-{c}");
        if w.no_command.contains(&option) {
            return (Cluster::NoCommand, shell);
        }
        if w.with_value.contains(&option) {
            let at = if k + c.len_utf8() < cluster.len() {
                Cluster::Within
            } else {
                Cluster::NextWord
            };
            return (at, shell);
        }
        shell |= w.shell_flags.contains(&option);
    }
    (Cluster::Within, shell)
}
