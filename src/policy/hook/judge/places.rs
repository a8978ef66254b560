//! Places and file effects: redirections, writes of known content, paths
//! resolved against the walk's directory, and the places nothing may touch.

use super::*;

impl Judge<'_> {
    /// Judges the redirections that write files. `output` is what the
    /// command prints, when known (a write of known content).
    pub(super) fn redirections(&mut self, redirs: &[Redir], output: Option<String>) {
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

    pub(super) fn known_write(&mut self, word: &str, content: Vec<u8>, append: bool) {
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

    pub(super) fn absolute(&mut self, word: &str) -> Option<PathBuf> {
        if Path::new(word).is_absolute() || word.starts_with('~') {
            let cwd = self.cwd.clone().unwrap_or_else(|| PathBuf::from("/"));
            return Some(self.through_made(paths::absolute(&cwd, self.home.as_deref(), word)));
        }
        match &self.cwd {
            Some(cwd) => {
                let abs = paths::absolute(cwd, self.home.as_deref(), word);
                Some(self.through_made(abs))
            }
            None => {
                self.deny(format!(
                    "After a `cd` the guard cannot follow, it cannot tell which file `{word}` is"
                ));
                None
            }
        }
    }

    /// `abs` read through the paths earlier commands on the line made
    /// ([`Made`]): a path at or below a link or a moved path is the path
    /// it stands for (a link made then deleted is judged as its target:
    /// the safe reading).
    pub(super) fn through_made(&self, mut abs: PathBuf) -> PathBuf {
        let abs_lex = paths::resolve_abs(&abs, false);
        abs = abs_lex;
        // Bounded: links of links on one line.
        for _ in 0..16 {
            let Some(m) = self.made.iter().rev().find(|m| abs.starts_with(&m.path)) else {
                break;
            };
            let rest = abs
                .strip_prefix(&m.path)
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let next = if rest.as_os_str().is_empty() {
                m.stands_for.clone()
            } else {
                m.stands_for.join(rest)
            };
            if next == abs {
                break;
            }
            abs = next;
        }
        abs
    }

    /// Records what `ln` and `mv` (already judged) make: the new paths and
    /// what they stand for ([`Made`]).
    pub(super) fn record_made(&mut self, program: &str, lits: &[String]) {
        if !matches!(program, "ln" | "mv") {
            return;
        }
        let Some(cwd) = self.cwd.clone() else {
            return;
        };
        let mut operands: Vec<&str> = Vec::new();
        let mut target_dir: Option<&str> = None;
        let mut symbolic = false;
        let mut k = 0;
        let mut dashes = false;
        while k < lits.len() {
            let w = lits[k].as_str();
            k += 1;
            if dashes || !w.starts_with('-') || w == "-" {
                operands.push(w);
                continue;
            }
            match w {
                "--" => dashes = true,
                "-t" | "--target-directory" => {
                    target_dir = lits.get(k).map(String::as_str);
                    k += 1;
                }
                "-S" | "--suffix" => k += 1,
                "--symbolic" => symbolic = true,
                _ if w.starts_with("--target-directory=") => {
                    target_dir = w.split_once('=').map(|(_, v)| v);
                }
                _ if !w.starts_with("--") => {
                    symbolic |= w.contains('s');
                    if w.ends_with('t') {
                        target_dir = lits.get(k).map(String::as_str);
                        k += 1;
                    }
                }
                _ => {}
            }
        }
        let (sources, dest): (Vec<&str>, String) = match target_dir {
            Some(d) => (operands, d.to_string()),
            None if operands.len() >= 2 => {
                let d = operands.pop().unwrap_or(".").to_string();
                (operands, d)
            }
            None if program == "ln" && operands.len() == 1 => (operands, ".".into()),
            None => return,
        };
        let dest_abs = paths::absolute(&cwd, self.home.as_deref(), &dest);
        let dest_abs = self.through_made(dest_abs);
        let into_dir = target_dir.is_some()
            || sources.len() > 1
            || dest.ends_with('/')
            || dest_abs.is_dir()
            || self
                .made
                .iter()
                .any(|m| m.path == dest_abs && m.stands_for.is_dir());
        for src in sources {
            let name = Path::new(src.trim_end_matches('/'))
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_default();
            let new_path = if into_dir {
                dest_abs.join(&name)
            } else {
                dest_abs.clone()
            };
            // A symbolic link's target is read from the link's folder.
            let base = if program == "ln" && symbolic {
                new_path
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or(cwd.clone())
            } else {
                cwd.clone()
            };
            let old = paths::absolute(&base, self.home.as_deref(), src);
            let old = self.through_made(old);
            self.made.push(Made {
                path: paths::resolve_abs(&new_path, false),
                stands_for: old,
                content: program == "mv",
            });
        }
    }

    /// Whether `path` (resolved) is inside the working tree (outside any
    /// repository: below the agent's directory).
    pub(super) fn inside(&self, path: &Path) -> bool {
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
    pub(super) fn escaping_link(&self, abs: &Path, follow: bool) -> Option<PathBuf> {
        let top = self.ctx.loss.worktree()?;
        paths::escaping_link(&top, abs, follow)
    }

    /// Whether the repository must be asked about `path`: it exists and is
    /// not expendable (in a temp folder outside the working tree).
    pub(super) fn must_ask(&self, path: &Path) -> bool {
        path.symlink_metadata().is_ok() && (self.inside(path) || !paths::in_temp(path))
    }

    /// Why `path` may not be changed at all: protected, or outside the
    /// working tree and the temporary folders.
    pub(super) fn refused_place(&self, path: &Path, effect: Effect) -> Option<String> {
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
        // there may be someone's (outside the tree, only new paths are
        // the agent's); deleting or moving it away is refused, not guessed at.
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
    pub(super) fn file_ops(&mut self, what: &str, ops: Vec<FileOp>) {
        self.may_write = true;
        let mut asked: Vec<(PathBuf, Effect, String)> = Vec::new();
        for op in ops {
            if is_device(&op.word) {
                continue;
            }
            if is_disk(&op.word) {
                self.deny(format!(
                    "{what} would write to `{}`, a device: that destroys a disk's contents",
                    op.word
                ));
                return;
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
            // Work moved below this path earlier on the line goes with it.
            if matches!(
                effect,
                Effect::Delete { recursive: true } | Effect::Overwrite
            ) {
                let lex = paths::resolve_abs(&abs, false);
                let moved: Vec<PathBuf> = self
                    .made
                    .iter()
                    .filter(|m| m.content && m.path.starts_with(&lex) && m.path != lex)
                    .map(|m| m.stands_for.clone())
                    .collect();
                for old in moved {
                    let old = paths::resolve_abs(&old, true);
                    if self.must_ask(&old) {
                        asked.push((old, effect, op.word.clone()));
                    }
                }
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
            let precious = under(&loss.precious);
            let verb = match effect {
                Effect::Delete { .. } => "delete",
                Effect::Edit => "rewrite in place",
                _ => "overwrite",
            };
            if !modified.is_empty() || !untracked.is_empty() || !precious.is_empty() {
                let mut names: Vec<&String> =
                    modified.iter().chain(&untracked).chain(&precious).collect();
                names.truncate(3);
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                let mut counts = Vec::new();
                if !modified.is_empty() {
                    counts.push(format!("{} modified", modified.len()));
                }
                if !untracked.is_empty() {
                    counts.push(format!("{} untracked", untracked.len()));
                }
                if !precious.is_empty() {
                    counts.push(format!("{} precious ignored", precious.len()));
                }
                let n = modified.len() + untracked.len() + precious.len();
                let (kind, remedy) = if modified.is_empty() && untracked.is_empty() {
                    // Ignored files cannot be committed or stashed away.
                    ("", "git ignores such files but people keep them by hand (local settings, data, keys), and git cannot bring them back; copy them aside first")
                } else {
                    (" with uncommitted work", "commit or stash it first")
                };
                self.deny(format!(
                    "{what} would {verb} {} file{}{kind} under `{}` ({}); {remedy}",
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
}

/// Whether a word names a device other than the harmless ones
/// ([`is_device`]): a disk, a partition, memory.
pub(super) fn is_disk(word: &str) -> bool {
    let w = word.trim_start_matches("of=");
    (w.starts_with("/dev/") && !is_device(w) && !w.starts_with("/dev/shm/"))
        || w.starts_with("/sys/block/")
}

pub(super) fn is_device(word: &str) -> bool {
    matches!(
        word,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || word.starts_with("/dev/fd/")
}
