//! `git fararoni guard check` and `guard write`: the kill-switch verdicts and
//! exit codes, and guarded writes end to end through the real binary.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

use crate::common::{Out, TestRepo};

/// Runs `git-fararoni ARGS` with `input` on standard input.
pub(crate) fn run_stdin(repo: &TestRepo, args: &[&str], input: &[u8]) -> Out {
    crate::common::run_with_stdin(repo.cmd("git-fararoni").args(args), input)
}

/// Returns the version files of `rel` in the store, oldest first.
pub(crate) fn version_files(repo: &TestRepo, rel: &str) -> Vec<PathBuf> {
    let p = Path::new(rel);
    let dir = repo
        .path()
        .join(".fararoni/shadow")
        .join(p.parent().unwrap_or(Path::new("")));
    let name = p
        .file_name()
        .expect("file name")
        .to_string_lossy()
        .into_owned();
    let mut out: Vec<(u64, PathBuf)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let f = e.file_name().to_string_lossy().into_owned();
                    let rest = f.strip_prefix(&format!("{name}.v"))?;
                    let (n, stamp) = rest.split_once('.')?;
                    (stamp.len() == 15).then_some(())?;
                    Some((n.parse().ok()?, e.path()))
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out.into_iter().map(|(_, p)| p).collect()
}

/// Twenty distinct lines, `line 0` … `line 19`.
pub(crate) fn lines(n: usize, prefix: &str) -> String {
    (0..n).map(|i| format!("{prefix} {i}\n")).collect()
}

/// The seed's worked example (45 lines cut to 20, one an elision).
fn seed_pair() -> (String, String) {
    (
        include_str!("../../fixtures/guard/seed-old.java").to_string(),
        include_str!("../../fixtures/guard/seed-new.java").to_string(),
    )
}

