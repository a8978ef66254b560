//! The shadow store's own folder as an attacker prepares it: symlinks,
//! FIFOs and hard links where the store keeps its data, forged journal
//! lines. Judged by effects: nothing outside the working tree or in the git
//! dir changes, no hook is planted, the write still happens with its backup
//! in a fresh store, and the tampered store is moved aside, never deleted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{snapshot, Out, TestRepo};
use crate::test_guard::{lines, version_files};
use crate::test_undo::sha256;

/// A folder outside the repository with a victim file and what it held.
pub(crate) struct Outside {
    pub(crate) dir: tempfile::TempDir,
    before: BTreeMap<PathBuf, Vec<u8>>,
}

impl Outside {
    pub(crate) fn new() -> Outside {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("victim.txt"), "precious\n").expect("write victim");
        let before = snapshot(dir.path());
        Outside { dir, before }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn victim(&self) -> PathBuf {
        self.dir.path().join("victim.txt")
    }

    /// Asserts nothing in the folder changed, and nothing was added.
    pub(crate) fn assert_untouched(&self, what: &str) {
        assert_eq!(
            snapshot(self.dir.path()),
            self.before,
            "{what}: the folder outside the repository changed"
        );
        let names: Vec<_> = std::fs::read_dir(self.dir.path())
            .expect("ls")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "{what}: files appeared outside: {names:?}");
    }
}

/// The git dir's files, but the lock (rewritten by every command) and
/// `info/exclude` (where the store keeps itself out of git).
pub(crate) fn git_dir_state(repo: &TestRepo) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot(&repo.path().join(".git"))
        .into_iter()
        .filter(|(p, _)| {
            p != Path::new("fararoni/lock")
                && p != Path::new("info/exclude")
                // Where a store that failed validation is moved.
                && !p.starts_with("fararoni/quarantine")
        })
        .collect()
}

/// A hook that, if it ever ran, would leave a marker outside the repository.
pub(crate) fn evil_hook(marker: &Path) -> String {
    format!("#!/bin/sh\necho pwned > '{}'\n", marker.display())
}

/// Commits (running whatever hooks git finds) and asserts the marker a
/// planted hook would write is absent.
pub(crate) fn assert_no_hook_ran(repo: &TestRepo, marker: &Path) {
    let _ = repo.git_out(&["commit", "-q", "--allow-empty", "-m", "probe"]);
    assert!(
        !marker.exists(),
        "a planted hook ran: {} exists",
        marker.display()
    );
}

/// Runs `git-fararoni ARGS` with `input` on stdin, killing it (and failing
/// the test) if it runs for more than 30 s: a FIFO must never hang us.
pub(crate) fn run_bounded(repo: &TestRepo, args: &[&str], input: &[u8]) -> Out {
    let mut child = repo
        .cmd("git-fararoni")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(input);
    }
    let started = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("git-fararoni {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output").into()
}

