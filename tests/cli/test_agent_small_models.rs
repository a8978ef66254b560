//! What small local models need from level 3, end to end through the real
//! binary and the scripted fake server, in each tool mode (native calls,
//! calls printed as text, constrained JSON): secrets never reach a model
//! on another machine by any path, commands read only inside the working
//! tree, a call printed twice runs once, several calls of one reply all
//! run, text that only shows a call runs nothing, and the seed's GitAction
//! shape commits. Every check is on what the server received and on the
//! repository.

use serde_json::{json, Value};

use crate::common::{Out, TestRepo};
use crate::fake_llm::{FakeLlm, Reply};

const MODES: &[&str] = &["native", "prompted", "constrained"];

/// One call in the form `mode` makes the model send it.
fn call(mode: &str, name: &str, args: Value) -> Reply {
    match mode {
        "native" => Reply::tool_call(name, args),
        "prompted" => Reply::leaked_call(name, args),
        _ => Reply::text(json!({"name": name, "parameters": args}).to_string()),
    }
}

/// The final answer in the form `mode` expects.
fn answer(mode: &str, text: &str) -> Reply {
    match mode {
        "constrained" => Reply::text(json!({"answer": text}).to_string()),
        _ => Reply::text(text),
    }
}

fn ask(repo: &TestRepo, fake: &FakeLlm, mode: &str, request: &str) -> Out {
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["ask", request])
        .env("FARARONI_LLM_BASE_URL", fake.base_url())
        .env("FARARONI_LLM_MODEL", "tiny")
        .env("FARARONI_LLM_TOOL_MODE", mode)
        .env("FARARONI_LLM_MAX_RETRIES", "0")
        .env("FARARONI_LLM_CONNECT_TIMEOUT", "2")
        .env("FARARONI_LLM_CALL_TIMEOUT", "30");
    cmd.output().expect("run ask").into()
}

/// The tool results of the level-3 request that held the most (a later
/// level starts a new conversation).
fn tool_results(fake: &FakeLlm) -> Vec<String> {
    fake.requests()
        .iter()
        .filter_map(|r| r["messages"].as_array().cloned())
        .max_by_key(Vec::len)
        .unwrap_or_default()
        .iter()
        .filter_map(|m| {
            let content = m["content"].as_str().unwrap_or("");
            // Prompted mode replays results as user messages.
            if m["role"] == "tool" {
                Some(content.to_string())
            } else if m["role"] == "user" && content.starts_with("[result of ") {
                Some(content.split_once('\n').map_or("", |(_, r)| r).to_string())
            } else {
                None
            }
        })
        .collect()
}

const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const STRIPE: &str = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const PG_PASSWORD: &str = "s3cr3tPassw0rd";
const PGPASS: &str = "Tr0ub4dor3xyz";
const HOME_AWS: &str = "Zx9fQ2mV7pL4sT8wR1nB6yH3cK5jD0gAqW2eR4tY";

fn secret_repo() -> TestRepo {
    let repo = TestRepo::with_commit();
    repo.write(
        ".env",
        &format!("AWS_SECRET_ACCESS_KEY={AWS_SECRET}\nSTRIPE_KEY={STRIPE}\nDATABASE_URL=postgres://app:{PG_PASSWORD}@db.internal:5432/app\n"),
    );
    // An ordinary source file holding a key, committed with it in the
    // message too, so git history and diffs carry it.
    repo.write(
        "src/settings.py",
        &format!("REGION = \"eu-west-1\"\nAWS_KEY = \"{AWS_SECRET}\"\nPAYMENTS = \"{STRIPE}\"\n"),
    );
    repo.write(
        "config.bak",
        &format!("db=postgres://app:{PG_PASSWORD}@db/app\n"),
    );
    repo.git(&["add", "src/settings.py", "config.bak"]);
    repo.git(&["commit", "-qm", &format!("settings (key {STRIPE})")]);
    repo.git(&["add", "-f", ".env"]);
    std::fs::write(
        repo.home().join(".pgpass"),
        format!("db.internal:5432:app:alice:{PGPASS}\n"),
    )
    .expect("pgpass");
    std::fs::create_dir_all(repo.home().join(".aws")).expect("aws dir");
    std::fs::write(
        repo.home().join(".aws/credentials"),
        format!("[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = {HOME_AWS}\n"),
    )
    .expect("aws credentials");
    repo
}

