//! Dispatch of one command to its program family, the read-only programs
//! and their escapes, and what assignments and unknown programs mean.

use super::*;

impl Judge<'_> {
    /// Judges one command's words (program first).
    /// Judges one command (a program and its words): a wrapper judges the
    /// command it wraps from here again, so a chain of `nice nice … git`
    /// is refused past [`MAX_WRAPPED`] (past a few thousand it overflowed
    /// the stack: a crash the agent takes for a hook that allows).
    pub(super) fn run(&mut self, args: &[Arg], assigns: &[(String, Option<String>)], stdin: Stdin) {
        if self.running >= MAX_WRAPPED {
            self.deny("Programs wrap each other too deeply to judge");
            return;
        }
        self.running += 1;
        self.run_program(args, assigns, stdin);
        self.running -= 1;
    }

    pub(super) fn run_program(
        &mut self,
        args: &[Arg],
        assigns: &[(String, Option<String>)],
        stdin: Stdin,
    ) {
        let Some(first) = args.first() else {
            return;
        };
        let Some(program) = first.lit() else {
            self.deny(format!(
                "The program name `{}` is computed at run time, so the guard cannot tell what would run",
                first.shown()
            ));
            return;
        };
        if program.is_empty() {
            self.deny("The program name is empty after expansion");
            return;
        }
        let name = program.rsplit('/').next().unwrap_or(program).to_string();
        if let Some(value) = self.aliases.get(&name).cloned() {
            if self.depth > MAX_NESTING {
                self.deny("Aliases nest too deeply to judge");
                return;
            }
            let rest: Option<Vec<String>> = args[1..]
                .iter()
                .map(|a| a.lit().map(crate::text::quote::word))
                .collect();
            match rest {
                Some(rest) => {
                    let line = std::iter::once(value)
                        .chain(rest)
                        .collect::<Vec<_>>()
                        .join(" ");
                    // Expanded (zsh, interactive bash) and not (bash -c):
                    // both readings are judged, the alias taken away so
                    // `alias rm='rm -i'` does not loop.
                    let value = self.aliases.remove(&name);
                    self.line(&line);
                    if let Some(v) = value {
                        self.aliases.insert(name.clone(), v);
                    }
                    if self.done() {
                        return;
                    }
                }
                None => {
                    self.deny(format!(
                        "The alias `{name}` is given arguments computed at run time"
                    ));
                    return;
                }
            }
        }
        // Our own verbs are judged by their table ([`own`]); `run` is a
        // wrapper whose command is judged like any other.
        let name = programs::canonical(&name);
        if name == programs::OURS && args.get(1).and_then(Arg::lit) != Some("run") {
            self.own(args);
            return;
        }
        if name.starts_with(programs::OURS_SIBLINGS) {
            self.deny(format!(
                "`{name}` acts on the guard or its backups directly, which is the user's call; agents use `git-fararoni run -- CMD`"
            ));
            return;
        }
        let kind = programs::kind(&name);
        // A function shadows only programs the guard does not know:
        // `rm() { :; }; command rm -rf x` still runs the real rm.
        if kind.is_none() && self.functions.contains(&name) {
            self.may_write = true;
            self.unjudged = true;
            return;
        }
        match kind {
            // `./run.sh` the line just wrote: its text, by its first line
            // (`#!/usr/bin/env python3`) or as a shell script.
            None if program.contains('/') && self.written_on_line(program).is_some() => {
                let text = self.written_on_line(program).unwrap_or_default();
                let interpreter = text
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("#!"))
                    .and_then(|l| l.split_whitespace().last())
                    .map(|p| p.rsplit('/').next().unwrap_or(p).to_string());
                match interpreter.as_deref().map(|i| (i, programs::kind(i))) {
                    Some((i, Some(Kind::Interpreter(lang)))) => self.inline_code(i, lang, &text),
                    Some((_, Some(Kind::Shell))) | None => self.line(&text),
                    Some((i, _)) => self.unknown_program(i),
                }
                self.may_write = true;
                self.unjudged = true;
            }
            None => {
                self.extractor(&name, args);
                self.unknown_program(&name);
            }
            Some(Kind::ReadOnly) => self.read_only(&name, args, assigns),
            Some(Kind::Wrapper(w)) => self.wrapper(&name, w, args, assigns, stdin),
            Some(Kind::Shell) => self.shell(&name, args, stdin),
            Some(Kind::Eval) => self.eval(&name, args),
            Some(Kind::Xargs) => self.xargs(args),
            Some(Kind::Parallel) => self.parallel(&name, args),
            Some(Kind::WindowsShell) => self.windows_shell(&name, args),
            Some(Kind::Multicall) => match args.get(1) {
                // `busybox --list`, `toybox --help`: its own options.
                Some(Arg::Lit(a)) if a.starts_with('-') => self.multicall_option(&name, args),
                Some(_) => self.run(&args[1..], assigns, stdin),
                None => {}
            },
            Some(Kind::Find) => self.find(args),
            Some(Kind::Remote) => self.remote(&name, args),
            Some(Kind::Runner) => self.runner(&name, args, stdin),
            Some(Kind::Git) => {
                self.git(args, assigns);
                if !self.done() {
                    self.git_patch(args, &stdin);
                }
            }
            Some(Kind::Interpreter(lang)) => self.interpreter(&name, lang, args, stdin),
            Some(Kind::Files) => {
                let Some(lits) = self.literals(&name, args, "which files it would change") else {
                    return;
                };
                if name == "rsync" {
                    let runs = match files::rsync_runs(&lits) {
                        Ok(r) => r,
                        Err(e) => {
                            self.deny(format!(
                                "`rsync`: {e}; the guard refuses options it cannot read"
                            ));
                            return;
                        }
                    };
                    let cwd = self.cwd.clone();
                    for rsh in &runs.here {
                        self.line(rsh);
                        self.cwd = cwd.clone();
                        if self.done() {
                            return;
                        }
                    }
                    // `--rsync-path` runs through the remote shell on the
                    // host, like `ssh HOST CMD`.
                    for (host, line) in runs.there {
                        let outer = self.elsewhere.replace(host);
                        self.line(&line);
                        self.elsewhere = outer;
                        self.cwd = cwd.clone();
                        if self.done() {
                            return;
                        }
                    }
                }
                if name == "sed" {
                    self.sed_does(&lits);
                    if self.done() {
                        return;
                    }
                }
                match files::file_ops(&name, &lits) {
                    Ok(ops) => {
                        self.file_ops(&format!("`{name}`"), ops);
                        if !self.done() {
                            self.record_made(&name, &lits);
                        }
                    }
                    Err(e) => self.deny(format!(
                        "`{name}`: {e}; the guard refuses options it cannot read"
                    )),
                }
            }
            Some(Kind::Fetcher) => self.fetcher(&name, args),
            Some(Kind::Listener) => self.listener(&name, args),
            Some(Kind::Cd) => self.cd(&name, args),
            Some(Kind::Disk) => {
                let lists = args[1..]
                    .iter()
                    .any(|a| a.lit().is_some_and(|w| programs::DISK_LISTING.contains(&w)));
                if !lists {
                    self.deny(format!(
                        "`{name}` formats, partitions or wipes a disk (or a disk image); only its listing options are for an agent"
                    ));
                }
            }
            Some(Kind::Alias) => {
                for a in &args[1..] {
                    if let Some((n, v)) = a.lit().and_then(|t| t.split_once('=')) {
                        self.aliases.insert(n.to_string(), v.to_string());
                    }
                }
            }
            Some(Kind::Crontab) => {
                let only_list = args[1..].iter().any(|a| a.lit() == Some("-l"))
                    && !args[1..]
                        .iter()
                        .any(|a| matches!(a.lit(), Some("-r" | "-e" | "-i")));
                if !only_list {
                    self.deny("Changing the user's crontab is refused");
                }
            }
            Some(Kind::Source) => {
                if args[1..].iter().any(|a| a.lit().is_none()) {
                    self.deny(format!(
                        "`{name}` would run code the guard cannot see (a substitution or a computed file name)"
                    ));
                    return;
                }
                match args.get(1).and_then(Arg::lit) {
                    Some(f) if self.stdin_file(f, &stdin) => self.code_on_stdin(&name, None, stdin),
                    _ => self.unknown_program(&name),
                }
            }
        }
    }

    /// An archive extractor's destination ([`programs::EXTRACTORS`]).
    pub(super) fn extractor(&mut self, name: &str, args: &[Arg]) {
        // Whether something earlier on the line may have written the
        // archive (then a name that does not exist yet may by run time).
        let wrote_before = self.may_write;
        let Some(x) = programs::EXTRACTORS.iter().find(|x| x.program == name) else {
            // 7-Zip extracts into `-oDIR`.
            if archives::archiver(name).is_some() {
                let Some(lits) = self.literals(name, args, "where it would extract") else {
                    return;
                };
                let dirs: Vec<String> = lits
                    .iter()
                    .filter_map(|a| a.strip_prefix("-o").map(String::from))
                    .collect();
                self.archive_over_work(name, &lits, &dirs, wrote_before);
            }
            return;
        };
        let Some(lits) = self.literals(name, args, "where it would extract") else {
            return;
        };
        if name == "tar" && lits.iter().any(|a| a == "--remove-files") {
            return self.tar_removes(&lits);
        }
        let Some((dirs, absolute)) = x.reading(&lits) else {
            return;
        };
        if absolute {
            self.deny(format!(
                "`{name}` with absolute member paths writes wherever the archive says (a dotfile, `~/.ssh`), which the guard cannot see"
            ));
            return;
        }
        self.file_ops(
            &format!("`{name}`"),
            dirs.iter()
                .cloned()
                .map(|word| FileOp {
                    word,
                    effect: Effect::Touch,
                    into_dir: None,
                })
                .collect(),
        );
        if !self.done() {
            self.archive_over_work(name, &lits, &dirs, wrote_before);
        }
    }

    /// An extraction replaces every member's path: each existing one is
    /// judged like an overwrite ([`archives`]); when the members cannot be
    /// listed, a destination that holds work is refused.
    fn archive_over_work(
        &mut self,
        name: &str,
        lits: &[String],
        dirs: &[String],
        wrote_before: bool,
    ) {
        let Some(a) = archives::archiver(name) else {
            return;
        };
        let x = a.reading(lits);
        if !x.extracts || x.keeps {
            return;
        }
        let dest_word = dirs.last().cloned().unwrap_or_else(|| ".".into());
        let Some(dest) = self.absolute(&dest_word) else {
            return;
        };
        let dest = paths::resolve_abs(&dest, true);
        let members = x.archive.as_ref().and_then(|f| {
            let abs = self.absolute(f)?;
            abs.is_file()
                .then(|| self.ctx.loss.archive_members(name, &abs))
                .flatten()
        });
        const MAX_MEMBERS: usize = 20_000;
        let shown = x.archive.clone().unwrap_or_else(|| "stdin".into());
        if let Some(members) = members.filter(|m| m.len() <= MAX_MEMBERS) {
            if let Some(bad) = members
                .iter()
                .find(|m| m.starts_with('/') || m.split(['/', '\\']).any(|c| c == ".."))
            {
                self.deny(format!(
                    "`{name}`: the archive `{shown}` has a member `{bad}` that lands outside the folder it extracts into"
                ));
                return;
            }
            let ops: Vec<FileOp> = members
                .iter()
                .filter(|m| !m.ends_with('/'))
                .map(|m| dest.join(m.trim_start_matches("./")))
                .filter(|p| p.symlink_metadata().is_ok())
                .map(|p| FileOp {
                    word: p.to_string_lossy().into_owned(),
                    effect: Effect::Overwrite,
                    into_dir: None,
                })
                .collect();
            if !ops.is_empty() {
                self.file_ops(&format!("`{name}` extracting `{shown}`"), ops);
            }
            return;
        }
        // An archive that does not exist, and that nothing earlier on the
        // line could have made: the extractor fails, nothing is written.
        if let Some(f) = &x.archive {
            let missing = self
                .absolute(f)
                .is_some_and(|abs| abs.symlink_metadata().is_err());
            if missing && !wrote_before {
                return;
            }
        }
        // Members not known: refused over a folder holding work.
        if !self.must_ask(&dest) || !dest.is_dir() {
            return;
        }
        match self.ctx.loss.loss(std::slice::from_ref(&dest)) {
            Ok(l) if l.modified.is_empty() && l.untracked.is_empty() && l.precious.is_empty() => {}
            Ok(l) => {
                let n = l.modified.len() + l.untracked.len() + l.precious.len();
                self.deny(format!(
                    "`{name}` would extract `{shown}`, whose members the guard cannot list, over `{dest_word}`, which holds {n} file{} of uncommitted or ignored work it could overwrite; extract into a new folder",
                    if n == 1 { "" } else { "s" }
                ));
            }
            Err(e) => self.deny(format!(
                "`{name}`: the guard could not ask the repository what extracting would overwrite ({e})"
            )),
        }
    }

    /// `tar --remove-files`: everything it archives is deleted after, so
    /// its operands are judged like `rm -r`'s; members named in a file
    /// (`-T`) cannot be seen.
    fn tar_removes(&mut self, lits: &[String]) {
        const TAKES_VALUE: &[&str] = &[
            "-f",
            "--file",
            "-C",
            "--directory",
            "-X",
            "--exclude-from",
            "--exclude",
            "-b",
            "--blocking-factor",
            "-H",
            "--format",
            "-I",
            "--use-compress-program",
        ];
        if lits.iter().any(|a| {
            a == "-T"
                || a.starts_with("--files-from")
                || (a.starts_with("-T") && !a.starts_with("--"))
        }) {
            self.deny(
                "`tar --remove-files` deletes members listed in a file the guard does not read",
            );
            return;
        }
        let mut words = Vec::new();
        let mut k = 0;
        while k < lits.len() {
            let a = &lits[k];
            k += 1;
            let old_style = k == 1 && !a.starts_with('-');
            if old_style || (a.starts_with('-') && !a.starts_with("--")) {
                // A cluster (or tar's old style) whose `f`, `C`, … take
                // the next word.
                let letters = a.trim_start_matches('-');
                k += letters.chars().filter(|c| "fCXbHI".contains(*c)).count();
                continue;
            }
            if TAKES_VALUE.contains(&a.as_str()) {
                k += 1;
                continue;
            }
            if a.starts_with("--") {
                continue;
            }
            words.push(a.clone());
        }
        self.file_ops(
            "`tar --remove-files`",
            words
                .into_iter()
                .map(|word| FileOp {
                    word,
                    effect: Effect::Delete { recursive: true },
                    into_dir: None,
                })
                .collect(),
        );
    }

    /// sed's `w FILE` and `e COMMAND` ([`files::sed_does`]).
    pub(super) fn sed_does(&mut self, lits: &[String]) {
        let Ok(does) = files::sed_does(lits) else {
            // Unreadable options: `file_ops` refuses them next.
            return;
        };
        for d in does {
            match d {
                files::SedDoes::Writes(path) => self.file_ops(
                    "`sed w`",
                    vec![FileOp {
                        word: path,
                        effect: Effect::Overwrite,
                        into_dir: None,
                    }],
                ),
                files::SedDoes::Runs(Some(line)) => {
                    let cwd = self.cwd.clone();
                    self.line(&line);
                    self.cwd = cwd;
                }
                files::SedDoes::Runs(None) => self.deny(
                    "`sed` with `e` runs the text it edits as a shell command, which the guard cannot see",
                ),
            }
            if self.done() {
                return;
            }
        }
    }

    /// A multi-call binary's own option: `--install` writes links
    /// ([`programs::MULTICALL_INSTALLS`]); the others only print.
    pub(super) fn multicall_option(&mut self, name: &str, args: &[Arg]) {
        let Some(option) = args.get(1).and_then(|a| a.lit()) else {
            return;
        };
        let Some((_, _, defaults)) = programs::MULTICALL_INSTALLS
            .iter()
            .find(|(p, o, _)| *p == name && *o == option)
        else {
            return;
        };
        let Some(lits) = self.literals(name, args, "where it would write") else {
            return;
        };
        let dirs: Vec<String> = match lits[1..].iter().find(|a| !a.starts_with('-')) {
            Some(dir) => vec![dir.clone()],
            None => defaults.iter().map(|d| d.to_string()).collect(),
        };
        self.file_ops(
            &format!("`{name} {option}`"),
            dirs.into_iter()
                .map(|word| FileOp {
                    word,
                    effect: Effect::Touch,
                    into_dir: None,
                })
                .collect(),
        );
    }

    /// An environment variable set on the line: when some program runs
    /// its value ([`programs::COMMAND_VARS`]), that command is judged
    /// here; `value` is `None` when computed at run time.
    pub(super) fn assigned(&mut self, name: &str, value: Option<&str>) {
        let Some(runs) = programs::command_var(name) else {
            return;
        };
        self.may_write = true;
        if runs == programs::VarRuns::Loads {
            self.unjudged = true;
            return;
        }
        let Some(value) = value else {
            self.deny(format!(
                "`{name}` is set to a value computed at run time, and programs run it as a command; the guard cannot judge it"
            ));
            return;
        };
        if value.trim().is_empty() {
            return;
        }
        let cwd = self.cwd.clone();
        match runs {
            programs::VarRuns::Line => self.line(value),
            programs::VarRuns::LessPipe => self.line(value.trim_start_matches(['|', '-'])),
            // `may_write` above is the whole rule: the snapshot first.
            programs::VarRuns::Loads => {}
            // An unquoted here-document expands like the shell expands
            // the value: `$(…)` and backticks run, quotes are text.
            programs::VarRuns::Expanded => self.line(&format!(
                ": <<__FARARONI_VALUE__\n{value}\n__FARARONI_VALUE__\n"
            )),
        }
        self.cwd = cwd;
    }

    pub(super) fn unknown_program(&mut self, name: &str) {
        self.may_write = true;
        self.unjudged = true;
        if self.ctx.unknown_programs == UnknownPrograms::Deny {
            self.deny(format!(
                "`{name}` is not a program the guard knows, and fararoni.hook.unknownPrograms is deny"
            ));
        }
    }

    pub(super) fn read_only(
        &mut self,
        name: &str,
        args: &[Arg],
        _assigns: &[(String, Option<String>)],
    ) {
        if !(matches!(name, "awk" | "gawk" | "mawk") && awk_in_place(args)) {
            self.read_only_escapes(name, args);
            if self.done() {
                return;
            }
        }
        match name {
            "export" | "declare" | "local" | "typeset" | "readonly" => {
                // `declare -n REF=GIT_EDITOR`: assigning REF sets the
                // variable it names, which the guard does not follow.
                let nameref = args[1..].iter().filter_map(Arg::lit).any(|t| {
                    t.starts_with('-')
                        && !t.starts_with("--")
                        && t.contains('n')
                        && name != "export"
                });
                if nameref {
                    for t in args[1..].iter().filter_map(Arg::lit) {
                        if let Some((_, target)) = t.split_once('=') {
                            self.assigned(target, None);
                        }
                    }
                    if self.done() {
                        return;
                    }
                }
                for a in &args[1..] {
                    match a {
                        Arg::Lit(t) => {
                            if let Some((n, v)) = t.split_once('=') {
                                self.assigned(n, Some(v));
                                self.vars.insert(n.to_string(), Some(v.to_string()));
                            }
                        }
                        Arg::Unknown { prefix, .. } => {
                            if let Some((n, _)) = prefix.split_once('=') {
                                self.assigned(n, None);
                                self.vars.insert(n.to_string(), None);
                            }
                        }
                    }
                }
            }
            "unset" | "read" | "printf" | "mapfile" | "readarray" => {
                // `read NAME`, `printf -v NAME`, `mapfile NAME` set NAME
                // to text not known now (`unset` to nothing).
                let words: Vec<&str> = args[1..].iter().filter_map(Arg::lit).collect();
                let mut k = 0;
                while k < words.len() {
                    let t = words[k];
                    k += 1;
                    let target = match (name, t) {
                        ("printf", "-v") | ("read" | "mapfile" | "readarray", "-a") => {
                            k += 1;
                            words.get(k - 1).copied()
                        }
                        ("printf", _) => None,
                        // Options of read and mapfile with a value.
                        (
                            _,
                            "-p" | "-d" | "-t" | "-n" | "-N" | "-u" | "-i" | "-C" | "-c" | "-O"
                            | "-s",
                        ) if !(name == "mapfile" || name == "readarray") || t != "-t" => {
                            k += 1;
                            None
                        }
                        (_, t) if t.starts_with('-') => None,
                        (_, t) => Some(t),
                    };
                    let Some(var) = target else {
                        continue;
                    };
                    if name != "unset" {
                        self.assigned(var, None);
                        if self.done() {
                            return;
                        }
                    }
                    self.vars.insert(var.to_string(), None);
                }
            }
            "awk" | "gawk" | "mawk" if awk_in_place(args) => {
                self.deny(
                    "`awk -i inplace` rewrites the files it reads, which the guard cannot judge; use the agent's edit tool",
                );
            }
            "awk" | "gawk" | "mawk" => {
                // An awk program can run commands and write files.
                let words: Vec<&str> = args[1..].iter().filter_map(Arg::lit).collect();
                for code in awk_programs(&words) {
                    if let Some(why) = awk_effect(&code) {
                        self.deny(why);
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    /// The options that make a reading program write or run something
    /// (the escapes of its catalog row, [`programs::read_only_escapes`]).
    pub(super) fn read_only_escapes(&mut self, name: &str, args: &[Arg]) {
        use programs::Escape;
        if !programs::has_escapes(name) {
            return;
        }
        let Some(lits) = lit_args(args) else {
            // A computed word could be one of them: another program.
            return self.unknown_program(name);
        };
        let words: Vec<String> = std::iter::once(name.to_string()).chain(lits).collect();
        for (escape, value, next) in programs::read_only_escapes(name, &words) {
            if self.done() {
                return;
            }
            let cwd = self.cwd.clone();
            match (escape, value) {
                (Escape::Unseen, _) => self.unknown_program(name),
                (_, None) => {}
                (Escape::Output, Some(v)) => self.file_ops(
                    &format!("`{name}`"),
                    vec![FileOp {
                        word: v,
                        effect: Effect::Overwrite,
                        into_dir: None,
                    }],
                ),
                (Escape::Line, Some(v)) => self.line(&v),
                (Escape::PerFile, Some(v)) => {
                    let each = Arg::Unknown {
                        prefix: String::new(),
                        shown: "(each file it reads)".into(),
                    };
                    self.run(&[Arg::Lit(v), each], &[], Stdin::Inherited);
                }
                (Escape::Exec, Some(_)) => {
                    let inner: Vec<Arg> = words[next..]
                        .iter()
                        .take_while(|w| *w != ";")
                        .map(|t| {
                            if t.contains('{') {
                                Arg::Unknown {
                                    prefix: String::new(),
                                    shown: t.clone(),
                                }
                            } else {
                                Arg::Lit(t.clone())
                            }
                        })
                        .collect();
                    // Each file found is given at the end when no `{}`
                    // says where.
                    let mut inner = inner;
                    if !inner.iter().skip(1).any(|a| a.lit().is_none()) {
                        inner.push(Arg::Unknown {
                            prefix: String::new(),
                            shown: "(each file found)".into(),
                        });
                    }
                    self.run(&inner, &[], Stdin::Inherited);
                }
                (Escape::InPlace, Some(_)) => {
                    let files = words[1..]
                        .iter()
                        .filter(|w| !w.starts_with('-'))
                        .map(|w| FileOp {
                            word: w.clone(),
                            effect: Effect::Edit,
                            into_dir: None,
                        })
                        .collect();
                    self.file_ops(&format!("`{name} -i`"), files);
                }
            }
            self.cwd = cwd;
        }
    }
}
