//! `git fararoni guard hook --agent NAME` and `hooks install`: each agent's
//! real payload shapes (fixtures/hooks/<agent>/) through the real binary in
//! temporary repositories, judged in that agent's own contract and by
//! effects on disk.

use std::path::Path;

use serde_json::{json, Value};

use crate::common::{bin, run_with_stdin, Out, TestRepo};

/// Every agent, by its `--agent` name.
pub const AGENTS: [&str; 6] = ["claude", "gemini", "codex", "cursor", "cline", "copilot"];

/// Loads `fixtures/hooks/<agent>/<name>.json`.
pub fn fixture(agent: &str, name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hooks")
        .join(agent)
        .join(format!("{name}.json"));
    serde_json::from_slice(&std::fs::read(&p).expect("read fixture")).expect("fixture is JSON")
}

fn set(v: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let target = if parent.is_empty() {
        v
    } else {
        v.pointer_mut(parent).expect("parent exists")
    };
    match target {
        Value::Object(m) => {
            m.insert(key.to_string(), value);
        }
        Value::Array(a) => {
            let i: usize = key.parse().expect("index");
            a[i] = value;
        }
        Value::String(s) => {
            // Copilot may send its arguments JSON-encoded.
            let mut inner: Value = serde_json::from_str(s).expect("encoded object");
            inner[key] = value;
            *s = inner.to_string();
        }
        _ => panic!("cannot set {pointer}"),
    }
}

/// Where an agent's working directory and tool arguments are.
struct Shape {
    cwd: &'static [&'static str],
    args: &'static str,
    path: &'static str,
    content: &'static str,
    old: &'static str,
    new: &'static str,
    command: &'static str,
    relative: bool,
}

fn shape(agent: &str, kind: &str) -> Shape {
    let cc = |args| Shape {
        cwd: &["/cwd"],
        args,
        path: "file_path",
        content: "content",
        old: "old_string",
        new: "new_string",
        command: "command",
        relative: false,
    };
    match agent {
        "claude" | "gemini" | "codex" => cc("/tool_input"),
        "cursor" if kind == "bash" => Shape {
            cwd: &["/workspace_roots/0", "/cwd"],
            args: "",
            ..cc("")
        },
        "cursor" => Shape {
            cwd: &["/workspace_roots/0"],
            ..cc("/tool_input")
        },
        "cline" => Shape {
            cwd: &["/workspaceRoots/0"],
            args: "/preToolUse/parameters",
            path: "path",
            content: "content",
            old: "",
            new: "",
            command: "command",
            relative: true,
        },
        "copilot" => Shape {
            cwd: &["/cwd"],
            args: "/toolArgs",
            path: "path",
            content: "file_text",
            old: "old_str",
            new: "new_str",
            command: "command",
            relative: false,
        },
        other => panic!("unknown agent {other}"),
    }
}

/// A payload of `agent` for the tool of `kind` (`write`, `edit`, `bash`),
/// set up for `repo`.
pub fn payload(repo: &TestRepo, agent: &str, kind: &str) -> Value {
    let mut v = fixture(agent, kind);
    let s = shape(agent, kind);
    for p in s.cwd {
        set(&mut v, p, json!(repo.path().to_string_lossy()));
    }
    v
}

/// Sets the file of a write or edit payload (`rel` inside the repository,
/// or an absolute path).
pub fn with_path(repo: &TestRepo, agent: &str, kind: &str, v: &mut Value, rel: &str) {
    let s = shape(agent, kind);
    let p = if s.relative || rel.starts_with('/') {
        rel.to_string()
    } else {
        repo.path().join(rel).to_string_lossy().into_owned()
    };
    set(v, &format!("{}/{}", s.args, s.path), json!(p));
}

/// Codex writes and edits through `apply_patch`.
fn codex_patch(repo: &TestRepo, body: String) -> Value {
    let mut v = fixture("codex", "apply_patch");
    set(&mut v, "/cwd", json!(repo.path().to_string_lossy()));
    v["tool_input"]["command"] = json!(format!("*** Begin Patch\n{body}*** End Patch\n"));
    v
}

fn plus(text: &str, sign: char) -> String {
    text.trim_end_matches('\n')
        .split('\n')
        .map(|l| format!("{sign}{l}\n"))
        .collect()
}

/// A write payload.
pub fn write_call(repo: &TestRepo, agent: &str, rel: &str, content: &str) -> Value {
    if agent == "codex" {
        return codex_patch(repo, format!("*** Add File: {rel}\n{}", plus(content, '+')));
    }
    let mut v = payload(repo, agent, "write");
    with_path(repo, agent, "write", &mut v, rel);
    let s = shape(agent, "write");
    set(&mut v, &format!("{}/{}", s.args, s.content), json!(content));
    v
}

/// An edit payload replacing `old` by `new`.
pub fn edit_call(repo: &TestRepo, agent: &str, rel: &str, old: &str, new: &str) -> Value {
    if agent == "codex" {
        return codex_patch(
            repo,
            format!(
                "*** Update File: {rel}\n@@\n{}{}",
                plus(old, '-'),
                plus(new, '+')
            ),
        );
    }
    let mut v = payload(repo, agent, "edit");
    with_path(repo, agent, "edit", &mut v, rel);
    let s = shape(agent, "edit");
    if agent == "cline" {
        set(
            &mut v,
            &format!("{}/diff", s.args),
            json!(format!(
                "------- SEARCH\n{old}\n=======\n{new}\n+++++++ REPLACE\n"
            )),
        );
    } else {
        set(&mut v, &format!("{}/{}", s.args, s.old), json!(old));
        set(&mut v, &format!("{}/{}", s.args, s.new), json!(new));
    }
    v
}

