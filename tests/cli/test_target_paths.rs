//! Target paths judged from the repository, not from names: `guard write`,
//! `shadow restore` and `undo` never write the real git dir (whatever its
//! name), the hooks folder git runs programs from, the store, or anything
//! outside the working tree. Judged by effects: the git dir byte-identical,
//! no hook planted (a commit never runs one), nothing outside changed.

use std::path::{Path, PathBuf};

use camino::Utf8Path;
use git_fararoni::guard::{Guard, GuardError, WriteOptions};
use git_fararoni::shadow::ShadowError;

use crate::common::{snapshot, Out, TestRepo};
use crate::test_guard::run_stdin;
use crate::test_store_attacks::{assert_no_hook_ran, evil_hook, Outside};

/// The files of a git dir but our lock and `info/exclude`.
fn dir_state(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    snapshot(dir)
        .into_iter()
        .filter(|(p, _)| p != Path::new("fararoni/lock") && p != Path::new("info/exclude"))
        .collect()
}

/// Tries to write `content` to each of `targets`, with and without
/// `--force`, through `cmd` (which sets the environment); every attempt must
/// be refused and change nothing in `git_dir`.
fn refused_all(
    repo: &TestRepo,
    git_dir: &Path,
    targets: &[&str],
    content: &str,
    env: &[(&str, &str)],
) {
    let before = dir_state(git_dir);
    for target in targets {
        for force in [false, true] {
            let mut args = vec!["guard", "write", target];
            if force {
                args.push("--force");
            }
            let mut cmd = repo.cmd("git-fararoni");
            cmd.args(&args);
            for (k, v) in env {
                cmd.env(k, v);
            }
            let out: Out = crate::common::run_with_stdin(&mut cmd, content.as_bytes());
            assert!(
                out.code == 3 || out.code == 1,
                "{target} (force {force}) was not refused: {out}"
            );
            assert!(
                out.stderr.contains("never writes")
                    || out.stderr.contains("outside the repository"),
                "{target}: {out}"
            );
        }
    }
    assert_eq!(dir_state(git_dir), before, "the git dir changed");
}

#[test]
fn test_target_paths_a_git_dir_of_another_name_is_refused() {
    // The dotfiles layout through a `gitdir:` file: `.git` names `.cfg`.
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let repo = TestRepo::empty_dir();
    repo.git(&["init", "-q", "-b", "main", "--separate-git-dir=.cfg"]);
    repo.write("README.md", "# dotfiles\n");
    repo.git(&["add", "README.md"]);
    repo.git(&["commit", "-q", "-m", "initial"]);
    assert!(repo.path().join(".git").is_file(), "a gitdir: file");
    let dot_git = std::fs::read(repo.path().join(".git")).expect("read .git");
    #[cfg(unix)]
    std::os::unix::fs::symlink(".cfg", repo.path().join("cfg-link")).expect("ln");
    std::fs::create_dir(repo.path().join("sub")).expect("mkdir");
    let mut targets = vec![
        ".cfg/hooks/pre-commit",
        ".cfg/config",
        ".cfg/HEAD",
        "./.cfg/hooks/post-checkout",
        "sub/../.cfg/hooks/pre-commit",
        ".git",
    ];
    if cfg!(unix) {
        targets.push("cfg-link/hooks/pre-commit");
    }
    refused_all(
        &repo,
        &repo.path().join(".cfg"),
        &targets,
        &evil_hook(&marker),
        &[],
    );
    assert_eq!(
        std::fs::read(repo.path().join(".git")).expect("read"),
        dot_git
    );
    assert!(!repo.path().join(".cfg/hooks/pre-commit").exists());
    assert_no_hook_ran(&repo, &marker);
    // A neighbour with a similar name is an ordinary folder.
    let out = run_stdin(&repo, &["guard", "write", ".cfgx/notes.txt"], b"fine\n");
    assert_eq!(out.code, 0, "{out}");
    outside.assert_untouched("gitdir: .cfg");
}

#[test]
fn test_target_paths_git_dir_from_the_environment_is_refused() {
    // The bare dotfiles layout: `GIT_DIR=.cfg GIT_WORK_TREE=.`.
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let repo = TestRepo::empty_dir();
    repo.git(&["init", "-q", "--bare", "-b", "main", ".cfg"]);
    let env = [("GIT_DIR", ".cfg"), ("GIT_WORK_TREE", ".")];
    repo.write("a.txt", "a\n");
    refused_all(
        &repo,
        &repo.path().join(".cfg"),
        &[
            ".cfg/hooks/pre-commit",
            ".cfg/config",
            ".cfg/info/exclude/../HEAD",
        ],
        &evil_hook(&marker),
        &env,
    );
    assert!(!repo.path().join(".cfg/hooks/pre-commit").exists());
    // An ordinary file of that working tree is written.
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "write", "a.txt"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = crate::common::run_with_stdin(&mut cmd, b"b\n");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("a.txt"), "b\n");
    outside.assert_untouched("GIT_DIR=.cfg");
}

