//! Writing through a [`Tx`]: a backup planned and published as the next
//! version, a guarded replacement of the target and its steps, saves,
//! external changes recorded, restores.

use super::*;

impl<'a> Tx<'a> {
    /// Plans saving `cur` as the next version of `path`: whether the newest
    /// version already holds it, else the new version's number and name
    /// and whether its content is already in the store.
    pub(super) fn plan_backup(
        &mut self,
        path: &RepoPath,
        cur: &Current,
    ) -> Result<Plan, ShadowError> {
        let sha = store::sha256_hex(&cur.bytes);
        let size = cur.bytes.len() as u64;
        let name = path.rel.file_name().ok_or_else(|| ShadowError::NotAFile {
            path: path.rel.clone(),
        })?;
        let vdir = self.version_dir(&path.rel, false)?;
        let names = match &vdir {
            Some(d) => self.version_listing(&path.rel, d, name)?,
            None => Vec::new(),
        };
        let obj = self.verified_object(&sha, &cur.bytes);
        let reuse = match (&vdir, names.last()) {
            (Some(d), Some((n, stamp, file))) => version_of(d, &path.rel, *n, stamp, file)
                .filter(|v| same_content(d, v, obj.as_ref(), &cur.bytes))
                .map(|v| v.number),
            _ => None,
        };
        let number = names.last().map_or(1, |v| v.0 + 1);
        let stamp = Utc::now().compact();
        Ok(Plan {
            sha,
            size,
            mode: cur.mode,
            reuse,
            obj_exists: obj.is_some(),
            number,
            file: format!("{name}.v{number}.{stamp}"),
            stamp,
            names,
        })
    }

