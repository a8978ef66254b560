//! `git fararoni saga`: ephemeral branches, end to end with the real git.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{Out, TestRepo};

/// Runs `git fararoni saga ARGS`.
pub(crate) fn saga(r: &TestRepo, args: &[&str]) -> Out {
    let mut all = vec!["saga"];
    all.extend_from_slice(args);
    // Without a terminal, finish lands only with --yes.
    if args.first() == Some(&"finish") {
        all.push("--yes");
    }
    r.run(&all)
}

/// Runs `git fararoni saga ARGS` and insists on exit 0.
pub(crate) fn saga_ok(r: &TestRepo, args: &[&str]) -> Out {
    let out = saga(r, args);
    assert_eq!(out.code, 0, "saga {args:?} failed:\n{out}");
    out
}

/// Returns the commit `spec` names.
pub(crate) fn rev(r: &TestRepo, spec: &str) -> String {
    r.git(&["rev-parse", "--verify", spec]).trim().to_string()
}

/// Returns whether `spec` names a commit.
pub(crate) fn exists(r: &TestRepo, spec: &str) -> bool {
    r.git_out(&["rev-parse", "--verify", "-q", spec]).code == 0
}

/// Returns the short name of the branch HEAD is on.
pub(crate) fn head_branch(r: &TestRepo) -> String {
    r.git(&["branch", "--show-current"]).trim().to_string()
}

/// Returns `saga status --json`.
pub(crate) fn status_json(r: &TestRepo) -> Value {
    let out = saga_ok(r, &["status", "--json"]);
    serde_json::from_str(&out.stdout).expect("status --json prints JSON")
}

/// Returns the active saga's wip branch.
pub(crate) fn wip(r: &TestRepo) -> String {
    status_json(r)["saga"]["wip_branch"]
        .as_str()
        .expect("a saga is active")
        .to_string()
}

/// Returns every file of the working tree (not `.git`) with its bytes.
pub(crate) fn worktree_files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    crate::common::snapshot(root)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".git"))
        .collect()
}

/// Returns every ref with its target (HEAD included, symbolic or not).
pub(crate) fn refs(r: &TestRepo) -> String {
    let head = r.git(&["symbolic-ref", "-q", "HEAD"]);
    format!("HEAD={head}{}", r.git(&["for-each-ref"]))
}

/// Creates `n` commits on the current branch, touching paths with spaces
/// and non-ASCII names.
pub(crate) fn wip_commits(r: &TestRepo, n: usize) {
    for i in 0..n {
        r.write(
            &format!("dir with space/ñandú {i}.txt"),
            &format!("wip {i}\n"),
        );
        r.write("README.md", &format!("# demo\nline {i}\n"));
        r.git(&["add", "--all"]);
        r.git(&["commit", "-q", "-m", &format!("wip change {i}")]);
    }
}

/// Moves `branch` forward by one commit writing `file`, without touching
/// HEAD, the index or the working tree (as another worktree would).
pub(crate) fn advance_branch(r: &TestRepo, branch: &str, file: &str, content: &str) -> String {
    let tmp_index = r
        .home()
        .join(format!("index.advance.{}", std::process::id()));
    let run = |args: &[&str], stdin: Option<&str>| -> String {
        let mut cmd = std::process::Command::new("git");
        r.env(&mut cmd);
        cmd.env("GIT_INDEX_FILE", &tmp_index).args(args);
        if stdin.is_some() {
            cmd.stdin(std::process::Stdio::piped());
        }
        cmd.stdout(std::process::Stdio::piped());
        let mut child = cmd.spawn().expect("git runs");
        if let Some(s) = stdin {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(s.as_bytes())
                .expect("write stdin");
        }
        let out = child.wait_with_output().expect("git finishes");
        assert!(out.status.success(), "git {args:?} failed");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let full = format!("refs/heads/{branch}");
    run(&["read-tree", &full], None);
    let blob = run(&["hash-object", "-w", "--stdin"], Some(content));
    run(
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("100644,{blob},{file}"),
        ],
        None,
    );
    let tree = run(&["write-tree"], None);
    let commit = run(
        &[
            "commit-tree",
            &tree,
            "-p",
            &full,
            "-m",
            &format!("upstream: {file}"),
        ],
        None,
    );
    run(&["update-ref", &full, &commit], None);
    let _ = std::fs::remove_file(&tmp_index);
    commit
}