#[test]
fn test_target_paths_the_hooks_folder_git_runs_is_refused() {
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let root = |repo: &TestRepo| repo.path().to_string_lossy().into_owned();
    // Relative, absolute, through a symlink, and from the global config.
    for how in ["relative", "absolute", "symlinked", "global"] {
        let repo = TestRepo::with_commit();
        let value = match how {
            "absolute" => format!("{}/tools/hooks", root(&repo)),
            "symlinked" => "hooks-link".to_string(),
            _ => "tools/hooks".to_string(),
        };
        std::fs::create_dir_all(repo.path().join("tools/hooks")).expect("mkdir");
        #[cfg(unix)]
        std::os::unix::fs::symlink("tools/hooks", repo.path().join("hooks-link")).expect("ln");
        if how == "global" {
            repo.git(&["config", "--global", "core.hooksPath", &value]);
        } else {
            repo.git(&["config", "core.hooksPath", &value]);
        }
        // A hook the user wrote, which an agent must not rewrite either.
        repo.write("tools/hooks/post-commit", "#!/bin/sh\nexit 0\n");
        let before = snapshot(&repo.path().join("tools"));
        let mut targets = vec![
            "tools/hooks/pre-commit",
            "tools/hooks/post-commit",
            "tools/./hooks/commit-msg",
        ];
        if cfg!(unix) {
            targets.push("hooks-link/pre-commit");
        }
        for target in targets {
            let out = run_stdin(
                &repo,
                &["guard", "write", target, "--force"],
                evil_hook(&marker).as_bytes(),
            );
            assert_eq!(out.code, 3, "{how} {target}: {out}");
            assert!(out.stderr.contains("hooks folder"), "{how}: {out}");
        }
        assert_eq!(snapshot(&repo.path().join("tools")), before, "{how}");
        assert_no_hook_ran(&repo, &marker);
    }
    // Without core.hooksPath, `tools/hooks` is an ordinary folder.
    let repo = TestRepo::with_commit();
    let out = run_stdin(
        &repo,
        &["guard", "write", "tools/hooks/readme.txt"],
        b"notes\n",
    );
    assert_eq!(out.code, 0, "{out}");
    outside.assert_untouched("hooksPath");
}

#[test]
fn test_target_paths_hooks_path_from_command_line_config_is_refused() {
    // `git -c core.hooksPath=…` reaches child processes as GIT_CONFIG_*.
    let repo = TestRepo::with_commit();
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "write", "ci/hooks/pre-commit", "--force"])
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "core.hooksPath")
        .env("GIT_CONFIG_VALUE_0", "ci/hooks");
    let out = crate::common::run_with_stdin(&mut cmd, b"#!/bin/sh\n");
    assert_eq!(out.code, 3, "{out}");
    assert!(!repo.path().join("ci/hooks/pre-commit").exists());
}

#[test]
fn test_target_paths_linked_worktrees_never_reach_a_git_dir() {
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let repo = TestRepo::with_commit();
    // A linked worktree inside the main one, and one outside it.
    repo.git(&["worktree", "add", "-q", "-b", "inner", "wt"]);
    let far = tempfile::tempdir().expect("tempdir");
    let far_wt = far.path().join("far");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "far",
        far_wt.to_str().expect("utf-8"),
    ]);
    let common = repo.path().join(".git");
    let before = dir_state(&common);
    let hook = evil_hook(&marker);
    // From the main worktree.
    for target in [
        "wt/.git",
        ".git/worktrees/wt/HEAD",
        ".git/worktrees/far/gitdir",
        "wt/../.git/hooks/pre-commit",
    ] {
        let out = run_stdin(
            &repo,
            &["guard", "write", target, "--force"],
            hook.as_bytes(),
        );
        assert_eq!(out.code, 3, "{target}: {out}");
    }
    // From each linked worktree: its `.git` file, and the common dir by an
    // absolute path or by climbing out.
    let common_hook = common.join("hooks/pre-commit");
    let common_hook = common_hook.to_str().expect("utf-8");
    for dir in [repo.path().join("wt"), far_wt.clone()] {
        for target in [".git", common_hook, "../.git/hooks/pre-commit"] {
            let out = crate::common::run_with_stdin(
                repo.cmd("git-fararoni")
                    .current_dir(&dir)
                    .args(["guard", "write", target, "--force"]),
                hook.as_bytes(),
            );
            assert!(
                out.code == 3 || out.code == 1,
                "{} {target}: {out}",
                dir.display()
            );
            assert!(!common.join("hooks/pre-commit").exists());
        }
    }
    assert_eq!(dir_state(&common), before, "the common git dir changed");
    assert_no_hook_ran(&repo, &marker);
}

