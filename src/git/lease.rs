//! What a bare `git push --force-with-lease` would overwrite that the
//! pushing branch never included.
//!
//! A bare lease expects the remote's ref to be where our remote-tracking
//! ref says. Anything that moves the remote-tracking ref — an agent's own
//! `git fetch`, an editor's background fetch — makes the lease vouch for
//! commits nobody here ever saw, and the push then deletes them from the
//! remote. git's answer is `--force-if-includes`: go ahead only if the
//! remote-tracking tip is reachable from some reflog entry of the local
//! branch (it was integrated once: a rebase onto it, or the branch's own
//! commit before an amend). This module asks that same question in
//! process, so a lease without that option is judged as git would judge
//! it with the option.

use gix::ObjectId;

use super::Repo;

/// The most reflog entries looked at: the recent past is where an amend or
/// a rebase put the remote-tracking tip; an old entry that includes it
/// would make the walk long for nothing.
const REFLOG_ENTRIES: usize = 200;

/// One remote ref a lease would overwrite with commits not included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unseen {
    /// The remote-tracking ref (`origin/main`).
    pub tracking: String,
    /// Its tip, abbreviated.
    pub tip: String,
    /// The local branch or revision pushed.
    pub source: String,
}

impl Repo {
    /// The refs that `git push --force-with-lease [REMOTE [REFSPEC…]]`
    /// would overwrite although the pushed branch never included their
    /// remote-tracking tip. Empty when every lease is safe or cannot be
    /// known (a URL for a remote, no remote-tracking ref: git then expects
    /// the ref to be absent, which loses nothing).
    pub fn lease_unseen(&self, remote: Option<&str>, refspecs: &[String]) -> Vec<Unseen> {
        let repo = self.gix();
        let current = repo
            .head_name()
            .ok()
            .flatten()
            .map(|n| n.shorten().to_string());
        let remote = match remote {
            Some(r) => r.to_string(),
            None => self.push_remote(current.as_deref()),
        };
        let mut pushes: Vec<(String, String)> = Vec::new();
        if refspecs.is_empty() {
            if let Some(branch) = &current {
                pushes.push((branch.clone(), self.push_destination(branch, &remote)));
            }
        }
        for spec in refspecs {
            let spec = spec.trim_start_matches('+');
            let (src, dst) = match spec.split_once(':') {
                Some((s, d)) => (s.to_string(), d.to_string()),
                None => (spec.to_string(), String::new()),
            };
            if src.is_empty() {
                continue; // a deletion: judged as one before this
            }
            let src_branch = match (src.as_str(), &current) {
                ("HEAD" | "@", Some(b)) => b.clone(),
                _ => src.trim_start_matches("refs/heads/").to_string(),
            };
            let dst = if dst.is_empty() {
                if src == "HEAD" || src == "@" {
                    self.push_destination(&src_branch, &remote)
                } else {
                    src_branch.clone()
                }
            } else {
                remote_branch(&dst)
            };
            pushes.push((src_branch, dst));
        }
        pushes
            .into_iter()
            .filter_map(|(src, dst)| self.unseen(&remote, &src, &dst))
            .collect()
    }

    /// The remote a push without one goes to, as git picks it.
    fn push_remote(&self, branch: Option<&str>) -> String {
        let keys = branch
            .map(|b| vec![format!("branch.{b}.pushRemote")])
            .unwrap_or_default()
            .into_iter()
            .chain(["remote.pushDefault".to_string()])
            .chain(branch.map(|b| format!("branch.{b}.remote")));
        keys.into_iter()
            .find_map(|k| self.config_string(&k))
            .unwrap_or_else(|| "origin".into())
    }

    /// The remote branch a push of `branch` to `remote` updates: its
    /// upstream under `push.default` simple/upstream when the upstream is
    /// on that remote, else the same name.
    fn push_destination(&self, branch: &str, remote: &str) -> String {
        let mode = self
            .config_string("push.default")
            .unwrap_or_else(|| "simple".into());
        let upstream_remote = self.config_string(&format!("branch.{branch}.remote"));
        let merge = self.config_string(&format!("branch.{branch}.merge"));
        match (mode.as_str(), upstream_remote, merge) {
            ("simple" | "upstream" | "tracking", Some(r), Some(m)) if r == remote => {
                m.trim_start_matches("refs/heads/").to_string()
            }
            _ => branch.to_string(),
        }
    }

    /// Whether pushing `src` over `remote`'s `dst` under a bare lease
    /// discards the remote-tracking tip (`None`: it does not, or nothing
    /// is known).
    fn unseen(&self, remote: &str, src: &str, dst: &str) -> Option<Unseen> {
        let repo = self.gix();
        let tracking = format!("refs/remotes/{remote}/{dst}");
        let tip = repo
            .find_reference(tracking.as_str())
            .ok()?
            .into_fully_peeled_id()
            .ok()?
            .detach();
        let pushed = repo
            .rev_parse_single(src)
            .ok()?
            .object()
            .ok()?
            .peel_to_commit()
            .ok()?
            .id;
        let mut candidates = vec![pushed];
        let local = if src == "HEAD" || src == "@" {
            "HEAD".to_string()
        } else {
            format!("refs/heads/{src}")
        };
        if let Ok(reference) = repo.find_reference(local.as_str()) {
            let mut platform = reference.log_iter();
            if let Ok(Some(lines)) = platform.rev() {
                for line in lines.take(REFLOG_ENTRIES).flatten() {
                    if !candidates.contains(&line.new_oid) {
                        candidates.push(line.new_oid);
                    }
                }
            }
        }
        let included = |c: ObjectId| {
            c == tip
                || repo
                    .merge_base(tip, c)
                    .ok()
                    .flatten()
                    .is_some_and(|b| b.detach() == tip)
        };
        if candidates.into_iter().any(included) {
            return None;
        }
        Some(Unseen {
            tracking: format!("{remote}/{dst}"),
            tip: tip.to_hex_with_len(7).to_string(),
            source: src.to_string(),
        })
    }
}

/// The branch a push destination names on the remote, as git's DWIM
/// matches it there: `refs/heads/X`, and `heads/X` too (git tries
/// `refs/%s` before `refs/heads/%s`, so `main:heads/main` updates `main`).
fn remote_branch(dst: &str) -> String {
    let d = dst.strip_prefix("refs/").unwrap_or(dst);
    d.strip_prefix("heads/").unwrap_or(dst).to_string()
}
