//! [`Tx::save_all`]: many backups with one durability point, for a
//! snapshot of the dirty set.
//!
//! One [`Tx::save`] per file pays a journal write, a data write-out and
//! (per step) folder fsyncs for each file: most of a snapshot's time. A
//! snapshot is a backup, not a change: nothing in the working tree waits
//! on it, so its files can share each step. The order of one save is kept
//! for the whole batch: every version's journal line, then all the data
//! made durable (with the journal), then the names, then one commit. A
//! crash leaves no version name without its data and journal line; a
//! journal line whose version never got its name is what an interrupted
//! single save leaves too (the version is simply absent), and the staged
//! objects carry the operation ids the sweep recognises.

use std::collections::HashSet;
use std::fs::File;
use std::path::PathBuf;

use super::{op_id, remove_own_temp, stage_file, Plan, Temps, Tx};
use crate::fsx::dir::Dir;
use crate::shadow::journal::{Entry, Op};
use crate::shadow::paths::RepoPath;
use crate::shadow::store::{Current, Replaced};
use crate::shadow::ShadowError;

/// The most files staged at once: each is an open descriptor until its
/// data is written out (a process may have as few as 1,024).
const STAGE_FILES: usize = 256;

/// One new version of the batch.
struct Todo {
    item: usize,
    plan: Plan,
    temps: Temps,
    id: String,
    /// This batch staged the object (else it already exists, or an earlier
    /// file of the batch stages the same content).
    staged: bool,
}

impl Tx<'_> {
    /// Saves each `(path, content)` as the path's newest version without
    /// changing the file, as [`Tx::save`] does one by one, with one
    /// durability point for the batch (and one data write-out per
    /// [`STAGE_FILES`] files). Returns what each save did, in order.
    pub fn save_all(
        &mut self,
        items: &[(RepoPath, Current)],
    ) -> Result<Vec<Replaced>, ShadowError> {
        let mut out = Vec::with_capacity(items.len());
        let mut todo = Vec::new();
        let mut shas = HashSet::new();
        for (item, (path, cur)) in items.iter().enumerate() {
            let plan = self.settled(|tx| tx.plan_backup(path, cur))?;
            let (backup, new_backup) = plan.version();
            out.push(Replaced {
                changed: new_backup,
                backup: Some(backup),
                new_backup,
            });
            if !new_backup {
                continue;
            }
            let id = op_id();
            let staged = !plan.obj_exists && shas.insert(plan.sha.clone());
            todo.push(Todo {
                item,
                temps: Temps::new(&path.rel, &id),
                plan,
                id,
                staged,
            });
        }
        if todo.is_empty() {
            return Ok(out);
        }
        let lines: Vec<Entry> = todo
            .iter()
            .map(|t| {
                let mut e = Entry::new(self.session.id(), Op::Backup, items[t.item].0.rel.as_str());
                e.version = Some(t.plan.number);
                e.sha256 = Some(t.plan.sha.clone());
                e.size = Some(t.plan.size);
                e.mode = Some(t.plan.mode);
                e.id = Some(t.id.clone());
                e
            })
            .collect();
        self.journal.append(&lines, false)?;
        let published = self.save_steps(items, &mut todo);
        let done = |t: &Todo, ok: bool| {
            let mut e = Entry::new(self.session.id(), Op::Done, items[t.item].0.rel.as_str());
            e.id = Some(t.id.clone());
            if !ok {
                e.applied = Some(false);
                e.note = Some("failed; the working file was not changed".into());
            }
            e
        };
        let (count, failure) = match published {
            Ok(n) => (n, None),
            Err((n, e)) => (n, Some(e)),
        };
        let dones: Vec<Entry> = todo
            .iter()
            .enumerate()
            .map(|(i, t)| done(t, i < count))
            .collect();
        if let Some(e) = failure {
            for t in &todo[count..] {
                let _ = remove_own_temp(&self.dirs.objects, &t.temps.obj);
            }
            let _ = self.journal.append(&dones, false);
            return Err(e);
        }
        // The one commit: where directory operations are ordered, this
        // fsync makes every name above durable (after their data); per
        // step, the folders were synced already.
        let per_step = self.durability.for_device(self.dirs.root.dev()).per_step();
        self.journal.append(&dones, !per_step)?;
        // Retention trims the store; a failure there never undoes a
        // completed save, and the next write or `shadow prune` retries.
        let mut added = 0u64;
        let mut last = None;
        for t in todo {
            let rel = &items[t.item].0.rel;
            if t.staged {
                added += t.plan.size;
            }
            let _ = self.enforce_retention(rel, None, t.plan.names);
            last = Some(rel);
        }
        if let Some(rel) = last {
            let _ = self.enforce_retention(rel, Some(added), Vec::new());
        }
        Ok(out)
    }

    /// The steps of [`Tx::save_all`] after the journal lines: stages the
    /// new objects and makes their data (and the journal) durable, in
    /// groups of [`STAGE_FILES`], then gives every version its name and,
    /// per step, syncs the folders. Returns how many versions got their
    /// name; on failure, that count with the error.
    fn save_steps(
        &mut self,
        items: &[(RepoPath, Current)],
        todo: &mut [Todo],
    ) -> Result<usize, (usize, ShadowError)> {
        for group in todo.chunks(STAGE_FILES) {
            let mut files: Vec<(PathBuf, File)> = Vec::with_capacity(group.len() + 1);
            for t in group.iter().filter(|t| t.staged) {
                let objects = &self.dirs.objects;
                let f = stage_file(objects, &t.temps.obj, &items[t.item].1.bytes, Some(0o444))
                    .map_err(|e| (0, ShadowError::from_io(objects.join(&t.temps.obj), e, true)))?;
                files.push((objects.join(&t.temps.obj), f));
            }
            let (journal_path, journal_file) = self.journal.file();
            let mut handles: Vec<&File> = files.iter().map(|f| &f.1).collect();
            handles.push(journal_file);
            let durability = self.durability.for_device(self.dirs.root.dev());
            durability.data(&handles).map_err(|(i, e)| {
                let path = files.get(i).map_or(journal_path, |f| f.0.as_path());
                (0, ShadowError::write(path, e))
            })?;
        }
        let per_step = self.durability.for_device(self.dirs.root.dev()).per_step();
        let mut to_sync: Vec<Dir> = Vec::new();
        let mut seen: HashSet<PathBuf> = HashSet::new();
        for (i, t) in todo.iter_mut().enumerate() {
            let (rel, cur) = (&items[t.item].0.rel, &items[t.item].1);
            let (_, chain) = self
                .publish_backup(rel, &mut t.plan, &cur.bytes, &t.temps, t.staged)
                .map_err(|e| (i, e))?;
            if !per_step {
                continue;
            }
            // The version's folder, and for a path's first version every
            // folder above it that may be new (each is a name in its parent).
            let first = t.plan.names.len() == 1;
            let mut dirs: Vec<Dir> = Vec::new();
            let mut chain = chain.into_iter().rev();
            match chain.next() {
                Some(d) => dirs.push(d),
                None => dirs.push(super::clone_dir(&self.dirs.shadow).map_err(|e| (i, e))?),
            }
            if first {
                dirs.extend(chain);
                dirs.push(super::clone_dir(&self.dirs.shadow).map_err(|e| (i, e))?);
                dirs.push(super::clone_dir(&self.dirs.store).map_err(|e| (i, e))?);
            }
            for d in dirs {
                if seen.insert(d.path().to_path_buf()) {
                    to_sync.push(d);
                }
            }
        }
        // All of them before the `done` lines: the order among folders does
        // not matter, the data each name points at is durable already.
        for d in &to_sync {
            d.sync()
                .map_err(|e| (todo.len(), ShadowError::write(d.path(), e)))?;
        }
        Ok(todo.len())
    }
}

