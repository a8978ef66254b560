//! The I/O behind the policy's questions: [`RepoEnv`] answers
//! [`Facts`] (aliases, revisions, paths, repository identity) and
//! [`GitLoss`] answers [`LossFacts`] (what deleting some paths would lose),
//! from the repository around a directory. The policy itself spawns
//! nothing and reads no file; everything it needs to know comes through
//! these two.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::git::{status, GitCommand, Repo};
use crate::policy::hook::{Loss, LossFacts};
use crate::policy::{Arrival, Arrive, Facts, Place};

/// The user's setup as the policy sees it: aliases through git's own
/// config resolution, revisions, paths and repository identity from the
/// repository around `cwd` (gix, in process), globs from the file system.
pub struct RepoEnv {
    cwd: PathBuf,
    home: Option<String>,
    repo: OnceCell<Option<Repo>>,
}

/// A repository's identity: its git dir and work tree, resolved.
#[derive(Debug, PartialEq, Eq)]
struct Identity {
    git_dir: PathBuf,
    workdir: Option<PathBuf>,
}

fn identity(repo: &Repo) -> Identity {
    Identity {
        git_dir: canonical(repo.git_dir()),
        workdir: repo.workdir().map(canonical),
    }
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Joins `target` to `dir` the way `cd` does by default (logically:
/// `..` removes the previous component, symlinks are not resolved).
fn join_logical(dir: &Path, target: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in dir.join(target).components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl RepoEnv {
    /// Creates the environment for requests typed in `cwd`.
    pub fn new(cwd: PathBuf) -> RepoEnv {
        RepoEnv {
            cwd,
            home: crate::settings::read::home_os().and_then(|h| h.into_string().ok()),
            repo: OnceCell::new(),
        }
    }

    fn repo(&self) -> Option<&Repo> {
        self.repo
            .get_or_init(|| Repo::discover(&self.cwd).ok().flatten())
            .as_ref()
    }
}

impl Facts for RepoEnv {
    fn cwd(&self) -> &Path {
        &self.cwd
    }

    fn home(&self) -> Option<String> {
        self.home.clone()
    }

    fn git_alias(&self, place: &Place, name: &str) -> Option<String> {
        // git's own lookup honours includes, -c and GIT_CONFIG_* exactly as
        // the command would; it runs only for subcommands git lacks.
        let mut args: Vec<String> = Vec::new();
        if let Some(g) = &place.git_dir {
            args.push(format!("--git-dir={g}"));
        }
        args.extend(["config".into(), "--get".into(), format!("alias.{name}")]);
        GitCommand::new(args)
            .dir(&place.dir)
            .protected()
            .read()
            .ok()
            .map(|s| s.trim_end_matches('\n').to_string())
    }

    fn same_repository(&self, place: &Place) -> Option<bool> {
        if !place.dir.is_dir() {
            return Some(false);
        }
        let Some(here) = self.repo().map(identity) else {
            // No repository where the request was typed: git may only run
            // where it finds none either, and without overrides.
            let none = place.git_dir.is_none()
                && place.work_tree.is_none()
                && place.index_file.is_none()
                && matches!(Repo::discover(&place.dir), Ok(None));
            return Some(none);
        };
        let git_dir = match &place.git_dir {
            Some(g) => canonical(&place.dir.join(g)),
            None => match Repo::discover(&place.dir) {
                Ok(Some(r)) => identity(&r).git_dir,
                _ => return Some(false),
            },
        };
        if git_dir != here.git_dir {
            return Some(false);
        }
        // With `--git-dir` and no work tree, git takes the directory it
        // runs in as the top of the work tree.
        let work_tree = match (&place.work_tree, &place.git_dir) {
            (Some(w), _) => Some(canonical(&place.dir.join(w))),
            (None, Some(_)) => Some(canonical(&place.dir)),
            (None, None) => here.workdir.clone(),
        };
        if work_tree != here.workdir {
            return Some(false);
        }
        if let Some(index) = &place.index_file {
            // git reads a relative GIT_INDEX_FILE from the top of the work
            // tree, not from where it was started.
            let base = work_tree.clone().unwrap_or_else(|| place.dir.clone());
            if canonical(&base.join(index)) != here.git_dir.join("index")
                || canonical(&place.dir.join(index)) != here.git_dir.join("index")
            {
                return Some(false);
            }
        }
        Some(true)
    }

    fn is_revision(&self, _place: &Place, name: &str) -> Option<bool> {
        // The place was checked to be this repository before anything asks.
        self.repo().map(|r| r.resolves_to_commit(name))
    }

    fn has_branch(&self, name: &str, remote: bool) -> Option<bool> {
        let repo = self.repo()?.gix();
        if name.is_empty() || name.starts_with('-') {
            return Some(false);
        }
        let local = repo
            .try_find_reference(format!("refs/heads/{name}").as_str())
            .ok()
            .flatten()
            .is_some();
        if local || !remote {
            return Some(local);
        }
        // refs/remotes/REMOTE/NAME for any remote.
        let suffix = format!("/{name}");
        let found = repo.references().ok().is_some_and(|refs| {
            refs.remote_branches().ok().is_some_and(|mut all| {
                all.any(|r| {
                    r.ok().is_some_and(|r| {
                        let full = r.name().as_bstr().to_string();
                        full.strip_prefix("refs/remotes/")
                            .and_then(|rest| rest.split_once('/'))
                            .is_some_and(|(_, branch)| branch == name)
                            && full.ends_with(&suffix)
                    })
                })
            })
        });
        Some(found)
    }

    fn current_branch(&self) -> Option<String> {
        match self.repo()?.head().ok()? {
            crate::git::Head::Branch { name, .. } | crate::git::Head::Unborn { name } => Some(name),
            crate::git::Head::Detached { .. } => None,
        }
    }

    fn is_path(&self, place: &Place, name: &str) -> Option<bool> {
        if place.dir.join(name).symlink_metadata().is_ok() {
            return Some(true);
        }
        let repo = self.repo()?;
        let top = canonical(repo.workdir()?);
        let rel_dir = canonical(&place.dir).strip_prefix(&top).ok()?.to_path_buf();
        Some(repo.index_has_path(&join_logical(&rel_dir, name)))
    }

    fn expand_glob(&self, dir: &Path, pattern: &str) -> Vec<String> {
        crate::text::glob::expand(pattern, dir)
    }

    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
        let next = join_logical(dir, target);
        next.is_dir().then_some(next)
    }

    fn inside_worktree(&self, dir: &Path) -> Option<bool> {
        let top = match self.repo() {
            Some(r) => canonical(r.workdir()?),
            None => canonical(&self.cwd),
        };
        let place = Place {
            dir: dir.to_path_buf(),
            ..Place::default()
        };
        Some(canonical(dir).starts_with(&top) && self.same_repository(&place) == Some(true))
    }

    fn lease_unseen(
        &self,
        _place: &Place,
        remote: Option<&str>,
        refspecs: &[String],
    ) -> Vec<crate::git::lease::Unseen> {
        // The place was checked to be this repository before anything asks.
        self.repo()
            .map(|r| r.lease_unseen(remote, refspecs))
            .unwrap_or_default()
    }

    fn brings_stash(&self, _place: &Place, rev: &str) -> Option<bool> {
        let g = self.repo()?.gix();
        let target = commit_of(g, rev)?;
        let stash = stash_commits(g);
        Some(stash.iter().any(|s| {
            *s == target
                || g.merge_base(*s, target)
                    .ok()
                    .flatten()
                    .is_some_and(|b| b.detach() == *s)
        }))
    }

    fn hooks_in_worktree(&self, _place: &Place) -> Option<PathBuf> {
        let repo = self.repo()?;
        let top = canonical(repo.workdir()?);
        let configured = repo.config_string("core.hooksPath")?;
        if configured.is_empty() {
            return None;
        }
        let path = match configured.strip_prefix("~/") {
            Some(rest) => PathBuf::from(self.home.as_deref()?).join(rest),
            None => top.join(&configured),
        };
        let path = canonical(&join_logical(&path, "."));
        path.starts_with(&top).then_some(path)
    }

    fn arrival(&self, place: &Place, rev: &str, how: Arrive) -> Option<Arrival> {
        let repo = self.repo()?;
        let g = repo.gix();
        let top = canonical(repo.workdir()?);
        let target = commit_of(g, rev)?;
        let head = g.head_id().ok().map(|id| id.detach());
        let base = match how {
            Arrive::Checkout => head,
            Arrive::Merge => {
                head.and_then(|h| g.merge_base(h, target).ok().flatten().map(|b| b.detach()))
            }
            Arrive::Pick => g
                .find_commit(target)
                .ok()?
                .parent_ids()
                .next()
                .map(|p| p.detach()),
        };
        let tree = |c: gix::ObjectId| g.find_commit(c).ok()?.tree_id().ok().map(|t| t.detach());
        let target_tree = tree(target)?;
        let base_tree = base.and_then(tree);
        let mut added = Vec::new();
        let mut budget = 200_000usize;
        added_paths(g, base_tree, target_tree, "", &mut added, &mut budget);
        let mut overwritten = Vec::new();
        for path in &added {
            // The path itself, or a file where it needs a folder.
            let mut prefix = PathBuf::new();
            for part in path.split('/') {
                prefix.push(part);
                let Ok(meta) = top.join(&prefix).symlink_metadata() else {
                    break;
                };
                let whole = prefix.as_os_str().len() == path.len();
                if whole || !meta.is_dir() {
                    if !repo.index_has_path(&prefix) {
                        overwritten.push(prefix.to_string_lossy().into_owned());
                    }
                    break;
                }
            }
            if overwritten.len() >= 20 {
                break;
            }
        }
        overwritten.dedup();
        let hooks_changed = self.hooks_in_worktree(place).is_some_and(|h| {
            let Ok(rel) = h.strip_prefix(&top) else {
                return false;
            };
            let at = |t: Option<gix::ObjectId>| {
                t.and_then(|t| {
                    let tree = g.find_object(t).ok()?.try_into_tree().ok()?;
                    let e = tree.lookup_entry_by_path(rel).ok()??;
                    Some(e.object_id())
                })
            };
            at(base_tree) != at(Some(target_tree))
        });
        Some(Arrival {
            overwritten,
            hooks_changed,
        })
    }
}

/// The commit `rev` resolves to.
fn commit_of(g: &gix::Repository, rev: &str) -> Option<gix::ObjectId> {
    if rev.is_empty() || rev.starts_with('-') {
        return None;
    }
    Some(
        g.rev_parse_single(rev)
            .ok()?
            .object()
            .ok()?
            .peel_to_commit()
            .ok()?
            .id,
    )
}

/// Every commit of every stash entry: the entry (from `refs/stash` and its
/// reflog), its index commit and its untracked-files commit (its second
/// and third parents). The first parent is the user's own commit.
fn stash_commits(g: &gix::Repository) -> Vec<gix::ObjectId> {
    let mut out = Vec::new();
    let Ok(reference) = g.find_reference("refs/stash") else {
        return out;
    };
    let mut entries: Vec<gix::ObjectId> = Vec::new();
    if let Ok(id) = reference.clone().into_fully_peeled_id() {
        entries.push(id.detach());
    }
    let mut platform = reference.log_iter();
    if let Ok(Some(lines)) = platform.rev() {
        for line in lines.take(1000).flatten() {
            if !entries.contains(&line.new_oid) {
                entries.push(line.new_oid);
            }
        }
    }
    for e in entries {
        out.push(e);
        if let Ok(c) = g.find_commit(e) {
            out.extend(c.parent_ids().skip(1).map(|p| p.detach()));
        }
    }
    out
}

/// The paths of `target` (a tree) whose entry differs from the same path
/// in `base` or is absent there; identical subtrees are skipped whole.
fn added_paths(
    g: &gix::Repository,
    base: Option<gix::ObjectId>,
    target: gix::ObjectId,
    prefix: &str,
    out: &mut Vec<String>,
    budget: &mut usize,
) {
    if base == Some(target) {
        return;
    }
    let Some(t) = g
        .find_object(target)
        .ok()
        .and_then(|o| o.try_into_tree().ok())
    else {
        return;
    };
    let mut before: std::collections::HashMap<Vec<u8>, (gix::ObjectId, bool)> =
        std::collections::HashMap::new();
    if let Some(b) = base
        .and_then(|b| g.find_object(b).ok())
        .and_then(|o| o.try_into_tree().ok())
    {
        for e in b.iter().flatten() {
            before.insert(
                e.filename().to_vec(),
                (e.oid().to_owned(), e.mode().is_tree()),
            );
        }
    }
    for e in t.iter().flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let name = e.filename().to_string();
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let was = before.get(&e.filename().to_vec());
        if was.is_some_and(|(id, _)| id.as_ref() == e.oid()) {
            continue;
        }
        if e.mode().is_tree() {
            let sub = was.filter(|(_, tree)| *tree).map(|(id, _)| *id);
            added_paths(g, sub, e.oid().to_owned(), &path, out, budget);
        } else if !e.mode().is_commit() {
            out.push(path);
        }
    }
}

/// [`LossFacts`] of the repository around a directory.
pub struct GitLoss {
    cwd: PathBuf,
    repo: OnceCell<Option<Repo>>,
    includes: OnceCell<Vec<PathBuf>>,
}

impl GitLoss {
    /// The repository around `cwd` (none is fine: every existing file then
    /// counts as precious).
    pub fn new(cwd: &Path) -> GitLoss {
        GitLoss {
            cwd: cwd.to_path_buf(),
            repo: OnceCell::new(),
            includes: OnceCell::new(),
        }
    }

    fn repo(&self) -> Option<&Repo> {
        self.repo
            .get_or_init(|| Repo::discover(&self.cwd).ok().flatten())
            .as_ref()
    }
}

impl LossFacts for GitLoss {
    fn worktree(&self) -> Option<PathBuf> {
        self.repo()?.workdir().map(canonical)
    }

    fn git_dirs(&self) -> Vec<PathBuf> {
        match self.repo() {
            Some(r) => {
                let mut v = vec![canonical(r.git_dir())];
                let common = canonical(r.common_dir());
                if !v.contains(&common) {
                    v.push(common);
                }
                v
            }
            None => Vec::new(),
        }
    }

    fn hooks_dir(&self) -> Option<PathBuf> {
        let repo = self.repo()?;
        match repo.config_string("core.hooksPath") {
            Some(p) if !p.is_empty() => {
                let p = PathBuf::from(p);
                let base = repo.workdir().unwrap_or(repo.common_dir());
                Some(canonical(&base.join(p)))
            }
            _ => Some(canonical(&repo.common_dir().join("hooks"))),
        }
    }

    fn loss(&self, paths: &[PathBuf]) -> Result<Loss, String> {
        let Some(repo) = self.repo() else {
            // No repository: every existing file is precious.
            let mut loss = Loss::default();
            for p in paths {
                count_files(p, &mut loss.untracked, 10_000);
            }
            return Ok(loss);
        };
        let Some(top) = repo.workdir().map(canonical) else {
            return Err("the repository has no working tree".into());
        };
        let mut rels = Vec::new();
        let mut loss = Loss::default();
        for p in paths {
            let rel = p
                .strip_prefix(&top)
                .map_err(|_| format!("{} is outside the working tree", p.display()))?;
            if repo.index_has_path(rel) {
                loss.tracked.push(p.clone());
            }
            let s = rel.to_str().ok_or("a path that is not UTF-8")?;
            rels.push(if s.is_empty() {
                ".".to_string()
            } else {
                s.to_string()
            });
        }
        if rels.is_empty() {
            return Ok(loss);
        }
        let mut args: Vec<String> = ["--literal-pathspecs"]
            .into_iter()
            .chain(status::ARGS)
            // Ignored too: the precious ones among them are work.
            .chain(["--untracked-files=all", "--ignored=matching", "--"])
            .map(str::to_string)
            .collect();
        args.extend(rels);
        let out = GitCommand::new(args)
            .dir(&top)
            .protected()
            // A question must not take the index lock an agent's git needs.
            .env("GIT_OPTIONAL_LOCKS", "0")
            .read()
            .map_err(|e| format!("git status failed: {e}"))?;
        let entries =
            status::parse(out.as_bytes()).map_err(|e| format!("git status printed {e}"))?;
        let mut ignored = Vec::new();
        for e in entries.into_iter().filter(|e| !e.path.is_empty()) {
            if e.kind == status::EntryKind::Ignored {
                ignored.push(e.path);
                continue;
            }
            let abs = top.join(&e.path);
            if e.tracked() {
                loss.modified.push(abs);
            } else {
                loss.untracked.push(abs);
            }
        }
        if !ignored.is_empty() {
            let rules = crate::shadow::ignored::Rules::of_repo(Some(repo));
            let mut precious = Vec::new();
            crate::shadow::ignored::precious_files(&top, &rules, &ignored, &mut precious);
            // Past the size the dirty set saves, a precious file is no less
            // precious.
            for rel in &ignored {
                if !rel.ends_with('/') && rules.is_precious(rel) && !precious.contains(rel) {
                    precious.push(rel.clone());
                }
            }
            // Our own store is protected by place, not counted here.
            loss.precious = precious
                .into_iter()
                .filter(|rel| !rel.starts_with(".fararoni/"))
                .map(|rel| top.join(rel))
                .collect();
        }
        Ok(loss)
    }

    fn stash_entries(&self) -> Option<usize> {
        self.stash_count()
    }

    fn archive_members(&self, program: &str, archive: &Path) -> Option<Vec<String>> {
        list_archive(program, archive)
    }

    fn staged_only(&self, paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
        let repo = self.repo()?;
        let top = canonical(repo.workdir()?);
        let mut args: Vec<String> = ["--literal-pathspecs"]
            .into_iter()
            .chain(status::ARGS)
            .chain(["--untracked-files=no", "--"])
            .map(str::to_string)
            .collect();
        for p in paths {
            let rel = p.strip_prefix(&top).ok()?.to_str()?;
            args.push(if rel.is_empty() {
                ".".into()
            } else {
                rel.to_string()
            });
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.ask(&refs)?;
        let mut lost = Vec::new();
        for e in status::parse(out.as_bytes()).ok()? {
            // Staged, and then changed again (or deleted) in the tree.
            let status::EntryKind::Changed {
                index: Some(_),
                worktree,
            } = e.kind
            else {
                continue;
            };
            if !e.staged || worktree == status::WorktreeSide::SameAsIndex {
                continue;
            }
            if worktree == status::WorktreeSide::Deleted
                || !self.staged_lines_in_tree(&top, &e.path)
            {
                lost.push(top.join(&e.path));
            }
        }
        Some(lost)
    }

    fn config_includes(&self) -> Vec<PathBuf> {
        self.includes.get_or_init(|| self.read_includes()).clone()
    }

    fn branches_holding_only(&self, names: &[String]) -> Option<Vec<String>> {
        self.only_on(names)
    }
}

impl GitLoss {
    /// `git ARGS` in the working tree (or git dir), read without taking
    /// locks an agent's git needs.
    fn ask(&self, args: &[&str]) -> Option<String> {
        let repo = self.repo()?;
        let dir = repo.workdir().unwrap_or(repo.git_dir()).to_path_buf();
        GitCommand::new(args.iter().copied())
            .dir(dir)
            .protected()
            .env("GIT_OPTIONAL_LOCKS", "0")
            .read()
            .ok()
    }

    /// `include.path` / `includeIf.*.path` values, resolved against the
    /// file that names them (git's own rule; `~/` is the home folder).
    fn read_includes(&self) -> Vec<PathBuf> {
        let Some(repo) = self.repo() else {
            return Vec::new();
        };
        let top = repo.workdir().unwrap_or(repo.git_dir()).to_path_buf();
        let Some(out) = self.ask(&[
            "config",
            "--show-origin",
            "-z",
            "--get-regexp",
            r"^include(if\..*)?\.path$",
        ]) else {
            return Vec::new();
        };
        let home = crate::settings::read::home_os().map(PathBuf::from);
        let fields: Vec<&str> = out.split('\0').collect();
        let mut v = Vec::new();
        for pair in fields.chunks(2) {
            let [origin, entry] = pair else { continue };
            let Some((_, value)) = entry.split_once('\n') else {
                continue;
            };
            let origin = origin.strip_prefix("file:").unwrap_or(origin);
            let base = top.join(origin);
            let target = if let Some(rest) = value.strip_prefix("~/") {
                match &home {
                    Some(h) => h.join(rest),
                    None => continue,
                }
            } else {
                base.parent()
                    .map_or_else(|| PathBuf::from(value), |d| d.join(value))
            };
            v.push(crate::policy::hook::paths::resolve_abs(&target, true));
        }
        v
    }

    /// Whether every line the index adds to `rel` (against HEAD) is still
    /// in the working tree's file: the edit went on after staging, and
    /// unstaging loses no text.
    fn staged_lines_in_tree(&self, top: &Path, rel: &str) -> bool {
        let Some(diff) = self.ask(&[
            "--literal-pathspecs",
            "diff",
            "--cached",
            "--no-color",
            "--no-ext-diff",
            "-U0",
            "--",
            rel,
        ]) else {
            return false;
        };
        let Ok(tree) = std::fs::read_to_string(top.join(rel)) else {
            return false;
        };
        let lines: std::collections::HashSet<&str> = tree.lines().collect();
        diff.lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
            .all(|l| lines.contains(&l[1..]))
    }

    fn stash_count(&self) -> Option<usize> {
        let refs = self.ask(&["for-each-ref", "--format=%(refname)", "refs/stash"])?;
        if refs.trim().is_empty() {
            return Some(0);
        }
        let list = self.ask(&["log", "-g", "--format=%H", "refs/stash", "--"])?;
        Some(list.lines().filter(|l| !l.trim().is_empty()).count().max(1))
    }

    fn only_on(&self, names: &[String]) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let named: Vec<String> = names.iter().map(|n| format!("refs/heads/{n}")).collect();
        for (name, full) in names.iter().zip(&named) {
            // A name that is no branch is refused by git: nothing lost.
            let Some(tip) =
                self.ask(&["rev-parse", "--verify", "-q", &format!("{full}^{{commit}}")])
            else {
                continue;
            };
            let tip = tip.trim().to_string();
            if tip.is_empty() {
                continue;
            }
            let holders = self.ask(&["for-each-ref", "--format=%(refname)", "--contains", &tip])?;
            let elsewhere = holders.lines().map(str::trim).any(|r| {
                // The stash and our own keep refs are not where anyone
                // looks for a branch's commits.
                !r.is_empty()
                    && r != "refs/stash"
                    && !r.starts_with("refs/fararoni/")
                    && !named.iter().any(|n| n == r)
            });
            if !elsewhere {
                out.push(name.clone());
            }
        }
        Some(out)
    }
}

/// The most bytes of an archive listing read: past it, the members are
/// taken as unknown.
const MAX_LISTING: usize = 16 << 20;

/// Lists an archive's members with its own program (`tar -tf`, `unzip
/// -Z1`, `7z l -slt`); `None` when the program is missing, fails, or the
/// listing is too long.
fn list_archive(program: &str, archive: &Path) -> Option<Vec<String>> {
    let mut cmd = std::process::Command::new(program);
    let sevenzip = matches!(program, "7z" | "7za" | "7zr" | "7zz");
    match program {
        "tar" | "gtar" | "bsdtar" => cmd.arg("-tf").arg(archive),
        "unzip" => cmd.arg("-Z1").arg(archive),
        _ if sevenzip => cmd.args(["l", "-slt", "-ba"]).arg(archive),
        _ => return None,
    };
    let out = cmd
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() || out.stdout.len() > MAX_LISTING {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let members: Vec<String> = if sevenzip {
        text.lines()
            .filter_map(|l| l.strip_prefix("Path = "))
            .map(str::to_string)
            .collect()
    } else {
        text.lines().map(str::to_string).collect()
    };
    Some(members.into_iter().filter(|m| !m.is_empty()).collect())
}

/// Counts the files at or under `p` (up to `limit`), for a place with no
/// repository to ask.
fn count_files(p: &Path, out: &mut Vec<PathBuf>, limit: usize) {
    if out.len() >= limit {
        return;
    }
    match p.symlink_metadata() {
        Ok(m) if m.is_dir() => {
            if let Ok(rd) = std::fs::read_dir(p) {
                for e in rd.flatten() {
                    count_files(&e.path(), out, limit);
                }
            }
        }
        Ok(_) => out.push(p.to_path_buf()),
        Err(_) => {}
    }
}