/// A shell payload.
pub fn shell_call(repo: &TestRepo, agent: &str, command: &str) -> Value {
    let mut v = payload(repo, agent, "bash");
    let s = shape(agent, "bash");
    set(&mut v, &format!("{}/{}", s.args, s.command), json!(command));
    v
}

/// Runs the hook of `agent` on raw bytes.
pub fn hook_raw(repo: &TestRepo, agent: &str, input: &[u8], env: &[(&str, &str)]) -> Out {
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "hook", "--agent", agent]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_with_stdin(&mut cmd, input)
}

/// Runs the hook of `agent` on a payload.
pub fn hook(repo: &TestRepo, agent: &str, v: &Value) -> Out {
    hook_raw(repo, agent, v.to_string().as_bytes(), &[])
}

/// Returns the command an allowing answer replaced the call's with (the
/// call run contained), if it did.
pub fn contained_command(out: &Out) -> Option<String> {
    let v: Value = serde_json::from_str(out.stdout.trim()).ok()?;
    let h = v.get("hookSpecificOutput")?;
    if h.get("permissionDecision").is_some_and(|d| d != "allow") {
        return None;
    }
    let input = h.get("updatedInput").or_else(|| h.get("tool_input"))?;
    input.get("command")?.as_str().map(str::to_string)
}

/// Returns the message the model reads when `out` is a veto in `agent`'s
/// contract, `None` when it lets the call proceed; panics on an answer the
/// agent would not read as either (so a test never passes on a broken one).
pub fn veto_message(agent: &str, out: &Out) -> Option<String> {
    let json_out = || -> Value {
        let last = out
            .stdout
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        serde_json::from_str(last).unwrap_or_else(|_| panic!("{agent}: stdout is not JSON:\n{out}"))
    };
    if out.code == 0 && out.stdout.is_empty() {
        return None;
    }
    if out.code == 0 && contained_command(out).is_some() {
        return None;
    }
    let msg = match agent {
        "gemini" => {
            assert_eq!(out.code, 2, "{agent}: a veto is exit 2:\n{out}");
            assert!(
                out.stdout.is_empty(),
                "gemini reads JSON on stdout first:\n{out}"
            );
            out.stderr.trim().to_string()
        }
        // Claude Code shows the model the deny's reason alone (with stderr
        // alone, the whole hook command too); Codex needs stderr as well.
        "claude" | "codex" => {
            assert_eq!(out.code, 2, "{agent}: exit 2:\n{out}");
            assert!(
                !out.stderr.trim().is_empty(),
                "{agent}: exit 2 needs stderr:\n{out}"
            );
            let v = json_out();
            let obj = v.as_object().expect("object");
            assert_eq!(obj.len(), 1, "codex rejects unknown keys: {v}");
            assert!(
                out.stderr.contains(
                    v.pointer("/hookSpecificOutput/permissionDecisionReason")
                        .and_then(Value::as_str)
                        .unwrap_or("(none)")
                ),
                "{agent}: stderr and the reason agree:\n{out}"
            );
            let h = v["hookSpecificOutput"]
                .as_object()
                .expect("hookSpecificOutput");
            let mut keys: Vec<&str> = h.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason"
                ],
                "codex rejects unknown keys: {v}"
            );
            assert_eq!(h["permissionDecision"], "deny");
            h["permissionDecisionReason"]
                .as_str()
                .expect("reason")
                .to_string()
        }
        "cursor" => {
            let v = json_out();
            assert_eq!(v["permission"], "deny", "{out}");
            v["agent_message"]
                .as_str()
                .expect("agent_message")
                .to_string()
        }
        "cline" => {
            let v = json_out();
            assert_eq!(v["cancel"], true, "{out}");
            v["contextModification"]
                .as_str()
                .expect("contextModification")
                .to_string()
        }
        "copilot" => {
            let v = json_out();
            assert_eq!(v["permissionDecision"], "deny", "{out}");
            assert!(v.get("hookSpecificOutput").is_none());
            v["permissionDecisionReason"]
                .as_str()
                .expect("reason")
                .to_string()
        }
        other => panic!("unknown agent {other}"),
    };
    assert!(!msg.is_empty(), "{agent}: empty veto message:\n{out}");
    assert!(
        msg.chars().count() <= 300,
        "{agent}: message over 300 chars: {msg}"
    );
    // Every veto sends the model to the user, but one it can mend itself
    // (a function to write first), which says how.
    assert!(
        msg.contains("ask the user") || msg.ends_with("then make this change."),
        "{agent}: {msg}"
    );
    Some(msg)
}

/// Asserts `out` is silence (allow).
pub fn assert_allowed(agent: &str, out: &Out) {
    assert!(
        veto_message(agent, out).is_none(),
        "{agent}: expected silence, got:\n{out}"
    );
    assert!(
        out.stderr.is_empty(),
        "{agent}: allow must be silent:\n{out}"
    );
}

/// Asserts `out` is a veto whose message contains every one of `words`.
pub fn assert_vetoed(agent: &str, out: &Out, words: &[&str]) -> String {
    let msg =
        veto_message(agent, out).unwrap_or_else(|| panic!("{agent}: expected a veto, got silence"));
    for w in words {
        assert!(msg.contains(w), "{agent}: `{w}` not in: {msg}");
    }
    msg
}

