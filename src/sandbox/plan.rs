//! From a [`Policy`] to what the kernel is asked: which directories are
//! writable, which protected paths are bound read-only over themselves, which
//! of their ancestors are pinned, and (Landlock-only level) which entries are
//! granted one by one.
//!
//! Everything here is canonical: mounts and Landlock rules act on what a path
//! resolves to, so a path is resolved once, here, and a protected path that is
//! a symbolic link inside a writable tree is refused (its name could be
//! replaced; see [`SandboxError::ProtectedSymlink`]).

use std::collections::BTreeSet;
use std::io;
use std::os::unix::ffi::OsStringExt as _;
use std::path::{Path, PathBuf};

use super::policy::{self, Writable};
use super::{Level, Policy, SandboxError};

/// The resolved plan for one contained run.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Canonical writable roots: the worktree, the temp dir, the caches that
    /// exist, and `policy.writable` (those that exist).
    pub writable: Vec<PathBuf>,
    /// Canonical protected paths that exist and lie in a writable root:
    /// bound read-only over themselves (Full level), shallowest first, none
    /// beneath another.
    pub read_only: Vec<PathBuf>,
    /// Directories between a writable root and a read-only path, bound over
    /// themselves (writable) so that they are mount points: renaming or
    /// removing a mount point fails with EBUSY, so the protected path cannot
    /// be moved away and replaced.
    pub pins: Vec<PathBuf>,
    /// Directories this plan created (empty placeholders for protected
    /// paths that did not exist yet).
    pub created: Vec<PathBuf>,
    /// Landlock-only level: the writable grants, one per entry, that avoid
    /// every protected path (Landlock rules only add, so a writable tree
    /// holding a protected path is granted entry by entry, skipping it).
    pub grants: Vec<PathBuf>,
    /// Full level: the unix sockets bound before the run that the command
    /// may reach (the ssh-agent's, with the network on); every other one
    /// is covered.
    pub reachable_socket: Option<PathBuf>,
}

/// Canonicalizes `p`, naming it in the error.
fn canonical(p: &Path, what: &'static str) -> Result<PathBuf, SandboxError> {
    p.canonicalize().map_err(|source| SandboxError::Resolve {
        what,
        path: p.to_owned(),
        source,
    })
}

/// The canonical forms found while building one plan: most protected paths
/// share a parent (the worktree), and each `canonicalize` reads a link per
/// component, so a path is resolved once.
#[derive(Default)]
struct Canon(std::collections::HashMap<PathBuf, Option<PathBuf>>);

impl Canon {
    /// `p` canonicalized, or `None` when it does not resolve.
    fn of(&mut self, p: &Path) -> Option<PathBuf> {
        if let Some(c) = self.0.get(p) {
            return c.clone();
        }
        // A path that is not there at all cannot resolve: one `lstat`
        // rather than a link read per component to find that out.
        let c = match std::fs::symlink_metadata(p) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            _ => p.canonicalize().ok(),
        };
        self.0.insert(p.to_owned(), c.clone());
        c
    }

    /// Resolves `p` without following a final symbolic link: its parent is
    /// canonicalized, its last component kept as given. `None` when the
    /// parent does not exist.
    fn parent_of(&mut self, p: &Path) -> Option<PathBuf> {
        let name = p.file_name()?;
        let parent = self.of(p.parent()?)?;
        Some(parent.join(name))
    }
}

