//! Bringing the saved state back on undo: refs, HEAD, the index, config,
//! hooks, `info/` files and the stash's reflog, each reported as a
//! [`StateItem`].

use super::*;

/// What happened to one part of the repository's state on undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateItem {
    /// What it is: `ref refs/heads/x`, `HEAD`, `index`, `config`,
    /// `hooks/pre-commit`, `stash reflog`, ….
    pub what: String,
    /// What undo did.
    pub outcome: StateOutcome,
}

/// The outcome of restoring one part of the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateOutcome {
    /// Put back as it was before the session.
    Restored,
    /// Created by the session, and removed.
    Removed,
    /// Already as before the session.
    AlreadyAsBefore,
    /// Could not be brought back.
    Failed(String),
}

/// Puts back every ref, HEAD and state file `ledger` says the session
/// changed: refs first (created ones deleted), then HEAD, then the files
/// (hooks before config and the index, so no planted hook runs; the
/// stash's reflog last, after its ref).
pub(crate) fn restore(repo: &Repo, ledger: &Ledger) -> Vec<StateItem> {
    let mut items = Vec::new();
    // The ledger is in the git dir, but its hooks folder is only believed
    // where hooks can be: the git dir, the working tree, or the folder the
    // configuration names now. Never anywhere else on the machine.
    let roots = Roots::of(repo);
    let hooks = ledger
        .hooks_dir
        .clone()
        .filter(|h| roots.holds(h) || *h == hooks_dir(repo))
        .unwrap_or_else(|| repo.common_dir().join("hooks"));
    // Files first (config before hooks), before anything git might run.
    let mut keys: Vec<&String> = ledger.first.files.keys().collect();
    keys.sort_by_key(|k| {
        (
            match k.as_str() {
                "config" | "config.worktree" => 0,
                k if k.starts_with("hooks/") => 1,
                "logs/refs/stash" => 3,
                _ => 2,
            },
            k.to_string(),
        )
    });
    let (stash_log, files): (Vec<&String>, Vec<&String>) =
        keys.into_iter().partition(|k| *k == "logs/refs/stash");
    // A hooks folder of the repository is checked like any other place of
    // it (swapped for a symlink out, it is refused); one configured outside
    // it is a place of its own.
    let inside = hooks
        .parent()
        .and_then(real)
        .is_some_and(|p| roots.dirs.iter().any(|d| p.starts_with(d)));
    let allowed = Roots {
        dirs: roots
            .dirs
            .iter()
            .cloned()
            .chain(real(&hooks).filter(|_| !inside))
            .collect(),
    };
    for key in files {
        if let Some(item) = saga_changed_since(repo, &hooks, ledger, key) {
            items.push(item);
            continue;
        }
        items.push(restore_file(
            repo,
            &hooks,
            &allowed,
            key,
            &ledger.first.files[key],
        ));
    }
    let (current, head) = read_refs(repo).unwrap_or_default();
    let mut script = String::new();
    let mut symbolic: Vec<(&str, &str)> = Vec::new();
    let mut pending: Vec<(String, StateOutcome)> = Vec::new();
    for (name, first) in &ledger.first.refs {
        let what = format!("ref {name}");
        let now = current.get(name);
        match first {
            None if now.is_none() => pending.push((what, StateOutcome::AlreadyAsBefore)),
            None => {
                script.push_str(&format!("delete {name}\n"));
                pending.push((what, StateOutcome::Removed));
            }
            Some(v) if Some(v) == now => pending.push((what, StateOutcome::AlreadyAsBefore)),
            Some(v) => match v.strip_prefix("ref: ") {
                Some(target) => {
                    symbolic.push((name.as_str(), target));
                    pending.push((what, StateOutcome::Restored));
                }
                None => match revive(repo, ledger, v) {
                    Ok(()) => {
                        // A symbolic ref now at that name is replaced, not
                        // written through.
                        if now.is_some_and(|n| n.starts_with("ref: ")) {
                            script.push_str("option no-deref\n");
                        }
                        script.push_str(&format!("update {name} {v}\n"));
                        pending.push((what, StateOutcome::Restored));
                    }
                    Err(why) => items.push(StateItem {
                        what,
                        outcome: StateOutcome::Failed(why),
                    }),
                },
            },
        }
    }
    if !script.is_empty() {
        let cmd = git(repo, &["update-ref", "--stdin"]);
        let r = run_with_stdin(&cmd, script.as_bytes());
        if let Err(why) = r {
            // One ref at a time, to bring back all that can be.
            for (what, outcome) in pending.iter_mut() {
                if *outcome == StateOutcome::AlreadyAsBefore {
                    continue;
                }
                let name = what.trim_start_matches("ref ");
                let line = match ledger.first.refs.get(name) {
                    Some(Some(v)) if !v.starts_with("ref: ") => format!("update {name} {v}\n"),
                    Some(None) => format!("delete {name}\n"),
                    _ => continue,
                };
                if let Err(one) = run_with_stdin(&cmd, line.as_bytes()) {
                    *outcome = StateOutcome::Failed(format!("{one} ({why})"));
                }
            }
        }
    }
    for (name, target) in symbolic {
        if let Err(e) = git(repo, &["symbolic-ref", name, target]).read() {
            if let Some(p) = pending.iter_mut().find(|p| p.0 == format!("ref {name}")) {
                p.1 = StateOutcome::Failed(e.to_string());
            }
        }
    }
    items.extend(
        pending
            .into_iter()
            .map(|(what, outcome)| StateItem { what, outcome }),
    );
    if let Some(first) = &ledger.first.head {
        // HEAD moved after the session (the user switched to a saga they
        // started since) stays where the user put it, as a working file
        // changed since does: moving it would leave the saga's record
        // and HEAD disagreeing.
        let moved_since = ledger.last.as_ref().is_some_and(|l| l.head != head);
        let outcome = if *first == head {
            StateOutcome::AlreadyAsBefore
        } else if moved_since {
            StateOutcome::Failed("it moved after the session; left where it is".into())
        } else {
            let r = match first.strip_prefix("ref: ") {
                Some(target) => git(repo, &["symbolic-ref", "HEAD", target]).read(),
                None => git(repo, &["update-ref", "--no-deref", "HEAD", first]).read(),
            };
            match r {
                Ok(_) => StateOutcome::Restored,
                Err(e) => StateOutcome::Failed(e.to_string()),
            }
        };
        items.push(StateItem {
            what: "HEAD".into(),
            outcome,
        });
    }
    for key in stash_log {
        let mut item = restore_file(repo, &hooks, &allowed, key, &ledger.first.files[key]);
        item.what = "stash reflog (every stash entry)".into();
        items.push(item);
    }
    items
}