/// Asserts two snapshots are equal outside `.git`, naming the files that differ.
pub fn assert_same_files(
    a: &std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>,
    b: &std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>,
    what: &str,
) {
    let keep = |m: &std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>| {
        m.iter()
            .filter(|(k, _)| !k.starts_with(".git"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let (a, b) = (keep(a), keep(b));
    let differ: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            format!(
                "{}:\n--- {:?}\n+++ {:?}",
                k.display(),
                a.get(k).map(|v| String::from_utf8_lossy(v).into_owned()),
                b.get(k).map(|v| String::from_utf8_lossy(v).into_owned())
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: files differ:\n{}",
        differ.join("\n")
    );
}

/// A repository with a committed 60-line Python file `src/app.py`.
pub fn repo_with_source() -> TestRepo {
    let r = TestRepo::with_commit();
    r.write("src/app.py", &source(60));
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "app"]);
    r
}

/// A Python file of `n` small functions.
pub fn source(n: usize) -> String {
    (0..n)
        .map(|i| format!("def f{i}(x):\n    return x * {i} + {}\n\n", i * 7))
        .collect()
}

#[test]
fn test_hook_agents_gutted_write_vetoed_for_every_agent() {
    let r = repo_with_source();
    let before = r.read("src/app.py");
    for agent in AGENTS {
        let out = hook(
            &r,
            agent,
            &write_call(&r, agent, "src/app.py", "def f0(x):\n    pass\n"),
        );
        assert_vetoed(agent, &out, &["kill-switch", "src/app.py"]);
        assert_eq!(r.read("src/app.py"), before);
    }
}

#[test]
fn test_hook_agents_placeholder_edit_vetoed_for_every_agent() {
    let r = repo_with_source();
    let old = "def f1(x):\n    return x * 1 + 7\n\ndef f2(x):\n    return x * 2 + 14\n\ndef f3(x):\n    return x * 3 + 21\n";
    for agent in AGENTS {
        let out = hook(
            &r,
            agent,
            &edit_call(
                &r,
                agent,
                "src/app.py",
                old,
                "# ... rest of the code unchanged ...",
            ),
        );
        assert_vetoed(agent, &out, &["kill-switch"]);
    }
}

#[test]
fn test_hook_agents_ordinary_edit_and_write_allowed_for_every_agent() {
    let r = repo_with_source();
    for agent in AGENTS {
        let out = hook(
            &r,
            agent,
            &edit_call(
                &r,
                agent,
                "src/app.py",
                "return x * 5 + 35",
                "return x * 5 + 36",
            ),
        );
        assert_allowed(agent, &out);
        // A new file passes; the hook itself never writes.
        let out = hook(
            &r,
            agent,
            &write_call(&r, agent, "src/new.py", "print(1)\n"),
        );
        assert_allowed(agent, &out);
        assert!(!r.path().join("src/new.py").exists());
    }
}

#[test]
fn test_hook_agents_edit_the_agent_would_refuse_passes_untouched() {
    let r = repo_with_source();
    for agent in AGENTS {
        // Absent text: every agent refuses the edit itself (Cline after its
        // trimmed and anchored searches), so there is nothing to judge.
        let out = hook(
            &r,
            agent,
            &edit_call(&r, agent, "src/app.py", "not in the file", "x"),
        );
        assert_allowed(agent, &out);
    }
    // Repeated text without replace_all: Claude refuses it.
    r.write("src/dup.py", &"same line\n".repeat(20));
    let out = hook(
        &r,
        "claude",
        &edit_call(&r, "claude", "src/dup.py", "same line\n", ""),
    );
    assert_allowed("claude", &out);
    // With replace_all it empties the file: vetoed.
    let mut v = edit_call(&r, "claude", "src/dup.py", "same line\n", "");
    v["tool_input"]["replace_all"] = json!(true);
    assert_vetoed("claude", &hook(&r, "claude", &v), &["kill-switch"]);
}

#[test]
fn test_hook_agents_multiedit_rebuilt_in_order() {
    let r = repo_with_source();
    let mut v = payload(&r, "claude", "multiedit");
    with_path(&r, "claude", "multiedit", &mut v, "src/app.py");
    // Each edit alone is small; together they replace most functions.
    let edits: Vec<Value> = (0..50)
        .map(|i| {
            json!({"old_string": format!("def f{i}(x):\n    return x * {i} + {}\n", i * 7),
                   "new_string": "", "replace_all": false})
        })
        .collect();
    v["tool_input"]["edits"] = json!(edits);
    assert_vetoed("claude", &hook(&r, "claude", &v), &["kill-switch"]);
    v["tool_input"]["edits"] = json!(&edits[..2]);
    assert_allowed("claude", &hook(&r, "claude", &v));
}

#[test]
fn test_hook_agents_codex_apply_patch_several_files() {
    let r = repo_with_source();
    r.write("src/util.py", &source(30));
    r.write("notes.txt", "scratch\n");
    let mut v = payload(&r, "codex", "apply_patch");
    let patch = "*** Begin Patch\n*** Update File: src/app.py\n@@ def f3(x):\n-    return x * 3 + 21\n+    return x * 3 + 22\n*** Update File: src/util.py\n*** Move to: src/helpers.py\n@@\n def f1(x):\n-    return x * 1 + 7\n+    return x + 7\n*** Add File: src/extra.py\n+print('extra')\n*** Delete File: notes.txt\n*** End Patch\n";
    v["tool_input"]["command"] = json!(patch);
    assert_allowed("codex", &hook(&r, "codex", &v));
    // One of the files gutted: the whole patch is vetoed, naming it.
    let gut = "*** Begin Patch\n*** Add File: src/extra.py\n+print('extra')\n*** Add File: src/util.py\n+# ... existing code ...\n*** End Patch\n";
    v["tool_input"]["command"] = json!(gut);
    assert_vetoed("codex", &hook(&r, "codex", &v), &["src/util.py"]);
    // A move onto an existing file that would be lost.
    let clobber = "*** Begin Patch\n*** Update File: notes.txt\n*** Move to: src/app.py\n@@\n-scratch\n+scratch 2\n*** End Patch\n";
    v["tool_input"]["command"] = json!(clobber);
    assert_vetoed("codex", &hook(&r, "codex", &v), &["src/app.py"]);
    // Into the git dir.
    let gitdir =
        "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch\n";
    v["tool_input"]["command"] = json!(gitdir);
    assert_vetoed("codex", &hook(&r, "codex", &v), &[".git"]);
    // A hunk Codex cannot place: Codex refuses the patch itself.
    let stale = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-this line is not there\n+x\n*** End Patch\n";
    v["tool_input"]["command"] = json!(stale);
    assert_allowed("codex", &hook(&r, "codex", &v));
    // A patch that cannot be read is a veto.
    v["tool_input"]["command"] = json!("*** Begin Patch\n*** Replace File: x\n*** End Patch\n");
    assert_vetoed("codex", &hook(&r, "codex", &v), &["FARARONI_GUARD=off"]);
}

#[test]
fn test_hook_agents_cursor_delete_allowed_into_git_dir_vetoed() {
    let r = repo_with_source();
    let mut v = payload(&r, "cursor", "delete");
    with_path(&r, "cursor", "delete", &mut v, "src/app.py");
    assert_allowed("cursor", &hook(&r, "cursor", &v));
    with_path(&r, "cursor", "delete", &mut v, ".git/HEAD");
    assert_vetoed("cursor", &hook(&r, "cursor", &v), &[".git"]);
}

#[test]
fn test_hook_agents_fail_closed_in_every_agent_format() {
    let r = repo_with_source();
    std::fs::create_dir(r.path().join("adir")).expect("mkdir");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop2", r.path().join("loop1")).expect("ln");
        std::os::unix::fs::symlink("loop1", r.path().join("loop2")).expect("ln");
        let fifo = r.path().join("pipe");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(ok.success());
    }
    for agent in AGENTS {
        let good = write_call(&r, agent, "src/app.py", &source(60));
        let text = good.to_string();
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("not JSON", b"this is not json".to_vec()),
            ("truncated", text.as_bytes()[..text.len() / 2].to_vec()),
            ("empty", Vec::new()),
            ("array", b"[1,2,3]".to_vec()),
            ("trailing garbage", format!("{text} {{").into_bytes()),
        ];
        for (what, bytes) in cases {
            let out = hook_raw(&r, agent, &bytes, &[]);
            assert_vetoed(agent, &out, &["FARARONI_GUARD=off"]);
            let _ = what;
        }
        // Wrong types.
        let mut v = good.clone();
        let s = shape(agent, "write");
        let key = if agent == "codex" {
            "command"
        } else {
            s.content
        };
        set(&mut v, &format!("{}/{}", s.args, key), json!(42));
        assert_vetoed(agent, &hook(&r, agent, &v), &["FARARONI_GUARD=off"]);
        let mut v = good.clone();
        set(&mut v, s.cwd[0], json!(["not", "a", "path"]));
        assert_vetoed(agent, &hook(&r, agent, &v), &["FARARONI_GUARD=off"]);
        // Unreadable targets.
        for target in ["adir", "loop1", "pipe"] {
            let v = write_call(&r, agent, target, "x\n");
            assert_vetoed(agent, &hook(&r, agent, &v), &["FARARONI_GUARD=off"]);
        }
    }
    // Unknown tools where the hook is registered by matcher.
    for agent in ["claude", "gemini", "codex", "cursor"] {
        let mut v = write_call(&r, agent, "src/app.py", "x");
        let ptr = if agent == "cursor" || agent != "cline" {
            "/tool_name"
        } else {
            ""
        };
        set(&mut v, ptr, json!("FrobnicateFiles"));
        assert_vetoed(
            agent,
            &hook(&r, agent, &v),
            &["FrobnicateFiles", "FARARONI_GUARD=off"],
        );
    }
}

