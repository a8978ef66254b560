//! The hook's classes of calls, per agent, through the real binary in a
//! temporary repository: each agent's read-only tools pass by table and
//! open nothing; `fararoni.hook.remote deny` covers what points a remote at
//! a URL; our own verbs are judged as ours; block devices and disk tools
//! are vetoed; a wrong-type payload's veto names the bypass.

use serde_json::{json, Value};

use crate::common::{Out, TestRepo};
use crate::test_hook_agents::{hook, veto_message};

/// A pre-tool payload of `agent` for `tool` with `input`, in `repo`.
fn payload(agent: &str, repo: &TestRepo, tool: &str, input: Value) -> Value {
    let cwd = repo.path().to_string_lossy().into_owned();
    match agent {
        "gemini" => json!({"hook_event_name": "BeforeTool", "tool_name": tool,
            "tool_input": input, "session_id": "s", "cwd": cwd}),
        "cursor" => json!({"hook_event_name": "preToolUse", "tool_name": tool,
            "tool_input": input, "conversation_id": "s", "workspace_roots": [cwd]}),
        "cline" => json!({"hookName": "PreToolUse", "taskId": "s", "workspaceRoots": [cwd],
            "preToolUse": {"toolName": tool, "parameters": input}}),
        "copilot" => json!({"timestamp": 1, "cwd": cwd, "toolName": tool, "toolArgs": input}),
        _ => json!({"hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": input, "session_id": "s", "cwd": cwd}),
    }
}

/// The shell tool of each agent.
fn shell_tool(agent: &str) -> &'static str {
    match agent {
        "gemini" => "run_shell_command",
        "cursor" => "Shell",
        "cline" => "execute_command",
        "copilot" => "bash",
        _ => "Bash",
    }
}

fn allowed(agent: &str, out: &Out) -> bool {
    veto_message(agent, out).is_none()
}

#[test]
fn test_hook_classes_read_only_tools_pass_by_table() {
    let cases: &[(&str, &[&str])] = &[
        (
            "claude",
            &[
                "Read",
                "Glob",
                "Grep",
                "LS",
                "WebFetch",
                "WebSearch",
                "TodoWrite",
            ],
        ),
        (
            "gemini",
            &[
                "read_file",
                "read_many_files",
                "list_directory",
                "glob",
                "search_file_content",
                "web_fetch",
                "google_web_search",
            ],
        ),
        ("cursor", &["Read", "Grep", "Glob"]),
        ("codex", &["read_file", "list_dir", "grep_files"]),
        ("cline", &["read_file", "list_files", "search_files"]),
        ("copilot", &["view", "grep", "glob"]),
    ];
    for (agent, tools) in cases {
        for tool in *tools {
            let repo = TestRepo::with_commit();
            let before = repo.snapshot();
            let out = hook(
                &repo,
                agent,
                &payload(
                    agent,
                    &repo,
                    tool,
                    json!({"file_path": "README.md", "pattern": "*"}),
                ),
            );
            assert!(allowed(agent, &out), "{agent} {tool}: {out}");
            assert!(
                out.stdout.is_empty(),
                "{agent} {tool}: allow is silence: {out}"
            );
            // Nothing was opened or written: no store, no session log.
            assert_eq!(repo.snapshot(), before, "{agent} {tool}");
            assert!(!repo.path().join(".fararoni").exists());
        }
    }
    // Cursor's beforeReadFile event carries the read itself.
    let repo = TestRepo::with_commit();
    let cwd = repo.path().to_string_lossy().into_owned();
    let out = hook(
        &repo,
        "cursor",
        &json!({"hook_event_name": "beforeReadFile", "file_path": "README.md",
                "content": "# demo\n", "conversation_id": "s", "workspace_roots": [cwd]}),
    );
    assert!(allowed("cursor", &out), "{out}");
    // A tool nobody listed is still vetoed where the hook is registered
    // only for the tools it judges.
    let out = hook(
        &repo,
        "claude",
        &payload(
            "claude",
            &repo,
            "NotebookEdit",
            json!({"notebook_path": "x.ipynb"}),
        ),
    );
    let m = veto_message("claude", &out).expect("vetoed");
    assert!(m.contains("FARARONI_GUARD=off"), "{m}");
}