/// Every path the model might take to a secret, as calls.
fn attempts() -> Vec<(&'static str, Value)> {
    let sh = |c: &str| ("ShellCommand", json!({"command": c}));
    // Reads last: after one, the protocol allows only changes.
    vec![
        sh("cat .env"),
        sh("cat .e*"),
        sh("rev .env"),
        sh("od -c .env"),
        sh("fold -w 5 .env"),
        sh("hexdump -C .env"),
        sh("grep -r KEY ."),
        sh("rev config.bak"),
        sh("cat src/settings.py"),
        sh("git grep --untracked KEY"),
        sh("git show :.env"),
        sh("git log -p"),
        sh("git diff --cached"),
        sh("cat ~/.pgpass"),
        sh("head ~/.aws/credentials"),
        sh("grep -r KEY ~"),
        ("GitAction", json!({"args": "show HEAD"})),
        ("GitAction", json!({"action": "log", "params": "-p -1"})),
        ("fs_read", json!({"path": ".env"})),
        ("fs_read", json!({"path": "src/settings.py"})),
    ]
}

#[test]
fn test_small_models_secrets_never_reach_a_remote_model_by_any_path() {
    for mode in MODES {
        let repo = secret_repo();
        let mut bodies: Vec<String> = Vec::new();
        let mut results: Vec<String> = Vec::new();
        // A run makes at most 12 model calls: the attempts go in runs of 8.
        for chunk in attempts().chunks(8) {
            let mut script: Vec<Reply> = chunk
                .iter()
                .map(|(name, args)| call(mode, name, args.clone()))
                .collect();
            script.push(answer(mode, "I looked."));
            let Some(fake) = FakeLlm::start_remote(script) else {
                panic!("this machine has no non-loopback address to test a remote endpoint on");
            };
            let out = ask(&repo, &fake, mode, "find where the AWS key is configured");
            let got = tool_results(&fake);
            assert_eq!(got.len(), chunk.len(), "{mode}: {got:?}\n{out}");
            results.extend(got);
            bodies.extend(fake.requests().iter().map(Value::to_string));
        }
        for secret in [
            AWS_SECRET,
            STRIPE,
            PG_PASSWORD,
            PGPASS,
            HOME_AWS,
            "K7MDENG",
            "4eC39HqLyjWD",
        ] {
            for (i, b) in bodies.iter().enumerate() {
                assert!(
                    !b.contains(secret),
                    "{mode}: `{secret}` reached the model in request {i}: {b}"
                );
            }
        }
        // `rev`/`od`/`fold` output cannot be redacted: nothing of it went.
        let reversed: String = AWS_SECRET.chars().rev().collect();
        assert!(
            bodies.iter().all(|b| !b.contains(&reversed[..12])),
            "{mode}"
        );
        let joined = results.join("\n");
        assert!(joined.contains("[REDACTED]"), "{mode}: {joined}");
        assert!(joined.contains("looks like a secret"), "{mode}: {joined}");
        assert!(
            joined.contains("outside the repository's working tree"),
            "{mode}: {joined}"
        );
        assert!(
            joined.contains("REGION = "),
            "{mode}: the rest of a file still arrives: {joined}"
        );
        let redacted: Vec<Value> = repo
            .session_events()
            .into_iter()
            .filter(|e| e["kind"] == "redacted")
            .collect();
        assert!(
            !redacted.is_empty(),
            "{mode}: the session log reports what was redacted"
        );
        assert!(
            redacted.iter().all(|e| !e.to_string().contains("K7MDENG")),
            "the report names rules, never values"
        );
    }
}