#[test]
fn test_saga_start_creates_wip_branch_and_state_in_git_dir() {
    let r = TestRepo::with_commit();
    let base = rev(&r, "HEAD");
    let out = saga_ok(&r, &["start", "--name", "first try"]);
    let branch = head_branch(&r);
    assert!(branch.starts_with("fararoni/wip-"), "{branch}");
    let id = branch.trim_start_matches("fararoni/wip-");
    assert_eq!(id.len(), "20260101-000000".len(), "{id}");
    assert!(out.stdout.contains(&format!("`{branch}`")), "{out}");
    assert_eq!(rev(&r, "HEAD"), base);
    let state = r.path().join(".git/fararoni/saga.json");
    let json: Value =
        serde_json::from_slice(&std::fs::read(&state).expect("state file")).expect("JSON");
    assert_eq!(json["original_branch"], "main");
    assert_eq!(json["base"], base.as_str());
    assert_eq!(json["wip_branch"], branch.as_str());
    assert_eq!(json["id"], id);
    assert_eq!(json["name"], "first try");
    assert_eq!(json["dirty_at_start"], false);
    assert_eq!(json["phase"], "active");
    assert!(json["started_at"].as_str().expect("time").ends_with('Z'));
    // Nothing in the working tree.
    assert!(!r.path().join(".fararoni").exists());
    assert_eq!(r.git(&["status", "--porcelain"]), "");
}

#[test]
fn test_saga_start_carries_dirty_tree_along_untouched() {
    let r = TestRepo::with_commit();
    r.write("README.md", "# demo\nedited, not staged\n");
    r.write("staged ñ.txt", "staged\n");
    r.git(&["add", "staged ñ.txt"]);
    r.write("new dir/untracked file.txt", "untracked\n");
    let files = worktree_files(r.path());
    let status = r.git(&["status", "--porcelain=v2", "--untracked-files=all"]);
    let out = saga_ok(&r, &["start"]);
    assert!(
        out.stdout.contains("uncommitted changes came along"),
        "{out}"
    );
    assert!(head_branch(&r).starts_with("fararoni/wip-"));
    assert_eq!(worktree_files(r.path()), files, "working tree changed");
    assert_eq!(
        r.git(&["status", "--porcelain=v2", "--untracked-files=all"]),
        status,
        "index or untracked files changed"
    );
    let st = status_json(&r);
    assert_eq!(st["saga"]["dirty_at_start"], true);
    let id = st["saga"]["id"].as_str().expect("id").to_string();
    assert!(exists(&r, &format!("refs/fararoni/snapshots/{id}/start")));
}

#[test]
fn test_saga_start_reports_not_a_repository() {
    let r = TestRepo::empty_dir();
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("`git-repository`"), "{out}");
}

#[test]
fn test_saga_start_reports_no_commit_yet() {
    let r = TestRepo::new();
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("`valid-head`"), "{out}");
    assert!(!out.stderr.contains("`on-branch`"), "{out}");
}

#[test]
fn test_saga_start_reports_detached_head() {
    let r = TestRepo::with_commit();
    r.git(&["switch", "-q", "--detach"]);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stderr.contains("`on-branch`: HEAD is detached"),
        "{out}"
    );
    assert!(out.stderr.contains("hint: switch to a branch"), "{out}");
}

/// Leaves a conflicted merge of `other` into `main` in progress.
fn conflict_setup(r: &TestRepo) {
    r.git(&["switch", "-q", "-c", "other"]);
    r.write("README.md", "# other\n");
    r.git(&["commit", "-q", "-am", "other"]);
    r.git(&["switch", "-q", "main"]);
    r.write("README.md", "# main\n");
    r.git(&["commit", "-q", "-am", "main"]);
}

#[test]
fn test_saga_start_reports_merge_in_progress() {
    let r = TestRepo::with_commit();
    conflict_setup(&r);
    assert_ne!(r.git_out(&["merge", "other"]).code, 0);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stderr
            .contains("`no-operation-in-progress`: a merge is in progress"),
        "{out}"
    );
    assert!(out.stderr.contains("git merge --abort"), "{out}");
}

#[test]
fn test_saga_start_reports_cherry_pick_and_revert_in_progress() {
    let r = TestRepo::with_commit();
    conflict_setup(&r);
    assert_ne!(r.git_out(&["cherry-pick", "other"]).code, 0);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("a cherry-pick is in progress"), "{out}");
    r.git(&["cherry-pick", "--abort"]);
    r.write("README.md", "# main again\n");
    r.git(&["commit", "-q", "-am", "again"]);
    assert_ne!(r.git_out(&["revert", "--no-edit", "HEAD~1"]).code, 0);
    let out = saga(&r, &["start"]);
    assert!(out.stderr.contains("a revert is in progress"), "{out}");
}

#[test]
fn test_saga_start_reports_rebase_in_progress() {
    let r = TestRepo::with_commit();
    conflict_setup(&r);
    assert_ne!(r.git_out(&["rebase", "other"]).code, 0);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("a rebase is in progress"), "{out}");
    // Rebasing also detaches HEAD: both conditions are reported.
    assert!(out.stderr.contains("`on-branch`"), "{out}");
    assert!(out.stderr.contains("2 activation conditions"), "{out}");
}