impl Plan {
    /// Builds the plan for `policy` at `level`, given the extra writable
    /// directories resolved from the environment (temp dir and caches).
    ///
    /// Creates an empty directory for a protected path that does not exist
    /// yet in a writable tree (see the module docs of `sandbox`).
    pub fn build(policy: &Policy, level: Level, extra: &[Writable]) -> Result<Self, SandboxError> {
        let mut plan = Plan::default();
        let worktree = canonical(&policy.worktree, "worktree")?;
        let mut canon = Canon::default();
        canon
            .0
            .insert(policy.worktree.clone(), Some(worktree.clone()));
        canon.0.insert(worktree.clone(), Some(worktree.clone()));
        if !worktree.is_dir() {
            return Err(SandboxError::Resolve {
                what: "worktree",
                path: policy.worktree.clone(),
                source: io::Error::from(io::ErrorKind::NotADirectory),
            });
        }
        plan.writable.push(worktree);
        // A missing cache or temp dir is simply not writable; a missing
        // `fararoni.sandbox.writable` entry likewise (the setting may name a
        // folder a later build creates elsewhere).
        for w in extra
            .iter()
            .map(|w| w.path.as_path())
            .chain(policy.writable.iter().map(PathBuf::as_path))
        {
            if let Some(c) = canon.of(w) {
                if c.is_dir() && !plan.writable.contains(&c) {
                    plan.writable.push(c);
                }
            }
        }

        let mut protected: BTreeSet<PathBuf> = BTreeSet::new();
        for p in &policy.protected {
            if let Some(ro) = plan.protect(&mut canon, &policy.worktree, p, level)? {
                protected.insert(ro);
            }
        }
        // Keep only the shallowest of nested protected paths: a bind of
        // `.git` already covers `.git/hooks`.
        let mut read_only: Vec<PathBuf> = Vec::new();
        for p in protected {
            if !read_only.iter().any(|r| p.starts_with(r)) {
                read_only.push(p);
            }
        }
        plan.read_only = read_only;

        match level {
            Level::Full => plan.pins = pins(&plan.writable, &plan.read_only),
            Level::Landlock => {
                for w in &plan.writable {
                    grant_around(w, &plan.read_only, &mut plan.grants)?;
                }
            }
            Level::None | Level::SandboxExec => {}
        }
        Ok(plan)
    }

    /// Resolves one protected path: returns the path to make read-only, or
    /// `None` when it lies outside every writable root (read-only already).
    fn protect(
        &mut self,
        canon: &mut Canon,
        worktree: &Path,
        p: &Path,
        level: Level,
    ) -> Result<Option<PathBuf>, SandboxError> {
        // A folder on the way from the worktree to `p` that is a symbolic
        // link (`.github` → elsewhere, for `.github/hooks`) would let the
        // command replace the link with a real folder and write `p` there:
        // refused like a protected path that is a link itself.
        let inside = p
            .ancestors()
            .skip(1)
            .take_while(|a| *a != worktree && a.starts_with(worktree));
        for a in inside {
            if std::fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(SandboxError::ProtectedSymlink { path: a.to_owned() });
            }
        }
        let Some(resolved) = canon.parent_of(p) else {
            // The parent does not exist: find the nearest existing ancestor.
            return self.protect_missing(canon, p, level);
        };
        let meta = std::fs::symlink_metadata(&resolved);
        let root = self.root_of(&resolved);
        match meta {
            Ok(m) if m.file_type().is_symlink() => {
                if root.is_some() {
                    return Err(SandboxError::ProtectedSymlink { path: p.to_owned() });
                }
                // Outside the writable trees the link itself cannot be
                // replaced; protect what it points to if that is writable.
                let target = canonical(p, "protected path")?;
                Ok(self.root_of(&target).map(|_| target))
            }
            Ok(_) => Ok(root.map(|_| resolved)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.protect_missing(canon, &resolved, level)
            }
            Err(source) => Err(SandboxError::Resolve {
                what: "protected path",
                path: p.to_owned(),
                source,
            }),
        }
    }

    /// A protected path that does not exist: at the Full level, protect the
    /// directory that would hold it, creating an empty placeholder when that
    /// directory would be a writable root itself. At the Landlock level
    /// nothing is needed: what is not granted cannot be created.
    fn protect_missing(
        &mut self,
        canon: &mut Canon,
        p: &Path,
        level: Level,
    ) -> Result<Option<PathBuf>, SandboxError> {
        // Nearest existing ancestor, canonical.
        let mut missing: Vec<&std::ffi::OsStr> = Vec::new();
        let mut cur = p;
        let existing = loop {
            match canon.of(cur) {
                Some(c) => break c,
                None => {
                    let (Some(parent), Some(name)) = (cur.parent(), cur.file_name()) else {
                        return Ok(None);
                    };
                    missing.push(name);
                    cur = parent;
                }
            }
        };
        let Some(root) = self.root_of(&existing) else {
            return Ok(None);
        };
        if level != Level::Full {
            return Ok(Some(
                existing.join(missing.iter().rev().collect::<PathBuf>()),
            ));
        }
        if existing != root {
            // `.claude/` exists, `.claude/settings.json` does not: the whole
            // `.claude/` becomes read-only, so the file cannot be created.
            return Ok(Some(existing));
        }
        // `.fararoni/` does not exist yet in the worktree: create it empty
        // (git shows no empty directory) so that it can be bound read-only.
        let first = missing.last().copied().unwrap_or_default();
        let placeholder = existing.join(first);
        std::fs::create_dir(&placeholder).map_err(|source| SandboxError::CreatePlaceholder {
            path: placeholder.clone(),
            source,
        })?;
        // It exists now: a later path beneath it resolves anew.
        canon.0.remove(&placeholder);
        self.created.push(placeholder.clone());
        Ok(Some(placeholder))
    }

    /// Returns the writable root that holds `p`, if any.
    fn root_of(&self, p: &Path) -> Option<PathBuf> {
        self.writable
            .iter()
            .find(|w| policy::is_beneath(p, w))
            .cloned()
    }
}

