//! Complete recovery: what a hook-allowed program does to the repository
//! itself — refs, the stash and each of its entries, tags, HEAD, the index,
//! the git dir's config and hooks — and to precious ignored files comes
//! back with `undo --session`, and so does every file the session created,
//! its first call included. Checked by effect in temporary repositories,
//! through Claude Code's pre and post payloads and the real binary.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use crate::common::{Out, TestRepo};
use crate::test_hook_agents::{
    assert_allowed, fixture, hook, repo_with_source, shell_call, source, write_call,
};

/// Claude's session id in the fixtures (`session_id: abc123`).
const SESSION: &str = "claude-abc123";

/// Runs a command line in the repository as the agent's shell would.
fn run_bash(r: &TestRepo, command: &str) -> Out {
    let mut cmd = std::process::Command::new("bash");
    r.env(&mut cmd);
    cmd.args(["-c", command]);
    cmd.output().expect("bash").into()
}

/// Claude's after-tool event for `repo`.
fn post(r: &TestRepo) {
    let mut post = fixture("claude", "post");
    post["cwd"] = json!(r.path().to_string_lossy());
    assert_allowed("claude", &hook(r, "claude", &post));
}

/// One Claude Bash call: the hook allows it, the command runs (and must
/// succeed), the after-hook records.
fn call(r: &TestRepo, command: &str) {
    assert_allowed(
        "claude",
        &hook(r, "claude", &shell_call(r, "claude", command)),
    );
    let out = run_bash(r, command);
    assert_eq!(out.code, 0, "{command}: {out}");
    post(r);
}

fn undo(r: &TestRepo, session: &str) -> Out {
    let out = r.run(&["undo", "--session", session]);
    assert_eq!(out.code, 0, "{out}");
    out
}

/// Every ref but ours, with its object.
fn refs(r: &TestRepo) -> String {
    r.git(&[
        "for-each-ref",
        "--format=%(refname) %(objectname) %(objecttype)",
    ])
    .lines()
    .filter(|l| !l.starts_with("refs/fararoni/"))
    .collect::<Vec<_>>()
    .join("\n")
}

/// The repository's own state, as a person would check it, by part:
/// refs, stash entries, HEAD, the staged changes, config, the hooks folder
/// and `info/exclude` (without the lines that keep our store out of git).
fn git_state(r: &TestRepo) -> BTreeMap<&'static str, String> {
    let git = r.path().join(".git");
    let text =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    let hooks: Vec<String> = crate::common::snapshot(&git.join("hooks"))
        .into_iter()
        .map(|(p, b)| format!("{} {}", p.display(), git_fararoni::shadow::sha256_hex(&b)))
        .collect();
    BTreeMap::from([
        ("refs", refs(r)),
        ("stash", r.git(&["stash", "list", "--format=%H %gs"])),
        ("head", r.git(&["symbolic-ref", "HEAD"])),
        ("head id", r.git(&["rev-parse", "HEAD"])),
        ("staged", r.git(&["diff", "--cached", "--name-status"])),
        ("config", text(&git.join("config"))),
        ("hooks", hooks.join("\n")),
        (
            "exclude",
            text(&git.join("info/exclude"))
                .lines()
                .filter(|l| !l.contains("fararoni"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    ])
}

/// Asserts two states are equal, part by part.
fn assert_same_state(a: &BTreeMap<&str, String>, b: &BTreeMap<&str, String>) {
    for (part, was) in a {
        assert_eq!(b.get(part), Some(was), "{part} differs");
    }
}

/// A repository with history and state worth losing: a branch whose commit
/// nothing else reaches, an annotated and a lightweight tag, two stash
/// entries, a staged change, uncommitted work, and ignored files — precious
/// ones (`.env.local`, a database) and build output (`target/`).
fn rich_repo() -> TestRepo {
    let r = repo_with_source();
    r.write(".gitignore", ".env.local\n*.db\ntarget/\n");
    r.write(
        "tools/wreck.sh",
        "set -e\n\
         git branch -D feature\n\
         git stash drop -q\n\
         git stash clear\n\
         git tag -d v1 light >/dev/null\n\
         git reset -q --hard HEAD~1\n\
         echo junk > junk.txt\n\
         git add junk.txt\n\
         git commit -q --no-verify -m evil\n\
         echo staged > staged-junk.txt\n\
         git add staged-junk.txt\n\
         git reflog expire --expire=now --all\n\
         git gc -q --prune=now\n\
         printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit\n\
         chmod +x .git/hooks/pre-commit\n\
         git config core.hooksPath .evil-hooks\n\
         git config user.email evil@example.com\n\
         echo created > created.txt\n\
         mkdir -p newdir && echo made > newdir/made.txt\n\
         rm -f .env.local data/app.db\n\
         rm -rf target\n",
    );
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "tools"]);
    r.write("src/second.py", &source(5));
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "second"]);
    // A branch whose commit only it reaches.
    r.git(&["switch", "-q", "-c", "feature"]);
    r.write("src/feature.py", "def feature():\n    return 1\n");
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "feature work"]);
    r.git(&["switch", "-q", "main"]);
    r.git(&["tag", "-a", "v1", "-m", "release one", "HEAD~1"]);
    r.git(&["tag", "light"]);
    // Two stash entries.
    for n in 1..=2 {
        r.write("src/app.py", &format!("{}# stash {n}\n", source(60)));
        r.git(&["stash", "push", "-q", "-m", &format!("stash {n}")]);
    }
    // Staged, modified and untracked work.
    r.write("src/second.py", &format!("{}# staged\n", source(5)));
    r.git(&["add", "src/second.py"]);
    r.write(
        "src/app.py",
        &format!("{}def work(x):\n    return x\n", source(60)),
    );
    r.write("notes.md", "my notes\n");
    // Ignored: precious files and build output.
    r.write(".env.local", "API_TOKEN=hand-made\n");
    std::fs::create_dir_all(r.path().join("data")).expect("mkdir");
    std::fs::write(
        r.path().join("data/app.db"),
        b"SQLite format 3\0\x01\x02rows",
    )
    .expect("db");
    r.write("target/debug/app", "build output\n");
    r
}