#[test]
fn test_saga_start_reports_each_failed_condition_at_once() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    r.git(&["switch", "-q", "--detach"]);
    r.git(&["bisect", "start"]);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    for name in [
        "`on-branch`",
        "`no-operation-in-progress`",
        "`no-active-saga`",
    ] {
        assert!(out.stderr.contains(name), "{name} missing:\n{out}");
    }
    assert!(out.stderr.contains("3 activation conditions"), "{out}");
    assert!(out.stderr.contains("a bisect is in progress"), "{out}");
}

#[test]
fn test_saga_start_refuses_a_second_saga() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("`no-active-saga`"), "{out}");
    assert!(out.stderr.contains(&branch), "{out}");
    assert_eq!(head_branch(&r), branch);
}

#[test]
fn test_saga_start_makes_the_branch_name_unique() {
    let r = TestRepo::with_commit();
    // Take every name of the next few seconds.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs() as i64;
    for t in now - 1..now + 30 {
        let id = git_fararoni::clock::Utc::from_unix(t).compact();
        r.git(&["branch", &format!("fararoni/wip-{id}")]);
    }
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    assert!(branch.ends_with("-2"), "{branch}");
}

#[test]
fn test_saga_start_rejects_an_empty_name() {
    let r = TestRepo::with_commit();
    let out = saga(&r, &["start", "--name", "  "]);
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(head_branch(&r), "main");
}

#[test]
fn test_saga_finish_squashes_wip_commits_into_one_commit() {
    let r = TestRepo::with_commit();
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    wip_commits(&r, 3);
    let wip_tree = rev(&r, "HEAD^{tree}");
    let out = saga_ok(&r, &["finish", "-m", "add the ñandú files"]);
    assert!(out.stdout.contains("landed 3 commits on `main`"), "{out}");
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main^"), base, "exactly one commit on top");
    assert_eq!(rev(&r, "main^{tree}"), wip_tree, "the wip tree");
    assert_eq!(r.log()[0], "[FARARONI] add the ñandú files");
    assert_eq!(r.log().len(), 2);
    assert!(!exists(&r, &format!("refs/heads/{branch}")), "wip deleted");
    assert!(!r.path().join(".git/fararoni/saga.json").exists());
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    assert!(!r.path().join(".git/SQUASH_MSG").exists());
    assert_eq!(status_json(&r)["active"], false);
}

#[test]
fn test_saga_finish_default_message_summarises_the_commits() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    wip_commits(&r, 2);
    saga_ok(&r, &["finish"]);
    let body = r.git(&["log", "-1", "--format=%B"]);
    assert!(
        body.starts_with("[FARARONI] 2 changes: wip change 0; wip change 1\n"),
        "{body}"
    );
    assert!(body.contains("- wip change 0\n- wip change 1"), "{body}");
}

#[test]
fn test_saga_finish_uses_the_saga_name_as_default_subject() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start", "--name", "fix the parser"]);
    wip_commits(&r, 1);
    saga_ok(&r, &["finish"]);
    assert_eq!(r.log()[0], "[FARARONI] fix the parser");
}

#[test]
fn test_saga_finish_refuses_uncommitted_changes() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    wip_commits(&r, 1);
    r.write("left over.txt", "not committed\n");
    let before_files = worktree_files(r.path());
    let before_refs = refs(&r);
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("uncommitted changes"), "{out}");
    assert!(out.stderr.contains("--include-dirty"), "{out}");
    assert!(out.stderr.contains("`left over.txt`"), "{out}");
    assert_eq!(worktree_files(r.path()), before_files);
    assert_eq!(refs(&r), before_refs);
    assert_eq!(head_branch(&r), branch);
    assert_eq!(status_json(&r)["saga"]["phase"], "active");
}

#[test]
fn test_saga_finish_include_dirty_commits_them_into_the_squash() {
    let r = TestRepo::with_commit();
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    wip_commits(&r, 1);
    r.write("left over ñ.txt", "not committed\n");
    r.write("README.md", "# changed at the end\n");
    let expected = worktree_files(r.path());
    saga_ok(&r, &["finish", "--include-dirty", "-m", "all of it"]);
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main^"), base);
    assert_eq!(worktree_files(r.path()), expected);
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    assert_eq!(r.git(&["show", "main:left over ñ.txt"]), "not committed\n");
}

