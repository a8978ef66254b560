//! Keeping the store within bounds: retention (eviction after a write),
//! `shadow prune`, sweeping objects no version uses, the running size, and
//! journal compaction. Everything through the transaction's verified
//! handles; nothing here touches a working file.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;

use camino::Utf8Path;

use super::{clone_dir, is_own_temp, remove_own_temp, stage_file, Tx};
use crate::fsx::dir::{self, Access, Dir, Kind};
use crate::shadow::journal::{self, is_sha256_hex, Entry, Op};
use crate::shadow::store::{self, read_store_file, Version, VersionNames, SIZE};
use crate::shadow::ShadowError;

/// The temporary name of journal compaction (fixed: under the lock only
/// one exists, even after a crash).
const JOURNAL_COMPACT_TMP: &str = "journal.jsonl.compact";

/// The running total of distinct bytes the store holds, as last recorded
/// (`None`: unknown, recount).
pub(super) fn known_size(store: &Dir) -> Option<u64> {
    size_line(store, 0)
}

/// The journal's length right after the last compaction (0: unknown).
pub(super) fn compacted_len(store: &Dir) -> u64 {
    size_line(store, 1).unwrap_or(0)
}

/// Returns the number on line `n` of the size file: the running size on
/// the first, the journal's length after the last compaction on the
/// second (each padded to a fixed width, overwritten in place).
fn size_line(store: &Dir, n: usize) -> Option<u64> {
    let text = read_store_file(store, SIZE).ok()??;
    let text = String::from_utf8(text).ok()?;
    text.lines().nth(n)?.trim().parse::<u64>().ok()
}

/// Records the journal's length after a compaction, on the size file's
/// second line: the next compaction waits until the journal doubles, so a
/// session too large to shrink (it is kept whole) is not rewritten on
/// every write.
fn record_compacted(store: &Dir, len: u64) {
    let line = format!("{len:<20}\n");
    if let Ok(Some(f)) = store.open(SIZE, Access::Update) {
        let _ = write_at(&f, line.as_bytes(), 21);
    }
}

/// Records the store's running size. The number is overwritten in place,
/// padded to a fixed width: truncating a file on ext4 forces its data to
/// disk (`auto_da_alloc`), which measured ~0.3 ms on every write. A torn
/// number only costs a recount. The file is never written through a
/// symlink or a hard link.
pub(super) fn record_size(store: &Dir, total: u64) {
    let line = format!("{total:<20}\n");
    if let Ok(Some(f)) = store.open(SIZE, Access::Update) {
        let _ = write_at(&f, line.as_bytes(), 0);
    }
}

fn write_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt as _;
        file.write_all_at(bytes, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::Seek as _;
        let mut f = file;
        f.seek(io::SeekFrom::Start(offset))?;
        f.write_all(bytes)
    }
}