#[test]
fn test_hook_agents_huge_payload_vetoed_without_reading_it_all() {
    let r = repo_with_source();
    let big = format!(
        "{{\"session_id\":\"s\",\"cwd\":\"{}\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{{\"file_path\":\"x\",\"content\":\"{}\"}}}}",
        r.path().display(),
        "a".repeat(50 * 1024 * 1024)
    );
    for agent in ["claude", "copilot"] {
        let out = hook_raw(&r, agent, big.as_bytes(), &[]);
        assert_vetoed(agent, &out, &["larger than", "FARARONI_GUARD=off"]);
    }
}

#[test]
fn test_hook_agents_bypass_only_from_the_hook_environment() {
    let r = repo_with_source();
    for agent in AGENTS {
        let v = write_call(&r, agent, "src/app.py", "gone\n");
        let out = hook_raw(
            &r,
            agent,
            v.to_string().as_bytes(),
            &[("FARARONI_GUARD", "off")],
        );
        assert_allowed(agent, &out);
        let out = hook_raw(&r, agent, b"garbage", &[("FARARONI_GUARD", "off")]);
        assert_allowed(agent, &out);
        let out = hook_raw(
            &r,
            agent,
            v.to_string().as_bytes(),
            &[("FARARONI_GUARD", "on")],
        );
        assert!(veto_message(agent, &out).is_some());
    }
}