#[test]
fn test_recovery_undo_session_brings_back_refs_stash_tags_index_config_hooks_and_precious_files() {
    let r = rich_repo();
    let state = git_state(&r);
    let files = r.snapshot();
    call(&r, "sh tools/wreck.sh");
    // The script did what it says: the loss is real.
    assert!(r.git_out(&["rev-parse", "--verify", "-q", "feature"]).code != 0);
    assert_eq!(r.git(&["stash", "list"]), "");
    assert!(r.git_out(&["rev-parse", "--verify", "-q", "v1"]).code != 0);
    assert!(r.path().join(".git/hooks/pre-commit").exists());
    assert!(!r.path().join(".env.local").exists());
    assert_ne!(git_state(&r), state);

    let out = undo(&r, SESSION);
    for what in [
        "restored ref refs/heads/feature",
        "restored ref refs/tags/v1",
        "restored ref refs/stash",
        "removed hooks/pre-commit, which the session created",
        "restored config",
        "restored index",
    ] {
        assert!(out.stdout.contains(what), "`{what}` not in:\n{out}");
    }
    assert_same_state(&state, &git_state(&r));
    // Each stash entry, in order, with its content.
    assert!(r
        .git(&["show", "stash@{1}:src/app.py"])
        .ends_with("# stash 1\n"));
    assert!(r
        .git(&["show", "stash@{0}:src/app.py"])
        .ends_with("# stash 2\n"));
    // The annotated tag is the same object, with its message.
    assert_eq!(r.git(&["cat-file", "-t", "v1"]).trim(), "tag");
    assert!(r.git(&["cat-file", "-p", "v1"]).contains("release one"));
    // Work, precious files and the branch's commit are all there; what the
    // session created is gone; build output is expendable.
    let now = r.snapshot();
    for (path, bytes) in &files {
        if path.starts_with(".git") || path.starts_with(".fararoni") || path.starts_with("target") {
            continue;
        }
        assert_eq!(now.get(path), Some(bytes), "{}", path.display());
    }
    for created in [
        "created.txt",
        "newdir/made.txt",
        "junk.txt",
        "staged-junk.txt",
    ] {
        assert!(!r.path().join(created).exists(), "{created} is still there");
    }
    assert!(r
        .git(&["show", "feature:src/feature.py"])
        .contains("def feature"));
    let fsck = r.git_out(&["fsck", "--no-dangling"]);
    assert_eq!(fsck.code, 0, "{fsck}");
}

#[test]
fn test_recovery_undoing_the_undo_puts_the_refs_back_as_the_session_left_them() {
    let r = rich_repo();
    r.write(
        "tools/refs.sh",
        "git branch -D feature >/dev/null\ngit tag new-tag\n",
    );
    call(&r, "sh tools/refs.sh");
    let after_session = refs(&r);
    let out = undo(&r, SESSION);
    assert!(refs(&r).contains("refs/heads/feature"), "{out}");
    assert!(!refs(&r).contains("new-tag"), "{out}");
    // The undo is a session of its own, which can be undone in turn.
    let id = out
        .stderr
        .split("this undo is session `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the undo names its session")
        .to_string();
    undo(&r, &id);
    assert_eq!(refs(&r), after_session);
}