/// The stores moved aside, by path relative to the working tree: inside
/// the git dir, never in the working tree (where `git add -A` would commit
/// them).
pub(crate) fn moved_aside(repo: &TestRepo) -> Vec<String> {
    let in_tree: Vec<String> = std::fs::read_dir(repo.path())
        .expect("ls")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".fararoni.corrupt"))
        .collect();
    assert!(
        in_tree.is_empty(),
        "moved aside into the working tree: {in_tree:?}"
    );
    let quarantine = repo.path().join(".git/fararoni/quarantine");
    let mut out: Vec<String> = std::fs::read_dir(&quarantine)
        .map(|d| {
            d.flatten()
                .map(|e| {
                    format!(
                        ".git/fararoni/quarantine/{}",
                        e.file_name().to_string_lossy()
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// A repository with `a.txt` (20 lines) written once through the guard, so
/// that the store exists and holds one version.
fn repo_with_store() -> TestRepo {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "a"));
    let out = run_bounded(
        &repo,
        &["guard", "write", "a.txt"],
        lines(21, "a").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    repo
}

/// Runs a guarded write of a.txt that must succeed despite the tampering:
/// the tampered store moved aside (a warning says so), a fresh store holding
/// the backup, git's view unchanged, nothing outside touched.
fn write_survives(repo: &TestRepo, outside: &Outside, what: &str) {
    let git_before = git_dir_state(repo);
    let old = repo.read("a.txt");
    let new = format!("{old}one more line\n");
    let out = run_bounded(repo, &["guard", "write", "a.txt"], new.as_bytes());
    // Effects first: nothing outside, nothing in the git dir.
    outside.assert_untouched(what);
    assert_eq!(
        git_dir_state(repo),
        git_before,
        "{what}: the git dir changed"
    );
    assert_eq!(out.code, 0, "{what}: {out}");
    assert_eq!(repo.read("a.txt"), new, "{what}");
    let versions = version_files(repo, "a.txt");
    let last = versions.last().expect("a backup in the fresh store");
    assert_eq!(std::fs::read_to_string(last).expect("read"), old, "{what}");
    assert!(
        std::fs::symlink_metadata(repo.path().join(".fararoni"))
            .expect("store")
            .is_dir(),
        "{what}: a real folder"
    );
    assert!(
        out.stderr
            .contains("warning: the shadow store failed validation")
            && out.stderr.contains("moved aside to"),
        "{what}: {out}"
    );
    assert_eq!(moved_aside(repo).len(), 1, "{what}: moved aside once");
    // Stores moved aside stay out of git.
    let status = repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert!(!status.contains(".fararoni"), "{what}: {status}");
}

#[cfg(unix)]
#[test]
fn test_store_attacks_a_symlinked_store_folder_is_moved_aside() {
    use std::os::unix::fs::symlink;
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "a"));
    symlink(outside.path(), repo.path().join(".fararoni")).expect("ln");
    write_survives(&repo, &outside, ".fararoni -> outside");
    // What was moved aside is the symlink itself, still pointing outside.
    let aside = repo.path().join(&moved_aside(&repo)[0]);
    assert_eq!(
        std::fs::read_link(&aside).expect("a symlink"),
        outside.path()
    );
}

#[cfg(unix)]
#[test]
fn test_store_attacks_symlinked_store_subfolders_are_moved_aside() {
    use std::os::unix::fs::symlink;
    let hooks = |repo: &TestRepo| repo.path().join(".git/hooks");
    for (name, target) in [
        ("shadow", None),
        ("objects", None),
        ("shadow", Some(".git/hooks")),
        ("objects", Some(".git/hooks")),
    ] {
        let outside = Outside::new();
        let repo = repo_with_store();
        let store = repo.path().join(".fararoni").join(name);
        std::fs::remove_dir_all(&store).expect("rm");
        let to = match target {
            Some(t) => repo.path().join(t),
            None => outside.path().to_path_buf(),
        };
        symlink(&to, &store).expect("ln");
        let hooks_before = snapshot(&hooks(&repo));
        write_survives(&repo, &outside, &format!("{name} -> {}", to.display()));
        assert_eq!(
            snapshot(&hooks(&repo)),
            hooks_before,
            "{name}: hooks changed"
        );
    }
}

#[cfg(unix)]
#[test]
fn test_store_attacks_symlinked_store_files_are_never_written_through() {
    use std::os::unix::fs::symlink;
    for name in ["journal.jsonl", "session.jsonl", "size"] {
        let outside = Outside::new();
        let repo = repo_with_store();
        let file = repo.path().join(".fararoni").join(name);
        let _ = std::fs::remove_file(&file);
        symlink(outside.victim(), &file).expect("ln");
        write_survives(&repo, &outside, &format!("{name} -> victim"));
    }
    // The journal a symlink to a hook that does not exist yet: following
    // it would create the hook.
    let outside = Outside::new();
    let repo = repo_with_store();
    let marker = outside.path().join("marker");
    let journal = repo.path().join(".fararoni/journal.jsonl");
    std::fs::remove_file(&journal).expect("rm");
    symlink(repo.path().join(".git/hooks/pre-commit"), &journal).expect("ln");
    write_survives(&repo, &outside, "journal -> .git/hooks/pre-commit");
    assert!(!repo.path().join(".git/hooks/pre-commit").exists());
    assert_no_hook_ran(&repo, &marker);
}

#[cfg(unix)]
#[test]
fn test_store_attacks_hard_linked_store_files_are_never_written_in_place() {
    for name in ["journal.jsonl", "session.jsonl", "size"] {
        let outside = Outside::new();
        let repo = repo_with_store();
        let file = repo.path().join(".fararoni").join(name);
        let _ = std::fs::remove_file(&file);
        std::fs::hard_link(outside.victim(), &file).expect("ln");
        write_survives(&repo, &outside, &format!("{name} hard-linked to victim"));
    }
}

#[cfg(unix)]
#[test]
fn test_store_attacks_fifos_never_hang_a_command() {
    let mkfifo = |p: &Path| {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "mkfifo {}", p.display());
    };
    for name in ["journal.jsonl", "session.jsonl", "size"] {
        let outside = Outside::new();
        let repo = repo_with_store();
        let file = repo.path().join(".fararoni").join(name);
        let _ = std::fs::remove_file(&file);
        mkfifo(&file);
        write_survives(&repo, &outside, &format!("{name} a FIFO"));
    }
    // The store folder itself a FIFO.
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "a"));
    mkfifo(&repo.path().join(".fararoni"));
    write_survives(&repo, &outside, ".fararoni a FIFO");
    // A FIFO in place of a version and of an object: listed as nothing,
    // shown as nothing, never opened.
    let repo = repo_with_store();
    let v = version_files(&repo, "a.txt");
    std::fs::remove_file(&v[0]).expect("rm");
    mkfifo(&v[0]);
    for obj in std::fs::read_dir(repo.path().join(".fararoni/objects"))
        .expect("ls")
        .flatten()
    {
        std::fs::remove_file(obj.path()).expect("rm");
        mkfifo(&obj.path());
    }
    for args in [
        &["shadow", "list"][..],
        &["shadow", "list", "--json"],
        &["shadow", "show", "a.txt"],
        &["shadow", "restore", "--yes", "a.txt"],
        &["undo"],
        &["shadow", "prune", "--keep", "1", "--yes"],
    ] {
        let out = run_bounded(&repo, args, b"");
        assert!(!out.stdout.contains("precious"), "{args:?}: {out}");
    }
    // The journal a FIFO under undo: moved aside, nothing undone, no hang.
    let repo = repo_with_store();
    let journal = repo.path().join(".fararoni/journal.jsonl");
    std::fs::remove_file(&journal).expect("rm");
    mkfifo(&journal);
    let out = run_bounded(&repo, &["undo"], b"");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("moved aside"), "{out}");
    assert_eq!(repo.read("a.txt"), lines(21, "a"));
}

