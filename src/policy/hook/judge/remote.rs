//! Programs that contact a remote: ssh-likes, fetchers and listeners.

use super::*;

impl Judge<'_> {
    pub(super) fn remote(&mut self, name: &str, args: &[Arg]) {
        let Some(lits) = self.literals(name, args, "what it runs") else {
            return;
        };
        self.may_write = true;
        match name {
            "ssh" | "scp" | "sftp" => {
                let Some(&(_, with_value, runs_here, has_command)) =
                    programs::SSH_CLIENTS.iter().find(|(n, ..)| *n == name)
                else {
                    return;
                };
                let mut i = 0;
                // Options (bundled: `-vo VALUE`, `-oVALUE`), then the
                // host, then the command.
                let mut values: Vec<(char, String)> = Vec::new();
                while i < lits.len() {
                    let a = &lits[i];
                    if a.starts_with('-') && a.len() > 1 {
                        i += 1;
                        if a == "--" {
                            continue;
                        }
                        for (at, c) in a.char_indices().skip(1) {
                            if with_value.contains(c) {
                                let rest = &a[at + c.len_utf8()..];
                                let value = if rest.is_empty() {
                                    i += 1;
                                    lits.get(i - 1).cloned().unwrap_or_default()
                                } else {
                                    rest.to_string()
                                };
                                values.push((c, value));
                                break;
                            }
                        }
                        continue;
                    }
                    i += 1;
                    break;
                }
                // What ssh runs here, not on the host: a ProxyCommand,
                // LocalCommand or KnownHostsCommand is a local shell line,
                // and a config file (`-F`) may hold any of them.
                for (flag, value) in &values {
                    if runs_here.contains(*flag) {
                        let cwd = self.cwd.clone();
                        self.line(value);
                        self.cwd = cwd;
                        if self.done() {
                            return;
                        }
                        continue;
                    }
                    if *flag == 'F' && !matches!(value.as_str(), "/dev/null" | "none") {
                        self.deny(format!(
                            "`{name} -F {value}` reads a configuration file, whose ProxyCommand or LocalCommand would run here unjudged"
                        ));
                        return;
                    }
                    if *flag != 'o' {
                        continue;
                    }
                    let (key, local) = value
                        .trim_start()
                        .split_once(|c: char| c == '=' || c.is_whitespace())
                        .unwrap_or((value.as_str(), ""));
                    let key = key.to_ascii_lowercase();
                    let local = local.trim_start_matches(|c: char| c == '=' || c.is_whitespace());
                    if matches!(
                        key.as_str(),
                        "proxycommand" | "localcommand" | "knownhostscommand"
                    ) && local != "none"
                    {
                        let cwd = self.cwd.clone();
                        self.line(local);
                        self.cwd = cwd;
                        if self.done() {
                            return;
                        }
                    }
                }
                if has_command && i < lits.len() {
                    let host = lits[i - 1].clone();
                    let line = lits[i..].join(" ");
                    let outer = self.elsewhere.replace(host);
                    let cwd = self.cwd.clone();
                    self.line(&line);
                    self.elsewhere = outer;
                    self.cwd = cwd;
                }
            }
            "watch" => {
                let mut i = 0;
                let mut exec = false;
                while i < lits.len() && lits[i].starts_with('-') {
                    match lits[i].as_str() {
                        "-n" | "--interval" | "-q" | "--equexit" => i += 2,
                        "-x" | "--exec" => {
                            exec = true;
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
                if i < lits.len() {
                    if exec {
                        let inner: Vec<Arg> = lits[i..].iter().cloned().map(Arg::Lit).collect();
                        self.run(&inner, &[], Stdin::Inherited);
                    } else {
                        let line = lits[i..].join(" ");
                        self.line(&line);
                    }
                }
            }
            _ => {
                // su [-] [USER] [-c CMD]
                let mut i = 0;
                while i < lits.len() {
                    if lits[i] == "-c" || lits[i] == "--command" {
                        if let Some(c) = lits.get(i + 1) {
                            let c = c.clone();
                            self.line(&c);
                        }
                        return;
                    }
                    if let Some(c) = lits[i].strip_prefix("--command=") {
                        let c = c.to_string();
                        self.line(&c);
                        return;
                    }
                    i += 1;
                }
            }
        }
    }

    pub(super) fn fetcher(&mut self, name: &str, args: &[Arg]) {
        self.may_write = true;
        let outputs: &[&str] = match name {
            "curl" => &["-o", "--output"],
            "wget" => &["-O", "--output-document"],
            _ => &[],
        };
        let mut ops = Vec::new();
        let mut i = 1;
        while i < args.len() {
            let a = args[i].lit().unwrap_or("");
            for o in outputs {
                if a == *o {
                    if let Some(v) = args.get(i + 1) {
                        match v.lit() {
                            Some(v) if v != "-" => ops.push(v.to_string()),
                            Some(_) => {}
                            None => {
                                self.deny(format!(
                                    "`{name}` writes to a file name computed at run time"
                                ));
                                return;
                            }
                        }
                    }
                } else if let Some(v) = a.strip_prefix(&format!("{o}=")) {
                    ops.push(v.to_string());
                }
            }
            i += 1;
        }
        if !ops.is_empty() {
            self.file_ops(
                &format!("`{name}`"),
                ops.into_iter()
                    .map(|w| FileOp {
                        word: w,
                        effect: Effect::Overwrite,
                        into_dir: None,
                    })
                    .collect(),
            );
        }
    }

    pub(super) fn listener(&mut self, name: &str, args: &[Arg]) {
        self.may_write = true;
        for a in &args[1..] {
            let t = a.shown();
            let lower = t.to_ascii_lowercase();
            let shell_out = match name {
                "socat" => lower.contains("exec:") || lower.contains("system:"),
                _ => {
                    matches!(t, "--exec" | "--sh-exec" | "--lua-exec" | "-e" | "-c")
                        || t.starts_with("--exec=")
                        || t.starts_with("--sh-exec=")
                        || (t.starts_with('-')
                            && !t.starts_with("--")
                            && (t.contains('e') || t.contains('c')))
                }
            };
            if shell_out {
                self.deny(format!(
                    "`{name}` with `{t}` hands a program (a shell) to the network"
                ));
                return;
            }
        }
    }
}