#[test]
fn test_hook_classes_remote_deny_covers_what_points_a_remote() {
    for agent in ["claude", "gemini", "cursor", "copilot"] {
        let repo = TestRepo::with_commit();
        repo.git(&["config", "fararoni.hook.remote", "deny"]);
        for line in [
            "git remote add evil https://example.com/x.git",
            "git remote set-url origin https://example.com/x.git",
            "git config remote.evil.url https://example.com/x.git",
            "git -c remote.evil.url=https://example.com/x.git fetch evil",
            "git fetch https://example.com/x.git",
        ] {
            let out = hook(
                &repo,
                agent,
                &payload(agent, &repo, shell_tool(agent), json!({"command": line})),
            );
            assert!(!allowed(agent, &out), "{agent}: {line}: {out}");
        }
        assert_eq!(repo.git(&["remote"]), "");
    }
    // With remote contact allowed, adding a remote is ordinary work.
    let repo = TestRepo::with_commit();
    let out = hook(
        &repo,
        "claude",
        &payload(
            "claude",
            &repo,
            "Bash",
            json!({"command": "git remote add up https://example.com/x.git"}),
        ),
    );
    assert!(allowed("claude", &out), "{out}");
}

#[test]
fn test_hook_classes_our_own_verbs_are_judged_as_ours() {
    let repo = TestRepo::with_commit();
    for line in [
        "git fararoni doctor",
        "git fararoni shadow list",
        "git fararoni hooks status",
        "git fararoni guard check a b",
        "git fararoni guard write README.md",
        "git-fararoni shadow list",
        "git fararoni --version",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(allowed("claude", &out), "{line}: {out}");
    }
    for line in [
        "git fararoni hooks uninstall --agent claude",
        "git-fararoni hooks uninstall --agent gemini",
        "git fararoni hooks --agent copilot uninstall",
        "git fararoni hooks install --agent claude",
        "git fararoni shadow prune --yes",
        "cd src 2>/dev/null; git fararoni hooks uninstall",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        let m = veto_message("claude", &out).unwrap_or_else(|| panic!("{line} allowed"));
        assert!(m.contains("git-fararoni"), "{line}: {m}");
    }
}

#[test]
fn test_hook_classes_devices_and_disk_tools() {
    let repo = TestRepo::with_commit();
    repo.write("README.md", "# demo\nwork\n");
    for line in [
        "tee /dev/sda < README.md",
        "echo x | tee -a /dev/nvme0n1",
        "dd if=/dev/zero of=/dev/sdb bs=1M",
        "mkfs.ext4 /dev/sdb1",
        "mkswap /dev/sdb2",
        "wipefs -a /dev/sda",
        "sfdisk /dev/sda < layout",
        "parted /dev/sda mklabel gpt",
        "echo x > /dev/sda",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(!allowed("claude", &out), "{line}: {out}");
    }
    for line in [
        "fdisk -l",
        "truncate -s +1G README.md",
        "echo x > /dev/fd/3",
        "git status 2> /dev/stdout",
        "echo x | tee /dev/null",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(allowed("claude", &out), "{line}: {out}");
    }
    let out = hook(
        &repo,
        "claude",
        &payload(
            "claude",
            &repo,
            "Bash",
            json!({"command": "truncate -s 0 README.md"}),
        ),
    );
    assert!(!allowed("claude", &out), "{out}");
}