/// The saga's record, kept when it is no longer what the session last saw:
/// a saga started, finished or aborted after the session is the user's,
/// and putting the session's record back (or removing it) would lose it or
/// name a branch it no longer has. `None` for every other key, and for a
/// record the session left as it is now.
fn saga_changed_since(repo: &Repo, hooks: &Path, ledger: &Ledger, key: &str) -> Option<StateItem> {
    if key != SAGA_KEY {
        return None;
    }
    let path = key_path(repo, hooks, key)?;
    let now = std::fs::symlink_metadata(&path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|_| std::fs::read(&path).ok());
    let seen = ledger
        .last
        .as_ref()
        .and_then(|l| l.files.get(key))
        .map(|t| read_blob(repo, &t.blob));
    let unchanged = match (seen, &now) {
        (None, None) => true,
        (Some(Some(seen)), Some(now)) => seen == *now,
        _ => false,
    };
    (!unchanged).then(|| StateItem {
        what: key.to_string(),
        outcome: StateOutcome::Failed(
            "it changed after the session (a saga started or ended since); kept as it is".into(),
        ),
    })
}

/// Makes sure the object `id` exists, writing an annotated tag back from
/// the raw bytes the anchor kept.
pub(super) fn revive(repo: &Repo, ledger: &Ledger, id: &str) -> Result<(), String> {
    let g = repo.gix();
    let oid = gix::ObjectId::from_hex(id.as_bytes()).map_err(|e| e.to_string())?;
    if g.find_header(oid).is_ok() {
        return Ok(());
    }
    let missing = || format!("its object {id} is gone from the repository");
    let anchor = ledger
        .anchor
        .as_deref()
        .and_then(|a| gix::ObjectId::from_hex(a.as_bytes()).ok())
        .ok_or_else(missing)?;
    // Walk the anchors (each one's first parent is the previous anchor)
    // for the tag's raw bytes.
    let name = format!("g-{id}");
    let mut next = Some(anchor);
    while let Some(c) = next {
        let commit = g.find_commit(c).map_err(|_| missing())?;
        if !is_anchor(&commit) {
            break;
        }
        let tree = commit.tree().map_err(|_| missing())?;
        if let Some(e) = tree.find_entry(name.as_str()) {
            let raw = g.find_object(e.oid()).map_err(|_| missing())?.data.clone();
            let cmd = git(
                repo,
                &["hash-object", "-t", "tag", "-w", "--stdin", "--literally"],
            );
            let out = run_with_stdin(&cmd, &raw)?;
            return if out.trim() == id {
                Ok(())
            } else {
                Err(missing())
            };
        }
        next = commit.parent_ids().next().map(|p| p.detach());
    }
    Err(missing())
}