#[test]
fn test_small_models_commands_read_only_inside_the_tree_even_on_loopback() {
    for mode in MODES {
        let repo = TestRepo::with_commit();
        let outside = tempfile::tempdir().expect("outside");
        std::fs::write(outside.path().join("notes.txt"), "outside-only-text").expect("write");
        std::fs::write(repo.home().join("id_ed25519"), "PRIVATE-KEY-BODY").expect("write");
        let rel = pathdiff(outside.path(), repo.path());
        let sh = |c: String| call(mode, "ShellCommand", json!({"command": c}));
        let fake = FakeLlm::start(vec![
            sh(format!("cat {rel}/notes.txt")),
            sh("head /etc/passwd".into()),
            sh("ls -a ~".into()),
            sh("grep -r PRIVATE ~".into()),
            sh(format!(
                "git diff --no-index README.md {}/notes.txt",
                outside.path().display()
            )),
            sh("cat README.md".into()),
            answer(mode, "done"),
        ]);
        let out = ask(&repo, &fake, mode, "look around");
        let results = tool_results(&fake);
        assert_eq!(results.len(), 6, "{mode}: {results:?}\n{out}");
        for r in &results[..5] {
            assert!(
                r.contains("outside the repository's working tree"),
                "{mode}: {r}"
            );
        }
        assert!(
            results[5].contains("# demo"),
            "{mode}: inside reads still work: {}",
            results[5]
        );
        let all: String = fake.requests().iter().map(Value::to_string).collect();
        for leaked in [
            "outside-only-text",
            "root:x:0",
            "PRIVATE-KEY-BODY",
            "id_ed25519",
        ] {
            assert!(!all.contains(leaked), "{mode}: {leaked}");
        }
    }
}

/// A file of the tree read from a subfolder (`cd sub && cat ../x`) is a
/// read inside the tree and runs; the same from a subfolder that climbs
/// out (`..` past the root, a link to a folder outside) is refused.
#[test]
fn test_small_models_reads_from_a_subfolder_run_inside_and_are_refused_outside() {
    let repo = TestRepo::with_commit();
    repo.write("x.txt", "inside-text-at-the-root\n");
    repo.write("sub/y.txt", "y\n");
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("notes.txt"), "outside-only-text").expect("write");
    // The repository's parent folder holds a file the model must not see.
    let parent = repo.path().parent().expect("parent").to_path_buf();
    let planted = parent.join(format!("planted-{}.txt", std::process::id()));
    std::fs::write(&planted, "parent-only-text").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path(), repo.path().join("sub/out")).expect("symlink");
    let planted_name = planted
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_string();
    let sh = |c: String| call("native", "ShellCommand", json!({"command": c}));
    let fake = FakeLlm::start(vec![
        sh("cd sub && cat ../x.txt".into()),
        sh(format!("cd sub && cat ../../{planted_name}")),
        sh("cd sub && cat out/notes.txt".into()),
        sh(format!("cd sub && cat out/../{planted_name}")),
        sh(format!(
            "git -C sub diff --no-index y.txt ../../{planted_name}"
        )),
        answer("native", "done"),
    ]);
    let out = ask(&repo, &fake, "native", "read x from sub");
    let _ = std::fs::remove_file(&planted);
    let results = tool_results(&fake);
    assert_eq!(results.len(), 5, "{results:?}\n{out}");
    assert!(
        results[0].contains("exit code 0") && results[0].contains("inside-text-at-the-root"),
        "a read inside the tree from a subfolder runs: {}",
        results[0]
    );
    for r in &results[1..] {
        assert!(
            r.contains("outside the repository's working tree"),
            "{r}\n{out}"
        );
    }
    let all: String = fake.requests().iter().map(Value::to_string).collect();
    assert!(!all.contains("parent-only-text"), "{out}");
    assert!(!all.contains("outside-only-text"), "{out}");
}

/// `to` relative to `from` through `..`.
fn pathdiff(to: &std::path::Path, from: &std::path::Path) -> String {
    let from = from.canonicalize().expect("canonical");
    let to = to.canonicalize().expect("canonical");
    let depth = from.components().count() - 1;
    format!(
        "{}{}",
        "../".repeat(depth).trim_end_matches('/'),
        to.display()
    )
}