#[test]
fn test_guard_check_blocks_the_seed_example_with_json() {
    let repo = TestRepo::new();
    let (old, new) = seed_pair();
    repo.write("old.java", &old);
    repo.write("new.java", &new);
    let out = repo.run(&["guard", "check", "old.java", "new.java", "--json"]);
    assert_eq!(out.code, 3, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "block");
    assert_eq!(
        format!("{:.2}", v["jaccard"].as_f64().expect("f64")),
        "0.43"
    );
    assert_eq!(format!("{:.2}", v["volume"].as_f64().expect("f64")), "0.44");
    let reasons: Vec<&str> = v["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .map(|r| r.as_str().expect("string"))
        .collect();
    assert!(
        reasons.iter().any(|r| r.contains("volume 0.44")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("rest of the code")),
        "{reasons:?}"
    );

    let text = repo.run(&["guard", "check", "old.java", "new.java"]);
    assert_eq!(text.code, 3);
    assert!(text.stdout.starts_with("block: jaccard 0.43"), "{text}");
}

#[test]
fn test_guard_check_passes_a_pom_version_bump_and_new_files() {
    let repo = TestRepo::new();
    let pom: String = (0..17)
        .map(|i| match i {
            8 => "    <java.version>17</java.version>\n".to_string(),
            _ => format!("  <line{i}>value</line{i}>\n"),
        })
        .collect();
    repo.write("pom.xml", &pom);
    repo.write("pom.new", &pom.replace(">17<", ">25<"));
    let out = repo.run(&["guard", "check", "pom.xml", "pom.new", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "pass");
    assert_eq!(v["reasons"], serde_json::json!([]));

    let out = repo.run(&["guard", "check", "does-not-exist", "pom.new"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.starts_with("pass: new file"), "{out}");
}

#[test]
fn test_guard_check_reads_thresholds_from_git_config() {
    let repo = TestRepo::new();
    repo.write("old", &lines(10, "l"));
    repo.write("new", &lines(4, "l"));
    assert_eq!(repo.run(&["guard", "check", "old", "new"]).code, 3);
    repo.git(&["config", "fararoni.guard.volume", "0.3"]);
    repo.git(&["config", "fararoni.guard.jaccard", "0.3"]);
    let out = repo.run(&["guard", "check", "old", "new"]);
    assert_eq!(out.code, 0, "{out}");
    // A large pair is judged on threads while the thresholds are read:
    // they still decide.
    repo.write("big", &lines(40_000, "l"));
    repo.write("big.new", &lines(16_000, "l"));
    let out = repo.run(&["guard", "check", "big", "big.new"]);
    assert_eq!(out.code, 0, "{out}");
    repo.git(&["config", "--unset", "fararoni.guard.volume"]);
    let out = repo.run(&["guard", "check", "big", "big.new"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stdout.contains("(min 0.50)"), "{out}");
    repo.git(&["config", "fararoni.guard.volume", "lots"]);
    for args in [["old", "new"], ["big", "big.new"], ["missing", "new"]] {
        // A setting that cannot be read is an error, even where the
        // judgement needs no threshold (a new file).
        let out = repo.run(&["guard", "check", args[0], args[1]]);
        assert_eq!(out.code, 1, "{out}");
        assert!(out.stderr.contains("fararoni.guard.volume"), "{out}");
        assert!(out.stdout.is_empty(), "{out}");
    }
}

#[test]
fn test_guard_check_thresholds_follow_global_then_repository_then_environment() {
    // Ten lines cut to four: blocked by the default volume (0.50), passed
    // once volume and jaccard are lowered to 0.30.
    let (old, new) = (lines(10, "l"), lines(4, "l"));
    let verdict = |out: &Out| {
        assert!(matches!(out.code, 0 | 3), "{out}");
        out.stdout.split(':').next().unwrap_or_default().to_string()
    };

    // Outside any repository the global file (under HOME) is read.
    let dir = TestRepo::empty_dir();
    dir.write("old", &old);
    dir.write("new", &new);
    assert_eq!(
        verdict(&dir.run(&["guard", "check", "old", "new"])),
        "block"
    );
    let global = dir.home().join(".gitconfig");
    let mut text = std::fs::read_to_string(&global).expect("global config");
    text.push_str("[fararoni \"guard\"]\n\tvolume = 0.3\n\tjaccard = 0.3\n");
    std::fs::write(&global, &text).expect("write global config");
    let out = dir.run(&["guard", "check", "old", "new"]);
    assert_eq!(verdict(&out), "pass");
    assert!(out.stdout.contains("(min 0.30)"), "{out}");
    // Found through HOME alone, as git finds it.
    let out: Out = dir
        .cmd("git-fararoni")
        .args(["guard", "check", "old", "new"])
        .env_remove("GIT_CONFIG_GLOBAL")
        .output()
        .expect("runs")
        .into();
    assert_eq!(verdict(&out), "pass", "{out}");

    // In a repository, from a subdirectory: the global value holds until
    // the repository's own config says otherwise, and the environment
    // overrides both.
    let repo = TestRepo::new();
    std::fs::write(repo.home().join(".gitconfig"), &text).expect("write global config");
    repo.write("src/old", &old);
    repo.write("src/new", &new);
    let sub = repo.path().join("src");
    let out = repo.run_in(&sub, &["guard", "check", "old", "new"]);
    assert_eq!(verdict(&out), "pass");
    repo.git(&["config", "fararoni.guard.volume", "0.9"]);
    let out = repo.run_in(&sub, &["guard", "check", "old", "new", "--json"]);
    assert_eq!(out.code, 3, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "block");
    assert!(
        v["reasons"].to_string().contains("0.90"),
        "the repository's volume is the one applied: {out}"
    );
    let out: Out = repo
        .cmd("git-fararoni")
        .current_dir(&sub)
        .args(["guard", "check", "old", "new"])
        .env("FARARONI_GUARD_VOLUME", "0.3")
        .output()
        .expect("runs")
        .into();
    assert_eq!(verdict(&out), "pass", "{out}");
    // A check changes nothing: both files as they were, no store.
    assert_eq!(repo.read("src/old"), old);
    assert_eq!(repo.read("src/new"), new);
    assert!(!repo.path().join(".fararoni").exists());
}

#[test]
fn test_guard_check_missing_new_file_is_an_error() {
    let repo = TestRepo::new();
    let out = repo.run(&["guard", "check", "a", "b"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("could not read `b`"), "{out}");
}

#[test]
fn test_guard_write_from_stdin_backs_up_then_writes() {
    let repo = TestRepo::with_commit();
    repo.write("src/lib.rs", &lines(20, "fn f"));
    let new = lines(21, "fn f");
    let out = run_stdin(&repo, &["guard", "write", "src/lib.rs"], new.as_bytes());
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("saved as v1"), "{out}");
    assert_eq!(repo.read("src/lib.rs"), new);
    let versions = version_files(&repo, "src/lib.rs");
    assert_eq!(versions.len(), 1);
    assert_eq!(
        std::fs::read_to_string(&versions[0]).expect("read"),
        lines(20, "fn f")
    );
    // The store stays out of git, through info/exclude only.
    let status = repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "?? src/lib.rs\n");
    let exclude = std::fs::read_to_string(repo.path().join(".git/info/exclude")).expect("exclude");
    assert_eq!(exclude.matches("/.fararoni/").count(), 1);
    // The journal records the backup and the write.
    let journal =
        std::fs::read_to_string(repo.path().join(".fararoni/journal.jsonl")).expect("journal");
    let ops: Vec<String> = journal
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line")["op"].to_string())
        .collect();
    assert_eq!(ops, ["\"backup\"", "\"write\"", "\"done\""]);
    // A second write does not add a second exclude line.
    let out = run_stdin(
        &repo,
        &["guard", "write", "src/lib.rs"],
        lines(22, "fn f").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    let exclude = std::fs::read_to_string(repo.path().join(".git/info/exclude")).expect("exclude");
    assert_eq!(exclude.matches("/.fararoni/").count(), 1);
}

#[test]
fn test_guard_write_blocked_leaves_the_file_untouched() {
    let repo = TestRepo::with_commit();
    let (old, new) = seed_pair();
    repo.write("Credito.java", &old);
    let before = repo.snapshot();
    let out = run_stdin(&repo, &["guard", "write", "Credito.java"], new.as_bytes());
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stderr
            .contains("the kill-switch blocked the write to `Credito.java`"),
        "{out}"
    );
    assert!(
        out.stderr.contains("caused by: volume 0.44 is below 0.50"),
        "{out}"
    );
    assert!(out.stderr.contains("--force"), "{out}");
    assert_eq!(repo.read("Credito.java"), old);
    assert!(version_files(&repo, "Credito.java").is_empty());
    // Nothing outside the store (and our lock file in the git dir) changed.
    let after: Vec<_> = repo
        .snapshot()
        .into_iter()
        .filter(|(p, _)| {
            !p.starts_with(".fararoni")
                && p != Path::new(".git/info/exclude")
                && p != Path::new(".git/fararoni/lock")
        })
        .collect();
    let before: Vec<_> = before
        .into_iter()
        .filter(|(p, _)| p != Path::new(".git/info/exclude"))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn test_guard_write_force_skips_the_kill_switch_not_the_backup() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(20, "x"));
    let out = run_stdin(&repo, &["guard", "write", "a.txt", "--force"], b"");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("a.txt"), "");
    let v = version_files(&repo, "a.txt");
    assert_eq!(
        std::fs::read_to_string(&v[0]).expect("read"),
        lines(20, "x")
    );
}

#[test]
fn test_guard_write_reads_from_a_file_and_creates_new_files() {
    let repo = TestRepo::with_commit();
    let src = tempfile::NamedTempFile::new().expect("tempfile");
    std::fs::write(src.path(), "hello\n").expect("write");
    let from = src.path().to_str().expect("utf-8");
    let out = repo.run(&["guard", "write", "dir with space/ñandú.txt", "--from", from]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("created `dir with space/ñandú.txt`"),
        "{out}"
    );
    assert_eq!(repo.read("dir with space/ñandú.txt"), "hello\n");
    // Same content again: nothing to do.
    let out = repo.run(&["guard", "write", "dir with space/ñandú.txt", "--from", from]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("already has this content"), "{out}");
    assert!(version_files(&repo, "dir with space/ñandú.txt").is_empty());
    // --from a missing file is a clear error.
    let out = repo.run(&["guard", "write", "x.txt", "--from", "/nonexistent/file"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("could not read `/nonexistent/file`"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn test_guard_write_keeps_the_mode_and_crlf() {
    use std::os::unix::fs::PermissionsExt as _;
    let repo = TestRepo::with_commit();
    let crlf = lines(10, "echo").replace('\n', "\r\n");
    repo.write("run.sh", &crlf);
    let p = repo.path().join("run.sh");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    let edited = crlf.replace("echo 3", "echo three");
    let out = run_stdin(&repo, &["guard", "write", "run.sh"], edited.as_bytes());
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("run.sh"), edited);
    let mode = std::fs::metadata(&p).expect("meta").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o750);
    // Converting every line ending is blocked.
    let out = run_stdin(
        &repo,
        &["guard", "write", "run.sh"],
        edited.replace("\r\n", "\n").as_bytes(),
    );
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("from CRLF to LF"), "{out}");
}

#[test]
fn test_guard_write_blocks_binary_unless_forced() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(10, "t"));
    let out = run_stdin(&repo, &["guard", "write", "a.txt"], b"\x00\x01binary");
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("binary"), "{out}");
    let out = run_stdin(
        &repo,
        &["guard", "write", "a.txt", "--force"],
        b"\x00\x01binary",
    );
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        std::fs::read(repo.path().join("a.txt")).expect("read"),
        b"\x00\x01binary"
    );
}

