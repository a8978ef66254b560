//! `git fararoni shadow …` (and `git-fararoni-shadow`): listing, showing,
//! diffing, restoring and pruning backups; dedupe and retention; property
//! tests of the store through the library.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use camino::Utf8Path;
use git_fararoni::guard::{guarded_write, WriteOptions, WriteOutcome};
use git_fararoni::shadow::{Session, Shadow};
use proptest::prelude::*;
use serde_json::Value;

use crate::common::{Out, TestRepo};
use crate::test_guard::{lines, run_stdin, version_files};

fn write(repo: &TestRepo, rel: &str, content: &str) -> Out {
    let out = run_stdin(
        repo,
        &["guard", "write", rel, "--force"],
        content.as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    out
}

#[test]
fn test_shadow_list_show_and_json() {
    let repo = TestRepo::with_commit();
    repo.write("a b/ü.txt", "one\n");
    write(&repo, "a b/ü.txt", "two\n");
    write(&repo, "a b/ü.txt", "three\n");
    let out = repo.run(&["shadow", "list"]);
    assert_eq!(out.code, 0, "{out}");
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows[0].starts_with("v1 ") && rows[0].ends_with("a b/ü.txt"),
        "{out}"
    );
    assert!(rows[1].starts_with("v2 "), "{out}");

    let out = repo.run(&["shadow", "list", "a b/ü.txt", "--json"]);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let items = v.as_array().expect("array");
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["path"], "a b/ü.txt");
    assert_eq!(items[0]["version"], 1);
    assert_eq!(items[0]["size"], 4);
    assert_eq!(
        items[0]["sha256"],
        "2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806"
    );
    let file = items[1]["file"].as_str().expect("file");
    assert!(file.starts_with(".fararoni/shadow/a b/ü.txt.v2."), "{file}");
    assert_eq!(
        std::fs::read_to_string(repo.path().join(file)).expect("read"),
        "two\n"
    );

    assert_eq!(repo.run(&["shadow", "show", "a b/ü.txt"]).stdout, "two\n");
    assert_eq!(
        repo.run(&["shadow", "show", "a b/ü.txt", "--version", "1"])
            .stdout,
        "one\n"
    );
    let out = repo.run(&["shadow", "show", "a b/ü.txt", "--version", "9"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("has no version 9"), "{out}");
    assert!(out.stderr.contains("hint: list the versions"), "{out}");
    let out = repo.run(&["shadow", "show", "never.txt"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("has no backup"), "{out}");

    // The shadow binary is the same command.
    let alias = repo
        .cmd("git-fararoni-shadow")
        .args(["list"])
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&alias.stdout),
        repo.run(&["shadow", "list"]).stdout
    );
}