#[test]
fn test_small_models_a_call_printed_twice_runs_once_and_every_call_of_a_reply_runs() {
    let repo = TestRepo::with_commit();
    repo.write("count.txt", "a\n");
    repo.git(&["add", "count.txt"]);
    repo.git(&["commit", "-qm", "count"]);
    let patch = json!({"name": "fs_patch", "arguments": {"path": "count.txt", "search": "a", "replace": "aa"}});
    let twice =
        format!("I'll patch it.\n<tool_call>{patch}</tool_call>\n<tool_call>{patch}</tool_call>");
    let several = format!(
        "First the notes:\n```json\n{}\n```\nThen the second file:\n```json\n{}\n```\n",
        json!({"name": "fs_write", "arguments": {"path": "one.txt", "content": "1\n"}}),
        json!({"name": "WriteFile", "arguments": {"file_path": "two.txt", "content": "2\n"}})
    );
    let fake = FakeLlm::start(vec![
        Reply::text(twice),
        Reply::text(several),
        Reply::text("Done."),
    ]);
    let out = ask(&repo, &fake, "prompted", "double the a and write two files");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("count.txt"), "aa\n", "applied once: {out}");
    assert_eq!(repo.read("one.txt"), "1\n", "{out}");
    assert_eq!(repo.read("two.txt"), "2\n", "{out}");
    let patches = repo
        .session_events()
        .iter()
        .filter(|e| e["kind"] == "tool" && e["tool"] == "fs_patch")
        .count();
    assert_eq!(patches, 1);
    // Native: the server's duplicate still gets a result, and runs once.
    let repo = TestRepo::with_commit();
    repo.write("count.txt", "a\n");
    let args = json!({"path": "count.txt", "search": "a", "replace": "aa"});
    let fake = FakeLlm::start(vec![
        Reply::ToolCalls(vec![
            ("fs_patch".into(), args.clone()),
            ("fs_patch".into(), args),
        ]),
        Reply::text("Done."),
    ]);
    let out = ask(&repo, &fake, "native", "double the a");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(repo.read("count.txt"), "aa\n", "{out}");
    let results = tool_results(&fake);
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[1].contains("repeats call 1"), "{results:?}");
}

#[test]
fn test_small_models_text_that_only_shows_a_call_runs_nothing() {
    for shown in [
        "For example: {\"name\": \"fs_write\", \"arguments\": {\"path\": \"x.txt\", \"content\": \"x\"}}",
        "You could call `<tool_call>{\"name\": \"fs_write\", \"arguments\": {\"path\": \"x.txt\", \"content\": \"x\"}}</tool_call>` to create it.",
        "Here is an example:\n```json\n{\"name\": \"fs_write\", \"arguments\": {\"path\": \"x.txt\", \"content\": \"x\"}}\n```",
        "<think>{\"name\": \"fs_write\", \"arguments\": {\"path\": \"x.txt\", \"content\": \"x\"}}</think>Nothing to do.",
        "I won't run {\"name\": \"fs_write\", \"arguments\": {\"path\": \"x.txt\", \"content\": \"x\"}} since it exists.",
    ] {
        let repo = TestRepo::with_commit();
        let fake = FakeLlm::start(vec![
            Reply::leaked_call("fs_read", json!({"path": "README.md"})),
            Reply::text(shown),
        ]);
        let out = ask(&repo, &fake, "prompted", "how would you create x.txt?");
        assert_eq!(out.code, 0, "{out}");
        assert!(!repo.path().join("x.txt").exists(), "{shown}: {out}");
        assert_eq!(fake.requests().len(), 2, "{shown}: the reply was the answer");
    }
}

#[test]
fn test_small_models_the_seeds_git_action_shape_commits_and_unknown_tools_get_the_list() {
    for mode in MODES {
        let repo = TestRepo::with_commit();
        repo.write("fix.txt", "fixed\n");
        let fake = FakeLlm::start(vec![
            call(
                mode,
                "GitAction",
                json!({"action": "add", "params": "fix.txt"}),
            ),
            call(
                mode,
                "GitAction",
                json!({"action": "commit", "params": "-m 'fix'"}),
            ),
            call(
                mode,
                "GitAction",
                json!({"args": ["log", "--format=%s", "-1"]}),
            ),
            call(mode, "launch_rockets", json!({"target": "moon"})),
            answer(mode, "Committed."),
        ]);
        let out = ask(&repo, &fake, mode, "tidy up the work on fix.txt");
        let results = tool_results(&fake);
        assert!(results.len() >= 4, "{mode}: {results:?}\n{out}");
        assert!(!results[1].contains("no args"), "{mode}: {}", results[1]);
        assert!(results[2].contains("fix"), "{mode}: {}", results[2]);
        let log = repo.git(&["log", "--all", "--format=%s"]);
        assert!(
            log.lines().any(|l| l == "fix"),
            "{mode}: the commit happened: {log}\n{results:?}"
        );
        assert!(
            results[3].contains("launch_rockets") && results[3].contains("fs_read, fs_write"),
            "{mode}: {}",
            results[3]
        );
    }
}

