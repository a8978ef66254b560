//! `git fararoni ask` through the real binary against the scripted fake
//! OpenAI-compatible server: the cascade reaches the HTTP client, tool
//! calls (structured, leaked as text, with hallucinated names) run through
//! the governed tools, refusals reach the model, and every fault ends in
//! exit 4 with nothing touched.

use serde_json::json;

use crate::common::TestRepo;
use crate::fake_llm::{refused_url, FakeLlm, Reply};

fn ask_with(repo: &TestRepo, fake_url: &str, request: &str, extra: &[&str]) -> crate::common::Out {
    let mut cmd = repo.cmd("git-fararoni");
    cmd.arg("ask").args(extra).arg(request);
    cmd.env("FARARONI_LLM_BASE_URL", fake_url)
        .env("FARARONI_LLM_MODEL", "tiny")
        .env("FARARONI_LLM_TOOL_MODE", "native")
        .env("FARARONI_LLM_MAX_RETRIES", "0")
        .env("FARARONI_LLM_CONNECT_TIMEOUT", "2")
        .env("FARARONI_LLM_CALL_TIMEOUT", "30");
    cmd.output().expect("run ask").into()
}

fn repo() -> TestRepo {
    let r = TestRepo::with_commit();
    r.write("src/app.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    r.git(&["add", "."]);
    r.git(&["commit", "-qm", "app"]);
    r
}

#[test]
fn test_ask_model_reads_a_file_through_a_hallucinated_tool_name_and_answers() {
    let r = repo();
    let fake = FakeLlm::start(vec![
        Reply::tool_call("ReadFile", json!({"file_path": "src/app.rs"})),
        Reply::text("The program prints hi."),
    ]);
    let out = ask_with(
        &r,
        &fake.base_url(),
        "explain what the program in src does",
        &[],
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("The program prints hi."), "{out}");
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    // Read before answering: the first step must call a tool, later ones
    // may answer.
    assert_eq!(reqs[0]["tool_choice"], json!("required"), "{}", reqs[0]);
    assert!(reqs[1].get("tool_choice").is_none(), "{}", reqs[1]);
    // The file's content reached the model as the tool's result.
    let second = reqs[1].to_string();
    assert!(second.contains("println!"), "{second}");
    // Every request offers every tool, and ends with the directive.
    for body in &reqs {
        let tools = body["tools"].as_array().map(Vec::len).unwrap_or(0);
        assert_eq!(tools, 8, "{body}");
        let last = body["messages"].as_array().and_then(|m| m.last()).cloned();
        assert_eq!(
            last.as_ref().map(|m| m["role"].clone()),
            Some(json!("system")),
            "{body}"
        );
    }
}

#[test]
fn test_ask_model_a_call_leaked_as_text_runs_once_and_a_push_is_refused() {
    let r = repo();
    let bare = tempfile::tempdir().expect("tempdir");
    let origin = bare.path().join("origin.git");
    r.git(&["init", "-q", "--bare", origin.to_str().expect("utf-8")]);
    r.git(&["remote", "add", "origin", origin.to_str().expect("utf-8")]);
    let fake = FakeLlm::start(vec![
        Reply::leaked_call("Bash", json!({"command": "git push origin main"})),
        Reply::text("I could not push."),
    ]);
    let out = ask_with(
        &r,
        &fake.base_url(),
        "publish my work to the team please",
        &[],
    );
    assert_eq!(out.code, 0, "{out}");
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    let result = reqs[1].to_string();
    assert!(result.to_lowercase().contains("remote"), "{result}");
    // Nothing reached the remote.
    let refs = std::process::Command::new("git")
        .args(["--git-dir", origin.to_str().expect("utf-8"), "for-each-ref"])
        .output()
        .expect("git");
    assert!(
        refs.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&refs.stdout)
    );
}