impl Plan {
    /// The plan as bytes, for the helper that carries it out (see
    /// [`Plan::decode`]): each list as a count and length-prefixed raw
    /// paths, then the reachable socket, if any.
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let path = |out: &mut Vec<u8>, p: &Path| {
            let b = p.as_os_str().as_encoded_bytes();
            out.extend((b.len() as u64).to_le_bytes());
            out.extend(b);
        };
        for list in [
            &self.writable,
            &self.read_only,
            &self.pins,
            &self.created,
            &self.grants,
        ] {
            out.extend((list.len() as u64).to_le_bytes());
            for p in list {
                path(&mut out, p);
            }
        }
        match &self.reachable_socket {
            Some(p) => {
                out.push(1);
                path(&mut out, p);
            }
            None => out.push(0),
        }
        out
    }

    /// Reads what [`Plan::encode`] wrote; `None` when it is not that.
    pub(super) fn decode(mut bytes: &[u8]) -> Option<Plan> {
        fn number(b: &mut &[u8]) -> Option<usize> {
            let (n, rest) = b.split_first_chunk::<8>()?;
            *b = rest;
            usize::try_from(u64::from_le_bytes(*n)).ok()
        }
        fn path(b: &mut &[u8]) -> Option<PathBuf> {
            let n = number(b)?;
            let (p, rest) = (b.get(..n)?, b.get(n..)?);
            *b = rest;
            Some(PathBuf::from(std::ffi::OsString::from_vec(p.to_vec())))
        }
        let mut lists: Vec<Vec<PathBuf>> = Vec::with_capacity(5);
        for _ in 0..5 {
            let n = number(&mut bytes)?;
            let list = (0..n)
                .map(|_| path(&mut bytes))
                .collect::<Option<Vec<_>>>()?;
            lists.push(list);
        }
        let (flag, mut rest) = bytes.split_first()?;
        let reachable_socket = match flag {
            0 => None,
            1 => Some(path(&mut rest)?),
            _ => return None,
        };
        if !rest.is_empty() {
            return None;
        }
        let mut lists = lists.into_iter();
        Some(Plan {
            writable: lists.next()?,
            read_only: lists.next()?,
            pins: lists.next()?,
            created: lists.next()?,
            grants: lists.next()?,
            reachable_socket,
        })
    }
}

