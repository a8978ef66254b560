//! `git fararoni undo`: bring back every file a session changed, touch
//! nothing else, list what cannot be brought back.

use std::path::Path;

use crate::common::TestRepo;

/// Returns the SHA-256 of `bytes`, lowercase hex, as the journal records it.
pub(crate) fn sha256(bytes: &[u8]) -> String {
    git_fararoni::shadow::sha256_hex(bytes)
}

/// Runs `guard write PATH --force` with `content` in session `session`.
fn write_in(repo: &TestRepo, session: &str, rel: &str, content: &str) {
    let out = crate::common::run_with_stdin(
        repo.cmd("git-fararoni")
            .env("FARARONI_SESSION", session)
            .args(["guard", "write", rel, "--force"]),
        content.as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
}

fn git_state(repo: &TestRepo) -> (String, String, String) {
    (
        repo.git(&["rev-parse", "HEAD"]),
        repo.git(&["for-each-ref"]),
        repo.git(&["ls-files", "--stage"]),
    )
}

#[test]
fn test_undo_restores_every_file_of_the_last_session_and_nothing_else() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a0\n");
    repo.write("sub dir/c.txt", "c0\n");
    repo.git(&["add", "a.txt"]);
    repo.write("bystander.txt", "mine\n");
    write_in(&repo, "earlier", "a.txt", "a-earlier\n");

    let git_before = git_state(&repo);
    write_in(&repo, "agent-7", "a.txt", "a1\n");
    write_in(&repo, "agent-7", "new file.txt", "created\n");
    write_in(&repo, "agent-7", "a.txt", "a2\n");
    write_in(&repo, "agent-7", "sub dir/c.txt", "c1\n");
    // A file the session never wrote, changed by someone else meanwhile.
    repo.write("bystander.txt", "mine, edited\n");

    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.starts_with("undoing session `agent-7`\n"),
        "{out}"
    );
    assert!(out.stdout.contains("restored `a.txt`"), "{out}");
    assert!(
        out.stdout
            .contains("removed `new file.txt`, which the session created"),
        "{out}"
    );
    assert!(out.stdout.contains("restored `sub dir/c.txt`"), "{out}");
    assert_eq!(repo.read("a.txt"), "a-earlier\n");
    assert_eq!(repo.read("sub dir/c.txt"), "c0\n");
    assert!(!repo.path().join("new file.txt").exists());
    assert_eq!(repo.read("bystander.txt"), "mine, edited\n");
    assert_eq!(
        git_state(&repo),
        git_before,
        "HEAD, refs and index are untouched"
    );

    // Undo again: the undo was its own session, so this redoes.
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("a.txt"), "a2\n");
    assert_eq!(repo.read("new file.txt"), "created\n");
    assert_eq!(repo.read("sub dir/c.txt"), "c1\n");

    // A named older session.
    let out = repo.run(&["undo", "--session", "earlier"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("a.txt"), "a0\n");
}

#[test]
fn test_undo_lists_what_it_cannot_bring_back() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a0\n");
    write_in(&repo, "s", "a.txt", "a1\n");
    write_in(&repo, "s", "made.txt", "made\n");
    // The created file changed after the session: it stays.
    repo.write("made.txt", "made, then edited by hand\n");
    // The backup of a.txt was deleted by hand.
    for e in std::fs::read_dir(repo.path().join(".fararoni/shadow"))
        .expect("ls")
        .flatten()
    {
        if e.file_name().to_string_lossy().starts_with("a.txt.v") {
            std::fs::remove_file(e.path()).expect("rm");
        }
    }
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stdout.contains("could not restore `a.txt`: version 1"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("kept `made.txt`: the session created it and it changed since"),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("undo could not bring back 2 of 2 file(s)"),
        "{out}"
    );
    assert_eq!(repo.read("a.txt"), "a1\n");
    assert_eq!(repo.read("made.txt"), "made, then edited by hand\n");
}