    /// Gives a planned backup its version name: a hard link to the object
    /// (renaming the staged object into place first), else an atomic copy.
    /// Returns the size of a content new to the store, and the folders from
    /// `shadow/` down to the version folder (outermost first), for the
    /// caller to make durable.
    pub(super) fn publish_backup(
        &mut self,
        rel: &Utf8Path,
        plan: &mut Plan,
        bytes: &[u8],
        temps: &Temps,
        staged_obj: bool,
    ) -> Result<(Option<u64>, Vec<Dir>), ShadowError> {
        let objects = &self.dirs.objects;
        let mut new_object = None;
        let source = if staged_obj {
            // Over whatever holds the name: a planted object that failed
            // verification loses its name here, not its content.
            match objects.rename(&temps.obj, objects, &plan.sha) {
                Ok(()) => {
                    new_object = Some(plan.size);
                    true
                }
                Err(_) => {
                    let _ = objects.unlink(&temps.obj);
                    false
                }
            }
        } else {
            true
        };
        let chain = version_dirs(&self.dirs.shadow, rel, true)?.unwrap_or_default();
        {
            let vdir = chain.last().unwrap_or(&self.dirs.shadow);
            let linked = if source {
                objects.link(&plan.sha, vdir, &plan.file)
            } else {
                Err(io::Error::from(io::ErrorKind::Unsupported))
            };
            match linked {
                Ok(()) => {}
                // The journal already names this version: never another one.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(ShadowError::write(vdir.join(&plan.file), e))
                }
                Err(_) => {
                    // No hard links here (or too many): a copy, atomically.
                    let r = stage_file(vdir, &temps.next_to, bytes, Some(0o444))
                        .and_then(|f| f.sync_all())
                        .and_then(|()| vdir.rename(&temps.next_to, vdir, &plan.file));
                    if let Err(e) = r {
                        let _ = vdir.unlink(&temps.next_to);
                        return Err(ShadowError::write(vdir.join(&plan.file), e));
                    }
                    new_object = Some(plan.size);
                }
            }
        }
        let version = (plan.number, plan.stamp.clone(), plan.file.clone());
        let folder = rel.parent().unwrap_or(Utf8Path::new(""));
        if let Some(listed) = self.listings.get_mut(folder) {
            let name = rel.file_name().unwrap_or("").to_string();
            listed.entry(name).or_default().push(version.clone());
        }
        plan.names.push(version);
        Ok((new_object, chain))
    }

    /// Records that this session changes `rel`, whose content from before
    /// the session is in `version`, unless the session already changed it.
    /// Not made durable on its own: the index only keeps retention from
    /// dropping what the last session's `undo` needs, and costs an fsync
    /// per write where steps are fsync'd one by one.
    pub(super) fn touch_session(
        &mut self,
        rel: &str,
        version: Option<u64>,
    ) -> Result<(), ShadowError> {
        let store = &self.dirs.store;
        let path = store.join(SESSION_INDEX);
        if self.index.is_none() {
            self.index =
                Some(SessionIndex::load(store, Some(self.session.id())).unwrap_or_default());
        }
        let index = self.index.get_or_insert_with(SessionIndex::default);
        let line = IndexLine {
            path: rel.to_string(),
            version,
        };
        // Every append starts with a newline, which ends a line a crash
        // may have torn (empty lines are skipped).
        let mut text = b"\n".to_vec();
        let json_err = |e: serde_json::Error| ShadowError::write(&path, io::Error::other(e));
        let new_session = index.session != self.session.id();
        if new_session {
            let header = IndexHeader {
                session: self.session.id().to_string(),
            };
            serde_json::to_writer(&mut text, &header).map_err(json_err)?;
            text.push(b'\n');
        } else if index.paths.iter().any(|l| l.path == rel) {
            return Ok(());
        }
        serde_json::to_writer(&mut text, &line).map_err(json_err)?;
        text.push(b'\n');
        let file = if new_session && index.len > INDEX_COMPACT_AT {
            // Only the last session matters: start over, atomically.
            let durability = self.durability;
            let _ = store.unlink(INDEX_TMP);
            let r = stage_file(store, INDEX_TMP, &text, None)
                .and_then(|f| durability.data(&[&f]).map_err(|e| e.1).map(|()| f))
                .and_then(|f| store.rename(INDEX_TMP, store, SESSION_INDEX).map(|()| f));
            index.len = 0;
            r.inspect_err(|_| {
                let _ = store.unlink(INDEX_TMP);
            })
        } else {
            store
                .open(SESSION_INDEX, Access::Append)
                .and_then(|f| f.ok_or_else(|| io::ErrorKind::NotFound.into()))
                .and_then(|mut f| f.write_all(&text).map(|()| f))
        }
        .map_err(|e| ShadowError::from_io(&path, e, true))?;
        index.len += text.len() as u64;
        if new_session {
            index.session = self.session.id().to_string();
            index.paths.clear();
        }
        index.first.entry(rel.to_string()).or_insert(version);
        index.paths.push(line);
        drop(file);
        Ok(())
    }

    /// Changes the working file `path` from `current` (as just read) by
    /// `change`, write-ahead: the journal records the backup and the change,
    /// the current content is saved in the store, then the file is replaced
    /// atomically (or removed). A crash at any point leaves the file wholly
    /// old or wholly new, with the old content recoverable from the store.
    pub fn apply(
        &mut self,
        path: &RepoPath,
        current: Option<&Current>,
        change: Change<'_>,
    ) -> Result<Replaced, ShadowError> {
        let unchanged = match (current, change.new) {
            (Some(c), Some(n)) => c.bytes == n,
            (None, None) => true,
            _ => false,
        };
        if unchanged && change.op != Op::Backup {
            return Ok(Replaced {
                changed: false,
                backup: None,
                new_backup: false,
            });
        }
        let id = op_id();
        let temps = Temps::new(&path.rel, &id);
        let mut plan = self.settled(|tx| current.map(|c| tx.plan_backup(path, c)).transpose())?;
        if let (Op::Backup, Some(n)) = (change.op, plan.as_ref().and_then(|p| p.reuse)) {
            return Ok(Replaced {
                changed: false,
                backup: Some(n),
                new_backup: false,
            });
        }

        // The journal says what is about to happen before anything does;
        // the lines become durable with the data below. A crash leaves them
        // without a `done`, which the next transaction settles.
        let mut lines = Vec::with_capacity(2);
        let backup = plan.as_ref().map(Plan::version);
        if let (Some(p), Some((number, true))) = (&plan, backup) {
            let mut e = Entry::new(self.session.id(), Op::Backup, path.rel.as_str());
            e.version = Some(number);
            e.sha256 = Some(p.sha.clone());
            e.size = Some(p.size);
            e.mode = Some(p.mode);
            e.id = Some(id.clone());
            lines.push(e);
        }
        if change.op != Op::Backup {
            let mut intent = Entry::new(self.session.id(), change.op, path.rel.as_str());
            intent.version = backup.map(|b| b.0);
            let removed = plan.as_ref().filter(|_| change.op != Op::External);
            intent.sha256 = match change.new {
                Some(n) => Some(store::sha256_hex(n)),
                None => removed.map(|p| p.sha.clone()),
            };
            intent.size = change
                .new
                .map(|n| n.len() as u64)
                .or_else(|| removed.map(|p| p.size));
            intent.id = Some(id.clone());
            intent.from = change.from;
            lines.push(intent);
        }
        self.journal.append(&lines, false)?;

        let result = self.apply_steps(path, current, change, &temps, plan.as_mut());
        let mut done = Entry::new(self.session.id(), Op::Done, path.rel.as_str());
        done.id = Some(id);
        let new_object = match result {
            Ok(n) => n,
            Err(e) => {
                self.remove_temps(&path.rel, &temps);
                done.applied = Some(false);
                done.note = Some("failed; the working file was not changed".into());
                let _ = self.journal.append(&[done], false);
                return Err(e);
            }
        };
        self.journal.append(&[done], false)?;
        let created = backup.is_some_and(|b| b.1);
        if let (true, Some(p)) = (created, plan) {
            // Retention trims the store; a failure there never undoes a
            // completed write, and the next write or `shadow prune` retries.
            let _ = self.enforce_retention(&path.rel, new_object, p.names);
        }
        Ok(Replaced {
            changed: true,
            backup: backup.map(|b| b.0),
            new_backup: created,
        })
    }

    /// Removes the temporary files of a failed operation, wherever it may
    /// have made them.
    pub(super) fn remove_temps(&self, rel: &Utf8Path, temps: &Temps) {
        let _ = remove_own_temp(&self.dirs.objects, &temps.obj);
        if let Ok(Some(d)) = self.version_dir(rel, false) {
            let _ = remove_own_temp(&d, &temps.next_to);
        }
        if let Ok(Some(d)) = self.target_dir(rel, false) {
            let _ = remove_own_temp(&d, &temps.next_to);
        }
    }

    /// The steps of [`Tx::apply`] after the journal lines; returns the size
    /// of a content new to the store.
    pub(super) fn apply_steps(
        &mut self,
        path: &RepoPath,
        current: Option<&Current>,
        change: Change<'_>,
        temps: &Temps,
        plan: Option<&mut Plan>,
    ) -> Result<Option<u64>, ShadowError> {
        let name = path.rel.file_name().unwrap_or("");
        // Stage: the backup's content when the store lacks it, and the new
        // content, in temporary files in their own folders.
        let obj_file = match (&plan, current) {
            (Some(p), Some(cur)) if p.reuse.is_none() && !p.obj_exists => Some(
                stage_file(&self.dirs.objects, &temps.obj, &cur.bytes, Some(0o444)).map_err(
                    |e| ShadowError::from_io(self.dirs.objects.join(&temps.obj), e, true),
                )?,
            ),
            _ => None,
        };
        // A backup or an external change only records: the working file
        // is as it should be (or already gone, with its folder).
        let touches_file = !matches!(change.op, Op::Backup | Op::External);
        let target_dir = if touches_file {
            self.target_dir(&path.rel, change.new.is_some())?
                .ok_or_else(|| ShadowError::write(&path.abs, io::ErrorKind::NotFound.into()))?
        } else {
            clone_dir(&self.dirs.root)?
        };
        let mode = current.map(|c| c.mode).or(change.mode);
        let target_file = match change.new.filter(|_| touches_file) {
            Some(bytes) => Some(
                stage_file(&target_dir, &temps.next_to, bytes, mode)
                    .map_err(|e| ShadowError::write(target_dir.join(&temps.next_to), e))?,
            ),
            None => None,
        };
        let version = plan.as_ref().map(|p| p.version().0);
        if change.op != Op::Backup {
            self.touch_session(path.rel.as_str(), version)?;
        }

        // Everything written so far but the session index reaches the disk
        // before any name points at it: one overlapped write-out where
        // directory operations are ordered, else an fsync each. (Fsyncs
        // issued from threads measured slower on ext4.)
        let mut files: Vec<(std::path::PathBuf, &File)> = Vec::with_capacity(3);
        files.extend(
            obj_file
                .as_ref()
                .map(|f| (self.dirs.objects.join(&temps.obj), f)),
        );
        files.extend(
            target_file
                .as_ref()
                .map(|f| (target_dir.join(&temps.next_to), f)),
        );
        let (journal_path, journal_file) = self.journal.file();
        files.push((journal_path.to_path_buf(), journal_file));
        let durability = self.durability.for_device(target_dir.dev());
        let handles: Vec<&File> = files.iter().map(|f| f.1).collect();
        durability
            .data(&handles)
            .map_err(|(i, e)| ShadowError::write(&files[i].0, e))?;
        drop(files);

        // The backup gets its version name.
        let mut new_object = None;
        if let (Some(p), Some(cur)) = (plan, current) {
            if p.reuse.is_none() {
                let staged_obj = obj_file.is_some();
                drop(obj_file);
                let (added, chain) =
                    self.publish_backup(&path.rel, p, &cur.bytes, temps, staged_obj)?;
                new_object = added;
                if durability.per_step() {
                    let sync = |d: &Dir| d.sync().map_err(|e| ShadowError::write(d.path(), e));
                    sync(chain.last().unwrap_or(&self.dirs.shadow))?;
                    if p.names.len() == 1 {
                        // The path's first version: its folders may be new,
                        // and each is a name in its parent.
                        for d in chain.iter().rev().skip(1) {
                            sync(d)?;
                        }
                        if !chain.is_empty() {
                            sync(&self.dirs.shadow)?;
                        }
                        sync(&self.dirs.store)?;
                    }
                }
            }
        }

        if !touches_file {
            return Ok(new_object);
        }
        // The new content takes the file's name; a removal takes away only
        // a regular file (a name that turned into anything else is left).
        match target_file {
            Some(file) => {
                drop(file);
                target_dir
                    .rename(&temps.next_to, &target_dir, name)
                    .map_err(|e| ShadowError::write(&path.abs, e))?;
            }
            None => {
                match target_dir.stat(name) {
                    Ok(Some(st)) if st.kind == Kind::File => {}
                    Ok(Some(st)) => {
                        return Err(ShadowError::TargetChanged {
                            path: path.rel.clone(),
                            why: if st.kind == Kind::Symlink {
                                why::SYMLINK
                            } else {
                                why::NOT_A_FILE
                            },
                        })
                    }
                    Ok(None) => return Ok(new_object),
                    Err(e) => return Err(ShadowError::read(&path.abs, e)),
                }
                target_dir
                    .unlink(name)
                    .map_err(|e| ShadowError::write(&path.abs, e))?
            }
        }
        // The one fsync that makes the new name durable (and, ordered, every
        // step before it). The change is made whatever it reports: an error
        // here can only mean the name may not survive a power cut, which
        // leaves the old content, itself backed up.
        let _ = target_dir.sync();
        Ok(new_object)
    }

    /// Saves `current`, the content of `path`, as its newest version without
    /// changing the file (a snapshot before a program outside the store
    /// runs); `backup` is the version that holds it (an existing one when
    /// the newest already does).
    pub fn save(&mut self, path: &RepoPath, current: &Current) -> Result<Replaced, ShadowError> {
        self.apply(
            path,
            Some(current),
            Change {
                op: Op::Backup,
                new: None,
                mode: None,
                from: None,
            },
        )
    }

    /// Records that a program outside the store changed `path` from
    /// `before` (`None`: it did not exist) to `now` (`None`: it deleted
    /// it), saving `before` so that `undo` can bring it back. The working
    /// file is not touched.
    pub fn record_external(
        &mut self,
        path: &RepoPath,
        before: Option<&Current>,
        now: Option<&[u8]>,
    ) -> Result<Replaced, ShadowError> {
        self.apply(
            path,
            before,
            Change {
                op: Op::External,
                new: now,
                mode: None,
                from: None,
            },
        )
    }

    /// Restores `path` from version `number` (default: the newest), saving
    /// its current content first so that the restore can itself be undone.
    /// The version must hold what the journal recorded for it.
    pub fn restore(
        &mut self,
        path: &RepoPath,
        number: Option<u64>,
    ) -> Result<(Version, Replaced), ShadowError> {
        let version = self.settled(|tx| tx.shadow.version(&path.rel, number))?;
        let bytes = self.shadow.read_version(&version)?;
        let entries = self.entries()?;
        let record = store::verify_version(&entries, &path.rel, version.number, &bytes)?;
        let current = self.read_current(path)?;
        let replaced = self.apply(
            path,
            current.as_ref(),
            Change {
                op: Op::Restore,
                new: Some(&bytes),
                mode: record.and_then(|r| r.mode),
                from: Some(version.number),
            },
        )?;
        Ok((version, replaced))
    }
}
