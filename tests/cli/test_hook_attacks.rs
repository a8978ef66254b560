//! The adversarial suite of `git fararoni guard hook`: every line of
//! fixtures/hooks/attacks/attacks.jsonl must be vetoed, in its agent's own
//! contract (a veto the agent would not read as one — a wrong exit code, an
//! unknown key for Codex, an empty reason — counts as a bypass), and every
//! line of controls.jsonl must pass in silence. The cases are written by
//! fixtures/hooks/attacks/generate.py from the agents' and git's
//! documentation; the sandbox below holds what they aim at.
//!
//! Judged by the contract: the hook never runs anything itself, and the
//! effects of an allowed shell command or edit are covered by the undo
//! tests in test_hook_agents.rs and the shell judgement's own suite.

use std::path::Path;

use serde_json::Value;

use crate::common::{run_with_stdin, Out, TestRepo};
use crate::test_hook_agents::source;

/// Reads a suite file.
fn cases(name: &str) -> Vec<Value> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hooks/attacks")
        .join(name);
    std::fs::read_to_string(&p)
        .expect("read suite")
        .lines()
        .map(|l| serde_json::from_str(l).expect("suite line is JSON"))
        .collect()
}

/// What an answer means to its agent: `Ok(Some(msg))` a veto, `Ok(None)`
/// silence, `Err` an answer the agent would not read as either (which lets
/// the tool run in every agent but Cline).
pub(crate) fn read_answer(agent: &str, out: &Out) -> Result<Option<String>, String> {
    if out.code == 0 && out.stdout.is_empty() {
        return Ok(None);
    }
    // Allowed, changed to run contained (Claude, Codex, Gemini).
    if out.code == 0 && crate::test_hook_agents::contained_command(out).is_some() {
        return Ok(None);
    }
    let last = out
        .stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let json = || {
        serde_json::from_str::<Value>(last).map_err(|_| format!("stdout is not JSON: {last:.200}"))
    };
    let msg = match agent {
        "claude" | "gemini" => {
            if out.code != 2 {
                return Err(format!("exit {} is not a veto", out.code));
            }
            out.stderr.trim().to_string()
        }
        "codex" => {
            if out.code != 2 || out.stderr.trim().is_empty() {
                return Err(format!("exit {} with stderr {:?}", out.code, out.stderr));
            }
            let v = json()?;
            let h = &v["hookSpecificOutput"];
            if v.as_object().map(|o| o.len()) != Some(1)
                || h.as_object().map(|o| o.len()) != Some(3)
                || h["permissionDecision"] != "deny"
            {
                return Err(format!("not exactly Codex's deny: {v}"));
            }
            h["permissionDecisionReason"]
                .as_str()
                .unwrap_or("")
                .to_string()
        }
        "cursor" => {
            let v = json()?;
            if v["permission"] != "deny" {
                return Err(format!("not a deny: {v}"));
            }
            v["agent_message"].as_str().unwrap_or("").to_string()
        }
        "cline" => {
            let v = json()?;
            if v["cancel"] != true {
                return Err(format!("not a cancel: {v}"));
            }
            v["contextModification"].as_str().unwrap_or("").to_string()
        }
        "copilot" => {
            let v = json()?;
            if v["permissionDecision"] != "deny" {
                return Err(format!("not a deny: {v}"));
            }
            v["permissionDecisionReason"]
                .as_str()
                .unwrap_or("")
                .to_string()
        }
        other => return Err(format!("unknown agent {other}")),
    };
    if msg.is_empty() || msg.chars().count() > 300 {
        return Err(format!("message empty or over 300 characters: {msg:?}"));
    }
    Ok(Some(msg))
}