#[test]
fn test_guard_write_from_a_subdirectory_resolves_relative_paths() {
    let repo = TestRepo::with_commit();
    repo.write("sub/deeper/f.txt", "one\n");
    let out = crate::common::run_with_stdin(
        repo.cmd("git-fararoni")
            .current_dir(repo.path().join("sub"))
            .args(["guard", "write", "deeper/f.txt"]),
        b"two\n",
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("`sub/deeper/f.txt`"), "{out}");
    assert_eq!(repo.read("sub/deeper/f.txt"), "two\n");
    assert_eq!(version_files(&repo, "sub/deeper/f.txt").len(), 1);
}

#[test]
fn test_guard_write_refuses_paths_outside_or_reserved() {
    let repo = TestRepo::with_commit();
    let out = run_stdin(&repo, &["guard", "write", "../escape.txt"], b"x");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("is outside the repository"), "{out}");
    let out = run_stdin(&repo, &["guard", "write", ".git/config"], b"x");
    assert_eq!(out.code, 3, "{out}");
    let out = run_stdin(&repo, &["guard", "write", ".fararoni/journal.jsonl"], b"x");
    assert_eq!(out.code, 3, "{out}");
    let out = run_stdin(&repo, &["guard", "write", "."], b"x");
    assert_eq!(out.code, 1, "{out}");
}