#[test]
fn test_ask_model_constrained_mode_forces_a_call_first_then_allows_an_answer() {
    let r = repo();
    let fake = FakeLlm::start(vec![
        Reply::text(r#"{"name": "fs_read", "arguments": {"path": "src/app.rs"}}"#),
        Reply::text(r#"{"answer": "It prints hi."}"#),
    ]);
    let mut cmd = r.cmd("git-fararoni");
    cmd.args(["ask", "explain what the program in src does"])
        .env("FARARONI_LLM_BASE_URL", fake.base_url())
        .env("FARARONI_LLM_MODEL", "tiny")
        .env("FARARONI_LLM_TOOL_MODE", "constrained")
        .env("FARARONI_LLM_MAX_RETRIES", "0");
    let out: crate::common::Out = cmd.output().expect("run").into();
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("It prints hi."), "{out}");
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    let branches = |body: &serde_json::Value| {
        body["response_format"]["json_schema"]["schema"]["anyOf"]
            .as_array()
            .map(|a| a.iter().any(|b| b["properties"].get("answer").is_some()))
    };
    assert_eq!(branches(&reqs[0]), Some(false), "{}", reqs[0]);
    assert_eq!(branches(&reqs[1]), Some(true), "{}", reqs[1]);
    assert!(reqs[1].to_string().contains("println!"), "{}", reqs[1]);
}

/// Environment variables a case adds.
type Env = &'static [(&'static str, &'static str)];

#[test]
fn test_ask_model_faults_exit_4_and_touch_nothing() {
    let r = repo();
    r.write("src/app.rs", "fn main() {}\n// uncommitted work\n");
    let before = r.snapshot();
    // Every fault the issue names: server down, wrong model name, a 5xx,
    // malformed JSON, a stream cut in the middle, an enormous reply, a
    // first token that never comes, a hang-up.
    let faults: Vec<(&str, Option<Reply>, Env)> = vec![
        ("server down", None, &[]),
        (
            "wrong model",
            Some(Reply::Status(404, "model 'tiny' not found".into())),
            &[],
        ),
        ("5xx", Some(Reply::Status(500, "boom".into())), &[]),
        (
            "not json",
            Some(Reply::Malformed),
            &[("FARARONI_LLM_STREAM", "false")],
        ),
        (
            "cut stream",
            Some(Reply::CutStream("I will now".into())),
            &[],
        ),
        (
            "enormous",
            Some(Reply::Huge(64 << 10)),
            &[("FARARONI_LLM_MAX_RESPONSE_BYTES", "4k")],
        ),
        (
            "no first token",
            Some(Reply::Slow(
                std::time::Duration::from_secs(4),
                Box::new(Reply::text("late")),
            )),
            &[("FARARONI_LLM_FIRST_TOKEN_TIMEOUT", "1")],
        ),
        ("hang-up", Some(Reply::Hangup), &[]),
    ];
    for (name, reply, env) in faults {
        // One fault for every level of the cascade (3, 4, 5).
        let fake = reply.map(|rep| FakeLlm::start(vec![rep.clone(), rep.clone(), rep]));
        let url = fake.as_ref().map_or_else(refused_url, FakeLlm::base_url);
        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["ask", "refactor the parser into modules"])
            .env("FARARONI_LLM_BASE_URL", &url)
            .env("FARARONI_LLM_MODEL", "tiny")
            .env("FARARONI_LLM_TOOL_MODE", "native")
            .env("FARARONI_LLM_MAX_RETRIES", "0")
            .env("FARARONI_LLM_CONNECT_TIMEOUT", "2")
            .env("FARARONI_LLM_CALL_TIMEOUT", "30");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out: crate::common::Out = cmd.output().expect("run ask").into();
        assert_eq!(out.code, 4, "{name}: {out}");
        let host = url
            .trim_start_matches("http://")
            .trim_end_matches("/v1")
            .to_string();
        assert!(
            out.stderr.contains(&host),
            "{name}: the endpoint is named: {out}"
        );
        assert!(out.stderr.contains("hint:"), "{name}: {out}");
        assert!(!out.stderr.contains("panicked"), "{name}: {out}");
        assert_eq!(r.snapshot(), before, "{name}: nothing touched");
    }
}

#[test]
fn test_ask_model_the_servers_context_window_bounds_the_conversation() {
    let r = repo();
    let big: String = (1..=300)
        .map(|i| format!("line {i} of the notes\n"))
        .collect();
    r.write("notes.txt", &big);
    let script = || {
        vec![
            Reply::tool_call("fs_read", json!({"path": "notes.txt"})),
            Reply::tool_call(
                "fs_patch",
                json!({"path": "notes.txt", "search": "absent", "replace": "x"}),
            ),
            Reply::text("Nothing to change."),
        ]
    };
    // The third request holds both results; the first (~1,600 tokens)
    // fits an 8k window but not the 2k the server reports.
    for (props, replaced) in [
        (None, false),
        (
            Some(json!({"default_generation_settings": {"n_ctx": 2048}})),
            true,
        ),
    ] {
        let mut fake = FakeLlm::start(script());
        if let Some(p) = props {
            fake = fake.with_props(p);
        }
        let out = ask_with(&r, &fake.base_url(), "tidy the notes", &[]);
        assert_eq!(out.code, 0, "{out}");
        let reqs = fake.requests();
        assert_eq!(reqs.len(), 3, "{reqs:?}");
        let first_result = reqs[2]["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["role"] == "tool"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            first_result.starts_with("[earlier tool result of"),
            replaced,
            "{first_result:.200}"
        );
        if !replaced {
            assert!(
                first_result.contains("line 300 of the notes"),
                "{first_result:.200}"
            );
        }
    }
    assert_eq!(r.read("notes.txt"), big);
}