#[test]
fn test_saga_finish_conflict_leaves_everything_as_found() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    wip_commits(&r, 2);
    advance_branch(&r, "main", "README.md", "# upstream edit\n");
    advance_branch(&r, "main", "dir with space/ñandú 0.txt", "upstream\n");
    let files = worktree_files(r.path());
    let index = std::fs::read(r.path().join(".git/index")).expect("index");
    let before_refs = refs(&r);
    let state = std::fs::read(r.path().join(".git/fararoni/saga.json")).expect("state");
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("conflict"), "{out}");
    assert!(out.stderr.contains("`README.md`"), "{out}");
    assert!(out.stderr.contains("`dir with space/ñandú 0.txt`"), "{out}");
    assert!(out.stderr.contains("nothing was changed"), "{out}");
    assert_eq!(worktree_files(r.path()), files, "working tree changed");
    assert_eq!(
        std::fs::read(r.path().join(".git/index")).expect("index"),
        index,
        "index changed"
    );
    assert_eq!(refs(&r), before_refs, "refs changed");
    assert_eq!(head_branch(&r), branch);
    assert_eq!(
        std::fs::read(r.path().join(".git/fararoni/saga.json")).expect("state"),
        state
    );
    assert!(!r.path().join(".git/SQUASH_MSG").exists());
    assert!(!r.path().join(".git/MERGE_HEAD").exists());
    // Resolving on the saga branch and finishing again works.
    r.git_out(&["merge", "-q", "main"]);
    r.write("README.md", "# resolved\n");
    r.write("dir with space/ñandú 0.txt", "resolved\n");
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "--no-edit"]);
    saga_ok(&r, &["finish", "-m", "resolved"]);
    assert_eq!(r.read("README.md"), "# resolved\n");
    assert_eq!(r.log()[0], "[FARARONI] resolved");
}

#[test]
fn test_saga_finish_merges_onto_a_moved_original_branch() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    wip_commits(&r, 2);
    let upstream = advance_branch(&r, "main", "upstream.txt", "from elsewhere\n");
    saga_ok(&r, &["finish", "-m", "on top"]);
    assert_eq!(rev(&r, "main^"), upstream);
    assert_eq!(r.read("upstream.txt"), "from elsewhere\n");
    assert_eq!(r.read("dir with space/ñandú 1.txt"), "wip 1\n");
    assert_eq!(r.git(&["status", "--porcelain"]), "");
}

#[test]
fn test_saga_finish_with_nothing_to_merge_cleans_up() {
    let r = TestRepo::with_commit();
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    let out = saga_ok(&r, &["finish"]);
    assert!(out.stdout.contains("nothing to merge"), "{out}");
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main"), base);
    assert!(!exists(&r, &format!("refs/heads/{branch}")));
    assert_eq!(status_json(&r)["active"], false);

    // Commits that cancel out are nothing to merge too.
    saga_ok(&r, &["start"]);
    r.write("README.md", "# changed\n");
    r.git(&["commit", "-q", "-am", "change"]);
    r.git(&["revert", "--no-edit", "HEAD"]);
    let out = saga_ok(&r, &["finish"]);
    assert!(out.stdout.contains("nothing to merge"), "{out}");
    assert_eq!(rev(&r, "main"), base);
    assert_eq!(r.read("README.md"), "# demo\n");
}

#[test]
fn test_saga_finish_without_a_saga_fails() {
    let r = TestRepo::with_commit();
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("no saga in progress"), "{out}");
    let out = saga(&r, &["abort"]);
    assert_eq!(out.code, 1, "{out}");
}

#[test]
fn test_saga_finish_refuses_when_head_is_elsewhere() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    wip_commits(&r, 1);
    r.git(&["switch", "-q", "-c", "elsewhere"]);
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("not on the saga branch"), "{out}");
    assert!(out.stderr.contains("git switch fararoni/wip-"), "{out}");
}

#[test]
fn test_saga_finish_runs_the_users_hooks_and_resumes_after_a_refusal() {
    let r = TestRepo::with_commit();
    let hooks = r.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).expect("hooks dir");
    let hook = hooks.join("commit-msg");
    std::fs::write(
        &hook,
        "#!/bin/sh\nif [ -f .git/refuse ]; then echo 'refused by hook' >&2; exit 1; fi\nprintf '\\nReviewed-by: hook\\n' >> \"$1\"\n",
    )
    .expect("write hook");
    make_executable(&hook);
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    wip_commits(&r, 2);
    let wip_tree = rev(&r, "HEAD^{tree}");
    std::fs::write(r.path().join(".git/refuse"), "").expect("marker");
    let out = saga(&r, &["finish", "-m", "hooked"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("refused by hook"), "{out}");
    assert!(out.stderr.contains("staged"), "{out}");
    assert_eq!(rev(&r, "main"), base);
    let st = saga_ok(&r, &["status"]);
    assert!(st.stdout.contains("interrupted"), "{st}");
    std::fs::remove_file(r.path().join(".git/refuse")).expect("unmark");
    saga_ok(&r, &["finish"]);
    assert_eq!(rev(&r, "main^"), base);
    assert_eq!(rev(&r, "main^{tree}"), wip_tree);
    let body = r.git(&["log", "-1", "--format=%B"]);
    assert!(body.starts_with("[FARARONI] hooked"), "{body}");
    assert!(body.contains("Reviewed-by: hook"), "{body}");
}