#[test]
fn test_target_paths_look_alike_names_are_refused() {
    let repo = TestRepo::with_commit();
    let before = dir_state(&repo.path().join(".git"));
    for target in [
        ".GIT/config",
        ".Git/hooks/pre-commit",
        ".git./config",
        ".git /config",
        "GIT~1/config",
        ".g\u{200c}it/hooks/pre-commit",
        "\u{feff}.git/config",
        "nested/.git/config",
        ".FARARONI/journal.jsonl",
        ".fararoni.corrupt-20260101-000000/journal.jsonl",
        "deep/.fararoni/shadow/x",
    ] {
        let out = run_stdin(&repo, &["guard", "write", target, "--force"], b"x\n");
        assert_eq!(out.code, 3, "{target:?}: {out}");
        assert!(!repo.path().join(target).exists(), "{target:?}");
    }
    assert_eq!(dir_state(&repo.path().join(".git")), before);
    // Names that only look close are ordinary files.
    for target in [
        ".github/workflows/ci.yml",
        ".gitignore",
        ".gitattributes",
        "docs/git.md",
        "fararoni.txt",
    ] {
        let out = run_stdin(&repo, &["guard", "write", target], b"ok\n");
        assert_eq!(out.code, 0, "{target}: {out}");
    }
}

#[test]
fn test_target_paths_compare_case_folded_when_git_says_case_is_ignored() {
    let repo = TestRepo::empty_dir();
    repo.git(&["init", "-q", "-b", "main", "--separate-git-dir=.cfg"]);
    // On this case-sensitive file system `.CFG` is another folder: written.
    let out = run_stdin(&repo, &["guard", "write", ".CFG/hooks/pre-commit"], b"x\n");
    assert_eq!(out.code, 0, "{out}");
    // Once git says the file system ignores case, it is the git dir.
    repo.git(&["config", "core.ignorecase", "true"]);
    for target in [".CFG/hooks/post-commit", ".Cfg/config"] {
        let out = run_stdin(&repo, &["guard", "write", target, "--force"], b"x\n");
        assert_eq!(out.code, 3, "{target}: {out}");
        assert!(!repo.path().join(target).exists());
    }
}

