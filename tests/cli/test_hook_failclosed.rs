//! A broken guard fails closed: the command `hooks install` writes before
//! a tool, taken from the written settings file and run the way the agents
//! run it, turns a missing binary, a panic, a signal and a hang into that
//! agent's own veto, and passes the guard's answers through unchanged; the
//! guard's watchdog answers a hang on its own; `hooks status`, `hooks
//! install` and `doctor` say when the agent will not run the hook (Codex
//! trust, Gemini folder trust, an older command that fails open).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{bin, run_with_stdin, Out, TestRepo};
use crate::test_hook_agents::{repo_with_source, shell_call, veto_message};

/// The agents whose pre-tool command is the fail-closed wrapper, with the
/// file and pointer of that command.
const WRAPPED: [(&str, &str, &str); 4] = [
    (
        "claude",
        ".claude/settings.json",
        "/hooks/PreToolUse/0/hooks/0/command",
    ),
    (
        "codex",
        ".codex/hooks.json",
        "/hooks/PreToolUse/0/hooks/0/command",
    ),
    (
        "gemini",
        ".gemini/settings.json",
        "/hooks/BeforeTool/0/hooks/0/command",
    ),
    (
        "copilot",
        ".github/hooks/fararoni.json",
        "/hooks/preToolUse/0/bash",
    ),
];

/// Installs `agent`'s hook and returns the pre-tool command as written.
fn installed_command(r: &TestRepo, agent: &str, file: &str, pointer: &str) -> String {
    let out = r.run(&["hooks", "install", "--agent", agent]);
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&r.read(file)).expect("settings are JSON");
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{agent}: no command at {pointer} in {v}"))
        .to_string()
}

/// A folder of stand-ins for `git-fararoni`.
fn shim(dir: &Path, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("mkdir");
    let p = dir.join("git-fararoni");
    std::fs::write(&p, format!("#!/bin/sh\n{body}")).expect("write shim");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    dir.to_path_buf()
}

/// Runs `command` through `shell -c` (or `-lc`, as Codex does) with `PATH`
/// and the payload on stdin.
fn run_as_agent(
    r: &TestRepo,
    shell: &[&str],
    command: &str,
    path: &str,
    env: &[(&str, &str)],
    payload: &[u8],
) -> (Out, Duration) {
    let mut cmd = Command::new(shell[0]);
    r.env(&mut cmd);
    cmd.args(&shell[1..]).arg(command).env("PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t = Instant::now();
    let out = run_with_stdin(&mut cmd, payload);
    (out, t.elapsed())
}

/// What `agent` would read from the wrapper's own veto about `what`.
fn wrapper_veto(agent: &str, what: &str) -> (i32, String, String) {
    let m = format!(
        "fararoni guard: {what}; this call was not checked. Do not retry this; ask the user."
    );
    let deny = json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": m,
    }});
    match agent {
        "claude" | "codex" => (2, format!("{deny}\n"), m),
        "gemini" => (2, String::new(), m),
        "copilot" => (
            0,
            format!(
                "{}\n",
                json!({"permissionDecision": "deny", "permissionDecisionReason": m})
            ),
            String::new(),
        ),
        other => panic!("{other}"),
    }
}

/// The shells the agents hand the command to: Claude Code `/bin/sh -c`,
/// Gemini CLI `bash -c` (Codex CLI the user's shell, as a login shell,
/// whose profile may set its own PATH: proven in the real client).
const SHELLS: [&[&str]; 2] = [&["/bin/sh", "-c"], &["bash", "-c"]];