#[cfg(unix)]
#[test]
fn test_guard_write_never_writes_through_a_symlink_leaving_the_repo() {
    let repo = TestRepo::with_commit();
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("victim.txt");
    std::fs::write(&target, "precious\n").expect("write");
    std::os::unix::fs::symlink(&target, repo.path().join("link.txt")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), repo.path().join("linkdir")).expect("symlink");
    for path in ["link.txt", "linkdir/victim.txt", "linkdir/new.txt"] {
        let out = run_stdin(
            &repo,
            &["guard", "write", path, "--force"],
            b"overwritten\n",
        );
        assert_eq!(out.code, 3, "{path}: {out}");
        assert!(out.stderr.contains("outside the repository"), "{out}");
    }
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "precious\n"
    );
    assert!(!outside.path().join("new.txt").exists());
    // A symlink to a file inside the repository is written through.
    repo.write("real.txt", "a\n");
    std::os::unix::fs::symlink("real.txt", repo.path().join("inside.txt")).expect("symlink");
    let out = run_stdin(&repo, &["guard", "write", "inside.txt"], b"b\n");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("real.txt"), "b\n");
    assert!(std::fs::symlink_metadata(repo.path().join("inside.txt"))
        .expect("meta")
        .file_type()
        .is_symlink());
}

#[cfg(unix)]
#[test]
fn test_guard_write_unreadable_file_is_a_clear_error() {
    use std::os::unix::fs::PermissionsExt as _;
    let repo = TestRepo::with_commit();
    repo.write("secret.txt", "s\n");
    let p = repo.path().join("secret.txt");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "write", "secret.txt", "--force"]);
    if std::fs::read(&p).is_ok() {
        // Root reads whatever the mode says: run as a user of a new user
        // namespace who owns nothing here, where the mode is enforced.
        cmd = crate::common::in_user_namespace(&cmd);
    }
    let out = crate::common::run_with_stdin(&mut cmd, b"x\n");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("could not read"), "{out}");
    assert!(out.stderr.contains("ermission denied"), "{out}");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    assert_eq!(repo.read("secret.txt"), "s\n");
}

