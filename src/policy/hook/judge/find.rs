//! `find`, whose actions delete, run and write.

use super::*;

impl Judge<'_> {
    pub(super) fn find(&mut self, args: &[Arg]) {
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
    pub(super) fn find_delete(
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
            // Every other protected place below the root (our store, the
            // hooks folder, each agent's hook settings) whose files the
            // name filters could match.
            for (place, what) in self.protected_below(&p) {
                let own_name = place
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let name_hits = !simple
                    || names.is_empty()
                    || names.iter().all(|(pat, icase)| {
                        if *icase {
                            crate::text::glob::matches(
                                &pat.to_lowercase(),
                                &own_name.to_lowercase(),
                            )
                        } else {
                            crate::text::glob::matches(pat, &own_name)
                        }
                    });
                if name_hits || git_dir_matches(&place, names, simple) {
                    self.deny(format!(
                        "`find -delete` on `{r}` would also delete files in `{}`, {what}; name the folders to delete instead",
                        place.strip_prefix(&p).unwrap_or(&place).display()
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
            .chain(loss.precious.iter())
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

    /// The protected places ([`paths::PROTECTED_IN_TREE`], the hooks
    /// folder) that exist at or below `root`, with what each is.
    fn protected_below(&self, root: &Path) -> Vec<(PathBuf, String)> {
        let mut out: Vec<(PathBuf, String)> = Vec::new();
        if let Some(h) = self.ctx.loss.hooks_dir() {
            if h.starts_with(root) && h.exists() {
                out.push((h, "the hooks folder git runs".into()));
            }
        }
        let Some(top) = self.ctx.loss.worktree() else {
            return out;
        };
        for (pat, what) in paths::PROTECTED_IN_TREE {
            // The folder entries name each place once; a glob entry is
            // inside one of them.
            let dir = pat.trim_end_matches('/');
            if dir.contains('*') || dir.contains('/') {
                continue;
            }
            let place = top.join(dir);
            if place.starts_with(root)
                && place.symlink_metadata().is_ok()
                && !out.iter().any(|(p, _)| p == &place)
            {
                out.push((place, (*what).to_string()));
            }
        }
        out
    }
}
