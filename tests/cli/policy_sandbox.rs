//! The sandbox of the policy attack suite: templates built once by
//! `fixtures/repos/policy-sandbox.sh`, copied per case with `cp -a`, and
//! snapshots that say whether a command had any effect.
//!
//! What a snapshot holds, and why (see also fixtures/policy/README.md):
//! - every entry under the sandbox root — the worktree with its `.git`, the
//!   bare `origin.git`, `home/`, `outside/`, the nested and planted
//!   repositories — as kind, permission bits and a content hash, with the
//!   root's path normalised so twin sandboxes compare equal;
//! - except a git index (`<git dir>/index`), which is compared through
//!   `git ls-files --stage -v` instead: git rewrites the index to refresh
//!   its stat cache on reads, which loses nothing, while entries, modes,
//!   stages and the assume-unchanged bit are what a user would miss;
//! - everything else in a git dir counts, on purpose: `FETCH_HEAD`,
//!   `ORIG_HEAD`, a reflog line, a loose object, a lock file or a repacked
//!   pack are each the trace of a command that should not have run (a
//!   blocked line runs nothing, so this strictness costs no false alarm);
//! - the marker `PWNED` at the root, which every planted program creates;
//! - remote contact: `home/.gitconfig` sets `trace2.eventTarget` to
//!   `<root>/.trace2/`, and any `upload-pack`, `receive-pack` or
//!   `upload-archive` process found there means a repository was served,
//!   which catches `ls-remote`, a fetch that brings nothing new and the
//!   lazy fetch of a partial clone alike.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::hash::Hasher as _;
use std::io::Read as _;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common::bin;

/// The file every planted program creates, relative to the sandbox root.
pub const MARK: &str = "PWNED";
/// Where git's trace2 events go, relative to the sandbox root; not part of
/// the snapshot itself.
const TRACE_DIR: &str = ".trace2";
/// Server-side git commands: one of them running means a remote was contacted.
const SERVER_COMMANDS: &[&str] = &["upload-pack", "receive-pack", "upload-archive"];

/// The two sandbox flavours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// The full sandbox: dirty worktree, stash, tags, plants, nested repos.
    Main,
    /// A blob-less partial clone of `origin.git`.
    Partial,
}

impl Flavour {
    fn name(self) -> &'static str {
        match self {
            Flavour::Main => "main",
            Flavour::Partial => "partial",
        }
    }
}

/// The sandbox templates, built once per test.
pub struct Templates {
    dir: TempDir,
    flavours: Vec<Template>,
    next: std::sync::atomic::AtomicUsize,
}

struct Template {
    flavour: Flavour,
    root: PathBuf,
    /// Files holding the template's absolute root, rewritten in each copy.
    rewrite: Vec<PathBuf>,
    /// The snapshot of a fresh copy: every copy's "before".
    baseline: Snapshot,
}