#[test]
fn test_undo_restores_a_file_changed_since_and_saves_the_later_content() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a0\n");
    write_in(&repo, "s", "a.txt", "a1\n");
    repo.write("a.txt", "a1 plus a human edit\n");
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("it had changed after the session; that content is saved as v2"),
        "{out}"
    );
    assert_eq!(repo.read("a.txt"), "a0\n");
    assert_eq!(
        repo.run(&["shadow", "show", "a.txt", "--version", "2"])
            .stdout,
        "a1 plus a human edit\n"
    );
}

#[test]
fn test_undo_with_nothing_to_undo() {
    let repo = TestRepo::with_commit();
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("the journal has no write to undo"),
        "{out}"
    );
    repo.write("a.txt", "a0\n");
    write_in(&repo, "known", "a.txt", "a1\n");
    let out = repo.run(&["undo", "--session", "unknown"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("no write in session `unknown`"),
        "{out}"
    );
    assert!(out.stderr.contains("hint: recent sessions: known"), "{out}");
    assert_eq!(repo.read("a.txt"), "a1\n");
}

#[test]
fn test_undo_never_cleans_or_resets() {
    let repo = TestRepo::with_commit();
    repo.write("tracked.txt", "t0\n");
    repo.git(&["add", "tracked.txt"]);
    repo.git(&["commit", "-q", "-m", "tracked"]);
    repo.write("untracked.txt", "u\n");
    repo.write("ignored.log", "i\n");
    repo.write(".gitignore", "*.log\n");
    repo.write("tracked.txt", "t0 with a staged change\n");
    repo.git(&["add", "tracked.txt"]);
    write_in(&repo, "s", "tracked.txt", "t-agent\n");
    // Everything but the file undo restores and our own state.
    let others = |repo: &TestRepo| -> Vec<_> {
        repo.snapshot()
            .into_iter()
            .filter(|(p, _)| {
                !p.starts_with(".fararoni")
                    && p != Path::new("tracked.txt")
                    && !p.starts_with(".git/fararoni")
            })
            .collect()
    };
    let before = others(&repo);
    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("tracked.txt"), "t0 with a staged change\n");
    let after = others(&repo);
    assert_eq!(
        before, after,
        "untracked, ignored, the index and .git are as they were"
    );
}

#[test]
fn test_undo_skips_a_change_a_crash_stopped_before_it_reached_the_file() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a0\n");
    repo.write("b.txt", "b0\n");
    write_in(&repo, "agent-9", "a.txt", "a1\n");
    // What a write killed after its journal lines and before anything else
    // leaves: a backup and a change announced for b.txt, never carried out
    // (ids and hashes of the exact form the store writes).
    let journal = repo.path().join(".fararoni/journal.jsonl");
    let mut text = std::fs::read_to_string(&journal).expect("journal");
    let id = "4242-0badf00d-1";
    let (b0, b1) = ("b0\n".as_bytes(), "b1\n".as_bytes());
    for line in [
        serde_json::json!({"time":"2026-12-02T10:00:00Z","session":"agent-9","op":"backup","path":"b.txt","version":7,"sha256":sha256(b0),"size":3,"id":id}),
        serde_json::json!({"time":"2026-12-02T10:00:00Z","session":"agent-9","op":"write","path":"b.txt","version":7,"sha256":sha256(b1),"size":3,"id":id}),
    ] {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    std::fs::write(&journal, text).expect("write journal");
    repo.write(&format!(".b.txt.fararoni-{id}.tmp"), "b1\n");

    let out = repo.run(&["undo"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("restored `a.txt`"), "{out}");
    assert!(!out.stdout.contains("b.txt"), "{out}");
    assert_eq!(repo.read("a.txt"), "a0\n");
    assert_eq!(repo.read("b.txt"), "b0\n");
    // The next transaction settled the crash: its temporary file is gone
    // and the journal says the change never reached the file.
    assert!(!repo
        .path()
        .join(format!(".b.txt.fararoni-{id}.tmp"))
        .exists());
    let journal = std::fs::read_to_string(&journal).expect("journal");
    assert!(
        journal.lines().any(|l| l.contains(r#""op":"recover""#)
            && l.contains(id)
            && l.contains(r#""applied":false"#)),
        "{journal}"
    );
}