#[test]
fn test_hook_failclosed_broken_guard_is_a_veto_in_each_agents_terms() {
    let r = repo_with_source();
    let shims = r.home().join("shims");
    let system = "/usr/local/bin:/usr/bin:/bin";
    let missing_path = system.to_string();
    let probe = Command::new("/bin/sh")
        .args(["-c", "command -v git-fararoni"])
        .env("PATH", &missing_path)
        .output()
        .expect("sh");
    assert!(
        !probe.status.success(),
        "git-fararoni is installed system-wide: the missing case cannot be made here"
    );
    let panic = shim(
        &shims.join("panic"),
        "cat >/dev/null\necho \"thread 'main' panicked at src/main.rs:1:1: simulated\" >&2\nexit 101\n",
    );
    let segv = shim(&shims.join("segv"), "cat >/dev/null\nkill -SEGV $$\n");
    let hang = shim(&shims.join("hang"), "exec sleep 60\n");
    let cases: [(&str, String, &str); 4] = [
        (
            "missing",
            missing_path.clone(),
            "git-fararoni is not on PATH",
        ),
        (
            "exit 101",
            format!("{}:{system}", panic.display()),
            "git-fararoni failed with status 101",
        ),
        (
            "SIGSEGV",
            format!("{}:{system}", segv.display()),
            "git-fararoni failed with status 139",
        ),
        (
            "hang",
            format!("{}:{system}", hang.display()),
            "git-fararoni failed with status 124",
        ),
    ];
    for (agent, file, pointer) in WRAPPED {
        let command = installed_command(&r, agent, file, pointer);
        let payload = shell_call(&r, agent, "git reset --hard").to_string();
        for shell in SHELLS {
            for (what, path, why) in &cases {
                let (out, took) = run_as_agent(
                    &r,
                    shell,
                    &command,
                    path,
                    &[("FARARONI_HOOK_TIMEOUT", "1")],
                    payload.as_bytes(),
                );
                let (code, stdout, message) = wrapper_veto(agent, why);
                let at = format!("{agent} {what} via {shell:?}");
                assert_eq!(out.code, code, "{at}:\n{out}");
                assert_eq!(out.stdout, stdout, "{at}:\n{out}");
                if message.is_empty() {
                    assert!(!out.stderr.contains("fararoni guard"), "{at}:\n{out}");
                } else {
                    assert_eq!(
                        out.stderr.lines().last(),
                        Some(message.as_str()),
                        "{at}:\n{out}"
                    );
                }
                // The agent reads it as a veto that names what broke.
                let msg = veto_message(agent, &out).unwrap_or_else(|| panic!("{at}: allowed"));
                assert!(msg.contains(why), "{at}: {msg}");
                // A hang ends at the bound (1 s, then 2 s to kill), well
                // before the agents' own 30 s.
                assert!(took < Duration::from_secs(10), "{at}: took {took:?}");
            }
        }
    }
}

#[test]
fn test_hook_failclosed_guards_answers_pass_through_unchanged() {
    let r = repo_with_source();
    r.write("src/app.py", "work in progress\n");
    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        bin("git-fararoni").parent().expect("bin dir").display()
    );
    for (agent, file, pointer) in WRAPPED {
        let command = installed_command(&r, agent, file, pointer);
        for (call, vetoed) in [("git status", false), ("git reset --hard", true)] {
            let payload = shell_call(&r, agent, call).to_string();
            // What the guard answers by itself…
            let mut direct = r.cmd("git-fararoni");
            direct
                .args(["guard", "hook", "--agent", agent])
                .env("PATH", &path);
            let direct = run_with_stdin(&mut direct, payload.as_bytes());
            // …is what the agent reads through the wrapper, byte for byte.
            for shell in SHELLS {
                let (out, _) = run_as_agent(&r, shell, &command, &path, &[], payload.as_bytes());
                let at = format!("{agent} `{call}` via {shell:?}");
                assert_eq!(out.code, direct.code, "{at}:\n{out}\ndirect:\n{direct}");
                assert_eq!(out.stdout, direct.stdout, "{at}");
                assert_eq!(out.stderr, direct.stderr, "{at}");
                assert_eq!(veto_message(agent, &out).is_some(), vetoed, "{at}:\n{out}");
            }
        }
        // The veto left the work where it was.
        assert_eq!(r.read("src/app.py"), "work in progress\n");
    }
}