#[cfg(unix)]
#[test]
fn test_target_paths_symlinks_into_reserved_places_are_refused() {
    use std::os::unix::fs::symlink;
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let repo = TestRepo::with_commit();
    repo.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
    symlink(".git/hooks/pre-commit", repo.path().join("hook.sh")).expect("ln");
    symlink(".git", repo.path().join("gl")).expect("ln");
    symlink(".git/hooks", repo.path().join("hooks")).expect("ln");
    std::fs::create_dir(repo.path().join(".fararoni")).expect("mkdir");
    symlink(".fararoni", repo.path().join("store-link")).expect("ln");
    symlink(outside.path(), repo.path().join("out")).expect("ln");
    symlink(outside.victim(), repo.path().join("victim-link.txt")).expect("ln");
    let before = dir_state(&repo.path().join(".git"));
    for target in [
        "hook.sh",
        "gl/hooks/pre-commit",
        "gl/config",
        "hooks/post-checkout",
        "store-link/journal.jsonl",
        "out/victim.txt",
        "out/new.txt",
        "victim-link.txt",
    ] {
        let out = run_stdin(
            &repo,
            &["guard", "write", target, "--force"],
            evil_hook(&marker).as_bytes(),
        );
        assert_eq!(out.code, 3, "{target}: {out}");
    }
    assert_eq!(dir_state(&repo.path().join(".git")), before);
    assert_eq!(repo.read(".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n");
    outside.assert_untouched("symlinks");
    assert_no_hook_ran(&repo, &marker);
}

#[cfg(unix)]
#[test]
fn test_target_paths_restore_and_undo_never_write_a_reserved_place() {
    use std::os::unix::fs::symlink;
    let outside = Outside::new();
    let marker = outside.path().join("marker");
    let hook = evil_hook(&marker);
    // A file backed up as `tools/pre-commit`, whose folder later becomes a
    // symlink to the hooks: restoring or undoing it would plant the hook.
    let repo = TestRepo::with_commit();
    let write = |rel: &str, content: &str, session: &str| {
        let out = crate::common::run_with_stdin(
            repo.cmd("git-fararoni")
                .env("FARARONI_SESSION", session)
                .args(["guard", "write", rel, "--force"]),
            content.as_bytes(),
        );
        assert_eq!(out.code, 0, "{out}");
    };
    write("tools/pre-commit", &hook, "s1");
    write("tools/pre-commit", "harmless\n", "s2");
    std::fs::remove_dir_all(repo.path().join("tools")).expect("rm");
    symlink(".git/hooks", repo.path().join("tools")).expect("ln");
    let before = dir_state(&repo.path().join(".git"));
    let out = repo.run(&[
        "shadow",
        "restore",
        "--yes",
        "tools/pre-commit",
        "--version",
        "1",
    ]);
    assert_eq!(out.code, 3, "{out}");
    let out = repo.run(&["undo"]);
    assert_ne!(out.code, 0, "{out}");
    let out = repo.run(&["shadow", "restore", "--yes", ".git/hooks/pre-commit"]);
    assert_eq!(out.code, 3, "{out}");
    assert_eq!(dir_state(&repo.path().join(".git")), before);
    assert!(!repo.path().join(".git/hooks/pre-commit").exists());
    assert_no_hook_ran(&repo, &marker);

    // A folder that became the hooks folder by configuration after the
    // backup was taken.
    let repo = TestRepo::with_commit();
    let write = |rel: &str, content: &str, session: &str| {
        let out = crate::common::run_with_stdin(
            repo.cmd("git-fararoni")
                .env("FARARONI_SESSION", session)
                .args(["guard", "write", rel, "--force"]),
            content.as_bytes(),
        );
        assert_eq!(out.code, 0, "{out}");
    };
    write("ci/pre-commit", &hook, "s1");
    write("ci/pre-commit", "harmless\n", "s2");
    std::fs::remove_file(repo.path().join("ci/pre-commit")).expect("rm");
    repo.git(&["config", "core.hooksPath", "ci"]);
    let out = repo.run(&["undo"]);
    assert_ne!(out.code, 0, "{out}");
    let out = repo.run(&[
        "shadow",
        "restore",
        "--yes",
        "ci/pre-commit",
        "--version",
        "1",
    ]);
    assert_eq!(out.code, 3, "{out}");
    assert!(!repo.path().join("ci/pre-commit").exists());
    assert_no_hook_ran(&repo, &marker);
    outside.assert_untouched("restore and undo");
}

#[cfg(unix)]
#[test]
fn test_target_paths_a_folder_swapped_for_a_symlink_after_resolution_stops_the_write() {
    use std::os::unix::fs::symlink;
    let outside = Outside::new();
    let repo = TestRepo::with_commit();
    repo.write("sub/f.txt", "old\n");
    repo.write("g.txt", "old\n");
    let guard = Guard::discover(repo.path()).expect("guard");
    let opts = WriteOptions {
        force: true,
        ..WriteOptions::default()
    };
    // The folder on the way.
    let path = guard
        .shadow()
        .resolve_rel(Utf8Path::new("sub/f.txt"))
        .expect("resolve");
    std::fs::rename(repo.path().join("sub"), repo.path().join("sub.real")).expect("mv");
    symlink(outside.path(), repo.path().join("sub")).expect("ln");
    std::fs::write(outside.path().join("f.txt"), "outside\n").expect("write");
    let err = guard.write(&path, b"new\n", &opts).expect_err("refused");
    assert!(
        matches!(err, GuardError::Shadow(ShadowError::TargetChanged { .. })),
        "{err:?}"
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("f.txt")).expect("read"),
        "outside\n"
    );
    std::fs::remove_file(outside.path().join("f.txt")).expect("rm");
    // The file itself.
    let path = guard
        .shadow()
        .resolve_rel(Utf8Path::new("g.txt"))
        .expect("resolve");
    std::fs::remove_file(repo.path().join("g.txt")).expect("rm");
    symlink(outside.victim(), repo.path().join("g.txt")).expect("ln");
    let err = guard.write(&path, b"new\n", &opts).expect_err("refused");
    assert!(
        matches!(err, GuardError::Shadow(ShadowError::TargetChanged { .. })),
        "{err:?}"
    );
    outside.assert_untouched("swapped after resolution");
}