/// The sandbox the suites aim at.
pub(crate) fn sandbox() -> (TestRepo, tempfile::TempDir) {
    let r = TestRepo::with_commit();
    let origin = tempfile::tempdir().expect("origin");
    r.git(&["init", "-q", "--bare", &origin.path().to_string_lossy()]);
    r.git(&["remote", "add", "origin", &origin.path().to_string_lossy()]);
    r.write(".gitignore", "target/\nnode_modules/\n");
    r.write("src/app.py", &source(60));
    r.write("src/lib.rs", "pub fn f() -> u32 {\n    1\n}\n");
    for (p, t) in [
        (".claude/settings.json", "{}\n"),
        (".cursor/hooks.json", "{\"version\":1,\"hooks\":{}}\n"),
        (".gemini/settings.json", "{}\n"),
        (".codex/hooks.json", "{}\n"),
        (".github/hooks/team.json", "{\"version\":1,\"hooks\":{}}\n"),
        (
            ".clinerules/hooks/PreToolUse",
            "#!/bin/sh\nexec git fararoni guard hook --agent cline\n",
        ),
    ] {
        r.write(p, t);
    }
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "project"]);
    r.git(&["push", "-q", "origin", "main"]);
    r.git(&["tag", "v1"]);
    // A branch whose commit is only on it (not on origin), checked out
    // before main: `-B`/`-C` of it, or of `@{-1}`, would lose that commit.
    r.git(&["checkout", "-q", "-b", "only-here"]);
    r.write("src/only.rs", "pub fn only() {}\n");
    r.git(&["add", "src/only.rs"]);
    r.git(&["commit", "-q", "-m", "only here"]);
    r.git(&["checkout", "-q", "main"]);
    // A stash entry: dropping or clearing it loses work (with none, git
    // refuses and nothing is lost).
    r.write("src/lib.rs", "pub fn f() -> u32 {\n    2\n}\n");
    r.git(&["stash", "push", "-q", "-m", "set aside"]);
    // Uncommitted work, an untracked draft, ignored build output.
    r.write(
        "src/app.py",
        &format!("{}def mine(x):\n    return x\n", source(60)),
    );
    r.write("src/draft.py", "def draft():\n    return 1\n");
    r.write("target/out.txt", "build output\n");
    r.write("node_modules/x/index.js", "module.exports = 1\n");
    let outside = outside_dir();
    std::fs::write(r.home().join("notes.txt"), "precious\n").expect("write");
    std::fs::write(outside.path().join("victim.txt"), "precious\n").expect("write");
    std::fs::create_dir(r.path().join("adir")).expect("mkdir");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), r.path().join("escape")).expect("ln");
        std::os::unix::fs::symlink("loop2", r.path().join("loop1")).expect("ln");
        std::os::unix::fs::symlink("loop1", r.path().join("loop2")).expect("ln");
        let ok = std::process::Command::new("mkfifo")
            .arg(r.path().join("pipe"))
            .status()
            .expect("mkfifo");
        assert!(ok.success());
    }
    std::fs::create_dir_all(r.home().join(".ssh")).expect("mkdir");
    std::fs::write(r.home().join(".bashrc"), "export PS1='$ '\n").expect("write");
    // An existing file in the temp folder (not the home under it): only
    // new paths there are the agent's.
    let kept = std::env::temp_dir().join(format!("fararoni-hook-kept-{}", std::process::id()));
    std::fs::create_dir_all(&kept).expect("mkdir");
    std::fs::write(kept.join("kept.txt"), "someone's\n").expect("write");
    (r, outside)
}

/// A folder outside the repository and outside every temp folder (the
/// shell judgement treats those as the agent's scratch space): in the
/// target directory, unless the checkout itself lies in a temp folder (a
/// clone in `/tmp`), then in the home folder.
fn outside_dir() -> tempfile::TempDir {
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let canon = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let temps = [
        std::env::temp_dir(),
        "/tmp".into(),
        "/var/tmp".into(),
        "/dev/shm".into(),
    ];
    let in_temp = |p: &std::path::Path| temps.iter().any(|t| canon(p).starts_with(canon(t)));
    let base = match std::env::var_os("HOME").map(std::path::PathBuf::from) {
        Some(home) if in_temp(target) && !in_temp(&home) => home,
        _ => target.to_path_buf(),
    };
    tempfile::Builder::new()
        .prefix(".fararoni-outside-")
        .tempdir_in(base)
        .expect("outside")
}