#[test]
fn test_store_attacks_a_store_that_is_a_file_is_moved_aside() {
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "a"));
    repo.write(".fararoni", "not a folder\n");
    write_survives(&repo, &outside, ".fararoni a file");
    let aside = repo.path().join(&moved_aside(&repo)[0]);
    assert_eq!(
        std::fs::read_to_string(aside).expect("kept"),
        "not a folder\n"
    );
}

/// Appends forged lines to the journal of `repo`.
fn forge(repo: &TestRepo, lines: &[serde_json::Value]) {
    let journal = repo.path().join(".fararoni/journal.jsonl");
    let mut text = std::fs::read_to_string(&journal).expect("journal");
    for l in lines {
        text.push_str(&l.to_string());
        text.push('\n');
    }
    std::fs::write(&journal, text).expect("write journal");
}

/// Builds a forged journal line for a repository.
type Forgery<'a> = Box<dyn Fn(&TestRepo) -> serde_json::Value + 'a>;

/// A forged unsettled `write` line (optionally with its `backup` line).
fn forged_write(path: &str, id: &str) -> serde_json::Value {
    serde_json::json!({
        "time": "2026-12-02T10:00:00Z", "session": "evil", "op": "write", "path": path,
        "version": 1, "sha256": sha256(b"x"), "size": 1, "id": id,
    })
}