#[test]
fn test_small_models_paths_break_a_named_rule_and_special_files_are_not_opened() {
    let repo = TestRepo::with_commit();
    let fifo = repo.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    let lines: String = (1..=50_000).map(|i| format!("line {i}\n")).collect();
    repo.write("big.txt", &lines);
    let long = "d/".repeat(1500) + "f.txt";
    let fake = FakeLlm::start(vec![
        Reply::tool_call("fs_read", json!({"path": "pipe"})),
        Reply::tool_call(
            "fs_read",
            json!({"path": "big.txt", "start": 49_990, "end": 49_991}),
        ),
        Reply::tool_call("fs_write", json!({"path": "~/.bashrc", "content": "x"})),
        Reply::tool_call("fs_write", json!({"path": long, "content": "x"})),
        Reply::tool_call(
            "fs_write",
            json!({"path": ".git\\hooks\\pre-commit", "content": "#!/bin/sh\n"}),
        ),
        Reply::text("done"),
    ]);
    let started = std::time::Instant::now();
    let out = ask(&repo, &fake, "native", "look at the pipe");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "a FIFO blocks nothing"
    );
    let results = tool_results(&fake);
    assert_eq!(results.len(), 5, "{results:?}\n{out}");
    assert!(results[0].contains("not a regular file"), "{}", results[0]);
    assert!(
        results[1].contains("lines 49990-49991 of 50000") && results[1].contains("line 49991\n"),
        "{}",
        results[1]
    );
    assert!(
        results[2].contains("`~` is the home folder"),
        "{}",
        results[2]
    );
    assert!(
        results[3].contains("longer than 1024 bytes"),
        "{}",
        &results[3][..200.min(results[3].len())]
    );
    assert!(results[4].contains("backslash"), "{}", results[4]);
    assert!(!repo.path().join("~").exists(), "no folder named ~");
    assert!(!repo.path().join("d").exists());
    assert!(!repo.path().join(".git\\hooks\\pre-commit").exists());
}

#[test]
fn test_small_models_constrained_mode_may_answer_after_looking_and_results_keep_their_names() {
    let repo = TestRepo::with_commit();
    let fake = FakeLlm::start(vec![
        call("constrained", "fs_list", json!({"path": "."})),
        call(
            "constrained",
            "GitAction",
            json!({"args": "log --oneline -1"}),
        ),
        answer("constrained", "It holds a README."),
    ]);
    let out = ask(&repo, &fake, "constrained", "what files are there?");
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("It holds a README."), "{out}");
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 3, "{out}");
    let has_answer = |body: &Value| {
        body["response_format"]["json_schema"]["schema"]["anyOf"]
            .as_array()
            .is_some_and(|a| a.iter().any(|b| b["properties"].get("answer").is_some()))
    };
    assert!(!has_answer(&reqs[0]), "the first step looks");
    assert!(
        has_answer(&reqs[1]) && has_answer(&reqs[2]),
        "then it may answer"
    );
    let text = reqs[2].to_string();
    assert!(text.contains("[result of fs_list]"), "{text}");
    assert!(text.contains("[result of GitAction]"), "{text}");
}