#[cfg(unix)]
pub(crate) fn make_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Installs a hook that SIGKILLs git-fararoni (the parent of the git
/// process running the hook) once, when `.git/kill-<hook>` exists.
fn kill_hook(r: &TestRepo, hook: &str) {
    let hooks = r.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).expect("hooks dir");
    let path = hooks.join(hook);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nm=.git/kill-{hook}\n[ -f \"$m\" ] || exit 0\nrm -f \"$m\"\ngp=$(sed 's/.*) //' /proc/$PPID/stat | cut -d' ' -f2)\nkill -9 \"$gp\"\nexit 0\n"
        ),
    )
    .expect("write hook");
    make_executable(&path);
    std::fs::write(r.path().join(format!(".git/kill-{hook}")), "").expect("marker");
}

/// Kills a finish right after one of its git steps, then checks that
/// status explains it and that finishing again lands exactly one commit.
fn resume_after_kill_in(hook: &str, expect_in_status: &str) {
    let r = TestRepo::with_commit();
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    wip_commits(&r, 3);
    let wip_tree = rev(&r, "HEAD^{tree}");
    kill_hook(&r, hook);
    let out = saga(&r, &["finish", "-m", "resumed"]);
    assert_eq!(out.code, -1, "expected a kill after {hook}:\n{out}");
    let tip = rev(&r, "main");
    assert!(
        tip == base || rev(&r, "main^") == base,
        "main moved elsewhere"
    );
    let st = saga_ok(&r, &["status"]);
    assert!(st.stdout.contains("interrupted"), "{st}");
    assert!(st.stdout.contains(expect_in_status), "{st}");
    assert!(st.stdout.contains("git fararoni saga finish"), "{st}");
    let json = status_json(&r);
    assert_eq!(json["interrupted"]["operation"], "finish");
    let out = saga_ok(&r, &["finish"]);
    assert!(out.stdout.contains("resumed"), "{out}");
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main^"), base, "exactly one squash commit");
    assert_eq!(rev(&r, "main^{tree}"), wip_tree);
    assert_eq!(r.log()[0], "[FARARONI] resumed");
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    assert_eq!(status_json(&r)["active"], false);
}

#[test]
fn test_saga_finish_resumes_after_a_kill_following_the_switch() {
    resume_after_kill_in("post-checkout", "last step done: planned");
}

#[test]
fn test_saga_finish_resumes_after_a_kill_following_the_squash() {
    resume_after_kill_in("post-merge", "last step done: switched");
}

#[test]
fn test_saga_finish_resumes_after_a_kill_following_the_commit() {
    resume_after_kill_in("post-commit", "only cleanup remains");
}

#[test]
fn test_saga_abort_keeps_the_tip_and_returns_to_the_original_branch() {
    let r = TestRepo::with_commit();
    let base = rev(&r, "main");
    let files = worktree_files(r.path());
    saga_ok(&r, &["start", "--name", "doomed"]);
    let branch = head_branch(&r);
    let id = branch.trim_start_matches("fararoni/wip-").to_string();
    wip_commits(&r, 2);
    let tip = rev(&r, "HEAD");
    let out = saga_ok(&r, &["abort"]);
    assert!(
        out.stdout.contains(&format!("refs/fararoni/aborted/{id}")),
        "{out}"
    );
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main"), base);
    assert_eq!(rev(&r, &format!("refs/fararoni/aborted/{id}")), tip);
    assert!(!exists(&r, &format!("refs/heads/{branch}")));
    assert_eq!(worktree_files(r.path()), files);
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    let list: Value = serde_json::from_str(&saga_ok(&r, &["list", "--json"]).stdout).expect("JSON");
    let entry = &list[0];
    assert_eq!(entry["state"], "aborted");
    assert_eq!(entry["id"], id.as_str());
    assert_eq!(entry["ref"], format!("refs/fararoni/aborted/{id}"));
    assert_eq!(entry["tip"], tip.as_str());
    assert_eq!(entry["name"], "doomed");
    assert_eq!(entry["original_branch"], "main");
    let text = saga_ok(&r, &["list"]);
    assert!(text.stdout.contains(&format!("aborted  {id}")), "{text}");
}

