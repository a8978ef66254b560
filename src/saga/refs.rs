//! The refs a saga's git actions changed besides its own branch: a tag or
//! a branch the agent created or moved, HEAD switched off the wip branch.
//! The agent's tools read every ref before and after each git write they
//! run in the saga and record the difference in `saga.json`
//! ([`record`]): for each ref, its value before the saga first changed it
//! and after the latest change. `saga abort` puts each one back
//! ([`restore`]) — a created ref is deleted, a moved or deleted one set to
//! where it was — unless something else moved it since; what it removes
//! or overwrites stays under `refs/fararoni/aborted-refs/<id>/`, so
//! nothing the saga made is lost.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ops::Ctx;
use super::state::{self, Saga};
use super::SagaError;
use crate::git::run::Actor;

/// Refs never recorded: our own namespace (snapshots, keeps, aborted tips).
const OWN: &str = "refs/fararoni/";

/// Where an abort keeps the values it removed or overwrote.
const KEPT: &str = "refs/fararoni/aborted-refs/";

/// One ref (or `HEAD`) the saga's git actions changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefChange {
    /// The full ref name, or `HEAD`.
    pub name: String,
    /// Its value before the saga first changed it (an object id, or for
    /// HEAD `ref: refs/heads/…` when on a branch); `None`: it did not exist.
    pub before: Option<String>,
    /// Its value after the latest change; `None`: deleted.
    pub after: Option<String>,
}

/// What [`restore`] did with one recorded ref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The ref.
    pub name: String,
    /// `deleted` (the saga created it), `reset` (moved back), `recreated`
    /// (the saga deleted it), or `left` (moved since by something else,
    /// so left as it is).
    pub action: &'static str,
    /// Where the value it had is kept, when it had one.
    pub kept: Option<String>,
}

/// Every ref of the repository but ours, and HEAD: name → value.
pub fn values(dir: &Path) -> Result<BTreeMap<String, String>, SagaError> {
    let ctx = Ctx::open(dir, Actor::Agent)?;
    values_of(&ctx)
}

pub(crate) fn values_of(ctx: &Ctx) -> Result<BTreeMap<String, String>, SagaError> {
    let mut out = BTreeMap::new();
    let list = ctx.read(&["for-each-ref", "--format=%(objectname) %(refname)"])?;
    for line in list.lines() {
        if let Some((id, name)) = line.split_once(' ') {
            if !name.starts_with(OWN) {
                out.insert(name.to_string(), id.to_string());
            }
        }
    }
    match ctx.head_ref()? {
        Some(r) => {
            out.insert("HEAD".into(), format!("ref: {r}"));
        }
        None => {
            if let Some(id) = ctx.rev("HEAD")? {
                out.insert("HEAD".into(), id);
            }
        }
    }
    Ok(out)
}

/// The changes between two readings, without the saga's own branch (its
/// commits are the saga's work) and HEAD staying on it.
fn diff(
    saga: &Saga,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<RefChange> {
    let wip = saga.wip_ref();
    let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| **n != wip)
        .filter(|n| before.get(*n) != after.get(*n))
        .map(|n| RefChange {
            name: n.clone(),
            before: before.get(n).cloned(),
            after: after.get(n).cloned(),
        })
        .collect()
}

/// Records in the saga of the worktree at `dir` the refs that differ
/// between `before` and `after` (readings of [`values`] around one git
/// action), keeping each ref's first `before`. Returns what changed in
/// this action; nothing is recorded when no saga is active.
pub fn record(
    dir: &Path,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Result<Vec<RefChange>, SagaError> {
    let ctx = Ctx::open(dir, Actor::Agent)?;
    let _lock = ctx.lock()?;
    let path = ctx.state_path();
    let Some(mut saga) = state::load(&path)? else {
        return Ok(Vec::new());
    };
    let changes = diff(&saga, before, after);
    if changes.is_empty() {
        return Ok(changes);
    }
    for c in &changes {
        match saga.refs.iter_mut().find(|r| r.name == c.name) {
            Some(r) => r.after = c.after.clone(),
            None => saga.refs.push(c.clone()),
        }
    }
    // A ref back where it was is no change any more.
    saga.refs.retain(|r| r.before != r.after);
    state::save(&path, &saga)?;
    Ok(changes)
}

/// Whether HEAD's current value is where the saga's own git actions left
/// it (so an abort may start from there).
pub(crate) fn head_moved_by_saga(saga: &Saga, head: Option<&str>, id: Option<&str>) -> bool {
    let now = match (head, id) {
        (Some(r), _) => format!("ref: {r}"),
        (None, Some(id)) => id.to_string(),
        (None, None) => return false,
    };
    saga.refs
        .iter()
        .any(|r| r.name == "HEAD" && r.after.as_deref() == Some(now.as_str()))
}

/// Puts back every ref the saga recorded, HEAD and the original branch
/// aside (the abort itself returns to the original branch). A ref is put
/// back only while it is where the saga left it.
pub(crate) fn restore(ctx: &Ctx, saga: &Saga) -> Result<Vec<Restored>, SagaError> {
    let now = values_of(ctx)?;
    let mut done = Vec::new();
    for r in &saga.refs {
        if r.name == "HEAD" || r.name == saga.original_ref() || r.name.starts_with(OWN) {
            continue;
        }
        let current = now.get(&r.name);
        if current == r.before.as_ref() {
            // Already back (an abort run again).
            continue;
        }
        if current != r.after.as_ref() {
            done.push(Restored {
                name: r.name.clone(),
                action: "left",
                kept: None,
            });
            continue;
        }
        let kept = match &r.after {
            Some(value) => {
                let keep = format!("{KEPT}{}/{}", saga.id, r.name);
                ctx.update_ref(&keep, value, "fararoni: saga abort keeps a ref it restores")?;
                Some(keep)
            }
            None => None,
        };
        let reason = format!("fararoni: saga {} aborted", saga.id);
        let action = match (&r.before, &r.after) {
            (None, Some(after)) => {
                ctx.run(&["update-ref", "-m", &reason, "-d", &r.name, after])?;
                "deleted"
            }
            (Some(before), Some(after)) => {
                ctx.run(&["update-ref", "-m", &reason, &r.name, before, after])?;
                "reset"
            }
            (Some(before), None) => {
                ctx.run(&["update-ref", "-m", &reason, &r.name, before, ""])?;
                "recreated"
            }
            (None, None) => continue,
        };
        done.push(Restored {
            name: r.name.clone(),
            action,
            kept,
        });
    }
    Ok(done)
}