/// Runs the guard with its stdin held open (a hung agent, a hung read),
/// returning what it answered and how long it took.
fn hold_stdin(r: &TestRepo, program: &[&str], env: &[(&str, &str)]) -> (Out, Duration) {
    let mut cmd = Command::new(program[0]);
    r.env(&mut cmd);
    cmd.args(&program[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t = Instant::now();
    let mut child = cmd.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"hook_event_name\":").expect("write");
    let out = child.wait_with_output().expect("wait");
    let took = t.elapsed();
    drop(stdin);
    (out.into(), took)
}

#[test]
fn test_hook_failclosed_watchdog_answers_a_hung_guard() {
    let r = repo_with_source();
    for agent in ["claude", "gemini", "codex", "cursor", "cline", "copilot"] {
        let guard = bin("git-fararoni");
        let guard = guard.to_str().expect("utf-8 path");
        let (out, took) = hold_stdin(
            &r,
            &[guard, "guard", "hook", "--agent", agent],
            &[("FARARONI_HOOK_TIMEOUT", "2")],
        );
        let msg = veto_message(agent, &out).unwrap_or_else(|| panic!("{agent}: allowed\n{out}"));
        assert!(
            msg.contains("did not answer within 1.5 s"),
            "{agent}: {msg}"
        );
        assert!(
            took >= Duration::from_millis(1400) && took < Duration::from_secs(8),
            "{agent}: {took:?}"
        );
    }
    // Through the wrapper: the guard's own veto comes before `timeout`'s.
    let (agent, file, pointer) = WRAPPED[0];
    let command = installed_command(&r, agent, file, pointer);
    let (out, took) = hold_stdin(
        &r,
        &["/bin/sh", "-c", &command],
        &[("FARARONI_HOOK_TIMEOUT", "2")],
    );
    let msg = veto_message(agent, &out).unwrap_or_else(|| panic!("allowed\n{out}"));
    assert!(msg.contains("did not answer within 1.5 s"), "{msg}");
    assert!(took < Duration::from_secs(8), "{took:?}");
}

/// The command an older `hooks install` wrote before a tool.
fn old_command(agent: &str) -> String {
    format!("git fararoni guard hook --agent {agent}")
}

#[test]
fn test_hook_failclosed_install_upgrades_the_old_fail_open_command() {
    let r = repo_with_source();
    let mine = "{\n  \"model\": \"opus\"\n}\n";
    r.write(".claude/settings.json", mine);
    let new = installed_command(
        &r,
        "claude",
        ".claude/settings.json",
        "/hooks/PreToolUse/0/hooks/0/command",
    );
    // What the older version left: the same entries, the plain command
    // before a tool, and its memory of the file it installed into.
    let text = r.read(".claude/settings.json");
    let new_json = serde_json::to_string(&new).expect("json string");
    let old_json = serde_json::to_string(&old_command("claude")).expect("json string");
    let old_text = text.replace(&new_json, &old_json);
    assert_ne!(old_text, text);
    r.write(".claude/settings.json", &old_text);
    let memory = r.path().join(".git/fararoni/agent-hooks/claude.json");
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(&memory).expect("memory")).expect("json");
    m["installed"] = json!(old_text);
    std::fs::write(&memory, m.to_string()).expect("write memory");

    // Status says it fails open, and what to run.
    let st = r.run(&["hooks", "status", "--agent", "claude"]);
    assert_eq!(st.code, 0, "{st}");
    assert!(st.stdout.contains("fails open"), "{st}");
    assert!(
        st.stdout
            .contains("git fararoni hooks install --agent claude"),
        "{st}"
    );
    let st = r.run(&["hooks", "status", "--agent", "claude", "--json"]);
    let v: Value = serde_json::from_str(&st.stdout).expect("json");
    assert_eq!(v[0]["fails_open"], true, "{v}");
    assert_eq!(v[0]["outdated"], json!(["hooks.PreToolUse"]), "{v}");
    let doctor = r.run(&["doctor", "--json"]);
    let d: Value = serde_json::from_str(&doctor.stdout).expect("doctor json");
    assert!(
        d["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .any(|c| c["name"] == "agent claude"
                && c["level"] == "warn"
                && c["detail"].as_str().unwrap_or("").contains("fails open")),
        "{d}"
    );

    // Installing again replaces it in place, nothing else.
    let out = r.run(&["hooks", "install", "--agent", "claude"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(r.read(".claude/settings.json"), text);
    let v: Value = serde_json::from_str(
        &r.run(&["hooks", "status", "--agent", "claude", "--json"])
            .stdout,
    )
    .expect("json");
    assert_eq!(v[0]["fails_open"], false, "{v}");
    // And uninstalling restores the user's file, not the old install.
    assert_eq!(r.run(&["hooks", "uninstall", "--agent", "claude"]).code, 0);
    assert_eq!(r.read(".claude/settings.json"), mine);

    // Without a usable memory (the file was edited since): the entries are
    // still replaced, and uninstall removes them one by one.
    r.write(".claude/settings.json", &old_text);
    let _ = std::fs::remove_file(&memory);
    assert_eq!(r.run(&["hooks", "install", "--agent", "claude"]).code, 0);
    assert_eq!(r.read(".claude/settings.json"), text);
    assert_eq!(r.run(&["hooks", "uninstall", "--agent", "claude"]).code, 0);
    assert_eq!(r.read(".claude/settings.json"), mine);
}

/// Codex's hash of a handler, computed here from its definition: sha256 of
/// the canonical JSON of the hook's identity.
fn codex_hash(event: &str, matcher: &str, command: &str) -> String {
    use sha2::Digest as _;
    // serde_json's map is sorted: this is the canonical form.
    let identity = json!({
        "event_name": event,
        "hooks": [{"type": "command", "command": command, "timeout": 30, "async": false}],
        "matcher": matcher,
    });
    let digest = sha2::Sha256::digest(identity.to_string().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

const CODEX_MATCHER: &str = "Bash|shell|local_shell|exec_command|unified_exec|apply_patch";

fn status_json(r: &TestRepo, agent: &str) -> Value {
    let out = r.run(&["hooks", "status", "--agent", agent, "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("json");
    v[0].clone()
}

fn findings(v: &Value) -> String {
    v["findings"].to_string()
}

#[test]
fn test_hook_failclosed_codex_trust_is_checked_and_named() {
    let r = repo_with_source();
    let out = r.run(&["hooks", "install", "--agent", "codex"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("until you trust") && out.stderr.contains("/hooks"),
        "{out}"
    );
    let v = status_json(&r, "codex");
    assert_eq!(v["will_run"], false, "{v}");
    let f = findings(&v);
    assert!(f.contains("Trust all and continue"), "{f}");
    assert!(f.contains("--dangerously-bypass-hook-trust"), "{f}");
    assert!(f.contains("does not trust this project"), "{f}");

    // Trusted the way Codex's "Trust all" writes it: project and both hooks.
    let top = r.path().canonicalize().expect("canonical");
    let file = top.join(".codex/hooks.json");
    let hooks: Value = serde_json::from_str(&r.read(".codex/hooks.json")).expect("json");
    let pre = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("pre");
    let post = hooks["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("post");
    let config = |pre_hash: &str| {
        format!(
            "[projects.\"{top}\"]\ntrust_level = \"trusted\"\n\n[hooks.state.\"{f}:pre_tool_use:0:0\"]\ntrusted_hash = \"{pre_hash}\"\n\n[hooks.state.\"{f}:post_tool_use:0:0\"]\ntrusted_hash = \"{post_hash}\"\n",
            top = top.display(),
            f = file.display(),
            post_hash = codex_hash("post_tool_use", CODEX_MATCHER, post),
        )
    };
    let codex_home = r.home().join(".codex");
    std::fs::create_dir_all(&codex_home).expect("mkdir");
    std::fs::write(
        codex_home.join("config.toml"),
        config(&codex_hash("pre_tool_use", CODEX_MATCHER, pre)),
    )
    .expect("write");
    let v = status_json(&r, "codex");
    assert_eq!(v["will_run"], true, "{v}");
    assert!(findings(&v).contains("Codex trusts the guard hook"), "{v}");

    // A user who trusted the old command, after the upgrade: modified,
    // and `hooks install` says to trust it again.
    std::fs::write(
        codex_home.join("config.toml"),
        config(&codex_hash(
            "pre_tool_use",
            CODEX_MATCHER,
            &old_command("codex"),
        )),
    )
    .expect("write");
    let v = status_json(&r, "codex");
    assert_eq!(v["will_run"], false, "{v}");
    assert!(findings(&v).contains("changed since it was trusted"), "{v}");
    let out = r.run(&["hooks", "install", "--agent", "codex"]);
    assert!(out.stderr.contains("re-trust"), "{out}");
    let doctor = r.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("agent codex") && doctor.stdout.contains("re-trust"),
        "{doctor}"
    );
    // CODEX_HOME is where Codex looks first.
    let elsewhere = r.home().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let out = r
        .cmd("git-fararoni")
        .args(["hooks", "status", "--agent", "codex", "--json"])
        .env("CODEX_HOME", &elsewhere)
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(
        v[0]["findings"].to_string().contains("until you trust"),
        "{v}"
    );
}

#[test]
fn test_hook_failclosed_gemini_folder_trust_and_copilot_note() {
    let r = repo_with_source();
    assert_eq!(r.run(&["hooks", "install", "--agent", "gemini"]).code, 0);
    assert_eq!(r.run(&["hooks", "install", "--agent", "copilot"]).code, 0);
    let status = |env: &[(&str, &str)]| -> Value {
        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["hooks", "status", "--agent", "all", "--json"])
            .env(
                "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                r.home().join("none.json"),
            );
        for k in [
            "GEMINI_CLI_TRUST_WORKSPACE",
            "GEMINI_RESTRICTED_MODE",
            "GEMINI_CLI_HOME",
            "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
            "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS",
            "COPILOT_ALLOW_ALL",
        ] {
            cmd.env_remove(k);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out: Out = cmd.output().expect("run").into();
        assert_eq!(out.code, 0, "{out}");
        let v: Value = serde_json::from_str(&out.stdout).expect("json");
        let by = |name: &str| {
            v.as_array()
                .expect("list")
                .iter()
                .find(|a| a["agent"] == name)
                .cloned()
                .expect("agent")
        };
        json!({"gemini": by("gemini"), "copilot": by("copilot")})
    };
    let v = status(&[]);
    let g = &v["gemini"];
    assert_eq!(g["will_run"], false, "{g}");
    let f = findings(g);
    assert!(f.contains("GEMINI_CLI_TRUST_WORKSPACE=true"), "{f}");
    assert!(f.contains("--skip-trust"), "{f}");
    let c = findings(&v["copilot"]);
    assert!(
        c.contains("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true"),
        "{c}"
    );
    // The trust dialog's answer, written where Gemini reads it.
    let top = r.path().canonicalize().expect("canonical");
    std::fs::create_dir_all(r.home().join(".gemini")).expect("mkdir");
    let rules = r.home().join(".gemini/trustedFolders.json");
    std::fs::write(
        &rules,
        json!({ top.display().to_string(): "TRUST_FOLDER" }).to_string(),
    )
    .expect("write");
    let v = status(&[]);
    assert_eq!(v["gemini"]["will_run"], true, "{v}");
    // A longer rule distrusting a folder inside wins there, not here.
    std::fs::write(
        &rules,
        json!({
            top.display().to_string(): "TRUST_FOLDER",
            top.parent().expect("parent").display().to_string(): "DO_NOT_TRUST",
        })
        .to_string(),
    )
    .expect("write");
    assert_eq!(status(&[])["gemini"]["will_run"], true);
    std::fs::write(
        &rules,
        json!({ top.display().to_string(): "DO_NOT_TRUST" }).to_string(),
    )
    .expect("write");
    let v = status(&[]);
    assert!(findings(&v["gemini"]).contains("DO_NOT_TRUST"), "{v}");
    let v = status(&[("GEMINI_CLI_TRUST_WORKSPACE", "true")]);
    assert_eq!(v["gemini"]["will_run"], true, "{v}");
    let v = status(&[("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")]);
    let c = findings(&v["copilot"]);
    assert!(c.contains("is set") && c.contains("\"ok\""), "{c}");
}