#[cfg(test)]
mod tests {
    use camino::Utf8Path;

    use crate::shadow::journal::Op;
    use crate::shadow::{Session, Shadow};

    #[test]
    fn a_batch_saves_each_file_once_journals_each_version_and_reuses_it_after() {
        let dir = super::super::test_repo();
        // Two folders, and two files with the same content (one object).
        let files = ["a/x.txt", "a/y.txt", "b/x.txt", "top.txt"];
        for (i, rel) in files.iter().enumerate() {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            let text = if i < 2 {
                "same\n".to_string()
            } else {
                format!("{rel}\n")
            };
            std::fs::write(path, text).expect("write");
        }
        let shadow = Shadow::discover(dir.path()).expect("shadow");
        let save = || {
            let mut tx = shadow
                .begin(Session::new("batch").expect("session"))
                .expect("begin");
            let items: Vec<_> = files
                .iter()
                .map(|rel| {
                    let path = shadow.resolve_rel(Utf8Path::new(rel)).expect("path");
                    let cur = tx.read_current(&path).expect("read").expect("exists");
                    (path, cur)
                })
                .collect();
            tx.save_all(&items).expect("save_all")
        };
        let first = save();
        assert!(first.iter().all(|r| r.new_backup && r.backup == Some(1)));
        for rel in files {
            let v = shadow
                .version(Utf8Path::new(rel), Some(1))
                .expect("version 1");
            let bytes = shadow.read_version(&v).expect("read version");
            let want = std::fs::read(dir.path().join(rel)).expect("read file");
            assert_eq!(bytes, want, "{rel}: the version holds the file");
        }
        let entries = shadow.journal_entries().expect("journal");
        let backups = entries.iter().filter(|e| e.op == Op::Backup).count();
        let done = entries.iter().filter(|e| e.op == Op::Done).count();
        assert_eq!((backups, done), (4, 4), "a line and a done per version");
        let again = save();
        assert!(again.iter().all(|r| !r.new_backup && r.backup == Some(1)));
    }
}