/// Returns every directory strictly between a writable root and a read-only
/// path, shallowest first, including writable roots nested in another
/// (the worktree inside the temp dir).
fn pins(writable: &[PathBuf], read_only: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: BTreeSet<PathBuf> = BTreeSet::new();
    for ro in read_only {
        for w in writable {
            if ro == w || !ro.starts_with(w) {
                continue;
            }
            let mut a = ro.parent();
            while let Some(dir) = a {
                if dir == w.as_path() || !dir.starts_with(w) {
                    break;
                }
                out.insert(dir.to_owned());
                a = dir.parent();
            }
        }
    }
    // BTreeSet order puts a parent before its children.
    out.into_iter().collect()
}

/// Landlock-only level: grants `dir` whole when it holds no protected path;
/// otherwise grants each entry that is not protected, recursing into the
/// entries that hold one. Symbolic links are skipped: a rule follows them,
/// and a link pointing out would grant its target.
fn grant_around(
    dir: &Path,
    read_only: &[PathBuf],
    out: &mut Vec<PathBuf>,
) -> Result<(), SandboxError> {
    if read_only.iter().any(|r| dir.starts_with(r)) {
        return Ok(());
    }
    if !read_only.iter().any(|r| r.starts_with(dir)) {
        out.push(dir.to_owned());
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|source| SandboxError::Resolve {
        what: "directory holding a protected path",
        path: dir.to_owned(),
        source,
    })?;
    for e in entries.flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_symlink() {
            continue;
        }
        grant_around(&e.path(), read_only, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn policy(worktree: &Path, protected: &[&str]) -> Policy {
        Policy {
            worktree: worktree.to_owned(),
            protected: protected.iter().map(|p| worktree.join(p)).collect(),
            writable: Vec::new(),
            network: false,
        }
    }

    #[test]
    fn sandbox_plan_resolves_a_placeholder_it_just_made_anew() {
        // `.github/hooks` makes the placeholder `.github`; `.github/copilot`
        // then lies in a folder that exists (read-only as a whole), not in
        // a missing one to make again.
        let t = tempfile::tempdir().expect("tempdir");
        let wt = t.path().canonicalize().expect("canonical");
        fs::create_dir(wt.join(".git")).expect("mkdir");
        let p = policy(&wt, &[".git", ".github/hooks", ".github/copilot"]);
        let plan = Plan::build(&p, Level::Full, &[]).expect("plan");
        assert_eq!(plan.created, vec![wt.join(".github")]);
        assert!(plan.read_only.contains(&wt.join(".github")), "{plan:?}");
        for c in &plan.created {
            fs::remove_dir(c).expect("rmdir");
        }
    }

    #[test]
    fn sandbox_plan_binds_existing_and_placeholders_missing_top_level_dirs() {
        let t = tempfile::tempdir().expect("tempdir");
        let wt = t.path().canonicalize().expect("canonical");
        fs::create_dir_all(wt.join(".git/hooks")).expect("mkdir");
        fs::create_dir_all(wt.join(".claude")).expect("mkdir");
        let p = policy(
            &wt,
            &[
                ".git",
                ".git/hooks",
                ".fararoni",
                ".claude/settings.json",
                ".gemini/settings.json",
            ],
        );
        let plan = Plan::build(&p, Level::Full, &[]).expect("plan");
        assert_eq!(
            plan.read_only,
            vec![
                wt.join(".claude"),
                wt.join(".fararoni"),
                wt.join(".gemini"),
                wt.join(".git")
            ]
        );
        assert_eq!(plan.created, vec![wt.join(".fararoni"), wt.join(".gemini")]);
        assert!(wt.join(".fararoni").is_dir() && wt.join(".gemini").is_dir());
        assert!(
            plan.pins.is_empty(),
            "top-level paths need no pin: {:?}",
            plan.pins
        );
    }

    #[test]
    fn sandbox_plan_pins_ancestors_inside_writable_roots() {
        let t = tempfile::tempdir().expect("tempdir");
        let base = t.path().canonicalize().expect("canonical");
        let wt = base.join("a/repo");
        fs::create_dir_all(wt.join(".github/hooks")).expect("mkdir");
        fs::write(wt.join(".github/hooks/h.json"), "{}").expect("write");
        let p = policy(&wt, &[".github/hooks/h.json"]);
        let extra = [Writable {
            path: base.clone(),
            why: "temp",
        }];
        let plan = Plan::build(&p, Level::Full, &extra).expect("plan");
        assert_eq!(plan.read_only, vec![wt.join(".github/hooks/h.json")]);
        assert_eq!(
            plan.pins,
            vec![
                base.join("a"),
                wt.clone(),
                wt.join(".github"),
                wt.join(".github/hooks")
            ]
        );
    }

    #[test]
    fn sandbox_plan_refuses_a_protected_symlink_in_the_worktree() {
        let t = tempfile::tempdir().expect("tempdir");
        let wt = t.path().canonicalize().expect("canonical");
        fs::create_dir(wt.join("elsewhere")).expect("mkdir");
        std::os::unix::fs::symlink(wt.join("elsewhere"), wt.join(".fararoni")).expect("symlink");
        let err = Plan::build(&policy(&wt, &[".fararoni"]), Level::Full, &[]).expect_err("symlink");
        assert!(
            matches!(err, SandboxError::ProtectedSymlink { .. }),
            "{err}"
        );
    }

    #[test]
    fn sandbox_plan_landlock_level_grants_around_protected_entries() {
        let t = tempfile::tempdir().expect("tempdir");
        let wt = t.path().canonicalize().expect("canonical");
        for d in [".git", "src", ".claude/commands"] {
            fs::create_dir_all(wt.join(d)).expect("mkdir");
        }
        fs::write(wt.join("README"), "x").expect("write");
        fs::write(wt.join(".claude/settings.json"), "{}").expect("write");
        std::os::unix::fs::symlink("/etc", wt.join("out")).expect("symlink");
        let p = policy(&wt, &[".git", ".claude/settings.json", ".fararoni"]);
        let mut plan = Plan::build(&p, Level::Landlock, &[]).expect("plan");
        plan.grants.sort();
        assert_eq!(
            plan.grants,
            vec![
                wt.join(".claude/commands"),
                wt.join("README"),
                wt.join("src")
            ]
        );
        assert!(
            plan.created.is_empty(),
            "the Landlock level creates nothing"
        );
    }

    #[test]
    fn sandbox_plan_survives_the_pipe_to_the_helper_byte_for_byte() {
        use std::os::unix::ffi::OsStrExt as _;
        let raw = |b: &[u8]| PathBuf::from(std::ffi::OsStr::from_bytes(b));
        let plan = Plan {
            writable: vec![raw(b"/w/tree"), raw(b"/tmp")],
            read_only: vec![raw(b"/w/tree/.git"), raw(b"/w/tree/\xff\n odd")],
            pins: vec![],
            created: vec![raw(b"/w/tree/.claude")],
            grants: vec![raw(b"")],
            reachable_socket: Some(raw(b"/run/agent.sock")),
        };
        let bytes = plan.encode();
        let back = Plan::decode(&bytes).expect("decodes");
        for (a, b) in [
            (&plan.writable, &back.writable),
            (&plan.read_only, &back.read_only),
            (&plan.pins, &back.pins),
            (&plan.created, &back.created),
            (&plan.grants, &back.grants),
        ] {
            assert_eq!(a, b);
        }
        assert_eq!(plan.reachable_socket, back.reachable_socket);
        // Anything cut short or with bytes left over is refused, never
        // half-read.
        for n in 0..bytes.len() {
            assert!(Plan::decode(&bytes[..n]).is_none(), "cut at {n}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Plan::decode(&longer).is_none());
        let none = Plan::default().encode();
        assert!(Plan::decode(&none).is_some_and(|p| p.reachable_socket.is_none()));
    }
}
