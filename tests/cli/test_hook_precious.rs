//! Ignored is not always expendable: files people keep by hand beside the
//! code (`.env*`, local configuration, databases, keys, and whatever
//! `fararoni.precious` names) are work git cannot give back, so destroying
//! them directly is vetoed like destroying untracked work, while build
//! output stays free to delete. Judged through Claude Code's payload and
//! the real binary; every vetoed line is also run without the hook on a
//! copy, to show it really destroys what the veto protects.

use std::path::Path;

use crate::common::TestRepo;
use crate::test_hook_agents::{assert_allowed, assert_vetoed, hook, shell_call};

/// A repository whose ignored files are a mix of precious and expendable.
fn repo() -> TestRepo {
    let r = TestRepo::with_commit();
    r.write(
        ".gitignore",
        ".env*\n*.db\nsecrets/\ntarget/\n*.log\nnotes.private\n",
    );
    r.git(&["add", ".gitignore"]);
    r.git(&["commit", "-q", "-m", "ignore"]);
    r.git(&["config", "fararoni.precious", "notes.private"]);
    r.write(".env.local", "API_KEY=secret\n");
    r.write("app.db", "SQLite format 3\0 rows\n");
    r.write("secrets/prod.key", "-----BEGIN KEY-----\n");
    r.write("notes.private", "my own notes\n");
    r.write("target/debug/out.o", "object\n");
    r.write("build.log", "log\n");
    r.write("tracked.txt", "tracked\n");
    r.git(&["add", "tracked.txt"]);
    r.git(&["commit", "-q", "-m", "t"]);
    r
}

/// The precious files and their content.
fn precious(r: &TestRepo) -> Vec<(String, Option<Vec<u8>>)> {
    [".env.local", "app.db", "secrets/prod.key", "notes.private"]
        .iter()
        .map(|p| (p.to_string(), std::fs::read(r.path().join(p)).ok()))
        .collect()
}

fn run_bash(dir: &Path, command: &str) {
    // The line's own exit status does not matter: its effect is checked.
    let _ = std::process::Command::new("bash")
        .args(["-c", command])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

#[test]
fn test_hook_precious_destroying_kept_ignored_files_is_vetoed_by_effect() {
    let destroyers = [
        "rm .env.local",
        "rm -f app.db",
        "rm -- ./.env.local",
        "rm *.db",
        "rm -rf secrets",
        "rm -r secrets/",
        "unlink notes.private",
        "shred -u app.db",
        "truncate -s 0 app.db",
        ": > .env.local",
        "cp tracked.txt .env.local",
        "mv tracked.txt app.db",
        "ln -sf tracked.txt notes.private",
        "dd if=/dev/zero of=app.db count=1",
        "find . -name '*.db' -delete",
        "find secrets -type f -delete",
        "FOO=1 rm .env.local",
        "cd secrets && rm prod.key",
        "sh -c 'rm app.db'",
        "rm .env.loc*",
        // Quoting, a second command after a newline, a path through a
        // folder, a link made earlier on the line.
        "rm '.env.local'",
        "rm .env.loc\"\"al",
        "true\nrm .env.local",
        "cat /dev/null > ./secrets/../.env.local",
        "ln -s .env.local l && : > l",
        "GIT_DIR=x rm -f app.db",
    ];
    for cmd in destroyers {
        let r = repo();
        let before = precious(&r);
        let out = hook(&r, "claude", &shell_call(&r, "claude", cmd));
        assert_vetoed("claude", &out, &[]);
        assert_eq!(precious(&r), before, "{cmd}: a veto changed something");
        // Without the hook the line really destroys one of them.
        run_bash(r.path(), cmd);
        assert_ne!(
            precious(&r),
            before,
            "{cmd}: the control destroyed nothing, so the veto proves nothing"
        );
    }
}

#[test]
fn test_hook_precious_build_output_stays_free_to_delete() {
    for cmd in [
        "rm -rf target",
        "rm target/debug/out.o",
        "rm build.log",
        "find . -name '*.log' -delete",
        "cargo clean",
    ] {
        let r = repo();
        let before = precious(&r);
        let out = hook(&r, "claude", &shell_call(&r, "claude", cmd));
        assert_allowed("claude", &out);
        run_bash(r.path(), cmd);
        assert_eq!(precious(&r), before, "{cmd}");
    }
}

#[test]
fn test_hook_precious_the_reason_names_the_file_and_what_to_do() {
    let r = repo();
    let out = hook(&r, "claude", &shell_call(&r, "claude", "rm .env.local"));
    let msg = assert_vetoed(
        "claude",
        &out,
        &["`.env.local`", "precious", "copy them aside"],
    );
    assert!(!msg.contains("commit or stash"), "{msg}");
}