#[test]
fn test_saga_abort_brings_back_changes_uncommitted_at_the_start() {
    let r = TestRepo::with_commit();
    r.write("README.md", "# demo\nmine, not staged\n");
    r.write("staged ñ.txt", "staged\n");
    r.git(&["add", "staged ñ.txt"]);
    r.write("notes/untracked file.txt", "mine\n");
    let files = worktree_files(r.path());
    let status = r.git(&["status", "--porcelain=v2", "--untracked-files=all"]);
    saga_ok(&r, &["start"]);
    let id = head_branch(&r)
        .trim_start_matches("fararoni/wip-")
        .to_string();
    // The agent commits everything, mine included, and leaves more behind.
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "agent commit"]);
    r.write("README.md", "# the agent rewrote it\n");
    r.write("agent file.txt", "agent\n");
    let out = saga_ok(&r, &["abort"]);
    assert!(
        out.stdout.contains("uncommitted at the start are back"),
        "{out}"
    );
    assert_eq!(head_branch(&r), "main");
    assert_eq!(
        worktree_files(r.path()),
        files,
        "working tree as at the start"
    );
    assert_eq!(
        r.git(&["status", "--porcelain=v2", "--untracked-files=all"]),
        status,
        "index as at the start"
    );
    // What was uncommitted at the abort is kept too.
    let snap = format!("refs/fararoni/snapshots/{id}/abort");
    assert_eq!(
        r.git(&["show", &format!("{snap}:agent file.txt")]),
        "agent\n"
    );
    assert_eq!(
        r.git(&["show", &format!("{snap}:README.md")]),
        "# the agent rewrote it\n"
    );
}

#[test]
fn test_saga_abort_onto_a_moved_original_branch_keeps_start_changes() {
    let r = TestRepo::with_commit();
    r.write("mine.txt", "uncommitted\n");
    saga_ok(&r, &["start"]);
    wip_commits(&r, 1);
    let upstream = advance_branch(&r, "main", "upstream.txt", "upstream\n");
    saga_ok(&r, &["abort"]);
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main"), upstream);
    assert_eq!(r.read("mine.txt"), "uncommitted\n");
    assert_eq!(r.read("upstream.txt"), "upstream\n");
    assert_eq!(r.git(&["status", "--porcelain"]), "?? mine.txt\n");
}

#[test]
fn test_saga_status_and_list_json() {
    let r = TestRepo::with_commit();
    let st = status_json(&r);
    assert_eq!(st["active"], false);
    assert!(st["saga"].is_null());
    assert!(saga_ok(&r, &["status"])
        .stdout
        .contains("no saga in progress"));
    assert_eq!(saga_ok(&r, &["list"]).stdout, "no sagas\n");
    saga_ok(&r, &["start", "--name", "json"]);
    wip_commits(&r, 2);
    let st = status_json(&r);
    assert_eq!(st["active"], true);
    assert_eq!(st["on_saga_branch"], true);
    assert_eq!(st["wip_commits"], 2);
    assert_eq!(st["wip_exists"], true);
    assert!(st["interrupted"].is_null());
    assert_eq!(st["saga"]["phase"], "active");
    assert_eq!(st["saga"]["original_branch"], "main");
    let text = saga_ok(&r, &["status"]).stdout;
    assert!(text.contains("2 commits not on `main`"), "{text}");
    let list: Value = serde_json::from_str(&saga_ok(&r, &["list", "--json"]).stdout).expect("JSON");
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["state"], "active");
    assert_eq!(list[0]["ref"], wip(&r).as_str());
    assert_eq!(list[0]["phase"], "active");
    assert_eq!(list[0]["subject"], "wip change 1");
}

#[test]
fn test_saga_status_notices_head_moved_off_the_saga_branch() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    r.git(&["switch", "-q", "main"]);
    let out = saga_ok(&r, &["status"]);
    assert!(out.stdout.contains("not on the saga branch"), "{out}");
}

#[test]
fn test_saga_state_is_per_worktree() {
    let r = TestRepo::with_commit();
    let wt = r.home().join("wt ñ");
    r.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature/slash",
        wt.to_str().expect("utf-8"),
    ]);
    let base = rev(&r, "feature/slash");
    let start = r.run_in(&wt, &["saga", "start"]);
    assert_eq!(start.code, 0, "{start}");
    let mut cmd = std::process::Command::new("git");
    r.env(&mut cmd);
    let out = cmd
        .current_dir(&wt)
        .args(["rev-parse", "--absolute-git-dir"])
        .output()
        .expect("git");
    let wt_git_dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(wt_git_dir.starts_with(r.path().join(".git/worktrees")));
    let state = wt_git_dir.join("fararoni/saga.json");
    assert!(state.exists(), "state in the worktree's git dir");
    assert!(!r.path().join(".git/fararoni/saga.json").exists());
    assert_eq!(
        status_json(&r)["active"],
        false,
        "main worktree has no saga"
    );
    // The main worktree can run its own saga at the same time.
    saga_ok(&r, &["start"]);
    let list: Value = serde_json::from_str(&saga_ok(&r, &["list", "--json"]).stdout).expect("JSON");
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
    saga_ok(&r, &["abort"]);
    // Work and finish in the linked worktree.
    std::fs::write(wt.join("feature file.txt"), "feature\n").expect("write");
    let git_wt = |args: &[&str]| {
        let mut cmd = std::process::Command::new("git");
        r.env(&mut cmd);
        let out = cmd.current_dir(&wt).args(args).output().expect("git");
        assert!(out.status.success(), "{args:?}");
    };
    git_wt(&["add", "--all"]);
    git_wt(&["commit", "-q", "-m", "feature work"]);
    let fin = r.run_in(&wt, &["saga", "finish", "--yes"]);
    assert_eq!(fin.code, 0, "{fin}");
    assert!(fin.stdout.contains("on `feature/slash`"), "{fin}");
    assert_eq!(rev(&r, "feature/slash^"), base);
    assert_eq!(
        r.git(&["log", "-1", "--format=%s", "feature/slash"]).trim(),
        "[FARARONI] feature work"
    );
    assert_eq!(rev(&r, "main"), base, "main untouched");
}