#[test]
fn test_hook_classes_a_wrong_type_names_the_bypass_and_stays_short() {
    for agent in ["claude", "gemini", "codex", "cursor", "cline", "copilot"] {
        let repo = TestRepo::with_commit();
        for input in [
            json!({"command": 42}),
            json!({"command": {"x": 1}}),
            json!({"command": null}),
        ] {
            let out = hook(
                &repo,
                agent,
                &payload(agent, &repo, shell_tool(agent), input.clone()),
            );
            let m = veto_message(agent, &out).unwrap_or_else(|| panic!("{agent} {input} allowed"));
            assert!(m.contains("FARARONI_GUARD=off"), "{agent} {input}: {m}");
            assert!(m.chars().count() <= 300, "{agent}: {m}");
        }
    }
    // A long reason is shortened at a word, and keeps its closing words.
    let repo = TestRepo::with_commit();
    let long = format!(
        "rm -rf {}",
        (0..60)
            .map(|i| format!("dir{i}/file{i}.txt"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for i in 0..60 {
        repo.write(&format!("dir{i}/file{i}.txt"), "x\n");
    }
    let out = hook(
        &repo,
        "claude",
        &payload("claude", &repo, "Bash", json!({"command": long})),
    );
    let m = veto_message("claude", &out).expect("vetoed");
    assert!(m.chars().count() <= 300, "{m}");
    assert!(m.ends_with("ask the user."), "{m}");
    if let Some((before, _)) = m.split_once('…') {
        let last = before.split_whitespace().last().unwrap_or("");
        assert!(
            long.split_whitespace().any(|w| w == last)
                || !last.chars().any(char::is_alphanumeric)
                || m.contains(&format!("{last} ")),
            "cut inside a word: {m}"
        );
    }
}

#[test]
fn test_hook_classes_ordinary_git_passes_and_forced_refspecs_do_not() {
    let repo = TestRepo::with_commit();
    // `spike` holds a commit no other ref has: deleting it loses that.
    repo.git(&["checkout", "-q", "-b", "spike"]);
    repo.write("spike.txt", "only on spike\n");
    repo.git(&["add", "spike.txt"]);
    repo.git(&["commit", "-q", "-m", "spike"]);
    repo.git(&["checkout", "-q", "main"]);
    let r = repo.path().to_string_lossy().into_owned();
    for line in [
        "git lfs ls-files",
        "git lfs status",
        &format!("r={r}; git -C \"$r\" log --oneline -1"),
        "git -C \"$R\" log --oneline -1",
        "b=spike; git diff main $b",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(allowed("claude", &out), "{line}: {out}");
    }
    for line in [
        "git -C \"$R\" reset --hard",
        "b=spike; git branch -D $b",
        "git fetch origin +refs/heads/feature:refs/heads/spike",
        "git fetch . +main:spike",
        "git fetch origin +refs/tags/*:refs/tags/*",
        "git pull origin +x:y",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(!allowed("claude", &out), "{line}: {out}");
    }
    // Into remote-tracking refs, `+` is git's own default.
    let out = hook(
        &repo,
        "claude",
        &payload(
            "claude",
            &repo,
            "Bash",
            json!({"command": "git fetch origin +refs/heads/*:refs/remotes/origin/*"}),
        ),
    );
    assert!(allowed("claude", &out), "{out}");
}

#[test]
fn test_hook_classes_payload_variants_are_judged() {
    // Copilot's write_bash types a command into a running shell.
    let repo = TestRepo::with_commit();
    repo.write("README.md", "# demo\nwork\n");
    let out = hook(
        &repo,
        "copilot",
        &payload(
            "copilot",
            &repo,
            "write_bash",
            json!({"sessionId": "1", "input": "git checkout -- README.md"}),
        ),
    );
    assert!(!allowed("copilot", &out), "{out}");
    let out = hook(
        &repo,
        "copilot",
        &payload(
            "copilot",
            &repo,
            "write_bash",
            json!({"sessionId": "1", "input": "git status"}),
        ),
    );
    assert!(allowed("copilot", &out), "{out}");
    // Gemini's older `directory` parameter moves where the command runs.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("keep.txt"), "x\n").unwrap();
    let out = hook(
        &repo,
        "gemini",
        &payload(
            "gemini",
            &repo,
            "run_shell_command",
            json!({"command": "rm keep.txt", "directory": outside.path()}),
        ),
    );
    assert!(!allowed("gemini", &out), "{out}");
}

#[test]
fn test_hook_classes_interpreter_clusters_and_tar_remove_files() {
    let repo = TestRepo::with_commit();
    repo.write("src/app.rs", "fn main() {}\n");
    repo.git(&["add", "src/app.rs"]);
    repo.git(&["commit", "-q", "-m", "app"]);
    repo.write("src/app.rs", "fn main() { work() }\n");
    for line in [
        "python3 -Ic 'import shutil; shutil.rmtree(\"src\")'",
        "python -vc 'import shutil; shutil.rmtree(\"src\")'",
        "python3 -Bsc 'import shutil; shutil.rmtree(\"src\")'",
        "node -pe 'require(\"fs\").rmSync(\"src\", {recursive: true})'",
        "perl -E 'unlink \"src/app.rs\"'",
        "ruby -ne 'File.delete(\"src/app.rs\")' README.md",
        "tar --remove-files -cf x.tar src",
        "tar -czf x.tgz --remove-files src/app.rs",
        "tar cf x.tar src --remove-files",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(!allowed("claude", &out), "{line}: {out}");
    }
    for line in [
        "python3 -Bc 'print(1)'",
        "node -pe '1 + 1'",
        "tar -cf x.tar src",
    ] {
        let out = hook(
            &repo,
            "claude",
            &payload("claude", &repo, "Bash", json!({"command": line})),
        );
        assert!(allowed("claude", &out), "{line}: {out}");
    }
}

/// Runs `line` with `sh -c` in the repository (the effect a veto prevents,
/// or an allowed line's real run).
fn sh(repo: &TestRepo, line: &str) -> Out {
    let mut cmd = std::process::Command::new("sh");
    repo.env(&mut cmd);
    cmd.current_dir(repo.path()).args(["-c", line]);
    cmd.output().expect("sh").into()
}

/// Whether the hook lets `line` run (Claude Code's Bash tool).
fn lets(repo: &TestRepo, line: &str) -> bool {
    let out = hook(
        repo,
        "claude",
        &payload("claude", repo, "Bash", json!({"command": line})),
    );
    allowed("claude", &out)
}

/// A repository in the state these classes are about: a modified tracked
/// file, an untracked draft, an ignored precious `.env.local`, ignored
/// build output, a stash entry, a local-only branch, a tag, the hooks
/// folder in the tree (`core.hooksPath`), an agent's hook settings.
fn worked() -> TestRepo {
    let r = TestRepo::with_commit();
    r.write(".gitignore", ".env.local\nbuild/\n*.pyc\n");
    r.write("src/app.py", "print(1)\n");
    r.write(".githooks/pre-commit", "#!/bin/sh\nexit 0\n");
    r.write(".claude/settings.json", "{}\n");
    r.write(".codex/hooks.json", "{}\n");
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "project"]);
    r.git(&["tag", "v1"]);
    r.git(&["config", "core.hooksPath", ".githooks"]);
    r.git(&["checkout", "-q", "-b", "spike"]);
    r.write("spike.txt", "only here\n");
    r.git(&["add", "spike.txt"]);
    r.git(&["commit", "-q", "-m", "spike"]);
    r.git(&["checkout", "-q", "main"]);
    r.write("README.md", "# demo, set aside\n");
    r.git(&["stash", "push", "-q"]);
    r.write("src/app.py", "print(1)\nprint('mine')\n");
    r.write("draft.txt", "draft\n");
    r.write(".env.local", "SECRET=1\n");
    r.write("build/out.o", "object\n");
    r.write("x.pyc", "bytecode\n");
    r
}

/// What the classes below must keep: the work, the stash, the branch.
fn assert_work_kept(r: &TestRepo) {
    assert_eq!(r.read("src/app.py"), "print(1)\nprint('mine')\n");
    assert_eq!(r.read("draft.txt"), "draft\n");
    assert_eq!(r.read(".env.local"), "SECRET=1\n");
    assert_eq!(r.read(".githooks/pre-commit"), "#!/bin/sh\nexit 0\n");
    assert!(r.path().join(".claude/settings.json").exists());
    assert!(r.path().join(".codex/hooks.json").exists());
    assert_eq!(r.git(&["stash", "list"]).lines().count(), 1);
    assert!(r.git(&["branch", "--list", "spike"]).contains("spike"));
}

#[test]
fn test_hook_classes_inline_code_is_read_whatever_runs_it_and_whatever_it_is_called() {
    // The effect these lines have when run: the work is gone.
    let scratch = worked();
    let out = sh(
        &scratch,
        "python3 -c 'from shutil import rmtree as w; w(\"src\")'",
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(!scratch.path().join("src").exists());

    let r = worked();
    for line in [
        // Through xargs, parallel and find -exec: the direct call's code.
        "echo src | xargs python3 -c 'import shutil, sys; shutil.rmtree(sys.argv[1])'",
        "echo src | xargs -I{} python3 -Ic 'import shutil; shutil.rmtree(\"{}\")'",
        "ls | xargs -0 node -e 'require(\"fs\").rmSync(\"src\", {recursive: true})'",
        "find . -name '*.py' -exec python3 -c 'import os, sys; os.remove(sys.argv[1])' {} +",
        "echo a | parallel python3 -c 'import os; os.remove(\"src/app.py\")'",
        // Renamed, star-imported, string-named destroyers.
        "python3 -c 'from shutil import rmtree as w; w(\"src\")'",
        "python3 -c 'import shutil as s; s.rmtree(\"src\")'",
        "python3 -c '__import__(\"shutil\").rmtree(\"src\")'",
        "python3 -c 'import importlib; importlib.import_module(\"shu\" + \"til\").rmtree(\"src\")'",
        "python3 -c 'import os; getattr(os, \"sys\" + \"tem\")(\"rm -rf src\")'",
        "python3 -c 'import os, sys; getattr(os, sys.argv[1])(\"src/app.py\")' remove",
        "python3 -c 'from os import *; remove(\"src/app.py\")'",
        "python3 -c 'import os; list(map(os.remove, [\"src/app.py\"]))'",
        "python3 -c 'import subprocess as sp; sp.run([\"rm\", \"-rf\", \"src\"])'",
        "python3 -c 'exec(\"import shutil; shutil.rmtree(\\\"src\\\")\")'",
        "python3 -c 'import base64; exec(base64.b64decode(\"aW1wb3J0IG9z\"))'",
        "node -e 'const {rmSync: r} = require(\"fs\"); r(\"src\", {recursive: true})'",
        "node -e 'const f = require(\"node:fs\"); f.rm(\"src\", {recursive: true}, () => {})'",
        "node -e 'const m = \"f\" + \"s\"; require(m).rmSync(\"src\", {recursive: true})'",
        "ruby -e 'require \"fileutils\"; include FileUtils; rm_rf \"src\"'",
        "ruby -e 'require \"fileutils\"; F = FileUtils; F.rm_rf(\"src\")'",
        "ruby -e 'require \"fileutils\"; FileUtils.send(:rm_rf, \"src\")'",
        "perl -e 'system q{rm -rf src}'",
        "perl -MFile::Path -e 'my $w = \\&File::Path::rmtree; $w->(\"src\")'",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert_work_kept(&r);
    // Ordinary inline code still runs, through xargs too.
    for line in [
        "echo x | xargs python3 -c 'import sys; print(sys.argv[1:])'",
        "python3 -c 'import json; print(json.dumps({\"a\": 1}))'",
        "python3 -c 'import re; print(re.compile(\"a\").match(\"a\") is not None)'",
        "python3 -c 'print(eval(\"1 + 2\"))'",
        "node -e 'const fs = require(\"fs\"); console.log(fs.readFileSync(\"README.md\", \"utf8\").length)'",
    ] {
        assert!(lets(&r, line), "{line}: vetoed");
        let out = sh(&r, line);
        assert_eq!(out.code, 0, "{line}: {out}");
    }
    assert_work_kept(&r);
}

#[test]
fn test_hook_classes_state_dependent_git_is_decided_by_the_repository() {
    // With a stash entry, commits only on `spike`, uncommitted and
    // untracked work: each of these loses something, and is vetoed.
    let r = worked();
    for line in [
        "git stash drop",
        "git stash clear",
        "git stash drop -q stash@{0}",
        "git branch -D spike",
        "git branch -d -f spike",
        "git branch --delete --force spike v-none",
        "git checkout -q spike && git checkout -q main && git branch -D @{-1}",
        "git branch -D @{-1}",
        "git checkout -- .",
        "git restore src",
        "git reset --hard",
        "git checkout -f",
        "git clean -f",
    ] {
        assert!(!lets(&r, line), "{line}: allowed with work to lose");
    }
    assert_work_kept(&r);
    // Proven by effect in a copy: `git branch -D spike` loses its commit.
    let scratch = worked();
    let tip = scratch.git(&["rev-parse", "spike"]);
    sh(&scratch, "git branch -D spike");
    let holders = scratch.git(&["for-each-ref", "--contains", tip.trim()]);
    assert!(!holders.contains("refs/heads/"), "{holders}");

    // With nothing to lose, the same commands run.
    let clean = TestRepo::with_commit();
    clean.git(&["branch", "merged"]);
    for line in [
        "git stash drop",
        "git stash clear",
        "git branch -D merged",
        "git checkout -- .",
        "git restore .",
        "git reset --hard",
        "git clean -fd",
    ] {
        let out = hook(
            &clean,
            "claude",
            &payload("claude", &clean, "Bash", json!({"command": line})),
        );
        assert!(
            allowed("claude", &out),
            "{line}: vetoed with nothing to lose: {out}"
        );
    }
    let before = clean.git(&["rev-parse", "HEAD"]);
    assert_eq!(sh(&clean, "git branch -D merged").code, 0);
    assert_eq!(sh(&clean, "git reset --hard").code, 0);
    assert_eq!(clean.git(&["rev-parse", "HEAD"]), before);
    assert_eq!(clean.read("README.md"), "# demo\n");
    // The line itself makes the state: `git stash` then `drop` loses it.
    clean.write("README.md", "# demo, edited\n");
    for line in [
        "git stash && git stash drop",
        "git stash; git stash clear",
        "git commit -qam x && git reset --hard",
        "git checkout -qb tmp && git commit -qam x && git checkout -q main && git branch -D tmp",
    ] {
        assert!(!lets(&clean, line), "{line}: allowed");
    }
    assert_eq!(clean.read("README.md"), "# demo, edited\n");
}

#[test]
fn test_hook_classes_find_never_reaches_the_store_or_the_agents_settings() {
    let r = worked();
    r.write(".fararoni/journal.jsonl", "{}\n");
    for line in [
        "find . -name journal.jsonl -delete",
        "find . -name 'settings*.json' -delete",
        "find . -iname SETTINGS.JSON -delete",
        "find . -name hooks.json -exec rm -f {} +",
        "find . -name '*.json' -exec rm {} \\;",
        "find .claude -type f -delete",
        "find . -name '.codex' -exec rm -rf {} +",
        "find . -path '*claude*' -delete",
        "ln -s .claude c && find c/ -name '*.json' -delete",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert!(r.path().join(".fararoni/journal.jsonl").exists());
    assert_work_kept(&r);
    // Build output is still the agent's to delete.
    let line = "find . -name '*.pyc' -delete";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).code, 0);
    assert!(!r.path().join("x.pyc").exists());
    assert_work_kept(&r);
}

#[test]
fn test_hook_classes_precious_ignored_files_and_included_config_are_kept() {
    let r = worked();
    r.write("team.gitconfig", "[alias]\n\tst = status\n");
    r.git(&["add", "team.gitconfig"]);
    r.git(&["commit", "-q", "-m", "team config"]);
    r.git(&["config", "include.path", "../team.gitconfig"]);
    for line in [
        "cp README.md .env.local",
        "rm .env.local",
        "mv draft.txt .env.local",
        "truncate -s 0 .env.local",
        "ln -s .env.local e && cp README.md e",
        "printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> team.gitconfig",
        "sed -i 's/status/!rm -rf src/' team.gitconfig",
        "cp README.md team.gitconfig",
        "git config include.path ../other.gitconfig",
        "git -c include.path=/tmp/x.cfg status",
        "git config --add includeIf.onbranch:main.path ../x.cfg",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert_work_kept(&r);
    assert_eq!(r.read("team.gitconfig"), "[alias]\n\tst = status\n");
    let line = "rm -rf build";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).code, 0);
    assert_work_kept(&r);
}

#[test]
fn test_hook_classes_archives_and_patches_over_work() {
    let r = worked();
    let src = tempfile::tempdir().expect("tmp");
    let p = src.path();
    std::fs::create_dir_all(p.join("src")).expect("mkdir");
    std::fs::write(p.join("src/app.py"), "print('theirs')\n").expect("write");
    std::fs::write(p.join("draft.txt"), "theirs\n").expect("write");
    std::fs::write(p.join("fresh.txt"), "new\n").expect("write");
    let tar = |name: &str, member: &str| {
        let out = std::process::Command::new("tar")
            .current_dir(p)
            .args(["-cf"])
            .arg(r.path().join(name))
            .arg(member)
            .output()
            .expect("tar");
        assert!(out.status.success());
    };
    tar("over.tar", "src/app.py");
    tar("draft.tar", "draft.txt");
    tar("fresh.tar", "fresh.txt");
    for line in [
        "tar -xf over.tar",
        "tar xf draft.tar",
        "tar -C . -x -f over.tar",
        "tar --extract --file=draft.tar",
        "cat over.tar | tar -x",
        "git archive HEAD | tar -x",
        "mkdir -p d && cd d && tar -xf ../over.tar -C ..",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert_work_kept(&r);
    // Members that overwrite nothing, or options that keep what is there.
    for line in [
        "tar -xf fresh.tar",
        "tar -xkf over.tar",
        "tar -xf over.tar --skip-old-files",
    ] {
        assert!(lets(&r, line), "{line}: vetoed");
        let _ = sh(&r, line);
    }
    assert_eq!(r.read("fresh.txt"), "new\n");
    assert_work_kept(&r);

    // Patches that write the hooks folder, the git dir or hook settings.
    r.write(
        "hooks.patch",
        "diff --git a/.githooks/pre-commit b/.githooks/pre-commit\ndeleted file mode 100644\n--- a/.githooks/pre-commit\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-#!/bin/sh\n-exit 0\n",
    );
    r.write(
        "gitdir.patch",
        "--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch pwned\n",
    );
    r.write(
        "claude.patch",
        "diff --git a/.claude/settings.json b/.claude/settings.json\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"hooks\": {}}\n",
    );
    r.write(
        "ok.patch",
        "diff --git a/spike2.txt b/spike2.txt\nnew file mode 100644\n--- /dev/null\n+++ b/spike2.txt\n@@ -0,0 +1 @@\n+fine\n",
    );
    for line in [
        "git apply --index hooks.patch",
        "git apply --cached gitdir.patch",
        "git am -3 claude.patch",
        "git apply --index < hooks.patch",
        "cat hooks.patch | git am",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert_work_kept(&r);
    assert!(!r.path().join(".git/hooks/post-checkout").exists());
    let line = "git apply --index ok.patch";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).code, 0);
    assert_eq!(r.read("spike2.txt"), "fine\n");
}

#[test]
fn test_hook_classes_a_line_is_judged_by_the_state_it_leaves() {
    let r = worked();
    r.write("src/work.py", "untracked work\n");
    for line in [
        "ln -s src s2 && rm -rf s2/",
        "ln -s src/app.py a && cp README.md a",
        "mv src/work.py build/ && rm -rf build",
        "mkdir -p out && mv draft.txt out/ && rm -rf out",
        "ln -s .githooks h && echo 'exit 1' > h/pre-commit",
        "ln -s .git g && printf '#!/bin/sh\\n' > g/hooks/pre-push",
        "ln -s ~/.ssh k && : > k/id_rsa",
        "cat > run.sh <<'EOF'\nrm -rf src\nEOF\nbash run.sh",
        "printf 'rm -rf src\\n' > run.sh && sh run.sh",
        "echo 'import shutil as s; s.rmtree(\"src\")' > k.py && python3 k.py",
        "cat > run.py <<'EOF'\n#!/usr/bin/env python3\nimport shutil\nshutil.rmtree('src')\nEOF\nchmod +x run.py && ./run.py",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert_work_kept(&r);
    assert_eq!(r.read("src/work.py"), "untracked work\n");
    // A script the line writes and runs is judged by its text.
    let line = "cat > ok.sh <<'EOF'\necho hello\nEOF\nsh ok.sh";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).stdout, "hello\n");
    // A link or a move that loses nothing still runs.
    let line = "ln -sf README.md x && cat x && mv x y";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).code, 0);
}