#[test]
fn test_guard_write_recreates_a_store_deleted_by_hand() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", &lines(10, "a"));
    assert_eq!(
        run_stdin(
            &repo,
            &["guard", "write", "a.txt"],
            lines(11, "a").as_bytes()
        )
        .code,
        0
    );
    std::fs::remove_dir_all(repo.path().join(".fararoni")).expect("rm -rf .fararoni");
    let out = run_stdin(
        &repo,
        &["guard", "write", "a.txt"],
        lines(12, "a").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    let v = version_files(&repo, "a.txt");
    assert_eq!(v.len(), 1);
    assert_eq!(
        std::fs::read_to_string(&v[0]).expect("read"),
        lines(11, "a")
    );
}

#[test]
fn test_guard_write_in_a_linked_worktree() {
    let repo = TestRepo::with_commit();
    let wt_parent = tempfile::tempdir().expect("tempdir");
    let wt = wt_parent.path().join("wt two");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "other",
        wt.to_str().expect("utf-8"),
    ]);
    let mut child = repo
        .cmd("git-fararoni")
        .current_dir(&wt)
        .args(["guard", "write", "README.md"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"# demo\nmore\n")
        .expect("write");
    let out: Out = child.wait_with_output().expect("wait").into();
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(wt.join("README.md")).expect("read"),
        "# demo\nmore\n"
    );
    assert_eq!(
        repo.read("README.md"),
        "# demo\n",
        "the main worktree is untouched"
    );
    assert!(wt.join(".fararoni/shadow").is_dir());
    assert!(!repo.path().join(".fararoni").exists());
    let status = repo.git(&["-C", wt.to_str().expect("utf-8"), "status", "--porcelain"]);
    assert_eq!(status, " M README.md\n");
}

#[test]
fn test_guard_write_fails_while_a_live_process_holds_the_lock() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    // This test process takes the lock, as a live git-fararoni would.
    let lock = repo.path().join(".git/fararoni/lock");
    std::fs::create_dir_all(lock.parent().expect("parent")).expect("mkdir");
    std::fs::write(&lock, format!("{}\n", std::process::id())).expect("write lock");
    let held = std::fs::File::open(&lock).expect("open lock");
    held.try_lock().expect("take the lock");
    let out = run_stdin(&repo, &["guard", "write", "a.txt"], b"b\n");
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains(&format!(
            "another git-fararoni (pid {}) holds the lock",
            std::process::id()
        )),
        "{out}"
    );
    assert_eq!(repo.read("a.txt"), "a\n");
    drop(held);
    // What a dead process left in the lock file does not hold anyone up:
    // its lock died with it.
    std::fs::write(&lock, "4194303\n1\n").expect("write lock");
    let out = run_stdin(&repo, &["guard", "write", "a.txt"], b"b\n");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("a.txt"), "b\n");
}

#[test]
fn test_guard_commands_outside_a_repository() {
    let dir = TestRepo::empty_dir();
    let out = run_stdin(&dir, &["guard", "write", "a.txt"], b"x");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("not a git repository"), "{out}");
    // `guard check` needs no repository.
    dir.write("a", "x\n");
    assert_eq!(dir.run(&["guard", "check", "a", "a"]).code, 0);
}

#[test]
fn test_guard_writes_from_concurrent_processes_are_serialised_and_all_journaled() {
    let repo = TestRepo::with_commit();
    let files: Vec<String> = (0..6).map(|n| format!("f{n}.txt")).collect();
    for f in &files {
        repo.write(f, "v0\n");
    }
    // Six files, three writes each, all at once on one repository.
    std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .iter()
            .flat_map(|f| (1..=3).map(move |round| (f, round)))
            .map(|(f, round)| {
                let repo = &repo;
                scope.spawn(move || {
                    crate::common::run_with_stdin(
                        repo.cmd("git-fararoni")
                            .args(["guard", "write", f.as_str(), "--force"]),
                        format!("{f} round {round}\n").as_bytes(),
                    )
                })
            })
            .collect();
        for run in runs {
            let out = run.join().expect("join");
            assert_eq!(out.code, 0, "{out}");
        }
    });
    // Every change the journal announces has its `done`, and none is left
    // for a recovery: the lock kept them one at a time.
    let journal =
        std::fs::read_to_string(repo.path().join(".fararoni/journal.jsonl")).expect("journal");
    let entries: Vec<Value> = journal
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect();
    let ids = |op: &str| -> Vec<String> {
        entries
            .iter()
            .filter(|e| e["op"] == op)
            .map(|e| e["id"].as_str().expect("id").to_string())
            .collect()
    };
    let (writes, dones) = (ids("write"), ids("done"));
    assert_eq!(writes.len(), 18, "{journal}");
    assert_eq!(writes, dones, "each change is followed by its own done");
    assert!(ids("recover").is_empty(), "{journal}");
    for f in &files {
        assert!(repo.read(f).starts_with(&format!("{f} round ")));
        assert_eq!(
            version_files(&repo, f).len(),
            3,
            "{f}: one backup per write"
        );
    }
}