#[test]
fn test_hook_agents_protected_places() {
    let r = repo_with_source();
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("victim.txt"), "precious\n").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path(), r.path().join("escape")).expect("ln");
    r.git(&["config", "core.hooksPath", "githooks"]);
    std::fs::create_dir(r.path().join("githooks")).expect("mkdir");
    let cases = [
        (".git/config", "git dir"),
        (".GIT/hooks/pre-commit", "git dir"),
        ("sub/.git", "git dir"),
        (".fararoni/journal.jsonl", "store"),
        ("githooks/pre-commit", "hooks folder"),
        (".claude/settings.json", "Claude Code"),
        (".claude/settings.local.json", "Claude Code"),
        (".gemini/settings.json", "Gemini"),
        (".codex/hooks.json", "Codex"),
        (".cursor/hooks.json", "Cursor"),
        (".clinerules/hooks/PreToolUse", "Cline"),
        (".github/hooks/x.json", "Copilot"),
        ("escape/victim.txt", "outside"),
    ];
    for agent in AGENTS {
        for (rel, word) in cases {
            let out = hook(&r, agent, &write_call(&r, agent, rel, "x = 1\n"));
            assert_vetoed(agent, &out, &[word]);
        }
        let abs = outside
            .path()
            .join("victim.txt")
            .to_string_lossy()
            .into_owned();
        if agent != "cline" {
            let out = hook(&r, agent, &write_call(&r, agent, &abs, "x\n"));
            assert_vetoed(agent, &out, &["outside"]);
        }
        let out = hook(
            &r,
            agent,
            &write_call(&r, agent, "../../../../etc/passwd", "x\n"),
        );
        assert_vetoed(agent, &out, &["outside"]);
    }
    // A new file under the temp dir is scratch space.
    let scratch = std::env::temp_dir().join(format!("fararoni-hook-{}.txt", std::process::id()));
    let out = hook(
        &r,
        "claude",
        &write_call(&r, "claude", &scratch.to_string_lossy(), "x\n"),
    );
    assert_allowed("claude", &out);
    assert_eq!(
        std::fs::read_to_string(outside.path().join("victim.txt")).expect("read"),
        "precious\n"
    );
}

#[test]
fn test_hook_agents_gitdir_file_layout_is_refused() {
    // A linked worktree: `.git` is a `gitdir:` file; the real git dir is elsewhere.
    let r = repo_with_source();
    let wt = tempfile::tempdir().expect("tempdir");
    let wt_path = wt.path().join("linked");
    r.git(&[
        "worktree",
        "add",
        "-q",
        &wt_path.to_string_lossy(),
        "-b",
        "side",
    ]);
    let common = r.path().join(".git");
    for agent in ["claude", "codex", "copilot"] {
        let mut v = write_call(&r, agent, &common.join("config").to_string_lossy(), "x\n");
        set(
            &mut v,
            shape(agent, "write").cwd[0],
            json!(wt_path.to_string_lossy()),
        );
        assert_vetoed(agent, &hook(&r, agent, &v), &[]);
        let mut v = write_call(&r, agent, &wt_path.join(".git").to_string_lossy(), "x\n");
        set(
            &mut v,
            shape(agent, "write").cwd[0],
            json!(wt_path.to_string_lossy()),
        );
        assert_vetoed(agent, &hook(&r, agent, &v), &[".git"]);
    }
}

#[test]
fn test_hook_agents_outside_any_repository() {
    let r = TestRepo::empty_dir();
    r.write("notes.py", &source(40));
    for agent in ["claude", "gemini", "copilot"] {
        // New files and ordinary edits pass: no repository is no reason to refuse.
        assert_allowed(
            agent,
            &hook(&r, agent, &write_call(&r, agent, "fresh.py", "print(1)\n")),
        );
        let out = hook(
            &r,
            agent,
            &edit_call(
                &r,
                agent,
                "notes.py",
                "return x * 4 + 28",
                "return x * 4 + 29",
            ),
        );
        assert_allowed(agent, &out);
        // A gutting is still vetoed.
        let out = hook(&r, agent, &write_call(&r, agent, "notes.py", "pass\n"));
        assert_vetoed(agent, &out, &["kill-switch"]);
    }
    // The allowed edits were backed up in the per-user store.
    let store = r.home().join(".local/state/git-fararoni/shadow");
    let journal = std::fs::read_to_string(store.join("journal.jsonl")).expect("journal");
    assert!(journal.contains("notes.py"), "{journal}");
    let obj = store.join("objects").join(sha256(&source(40)));
    assert_eq!(std::fs::read_to_string(obj).expect("object"), source(40));
}

fn sha256(text: &str) -> String {
    git_fararoni::shadow::sha256_hex(text.as_bytes())
}

#[test]
fn test_hook_agents_session_log_records_each_decision() {
    let r = repo_with_source();
    hook(
        &r,
        "claude",
        &write_call(&r, "claude", "src/app.py", "gone\n"),
    );
    hook(
        &r,
        "claude",
        &edit_call(
            &r,
            "claude",
            "src/app.py",
            "return x * 5 + 35",
            "return x * 5 + 36",
        ),
    );
    let logs = r.session_logs();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert_eq!(logs[0].0, "claude-abc123");
    let lines = r.session_events();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["kind"], "hook");
    assert_eq!(lines[0]["verdict"], "veto");
    assert_eq!(lines[0]["tool"], "Write");
    assert!(lines[0]["time"].as_str().is_some_and(|t| t.ends_with('Z')));
    assert_eq!(lines[1]["verdict"], "allow");
    // A planted session id never names a path.
    let mut v = edit_call(
        &r,
        "claude",
        "src/app.py",
        "return x * 6 + 42",
        "return x * 6 + 43",
    );
    v["session_id"] = json!("../../../../tmp/evil");
    hook(&r, "claude", &v);
    let names: Vec<String> = r.session_logs().into_iter().map(|(n, _)| n).collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("claude-") && !n.contains("..")),
        "{names:?}"
    );
}