#[test]
fn test_shadow_list_is_empty_without_a_store() {
    let repo = TestRepo::with_commit();
    let out = repo.run(&["shadow", "list", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(out.stdout, "[]\n");
    assert!(
        !repo.path().join(".fararoni").exists(),
        "reads create nothing"
    );
}

#[test]
fn test_shadow_diff_against_the_working_file() {
    let repo = TestRepo::with_commit();
    repo.write("f.txt", "alpha\nbeta\n");
    write(&repo, "f.txt", "alpha\ngamma\n");
    let out = repo.run(&["shadow", "diff", "f.txt"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("-beta\n+gamma\n"), "{out}");
    std::fs::remove_file(repo.path().join("f.txt")).expect("rm");
    let out = repo.run(&["shadow", "diff", "f.txt", "--version", "1"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("-alpha\n-beta\n"), "{out}");
}

#[test]
fn test_shadow_restore_is_itself_reversible() {
    let repo = TestRepo::with_commit();
    repo.write("f.txt", "v0\n");
    write(&repo, "f.txt", "v1\n");
    write(&repo, "f.txt", "v2\n");
    // Default: the newest version.
    let out = repo.run(&["shadow", "restore", "--yes", "f.txt"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("restored `f.txt` from v2 (the content it replaced is saved as v3)"),
        "{out}"
    );
    assert_eq!(repo.read("f.txt"), "v1\n");
    let out = repo.run(&["shadow", "restore", "--yes", "f.txt", "--version", "1"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("f.txt"), "v0\n");
    // And back, from the version the restore saved.
    let out = repo.run(&["shadow", "restore", "--yes", "f.txt", "--version", "3"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("f.txt"), "v2\n");
    // Restoring what is already there changes nothing.
    let out = repo.run(&["shadow", "restore", "--yes", "f.txt", "--version", "3"]);
    assert!(out.stdout.contains("already matches v3"), "{out}");
    // A deleted file comes back.
    std::fs::remove_file(repo.path().join("f.txt")).expect("rm");
    assert_eq!(
        repo.run(&["shadow", "restore", "--yes", "f.txt", "--version", "1"])
            .code,
        0
    );
    assert_eq!(repo.read("f.txt"), "v0\n");
    let out = repo.run(&["shadow", "restore", "--yes", "f.txt", "--version", "99"]);
    assert_eq!(out.code, 1, "{out}");
}

#[cfg(unix)]
#[test]
fn test_shadow_restore_recreates_a_deleted_file_with_its_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let repo = TestRepo::with_commit();
    repo.write("run.sh", "echo 1\n");
    let p = repo.path().join("run.sh");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    write(&repo, "run.sh", "echo 2\n");
    std::fs::remove_file(&p).expect("rm");
    assert_eq!(repo.run(&["shadow", "restore", "--yes", "run.sh"]).code, 0);
    assert_eq!(repo.read("run.sh"), "echo 1\n");
    assert_eq!(
        std::fs::metadata(&p).expect("meta").permissions().mode() & 0o777,
        0o755
    );
}

/// Returns the bytes held by distinct files under `dir`.
fn distinct_bytes(dir: &Path) -> (u64, usize) {
    use std::os::unix::fs::MetadataExt as _;
    let mut seen = std::collections::HashSet::new();
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let m = e.metadata().expect("meta");
            if m.is_dir() {
                stack.push(e.path());
            } else if seen.insert((m.dev(), m.ino())) {
                total += m.len();
            }
        }
    }
    (total, seen.len())
}

#[cfg(unix)]
#[test]
fn test_shadow_stores_identical_content_once() {
    let repo = TestRepo::with_commit();
    let a = lines(400, "alpha line");
    let b = lines(401, "alpha line");
    repo.write("f.txt", &a);
    for i in 0..12 {
        write(&repo, "f.txt", if i % 2 == 0 { &b } else { &a });
    }
    assert_eq!(version_files(&repo, "f.txt").len(), 12);
    let (bytes, files) = distinct_bytes(&repo.path().join(".fararoni/objects"));
    assert_eq!(files, 2, "two distinct contents, two objects");
    assert_eq!(bytes, (a.len() + b.len()) as u64);
    let (bytes, _) = distinct_bytes(&repo.path().join(".fararoni/shadow"));
    assert_eq!(
        bytes,
        (a.len() + b.len()) as u64,
        "version files are links to the objects"
    );
}

#[test]
fn test_shadow_retention_keeps_max_versions_but_never_the_newest() {
    let repo = TestRepo::with_commit();
    // 10 is the floor of `fararoni.shadow.maxVersions`.
    repo.git(&["config", "fararoni.shadow.maxVersions", "10"]);
    repo.write("f.txt", "0\n");
    for i in 1..=14 {
        write(&repo, "f.txt", &format!("{i}\n"));
    }
    let v = version_files(&repo, "f.txt");
    let names: Vec<String> = v
        .iter()
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names[9].starts_with("f.txt.v14."), "{names:?}");
    assert_eq!(std::fs::read_to_string(&v[9]).expect("read"), "13\n");
    // The evicted versions' contents left the object store with them.
    let objects = std::fs::read_dir(repo.path().join(".fararoni/objects"))
        .expect("ls")
        .count();
    assert_eq!(objects, 10);
    // Evictions are journaled.
    let journal =
        std::fs::read_to_string(repo.path().join(".fararoni/journal.jsonl")).expect("journal");
    assert_eq!(journal.matches("\"op\":\"evict\"").count(), 4);
}

#[test]
fn test_shadow_retention_protects_what_undo_of_the_last_session_needs() {
    let repo = TestRepo::with_commit();
    repo.git(&["config", "fararoni.shadow.maxVersions", "10"]);
    repo.write("f.txt", "original\n");
    for i in 1..=13 {
        let out = repo
            .cmd("git-fararoni")
            .env("FARARONI_SESSION", "long-session")
            .args(["guard", "write", "f.txt", "--force"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write as _;
                c.stdin
                    .take()
                    .expect("stdin")
                    .write_all(format!("{i}\n").as_bytes())?;
                c.wait_with_output()
            })
            .expect("runs");
        assert!(out.status.success());
    }
    let v = version_files(&repo, "f.txt");
    assert!(v.len() <= 11, "{v:?}");
    assert!(v[0].to_string_lossy().contains("f.txt.v1."), "{v:?}");
    assert_eq!(std::fs::read_to_string(&v[0]).expect("read"), "original\n");
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("f.txt"), "original\n");
}

#[test]
fn test_shadow_prune_is_a_dry_run_unless_yes() {
    let repo = TestRepo::with_commit();
    repo.write("f.txt", "0\n");
    for i in 1..=4 {
        write(&repo, "f.txt", &format!("{i}\n"));
    }
    repo.write("g.txt", "g0\n");
    write(&repo, "g.txt", "g1\n");
    let out = repo.run(&["shadow", "prune", "--keep", "1"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("would remove v1 of `f.txt`"), "{out}");
    assert!(out.stdout.contains("would remove 3 version(s)"), "{out}");
    assert!(out.stderr.contains("--yes"), "{out}");
    assert_eq!(version_files(&repo, "f.txt").len(), 4);

    let out = repo.run(&["shadow", "prune", "--keep", "0", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("removed 3 version(s)"), "{out}");
    let f = version_files(&repo, "f.txt");
    assert_eq!(f.len(), 1, "the newest version of a file is never dropped");
    assert_eq!(std::fs::read_to_string(&f[0]).expect("read"), "3\n");
    assert_eq!(version_files(&repo, "g.txt").len(), 1);
    // Objects no version uses are gone too.
    let objects = std::fs::read_dir(repo.path().join(".fararoni/objects"))
        .expect("ls")
        .count();
    assert_eq!(objects, 2);

    let out = repo.run(&["shadow", "prune", "--older-than", "30d", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("removed 0 version(s)"), "{out}");
    let out = repo.run(&["shadow", "prune", "--older-than", "soon"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("invalid duration `soon`"), "{out}");
}

#[test]
fn test_shadow_prune_older_than_uses_the_version_time() {
    let repo = TestRepo::with_commit();
    repo.write("f.txt", "0\n");
    write(&repo, "f.txt", "1\n");
    write(&repo, "f.txt", "2\n");
    // Age v1 by renaming it to an old timestamp, as if taken in 2001.
    let v = version_files(&repo, "f.txt");
    let old = v[0].with_file_name("f.txt.v1.20010101-000000");
    std::fs::rename(&v[0], &old).expect("rename");
    let out = repo.run(&["shadow", "prune", "--older-than", "1w", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("removing v1 of `f.txt`"), "{out}");
    assert_eq!(version_files(&repo, "f.txt").len(), 1);
}

#[test]
fn test_shadow_rejects_a_bad_session_id() {
    let repo = TestRepo::with_commit();
    repo.write("f.txt", "0\n");
    let out = repo
        .cmd("git-fararoni")
        .env("FARARONI_SESSION", "has space")
        .args(["shadow", "restore", "--yes", "f.txt"])
        .output()
        .expect("runs");
    let out: Out = out.into();
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("invalid session id"), "{out}");
}

/// Every file under `root` except the store, the lock and `info/exclude`.
fn outside_store(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    crate::common::snapshot(root)
        .into_iter()
        .filter(|(p, _)| {
            !p.starts_with(".fararoni")
                && p != Path::new(".git/info/exclude")
                && !p.starts_with(".git/fararoni")
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Writing any sequence of contents then restoring the newest version
    /// brings back the content before the last write; version numbers
    /// strictly increase; nothing outside `.fararoni/` and the target
    /// changes.
    #[test]
    fn test_shadow_property_restore_undoes_write(
        contents in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 2..6),
        name in "[a-zA-Z0-9 _ñé-]{1,12}",
    ) {
        let repo = TestRepo::with_commit();
        repo.write("untouched.txt", "keep me\n");
        let rel = format!("dir/{name}.txt");
        let path = repo.path().join(&rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, &contents[0]).expect("write");
        let mut before = outside_store(repo.path());
        let opts = WriteOptions {
            force: true,
            session: Some(Session::new("prop").expect("session")),
            thresholds: None,
        };
        let mut last_version = 0;
        for window in contents.windows(2) {
            let (prev, next) = (&window[0], &window[1]);
            let written = guarded_write(repo.path(), Utf8Path::new(&rel), next, &opts)
                .expect("guarded write");
            prop_assert_eq!(&std::fs::read(&path).expect("read"), next);
            match written.outcome {
                WriteOutcome::Updated { backup } => {
                    prop_assert!(prev != next);
                    prop_assert!(backup >= last_version, "versions never go back");
                    if backup > last_version {
                        last_version = backup;
                    }
                    let shadow = Shadow::discover(repo.path()).expect("store");
                    let v = shadow.version(Utf8Path::new(&rel), Some(backup)).expect("version");
                    prop_assert_eq!(&shadow.read_version(&v).expect("read"), prev);
                }
                WriteOutcome::Unchanged => prop_assert_eq!(prev, next),
                WriteOutcome::Created => prop_assert!(false, "the file existed"),
            }
        }
        // The numbers on disk are strictly increasing and distinct.
        let shadow = Shadow::discover(repo.path()).expect("store");
        let numbers: Vec<u64> = shadow
            .versions(Utf8Path::new(&rel))
            .expect("versions")
            .iter()
            .map(|v| v.number)
            .collect();
        prop_assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{:?}", numbers);

        let after = outside_store(repo.path());
        before.insert(PathBuf::from(&rel), std::fs::read(&path).expect("read"));
        prop_assert_eq!(&before, &after);

        // restore(write(x)) = x: restoring the newest version brings back
        // the content from before the last change.
        if let Some(pos) = contents.windows(2).rposition(|w| w[0] != w[1]) {
            let mut tx = shadow.begin(Session::new("prop-restore").expect("session")).expect("tx");
            let target = shadow.resolve_rel(Utf8Path::new(&rel)).expect("path");
            tx.restore(&target, None).expect("restore");
            drop(tx);
            prop_assert_eq!(&std::fs::read(&path).expect("read"), &contents[pos]);
        }
    }
}