#[test]
fn test_recovery_a_new_file_written_by_the_first_call_of_a_session_is_undone() {
    for agent in ["claude", "gemini", "codex", "copilot"] {
        let r = repo_with_source();
        let before = r.snapshot();
        let call = write_call(&r, agent, "src/brand_new.py", "def new():\n    return 2\n");
        assert_allowed(agent, &hook(&r, agent, &call));
        // The agent writes the file, then its after-hook runs.
        r.write("src/brand_new.py", "def new():\n    return 2\n");
        let mut post = fixture(agent, "post");
        for key in ["cwd", "workspace_roots"] {
            if post.get(key).is_some_and(|v| v.is_string()) {
                post[key] = json!(r.path().to_string_lossy());
            }
        }
        if let Some(roots) = post
            .get_mut("workspace_roots")
            .and_then(|v| v.as_array_mut())
        {
            *roots = vec![json!(r.path().to_string_lossy())];
        }
        assert_allowed(agent, &hook(&r, agent, &post));
        let events = r.session_events();
        let created = events.iter().any(|e| {
            e["changes"].as_array().is_some_and(|c| {
                c.iter()
                    .any(|c| c["path"] == "src/brand_new.py" && c["change"] == "created")
            })
        });
        assert!(
            created,
            "{agent}: the after-record saw no creation: {events:?}"
        );
        let logs = r.session_logs();
        assert_eq!(logs.len(), 1, "{agent}: one session: {logs:?}");
        let session = logs[0].0.clone();
        let out = undo(&r, &session);
        assert!(
            out.stdout.contains("removed `src/brand_new.py`"),
            "{agent}: {out}"
        );
        assert!(!r.path().join("src/brand_new.py").exists(), "{agent}");
        let now = r.snapshot();
        let work = |m: &BTreeMap<std::path::PathBuf, Vec<u8>>| -> BTreeMap<_, _> {
            m.iter()
                .filter(|(p, _)| !p.starts_with(".git") && !p.starts_with(".fararoni"))
                .map(|(p, b)| (p.clone(), b.clone()))
                .collect()
        };
        assert_eq!(work(&now), work(&before), "{agent}");
    }
}

#[test]
fn test_recovery_a_build_that_deletes_the_store_first_is_still_undone() {
    let r = repo_with_source();
    r.write(
        "src/app.py",
        &format!("{}def work(x):\n    return x\n", source(60)),
    );
    r.write("notes.md", "my notes\n");
    // A first call changes a file (so the store and its journal hold the
    // session's start), a second deletes the store, then the work.
    r.write(
        "tools/first.sh",
        "printf 'first change\\n' >> src/app.py\necho one > made-early.txt\n",
    );
    r.write(
        "tools/nuke.sh",
        "rm -rf .fararoni\nrm notes.md\nprintf 'gutted\\n' > src/app.py\necho two > made-late.txt\n",
    );
    let before = r.snapshot();
    call(&r, "sh tools/first.sh");
    call(&r, "sh tools/nuke.sh");
    assert!(!r.path().join("notes.md").exists());
    let out = undo(&r, SESSION);
    assert_eq!(
        r.read("src/app.py"),
        String::from_utf8_lossy(&before[Path::new("src/app.py")]),
        "{out}"
    );
    assert_eq!(r.read("notes.md"), "my notes\n", "{out}");
    assert!(!r.path().join("made-early.txt").exists(), "{out}");
    assert!(!r.path().join("made-late.txt").exists(), "{out}");
}

#[test]
fn test_recovery_work_made_to_look_ignored_and_then_deleted_comes_back() {
    let r = repo_with_source();
    r.write("notes.md", "my notes\n");
    r.write("drafts/idea.txt", "an idea\n");
    r.write(
        "tools/hide.sh",
        "printf 'notes.md\\ndrafts/\\n' >> .gitignore\n",
    );
    r.write("tools/wipe.sh", "rm -rf notes.md drafts\n");
    r.write(".gitignore", "tools/\n");
    call(&r, "sh tools/hide.sh");
    // Now git calls them ignored; the next call deletes them.
    assert!(r
        .git(&["status", "--porcelain"])
        .lines()
        .all(|l| !l.contains("notes.md")));
    call(&r, "sh tools/wipe.sh");
    undo(&r, SESSION);
    assert_eq!(r.read("notes.md"), "my notes\n");
    assert_eq!(r.read("drafts/idea.txt"), "an idea\n");
    assert_eq!(r.read(".gitignore"), "tools/\n");
}