#[cfg(unix)]
#[test]
fn test_store_attacks_forged_journal_lines_never_steer_recovery() {
    // Each forgery names a victim outside or a hook, through the id or the
    // path, and plants what the old recovery would have removed.
    let outside = Outside::new();
    let victim_rel =
        |repo: &TestRepo| pathdiff(outside.victim(), repo.path().join(".fararoni/objects"));
    let cases: Vec<(&str, Forgery<'_>)> = vec![
        (
            "id climbing out of objects",
            Box::new(move |repo| forged_write("a.txt", &format!("x/../{}", victim_rel(repo)))),
        ),
        (
            "id naming a hook",
            Box::new(|_| forged_write("a.txt", "x/../../../.git/hooks/pre-commit")),
        ),
        (
            "path ../outside",
            Box::new(|_| forged_write("../outside/victim.txt", "4242-0badf00d-1")),
        ),
        (
            "absolute path",
            Box::new(|_| forged_write("/etc/passwd", "4242-0badf00d-1")),
        ),
        (
            "path into .git/hooks",
            Box::new(|_| forged_write(".git/hooks/pre-commit", "4242-0badf00d-1")),
        ),
        (
            "id of another form",
            Box::new(|_| forged_write("a.txt", "crash-1")),
        ),
        (
            "bad sha256",
            Box::new(|_| {
                let mut l = forged_write("a.txt", "4242-0badf00d-1");
                l["sha256"] = "00".into();
                l
            }),
        ),
    ];
    for (what, line) in cases {
        let repo = repo_with_store();
        let marker = outside.path().join("marker");
        let hook = repo.path().join(".git/hooks/pre-commit");
        std::fs::write(&hook, "#!/bin/sh\nexit 0\n").expect("a user's hook");
        // What the old recovery would have followed `..` through.
        std::fs::create_dir_all(repo.path().join(".fararoni/objects/.tmp-x")).expect("mkdir");
        std::fs::create_dir_all(repo.path().join(".fararoni/objects/x")).expect("mkdir");
        forge(&repo, &[line(&repo)]);
        write_survives(&repo, &outside, what);
        assert_eq!(
            std::fs::read_to_string(&hook).expect("the user's hook is still there"),
            "#!/bin/sh\nexit 0\n",
            "{what}"
        );
        assert_no_hook_ran(&repo, &marker);
    }
}

/// Returns `to` relative to `from` (both absolute), with `..` as needed.
fn pathdiff(to: PathBuf, from: PathBuf) -> String {
    let to: Vec<_> = to.components().collect();
    let from: Vec<_> = from.components().collect();
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".into(); from.len() - common];
    out.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    out.join("/")
}

