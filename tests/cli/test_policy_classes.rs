//! Classes of commands the policy refuses whatever subcommand carries them
//! (a stash moved onto a branch, hooks switched off through the tree, git
//! writing inside a git dir or the store, a switch or merge over ignored
//! files), and the ordinary work next to them that must keep running —
//! each judged by its effect on a real repository, through `ask` (level 1)
//! and through another agent's hook.

use serde_json::json;

use crate::common::{Out, TestRepo};
use crate::test_hook_agents::hook;

fn assert_code(out: &Out, code: i32) {
    assert_eq!(out.code, code, "{out}");
}

/// A repository whose hooks live in the tree (`core.hooksPath=.githooks`,
/// a tracked `pre-commit`), with a stash entry, an `other` branch that
/// tracks `.env`, and an ignored local `.env` here.
fn repo() -> TestRepo {
    let r = TestRepo::new();
    r.write(".githooks/pre-commit", "#!/bin/sh\nexit 0\n");
    r.write("src/app.rs", "fn main() {}\n");
    r.write(".gitignore", ".env\n");
    r.write("README.md", "# demo\n");
    r.git(&["add", "-A"]);
    r.git(&["commit", "-q", "-m", "initial"]);
    r.git(&["config", "core.hooksPath", ".githooks"]);
    r.git(&["switch", "-q", "-c", "other"]);
    r.write(".env", "SECRET=from-other\n");
    r.git(&["add", "-f", ".env"]);
    r.git(&["commit", "-q", "-m", "other tracks .env"]);
    r.git(&["switch", "-q", "main"]);
    r.write(".env", "SECRET=local\n");
    r.write("src/app.rs", "fn main() { work() }\n");
    r.git(&["stash", "-q"]);
    r.write("README.md", "# demo\nuncommitted\n");
    r
}

/// Everything a refused line must leave as it was: every file (the git
/// dir, so refs, reflogs, the stash and the index, included).
fn state(r: &TestRepo) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    r.snapshot()
}

/// Asserts that `ask LINE` is refused with `why` in its reason and that
/// nothing changed; then the same through Claude's hook.
fn refused(line: &str, why: &str) {
    let r = repo();
    let before = state(&r);
    let out = r.ask(line);
    assert_code(&out, 3);
    assert!(out.stderr.contains(why), "{line}: {out}");
    assert_eq!(state(&r), before, "{line} changed the repository");
    let out = hook(
        &r,
        "claude",
        &json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": line}, "session_id": "s",
                "cwd": r.path()}),
    );
    assert_code(&out, 2);
    assert!(out.stderr.contains("fararoni guard"), "{line}: {out}");
    assert!(r.path().join(".githooks/pre-commit").is_file());
    assert_eq!(r.read(".env"), "SECRET=local\n");
}

#[test]
fn test_policy_classes_a_stash_is_never_moved_onto_a_branch() {
    for line in [
        "git reset --soft stash@{0}",
        "git reset --soft 'stash@{0}'",
        "git reset --soft refs/stash",
        "git reset stash@{0}^2",
        "git merge --ff-only refs/stash",
        "git merge --no-edit stash",
        "git rebase 'stash@{0}'",
        "git rebase --onto stash~0 HEAD",
        "git cherry-pick -m 1 stash",
        "git branch -f other stash",
        "git branch saved Refs/Stash",
        "git update-ref refs/heads/main refs/stash",
        "git checkout -b saved stash@{0}",
        "git switch -c saved stash",
        "git tag saved stash",
        "git reset --soft ':/WIP on'",
    ] {
        refused(line, "stash");
    }
    // The stash's commit by its hash: refused by what it is, not its name.
    let r = repo();
    let id = r.git(&["rev-parse", "stash@{0}"]).trim().to_string();
    let before = state(&r);
    let out = r.ask(&format!("git reset --soft {id}"));
    assert_code(&out, 3);
    assert_eq!(state(&r), before);
    // A commit made on top of it carries it just the same.
    let tree = r.git(&["rev-parse", "HEAD^{tree}"]).trim().to_string();
    let on_top = r
        .git(&["commit-tree", &tree, "-p", &id, "-m", "on top"])
        .trim()
        .to_string();
    let out = r.ask(&format!("git merge --ff-only {on_top}"));
    assert_code(&out, 3);
    assert!(out.stderr.contains("stash"), "{out}");
}

#[test]
fn test_policy_classes_the_stash_itself_keeps_working() {
    let r = repo();
    let out = r.ask("git stash list");
    assert_code(&out, 0);
    assert!(out.stdout.contains("stash@{0}"), "{out}");
    let out = r.ask("git stash show -p stash@{0}");
    assert_code(&out, 0);
    assert!(out.stdout.contains("work()"), "{out}");
    // A soft reset onto the user's own commit is ordinary.
    r.git(&["commit", "-q", "-am", "second"]);
    let out = r.ask("git reset --soft HEAD~1");
    assert_code(&out, 0);
    assert_eq!(r.log(), ["initial"]);
}