/// One copy of a template, removed on drop.
pub struct Sandbox {
    /// The sandbox root (`work/`, `origin.git/`, `home/`, `outside/` inside).
    pub root: PathBuf,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The environment every sandboxed process gets, and nothing else.
pub fn hermetic_env(cmd: &mut Command, root: &Path, cwd: &Path) {
    let bin_dir = bin("git-fararoni")
        .parent()
        .expect("binary has a directory")
        .to_path_buf();
    let system = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let mut paths = vec![bin_dir];
    paths.extend(std::env::split_paths(&system));
    cmd.env_clear()
        .env("PATH", std::env::join_paths(paths).expect("PATH joins"))
        .env("HOME", root.join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        // Where `git config --system` would write: inside the sandbox, not
        // in the machine's /etc.
        .env("GIT_CONFIG_SYSTEM", root.join("etc-gitconfig"))
        .env("GIT_AUTHOR_NAME", "Test User")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test User")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_TERMINAL_PROMPT", "0")
        // An editor that accepts whatever it is given, so nothing waits; an
        // attack may still override it with `EDITOR=…` or `-c core.editor`.
        .env("EDITOR", "true")
        .env("TZ", "UTC")
        .env("LC_ALL", "C")
        .env("PWD", cwd)
        .current_dir(cwd);
}

impl Templates {
    /// Builds every flavour's template in a fresh temporary directory.
    pub fn build() -> Templates {
        // Hundreds of copies: on a memory file system when there is one
        // (fifteen times faster than a disk here).
        let shm = Path::new("/dev/shm");
        let mut builder = tempfile::Builder::new();
        builder.prefix("fararoni-policy");
        let dir = if shm.is_dir() {
            builder.tempdir_in(shm).or_else(|_| builder.tempdir())
        } else {
            builder.tempdir()
        }
        .expect("tempdir for the sandbox templates");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/repos/policy-sandbox.sh");
        let flavours = [Flavour::Main, Flavour::Partial]
            .into_iter()
            .map(|flavour| {
                let root = dir.path().join(format!("tmpl-{}", flavour.name()));
                std::fs::create_dir(&root).expect("template root");
                let mut cmd = Command::new("sh");
                cmd.arg(&script).arg(&root).arg(flavour.name());
                hermetic_env(&mut cmd, &root, &root);
                let out = cmd.output().expect("sh runs the sandbox script");
                assert!(
                    out.status.success(),
                    "policy-sandbox.sh {} failed:\n{}",
                    flavour.name(),
                    String::from_utf8_lossy(&out.stderr)
                );
                // Tracing starts after set-up, so only a case's processes
                // leave events.
                std::fs::create_dir(root.join(TRACE_DIR)).expect("trace dir");
                let config = root.join("home/.gitconfig");
                let mut text = std::fs::read_to_string(&config).expect("global config");
                text.push_str(&format!(
                    "[trace2]\n\teventTarget = {}\n",
                    root.join(TRACE_DIR).display()
                ));
                std::fs::write(&config, text).expect("write global config");
                let rewrite = files_mentioning(&root);
                Template {
                    flavour,
                    root,
                    rewrite,
                    baseline: Snapshot::new(),
                }
            })
            .collect();
        let mut templates = Templates {
            dir,
            flavours,
            next: std::sync::atomic::AtomicUsize::new(0),
        };
        for i in 0..templates.flavours.len() {
            let flavour = templates.flavours[i].flavour;
            let (a, b) = (templates.sandbox(flavour), templates.sandbox(flavour));
            let baseline = snapshot(&a.root);
            let again = diff(&baseline, &snapshot(&b.root));
            assert!(
                again.is_empty(),
                "two fresh copies of the {flavour:?} sandbox differ, so \"before\" cannot be shared:\n{}",
                again.join("\n")
            );
            templates.flavours[i].baseline = baseline;
        }
        templates
    }

    /// The snapshot every fresh copy of `flavour` has.
    pub fn baseline(&self, flavour: Flavour) -> &Snapshot {
        &self.template(flavour).baseline
    }

    fn template(&self, flavour: Flavour) -> &Template {
        self.flavours
            .iter()
            .find(|t| t.flavour == flavour)
            .expect("every flavour has a template")
    }

    /// Copies a flavour's template into a new sandbox.
    pub fn sandbox(&self, flavour: Flavour) -> Sandbox {
        let t = self.template(flavour);
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = self.dir.path().join(format!("case-{n:04}"));
        let status = Command::new("cp")
            .arg("-a")
            .arg(&t.root)
            .arg(&root)
            .status()
            .expect("cp runs");
        assert!(status.success(), "cp -a of the template failed");
        let from = t.root.to_string_lossy().into_owned();
        let to = root.to_string_lossy().into_owned();
        for rel in &t.rewrite {
            let p = root.join(rel);
            let text = std::fs::read_to_string(&p).expect("rewritable files are text");
            std::fs::write(&p, text.replace(&from, &to)).expect("rewrite the sandbox path");
        }
        Sandbox { root }
    }
}

/// Files under `root` (objects aside) whose bytes mention `root` itself.
fn files_mentioning(root: &Path) -> Vec<PathBuf> {
    let needle = root.to_string_lossy().into_owned();
    let mut found = Vec::new();
    walk(root, &mut |rel, meta, path| {
        if meta.is_file() && !rel.contains("/objects/") && !rel.starts_with(TRACE_DIR) {
            if let Ok(text) = std::fs::read_to_string(path) {
                if text.contains(&needle) {
                    found.push(PathBuf::from(rel));
                }
            }
        }
    });
    found
}

/// Calls `f(relative path, metadata, path)` for every entry under `root`,
/// without following symlinks, in a stable order.
fn walk(root: &Path, f: &mut dyn FnMut(&str, &std::fs::Metadata, &Path)) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let rel = path
                .strip_prefix(root)
                .expect("walked paths are under the root")
                .to_string_lossy()
                .into_owned();
            f(&rel, &meta, &path);
            if meta.is_dir() {
                stack.push(path);
            }
        }
    }
}

/// Everything a command could have changed in a sandbox, by name.
pub type Snapshot = BTreeMap<String, String>;