#[cfg(unix)]
#[test]
fn test_store_attacks_forged_lines_never_steer_undo_or_restore() {
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    // A forged session whose `write` names a hook, with a planted version
    // holding a hook: undo never writes it.
    let repo = repo_with_store();
    let planted = repo
        .path()
        .join(".fararoni/shadow/.git/hooks/pre-commit.v1.20260101-000000");
    std::fs::create_dir_all(planted.parent().expect("parent")).expect("mkdir");
    std::fs::write(&planted, evil_hook(&marker)).expect("plant");
    let id = "4242-0badf00d-7";
    forge(
        &repo,
        &[
            forged_write(".git/hooks/pre-commit", id),
            serde_json::json!({"time":"2026-12-02T10:00:00Z","session":"evil","op":"done","path":".git/hooks/pre-commit","id":id}),
        ],
    );
    let git_before = git_dir_state(&repo);
    let out = repo.run(&["undo", "--session", "evil"]);
    assert_ne!(out.code, 0, "{out}");
    assert!(!repo.path().join(".git/hooks/pre-commit").exists(), "{out}");
    assert_eq!(git_dir_state(&repo), git_before);
    assert_no_hook_ran(&repo, &marker);

    // A forged line with a path climbing out: the journal is untrusted,
    // the store moved aside, nothing undone.
    let repo = repo_with_store();
    let id = "4242-0badf00d-8";
    forge(
        &repo,
        &[
            forged_write("../outside/victim.txt", id),
            serde_json::json!({"time":"2026-12-02T10:00:00Z","session":"evil","op":"done","path":"a.txt","id":id}),
        ],
    );
    let out = repo.run(&["undo", "--session", "evil"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("failed validation") && out.stderr.contains("moved aside"),
        "{out}"
    );
    assert_eq!(moved_aside(&repo).len(), 1);
    assert_eq!(repo.read("a.txt"), lines(21, "a"));
    outside.assert_untouched("undo with a forged path");

    // A version changed after it was taken is not restored.
    let repo = repo_with_store();
    let v = version_files(&repo, "a.txt");
    let mut perms = std::fs::metadata(&v[0]).expect("meta").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&v[0], perms).expect("chmod");
    std::fs::write(&v[0], lines(20, "tampered")).expect("tamper");
    let out = repo.run(&["shadow", "restore", "--yes", "a.txt"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr
            .contains("does not hold what the journal recorded"),
        "{out}"
    );
    assert_eq!(repo.read("a.txt"), lines(21, "a"));
}

#[cfg(unix)]
#[test]
fn test_store_attacks_planted_objects_are_never_trusted() {
    // An object named after the content about to be backed up, hard-linked
    // to a file outside: with other bytes, and with the same bytes but
    // writable. Neither is used; the backup holds the right content and
    // stays right when the outside file changes.
    for same_bytes in [false, true] {
        let outside = Outside::new();
        let repo = TestRepo::with_commit();
        let old = lines(20, "a");
        repo.write("a.txt", &old);
        let link = outside.path().join("linked.txt");
        std::fs::write(
            &link,
            if same_bytes {
                old.clone()
            } else {
                lines(20, "b")
            },
        )
        .expect("write");
        let objects = repo.path().join(".fararoni/objects");
        std::fs::create_dir_all(&objects).expect("mkdir");
        std::fs::hard_link(&link, objects.join(sha256(old.as_bytes()))).expect("ln");
        let out = run_bounded(
            &repo,
            &["guard", "write", "a.txt"],
            lines(21, "a").as_bytes(),
        );
        assert_eq!(out.code, 0, "{out}");
        let v = version_files(&repo, "a.txt");
        assert_eq!(std::fs::read_to_string(&v[0]).expect("read"), old);
        std::fs::write(&link, "changed outside\n").expect("write");
        assert_eq!(
            std::fs::read_to_string(&v[0]).expect("read"),
            old,
            "the backup is not a name of the outside file"
        );
        let out = repo.run(&["shadow", "restore", "--yes", "a.txt"]);
        assert_eq!(out.code, 0, "{out}");
        assert_eq!(repo.read("a.txt"), old);
    }
}

#[cfg(unix)]
#[test]
fn test_store_attacks_read_commands_never_read_through_a_symlinked_store() {
    use std::os::unix::fs::symlink;
    let outside = Outside::new();
    // What a symlinked store would show: a "version" of a secret outside.
    std::fs::write(
        outside.path().join("secret.txt.v1.20260101-000000"),
        "top secret\n",
    )
    .expect("write");
    let repo = TestRepo::with_commit();
    std::fs::create_dir(repo.path().join(".fararoni")).expect("mkdir");
    symlink(outside.path(), repo.path().join(".fararoni/shadow")).expect("ln");
    for args in [
        &["shadow", "list"][..],
        &["shadow", "list", "--json"],
        &["shadow", "show", "secret.txt"],
    ] {
        let out = repo.run(args);
        assert_eq!(out.code, 1, "{args:?}: {out}");
        assert!(!out.stdout.contains("secret"), "{args:?}: {out}");
        assert!(out.stderr.contains("failed validation"), "{args:?}: {out}");
        assert!(out.stderr.contains("moves it aside"), "{args:?}: {out}");
    }
}

#[cfg(unix)]
#[test]
fn test_store_attacks_the_git_dir_lock_and_exclude_are_not_followed() {
    use std::os::unix::fs::symlink;
    // The lock file a symlink to a file outside: the command fails, the
    // file outside keeps its bytes.
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    std::fs::create_dir_all(repo.path().join(".git/fararoni")).expect("mkdir");
    symlink(outside.victim(), repo.path().join(".git/fararoni/lock")).expect("ln");
    let out = run_bounded(&repo, &["guard", "write", "a.txt"], b"b\n");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("symlink"), "{out}");
    assert_eq!(repo.read("a.txt"), "a\n");
    outside.assert_untouched("lock -> victim");
    // info/exclude a symlink to a file outside.
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    let exclude = repo.path().join(".git/info/exclude");
    let _ = std::fs::remove_file(&exclude);
    symlink(outside.victim(), &exclude).expect("ln");
    let out = run_bounded(&repo, &["guard", "write", "a.txt"], b"b\n");
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(repo.read("a.txt"), "a\n");
    outside.assert_untouched("info/exclude -> victim");
}