#[test]
fn test_recovery_precious_ignored_files_are_saved_and_build_output_is_not() {
    let r = repo_with_source();
    r.write(
        ".gitignore",
        "*.local.*\n*.sqlite\nconfig/\ntarget/\nnode_modules/\nkeep.me\n",
    );
    r.git(&["add", ".gitignore"]);
    r.git(&["commit", "-q", "-m", "ignore"]);
    r.write("settings.local.json", "{\"token\": 1}\n");
    r.write("config/local.toml", "[db]\nurl = 'x'\n");
    r.write("config/generated.txt", "not precious\n");
    r.write("db/dev.sqlite", "rows\n");
    r.write("target/debug/settings.local.json", "build output\n");
    r.write("node_modules/pkg/.env", "vendored\n");
    r.write("keep.me", "named by the setting\n");
    r.git(&["config", "fararoni.precious", "keep.me"]);
    let out = r.run(&["shadow", "snapshot", "--session", "p", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["saved"], 4, "{v}");
    let listed = r.run(&["shadow", "list", "--json"]);
    for saved in [
        "settings.local.json",
        "config/local.toml",
        "db/dev.sqlite",
        "keep.me",
    ] {
        assert!(listed.stdout.contains(saved), "{saved} not saved: {listed}");
    }
    for not in ["generated.txt", "target/", "node_modules/"] {
        assert!(!listed.stdout.contains(not), "{not} saved: {listed}");
    }
    // A program deletes them; undo brings the precious ones back.
    for f in [
        "settings.local.json",
        "config/local.toml",
        "db/dev.sqlite",
        "keep.me",
    ] {
        std::fs::remove_file(r.path().join(f)).expect("rm");
    }
    let out = r.run(&["shadow", "snapshot", "--session", "p"]);
    assert_eq!(out.code, 0, "{out}");
    undo(&r, "p");
    assert_eq!(r.read("config/local.toml"), "[db]\nurl = 'x'\n");
    assert_eq!(r.read("db/dev.sqlite"), "rows\n");
    assert_eq!(r.read("keep.me"), "named by the setting\n");
}

#[test]
fn test_recovery_a_planted_store_is_quarantined_inside_the_git_dir() {
    let r = TestRepo::with_commit();
    r.write("a.txt", "a0\n");
    // A store that is not ours: a file where the folder should be.
    r.write(".fararoni", "planted\n");
    let out = crate::common::run_with_stdin(
        r.cmd("git-fararoni")
            .args(["guard", "write", "a.txt", "--force"]),
        b"a1\n",
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains(".git/fararoni/quarantine/"), "{out}");
    let names: Vec<String> = std::fs::read_dir(r.path())
        .expect("ls")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".fararoni.")),
        "moved aside into the working tree: {names:?}"
    );
    let q = r.path().join(".git/fararoni/quarantine");
    let moved: Vec<_> = std::fs::read_dir(&q)
        .expect("quarantine")
        .flatten()
        .collect();
    assert_eq!(moved.len(), 1);
    assert_eq!(
        std::fs::read_to_string(moved[0].path()).expect("read"),
        "planted\n"
    );
    // `git add -A` commits nothing of it.
    r.git(&["add", "-A"]);
    let staged = r.git(&["diff", "--cached", "--name-only"]);
    assert_eq!(staged.trim(), "a.txt", "{staged}");
}

#[test]
fn test_recovery_objects_survive_gc_through_our_keep_ref() {
    let r = rich_repo();
    let feature = r.git(&["rev-parse", "feature"]).trim().to_string();
    r.write(
        "tools/prune.sh",
        "git branch -D feature >/dev/null\ngit reflog expire --expire=now --all\ngit gc -q --prune=now\n",
    );
    call(&r, "sh tools/prune.sh");
    // The commit is still in the object database, reachable from our ref.
    assert_eq!(r.git(&["cat-file", "-t", &feature]).trim(), "commit");
    let keep = r.git(&["for-each-ref", "--format=%(refname)", "refs/fararoni/keep/"]);
    assert_eq!(keep.lines().count(), 1, "{keep}");
    undo(&r, SESSION);
    assert_eq!(r.git(&["rev-parse", "feature"]).trim(), feature);
}

/// Every file under `dir`, for comparing before and after.
fn outside_files(dir: &Path) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    crate::common::snapshot(dir)
}