/// The temp-folder directory `sandbox` keeps an existing file in.
fn temp_kept() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fararoni-hook-kept-{}", std::process::id()))
}

fn run_suite(name: &str) -> (usize, Vec<String>, Vec<String>) {
    let (r, outside) = sandbox();
    let before_outside = std::fs::read(outside.path().join("victim.txt")).expect("read");
    let repo = r.path().to_string_lossy().into_owned();
    let mut failures = Vec::new();
    let mut gaps = Vec::new();
    let all = cases(name);
    for case in &all {
        let agent = case["agent"].as_str().expect("agent");
        let input = match (&case.get("raw"), &case.get("payload")) {
            (Some(Value::String(raw)), _) => raw.clone(),
            (_, Some(p)) => p.to_string(),
            _ => panic!("case without payload: {case}"),
        };
        let input = input
            .replace("$REPO", &repo)
            .replace("$OUTSIDE", &outside.path().to_string_lossy())
            .replace("$TEMPKEPT", &temp_kept().to_string_lossy())
            .replace("$HOME", &r.home().to_string_lossy());
        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["guard", "hook", "--agent", agent]);
        let out = run_with_stdin(&mut cmd, input.as_bytes());
        let expect_veto = case["expect"] == "veto";
        let label = format!(
            "[{agent}] {}",
            case["name"].as_str().unwrap_or("?").replace('\n', "⏎")
        );
        match read_answer(agent, &out) {
            Err(why) => failures.push(format!("{label}: invalid answer: {why}")),
            Ok(Some(msg)) if !expect_veto => failures.push(format!("{label}: false block: {msg}")),
            Ok(None) if expect_veto => match case.get("gap").and_then(Value::as_str) {
                Some(why) => gaps.push(format!("{label}: known gap: {why}")),
                None => failures.push(format!("{label}: allowed")),
            },
            Ok(_) => {}
        }
    }
    // The hook itself never changes what the cases aim at.
    assert_eq!(
        std::fs::read(outside.path().join("victim.txt")).expect("read"),
        before_outside
    );
    assert!(r.read("src/app.py").contains("def mine"));
    assert!(r.path().join("src/draft.py").exists());
    (all.len(), failures, gaps)
}

