//! Interpreters: inline code (`python -c`, `node -e`), scripts, and awk's
//! programs.

use super::*;

impl Judge<'_> {
    pub(super) fn interpreter(&mut self, name: &str, lang: Lang, args: &[Arg], stdin: Stdin) {
        self.may_write = true;
        self.unjudged = true;
        // Words computed at run time after the code (`xargs python3 -c
        // CODE`, `find -exec node -e CODE {} +`) are only the code's own
        // arguments: the code is read like the direct call's.
        let lits = lit_args(args).or_else(|| trailing_unknowns(lang, args));
        let Some(lits) = lits else {
            // A computed script name is still just a script; computed code
            // is not visible.
            let code_opt = args[1..]
                .windows(2)
                .any(|w| w[0].lit().is_some_and(|o| code_option(lang, o)) && w[1].lit().is_none())
                || args[1..]
                    .iter()
                    .any(|a| matches!(a, Arg::Unknown { prefix, .. } if code_option(lang, prefix)));
            if code_opt {
                self.deny(format!(
                    "`{name}` is given code computed at run time, so the guard cannot see what it does"
                ));
            } else {
                self.unknown_program(name);
            }
            return;
        };
        let mut codes: Vec<String> = Vec::new();
        let mut in_place: Option<String> = None;
        let mut operands: Vec<String> = Vec::new();
        let mut i = 0;
        let mut module = false;
        while i < lits.len() {
            let a = lits[i].as_str();
            i += 1;
            if !operands.is_empty() || !a.starts_with('-') || a == "-" {
                operands.push(a.to_string());
                // Python stops reading its own options at the script.
                if lang == Lang::Python && codes.is_empty() {
                    operands.extend(lits[i..].iter().cloned());
                    break;
                }
                continue;
            }
            if a == "--" {
                operands.extend(lits[i..].iter().cloned());
                break;
            }
            match (lang, a) {
                (Lang::Python, "-c") => {
                    codes.extend(lits.get(i).cloned());
                    break;
                }
                (Lang::Python, "-m") => {
                    module = true;
                    break;
                }
                (Lang::Python, "-W" | "-X" | "-Q") => i += 1,
                // Clusters, as Python's own option parser reads them:
                // `-Ic CODE`, `-vc CODE`, `-Bc'CODE'`, `-um mod`, `-Wd`.
                (Lang::Python, _) if !a.starts_with("--") => {
                    let letters: Vec<char> = a[1..].chars().collect();
                    let mut stop = false;
                    for (k, c) in letters.iter().enumerate() {
                        let rest: String = letters[k + 1..].iter().collect();
                        match c {
                            'c' => {
                                if rest.is_empty() {
                                    codes.extend(lits.get(i).cloned());
                                } else {
                                    codes.push(rest);
                                }
                                stop = true;
                                break;
                            }
                            'm' => {
                                module = true;
                                stop = true;
                                break;
                            }
                            'W' | 'X' | 'Q' => {
                                if rest.is_empty() {
                                    i += 1;
                                }
                                break;
                            }
                            _ => {}
                        }
                    }
                    if stop {
                        break;
                    }
                }
                // `-pe CODE`, `-ep CODE`: node reads a cluster of its
                // one-letter flags, the code after it.
                (Lang::Node, _)
                    if !a.starts_with("--")
                        && a.len() > 2
                        && a[1..].chars().all(|c| "pecivh".contains(c))
                        && a[1..].contains(['e', 'p']) =>
                {
                    codes.extend(lits.get(i).cloned());
                    i += 1;
                }
                (Lang::Node, "-e" | "--eval" | "-p" | "--print") => {
                    codes.extend(lits.get(i).cloned());
                    i += 1;
                }
                (Lang::Node, "-r" | "--require" | "--import" | "--loader") => i += 1,
                (Lang::Php, "-r") => {
                    codes.extend(lits.get(i).cloned());
                    i += 1;
                }
                (Lang::Perl | Lang::Ruby, _) if !a.starts_with("--") => {
                    // Clusters: `-pi.bak`, `-pie 'code'`, `-ne`, `-Mmod`.
                    let letters: Vec<char> = a[1..].chars().collect();
                    let mut k = 0;
                    while k < letters.len() {
                        let c = letters[k];
                        k += 1;
                        let rest: String = letters[k..].iter().collect();
                        match c {
                            'i' => {
                                in_place = Some(rest.clone());
                                break;
                            }
                            'e' | 'E' => {
                                if rest.is_empty() {
                                    codes.extend(lits.get(i).cloned());
                                    i += 1;
                                } else {
                                    codes.push(rest.clone());
                                }
                                break;
                            }
                            'I' | 'M' | 'm' | 'x' | 'r' | 'C' | '0' | 'l' | 'd' | 'D' => {
                                if rest.is_empty() && matches!(c, 'I' | 'M' | 'm' | 'r') {
                                    i += 1;
                                }
                                break;
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if module {
            return self.unknown_program(name);
        }
        if lang == Lang::Node && args.get(1).and_then(|a| a.lit()) == Some("eval") {
            codes.extend(lits.get(1).cloned());
        }
        if codes.is_empty() && in_place.is_none() {
            // A script whose text the line itself wrote is that code.
            if let Some(text) = operands
                .first()
                .cloned()
                .and_then(|o| self.written_on_line(&o))
            {
                return self.inline_code(name, lang, &text);
            }
        }
        if codes.is_empty() {
            let script = operands
                .first()
                .filter(|o| *o != "-" && !self.stdin_file(o, &stdin));
            if script.is_none() {
                return self.code_on_stdin(name, Some(lang), stdin);
            }
            if in_place.is_none() {
                return self.unknown_program(name);
            }
        }
        for code in &codes {
            self.inline_code(name, lang, code);
            if self.done() {
                return;
            }
        }
        if let Some(ext) = in_place {
            // `perl -pi -e … FILES`: FILES are rewritten in place.
            let effect = if ext.is_empty() {
                Effect::Edit
            } else {
                Effect::Append
            };
            let files: Vec<FileOp> = operands
                .iter()
                .filter(|o| *o != "-")
                .map(|o| FileOp {
                    word: o.clone(),
                    effect,
                    into_dir: None,
                })
                .collect();
            self.file_ops(&format!("`{name} -i`"), files);
        }
    }

    /// Where inline code's write lands, resolved, unless that place is
    /// refused (then vetoed, saying the code `what`) or cannot be known.
    pub(super) fn inline_target(
        &mut self,
        name: &str,
        path: &str,
        effect: Effect,
        what: &str,
    ) -> Option<PathBuf> {
        let abs = self.absolute(path)?;
        let p = paths::resolve_abs(&abs, true);
        if let Some(why) = self.refused_place(&p, effect) {
            self.deny(format!("Inline `{name}` code {what}: {why}"));
            return None;
        }
        Some(p)
    }

    /// A `NAME=VALUE` a wrapper (`env`, `sudo`) sets for the program it
    /// runs: judged as set there and kept for it. Whether that decided.
    pub(super) fn wrapper_assignment(
        &mut self,
        name: &str,
        value: &str,
        assigns: &mut Vec<(String, Option<String>)>,
    ) -> bool {
        self.assigned(name, Some(value));
        assigns.push((name.to_string(), Some(value.to_string())));
        self.done()
    }

    pub(super) fn inline_code(&mut self, name: &str, lang: Lang, code: &str) {
        self.may_write = true;
        self.unjudged = true;
        for f in inline::scan(lang, code) {
            if self.done() {
                return;
            }
            match f {
                Finding::Destroys(api, what) => self.deny(format!(
                    "Inline `{name}` code {what} (`{}`); the guard cannot tell what it would lose — use `git rm` or ask the user",
                    api.trim_end_matches('(')
                )),
                Finding::Appends(api, None) => self.deny(format!(
                    "Inline `{name}` code appends to a file whose name is computed (`{}`); the guard cannot tell where it writes",
                    api.trim_end_matches('(')
                )),
                Finding::Appends(api, Some(path)) => {
                    let what = format!("appends to `{path}` (`{}`)", api.trim_end_matches('('));
                    if self.inline_target(name, &path, Effect::Append, &what).is_none() {
                        return;
                    }
                }
                Finding::Writes(api, None) => self.deny(format!(
                    "Inline `{name}` code writes a file whose name is computed (`{}`); write it with the agent's edit tool instead",
                    api.trim_end_matches('(')
                )),
                Finding::Writes(api, Some(path)) => {
                    let what = format!("writes `{path}`");
                    let Some(p) = self.inline_target(name, &path, Effect::Overwrite, &what) else {
                        return;
                    };
                    if self.must_ask(&p) {
                        match self.ctx.loss.loss(std::slice::from_ref(&p)) {
                            Ok(l) if l.modified.is_empty() && l.untracked.is_empty() && l.tracked.is_empty() && l.precious.is_empty() => {}
                            Ok(_) => self.deny(format!(
                                "Inline `{name}` code overwrites `{path}` (`{}`), a file of the repository; use the agent's edit tool so the change can be judged and undone",
                                api.trim_end_matches('(')
                            )),
                            Err(e) => self.deny(format!("Inline `{name}` code writes `{path}` and the repository could not be asked ({e})")),
                        }
                    }
                }
                Finding::Dynamic(construct) => self.deny(format!(
                    "Inline `{name}` code reaches a function, module or code by a name computed at run time (`{}`); the guard cannot tell whether it deletes files or runs commands",
                    construct.trim_end_matches('(')
                )),
                Finding::Runs(cmd) if cmd.trim().is_empty() => self.deny(format!(
                    "Inline `{name}` code runs a shell command built at run time, which the guard cannot judge"
                )),
                Finding::Runs(cmd) => {
                    // A literal that is not a command line is no command.
                    if parser::parse(&cmd).is_ok() {
                        self.line(&cmd);
                    }
                }
            }
        }
    }
}

/// The literal words of an interpreter call whose only computed words
/// come after its inline code (the code's `argv`), when that is so: the
/// options and the code are then known. A computed word before the code
/// could be an option that changes what runs, so `None`.
fn trailing_unknowns(lang: Lang, args: &[Arg]) -> Option<Vec<String>> {
    let known: Vec<String> = args[1..]
        .iter()
        .map_while(|a| a.lit().map(String::from))
        .collect();
    let code_at = known.iter().position(|w| code_option(lang, w))?;
    // The code is the option's attached rest or the next word, which must
    // be known too.
    let attached = {
        let w = &known[code_at];
        !w.starts_with("--") && w.len() > 2 && !w.ends_with(['c', 'e', 'E', 'p', 'r'])
    };
    (attached || code_at + 1 < known.len()).then_some(known)
}

/// Whether `word` is an option of `lang` whose value (attached or next)
/// is inline code.
fn code_option(lang: Lang, word: &str) -> bool {
    if !word.starts_with('-') || word == "-" || word == "--" {
        return false;
    }
    match lang {
        Lang::Python => {
            !word.starts_with("--")
                && word[1..]
                    .split_once('c')
                    .is_some_and(|(before, _)| before.chars().all(|c| c.is_ascii_alphabetic()))
        }
        Lang::Node => {
            matches!(word, "--eval" | "--print")
                || (!word.starts_with("--")
                    && word[1..].chars().all(|c| "pecivh".contains(c))
                    && word[1..].contains(['e', 'p']))
        }
        Lang::Php => word == "-r",
        Lang::Perl | Lang::Ruby => {
            !word.starts_with("--")
                && word[1..]
                    .chars()
                    .take_while(|c| *c != 'i')
                    .any(|c| c == 'e' || c == 'E')
        }
    }
}

/// Quotes a word for a command line rebuilt from known words.
/// Whether gawk is asked to load its in-place extension (`-i inplace`,
/// `-iinplace`, `--include=inplace`, `--include inplace`).
/// awk's options that take the next word as their value (POSIX, gawk,
/// mawk's `-W`).
pub(super) const AWK_WITH_VALUE: &[&str] = &[
    "-F",
    "-v",
    "-f",
    "-E",
    "-i",
    "-l",
    "-W",
    "-e",
    "--field-separator",
    "--assign",
    "--file",
    "--exec",
    "--include",
    "--load",
    "--source",
];

/// The inline program texts of an awk command line: the first operand
/// (unless `-f`/`-E` name a file) and every `-e`/`--source` value.
pub(super) fn awk_programs(words: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut from_file = false;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        if w == "--" {
            break;
        }
        if !w.starts_with('-') || w == "-" {
            i -= 1;
            break;
        }
        let (opt, value) = match w.split_once('=').filter(|_| w.starts_with("--")) {
            Some((o, v)) => (o, Some(v.to_string())),
            None if AWK_WITH_VALUE.contains(&w) => {
                i += 1;
                (w, words.get(i - 1).map(|v| v.to_string()))
            }
            // A short option with its value attached: `-F:`, `-fprog`.
            None if w.len() > 2 && !w.starts_with("--") => (&w[..2], Some(w[2..].to_string())),
            None => (w, None),
        };
        match opt {
            "-f" | "--file" | "-E" | "--exec" => from_file = true,
            "-e" | "--source" => out.extend(value),
            _ => {}
        }
    }
    if !from_file {
        out.extend(words.get(i).map(|c| c.to_string()));
    }
    out
}

/// Calls in an awk program that run a shell command.
pub(super) const AWK_RUNS: &[&str] = &["system(", "| \"", "|\"", "|getline", "| getline", "|&"];

/// Why an awk program is refused: it runs commands, or a `print` or
/// `printf` sends its output to a file (`print $1 > 5` writes the file
/// `5`).
pub(super) fn awk_effect(code: &str) -> Option<&'static str> {
    if AWK_RUNS.iter().any(|n| code.contains(n)) {
        return Some("The awk program runs shell commands (`system` or a pipe), which the guard cannot judge");
    }
    for statement in code.split([';', '{', '}', '\n']) {
        let t = statement.trim_start();
        if (t.starts_with("print") || t.starts_with("printf")) && t.contains('>') {
            let target = t.rsplit('>').next().unwrap_or("").trim();
            if !matches!(target, "\"/dev/stderr\"" | "\"/dev/stdout\"") {
                return Some("The awk program writes files, which the guard cannot judge; use a redirection instead");
            }
        }
    }
    None
}

pub(super) fn awk_in_place(args: &[Arg]) -> bool {
    let words: Vec<&str> = args[1..].iter().filter_map(Arg::lit).collect();
    words.iter().enumerate().any(|(k, w)| {
        let next = words.get(k + 1).copied().unwrap_or("");
        let lib = match *w {
            "-i" | "--include" => next,
            w => w
                .strip_prefix("--include=")
                .or_else(|| w.strip_prefix("-i"))
                .unwrap_or(""),
        };
        // gawk finds the library by name or by path (`-i /usr/share/awk/inplace.awk`).
        let lib = lib.rsplit('/').next().unwrap_or(lib);
        lib.trim_end_matches(".awk") == "inplace"
    })
}