#[test]
fn test_recovery_a_planted_ledger_never_makes_undo_write_outside_the_repository() {
    let r = rich_repo();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("keep.txt"), "outside\n").expect("write");
    let before = outside_files(outside.path());
    r.write(
        "tools/hook.sh",
        "printf '#!/bin/sh\\n' > .git/hooks/pre-push\n",
    );
    call(&r, "sh tools/hook.sh");
    // Someone with write access to the git dir points the ledger's hooks
    // folder elsewhere on the machine.
    let state = r.path().join(".git/fararoni/state");
    for e in std::fs::read_dir(&state).expect("ledgers").flatten() {
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(e.path()).expect("read")).expect("JSON");
        v["hooks_dir"] = json!(outside.path().to_string_lossy());
        std::fs::write(e.path(), v.to_string()).expect("write");
    }
    let out = r.run(&["undo", "--session", SESSION]);
    assert!(out.code == 0 || out.code == 1, "{out}");
    assert_eq!(outside_files(outside.path()), before, "{out}");
    // The hook the session wrote is gone from the repository's own folder.
    assert!(!r.path().join(".git/hooks/pre-push").exists(), "{out}");
}

#[cfg(unix)]
#[test]
fn test_recovery_a_hooks_folder_swapped_for_a_symlink_is_never_written_through() {
    let r = rich_repo();
    let outside = tempfile::tempdir().expect("tempdir");
    let before = outside_files(outside.path());
    r.write(
        "tools/swap.sh",
        &format!(
            "echo '# changed' >> .git/hooks/pre-commit.sample\nmv .git/hooks .git/hooks-old\nln -s '{}' .git/hooks\n",
            outside.path().display()
        ),
    );
    call(&r, "sh tools/swap.sh");
    let out = r.run(&["undo", "--session", SESSION]);
    assert!(out.code == 0 || out.code == 1, "{out}");
    assert_eq!(outside_files(outside.path()), before, "{out}");
}

#[cfg(unix)]
#[test]
fn test_recovery_a_precious_name_that_is_a_symlink_out_is_never_read() {
    let r = repo_with_source();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("secret"), "outside secret\n").expect("write");
    r.write(".gitignore", ".env.local\n");
    std::os::unix::fs::symlink(outside.path().join("secret"), r.path().join(".env.local"))
        .expect("ln");
    let out = r.run(&["shadow", "snapshot", "--session", "s", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let store = crate::common::snapshot(&r.path().join(".fararoni"));
    assert!(
        !store.values().any(|b| b.starts_with(b"outside")),
        "outside content in the store"
    );
}

/// A session that only reads, and whose one write is vetoed, leaves nothing
/// of ours in the repository's refs or store: the after-hook of a read does
/// not start a baseline (it could not undo the call that just ran), and a
/// vetoed change is judged before anything is saved.
#[test]
fn test_recovery_a_session_of_reads_and_vetoes_leaves_no_trace() {
    for agent in ["claude", "gemini", "codex"] {
        let r = repo_with_source();
        r.write("src/app.py", &format!("{}# local change\n", source(60)));
        let before = r.snapshot();
        let read = shell_call(&r, agent, "cat src/app.py");
        assert_allowed(agent, &hook(&r, agent, &read));
        assert_eq!(run_bash(&r, "cat src/app.py >/dev/null").code, 0);
        let mut after = fixture(agent, "post");
        if after.get("cwd").is_some_and(|v| v.is_string()) {
            after["cwd"] = json!(r.path().to_string_lossy());
        }
        assert_allowed(agent, &hook(&r, agent, &after));
        let gut = write_call(&r, agent, "src/app.py", "def f0(x):\n    return x\n");
        let out = hook(&r, agent, &gut);
        crate::test_hook_agents::assert_vetoed(agent, &out, &["kill-switch"]);
        let ours = r.git(&["for-each-ref", "--format=%(refname)", "refs/fararoni/"]);
        assert_eq!(ours.trim(), "", "{agent}: a ref of ours was left");
        assert!(
            !r.path().join(".fararoni").exists(),
            "{agent}: a store was started for a session that changed nothing"
        );
        let work = |m: BTreeMap<std::path::PathBuf, Vec<u8>>| -> Vec<_> {
            m.into_iter()
                .filter(|(p, _)| !p.starts_with(".git"))
                .map(|(p, b)| (p, crate::test_undo::sha256(&b)))
                .collect()
        };
        assert_eq!(work(r.snapshot()), work(before), "{agent}");
    }
}