#[test]
fn test_saga_finish_refuses_when_the_original_branch_is_checked_out_elsewhere() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    wip_commits(&r, 1);
    let wt = r.home().join("other");
    r.git(&["worktree", "add", "-q", wt.to_str().expect("utf-8"), "main"]);
    let before = refs(&r);
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("checked out in another worktree"),
        "{out}"
    );
    assert_eq!(refs(&r), before);
}

#[test]
fn test_saga_works_on_a_branch_with_slashes() {
    let r = TestRepo::with_commit();
    r.git(&["switch", "-q", "-c", "team/feature/ñ"]);
    let base = rev(&r, "HEAD");
    saga_ok(&r, &["start"]);
    wip_commits(&r, 2);
    saga_ok(&r, &["finish"]);
    assert_eq!(head_branch(&r), "team/feature/ñ");
    assert_eq!(rev(&r, "HEAD^"), base);
}

#[test]
fn test_saga_binary_alias_is_the_same_command() {
    let r = TestRepo::with_commit();
    let out: Out = r
        .cmd("git-fararoni-saga")
        .args(["status", "--json"])
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["active"], false);
}

#[test]
fn test_saga_ensure_saga_starts_or_returns_the_active_saga() {
    use git_fararoni::saga::{ensure_saga, Condition, SagaError};
    let r = TestRepo::with_commit();
    let first = ensure_saga(r.path()).expect("starts");
    assert_eq!(head_branch(&r), first.wip_branch);
    let again = ensure_saga(r.path()).expect("returns it");
    assert_eq!(again.id, first.id);
    r.git(&["switch", "-q", "main"]);
    assert!(matches!(
        ensure_saga(r.path()),
        Err(SagaError::NotOnSagaBranch { .. })
    ));
    let fresh = TestRepo::new();
    match ensure_saga(fresh.path()) {
        Err(SagaError::Conditions(failed)) => {
            assert_eq!(failed.len(), 1);
            assert_eq!(failed[0].condition, Condition::ValidHead);
        }
        other => panic!("expected conditions, got {other:?}"),
    }
    let none = TestRepo::empty_dir();
    match ensure_saga(none.path()) {
        Err(SagaError::Conditions(failed)) => {
            assert_eq!(failed[0].condition, Condition::GitRepository);
        }
        other => panic!("expected conditions, got {other:?}"),
    }
}

#[test]
fn test_saga_finish_never_overwrites_ignored_files() {
    let r = TestRepo::with_commit();
    r.write("secret.env", "tracked on main\n");
    r.git(&["add", "secret.env"]);
    r.git(&["commit", "-q", "-m", "track secret"]);
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    r.git(&["rm", "-q", "secret.env"]);
    r.write(".gitignore", "secret.env\n");
    r.git(&["add", ".gitignore"]);
    r.git(&["commit", "-q", "-m", "stop tracking the secret"]);
    r.write("secret.env", "my local secret\n");
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("secret.env"), "{out}");
    assert_eq!(r.read("secret.env"), "my local secret\n");
    assert_eq!(rev(&r, "main"), base);
    // Once the file is moved aside, the interrupted finish completes.
    std::fs::rename(r.path().join("secret.env"), r.home().join("secret.env")).expect("move");
    saga_ok(&r, &["finish", "-m", "untrack"]);
    assert_eq!(rev(&r, "main^"), base);
    assert!(!r.path().join("secret.env").exists());
}

#[test]
fn test_saga_abort_completes_after_a_kill_during_finish() {
    let r = TestRepo::with_commit();
    r.write("mine.txt", "uncommitted at the start\n");
    let base = rev(&r, "main");
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    let id = branch.trim_start_matches("fararoni/wip-").to_string();
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "everything"]);
    wip_commits(&r, 2);
    let tip = rev(&r, "HEAD");
    kill_hook(&r, "post-merge");
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, -1, "{out}");
    // The squash is staged on main; abort goes back to the start state.
    saga_ok(&r, &["abort"]);
    assert_eq!(head_branch(&r), "main");
    assert_eq!(rev(&r, "main"), base);
    assert_eq!(r.git(&["status", "--porcelain"]), "?? mine.txt\n");
    assert_eq!(r.read("mine.txt"), "uncommitted at the start\n");
    assert_eq!(r.read("README.md"), "# demo\n");
    assert_eq!(rev(&r, &format!("refs/fararoni/aborted/{id}")), tip);
    assert!(!r.path().join(".git/SQUASH_MSG").exists());
    assert!(!exists(&r, &format!("refs/heads/{branch}")));
}