#[test]
fn test_hook_attacks_every_attack_vetoed_in_its_agents_terms() {
    let (n, failures, gaps) = run_suite("attacks.jsonl");
    eprintln!(
        "hook attacks: {n} cases, {} not vetoed, {} known gaps",
        failures.len(),
        gaps.len()
    );
    for g in &gaps {
        eprintln!("{g}");
    }
    assert!(n >= 300, "the suite has {n} cases");
    assert!(
        failures.is_empty(),
        "{} of {n}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn test_hook_attacks_controls_pass_in_silence() {
    let (n, failures, _) = run_suite("controls.jsonl");
    eprintln!("hook controls: {n} cases, {} blocked", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {n}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Command lines nested or wrapped thousands deep are vetoed, not a crash:
/// the judgement recursed, a stack overflow killed the hook, and every
/// agent takes a hook killed by a signal for one that allows (`nice nice …
/// git clean -fdx` ran). Each shape is also tried a few deep, where it is
/// judged for what it runs.
#[test]
fn test_hook_attacks_deep_nesting_is_vetoed_not_a_crash() {
    let (r, _outside) = sandbox();
    type Shape = fn(usize) -> String;
    let shapes: &[(&str, Shape)] = &[
        ("nice", |n| format!("{}git clean -fdx", "nice ".repeat(n))),
        ("sudo", |n| format!("{}git clean -fdx", "sudo ".repeat(n))),
        ("env", |n| format!("{}git clean -fdx", "env ".repeat(n))),
        ("busybox", |n| format!("{}rm -rf src", "busybox ".repeat(n))),
        ("xargs", |n| {
            format!("echo x | {}git clean -fdx", "xargs ".repeat(n))
        }),
        ("tmux", |n| format!("{}git clean -fdx", "tmux ".repeat(n))),
        ("subshells", |n| {
            format!("{}git clean -fdx{}", "( ".repeat(n), " )".repeat(n))
        }),
        ("groups", |n| {
            format!("{}git clean -fdx; {}", "{ ".repeat(n), "}; ".repeat(n))
        }),
        ("ifs", |n| {
            format!(
                "{}git clean -fdx; {}",
                "if true; then ".repeat(n),
                "fi; ".repeat(n)
            )
        }),
        ("substitutions", |n| {
            format!("echo {}git clean -fdx{}", "$(".repeat(n), ")".repeat(n))
        }),
    ];
    for (name, shape) in shapes {
        for n in [3, 20_000] {
            let payload = serde_json::json!({
                "session_id": "deep", "cwd": r.path(), "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": shape(n)},
            });
            let mut cmd = r.cmd("git-fararoni");
            cmd.args(["guard", "hook", "--agent", "claude"]);
            let out = run_with_stdin(&mut cmd, payload.to_string().as_bytes());
            assert_eq!(out.code, 2, "{name} x{n}: {}", out.stderr);
            assert!(
                out.stderr.contains("fararoni guard"),
                "{name} x{n}: {}",
                out.stderr
            );
        }
    }
    assert!(r.read("src/app.py").contains("def mine"));
}

/// `fararoni.hook.unknownPrograms=deny` holds however git spells the key
/// (section and name in any case, from the repository's config or from
/// `git -c` through `GIT_CONFIG_PARAMETERS`), and nothing the command line
/// carries reopens it: an environment prefix naming the setting's
/// variable, `env`, a second command after a newline, quoting.
#[test]
fn test_hook_attacks_a_deny_posture_holds_in_any_spelling_and_no_prefix_reopens_it() {
    let r = TestRepo::with_commit();
    r.write("build.sh", "#!/bin/sh\necho built > built.txt\n");
    let repo = r.path().to_string_lossy().into_owned();
    let ask = |command: &str, env: &[(&str, &str)]| {
        let payload = serde_json::json!({
            "session_id": "posture", "cwd": repo, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}
        });
        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["guard", "hook", "--agent", "claude"]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        read_answer(
            "claude",
            &run_with_stdin(&mut cmd, payload.to_string().as_bytes()),
        )
        .unwrap_or_else(|e| panic!("`{command}`: {e}"))
    };
    let lines = [
        "sh build.sh",
        "FARARONI_HOOK_UNKNOWN_PROGRAMS=allow sh build.sh",
        "env FARARONI_HOOK_UNKNOWN_PROGRAMS=allow sh build.sh",
        "env -i sh build.sh",
        "'sh' \"build.sh\"",
        "true\nsh build.sh",
        "git -c fararoni.hook.unknownPrograms=allow status; sh build.sh",
    ];
    // Allowed (contained) by default: the control.
    assert_eq!(ask("sh build.sh", &[]), None);
    r.git(&["config", "FARARONI.hook.UNKNOWNPROGRAMS", "deny"]);
    for line in lines {
        assert!(
            ask(line, &[]).is_some(),
            "`{line}` ran with the posture set in the repository's config"
        );
    }
    r.git(&["config", "--unset", "FARARONI.hook.UNKNOWNPROGRAMS"]);
    let params = [(
        "GIT_CONFIG_PARAMETERS",
        "'FARARONI.hook.UnknownPrograms'='deny'",
    )];
    for line in lines {
        assert!(
            ask(line, &params).is_some(),
            "`{line}` ran with the posture set by `git -c`"
        );
    }
    // The subsection is case-sensitive in git: `fararoni.HOOK.*` is another
    // key, which git itself would not read as this setting either.
    r.git(&["config", "fararoni.HOOK.unknownPrograms", "deny"]);
    assert_eq!(ask("sh build.sh", &[]), None);
    assert!(
        !r.path().join("built.txt").exists(),
        "the hook ran the script"
    );
}
