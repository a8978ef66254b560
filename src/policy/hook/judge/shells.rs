//! Shells and their ways to run text: `sh -c`, scripts on stdin, `eval`,
//! `source`, and Windows shells.

use super::*;

impl Judge<'_> {
    pub(super) fn shell(&mut self, name: &str, args: &[Arg], stdin: Stdin) {
        let mut i = 1;
        let mut command_string = false;
        while i < args.len() {
            let Some(a) = args[i].lit() else {
                self.deny(format!(
                    "`{name}` is given `{}`, computed at run time, so the guard cannot tell what it runs",
                    args[i].shown()
                ));
                return;
            };
            if a == "--" || a == "-" {
                i += 1;
                break;
            }
            if matches!(a, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
                if matches!(a, "--rcfile" | "--init-file") {
                    // A startup file the guard does not read runs first.
                    self.unknown_program(name);
                }
                i += 2;
                continue;
            }
            if a.starts_with('-') || a.starts_with('+') {
                if !a.starts_with("--") && a.contains('c') {
                    command_string = true;
                }
                i += 1;
                continue;
            }
            break;
        }
        if command_string {
            match args.get(i) {
                Some(Arg::Lit(code)) => {
                    let code = code.clone();
                    self.line(&code);
                }
                Some(other) => self.deny(format!(
                    "`{name} -c` is given `{}`, computed at run time, so the guard cannot judge the command",
                    other.shown()
                )),
                None => {}
            }
            return;
        }
        if let Some(script) = args.get(i) {
            // A script whose text the line itself wrote is that text.
            if let Some(text) = script.lit().and_then(|f| self.written_on_line(f)) {
                self.line(&text);
                return;
            }
            if !script.lit().is_some_and(|f| self.stdin_file(f, &stdin)) {
                // `bash script.sh`: a script the guard does not read.
                self.unknown_program(name);
                return;
            }
        }
        self.code_on_stdin(name, None, stdin);
    }

    /// Whether a script operand, given piped or known input, reads that
    /// input: `/dev/stdin` and its spellings, or anything that is not a
    /// regular file now (a symlink planted to `/dev/stdin`, a file the
    /// same line creates, a FIFO) — its code can only be the input.
    pub(super) fn stdin_file(&self, file: &str, stdin: &Stdin) -> bool {
        if !matches!(stdin, Stdin::Known(_) | Stdin::Pipe) {
            return false;
        }
        // After a `cd` the guard cannot follow, a relative name is unknown:
        // taken as the input.
        let cwd = match &self.cwd {
            Some(cwd) => cwd.as_path(),
            None if Path::new(file).is_absolute() => Path::new("/"),
            None => return true,
        };
        let path = paths::absolute(cwd, self.home.as_deref(), file);
        let named = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]
            .iter()
            .any(|s| path == Path::new(s));
        named || !std::fs::metadata(&path).is_ok_and(|m| m.is_file())
    }

    /// The text an earlier command on the line wrote to `word` (`cat >
    /// run.sh <<EOF`, `printf … > run.sh`, appends joined in order), when
    /// the line wrote it with known content and nothing else since.
    pub(super) fn written_on_line(&mut self, word: &str) -> Option<String> {
        let abs = self.absolute(word)?;
        let path = paths::resolve_abs(&abs, true);
        let mut text: Option<Vec<u8>> = None;
        for w in self.known.iter().filter(|w| w.path == path) {
            match (&mut text, w.append) {
                (Some(t), true) => t.extend_from_slice(&w.content),
                _ => text = Some(w.content.clone()),
            }
        }
        // An append to a file that was there: its start is unknown now;
        // judged as what was appended, the rest being the file's own.
        text.map(|t| String::from_utf8_lossy(&t).into_owned())
    }

    /// A shell (`lang` None) or interpreter reading its program on stdin.
    pub(super) fn code_on_stdin(&mut self, name: &str, lang: Option<Lang>, stdin: Stdin) {
        match stdin {
            Stdin::Known(code) => match lang {
                None => self.line(&code),
                Some(l) => self.inline_code(name, l, &code),
            },
            Stdin::Pipe => self.deny(format!(
                "Piping a program into `{name}` runs code the guard cannot see (a download or generated text); save it to a file and show it to the user first"
            )),
            Stdin::File | Stdin::Inherited => self.unknown_program(name),
        }
    }

    pub(super) fn eval(&mut self, name: &str, args: &[Arg]) {
        let words: Vec<&Arg> = if name == "trap" {
            // `trap CMD SIGNAL…`; `trap -l`, `trap -p`, `trap - SIG`.
            match args.get(1).and_then(|a| a.lit()) {
                Some(a) if a.starts_with('-') => return,
                _ if args.len() < 3 => return,
                _ => vec![&args[1]],
            }
        } else {
            args[1..].iter().collect()
        };
        let mut parts = Vec::new();
        for a in words {
            match a.lit() {
                Some(t) => parts.push(t.to_string()),
                None => {
                    self.deny(format!(
                        "`{name}` is given `{}`, computed at run time, so the guard cannot judge the command",
                        a.shown()
                    ));
                    return;
                }
            }
        }
        self.may_write = true;
        self.line(&parts.join(" "));
    }

    /// `pwsh -Command STRING`, `cmd /c STRING`: the guard does not parse
    /// those languages; a statement that starts with a command deleting or
    /// overwriting files is vetoed, one that runs git is judged as git.
    pub(super) fn windows_shell(&mut self, name: &str, args: &[Arg]) {
        let Some(lits) = self.literals(name, args, "what it runs") else {
            return;
        };
        self.may_write = true;
        self.unjudged = true;
        let lower: Vec<String> = lits.iter().map(|a| a.to_ascii_lowercase()).collect();
        let code = if name == "cmd" {
            match lower
                .iter()
                .position(|a| matches!(a.as_str(), "/c" | "/k" | "/r"))
            {
                Some(k) => lits[k + 1..].join(" "),
                None => return self.unknown_program(name),
            }
        } else {
            // PowerShell: parameters are case-insensitive and abbreviable.
            let is = |a: &str, full: &str, min: usize| {
                a.len() > min && full.starts_with(a) && a.starts_with('-')
            };
            let mut k = 0;
            loop {
                let Some(a) = lower.get(k) else {
                    return self.unknown_program(name);
                };
                if is(a, "-encodedcommand", 1) || a == "-ec" {
                    self.deny(format!(
                        "`{name} -EncodedCommand` runs code the guard cannot see"
                    ));
                    return;
                }
                if is(a, "-command", 1) {
                    break lits[k + 1..].join(" ");
                }
                if is(a, "-file", 1) {
                    return self.unknown_program(name);
                }
                if !a.starts_with('-') {
                    break lits[k..].join(" ");
                }
                let takes_value = [
                    "-executionpolicy",
                    "-windowstyle",
                    "-workingdirectory",
                    "-outputformat",
                    "-inputformat",
                    "-version",
                    "-configurationname",
                    "-settingsfile",
                    "-custompipename",
                ]
                .iter()
                .any(|full| is(a, full, 2));
                k += if takes_value { 2 } else { 1 };
            }
        };
        for statement in code.split([';', '|', '&', '\n', '{', '}', '(', ')']) {
            let Some(first) = statement.split_whitespace().next() else {
                continue;
            };
            let word = first
                .trim_matches(|c| matches!(c, '"' | '\'' | '.'))
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            let word = word.strip_suffix(".exe").unwrap_or(&word);
            if programs::WINDOWS_DESTROYS.contains(&word) {
                self.deny(format!(
                    "`{name}` runs `{first}`, which deletes or overwrites files; the guard cannot read that shell's arguments to ask what would be lost"
                ));
                return;
            }
            if word == "git" {
                let rest = statement.trim_start().trim_start_matches(first);
                self.line(&format!("git{rest}"));
                if self.done() {
                    return;
                }
            }
        }
    }
}