#[test]
fn test_saga_start_survives_a_failing_post_checkout_hook() {
    let r = TestRepo::with_commit();
    let hook = r.path().join(".git/hooks/post-checkout");
    std::fs::create_dir_all(hook.parent().expect("dir")).expect("mkdir");
    std::fs::write(&hook, "#!/bin/sh\nexit 7\n").expect("hook");
    make_executable(&hook);
    let out = saga_ok(&r, &["start"]);
    assert!(
        out.stderr
            .contains("warning: switched, but git reported a failure"),
        "{out}"
    );
    assert!(head_branch(&r).starts_with("fararoni/wip-"));
    assert_eq!(status_json(&r)["saga"]["phase"], "active");
}

#[test]
fn test_saga_interrupted_start_is_explained_and_rolled_back() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    let branch = head_branch(&r);
    // As if start had been killed after recording, before switching.
    r.git(&["switch", "-q", "main"]);
    let state = r.path().join(".git/fararoni/saga.json");
    let text = std::fs::read_to_string(&state).expect("state");
    std::fs::write(&state, text.replace("\"active\"", "\"starting\"")).expect("write");
    let st = saga_ok(&r, &["status"]);
    assert!(st.stdout.contains("interrupted before switching"), "{st}");
    assert_eq!(status_json(&r)["interrupted"]["operation"], "start");
    let out = saga_ok(&r, &["abort"]);
    assert!(out.stdout.contains("undid the interrupted start"), "{out}");
    assert!(!exists(&r, &format!("refs/heads/{branch}")));
    assert_eq!(status_json(&r)["active"], false);
    assert_eq!(head_branch(&r), "main");
}

#[test]
fn test_saga_finish_explains_a_held_index_lock() {
    let r = TestRepo::with_commit();
    saga_ok(&r, &["start"]);
    wip_commits(&r, 1);
    let lock = r.path().join(".git/index.lock");
    std::fs::write(&lock, "").expect("lock");
    let st = saga_ok(&r, &["status"]);
    assert!(st.stdout.contains("index.lock"), "{st}");
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("another git process"), "{out}");
    assert!(
        out.stderr
            .contains("hint: if no git process is running, remove it"),
        "{out}"
    );
    std::fs::remove_file(&lock).expect("unlock");
    saga_ok(&r, &["finish"]);
}

#[test]
fn test_saga_status_outside_a_repository_fails_clearly() {
    let r = TestRepo::empty_dir();
    let out = saga(&r, &["status"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("not a git repository"), "{out}");
}

/// `undo --session` of a session that started a saga never takes the
/// record of a saga the user started after it: the session's saga was
/// aborted, a new one started, and the undo keeps the new one's record
/// (its branch and `saga status` agree), while the session's own file goes.
#[test]
fn test_saga_undo_of_an_earlier_session_keeps_a_saga_started_after_it() {
    let r = TestRepo::with_commit();
    let run_in_s1 = |file: &str| {
        let ran = r.run(&[
            "run",
            "--session",
            "s1",
            "--",
            "sh",
            "-c",
            &format!("echo x > {file}"),
        ]);
        assert_eq!(ran.code, 0, "{ran}");
    };
    run_in_s1("w1.txt");
    saga_ok(&r, &["start"]);
    // A second snapshot of the session: it sees the saga it started.
    run_in_s1("w2.txt");
    saga_ok(&r, &["abort"]);
    // After the session: the user's own saga.
    saga_ok(&r, &["start", "--name", "later"]);
    let record = r.path().join(".git/fararoni/saga.json");
    let later = std::fs::read(&record).expect("the later saga's record");
    let branch = head_branch(&r);
    let undo = r.run(&["undo", "--session", "s1"]);
    // Kept, like a working file changed since: said, and not a success.
    assert_eq!(undo.code, 1, "{undo}");
    assert!(
        undo.stdout.contains("saga started or ended since"),
        "{undo}"
    );
    assert!(!r.path().join("w1.txt").exists(), "{undo}");
    assert_eq!(
        std::fs::read(&record).ok().as_deref(),
        Some(later.as_slice()),
        "the undo lost the saga started after the session:\n{undo}"
    );
    assert!(exists(&r, &format!("refs/heads/{branch}")), "{undo}");
    // HEAD, moved by the user after the session, stays on the saga's
    // branch: the record and HEAD agree.
    assert_eq!(head_branch(&r), branch, "{undo}");
    let status = saga_ok(&r, &["status"]);
    assert!(status.stdout.contains("\"later\""), "{status}\n{undo}");
}
