//! Other agents' commands that the guard allows but cannot judge run
//! contained: the hook answers with the call changed to `git-fararoni run`,
//! and that command, run as the agent would, writes only the working tree.

use std::path::PathBuf;

use crate::common::TestRepo;
use crate::test_hook_agents::{contained_command, hook, shell_call, veto_message};

fn outside(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hook-outside-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("authorized_keys"), "ssh-ed25519 mine\n").expect("write");
    dir
}

/// Runs `line` with `sh -c` in the repository, as the agent's shell tool
/// does, with our binary on PATH.
fn run_as_agent(r: &TestRepo, line: &str) -> crate::common::Out {
    let bin = crate::common::bin("git-fararoni");
    let dir = bin.parent().expect("bin dir").to_path_buf();
    let path = std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let cmd = r.cmd("git-fararoni");
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(line)
        .current_dir(r.path())
        .env("PATH", path);
    for (k, v) in cmd.get_envs() {
        if k != "PATH" {
            match v {
                Some(v) => sh.env(k, v),
                None => sh.env_remove(k),
            };
        }
    }
    sh.output().expect("sh runs").into()
}

#[test]
fn test_hook_contain_scripts_run_contained_in_claude_codex_gemini() {
    for agent in ["claude", "codex", "gemini"] {
        let r = TestRepo::with_commit();
        let out = outside(agent);
        let o = out.display();
        r.write(
            "tools/setup.py",
            &format!(
                "import os, shutil\nopen('{o}/authorized_keys', 'a').write('ssh-rsa attacker\\n')\nopen('.git/hooks/post-checkout', 'w').write('rm -rf .')\nopen('built.txt', 'w').write('ok')\n"
            ),
        );
        let answer = hook(&r, agent, &shell_call(&r, agent, "python3 tools/setup.py"));
        assert_eq!(veto_message(agent, &answer), None, "{agent}: {answer}");
        let line = contained_command(&answer)
            .unwrap_or_else(|| panic!("{agent}: the call was not changed: {answer}"));
        assert!(line.contains("git-fararoni run --session "), "{line}");
        assert!(line.starts_with('/'), "our binary by its path: {line}");
        let ran = run_as_agent(&r, &line);
        assert_ne!(ran.code, 0, "{agent}: {ran}");
        assert!(
            ran.stderr.contains("Read-only file system"),
            "{agent}: {ran}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("authorized_keys")).expect("read"),
            "ssh-ed25519 mine\n",
            "{agent}"
        );
        assert!(
            !r.path().join(".git/hooks/post-checkout").exists(),
            "{agent}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn test_hook_contain_judged_commands_and_git_are_not_changed() {
    let r = TestRepo::with_commit();
    for line in [
        "git status",
        "ls -la",
        "cat README.md",
        "git add -A && git commit -qm x",
    ] {
        let answer = hook(&r, "claude", &shell_call(&r, "claude", line));
        assert_eq!(answer.code, 0, "{line}: {answer}");
        assert!(answer.stdout.is_empty(), "{line} was changed: {answer}");
    }
}

#[test]
fn test_hook_contain_the_wrapper_typed_by_a_model_is_judged_inside() {
    let r = TestRepo::with_commit();
    std::fs::create_dir_all(r.path().join("src")).expect("mkdir");
    r.write("src/a.rs", "fn main() {}\n");
    // A tracked file with uncommitted changes, for `reset --hard` to lose.
    r.write("README.md", "# demo, edited\n");
    let answer = hook(
        &r,
        "claude",
        &shell_call(&r, "claude", "git-fararoni run -- rm -rf src"),
    );
    assert!(veto_message("claude", &answer).is_some(), "{answer}");
    for line in [
        "git-fararoni run --no-net -- sh -c 'rm -rf src'",
        "git-fararoni run --session x -- git reset --hard",
        "/usr/local/bin/git-fararoni run -- git clean -fdx",
    ] {
        let answer = hook(&r, "cline", &shell_call(&r, "cline", line));
        assert!(veto_message("cline", &answer).is_some(), "{line}: {answer}");
    }
    // Its own wrapper is not wrapped twice.
    let answer = hook(
        &r,
        "claude",
        &shell_call(&r, "claude", "git-fararoni run -- make"),
    );
    assert_eq!(veto_message("claude", &answer), None, "{answer}");
    assert_eq!(contained_command(&answer), None, "{answer}");
}

#[test]
fn test_hook_contain_agents_without_a_rewrite_get_plain_allow() {
    let r = TestRepo::with_commit();
    for agent in ["cline", "cursor", "copilot"] {
        let answer = hook(&r, agent, &shell_call(&r, agent, "python3 tools/x.py"));
        assert_eq!(veto_message(agent, &answer), None, "{agent}: {answer}");
        assert_eq!(contained_command(&answer), None, "{agent}: {answer}");
    }
}

#[test]
fn test_hook_contain_the_guards_own_commands_are_the_users() {
    let r = TestRepo::with_commit();
    for agent in ["claude", "cline", "cursor", "copilot", "gemini", "codex"] {
        for line in [
            "git-fararoni shadow prune --all",
            "git-fararoni hooks uninstall --agent claude",
            "sudo git-fararoni hooks install --agent claude",
            "/usr/local/bin/git-fararoni shadow prune --all",
            "./git-fararoni hooks uninstall",
            "git-fararoni-shadow prune --all",
            "git-fararoni-saga abort",
        ] {
            let answer = hook(&r, agent, &shell_call(&r, agent, line));
            assert!(
                veto_message(agent, &answer).is_some(),
                "{agent}: {line} was let through: {answer}"
            );
        }
    }
}