#[test]
fn test_store_attacks_a_forged_journal_deep_in_history_is_found_by_compaction() {
    // A journal past the compaction size with a forged line far from its
    // tail: the next write compacts, finds it, and moves the store aside.
    let outside = Outside::new();
    let repo = repo_with_store();
    let journal = repo.path().join(".fararoni/journal.jsonl");
    let mut text = std::fs::read_to_string(&journal).expect("journal");
    let mut bad = forged_write("../outside/victim.txt", "4242-0badf00d-1");
    bad["op"] = "evict".into();
    text.push_str(&bad.to_string());
    text.push('\n');
    let filler = serde_json::json!({"time":"2026-12-02T10:00:00Z","session":"old","op":"evict","path":"gone.txt","version":1,"size":1});
    let filler = format!("{filler}\n");
    while text.len() < 8 * 1024 * 1024 + 4096 {
        text.push_str(&filler);
    }
    std::fs::write(&journal, text).expect("write");
    write_survives(&repo, &outside, "forged line deep in a large journal");
}

#[cfg(unix)]
#[test]
fn test_store_attacks_more_variants_of_planted_links() {
    use std::os::unix::fs::symlink;
    // A version folder deeper in the store, symlinked outside: a backup of
    // `src/lib.rs` would land there.
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "a"));
    repo.write("src/lib.rs", &lines(20, "fn"));
    let out = run_bounded(
        &repo,
        &["guard", "write", "a.txt"],
        lines(21, "a").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    symlink(outside.path(), repo.path().join(".fararoni/shadow/src")).expect("ln");
    let out = run_bounded(
        &repo,
        &["guard", "write", "src/lib.rs"],
        lines(21, "fn").as_bytes(),
    );
    outside.assert_untouched("shadow/src -> outside");
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("moved aside"), "{out}");
    assert_eq!(version_files(&repo, "src/lib.rs").len(), 1);

    // An object that is a symlink to a file outside with the same bytes:
    // not used, replaced by a real object; the file outside keeps its name
    // and bytes.
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("b.txt", "precious\n");
    std::fs::create_dir_all(repo.path().join(".fararoni/objects")).expect("mkdir");
    symlink(
        outside.victim(),
        repo.path()
            .join(".fararoni/objects")
            .join(sha256(b"precious\n")),
    )
    .expect("ln");
    let out = run_bounded(&repo, &["guard", "write", "b.txt", "--force"], b"new\n");
    assert_eq!(out.code, 0, "{out}");
    outside.assert_untouched("object -> outside");
    let v = version_files(&repo, "b.txt");
    assert!(!std::fs::symlink_metadata(&v[0])
        .expect("meta")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&v[0]).expect("read"), "precious\n");

    // Temporary names of ours planted as symlinks to a file outside, with a
    // forged unsettled change naming them: recovery removes only regular
    // files it made, and never follows a link.
    let outside = Outside::new();
    let repo = repo_with_store();
    let id = "4242-0badf00d-3";
    symlink(
        outside.victim(),
        repo.path().join(format!(".a.txt.fararoni-{id}.tmp")),
    )
    .expect("ln");
    symlink(
        outside.victim(),
        repo.path().join(format!(".fararoni/objects/.tmp-{id}")),
    )
    .expect("ln");
    forge(&repo, &[forged_write("a.txt", id)]);
    let out = run_bounded(
        &repo,
        &["guard", "write", "a.txt"],
        lines(22, "a").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    outside.assert_untouched("temporaries planted as symlinks");

    // A version file hard-linked to a file outside: pruning removes our
    // name only.
    let outside = Outside::new();
    let repo = repo_with_store();
    std::fs::hard_link(
        outside.victim(),
        repo.path()
            .join(".fararoni/shadow/a.txt.v9.20260101-000000"),
    )
    .expect("ln");
    let out = run_bounded(
        &repo,
        &["guard", "write", "a.txt"],
        lines(22, "a").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    let out = run_bounded(&repo, &["shadow", "prune", "--keep", "1", "--yes"], b"");
    assert_eq!(out.code, 0, "{out}");
    outside.assert_untouched("version hard-linked outside, pruned");

    // An unsettled change whose path only looks unlike the git dir.
    let outside = Outside::new();
    let repo = repo_with_store();
    forge(
        &repo,
        &[forged_write(".GIT/hooks/pre-commit", "4242-0badf00d-4")],
    );
    write_survives(&repo, &outside, "unsettled change on .GIT/hooks");
}