/// Runs `guard write PATH` in session `session` with `content`.
fn write_in_session(repo: &TestRepo, session: &str, rel: &str, content: &str) -> Out {
    crate::common::run_with_stdin(
        repo.cmd("git-fararoni")
            .env("FARARONI_SESSION", session)
            .args(["guard", "write", rel]),
        content.as_bytes(),
    )
}

#[test]
fn test_guard_write_small_steps_in_a_session_cannot_add_up_to_a_gutting() {
    let repo = TestRepo::with_commit();
    let start = lines(30, "fn body");
    repo.write("lib.rs", &start);
    // Three steps, each keeping about 70% of the file as it is: each passes
    // against the file it replaces. Against the file as the session found
    // it, the third keeps 11 lines of 30 (volume 0.37 < 0.50).
    let steps = [
        lines(22, "fn body"),
        lines(16, "fn body"),
        lines(11, "fn body"),
    ];
    for step in &steps[..2] {
        let out = write_in_session(&repo, "agent-1", "lib.rs", step);
        assert_eq!(out.code, 0, "{out}");
    }
    let out = write_in_session(&repo, "agent-1", "lib.rs", &steps[2]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stderr.contains(
            "the kill-switch blocked the write to `lib.rs` compared with the file as session `agent-1` first found it (v1)"
        ),
        "{out}"
    );
    assert!(
        out.stderr.contains("caused by: volume 0.37 is below 0.50"),
        "{out}"
    );
    assert!(
        out.stderr.contains("shadow diff lib.rs --version 1"),
        "{out}"
    );
    assert_eq!(repo.read("lib.rs"), steps[1], "the file is unchanged");
    // The baseline is the session's first backup, whatever came between:
    // another session's write to the same file does not reset it.
    let out = write_in_session(&repo, "human", "lib.rs", &lines(17, "fn body"));
    assert_eq!(out.code, 0, "{out}");
    let out = write_in_session(&repo, "agent-1", "lib.rs", &steps[2]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("first found it (v1)"), "{out}");
    // Going back towards the start always passes.
    let out = write_in_session(&repo, "agent-1", "lib.rs", &lines(29, "fn body"));
    assert_eq!(out.code, 0, "{out}");
    // Another session starts from the file as it is now; --force still writes.
    let out = write_in_session(&repo, "agent-2", "lib.rs", &lines(21, "fn body"));
    assert_eq!(out.code, 0, "{out}");
    let out = crate::common::run_with_stdin(
        repo.cmd("git-fararoni")
            .env("FARARONI_SESSION", "agent-1")
            .args(["guard", "write", "lib.rs", "--force"]),
        steps[2].as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    // Undo of the session brings the file back to where it started.
    let out = repo.run(&["undo", "--session", "agent-1"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("lib.rs"), start);
}

#[test]
fn test_guard_write_session_baseline_catches_a_rewrite_in_steps() {
    // Each step rewrites a third of the lines: Jaccard 0.50 against the
    // file it replaces, 0.20 against the file as the session found it.
    let repo = TestRepo::with_commit();
    let a = lines(30, "original");
    repo.write("x.py", &a);
    let step1: String = lines(20, "original") + &lines(10, "rewritten once");
    let step2: String =
        lines(10, "original") + &lines(10, "rewritten once") + &lines(10, "rewritten twice");
    let out = write_in_session(&repo, "s", "x.py", &step1);
    assert_eq!(out.code, 0, "{out}");
    let out = write_in_session(&repo, "s", "x.py", &step2);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("first found it (v1)"), "{out}");
    assert!(out.stderr.contains("jaccard 0.20 is below 0.40"), "{out}");
    assert_eq!(repo.read("x.py"), step1);
}