impl Tx<'_> {
    /// Rewrites the journal with only the newest sessions (whole, newest
    /// first, until about `keep` bytes) and the `backup` lines of versions
    /// still in the store (their file modes). Older sessions can no longer
    /// be undone as a whole, but their versions stay listed and restorable.
    /// Atomic: a crash leaves the old journal or the new one.
    pub(crate) fn compact_journal(&mut self, keep: u64) -> Result<(), ShadowError> {
        let entries = journal::read(&self.dirs.store)?;
        let lines: Vec<Vec<u8>> = entries
            .iter()
            .map(|e| serde_json::to_vec(e).unwrap_or_default())
            .collect();
        let mut size: HashMap<&str, u64> = HashMap::new();
        let mut newest_first: Vec<&str> = Vec::new();
        for (e, l) in entries.iter().zip(&lines).rev() {
            let s = size.entry(e.session.as_str()).or_insert_with(|| {
                newest_first.push(e.session.as_str());
                0
            });
            *s += l.len() as u64 + 1;
        }
        let mut kept: HashSet<&str> = HashSet::new();
        let mut total = 0;
        for s in newest_first {
            if total > 0 && total + size[s] > keep {
                break;
            }
            total += size[s];
            kept.insert(s);
        }
        let existing: HashSet<(String, u64)> =
            store::all_versions_in(clone_dir(&self.dirs.shadow)?)?
                .into_iter()
                .flat_map(|(path, vs)| vs.into_iter().map(move |v| (path.to_string(), v.number)))
                .collect();
        let mut out = Vec::with_capacity(total as usize);
        for (e, l) in entries.iter().zip(&lines) {
            let version_kept = e.op == Op::Backup
                && e.version
                    .is_some_and(|v| existing.contains(&(e.path.clone(), v)));
            if kept.contains(e.session.as_str()) || version_kept {
                out.extend_from_slice(l);
                out.push(b'\n');
            }
        }
        let store = &self.dirs.store;
        let tmp_path = store.join(JOURNAL_COMPACT_TMP);
        // What a crash left under the fixed name is ours; a symlink there
        // is only a name, removed without being followed.
        match store.unlink(JOURNAL_COMPACT_TMP) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(ShadowError::write(&tmp_path, e)),
        }
        let written = stage_file(store, JOURNAL_COMPACT_TMP, &out, None)
            .and_then(|f| f.sync_all())
            .and_then(|()| store.rename(JOURNAL_COMPACT_TMP, store, journal::JOURNAL))
            .and_then(|()| store.sync());
        if let Err(e) = written {
            let _ = store.unlink(JOURNAL_COMPACT_TMP);
            return Err(ShadowError::write(store.join(journal::JOURNAL), e));
        }
        // The writer still holds the replaced file: write to the new one.
        self.journal = journal::open(store)?;
        record_compacted(&self.dirs.store, self.journal.len());
        Ok(())
    }

    /// Removes a version file, journaling why.
    pub(crate) fn drop_version(&mut self, v: &Version, op: Op) -> Result<(), ShadowError> {
        self.drop_file(&v.path, v.number, v.file_name(), Some(v.size), op)
    }

    pub(super) fn drop_file(
        &mut self,
        rel: &Utf8Path,
        number: u64,
        file: &str,
        size: Option<u64>,
        op: Op,
    ) -> Result<(), ShadowError> {
        let Some(vdir) = self.version_dir(rel, false)? else {
            return Ok(());
        };
        let st = match vdir.stat(file) {
            Ok(Some(st)) if st.kind == Kind::File => st,
            // Gone, or not a version this store made: nothing to drop.
            Ok(_) => return Ok(()),
            Err(e) => return Err(ShadowError::read(vdir.join(file), e)),
        };
        self.forget_listing(rel);
        // When the only other name of this content is its object, the
        // object goes too, so the store holds what its versions need.
        let objects = &self.dirs.objects;
        let mut orphan = None;
        let mut sha = None;
        if st.nlink == 2 {
            if let Ok(Some(bytes)) = read_store_file(&vdir, file) {
                let hex = store::sha256_hex(&bytes);
                let same = objects.stat(&hex).ok().flatten().map(|o| o.id) == Some(st.id);
                if same && cfg!(unix) {
                    orphan = Some(hex.clone());
                }
                sha = Some(hex);
            }
        }
        vdir.unlink(file)
            .map_err(|e| ShadowError::write(vdir.join(file), e))?;
        if let Some(obj) = orphan {
            if objects.unlink(&obj).is_ok() {
                // Keep the running size in step (the next sweep recounts).
                if let Some(total) = known_size(&self.dirs.store) {
                    record_size(&self.dirs.store, total.saturating_sub(st.size));
                }
            }
        }
        let mut e = Entry::new(self.session.id(), op, rel.as_str());
        e.version = Some(number);
        e.size = size.or(Some(st.size));
        e.sha256 = sha;
        self.journal.append(&[e], false)
    }

    /// Removes the versions `plan` selected, then the contents no version
    /// uses any more; returns the bytes the store holds afterwards.
    pub fn prune(&mut self, plan: &crate::shadow::PrunePlan) -> Result<u64, ShadowError> {
        self.prune_with(plan, &mut |_, _| {})
    }

    /// [`Self::prune`], calling `progress(done, total)` after each version.
    pub fn prune_with(
        &mut self,
        plan: &crate::shadow::PrunePlan,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<u64, ShadowError> {
        for (i, v) in plan.remove.iter().enumerate() {
            self.drop_version(v, Op::Prune)?;
            progress(i + 1, plan.remove.len());
        }
        self.sweep()
    }

    /// Removes objects no version links to any more and the temporary files
    /// crashes left in `objects/` (our names only, regular files only);
    /// returns the bytes the store holds afterwards (distinct contents).
    pub(crate) fn sweep(&mut self) -> Result<u64, ShadowError> {
        let objects = &self.dirs.objects;
        let mut total = 0u64;
        let mut seen = HashSet::new();
        let entries = objects
            .entries()
            .map_err(|e| ShadowError::from_io(objects.path(), e, false))?;
        for (name, kind) in dir::utf8_entries(entries) {
            if kind != Kind::File {
                continue;
            }
            if is_own_temp(&name) {
                let _ = remove_own_temp(objects, &name);
                continue;
            }
            if !is_sha256_hex(&name) {
                continue;
            }
            let Ok(Some(st)) = objects.stat(&name) else {
                continue;
            };
            if st.nlink <= 1 {
                let _ = objects.unlink(&name);
            } else {
                total += st.size;
                seen.insert(st.id);
            }
        }
        // Copies made where hard links are unavailable count too.
        for versions in store::all_versions_in(clone_dir(&self.dirs.shadow)?)?.values() {
            for v in versions {
                if v.id.is_none_or(|id| seen.insert(id)) {
                    total += v.size;
                }
            }
        }
        record_size(&self.dirs.store, total);
        Ok(total)
    }

    /// Keeps the store within its retention limits after a new version of
    /// `rel`: at most `max_versions` for the path, and at most `max_bytes`
    /// of distinct contents overall, dropping the oldest versions first but
    /// never the newest of a file nor one the last session's `undo` needs.
    /// `names` are the path's versions as the write left them.
    pub(super) fn enforce_retention(
        &mut self,
        rel: &Utf8Path,
        new_bytes: Option<u64>,
        names: VersionNames,
    ) -> Result<(), ShadowError> {
        let limits = self.shadow.retention.clone();
        if names.len() > limits.max_versions {
            // What the last session's `undo` needs: the index this
            // transaction already holds (as it is on disk).
            let protected: HashSet<u64> = self
                .index()
                .paths
                .iter()
                .filter(|l| l.path == rel.as_str())
                .filter_map(|l| l.version)
                .collect();
            let newest = names.last().map(|v| v.0);
            let mut excess = names.len() - limits.max_versions;
            for (number, _, file) in &names {
                if excess == 0 {
                    break;
                }
                if Some(*number) == newest || protected.contains(number) {
                    continue;
                }
                self.drop_file(rel, *number, file, None, Op::Evict)?;
                excess -= 1;
            }
        }
        if let Some(added) = new_bytes {
            let total = match known_size(&self.dirs.store) {
                Some(t) => t + added,
                None => self.sweep()?,
            };
            record_size(&self.dirs.store, total);
            if total > limits.max_bytes {
                let total = self.sweep()?;
                if total > limits.max_bytes {
                    let plan = crate::shadow::retention::plan(
                        self.shadow,
                        &self.shadow.all_versions()?,
                        &crate::shadow::retention::Rules {
                            keep: None,
                            older_than: None,
                            max_bytes: Some(limits.max_bytes),
                        },
                    );
                    for v in &plan.remove {
                        self.drop_version(v, Op::Evict)?;
                    }
                    self.sweep()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shadow::{Change, Session, Shadow};

    /// Writes `content` to `rel` in `session` through a transaction.
    fn write(shadow: &Shadow, session: &str, rel: &str, content: &str) {
        let mut tx = shadow
            .begin(Session::new(session).expect("session"))
            .expect("begin");
        let path = shadow.resolve_rel(Utf8Path::new(rel)).expect("path");
        let current = tx.read_current(&path).expect("read");
        tx.apply(
            &path,
            current.as_ref(),
            Change {
                op: Op::Write,
                new: Some(content.as_bytes()),
                mode: None,
                from: None,
            },
        )
        .expect("apply");
    }

    #[cfg(unix)]
    #[test]
    fn a_session_too_large_to_shrink_is_compacted_again_only_when_it_doubles() {
        use std::os::unix::fs::MetadataExt as _;
        let dir = super::super::test_repo();
        std::fs::write(dir.path().join("a.txt"), "a0\n").expect("write");
        let shadow = Shadow::discover(dir.path()).expect("shadow");
        write(&shadow, "long", "a.txt", "a1\n");
        // One session's history past the compaction size: it is kept whole.
        let journal = dir.path().join(".fararoni/journal.jsonl");
        let mut e = Entry::new("long", Op::Evict, "gone.txt");
        e.version = Some(1);
        e.size = Some(1);
        let line = format!("{}\n", serde_json::to_string(&e).expect("json"));
        let mut text = std::fs::read_to_string(&journal).expect("read");
        while text.len() < 9 * 1024 * 1024 {
            text.push_str(&line);
        }
        std::fs::write(&journal, &text).expect("write");
        let inode = || std::fs::metadata(&journal).expect("meta").ino();
        let before = inode();
        write(&shadow, "long", "a.txt", "a2\n");
        let compacted = inode();
        assert_ne!(compacted, before, "the first transaction compacts");
        write(&shadow, "long", "a.txt", "a3\n");
        write(&shadow, "long", "a.txt", "a4\n");
        assert_eq!(inode(), compacted, "not again until the journal doubles");
    }

    #[test]
    fn compaction_keeps_the_newest_sessions_whole_and_every_live_backup() {
        let dir = super::super::test_repo();
        std::fs::write(dir.path().join("a.txt"), "a0\n").expect("write");
        let shadow = Shadow::discover(dir.path()).expect("shadow");
        for n in 0..20 {
            write(
                &shadow,
                &format!("old-{n}"),
                "a.txt",
                &format!("a{}\n", n + 1),
            );
        }
        write(&shadow, "new", "a.txt", "new 1\n");
        write(&shadow, "new", "b.txt", "b1\n");
        write(&shadow, "new", "a.txt", "new 2\n");
        let before = shadow.journal_entries().expect("read");
        let mut tx = shadow
            .begin(Session::new("compact").expect("session"))
            .expect("begin");
        tx.compact_journal(1).expect("compact");
        drop(tx);
        let after = shadow.journal_entries().expect("read");
        // The newest session whole, in order.
        let newest = |es: &[Entry]| -> Vec<Entry> {
            es.iter().filter(|e| e.session == "new").cloned().collect()
        };
        assert!(!newest(&before).is_empty());
        assert_eq!(newest(&after), newest(&before));
        // No other session's steps, but a backup line for every version
        // still in the store.
        let live: Vec<(String, u64)> = shadow
            .all_versions()
            .expect("versions")
            .into_iter()
            .flat_map(|(p, vs)| vs.into_iter().map(move |v| (p.to_string(), v.number)))
            .collect();
        for (path, number) in &live {
            assert!(
                after
                    .iter()
                    .any(|e| e.op == Op::Backup && &e.path == path && e.version == Some(*number)),
                "backup line of {path} v{number} kept"
            );
        }
        assert!(after
            .iter()
            .all(|e| e.session == "new" || e.op == Op::Backup));
        assert!(after.len() < before.len());
        // The journal still takes appends and undo still finds the session.
        write(&shadow, "later", "c.txt", "c1\n");
        let sessions = crate::shadow::sessions(&shadow.journal_entries().expect("read"));
        assert_eq!(sessions, vec!["later".to_string(), "new".to_string()]);
    }
}