pub(super) fn is_anchor(c: &gix::Commit<'_>) -> bool {
    c.message_raw_sloppy()
        .starts_with(b"git-fararoni: objects kept for")
}

/// Runs `cmd` with `input` on its stdin; its stdout, or why it failed.
pub(super) fn run_with_stdin(cmd: &GitCommand, input: &[u8]) -> Result<String, String> {
    let out = cmd
        .output_with_stdin(input.to_vec())
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// Writes a state file back (or removes it, when the session created it).
pub(super) fn restore_file(
    repo: &Repo,
    hooks: &Path,
    allowed: &Roots,
    key: &str,
    first: &Option<Blob>,
) -> StateItem {
    let what = key.to_string();
    let refused = |what| StateItem {
        what,
        outcome: StateOutcome::Failed("not a place git-fararoni restores".into()),
    };
    let Some(path) = key_path(repo, hooks, key) else {
        return refused(what);
    };
    // A folder on the way replaced by a symlink to elsewhere is not
    // written through.
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
        if !real(parent).is_some_and(|p| allowed.dirs.iter().any(|d| p.starts_with(d))) {
            return refused(what);
        }
    }
    let outcome = match first {
        None => match std::fs::symlink_metadata(&path) {
            Err(_) => StateOutcome::AlreadyAsBefore,
            Ok(_) => match std::fs::remove_file(&path) {
                Ok(()) => StateOutcome::Removed,
                Err(e) => StateOutcome::Failed(e.to_string()),
            },
        },
        Some(b) => match read_blob(repo, &b.blob) {
            None => StateOutcome::Failed(format!(
                "its saved content (blob {}) is gone from the repository",
                b.blob
            )),
            Some(bytes) => {
                let same = std::fs::symlink_metadata(&path)
                    .is_ok_and(|m| m.is_file() && file_mode(&m) == b.mode)
                    && std::fs::read(&path).is_ok_and(|now| now == bytes);
                if same {
                    StateOutcome::AlreadyAsBefore
                } else {
                    match write_file(&path, &bytes, b.mode) {
                        Ok(()) => StateOutcome::Restored,
                        Err(e) => StateOutcome::Failed(e.to_string()),
                    }
                }
            }
        },
    };
    StateItem { what, outcome }
}

/// The folders state files may be restored in, canonical.
pub(super) struct Roots {
    dirs: Vec<PathBuf>,
}

impl Roots {
    /// The git dir, the common dir and the working tree of `repo`.
    fn of(repo: &Repo) -> Roots {
        let dirs = [
            Some(repo.git_dir()),
            Some(repo.common_dir()),
            repo.workdir(),
        ]
        .into_iter()
        .flatten()
        .filter_map(real)
        .collect();
        Roots { dirs }
    }

    /// Whether `path` (resolved as far as it exists) is in one of them.
    fn holds(&self, path: &Path) -> bool {
        let mut probe = path.to_path_buf();
        loop {
            if let Some(r) = real(&probe) {
                let rest = path.strip_prefix(&probe).unwrap_or(Path::new(""));
                let full = r.join(rest);
                return self.dirs.iter().any(|d| full.starts_with(d));
            }
            if !probe.pop() {
                return false;
            }
        }
    }
}

/// `path` with every symlink resolved, when it exists.
pub(super) fn real(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok()
}

/// Reads a git blob's content.
pub(crate) fn read_blob(repo: &Repo, id: &str) -> Option<Vec<u8>> {
    let oid = gix::ObjectId::from_hex(id.as_bytes()).ok()?;
    let obj = repo.gix().find_object(oid).ok()?;
    (obj.kind == gix::objs::Kind::Blob).then(|| obj.data.clone())
}

/// Replaces `path` with `bytes` and `mode`, atomically; a symlink or
/// folder in its place is replaced, never written through.
pub(super) fn write_file(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        std::fs::remove_dir_all(path)?;
    }
    crate::fsx::atomic::atomic_write(path, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    Ok(())
}