#[test]
fn test_policy_classes_hooks_in_the_tree_stay_on() {
    for line in [
        "git rm -q .githooks/pre-commit",
        "git rm -r -q .githooks",
        "git rm -q .githooks/*",
        "git rm -q '.git*/pre-commit'",
        "git rm -r -q .",
        "cd src && git rm -q ../.githooks/pre-commit",
        "git mv .githooks .githooks-disabled",
        "git mv .githooks/pre-commit .githooks/pre-commit.off",
        "git mv README.md .githooks/pre-push",
        "git sparse-checkout set src",
        "git sparse-checkout init --cone",
        "git stash push --all",
    ] {
        refused(line, "core.hooksPath");
    }
    // Leaving the hooks folder alone is ordinary work.
    let r = repo();
    let out = r.ask("git rm -q --cached .githooks/pre-commit");
    assert_code(&out, 0);
    assert!(r.path().join(".githooks/pre-commit").is_file());
    let r = repo();
    let out = r.ask("git mv src/app.rs src/main.rs");
    assert_code(&out, 0);
    assert!(r.path().join("src/main.rs").is_file());
}

#[test]
fn test_policy_classes_git_writes_nothing_in_a_git_dir_or_the_store() {
    for line in [
        "cd .git/hooks && git unpack-file HEAD:README.md",
        "cd .git && git unpack-file HEAD:README.md",
        "cd .githooks && git unpack-file HEAD:README.md",
        "git format-patch -1 -o .fararoni/objects/x",
        "git log --output=.fararoni/journal.jsonl",
        "git diff --output=.git/hooks/pre-commit",
        "git archive -o .git/hooks/post-checkout HEAD",
    ] {
        refused(line, "");
    }
    // In the working tree, unpack-file writes its fresh temporary file.
    let r = repo();
    let out = r.ask("git unpack-file HEAD:README.md");
    assert_code(&out, 0);
    let name = out.stdout.trim();
    assert!(name.starts_with(".merge_file_"), "{out}");
    assert!(r.path().join(name).is_file());
}

#[test]
fn test_policy_classes_no_switch_or_merge_over_ignored_files() {
    for line in [
        "git switch other",
        "git checkout other",
        "git merge --no-edit other",
        "git merge --squash other",
        "git rebase other",
        "git cherry-pick other",
        "git switch --detach other",
        "git checkout -b copy other",
    ] {
        refused(line, ".env");
    }
    // Without the ignored file here, the same switch runs.
    let r = repo();
    std::fs::remove_file(r.path().join(".env")).unwrap();
    let out = r.ask("git switch other");
    assert_code(&out, 0);
    assert_eq!(r.read(".env"), "SECRET=from-other\n");
    // A branch that tracks nothing ignored switches as before.
    let r = repo();
    r.git(&["branch", "plain"]);
    let out = r.ask("git switch plain");
    assert_code(&out, 0);
    assert_eq!(r.read(".env"), "SECRET=local\n");
}

#[test]
fn test_policy_classes_a_branch_that_changes_the_hooks_is_refused() {
    let r = repo();
    r.git(&["switch", "-q", "-c", "nohooks"]);
    r.git(&["rm", "-q", ".githooks/pre-commit"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "drop hooks"]);
    r.git(&["switch", "-q", "main"]);
    let before = state(&r);
    for line in ["git switch nohooks", "git merge --no-edit nohooks"] {
        let out = r.ask(line);
        assert_code(&out, 3);
        assert!(out.stderr.contains("hooks"), "{line}: {out}");
        assert_eq!(state(&r), before, "{line}");
    }
}

#[test]
fn test_policy_classes_reading_outside_and_gc_run() {
    let r = repo();
    let name = r.path().file_name().unwrap().to_string_lossy().into_owned();
    let out = r.ask("cd .. && ls");
    assert_code(&out, 0);
    assert!(out.stdout.contains(&name), "{out}");
    let out = r.ask(&format!("cd ../ && git -C {name} status --short"));
    assert_code(&out, 0);
    assert!(out.stdout.contains("README.md"), "{out}");
    // gc runs, and loses nothing: an unreachable commit older than gc's
    // default two weeks, and an old reflog entry, are still there after.
    r.git(&["commit", "-q", "-am", "to drop"]);
    let dropped = r.git(&["rev-parse", "HEAD"]).trim().to_string();
    r.git(&["reset", "-q", "--hard", "HEAD~1"]);
    let objects = r.path().join(".git/objects");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(400 * 86_400);
    for dir in std::fs::read_dir(&objects).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let file = std::fs::File::options().write(true).open(f.path());
            if let Ok(file) = file {
                let _ = file.set_modified(old);
            }
        }
    }
    let reflog_before = r.git(&["reflog", "--format=%H"]);
    let out = r.run(&["ask", "-v", "git gc"]);
    assert_code(&out, 0);
    assert!(out.stderr.contains("gc.pruneExpire=never"), "{out}");
    assert_eq!(r.git(&["cat-file", "-t", &dropped]).trim(), "commit");
    assert_eq!(r.git(&["reflog", "--format=%H"]), reflog_before);
    let out = r.ask("git gc --auto");
    assert_code(&out, 0);
    // Pruning by its own option stays refused.
    let out = r.ask("git gc --prune=now");
    assert_code(&out, 3);
    assert_eq!(r.git(&["cat-file", "-t", &dropped]).trim(), "commit");
}
