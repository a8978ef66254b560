//! `git fararoni hooks install|uninstall|status` and the hooks themselves,
//! driven by real `git commit` and `git checkout` in temporary repositories.

use std::path::{Path, PathBuf};

use crate::common::TestRepo;
use crate::test_saga::{head_branch, saga_ok};

const USER_HOOK: &str = "#!/bin/sh\n# my own hook\necho \"user hook ran: $0\" >> \"$(git rev-parse --git-dir)/user-hook.log\"\nexit 0\n";

fn hook_path(r: &TestRepo, name: &str) -> PathBuf {
    r.path().join(".git/hooks").join(name)
}

fn write_exec(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write hook");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

fn install(r: &TestRepo) -> crate::common::Out {
    let out = r.run(&["hooks", "install"]);
    assert_eq!(out.code, 0, "{out}");
    out
}

/// A file of 40 distinct lines, committed.
fn committed_file(r: &TestRepo, rel: &str) {
    let text: String = (0..40)
        .map(|i| format!("let value_{i} = {i} * 2;\n"))
        .collect();
    r.write(rel, &text);
    r.git(&["add", rel]);
    r.git(&["commit", "-q", "--no-verify", "-m", &format!("add {rel}")]);
}

#[test]
fn test_hooks_install_into_a_hand_written_hook_both_run_and_uninstall_restores_bytes() {
    let r = TestRepo::with_commit();
    let path = hook_path(&r, "pre-commit");
    write_exec(&path, USER_HOOK);
    let out = install(&r);
    assert!(out.stdout.contains("added to the existing hook"), "{out}");
    assert!(hook_path(&r, "post-checkout").exists());
    let installed = std::fs::read(&path).expect("read");
    // Idempotent: a second install changes nothing.
    install(&r);
    assert_eq!(std::fs::read(&path).expect("read"), installed);
    // Both hooks run on a commit: ours passes an ordinary edit, theirs logs.
    committed_file(&r, "src.rs");
    let mut text = r.read("src.rs");
    text.push_str("let extra = 1;\n");
    r.write("src.rs", &text);
    r.git(&["commit", "-q", "-am", "ordinary edit"]);
    let log = std::fs::read_to_string(r.path().join(".git/user-hook.log")).expect("user hook ran");
    assert!(log.contains("pre-commit"), "{log}");
    assert_eq!(r.log()[0], "ordinary edit");
    let status = r.run(&["hooks", "status", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&status.stdout).expect("json");
    assert_eq!(v["hooks"][0]["state"], "chained", "{status}");
    assert_eq!(v["hooks"][1]["state"], "ours", "{status}");
    let out = r.run(&["hooks", "uninstall"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), USER_HOOK);
    assert!(!hook_path(&r, "post-checkout").exists());
}

#[test]
fn test_hooks_pre_commit_blocks_a_staged_gutted_file_and_the_bypasses_work() {
    let r = TestRepo::with_commit();
    install(&r);
    committed_file(&r, "lib.rs");
    r.write("lib.rs", "let value_0 = 0 * 2;\n// ... rest of the code\n");
    r.git(&["add", "lib.rs"]);
    let head = r.git(&["rev-parse", "HEAD"]);
    let out = r.git_out(&["commit", "-q", "-m", "gut it"]);
    assert_ne!(out.code, 0, "{out}");
    assert!(out.stderr.contains("lib.rs: jaccard"), "{out}");
    assert!(out.stderr.contains("--no-verify"), "{out}");
    assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "no commit was made");
    // FARARONI_GUARD=off lets it through, as --no-verify does.
    let mut cmd = std::process::Command::new("git");
    r.env(&mut cmd);
    let out: crate::common::Out = cmd
        .env("FARARONI_GUARD", "off")
        .args(["commit", "-q", "-m", "gut it on purpose"])
        .output()
        .expect("git")
        .into();
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(r.log()[0], "gut it on purpose");
}

#[test]
fn test_hooks_pre_commit_refuses_the_shadow_store_in_any_case() {
    let r = TestRepo::with_commit();
    install(&r);
    for dir in [
        ".fararoni",
        ".FARARONI",
        ".fararoni.corrupt-20260101-000000",
    ] {
        r.write(&format!("{dir}/journal.jsonl"), "{}\n");
        r.git(&["add", "-f", &format!("{dir}/journal.jsonl")]);
        let out = r.git_out(&["commit", "-q", "-m", "store"]);
        assert_ne!(out.code, 0, "{dir}: {out}");
        assert!(out.stderr.contains("shadow store"), "{out}");
        r.git(&["rm", "-rq", "--cached", dir]);
    }
}

#[test]
fn test_hooks_follow_core_hooks_path_and_sit_beside_husky() {
    let r = TestRepo::with_commit();
    // husky 9: core.hooksPath = .husky/_, whose hooks source `h`.
    let husky = r.path().join(".husky/_");
    let husky_hook = "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n";
    write_exec(&husky.join("pre-commit"), husky_hook);
    write_exec(
        &husky.join("h"),
        "#!/usr/bin/env sh\necho husky-ran >> \"$(git rev-parse --git-dir)/husky.log\"\n",
    );
    r.git(&["config", "core.hooksPath", ".husky/_"]);
    let out = install(&r);
    assert!(out.stdout.contains("(husky)"), "{out}");
    assert!(
        husky.join("post-checkout").exists(),
        "installed where git looks"
    );
    assert!(
        !hook_path(&r, "post-checkout").exists(),
        "not in .git/hooks"
    );
    committed_file(&r, "a.rs");
    r.write("a.rs", "gone\n");
    let out = r.git_out(&["commit", "-qam", "gut"]);
    assert_ne!(out.code, 0, "our block runs inside husky's hook: {out}");
    r.git(&["checkout", "-q", "HEAD", "--", "a.rs"]);
    r.write("b.txt", "new\n");
    r.git(&["add", "b.txt"]);
    r.git(&["commit", "-qm", "fine"]);
    assert!(r.path().join(".git/husky.log").exists(), "husky still runs");
    r.run(&["hooks", "uninstall"]);
    assert_eq!(
        std::fs::read_to_string(husky.join("pre-commit")).expect("read"),
        husky_hook
    );
}

#[test]
fn test_hooks_alongside_the_pre_commit_framework_and_refusals_of_odd_hooks() {
    let r = TestRepo::with_commit();
    let framework = "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\nexit 0\n";
    write_exec(&hook_path(&r, "pre-commit"), framework);
    // A Python post-checkout cannot take a shell block: left alone, exit 1.
    let python = "#!/usr/bin/env python3\nprint('hi')\n";
    write_exec(&hook_path(&r, "post-checkout"), python);
    let out = r.run(&["hooks", "install", "--json"]);
    assert_eq!(out.code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(v["hooks"][0]["action"], "chained");
    assert_eq!(v["hooks"][0]["manager"], "pre-commit");
    assert_eq!(v["hooks"][1]["action"], "refused");
    assert_eq!(r.read(".git/hooks/post-checkout"), python);
    r.run(&["hooks", "uninstall"]);
    assert_eq!(r.read(".git/hooks/pre-commit"), framework);
}

#[cfg(unix)]
#[test]
fn test_hooks_never_write_through_a_symlinked_hook() {
    let r = TestRepo::with_commit();
    write_exec(&r.path().join("scripts/hook.sh"), USER_HOOK);
    std::os::unix::fs::symlink("../../scripts/hook.sh", hook_path(&r, "pre-commit")).expect("ln");
    let out = r.run(&["hooks", "install"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("symbolic link"), "{out}");
    assert_eq!(
        r.read("scripts/hook.sh"),
        USER_HOOK,
        "the tracked script is untouched"
    );
}

#[test]
fn test_hooks_in_a_linked_worktree_go_to_the_shared_hooks_folder() {
    let r = TestRepo::with_commit();
    let wt = r.path().join("wt");
    r.git(&[
        "worktree",
        "add",
        "-q",
        wt.to_str().expect("utf8"),
        "-b",
        "side",
    ]);
    let out = r.run_in(&wt, &["hooks", "install"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(hook_path(&r, "pre-commit").exists(), "{out}");
    // The hook guards commits made in the linked worktree too.
    let text: String = (0..30).map(|i| format!("row {i}\n")).collect();
    std::fs::write(wt.join("t.txt"), &text).expect("write");
    let git = |args: &[&str]| {
        let mut cmd = std::process::Command::new("git");
        r.env(&mut cmd);
        let out: crate::common::Out = cmd
            .current_dir(&wt)
            .args(args)
            .output()
            .expect("git")
            .into();
        out
    };
    assert_eq!(git(&["add", "t.txt"]).code, 0);
    assert_eq!(git(&["commit", "-qm", "t"]).code, 0);
    std::fs::write(wt.join("t.txt"), "row 0\n").expect("write");
    let out = git(&["commit", "-qam", "gut"]);
    assert_ne!(out.code, 0, "{out}");
    assert!(out.stderr.contains("t.txt"), "{out}");
}

#[test]
fn test_hooks_saga_finish_completes_with_hooks_that_need_the_lock() {
    let r = TestRepo::with_commit();
    // A user's hook that itself runs a git-fararoni command taking the
    // repository lock, which `saga finish` holds while git commits.
    write_exec(
        &hook_path(&r, "pre-commit"),
        "#!/bin/sh\ngit fararoni shadow prune --yes >/dev/null || exit 1\necho locked-ok >> \"$(git rev-parse --git-dir)/user-hook.log\"\n",
    );
    install(&r);
    saga_ok(&r, &["start"]);
    let wip = head_branch(&r);
    r.write("feature.txt", "new work\n");
    r.git(&["add", "feature.txt"]);
    r.git(&["commit", "-qm", "wip"]);
    let started = std::time::Instant::now();
    let out = saga_ok(&r, &["finish", "-m", "feature"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "{out}"
    );
    assert_eq!(head_branch(&r), "main", "{out}");
    assert!(r.log()[0].contains("feature"), "{out}");
    let log = std::fs::read_to_string(r.path().join(".git/user-hook.log")).expect("log");
    assert!(
        log.lines().count() >= 2,
        "the hook ran for the wip and the squash commit: {log}"
    );
    assert!(!wip.is_empty());
}

#[test]
fn test_hooks_post_checkout_tells_how_to_finish_and_excludes_the_store() {
    let r = TestRepo::with_commit();
    install(&r);
    std::fs::write(r.path().join(".git/info/exclude"), "# empty\n").expect("write");
    saga_ok(&r, &["start"]);
    let wip = head_branch(&r);
    let out = r.git_out(&["checkout", "-q", "main"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("git fararoni saga finish"), "{out}");
    assert!(out.stderr.contains(&wip), "{out}");
    let exclude = r.read(".git/info/exclude");
    assert!(exclude.contains("/.fararoni/"), "{exclude}");
    // Back on the wip branch: nothing to say.
    let out = r.git_out(&["checkout", "-q", &wip]);
    assert!(!out.stderr.contains("saga finish"), "{out}");
}

#[test]
fn test_hooks_pre_commit_warns_a_person_committing_on_the_wip_branch() {
    let r = TestRepo::with_commit();
    install(&r);
    saga_ok(&r, &["start"]);
    r.write("x.txt", "x\n");
    r.git(&["add", "x.txt"]);
    let out = r.git_out(&["commit", "-qm", "by hand"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("will be squashed"), "{out}");
}

#[test]
fn test_hooks_a_global_hooks_path_is_used_and_named_as_shared() {
    let r = TestRepo::with_commit();
    let shared = r.home().join("githooks");
    r.git(&[
        "config",
        "--global",
        "core.hooksPath",
        shared.to_str().expect("utf8"),
    ]);
    let out = install(&r);
    assert!(shared.join("pre-commit").exists(), "{out}");
    assert!(out.stderr.contains("outside this repository"), "{out}");
    // A repository-local folder says nothing of the kind.
    let r2 = TestRepo::with_commit();
    let out = install(&r2);
    assert!(!out.stderr.contains("outside this repository"), "{out}");
}

/// Commits with the hooks installed; returns whether the commit was made
/// and what git printed.
fn try_commit(r: &TestRepo, msg: &str) -> (bool, crate::common::Out) {
    let head = r.git(&["rev-parse", "HEAD"]);
    let out = r.git_out(&["commit", "-q", "-m", msg]);
    (r.git(&["rev-parse", "HEAD"]) != head, out)
}

#[test]
fn test_hooks_pre_commit_judges_a_moved_file_that_was_gutted() {
    let r = TestRepo::with_commit();
    install(&r);
    committed_file(&r, "src/lib.rs");
    // git mv + gut: git sees a deletion and an addition (too little is
    // similar for its rename detection); we judge it as one file.
    r.git(&["mv", "src/lib.rs", "src/core.rs"]);
    r.write(
        "src/core.rs",
        "let value_0 = 0 * 2;\n// ... rest unchanged\n",
    );
    r.git(&["add", "src/core.rs"]);
    let (made, out) = try_commit(&r, "move and gut");
    assert!(!made, "a gutted move must be blocked: {out}");
    assert!(
        out.stderr.contains("src/lib.rs -> src/core.rs"),
        "the report names both paths: {out}"
    );
    // Moved to another folder under the same name, content replaced whole.
    r.git(&["reset", "-q", "--hard"]);
    r.git(&["mv", "src/lib.rs", "lib.rs"]);
    r.write("lib.rs", "fn todo() {}\n");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "move and replace");
    assert!(!made, "{out}");
    // A plain rename, and one with a light edit, pass.
    r.git(&["reset", "-q", "--hard"]);
    r.git(&["mv", "src/lib.rs", "src/core.rs"]);
    let (made, out) = try_commit(&r, "rename");
    assert!(made, "{out}");
    let text = r.read("src/core.rs").replacen("value_3", "value_three", 1);
    r.git(&["mv", "src/core.rs", "src/engine.rs"]);
    r.write("src/engine.rs", &text);
    r.git(&["add", "src/engine.rs"]);
    let (made, out) = try_commit(&r, "rename and edit");
    assert!(made, "{out}");
    // A file split in two is judged whole: it passes.
    let lines: Vec<String> = r
        .read("src/engine.rs")
        .lines()
        .map(str::to_string)
        .collect();
    r.git(&["rm", "-q", "src/engine.rs"]);
    r.write("src/a.rs", &(lines[..20].join("\n") + "\n"));
    r.write("src/b.rs", &(lines[20..].join("\n") + "\n"));
    r.git(&["add", "src"]);
    let (made, out) = try_commit(&r, "split");
    assert!(made, "a split keeps every line: {out}");
    // A new, unrelated file beside a deletion is no move: it passes.
    r.git(&["rm", "-q", "src/a.rs"]);
    r.write(
        "src/fresh.rs",
        "fn fresh() {\n    println!(\"hello\");\n}\n",
    );
    r.git(&["add", "src"]);
    let (made, out) = try_commit(&r, "delete and add");
    assert!(made, "{out}");
}

#[cfg(unix)]
#[test]
fn test_hooks_pre_commit_judges_symlinks_that_take_a_files_content() {
    use std::os::unix::fs::symlink;
    let r = TestRepo::with_commit();
    install(&r);
    committed_file(&r, "lib.rs");
    r.write("stub.rs", "// TODO\n");
    r.git(&["add", "stub.rs"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "stub"]);
    // A file replaced by a link to a stub.
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    symlink("stub.rs", r.path().join("lib.rs")).expect("symlink");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "file to link");
    assert!(!made, "{out}");
    assert!(out.stderr.contains("lib.rs (symlink)"), "{out}");
    // A file replaced by a link that leads out of the repository.
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    symlink("/dev/null", r.path().join("lib.rs")).expect("symlink");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "file to outside link");
    assert!(!made, "{out}");
    // A file replaced by a link to an identical copy passes.
    r.git(&["reset", "-q", "--hard"]);
    std::fs::copy(r.path().join("lib.rs"), r.path().join("shared.rs")).expect("copy");
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    symlink("shared.rs", r.path().join("lib.rs")).expect("symlink");
    r.git(&["add", "lib.rs", "shared.rs"]);
    let (made, out) = try_commit(&r, "dedupe");
    assert!(made, "{out}");
    // The link retargeted to the stub: the path's content is gutted.
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    symlink("./stub.rs", r.path().join("lib.rs")).expect("symlink");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "retarget");
    assert!(!made, "{out}");
    // The link replaced by a gutted regular file.
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    r.write("lib.rs", "// nothing here\n");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "link to stub file");
    assert!(!made, "{out}");
    assert_eq!(
        std::fs::read_link(r.path().join("shared.rs")).ok(),
        None,
        "shared.rs stays a file"
    );
}

#[cfg(unix)]
#[test]
fn test_hooks_pre_commit_a_link_through_a_missing_or_file_component_shows_nothing() {
    // `ghost/../shared.rs` reads as `shared.rs` when `..` is taken
    // lexically, but the file system resolves `ghost` first: where it is
    // missing (or a file) the link dangles, and the path is emptied.
    use std::os::unix::fs::symlink;
    let r = TestRepo::with_commit();
    install(&r);
    committed_file(&r, "lib.rs");
    std::fs::copy(r.path().join("lib.rs"), r.path().join("shared.rs")).expect("copy");
    r.git(&["add", "shared.rs"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "copy"]);
    for target in [
        "ghost/../shared.rs",
        "README.md/../shared.rs",
        "shared.rs/../shared.rs",
    ] {
        std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
        symlink(target, r.path().join("lib.rs")).expect("symlink");
        assert!(
            std::fs::read(r.path().join("lib.rs")).is_err(),
            "{target} dangles"
        );
        r.git(&["add", "lib.rs"]);
        let (made, out) = try_commit(&r, target);
        assert!(!made, "{target}: {out}");
        assert!(out.stderr.contains("lib.rs (symlink)"), "{out}");
        r.git(&["reset", "-q", "--hard"]);
    }
    // A `..` that climbs out of a real directory still reads through.
    std::fs::create_dir(r.path().join("sub")).expect("mkdir");
    r.write("sub/keep.rs", "// keep\n");
    r.git(&["add", "sub/keep.rs"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "sub"]);
    std::fs::remove_file(r.path().join("lib.rs")).expect("rm");
    symlink("sub/../shared.rs", r.path().join("lib.rs")).expect("symlink");
    r.git(&["add", "lib.rs"]);
    let (made, out) = try_commit(&r, "through a real directory");
    assert!(made, "{out}");
}

#[test]
fn test_hooks_pre_commit_sees_the_index_git_commits_with_a_and_with_paths() {
    // `commit -a` and `commit FILE` give the hook a temporary index while
    // the repository's own still equals HEAD: the hook must judge the one
    // being committed, not take the clean one for "nothing staged".
    let r = TestRepo::with_commit();
    install(&r);
    committed_file(&r, "lib.rs");
    committed_file(&r, "other.rs");
    r.write("lib.rs", "// gutted\n");
    let head = r.git(&["rev-parse", "HEAD"]);
    let out = r.git_out(&["commit", "-q", "-a", "-m", "all"]);
    assert_ne!(out.code, 0, "{out}");
    assert!(out.stderr.contains("lib.rs: jaccard"), "{out}");
    let out = r.git_out(&["commit", "-q", "-m", "only", "lib.rs"]);
    assert_ne!(out.code, 0, "{out}");
    let out = r.git_out(&["commit", "-q", "-m", "only", "--only", "lib.rs"]);
    assert_ne!(out.code, 0, "{out}");
    assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "no commit was made");
    // Staged in the index itself, then the working file restored: the
    // index is what is committed.
    r.git(&["add", "lib.rs"]);
    r.git(&["checkout", "HEAD", "--", "other.rs"]);
    let (made, out) = try_commit(&r, "staged gut");
    assert!(!made, "{out}");
    // Clean again: the no-op path lets an empty commit through.
    r.git(&["reset", "-q", "--hard"]);
    let out = r.git_out(&["commit", "-q", "--allow-empty", "-m", "empty"]);
    assert_eq!(out.code, 0, "{out}");
}
