//! The walk itself: lines, scripts, `&&`/`||` lists, pipelines, compound
//! commands and simple commands, with the shell state they change (`cd`).

use super::*;

impl Judge<'_> {
    /// Parses and judges a whole command line (the top one, or a nested
    /// `bash -c` string).
    pub(super) fn line(&mut self, text: &str) {
        if self.depth > MAX_NESTING {
            self.deny("Shell strings nest too deeply to judge");
            return;
        }
        match parser::parse(text) {
            Ok(parsed) => {
                let outer = std::mem::replace(&mut self.bodies, parsed.bodies);
                self.depth += 1;
                self.script(&parsed.script);
                self.depth -= 1;
                self.bodies = outer;
            }
            Err(e) => self.deny(format!(
                "The guard could not read this command line ({e}); it refuses what it cannot read"
            )),
        }
    }

    pub(super) fn script(&mut self, s: &Script) {
        for item in &s.items {
            if self.done() {
                return;
            }
            self.and_or(item);
        }
    }

    pub(super) fn and_or(&mut self, a: &AndOr) {
        for p in &a.pipelines {
            if self.done() {
                return;
            }
            self.pipeline(p);
        }
    }

    pub(super) fn pipeline(&mut self, p: &Pipeline) {
        let mut previous_output: Option<Stdin> = None;
        for (k, cmd) in p.cmds.iter().enumerate() {
            if self.done() {
                return;
            }
            let stdin = if k == 0 {
                None
            } else {
                previous_output.clone()
            };
            previous_output = Some(self.output_of(cmd));
            self.command(cmd, stdin);
        }
    }

    /// What a pipeline stage prints, when it is known now (`echo TEXT`,
    /// `printf TEXT`, `cat <<'EOF'`).
    pub(super) fn output_of(&mut self, cmd: &Command) -> Stdin {
        let Command::Simple(s) = cmd else {
            return Stdin::Pipe;
        };
        let saved = self.veto.clone();
        let args: Vec<Arg> = s.words.iter().flat_map(|w| self.peek_word(w)).collect();
        self.veto = saved;
        match known_output(&args, self.stdin_of(&s.redirs)) {
            Some(text) => Stdin::Known(text),
            None => Stdin::Pipe,
        }
    }

    pub(super) fn command(&mut self, cmd: &Command, piped: Option<Stdin>) {
        match cmd {
            Command::Simple(s) => self.simple(s, piped),
            Command::Compound(lists, redirs) => {
                let cwd = self.cwd.clone();
                for l in lists {
                    self.script(l);
                }
                if self.cwd != cwd {
                    // A `cd` inside a group or subshell: which directory
                    // later commands run in is no longer certain.
                    self.cwd = None;
                }
                self.redirections(redirs, None);
            }
            Command::For {
                var,
                words,
                body,
                redirs,
            } => {
                let mut values = Vec::new();
                for w in words {
                    values.extend(self.word(w));
                }
                let all_known = values.iter().all(|v| v.lit().is_some()) && values.len() <= 64;
                if all_known && !values.is_empty() {
                    for v in values {
                        self.vars.insert(var.clone(), v.lit().map(String::from));
                        self.script(body);
                    }
                } else {
                    self.vars.insert(var.clone(), None);
                    self.script(body);
                }
                self.redirections(redirs, None);
            }
            Command::Case { word, arms, redirs } => {
                self.word(word);
                for (patterns, body) in arms {
                    for p in patterns {
                        self.word(p);
                    }
                    self.script(body);
                }
                self.redirections(redirs, None);
            }
            Command::Test(words) => {
                for w in words {
                    self.word(w);
                }
            }
            Command::Function(name, body) => {
                // The body is judged as if it ran here, with unknown
                // arguments.
                self.functions.push(name.clone());
                self.command(body, None);
            }
        }
    }

    pub(super) fn stdin_of(&self, redirs: &[Redir]) -> Stdin {
        let mut stdin = Stdin::Inherited;
        for r in redirs {
            if r.fd.unwrap_or(0) != 0 {
                continue;
            }
            match (&r.op, &r.target) {
                (RedirOp::HereString, Target::Body(b)) => {
                    stdin = match body_text(b) {
                        Some(t) => Stdin::Known(t),
                        None => Stdin::Pipe,
                    }
                }
                (RedirOp::HereString, Target::Word(w)) => {
                    stdin = match self.peek_word(w).as_slice() {
                        [Arg::Lit(t)] => Stdin::Known(format!("{t}\n")),
                        _ => Stdin::Pipe,
                    }
                }
                (RedirOp::Read | RedirOp::ReadWrite, _) => stdin = Stdin::File,
                _ => {}
            }
        }
        stdin
    }

    pub(super) fn simple(&mut self, s: &Simple, piped: Option<Stdin>) {
        let mut assigns: Vec<(String, Option<String>)> = Vec::new();
        for (name, value) in &s.assigns {
            let v = self.word(value);
            let v = match v.as_slice() {
                [Arg::Lit(t)] => Some(t.clone()),
                [] => Some(String::new()),
                _ => None,
            };
            self.assigned(name, v.as_deref());
            assigns.push((name.clone(), v));
        }
        let mut args: Vec<Arg> = Vec::new();
        for w in &s.words {
            let a = self.word(w);
            args.extend(a);
        }
        // Here-document bodies with substitutions run them.
        for r in &s.redirs {
            if let Target::Body(b) = &r.target {
                let mut subs = Vec::new();
                if let Err(e) = parser::collect_parts(&b.parts, &self.bodies, &mut subs) {
                    self.deny(format!("The guard could not read a here-document ({e})"));
                }
                for sc in &subs {
                    self.script(sc);
                }
            }
        }
        if self.done() {
            return;
        }
        let mut stdin = self.stdin_of(&s.redirs);
        if stdin == Stdin::Inherited {
            if let Some(p) = piped {
                stdin = p;
            }
        }
        if args.is_empty() {
            // Assignments only: they set shell variables.
            for (n, v) in assigns {
                self.vars.insert(n, v);
            }
            self.redirections(&s.redirs, None);
            return;
        }
        let output = known_output(&args, stdin.clone());
        self.redirections(&s.redirs, output);
        if self.done() {
            return;
        }
        self.run(&args, &assigns, stdin);
    }

    pub(super) fn cd(&mut self, name: &str, args: &[Arg]) {
        let target = args[1..]
            .iter()
            .find(|a| a.lit().is_none_or(|t| !t.starts_with('-') || t == "-"));
        self.cwd = match (name, target, &self.cwd) {
            ("popd", _, _) => None,
            (_, None, _) => self.home.as_ref().map(PathBuf::from),
            (_, Some(Arg::Lit(t)), Some(c)) if t != "-" => {
                let t = if t == "~" || t.starts_with("~/") {
                    match &self.home {
                        Some(h) => format!("{h}{}", &t[1..]),
                        None => t.clone(),
                    }
                } else {
                    t.clone()
                };
                self.ctx.facts.enter_dir(c, &t)
            }
            _ => None,
        };
    }
}