/// A model that fails after level 3 changed the repository ends the run
/// there, exit 0, naming the session to undo: not "no model answered"
/// (exit 4), and levels 4–5 are not asked a half-done request. Changes
/// made by a command (a commit in the saga) count as changes too. A
/// model that fails before changing anything is still exit 4.
#[test]
fn test_small_models_a_model_failing_after_a_patch_is_not_exit_4() {
    let patch = || {
        Reply::tool_call(
            "fs_patch",
            json!({"path": "count.txt", "search": "a", "replace": "aa"}),
        )
    };
    let commit = || Reply::tool_call("GitAction", json!({"args": "commit -am 'double a'"}));
    for (name, script, content) in [
        (
            "a patch, then the server fails",
            vec![patch(), Reply::Status(500, "boom".into())],
            "aa\n",
        ),
        (
            "a patch, then a malformed reply",
            vec![patch(), Reply::Malformed],
            "aa\n",
        ),
        (
            "a patch and a commit, then an empty reply",
            vec![patch(), commit(), Reply::text("")],
            "aa\n",
        ),
    ] {
        let repo = TestRepo::with_commit();
        repo.write("count.txt", "a\n");
        repo.git(&["add", "count.txt"]);
        repo.git(&["commit", "-qm", "count"]);
        let requests = script.len();
        let fake = FakeLlm::start(script);
        let out = ask(&repo, &fake, "native", "double the a");
        assert_eq!(out.code, 0, "{name}: {out}");
        assert_eq!(repo.read("count.txt"), content, "{name}: {out}");
        assert_eq!(
            fake.requests().len(),
            requests,
            "{name}: levels 4-5 were not asked: {out}"
        );
        assert!(out.stdout.contains("Level 3 stopped"), "{name}: {out}");
        assert!(
            out.stderr.contains("files changed: count.txt"),
            "{name}: {out}"
        );
        // The session it names undoes the change.
        let session = out
            .stdout
            .split("--session ")
            .nth(1)
            .and_then(|r| r.split('`').next())
            .or_else(|| {
                out.stderr
                    .split("undo --session ")
                    .nth(1)
                    .and_then(|r| r.split('`').next())
            })
            .expect("a session to undo")
            .to_string();
        let undo = repo.run(&["undo", "--session", &session]);
        assert_eq!(undo.code, 0, "{name}: {undo}");
        assert_eq!(repo.read("count.txt"), "a\n", "{name}: {undo}");
    }
    // Only a command changed the repository (a commit of the user's own
    // edit, in the saga), then an empty reply: the run still ends at
    // level 3, with the saga named.
    let repo = TestRepo::with_commit();
    repo.write("count.txt", "a\n");
    repo.git(&["add", "count.txt"]);
    repo.git(&["commit", "-qm", "count"]);
    repo.write("count.txt", "b\n");
    let fake = FakeLlm::start(vec![commit(), Reply::text("")]);
    let out = ask(&repo, &fake, "native", "double the a");
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(fake.requests().len(), 2, "{out}");
    assert!(out.stderr.contains("saga "), "{out}");
    let wip = repo.git(&["log", "-1", "--format=%s"]);
    assert_eq!(wip.trim(), "double a", "{out}");
    // Nothing changed, then the server fails: no model answered.
    let repo = TestRepo::with_commit();
    let fake = FakeLlm::start(vec![Reply::Status(500, "boom".into())]);
    let before = crate::common::snapshot(repo.path());
    let out = ask(&repo, &fake, "native", "double the a");
    assert_eq!(out.code, 4, "{out}");
    assert_eq!(crate::common::snapshot(repo.path()), before);
}

/// `undo --session` of an agent session that committed in its saga puts
/// the user back where they were: their branch checked out, the files as
/// before, and no saga left that names a branch that is gone.
#[test]
fn test_small_models_undo_of_a_session_that_committed_in_its_saga() {
    let repo = TestRepo::with_commit();
    repo.write("count.txt", "a\n");
    repo.git(&["add", "count.txt"]);
    repo.git(&["commit", "-qm", "count"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.write("count.txt", "b\n");
    let script = vec![
        Reply::tool_call("GitAction", json!({"args": "commit -am 'the b'"})),
        Reply::tool_call(
            "fs_patch",
            json!({"path": "count.txt", "search": "b", "replace": "bb"}),
        ),
        Reply::text("done"),
    ];
    let fake = FakeLlm::start(script);
    let out = ask(&repo, &fake, "native", "double the b");
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("saga "), "no saga was started: {out}");
    let session = format!("{}\n{}", out.stdout, out.stderr)
        .split("--session ")
        .nth(1)
        .and_then(|r| r.split(['`', ' ', '\n', ')']).next())
        .expect("a session to undo")
        .to_string();
    let undo = repo.run(&["undo", "--session", &session]);
    assert_eq!(undo.code, 0, "{undo}");
    assert_eq!(repo.read("count.txt"), "b\n", "{undo}");
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "main");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head, "{undo}");
    assert!(
        repo.git(&["branch", "--list", "fararoni/*"])
            .trim()
            .is_empty(),
        "{undo}"
    );
    let status = repo.run(&["saga", "status"]);
    assert_eq!(status.code, 0, "{status}");
    assert!(
        status.stdout.contains("no saga in progress"),
        "the undo left a saga behind:\n{status}"
    );
    // And a new saga can start: the record is gone, not half-kept.
    let again = FakeLlm::start(vec![
        Reply::tool_call("GitAction", json!({"args": "commit -am 'the b again'"})),
        Reply::text("done"),
    ]);
    let out = ask(&repo, &again, "native", "commit the b");
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.contains("saga "), "{out}");
}