/// Takes the snapshot of the sandbox at `root` (see the module docs).
pub fn snapshot(root: &Path) -> Snapshot {
    let needle = root.to_string_lossy().into_owned();
    let mut out = Snapshot::new();
    let mut indexes = Vec::new();
    walk(root, &mut |rel, meta, path| {
        if rel == TRACE_DIR || rel.starts_with(&format!("{TRACE_DIR}/")) {
            return;
        }
        let mode = meta.permissions().mode() & 0o7777;
        let value = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(path).unwrap_or_default();
            format!(
                "symlink -> {}",
                target.to_string_lossy().replace(&needle, "$ROOT")
            )
        } else if meta.is_dir() {
            format!("dir {mode:o}")
        } else if meta.is_file() {
            let is_index = path.file_name().is_some_and(|n| n == "index")
                && path.parent().is_some_and(|p| p.join("HEAD").is_file());
            if is_index {
                indexes.push((
                    rel.to_string(),
                    path.parent().expect("index has a dir").to_path_buf(),
                ));
                return;
            }
            if is_object(path) {
                // Named by their content (loose objects, packs): what
                // matters is which exist.
                format!("object {}", meta.size())
            } else {
                let bytes = std::fs::read(path).unwrap_or_default();
                let normalised = std::str::from_utf8(&bytes)
                    .ok()
                    .filter(|t| t.contains(needle.as_str()))
                    .map(|t| t.replace(needle.as_str(), "$ROOT"));
                let bytes = normalised.as_ref().map_or(&bytes[..], |t| t.as_bytes());
                let mut h = std::hash::DefaultHasher::new();
                h.write(bytes);
                format!("file {mode:o} {} bytes {:016x}", bytes.len(), h.finish())
            }
        } else {
            format!("special {mode:o}")
        };
        out.insert(rel.to_string(), value);
    });
    for (rel, git_dir) in indexes {
        out.insert(
            format!("{rel} (ls-files --stage -v)"),
            index_entries(&git_dir),
        );
    }
    let contact = remote_contact(&root.join(TRACE_DIR));
    if !contact.is_empty() {
        out.insert("remote contact (trace2)".into(), contact.join(", "));
    }
    out
}

/// Whether `path` is inside the object store of a git dir.
fn is_object(path: &Path) -> bool {
    path.ancestors().any(|a| {
        a.file_name().is_some_and(|n| n == "objects")
            && a.parent().is_some_and(|p| p.join("HEAD").is_file())
            && !path.starts_with(a.join("info"))
    })
}

/// The index of `git_dir` as `git ls-files --stage -v` would list it;
/// programs a planted config names (fsmonitor) are never run for this read.
fn index_entries(git_dir: &Path) -> String {
    // Read in process when the format is the plain one (versions 2 and 3):
    // a thousand snapshots would otherwise cost thousands of git processes.
    std::fs::read(git_dir.join("index"))
        .ok()
        .and_then(|bytes| parse_index(&bytes))
        .unwrap_or_else(|| index_entries_by_git(git_dir))
}

/// The index of `git_dir` as `git ls-files --stage -v` prints it.
pub fn index_entries_by_git(git_dir: &Path) -> String {
    let out = Command::new("git")
        .arg(format!("--git-dir={}", git_dir.display()))
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.untrackedCache=false",
            "ls-files",
            "--stage",
            "-v",
        ])
        .current_dir(git_dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null())
        .output()
        .expect("git ls-files runs");
    if out.status.success() {
        String::from_utf8_lossy(&out.stdout).into_owned()
    } else {
        format!(
            "unreadable: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    }
}

/// Lists an index of version 2 or 3 the way `git ls-files --stage -v`
/// does (tag, mode, id, stage, path; `h` for assume-unchanged, `S` for
/// skip-worktree), leaving out the stat data; `None` for anything else.
pub fn parse_index(bytes: &[u8]) -> Option<String> {
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..4)? != b"DIRC" || !matches!(u32_at(4)?, 2 | 3) {
        return None;
    }
    let count = u32_at(8)?;
    let mut at = 12;
    let mut out = String::new();
    for _ in 0..count {
        let mode = u32_at(at + 24)?;
        let id: String = bytes
            .get(at + 40..at + 60)?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let flags = u16::from_be_bytes(bytes.get(at + 60..at + 62)?.try_into().ok()?);
        let (extended, name_at) = if flags & 0x4000 != 0 {
            let more = u16::from_be_bytes(bytes.get(at + 62..at + 64)?.try_into().ok()?);
            (more, at + 64)
        } else {
            (0, at + 62)
        };
        let len = bytes.get(name_at..)?.iter().position(|&b| b == 0)?;
        let name = String::from_utf8_lossy(&bytes[name_at..name_at + len]);
        let tag = match (extended & 0x4000 != 0, flags & 0x8000 != 0) {
            (true, _) => "S",
            (false, true) => "h",
            (false, false) => "H",
        };
        out.push_str(&format!(
            "{tag} {mode:06o} {id} {}\t{name}\n",
            (flags >> 12) & 3
        ));
        // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
        at += (name_at - at + len + 8) & !7;
    }
    Some(out)
}

