//! `shadow snapshot` and `undo --session`: whatever a program outside the
//! store does to the dirty set — or to clean tracked files — is brought
//! back; ignored files are never saved.

use crate::common::TestRepo;

fn snap(repo: &TestRepo, session: &str) -> serde_json::Value {
    let out = repo.run(&["shadow", "snapshot", "--session", session, "--json"]);
    assert_eq!(out.code, 0, "{out}");
    serde_json::from_str(&out.stdout).expect("snapshot prints JSON")
}

fn undo(repo: &TestRepo, session: &str) {
    let out = repo.run(&["undo", "--session", session]);
    assert_eq!(out.code, 0, "{out}");
}

/// A repository with a committed `src/a.rs` and `b.txt`, an uncommitted
/// edit to `src/a.rs`, an untracked `notes.md`, and an ignored `target/`.
fn dirty_repo() -> TestRepo {
    let repo = TestRepo::with_commit();
    repo.write("src/a.rs", "fn a() {}\n");
    repo.write("b.txt", "bee\n");
    repo.write(".gitignore", "target/\n");
    repo.git(&["add", "."]);
    repo.git(&["commit", "-qm", "files"]);
    repo.write("src/a.rs", "fn a() { edited(); }\n");
    repo.write("notes.md", "my notes\n");
    repo.write("target/out.bin", "build output\n");
    repo
}

#[test]
fn test_undo_session_restores_what_a_program_deleted_modified_and_created() {
    let repo = dirty_repo();
    let before = repo.snapshot();
    let s = snap(&repo, "tool-1");
    assert_eq!(s["files"], 2, "{s}");
    assert_eq!(s["saved"], 2, "{s}");

    // A "program": deletes the edited file and the untracked one, rewrites
    // a clean tracked file, creates a new one, and wipes the build output.
    let root = repo.path();
    std::fs::remove_file(root.join("src/a.rs")).unwrap();
    std::fs::remove_file(root.join("notes.md")).unwrap();
    std::fs::write(root.join("b.txt"), "gutted\n").unwrap();
    std::fs::write(root.join("new.txt"), "made by the program\n").unwrap();
    std::fs::remove_dir_all(root.join("target")).unwrap();

    let s = snap(&repo, "tool-1");
    let recorded = s["recorded"].as_array().expect("recorded list");
    let kinds: Vec<(String, String)> = recorded
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().into(),
                c["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("src/a.rs".into(), "deleted".into())),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("notes.md".into(), "deleted".into())),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("b.txt".into(), "modified".into())),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("new.txt".into(), "created".into())),
        "{kinds:?}"
    );
    assert!(
        !kinds.iter().any(|k| k.0.starts_with("target")),
        "{kinds:?}"
    );

    undo(&repo, "tool-1");
    // Ignored build output is expendable: not saved, not brought back.
    let work = |m: std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>| {
        m.into_iter()
            .filter(|(p, _)| {
                !(p.starts_with("target") || p.starts_with(".fararoni") || p.starts_with(".git"))
            })
            .map(|(p, b)| (p, String::from_utf8_lossy(&b).into_owned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(work(repo.snapshot()), work(before));
}

#[test]
fn test_undo_session_reverses_git_commands_that_throw_work_away() {
    for destroy in [
        &["reset", "--hard"][..],
        &["checkout", "--", "."][..],
        &["stash", "-u"][..],
        &["clean", "-fd"][..],
    ] {
        let repo = dirty_repo();
        let a = repo.read("src/a.rs");
        let notes = repo.read("notes.md");
        snap(&repo, "agent-x");
        repo.git(destroy);
        snap(&repo, "agent-x");
        undo(&repo, "agent-x");
        assert_eq!(repo.read("src/a.rs"), a, "after git {destroy:?}");
        if destroy != ["reset", "--hard"] && destroy != ["checkout", "--", "."] {
            assert_eq!(repo.read("notes.md"), notes, "after git {destroy:?}");
        }
    }
}

#[test]
fn test_undo_session_restores_clean_files_a_moved_head_rewrote() {
    let repo = dirty_repo();
    repo.write("b.txt", "second version\n");
    repo.git(&["commit", "-qam", "second"]);
    snap(&repo, "s");
    // Clean files change with HEAD: `b.txt` goes back one commit, and the
    // uncommitted edit is lost too.
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    assert_eq!(repo.read("b.txt"), "bee\n");
    snap(&repo, "s");
    undo(&repo, "s");
    assert_eq!(repo.read("b.txt"), "second version\n");
    assert_eq!(repo.read("src/a.rs"), "fn a() { edited(); }\n");
}

#[test]
fn test_a_second_snapshot_of_an_unchanged_tree_saves_nothing_new() {
    let repo = dirty_repo();
    assert_eq!(snap(&repo, "s")["saved"], 2);
    let again = snap(&repo, "s");
    assert_eq!(again["saved"], 0, "{again}");
    assert_eq!(again["unchanged"], 2, "{again}");
    assert_eq!(
        again["recorded"].as_array().map(Vec::len),
        Some(0),
        "{again}"
    );
}

#[test]
fn test_snapshot_refuses_a_bad_session_id_and_writes_nothing() {
    let repo = dirty_repo();
    let out = repo.run(&["shadow", "snapshot", "--session", "a b\nc"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(!repo.path().join(".fararoni").exists());
}

#[test]
fn test_a_session_id_with_dots_and_slashes_never_names_a_file_outside_our_folder() {
    let repo = dirty_repo();
    let before = repo.git(&["status", "--porcelain", "--ignored"]);
    snap(&repo, "../../../x");
    snap(&repo, "../../hooks/pre-commit");
    assert!(!repo.path().join(".git/x.json").exists());
    assert!(!repo.path().join("x.json").exists());
    assert!(!repo.path().join(".git/hooks/pre-commit.json").exists());
    let after = repo.git(&["status", "--porcelain", "--ignored"]);
    assert_eq!(
        before.replace("!! .fararoni/\n", ""),
        after.replace("!! .fararoni/\n", "")
    );
}

#[test]
fn test_a_planted_symlink_in_the_dirty_set_is_never_followed_by_snapshot_or_undo() {
    let repo = dirty_repo();
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("secret.txt");
    std::fs::write(&target, "outside v1\n").unwrap();
    std::os::unix::fs::symlink(&target, repo.path().join("link.txt")).unwrap();
    let s = snap(&repo, "sym");
    assert_eq!(s["skipped"], 1, "{s}");
    // A program changes the file behind the link, then the session is undone.
    std::fs::write(&target, "outside v2\n").unwrap();
    snap(&repo, "sym");
    let out = repo.run(&["undo", "--session", "sym"]);
    assert!(out.code == 0 || out.code == 1, "{out}");
    // Nothing outside the repository was read into the store or written back.
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "outside v2\n");
    assert!(std::fs::symlink_metadata(repo.path().join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    let store = crate::common::snapshot(&repo.path().join(".fararoni"));
    assert!(
        !store.values().any(|b| b.starts_with(b"outside")),
        "outside content in the store"
    );
}