/// Existing settings files of each agent, with the user's own hooks.
fn existing_settings(r: &TestRepo) {
    r.write(
        ".claude/settings.json",
        "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"./mine.sh\" }]\n      }\n    ]\n  },\n  \"model\": \"opus\"\n}\n",
    );
    r.write(
        ".gemini/settings.json",
        "{\n    // the user's comment\n    \"theme\": \"GitHub\",\n    \"hooks\": {}\n}\n",
    );
    r.write(
        ".codex/hooks.json",
        "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"notify\"}]}]}}",
    );
    r.write(
        ".cursor/hooks.json",
        "{\n\t\"version\": 1,\n\t\"hooks\": {\n\t\t\"stop\": [\n\t\t\t{ \"command\": \"./stop.sh\" }\n\t\t]\n\t}\n}\n",
    );
    r.write(".clinerules/hooks/TaskStart", "#!/bin/sh\necho start\n");
    r.write(
        ".github/hooks/team.json",
        "{\"version\":1,\"hooks\":{\"sessionStart\":[]}}\n",
    );
}

#[test]
fn test_hook_agents_install_uninstall_byte_identical_for_every_agent() {
    let r = repo_with_source();
    existing_settings(&r);
    let before = r.snapshot();
    let out = r.run(&["hooks", "install", "--agent", "all"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("/hooks"),
        "the Codex trust step is named: {out}"
    );
    let installed = r.snapshot();
    // Every other setting still there, byte for byte, and ours added.
    let claude = r.read(".claude/settings.json");
    assert!(claude.starts_with("{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"./mine.sh\" }]\n      },\n"), "{claude}");
    assert!(claude.ends_with("  \"model\": \"opus\"\n}\n"), "{claude}");
    let v: Value = serde_json::from_str(&claude).expect("still JSON");
    // Before a tool, the fail-closed wrapper; after, the plain command.
    let pre = v["hooks"]["PreToolUse"][1]["hooks"][0]["command"]
        .as_str()
        .expect("command");
    assert!(
        pre.starts_with("sh -c 'v(){")
            && pre.contains("git-fararoni guard hook --agent claude")
            && pre.ends_with('\''),
        "{pre}"
    );
    assert_eq!(
        v["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "git fararoni guard hook --agent claude"
    );
    assert_eq!(
        v["hooks"]["PreToolUse"][1]["matcher"],
        "Bash|PowerShell|Write|Edit|MultiEdit"
    );
    assert!(r
        .read(".gemini/settings.json")
        .contains("// the user's comment"));
    let codex: Value = serde_json::from_str(&r.read(".codex/hooks.json")).expect("json");
    assert_eq!(codex["hooks"]["Stop"][0]["hooks"][0]["command"], "notify");
    assert!(codex["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .is_some_and(|c| c.starts_with("sh -c '") && c.contains("--agent codex")));
    assert_eq!(
        codex["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "git fararoni guard hook --agent codex"
    );
    let cursor = r.read(".cursor/hooks.json");
    assert!(cursor.contains("\n\t\t\"beforeShellExecution\": [\n\t\t\t{\n\t\t\t\t\"command\": \"git fararoni guard hook --agent cursor\""), "{cursor}");
    assert_eq!(
        r.read(".clinerules/hooks/TaskStart"),
        "#!/bin/sh\necho start\n"
    );
    assert!(r
        .read(".clinerules/hooks/PreToolUse")
        .contains("exec git fararoni guard hook --agent cline"));
    assert_eq!(
        r.read(".github/hooks/team.json"),
        "{\"version\":1,\"hooks\":{\"sessionStart\":[]}}\n"
    );
    let copilot: Value =
        serde_json::from_str(&r.read(".github/hooks/fararoni.json")).expect("json");
    assert!(copilot["hooks"]["preToolUse"][0]["bash"]
        .as_str()
        .is_some_and(|c| c.starts_with("sh -c '") && c.contains("--agent copilot")));
    assert_eq!(
        copilot["hooks"]["postToolUse"][0]["bash"],
        "git fararoni guard hook --agent copilot"
    );
    // Idempotent.
    let out = r.run(&["hooks", "install", "--agent", "all"]);
    assert_eq!(out.code, 0, "{out}");
    assert_same_files(&r.snapshot(), &installed, "second install");
    let st = r.run(&["hooks", "status", "--json"]);
    let st: Value = serde_json::from_str(&st.stdout).expect("status json");
    let st = st["agents"].clone();
    assert!(
        st.as_array()
            .expect("list")
            .iter()
            .all(|a| a["active"] == true),
        "{st}"
    );
    // Uninstall restores every byte.
    let out = r.run(&["hooks", "uninstall", "--agent", "all"]);
    assert_eq!(out.code, 0, "{out}");
    assert_same_files(&r.snapshot(), &before, "uninstall");
    // On fresh files too: nothing is left behind.
    let r = repo_with_source();
    let before = r.snapshot();
    for agent in AGENTS {
        assert_eq!(r.run(&["hooks", "install", "--agent", agent]).code, 0);
        assert_eq!(r.run(&["hooks", "uninstall", "--agent", agent]).code, 0);
        assert_same_files(&r.snapshot(), &before, agent);
    }
    assert!(!r.path().join(".claude").exists() && !r.path().join(".clinerules").exists());
}

#[test]
fn test_hook_agents_install_refuses_what_it_cannot_merge() {
    let r = repo_with_source();
    r.write(".claude/settings.json", "{ \"hooks\": [1, 2] }\n");
    let out = r.run(&["hooks", "install", "--agent", "claude"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(r.read(".claude/settings.json"), "{ \"hooks\": [1, 2] }\n");
    r.write(".claude/settings.json", "{ not json");
    assert_eq!(r.run(&["hooks", "install", "--agent", "claude"]).code, 1);
    r.write(".clinerules/hooks/PreToolUse", "#!/bin/sh\nmy-own-check\n");
    let out = r.run(&["hooks", "install", "--agent", "cline"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        r.read(".clinerules/hooks/PreToolUse"),
        "#!/bin/sh\nmy-own-check\n"
    );
    // User scope writes under HOME only.
    let out = r.run(&["hooks", "install", "--agent", "gemini", "--scope", "user"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(r.home().join(".gemini/settings.json").exists());
    assert!(!r.path().join(".gemini").exists());
}

#[test]
fn test_hook_agents_installed_command_runs_the_guard() {
    // The command the installer writes, run the way the agent runs it.
    let r = repo_with_source();
    assert_eq!(r.run(&["hooks", "install", "--agent", "claude"]).code, 0);
    let v: Value = serde_json::from_str(&r.read(".claude/settings.json")).expect("json");
    let command = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("command")
        .to_string();
    let mut cmd = std::process::Command::new("sh");
    r.env(&mut cmd);
    cmd.args(["-c", &command]);
    let payload = write_call(&r, "claude", "src/app.py", "gone\n").to_string();
    let out = run_with_stdin(&mut cmd, payload.as_bytes());
    assert_vetoed("claude", &out, &["kill-switch"]);
    let _ = bin("git-fararoni");
}

/// Runs `command` the way the agent would after an allow.
fn run_sh(r: &TestRepo, command: &str) -> Out {
    let mut cmd = std::process::Command::new("sh");
    r.env(&mut cmd);
    cmd.args(["-c", command]);
    cmd.output().expect("sh").into()
}

/// A repository with uncommitted work: a modified tracked file, an
/// untracked file, an ignored build folder.
fn repo_with_work() -> TestRepo {
    let r = repo_with_source();
    r.write(".gitignore", "target/\n");
    r.git(&["add", ".gitignore"]);
    r.git(&["commit", "-q", "-m", "ignore"]);
    r.write(
        "src/app.py",
        &format!("{}def work(x):\n    return x\n", source(60)),
    );
    r.write("src/draft.py", "def draft():\n    return 1\n");
    r.write("target/debug/out.bin", "build output\n");
    r
}

#[test]
fn test_hook_agents_destructive_shell_vetoed_with_the_loss_named() {
    let r = repo_with_work();
    // A stash entry, for `git stash drop` to lose.
    r.write("aside.txt", "set aside\n");
    r.git(&["add", "aside.txt"]);
    r.git(&["stash", "push", "-q", "--", "aside.txt"]);
    for agent in AGENTS {
        for command in [
            "git reset --hard",
            "git checkout -- .",
            "git restore .",
            "git clean -fd",
            "git stash drop",
            "rm -rf src",
            "git push --force origin main",
            "python3 -c \"import shutil; shutil.rmtree('src')\"",
        ] {
            let out = hook(&r, agent, &shell_call(&r, agent, command));
            assert_vetoed(agent, &out, &[]);
        }
    }
    assert!(r.read("src/app.py").contains("def work"));
}

#[test]
fn test_hook_agents_ordinary_shell_allowed() {
    let r = repo_with_work();
    for agent in AGENTS {
        for command in [
            "git status && git diff",
            "rm -rf target",
            "cargo test",
            "npm test",
            "pytest -q",
            "make",
            "ls | grep py",
            "git log --oneline | head -5",
            "git commit -F - <<'EOF'\nfix: the thing\n\nrm -rf / is just text here\nEOF",
        ] {
            let out = hook(&r, agent, &shell_call(&r, agent, command));
            assert_allowed(agent, &out);
        }
    }
    assert_eq!(run_sh(&r, "rm -rf target").code, 0);
    assert!(r.path().join("src/draft.py").exists());
}

#[test]
fn test_hook_agents_heredoc_write_judged_like_an_edit() {
    let r = repo_with_work();
    for agent in AGENTS {
        let gut = "cat > src/app.py <<'EOF'\ndef f0(x):\n    pass\nEOF";
        assert_vetoed(
            agent,
            &hook(&r, agent, &shell_call(&r, agent, gut)),
            &["kill-switch"],
        );
        let fine = format!("cat > src/app.py <<'EOF'\n{}EOF", source(61));
        assert_allowed(agent, &hook(&r, agent, &shell_call(&r, agent, &fine)));
    }
}

#[test]
fn test_hook_agents_push_allowed_by_default_vetoed_when_remote_denied() {
    let r = repo_with_source();
    let origin = tempfile::tempdir().expect("tempdir");
    r.git(&["init", "-q", "--bare", &origin.path().to_string_lossy()]);
    r.git(&["remote", "add", "origin", &origin.path().to_string_lossy()]);
    for agent in AGENTS {
        assert_allowed(
            agent,
            &hook(&r, agent, &shell_call(&r, agent, "git push origin main")),
        );
    }
    r.git(&["config", "fararoni.hook.remote", "deny"]);
    for agent in AGENTS {
        assert_vetoed(
            agent,
            &hook(&r, agent, &shell_call(&r, agent, "git push origin main")),
            &[],
        );
    }
}

#[test]
fn test_hook_agents_unknown_program_allowed_and_undone() {
    let r = repo_with_work();
    r.write(
        "cleanup.sh",
        "#!/bin/sh\nrm -f src/draft.py\nprintf 'lost\\n' > src/app.py\n",
    );
    let draft = r.read("src/draft.py");
    let app = r.read("src/app.py");
    for agent in ["claude", "codex", "cline"] {
        let out = hook(&r, agent, &shell_call(&r, agent, "sh cleanup.sh"));
        assert_allowed(agent, &out);
        assert_eq!(run_sh(&r, "sh cleanup.sh").code, 0);
        assert!(!r.path().join("src/draft.py").exists());
        let mut post = fixture(agent, "post");
        for p in shape(agent, "bash").cwd {
            if post.pointer(p).is_some() {
                set(&mut post, p, json!(r.path().to_string_lossy()));
            }
        }
        assert_allowed(agent, &hook(&r, agent, &post));
        let session = match agent {
            "claude" => "claude-abc123",
            "codex" => "codex-0199a213-81c0-7800-8aa1-bbab2a035a53",
            _ => "cline-task-1767225600",
        };
        let out = r.run(&["undo", "--session", session]);
        assert_eq!(out.code, 0, "{out}");
        assert_eq!(r.read("src/draft.py"), draft);
        assert_eq!(r.read("src/app.py"), app);
    }
}

/// Sets the working directory of a post-tool fixture to the repository.
fn post_call(r: &TestRepo, agent: &str) -> Value {
    let mut post = fixture(agent, "post");
    for p in ["/cwd", "/workspace_roots/0", "/workspaceRoots/0"] {
        if post.pointer(p).is_some() {
            set(&mut post, p, json!(r.path().to_string_lossy()));
        }
    }
    post
}

/// The session the hook recorded under (the one log in the repository).
fn only_session(r: &TestRepo) -> String {
    let logs = r.session_logs();
    assert_eq!(logs.len(), 1, "{logs:?}");
    logs[0].0.clone()
}

#[test]
fn test_hook_agents_ordinary_edit_backed_up_and_undone_by_session() {
    for agent in AGENTS {
        let r = repo_with_source();
        // Uncommitted work in the file the agent edits: only the store has it.
        let work = format!("{}def mine(x):\n    return x\n", source(60));
        r.write("src/app.py", &work);
        let out = hook(
            &r,
            agent,
            &edit_call(
                &r,
                agent,
                "src/app.py",
                "return x * 5 + 35",
                "return x * 5 + 36",
            ),
        );
        assert_allowed(agent, &out);
        // The agent applies its edit and creates a file, then its after-hook runs.
        r.write(
            "src/app.py",
            &work.replace("return x * 5 + 35", "return x * 5 + 36"),
        );
        r.write("src/added.py", "print('new')\n");
        assert_allowed(agent, &hook(&r, agent, &post_call(&r, agent)));
        let session = only_session(&r);
        assert!(session.starts_with(&format!("{agent}-")), "{session}");
        let log = r.read(&format!(".git/fararoni/sessions/{session}.jsonl"));
        assert!(
            log.contains("\"kind\":\"external\"") && log.contains("src/added.py"),
            "{log}"
        );
        let out = r.run(&["undo", "--session", &session]);
        assert_eq!(out.code, 0, "{agent}: {out}");
        assert_eq!(r.read("src/app.py"), work, "{agent}");
        assert!(!r.path().join("src/added.py").exists(), "{agent}");
    }
}

#[test]
fn test_hook_agents_deleted_file_comes_back_without_an_after_hook() {
    // Cursor deletes a file the user never committed; the next call's
    // snapshot records the deletion, so undo brings it back.
    let r = repo_with_source();
    r.write("src/draft.py", "def draft():\n    return 1\n");
    let mut v = payload(&r, "cursor", "delete");
    with_path(&r, "cursor", "delete", &mut v, "src/draft.py");
    assert_allowed("cursor", &hook(&r, "cursor", &v));
    std::fs::remove_file(r.path().join("src/draft.py")).expect("agent deletes");
    let next = edit_call(
        &r,
        "cursor",
        "src/app.py",
        "return x * 5 + 35",
        "return x * 5 + 36",
    );
    assert_allowed("cursor", &hook(&r, "cursor", &next));
    let out = r.run(&["undo", "--session", "cursor-c0ffee-42"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(r.read("src/draft.py"), "def draft():\n    return 1\n");
}

#[test]
fn test_hook_agents_user_scope_judges_a_repository_by_its_own_rules() {
    // The agent runs in a folder that is no repository and edits a project.
    let home = TestRepo::empty_dir();
    let r = repo_with_source();
    let project = |rel: &str| r.path().join(rel).to_string_lossy().into_owned();
    for agent in ["claude", "gemini", "copilot"] {
        let out = hook(
            &home,
            agent,
            &write_call(&home, agent, &project(".git/config"), "x\n"),
        );
        assert_vetoed(agent, &out, &[".git"]);
        let out = hook(
            &home,
            agent,
            &write_call(&home, agent, &project(".git/hooks/pre-push"), "x\n"),
        );
        assert_vetoed(agent, &out, &[]);
        let out = hook(
            &home,
            agent,
            &write_call(&home, agent, &project("src/app.py"), "pass\n"),
        );
        assert_vetoed(agent, &out, &["kill-switch"]);
    }
    // An allowed edit is backed up in the project's own store: undo works.
    let work = format!("{}def mine(x):\n    return x\n", source(60));
    r.write("src/app.py", &work);
    let v = edit_call(
        &home,
        "claude",
        &project("src/app.py"),
        "return x * 5 + 35",
        "return x * 5 + 36",
    );
    assert_allowed("claude", &hook(&home, "claude", &v));
    r.write("src/app.py", "changed by the agent\n");
    let mut post = fixture("claude", "post");
    post["cwd"] = json!(home.path().to_string_lossy());
    post["tool_name"] = json!("Edit");
    post["tool_input"] =
        json!({"file_path": project("src/app.py"), "old_string": "a", "new_string": "b"});
    assert_allowed("claude", &hook(&home, "claude", &post));
    let mut cmd = r.cmd("git-fararoni");
    cmd.args(["undo", "--session", "claude-abc123"]);
    let out: Out = cmd.output().expect("undo").into();
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(r.read("src/app.py"), work);
}