/// The server-side git commands trace2 recorded under `dir`.
fn remote_contact(dir: &Path) -> Vec<String> {
    let mut seen = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return seen;
    };
    for entry in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        for line in text.lines().filter(|l| l.contains(r#""event":"cmd_name""#)) {
            for name in SERVER_COMMANDS {
                if line.contains(&format!(r#""name":"{name}""#)) {
                    seen.push((*name).to_string());
                }
            }
        }
    }
    seen.sort();
    seen
}

/// The differences between two snapshots, one line each (`+` appeared, `-`
/// disappeared, `~` changed), each side normalised to its own root.
pub fn diff(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut lines = Vec::new();
    for (k, v) in before {
        match after.get(k) {
            None => lines.push(format!("- {k}")),
            Some(w) if w != v => lines.push(changed(k, v, w)),
            Some(_) => {}
        }
    }
    for k in after.keys().filter(|k| !before.contains_key(*k)) {
        lines.push(if k == MARK {
            format!("+ {k}  (the marker: a planted program ran)")
        } else {
            format!("+ {k}")
        });
    }
    lines
}

fn changed(key: &str, old: &str, new: &str) -> String {
    if old.contains('\n') || new.contains('\n') {
        // Index listings: name the entries that differ.
        let gone: Vec<&str> = old
            .lines()
            .filter(|l| !new.lines().any(|m| m == *l))
            .collect();
        let came: Vec<&str> = new
            .lines()
            .filter(|l| !old.lines().any(|m| m == *l))
            .collect();
        format!("~ {key}: -{gone:?} +{came:?}")
    } else {
        format!("~ {key}: {old} -> {new}")
    }
}

/// What a limited run printed and how it ended.
#[derive(Debug, Clone, Default)]
pub struct Ran {
    /// The exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
    /// Whether the limit was reached and the process group killed.
    pub timed_out: bool,
}

/// Whether processes can be started without capabilities (`setpriv`, as
/// root): a line that slips through must not set the machine's clock.
fn drop_capabilities() -> bool {
    static CAN: OnceLock<bool> = OnceLock::new();
    *CAN.get_or_init(|| {
        Command::new("setpriv")
            .args(["--bounding-set", "-all", "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// A command for `program ARGS` that runs without capabilities when it can.
pub fn confined(program: &Path, args: &[&str]) -> Command {
    if drop_capabilities() {
        let mut c = Command::new("setpriv");
        c.args(["--bounding-set", "-all", "--"])
            .arg(program)
            .args(args);
        c
    } else {
        let mut c = Command::new(program);
        c.args(args);
        c
    }
}

/// Runs `cmd` with stdin closed and no terminal, in its own process group,
/// killing the group when `limit` passes.
pub fn run_limited(mut cmd: Command, limit: Duration) -> Ran {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Ran {
                code: -1,
                stderr: format!("could not spawn: {e}"),
                ..Ran::default()
            }
        }
    };
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= limit => {
                timed_out = true;
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    // A process the command left behind may hold the pipes open. While it
    // does, its group still exists (so the id cannot have been reused):
    // kill that group, then stop waiting for output.
    let grace = Instant::now();
    while !(out_reader.is_finished() && err_reader.is_finished()) {
        if grace.elapsed() > Duration::from_secs(1) {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stderr(Stdio::null())
                .status();
            std::thread::sleep(Duration::from_millis(200));
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let collect = |reader: std::thread::JoinHandle<Vec<u8>>| {
        if reader.is_finished() {
            String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned()
        } else {
            "(output still held open by a leftover process)".to_string()
        }
    };
    Ran {
        code: status.and_then(|s| s.code()).unwrap_or(-1),
        stdout: collect(out_reader),
        stderr: collect(err_reader),
        timed_out,
    }
}
