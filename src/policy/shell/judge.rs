//! The walk over a parsed command line: every command that would run is
//! judged, in order, with the shell state that matters (the directory
//! after `cd`, variables set on the line, aliases and functions). The
//! first veto wins; `may_write` records whether anything could write.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::files::{self, Effect, FileOp};
use super::inline::{self, Finding};
use super::parallel;
use super::paths;
use super::programs::{self, Kind, Lang, Wrapper};
use super::{HookContext, KnownWrite, RemotePosture, UnknownPrograms};
use crate::policy::{self, Actor, Risk};
use crate::shell::lexer::{HereBody, Part, RedirOp, Word};
use crate::shell::parser::{self, AndOr, Command, Pipeline, Redir, Script, Simple, Target};

/// Longest command line judged; longer is vetoed.
pub const MAX_LINE: usize = 1 << 20;

/// Deepest nesting of `bash -c`, `eval`, `ssh`… judged.
const MAX_NESTING: usize = 12;
/// How many programs may wrap each other (`sudo nice timeout 5 env … git`):
/// far beyond what anyone writes.
const MAX_WRAPPED: usize = 64;

/// Judges one line: the veto reason (if any), whether it may write, the
/// writes of known content.
pub fn judge_line(command: &str, ctx: &HookContext<'_>) -> (Option<String>, bool, Vec<KnownWrite>) {
    if command.len() > MAX_LINE {
        return (
            Some(format!(
                "The command is {} bytes long; the guard judges lines up to {MAX_LINE} bytes",
                command.len()
            )),
            true,
            Vec::new(),
        );
    }
    let mut j = Judge {
        ctx,
        home: ctx.facts.home(),
        cwd: Some(ctx.cwd.to_path_buf()),
        vars: HashMap::new(),
        aliases: HashMap::new(),
        functions: Vec::new(),
        veto: None,
        may_write: false,
        known: Vec::new(),
        depth: 0,
        running: 0,
        bodies: Vec::new(),
        elsewhere: None,
    };
    j.line(command);
    (j.veto, j.may_write, j.known)
}

/// A word after expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    /// Known text.
    Lit(String),
    /// Computed at run time: the literal text before the first unknown
    /// part, and a rendering.
    Unknown { prefix: String, shown: String },
}

impl Arg {
    fn lit(&self) -> Option<&str> {
        match self {
            Arg::Lit(s) => Some(s),
            Arg::Unknown { .. } => None,
        }
    }

    fn shown(&self) -> &str {
        match self {
            Arg::Lit(s) => s,
            Arg::Unknown { shown, .. } => shown,
        }
    }
}

/// What a command reads on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stdin {
    /// Nothing redirected (the agent's terminal, or nothing).
    Inherited,
    /// Text known now (a quoted here-document, a literal here-string,
    /// `echo` piped in).
    Known(String),
    /// A file.
    File,
    /// Output of another command, unknown now.
    Pipe,
}

struct Judge<'a> {
    ctx: &'a HookContext<'a>,
    home: Option<String>,
    cwd: Option<PathBuf>,
    vars: HashMap<String, Option<String>>,
    aliases: HashMap<String, String>,
    functions: Vec<String>,
    veto: Option<String>,
    may_write: bool,
    known: Vec<KnownWrite>,
    depth: usize,
    /// Programs being judged around the current one (`nice sudo git`):
    /// wrappers recurse, so their nesting is bounded.
    running: usize,
    bodies: Vec<HereBody>,
    /// The host of an `ssh HOST CMD` being judged: its files are not the
    /// ones the repository here can be asked about.
    elsewhere: Option<String>,
}