#[test]
fn test_hook_classes_unstaging_keeps_staged_changes_that_exist_nowhere_else() {
    let r = TestRepo::with_commit();
    // Staged, then changed back in the tree: the staged line is only in
    // the index.
    r.write("README.md", "# demo\nstaged line\n");
    r.git(&["add", "README.md"]);
    r.write("README.md", "# demo\nsomething else\n");
    for line in [
        "git reset",
        "git reset -q HEAD README.md",
        "git restore --staged .",
        "git restore -S README.md",
        "git rm -q --cached README.md",
    ] {
        assert!(!lets(&r, line), "{line}: allowed");
    }
    assert!(r.git(&["diff", "--cached"]).contains("+staged line"));
    // Staged and then edited further: the text is all in the tree, so
    // unstaging loses nothing, and runs.
    r.write("README.md", "# demo\nstaged line\nand more\n");
    let line = "git reset -q";
    assert!(lets(&r, line), "{line}: vetoed");
    assert_eq!(sh(&r, line).code, 0);
    assert_eq!(r.read("README.md"), "# demo\nstaged line\nand more\n");
}

/// A file git pulls into its configuration (`include.path`) is edited by
/// no agent's edit tool: a key added there runs programs as `.git/config`
/// would. An ordinary file beside it is edited as usual.
#[test]
fn test_hook_classes_an_included_config_file_is_not_edited_by_edit_tools() {
    use crate::test_hook_agents::{assert_allowed, assert_vetoed, edit_call, hook};
    for agent in ["claude", "gemini", "codex"] {
        let r = crate::common::TestRepo::with_commit();
        r.write("team.gitconfig", "[alias]\n\tst = status\n");
        r.write("notes.txt", "[alias]\n\tst = status\n");
        r.git(&["add", "."]);
        r.git(&["commit", "-q", "-m", "team config"]);
        r.git(&["config", "include.path", "../team.gitconfig"]);
        let add = "[core]\n\tfsmonitor = touch pwned\n[alias]\n\tst = status\n";
        let old = "[alias]\n\tst = status\n";
        let out = hook(&r, agent, &edit_call(&r, agent, "team.gitconfig", old, add));
        assert_vetoed(agent, &out, &["`team.gitconfig`", "include.path"]);
        // Other spellings of the same file, and a link to it.
        std::os::unix::fs::symlink("team.gitconfig", r.path().join("link.gitconfig"))
            .expect("symlink");
        for spelled in [
            "./team.gitconfig",
            "src/../team.gitconfig",
            "link.gitconfig",
        ] {
            let out = hook(&r, agent, &edit_call(&r, agent, spelled, old, add));
            assert_vetoed(agent, &out, &["include.path"]);
        }
        let out = hook(&r, agent, &edit_call(&r, agent, "notes.txt", old, add));
        assert_allowed(agent, &out);
        // `includeIf` pulls a file in the same way.
        r.git(&["config", "--unset", "include.path"]);
        r.git(&["config", "includeIf.onbranch:main.path", "../notes.txt"]);
        let out = hook(&r, agent, &edit_call(&r, agent, "notes.txt", old, add));
        assert_vetoed(agent, &out, &["include.path"]);
        assert_eq!(r.read("notes.txt"), old, "{agent}");
    }
}
