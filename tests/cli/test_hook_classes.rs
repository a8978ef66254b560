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