impl Judge<'_> {
    fn deny(&mut self, why: impl Into<String>) {
        if self.veto.is_none() {
            self.veto = Some(why.into());
        }
    }

    fn done(&self) -> bool {
        self.veto.is_some()
    }

    /// Parses and judges a whole command line (the top one, or a nested
    /// `bash -c` string).
    fn line(&mut self, text: &str) {
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

    fn script(&mut self, s: &Script) {
        for item in &s.items {
            if self.done() {
                return;
            }
            self.and_or(item);
        }
    }

    fn and_or(&mut self, a: &AndOr) {
        for p in &a.pipelines {
            if self.done() {
                return;
            }
            self.pipeline(p);
        }
    }

    fn pipeline(&mut self, p: &Pipeline) {
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
    fn output_of(&mut self, cmd: &Command) -> Stdin {
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

    fn command(&mut self, cmd: &Command, piped: Option<Stdin>) {
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

    /// Expands a word, judging its substitutions (which run).
    fn word(&mut self, w: &Word) -> Vec<Arg> {
        // `${NAME:=WORD}` and `${NAME=WORD}` assign NAME.
        for p in &w.parts {
            if let Part::Param { name, .. } = p {
                if let Some((n, _)) = name.split_once(":=").or_else(|| name.split_once('=')) {
                    self.assigned(n, None);
                }
            }
        }
        let mut subs = Vec::new();
        if let Err(e) = parser::collect_parts(&w.parts, &self.bodies, &mut subs) {
            self.deny(format!(
                "The guard could not read a command substitution ({e}); it refuses what it cannot read"
            ));
            return Vec::new();
        }
        for s in &subs {
            // A substitution runs in a subshell: its `cd` stays inside.
            let cwd = self.cwd.clone();
            self.script(s);
            self.cwd = cwd;
        }
        self.peek_word(w)
    }

    /// Expands a word without judging (for what a stage prints): known
    /// parameters, `~`, brace expansion, then globs from the cwd.
    fn peek_word(&self, w: &Word) -> Vec<Arg> {
        // `pattern` keeps quoted characters escaped with `\`, so brace
        // expansion and globbing see only what the shell would expand.
        let mut pattern = String::new();
        let mut special = false;
        let mut unknown = false;
        let mut prefix = String::new();
        let escape = |t: &str, out: &mut String| {
            for c in t.chars() {
                if matches!(c, '*' | '?' | '[' | ']' | '\\' | '{' | '}' | ',') {
                    out.push('\\');
                }
                out.push(c);
            }
        };
        for (k, p) in w.parts.iter().enumerate() {
            match p {
                Part::Lit { text: t, quoted } => {
                    let mut t = t.clone();
                    if k == 0 && !quoted && (t == "~" || t.starts_with("~/")) {
                        if let Some(h) = &self.home {
                            t = format!("{h}{}", &t[1..]);
                            escape(h, &mut pattern);
                            t = t[h.len()..].to_string();
                        }
                    }
                    if *quoted {
                        escape(&t, &mut pattern);
                    } else {
                        special |= t.contains(['*', '?', '[', '{']);
                        pattern.push_str(&t);
                    }
                }
                Part::Param { name, quoted } => match self.param(name) {
                    // Unquoted, a value is split on IFS: with IFS changed,
                    // or a value with blanks, the words are not known.
                    Some(v)
                        if !quoted
                            && (self.vars.contains_key("IFS")
                                || v.contains(char::is_whitespace)
                                || v.is_empty()) =>
                    {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                    Some(v) if *quoted => escape(&v, &mut pattern),
                    Some(v) => {
                        // An unquoted value is globbed, never brace-expanded.
                        for c in v.chars() {
                            if matches!(c, '\\' | '{' | '}' | ',') {
                                pattern.push('\\');
                            }
                            pattern.push(c);
                        }
                        special |= v.contains(['*', '?', '[']);
                    }
                    None => {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                },
                Part::Subst { quoted, .. } => match self.echoed(p) {
                    // `$(echo WORDS)` prints what it is given: known text.
                    Some(v) if *quoted => escape(&v, &mut pattern),
                    Some(v)
                        if !v.is_empty()
                            && !v.contains(char::is_whitespace)
                            && !v.contains(['*', '?', '[']) =>
                    {
                        escape(&v, &mut pattern)
                    }
                    _ => {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                },
                _ => {
                    if !unknown {
                        prefix = crate::text::glob::unescape(&pattern);
                    }
                    unknown = true;
                }
            }
        }
        if unknown {
            return vec![Arg::Unknown {
                prefix,
                shown: w.display(),
            }];
        }
        if !special {
            return vec![Arg::Lit(crate::text::glob::unescape(&pattern))];
        }
        let Some(candidates) = brace_expand(&pattern, 0) else {
            return vec![Arg::Unknown {
                prefix: String::new(),
                shown: w.display(),
            }];
        };
        let mut out = Vec::new();
        for c in candidates {
            if crate::text::glob::has_glob(&c) {
                let Some(cwd) = &self.cwd else {
                    return vec![Arg::Unknown {
                        prefix: String::new(),
                        shown: w.display(),
                    }];
                };
                let found = self.ctx.facts.expand_glob(cwd, &c);
                if found.is_empty() {
                    out.push(Arg::Lit(crate::text::glob::unescape(&c)));
                } else {
                    out.extend(found.into_iter().map(Arg::Lit));
                }
            } else {
                out.push(Arg::Lit(crate::text::glob::unescape(&c)));
            }
        }
        out
    }

    /// What a command substitution prints when it is a plain `echo` of
    /// literal words (no options, escapes, globs or redirections): the
    /// words joined by spaces. `$(echo rm) -rf src` is then judged as the
    /// `rm` it runs, and `$(echo hello)` as the program `hello`.
    fn echoed(&self, part: &Part) -> Option<String> {
        let mut subs = Vec::new();
        parser::collect_parts(std::slice::from_ref(part), &self.bodies, &mut subs).ok()?;
        let [script] = subs.as_slice() else {
            return None;
        };
        let [item] = script.items.as_slice() else {
            return None;
        };
        let [pipeline] = item.pipelines.as_slice() else {
            return None;
        };
        let [Command::Simple(simple)] = pipeline.cmds.as_slice() else {
            return None;
        };
        if !simple.assigns.is_empty() || !simple.redirs.is_empty() {
            return None;
        }
        // Literal words only: no nested substitution (no recursion) and no
        // parameter whose value the guard would have to trust.
        if !simple
            .words
            .iter()
            .all(|w| w.parts.iter().all(|p| matches!(p, Part::Lit { .. })))
        {
            return None;
        }
        let mut words = Vec::new();
        for w in &simple.words {
            let v = self.peek_word(w);
            let [Arg::Lit(t)] = v.as_slice() else {
                return None;
            };
            words.push(t.clone());
        }
        let (program, rest) = words.split_first()?;
        if program != "echo" || rest.iter().any(|t| t.starts_with('-') || t.contains('\\')) {
            return None;
        }
        Some(rest.join(" "))
    }

    /// The value of `$name` when it is known on this line.
    fn param(&self, name: &str) -> Option<String> {
        // `${NAME:-WORD}`, `${NAME-WORD}` with a plain WORD.
        for sep in [":-", "-"] {
            if let Some((n, word)) = name.split_once(sep) {
                let plain = |c: char| c.is_ascii_alphanumeric() || "/._-~+@%,".contains(c);
                if !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    || !word.chars().all(plain)
                {
                    return None;
                }
                return match (self.param(n), sep) {
                    (Some(v), ":-") if !v.is_empty() => Some(v),
                    (Some(_), ":-") => Some(word.to_string()),
                    (Some(v), _) => Some(v),
                    (None, _) => None,
                };
            }
        }
        match name {
            "HOME" => self.home.clone(),
            "PWD" => self.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
            _ if self.vars.contains_key(name) => self.vars.get(name).cloned().flatten(),
            // The agent's shell has the environment the hook was started
            // with; unset, `$TMPDIR/x` is `/x`.
            "TMPDIR" => Some(std::env::var("TMPDIR").unwrap_or_default()),
            _ => None,
        }
    }

    fn stdin_of(&self, redirs: &[Redir]) -> Stdin {
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

    fn simple(&mut self, s: &Simple, piped: Option<Stdin>) {
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

    /// Judges the redirections that write files. `output` is what the
    /// command prints, when known (a write of known content).
    fn redirections(&mut self, redirs: &[Redir], output: Option<String>) {
        for r in redirs {
            let Target::Word(w) = &r.target else {
                continue;
            };
            let args = self.word(w);
            let append = match r.op {
                RedirOp::Write | RedirOp::Clobber | RedirOp::WriteAll => false,
                RedirOp::Append | RedirOp::AppendAll => true,
                RedirOp::ReadWrite => {
                    self.may_write = true;
                    continue;
                }
                _ => continue,
            };
            self.may_write = true;
            let target = match args.as_slice() {
                [Arg::Lit(t)] => t.clone(),
                _ => {
                    self.deny(format!(
                        "The redirection target `{}` is computed at run time, so the guard cannot tell which file would be overwritten",
                        w.display()
                    ));
                    return;
                }
            };
            if is_device(&target) {
                continue;
            }
            // stdout carries the known output; `2>` writes what the
            // command prints on stderr, which is never known.
            let content = if r.fd.unwrap_or(1) == 1 && r.op != RedirOp::WriteAll {
                output.clone()
            } else {
                None
            };
            match content {
                Some(text) => self.known_write(&target, text.into_bytes(), append),
                None => self.file_ops(
                    "a `>` redirection",
                    vec![FileOp {
                        word: target,
                        effect: if append {
                            Effect::Append
                        } else {
                            Effect::Overwrite
                        },
                        into_dir: None,
                    }],
                ),
            }
            if self.done() {
                return;
            }
        }
    }

    fn known_write(&mut self, word: &str, content: Vec<u8>, append: bool) {
        if let Some(host) = &self.elsewhere {
            // Not a file here: nothing for the kill-switch to judge.
            if !append {
                self.deny(format!(
                    "Writing `{word}` on `{host}` is refused: the guard cannot ask that machine what would be lost"
                ));
            }
            return;
        }
        let Some(abs) = self.absolute(word) else {
            return;
        };
        let path = paths::resolve_abs(&abs, true);
        if let Some(why) = self.refused_place(&path, Effect::Overwrite) {
            self.deny(format!("Writing `{word}` is refused: {why}"));
            return;
        }
        self.may_write = true;
        self.known.push(KnownWrite {
            path,
            content,
            append,
        });
    }

    fn absolute(&mut self, word: &str) -> Option<PathBuf> {
        if Path::new(word).is_absolute() || word.starts_with('~') {
            let cwd = self.cwd.clone().unwrap_or_else(|| PathBuf::from("/"));
            return Some(paths::absolute(&cwd, self.home.as_deref(), word));
        }
        match &self.cwd {
            Some(cwd) => Some(paths::absolute(cwd, self.home.as_deref(), word)),
            None => {
                self.deny(format!(
                    "After a `cd` the guard cannot follow, it cannot tell which file `{word}` is"
                ));
                None
            }
        }
    }

    /// Whether `path` (resolved) is inside the working tree (outside any
    /// repository: below the agent's directory).
    fn inside(&self, path: &Path) -> bool {
        match self.ctx.loss.worktree() {
            Some(top) => path.starts_with(&top),
            None => self
                .ctx
                .cwd
                .canonicalize()
                .is_ok_and(|c| path.starts_with(c)),
        }
    }

    /// The symlink in the working tree through which `abs` leaves it
    /// ([`paths::escaping_link`]).
    fn escaping_link(&self, abs: &Path, follow: bool) -> Option<PathBuf> {
        let top = self.ctx.loss.worktree()?;
        paths::escaping_link(&top, abs, follow)
    }

    /// Whether the repository must be asked about `path`: it exists and is
    /// not expendable (in a temp folder outside the working tree).
    fn must_ask(&self, path: &Path) -> bool {
        path.symlink_metadata().is_ok() && (self.inside(path) || !paths::in_temp(path))
    }

    /// Why `path` may not be changed at all: protected, or outside the
    /// working tree and the temporary folders.
    fn refused_place(&self, path: &Path, effect: Effect) -> Option<String> {
        if let Some(host) = &self.elsewhere {
            if !matches!(effect, Effect::Append | Effect::Touch) {
                return Some(format!(
                    "it would run on `{host}`, whose files the guard cannot ask what would be lost"
                ));
            }
            return None;
        }
        // A recursive delete or a move takes what is below too.
        let whole = matches!(
            effect,
            Effect::Delete { recursive: true } | Effect::MoveAway
        );
        if let Some(why) = paths::protected_as(path, self.ctx.loss, self.home.as_deref(), whole) {
            return Some(why);
        }
        if self.inside(path) {
            return None;
        }
        // The temp folders are scratch for writing, but what is already
        // there may be someone's (issue 17: only new paths outside the
        // tree); deleting or moving it away is refused, not guessed at.
        let takes_away = matches!(effect, Effect::Delete { .. } | Effect::MoveAway);
        if paths::in_temp(path) && !(takes_away && path.symlink_metadata().is_ok()) {
            return None;
        }
        if effect == Effect::Touch && path.symlink_metadata().is_err() {
            // Creating something new outside loses nothing.
            return None;
        }
        Some(format!(
            "`{}` is outside the working tree (only the repository and the temp folder are the agent's to change)",
            path.display()
        ))
    }

    /// Judges file operations: protected places, places outside, then one
    /// question to the repository about what would be lost.
    fn file_ops(&mut self, what: &str, ops: Vec<FileOp>) {
        self.may_write = true;
        let mut asked: Vec<(PathBuf, Effect, String)> = Vec::new();
        for op in ops {
            if is_device(&op.word) {
                continue;
            }
            if op.effect == Effect::Remote {
                self.deny(format!(
                    "{what} would delete files in `{}` on another machine, which the guard cannot ask what would be lost",
                    op.word
                ));
                return;
            }
            let Some(mut abs) = self.absolute(&op.word) else {
                return;
            };
            let mut effect = op.effect;
            if effect == Effect::MoveAway {
                // Work moved out of the working tree has left the
                // repository: judged like an overwrite of the source.
                let dest = op.into_dir.as_deref().unwrap_or(".");
                let Some(d) = self.absolute(dest) else {
                    return;
                };
                if !self.inside(&paths::resolve_abs(&d, true)) {
                    effect = Effect::Overwrite;
                }
            } else if let Some(name) = &op.into_dir {
                if abs.is_dir() {
                    abs = abs.join(name);
                }
            }
            let follow = match op.effect {
                Effect::Delete { .. } => op.word.ends_with('/'),
                Effect::MoveAway => false,
                _ => true,
            };
            let path = paths::resolve_abs(&abs, follow);
            if let Some(why) = self.refused_place(&path, op.effect) {
                self.deny(format!("{what} on `{}` is refused: {why}", op.word));
                return;
            }
            if let Some(link) = self.escaping_link(&abs, follow) {
                self.deny(format!(
                    "{what} on `{}` is refused: `{}` is a symlink in the working tree that leads outside it",
                    op.word,
                    link.display()
                ));
                return;
            }
            match effect {
                Effect::Delete { .. } | Effect::Overwrite | Effect::Edit => {
                    if self.must_ask(&path) {
                        asked.push((path, effect, op.word));
                    }
                }
                Effect::Append | Effect::Touch | Effect::MoveAway | Effect::Remote => {}
            }
        }
        if asked.is_empty() {
            return;
        }
        let list: Vec<PathBuf> = asked.iter().map(|(p, _, _)| p.clone()).collect();
        let loss = match self.ctx.loss.loss(&list) {
            Ok(l) => l,
            Err(e) => {
                self.deny(format!(
                    "{what}: the guard could not ask the repository what would be lost ({e})"
                ));
                return;
            }
        };
        let top = self.ctx.loss.worktree();
        let rel = |p: &Path| -> String {
            match top.as_ref().and_then(|t| p.strip_prefix(t).ok()) {
                Some(r) if !r.as_os_str().is_empty() => r.display().to_string(),
                Some(_) => ".".into(),
                None => p.display().to_string(),
            }
        };
        for (path, effect, word) in &asked {
            let under = |v: &Vec<PathBuf>| -> Vec<String> {
                v.iter()
                    .filter(|f| f.starts_with(path))
                    .map(|f| rel(f))
                    .collect()
            };
            let modified = under(&loss.modified);
            let untracked = under(&loss.untracked);
            let verb = match effect {
                Effect::Delete { .. } => "delete",
                Effect::Edit => "rewrite in place",
                _ => "overwrite",
            };
            if !modified.is_empty() || !untracked.is_empty() {
                let mut names: Vec<&String> = modified.iter().chain(untracked.iter()).collect();
                names.truncate(3);
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                let mut counts = Vec::new();
                if !modified.is_empty() {
                    counts.push(format!("{} modified", modified.len()));
                }
                if !untracked.is_empty() {
                    counts.push(format!("{} untracked", untracked.len()));
                }
                let n = modified.len() + untracked.len();
                self.deny(format!(
                    "{what} would {verb} {} file{} with uncommitted work under `{}` ({}); commit or stash it first",
                    counts.join(" and "),
                    if n == 1 { "" } else { "s" },
                    rel(path),
                    names.join(", ")
                ));
                return;
            }
            let recursive = matches!(effect, Effect::Delete { recursive: true });
            if recursive && path.is_dir() && loss.tracked.contains(path) {
                self.deny(format!(
                    "{what} would recursively delete `{word}`, a folder of tracked files; delete the files you mean one by one or with `git rm`"
                ));
                return;
            }
        }
    }

    /// Judges one command's words (program first).
    /// Judges one command (a program and its words): a wrapper judges the
    /// command it wraps from here again, so a chain of `nice nice … git`
    /// is refused past [`MAX_WRAPPED`] (past a few thousand it overflowed
    /// the stack: a crash the agent takes for a hook that allows).
    fn run(&mut self, args: &[Arg], assigns: &[(String, Option<String>)], stdin: Stdin) {
        if self.running >= MAX_WRAPPED {
            self.deny("Programs wrap each other too deeply to judge");
            return;
        }
        self.running += 1;
        self.run_program(args, assigns, stdin);
        self.running -= 1;
    }

    fn run_program(&mut self, args: &[Arg], assigns: &[(String, Option<String>)], stdin: Stdin) {
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
        let name = programs::canonical(&name);
        let kind = programs::kind(&name);
        // A function shadows only programs the guard does not know:
        // `rm() { :; }; command rm -rf x` still runs the real rm.
        if kind.is_none() && self.functions.contains(&name) {
            self.may_write = true;
            return;
        }
        match kind {
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
            Some(Kind::Git) => self.git(args, assigns),
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
                    Ok(ops) => self.file_ops(&format!("`{name}`"), ops),
                    Err(e) => self.deny(format!(
                        "`{name}`: {e}; the guard refuses options it cannot read"
                    )),
                }
            }
            Some(Kind::Fetcher) => self.fetcher(&name, args),
            Some(Kind::Listener) => self.listener(&name, args),
            Some(Kind::Cd) => self.cd(&name, args),
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
    fn extractor(&mut self, name: &str, args: &[Arg]) {
        let Some(x) = programs::EXTRACTORS.iter().find(|x| x.program == name) else {
            return;
        };
        let Some(lits) = self.literals(name, args, "where it would extract") else {
            return;
        };
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
            dirs.into_iter()
                .map(|word| FileOp {
                    word,
                    effect: Effect::Touch,
                    into_dir: None,
                })
                .collect(),
        );
    }

    /// sed's `w FILE` and `e COMMAND` ([`files::sed_does`]).
    fn sed_does(&mut self, lits: &[String]) {
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
    fn multicall_option(&mut self, name: &str, args: &[Arg]) {
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
    fn assigned(&mut self, name: &str, value: Option<&str>) {
        let Some(runs) = programs::command_var(name) else {
            return;
        };
        self.may_write = true;
        if runs == programs::VarRuns::Loads {
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

    fn unknown_program(&mut self, name: &str) {
        self.may_write = true;
        if self.ctx.unknown_programs == UnknownPrograms::Deny {
            self.deny(format!(
                "`{name}` is not a program the guard knows, and fararoni.hook.unknownPrograms is deny"
            ));
        }
    }

    fn read_only(&mut self, name: &str, args: &[Arg], _assigns: &[(String, Option<String>)]) {
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
    /// ([`programs::READ_ONLY_ESCAPES`]).
    fn read_only_escapes(&mut self, name: &str, args: &[Arg]) {
        use programs::Escape;
        if !programs::READ_ONLY_ESCAPES.iter().any(|(n, _)| *n == name) {
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

    fn wrapper(
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

    fn env(&mut self, args: &[Arg], assigns: &[(String, Option<String>)], stdin: Stdin) {
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

    fn shell(&mut self, name: &str, args: &[Arg], stdin: Stdin) {
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
    fn stdin_file(&self, file: &str, stdin: &Stdin) -> bool {
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

    /// A shell (`lang` None) or interpreter reading its program on stdin.
    fn code_on_stdin(&mut self, name: &str, lang: Option<Lang>, stdin: Stdin) {
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

    fn eval(&mut self, name: &str, args: &[Arg]) {
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

    fn xargs(&mut self, args: &[Arg]) {
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
    fn literals(&mut self, name: &str, args: &[Arg], what: &str) -> Option<Vec<String>> {
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

    /// `pwsh -Command STRING`, `cmd /c STRING`: the guard does not parse
    /// those languages; a statement that starts with a command deleting or
    /// overwriting files is vetoed, one that runs git is judged as git.
    fn windows_shell(&mut self, name: &str, args: &[Arg]) {
        let Some(lits) = self.literals(name, args, "what it runs") else {
            return;
        };
        self.may_write = true;
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

    fn parallel(&mut self, name: &str, args: &[Arg]) {
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

    fn find(&mut self, args: &[Arg]) {
        let Some(lits) = self.literals("find", args, "which files it would delete") else {
            return;
        };
        let mut i = 0;
        while i < lits.len() && matches!(lits[i].as_str(), "-H" | "-L" | "-P" | "-D" | "-O") {
            i += if lits[i] == "-D" { 2 } else { 1 };
        }
        let mut roots = Vec::new();
        while i < lits.len() {
            let w = &lits[i];
            if w.starts_with('-') || w == "(" || w == "!" || w == "," {
                break;
            }
            roots.push(w.clone());
            i += 1;
        }
        if roots.is_empty() {
            roots.push(".".into());
        }
        let expr = &lits[i..];
        let mut names: Vec<(String, bool)> = Vec::new();
        let mut simple = true;
        let mut only_files = false;
        let mut deletes = false;
        let mut recursive = false;
        let mut k = 0;
        while k < expr.len() {
            let w = expr[k].as_str();
            match w {
                "-delete" => deletes = true,
                "-name" | "-iname" => {
                    if let Some(p) = expr.get(k + 1) {
                        names.push((p.clone(), w == "-iname"));
                    }
                    k += 1;
                }
                "-type" => {
                    only_files = expr.get(k + 1).is_some_and(|t| t == "f");
                    k += 1;
                }
                "-o" | "-or" | "!" | "-not" | "," | "(" | ")" => simple = false,
                "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                    if let Some(f) = expr.get(k + 1) {
                        let f = f.clone();
                        self.file_ops(
                            "`find -fprint`",
                            vec![FileOp {
                                word: f,
                                effect: Effect::Overwrite,
                                into_dir: None,
                            }],
                        );
                    }
                    k += if w == "-fprintf" { 2 } else { 1 };
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let start = k + 1;
                    let mut end = start;
                    while end < expr.len() && expr[end] != ";" && expr[end] != "+" {
                        end += 1;
                    }
                    let inner: Vec<Arg> = expr[start..end.min(expr.len())]
                        .iter()
                        .map(|t| {
                            if t.contains("{}") {
                                Arg::Unknown {
                                    prefix: String::new(),
                                    shown: "{}".into(),
                                }
                            } else {
                                Arg::Lit(t.clone())
                            }
                        })
                        .collect();
                    let prog = inner
                        .first()
                        .and_then(|a| a.lit())
                        .map(|p| p.rsplit('/').next().unwrap_or(p).to_string());
                    match prog.as_deref() {
                        Some("rm" | "unlink" | "shred" | "truncate") => {
                            deletes = true;
                            let rest: Vec<String> = inner[1..]
                                .iter()
                                .filter_map(|a| a.lit())
                                .map(String::from)
                                .collect();
                            recursive |= rest.iter().any(|r| {
                                r.starts_with('-')
                                    && !r.starts_with("--")
                                    && (r.contains('r') || r.contains('R'))
                                    || r.starts_with("--rec")
                            });
                        }
                        _ => {
                            let cwd = self.cwd.clone();
                            self.run(&inner, &[], Stdin::Inherited);
                            self.cwd = cwd;
                        }
                    }
                    k = end;
                }
                _ => {}
            }
            k += 1;
        }
        if self.done() || !deletes {
            return;
        }
        self.find_delete(&roots, &names, simple, only_files && !recursive);
    }

    /// `find ROOTS … -delete` (or `-exec rm`): vetoed when a file with
    /// uncommitted work would match.
    fn find_delete(
        &mut self,
        roots: &[String],
        names: &[(String, bool)],
        simple: bool,
        files_only: bool,
    ) {
        self.may_write = true;
        let mut paths_ = Vec::new();
        for r in roots {
            let Some(abs) = self.absolute(r) else {
                return;
            };
            if let Some(link) = self.escaping_link(&abs, true) {
                self.deny(format!(
                    "`find -delete` on `{r}` is refused: `{}` is a symlink in the working tree that leads outside it",
                    link.display()
                ));
                return;
            }
            let p = paths::resolve_abs(&abs, true);
            // find deletes what matches below a root, not the root's
            // surroundings: a protected place inside is checked by name.
            let refused = match paths::protected_as(&p, self.ctx.loss, self.home.as_deref(), false)
            {
                Some(why) => Some(why),
                None => self
                    .refused_place(&p, Effect::Touch)
                    .filter(|_| p.symlink_metadata().is_ok()),
            };
            if let Some(why) = refused {
                self.deny(format!("`find -delete` on `{r}` is refused: {why}"));
                return;
            }
            for g in self.ctx.loss.git_dirs() {
                if g.starts_with(&p) && git_dir_matches(&g, names, simple) {
                    self.deny(format!(
                        "`find -delete` on `{r}` would also delete files inside the git dir; add `-path ./.git -prune -o` or name the folders"
                    ));
                    return;
                }
            }
            if self.must_ask(&p) {
                paths_.push(p);
            }
        }
        // The git dir under a root is matched too unless names exclude it.
        if paths_.is_empty() {
            return;
        }
        let loss = match self.ctx.loss.loss(&paths_) {
            Ok(l) => l,
            Err(e) => {
                self.deny(format!(
                    "`find -delete`: the guard could not ask the repository ({e})"
                ));
                return;
            }
        };
        let matches = |f: &PathBuf| -> bool {
            if !simple || names.is_empty() {
                return true;
            }
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            names.iter().all(|(p, icase)| {
                if *icase {
                    crate::text::glob::matches(&p.to_lowercase(), &name.to_lowercase())
                } else {
                    crate::text::glob::matches(p, &name)
                }
            }) || (!files_only
                && f.ancestors().any(|a| {
                    let n = a
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    names.iter().all(|(p, _)| crate::text::glob::matches(p, &n))
                }))
        };
        let hit: Vec<&PathBuf> = loss
            .modified
            .iter()
            .chain(loss.untracked.iter())
            .filter(|f| matches(f))
            .collect();
        if !hit.is_empty() {
            let top = self.ctx.loss.worktree();
            let shown: Vec<String> = hit
                .iter()
                .take(3)
                .map(|f| {
                    let r = top
                        .as_ref()
                        .and_then(|t| f.strip_prefix(t).ok())
                        .unwrap_or(f);
                    format!("`{}`", r.display())
                })
                .collect();
            self.deny(format!(
                "`find` would delete {} file{} with uncommitted work ({}); commit or stash it first",
                hit.len(),
                if hit.len() == 1 { "" } else { "s" },
                shown.join(", ")
            ));
        }
        // A `-delete` over tracked folders removes only matching files;
        // clean tracked files come back with `git restore`.
    }

    /// A [`Kind::Runner`]: every command its arguments could hold is
    /// judged — each argument holding white space (or the value of a
    /// `--long=` option) as a command line, and the words from each
    /// position on as a command — and its stdin as a script (`at`,
    /// `batch`), beside the snapshot any other program gets. Reading the
    /// arguments as a tmux or screen command would is a parser per
    /// program and version; reading every way is what the dedicated
    /// guards do, with this one's judgement of each command.
    fn runner(&mut self, name: &str, args: &[Arg], stdin: Stdin) {
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

    fn remote(&mut self, name: &str, args: &[Arg]) {
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

    fn interpreter(&mut self, name: &str, lang: Lang, args: &[Arg], stdin: Stdin) {
        self.may_write = true;
        let lits = lit_args(args);
        let Some(lits) = lits else {
            // A computed script name is still just a script; computed code
            // is not visible.
            let code_opt = args[1..].windows(2).any(|w| {
                matches!(
                    w[0].lit(),
                    Some("-c" | "-e" | "-E" | "--eval" | "-r" | "-p" | "--print")
                ) && w[1].lit().is_none()
            });
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
    fn inline_target(
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
    fn wrapper_assignment(
        &mut self,
        name: &str,
        value: &str,
        assigns: &mut Vec<(String, Option<String>)>,
    ) -> bool {
        self.assigned(name, Some(value));
        assigns.push((name.to_string(), Some(value.to_string())));
        self.done()
    }

    fn inline_code(&mut self, name: &str, lang: Lang, code: &str) {
        self.may_write = true;
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
                            Ok(l) if l.modified.is_empty() && l.untracked.is_empty() && l.tracked.is_empty() => {}
                            Ok(_) => self.deny(format!(
                                "Inline `{name}` code overwrites `{path}` (`{}`), a file of the repository; use the agent's edit tool so the change can be judged and undone",
                                api.trim_end_matches('(')
                            )),
                            Err(e) => self.deny(format!("Inline `{name}` code writes `{path}` and the repository could not be asked ({e})")),
                        }
                    }
                }
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

    fn fetcher(&mut self, name: &str, args: &[Arg]) {
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

    fn listener(&mut self, name: &str, args: &[Arg]) {
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

    fn cd(&mut self, name: &str, args: &[Arg]) {
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

    fn git(&mut self, args: &[Arg], assigns: &[(String, Option<String>)]) {
        let Some(cwd) = self.cwd.clone() else {
            self.deny("After a `cd` the guard cannot follow, it cannot tell which repository `git` would act on");
            return;
        };
        let mut argv: Vec<String> = Vec::with_capacity(args.len());
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
                        self.deny(format!(
                            "`git` is given `{shown}`, computed at run time, so the guard cannot tell what it would do"
                        ));
                        return;
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
const GIT_VALUE_OPTIONS: &[&str] = &[
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
const GIT_ENV_HARMLESS: &[&str] = &[
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
fn passes_to_git_policy(name: &str) -> bool {
    if GIT_ENV_HARMLESS.contains(&name) {
        return false;
    }
    name.starts_with("GIT_") || matches!(name, "HOME" | "XDG_CONFIG_HOME" | "PREFIX")
}

/// Whether a `find` name filter would match anything inside the git dir
/// `g` (a walk capped at 20,000 entries; past it, assume it would).
fn git_dir_matches(g: &Path, names: &[(String, bool)], simple: bool) -> bool {
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

fn short_argv(argv: &[String]) -> String {
    let s = argv.join(" ");
    if s.chars().count() > 60 {
        let mut t: String = s.chars().take(59).collect();
        t.push('…');
        t
    } else {
        s
    }
}

fn is_device(word: &str) -> bool {
    matches!(
        word,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || word.starts_with("/dev/fd/")
}

/// A here-document's text when it is known now.
fn body_text(b: &HereBody) -> Option<String> {
    if b.quoted {
        return Some(b.text.clone());
    }
    let mut s = String::new();
    for p in &b.parts {
        match p {
            Part::Lit { text, .. } => s.push_str(text),
            _ => return None,
        }
    }
    Some(s)
}

/// What a command prints, when it is known now: `cat` of its known stdin,
/// `echo` or `printf` of literal text.
fn known_output(args: &[Arg], stdin: Stdin) -> Option<String> {
    let program = args.first()?.lit()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    let lits: Option<Vec<&str>> = args[1..].iter().map(|a| a.lit()).collect();
    let lits = lits?;
    match name {
        "cat" if lits.iter().all(|a| *a == "-") => match stdin {
            Stdin::Known(t) => Some(t),
            _ => None,
        },
        "echo" => {
            let mut newline = true;
            let mut k = 0;
            while k < lits.len()
                && lits[k].starts_with('-')
                && lits[k].len() > 1
                && lits[k][1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'))
            {
                if lits[k].contains('e') {
                    return None;
                }
                newline &= !lits[k].contains('n');
                k += 1;
            }
            let mut s = lits[k..].join(" ");
            if s.contains('\\') {
                return None;
            }
            if newline {
                s.push('\n');
            }
            Some(s)
        }
        "printf" => match lits.as_slice() {
            [fmt] if !fmt.contains('%') => {
                let mut out = String::new();
                let mut chars = fmt.chars();
                while let Some(c) = chars.next() {
                    if c == '\\' {
                        match chars.next() {
                            Some('n') => out.push('\n'),
                            Some('t') => out.push('\t'),
                            Some('\\') => out.push('\\'),
                            _ => return None,
                        }
                    } else {
                        out.push(c);
                    }
                }
                Some(out)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Most words one brace expansion may produce; more is refused.
const MAX_BRACE_WORDS: usize = 256;

/// Brace expansion of an escaped pattern, as bash does it: `a{b,c}d`,
/// nested, and `{1..3}` / `{a..c}` sequences. `None` past
/// [`MAX_BRACE_WORDS`].
fn brace_expand(s: &str, depth: usize) -> Option<Vec<String>> {
    if depth > 8 {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '{' => {
                // Find the matching close and the top-level commas.
                let mut level = 0;
                let mut j = i;
                let mut commas = Vec::new();
                let mut close = None;
                while j < chars.len() {
                    match chars[j] {
                        '\\' => j += 1,
                        '{' => level += 1,
                        '}' => {
                            level -= 1;
                            if level == 0 {
                                close = Some(j);
                                break;
                            }
                        }
                        ',' if level == 1 => commas.push(j),
                        _ => {}
                    }
                    j += 1;
                }
                let Some(close) = close else {
                    return Some(vec![s.to_string()]);
                };
                let head: String = chars[..i].iter().collect();
                let tail: String = chars[close + 1..].iter().collect();
                let inner: String = chars[i + 1..close].iter().collect();
                let alternatives: Vec<String> = if commas.is_empty() {
                    match sequence(&inner) {
                        Some(seq) => seq,
                        None => {
                            // Not an expansion: keep `{`…`}` literally and
                            // expand what follows.
                            let rest: String = chars[i + 1..].iter().collect();
                            let rest = brace_expand(&rest, depth + 1)?;
                            return Some(
                                rest.into_iter().map(|r| format!("{head}\\{{{r}")).collect(),
                            );
                        }
                    }
                } else {
                    let mut parts = Vec::new();
                    let mut from = i + 1;
                    for c in commas.iter().copied().chain(std::iter::once(close)) {
                        parts.push(chars[from..c].iter().collect());
                        from = c + 1;
                    }
                    parts
                };
                let mut out = Vec::new();
                for alt in alternatives {
                    for e in brace_expand(&format!("{head}{alt}{tail}"), depth + 1)? {
                        out.push(e);
                        if out.len() > MAX_BRACE_WORDS {
                            return None;
                        }
                    }
                }
                return Some(out);
            }
            _ => i += 1,
        }
    }
    Some(vec![s.to_string()])
}

/// `1..5`, `a..e`, `1..10..2`: the words, or `None` when not a sequence.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse::<i64>().ok()?.abs().max(1),
        None => 1,
    };
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        if (a - b).abs() / step > MAX_BRACE_WORDS as i64 {
            return None;
        }
        let mut v = Vec::new();
        let mut x = a;
        while (a <= b && x <= b) || (a > b && x >= b) {
            v.push(x.to_string());
            x += if a <= b { step } else { -step };
        }
        return Some(v);
    }
    let (a, b) = (parts[0], parts[1]);
    if a.chars().count() == 1 && b.chars().count() == 1 {
        let (a, b) = (a.chars().next()? as u32, b.chars().next()? as u32);
        let (lo, hi) = (a.min(b), a.max(b));
        let mut v: Vec<String> = (lo..=hi)
            .step_by(step as usize)
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
        if a > b {
            v.reverse();
        }
        return Some(v);
    }
    None
}

/// Quotes a word for a command line rebuilt from known words.
/// Whether gawk is asked to load its in-place extension (`-i inplace`,
/// `-iinplace`, `--include=inplace`, `--include inplace`).
/// awk's options that take the next word as their value (POSIX, gawk,
/// mawk's `-W`).
const AWK_WITH_VALUE: &[&str] = &[
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
fn awk_programs(words: &[&str]) -> Vec<String> {
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
const AWK_RUNS: &[&str] = &["system(", "| \"", "|\"", "|getline", "| getline", "|&"];

/// Why an awk program is refused: it runs commands, or a `print` or
/// `printf` sends its output to a file (`print $1 > 5` writes the file
/// `5`).
fn awk_effect(code: &str) -> Option<&'static str> {
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

fn awk_in_place(args: &[Arg]) -> bool {
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

/// The words after the program name when every one is a literal.
/// The command lines a runner's argument `text` could hold: itself when
/// it holds white space; with `\n` and `\r` typed as Enter (tmux
/// `send-keys`, screen `stuff`, expect `send`); and, in each of its lines
/// or statements, what follows a word of [`programs::RUNS_THE_REST`] or an
/// editor's `!`, unquoted.
fn runner_lines(text: &str) -> Vec<String> {
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
enum Cluster {
    /// An option that runs no command (`sudo -lE`).
    NoCommand,
    /// The last option takes the next word as its value (`-Eu root`).
    NextWord,
    /// Flags only, or a value attached (`-n5`): the command is next.
    Within,
}

/// Also whether one of the flags before any value is a shell flag
/// (`sudo -su root`; in `sudo -us` the `s` is the user).
fn cluster_value(w: &Wrapper, cluster: &str) -> (Cluster, bool) {
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

fn lit_args(args: &[Arg]) -> Option<Vec<String>> {
    args[1..]
        .iter()
        .map(|a| a.lit().map(String::from))
        .collect()
}
