//! `git fararoni doctor` against real repositories and real (tiny) servers.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;

use crate::common::TestRepo;

fn doctor_json(r: &TestRepo) -> (i32, serde_json::Value) {
    let out = r.run(&["doctor", "--json"]);
    let v = serde_json::from_str(&out.stdout).unwrap_or_else(|_| panic!("json: {out}"));
    (out.code, v)
}

fn find<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no `{name}` in {v}"))
}

/// A one-shot OpenAI-compatible server answering `GET /v1/models`.
fn serve_models(body: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{addr}/v1")
}

#[test]
fn test_doctor_says_a_dead_endpoint_is_unreachable_and_exits_1() {
    let r = TestRepo::with_commit();
    // A port nothing listens on: bound, then released.
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    r.git(&[
        "config",
        "fararoni.llm.baseUrl",
        &format!("http://127.0.0.1:{port}/v1"),
    ]);
    r.git(&["config", "fararoni.llm.model", "coder"]);
    let (code, v) = doctor_json(&r);
    assert_eq!(code, 1, "{v}");
    let llm = find(&v, "model llm");
    assert_eq!(llm["level"], "error", "{llm}");
    assert!(
        llm["detail"]
            .as_str()
            .is_some_and(|d| d.contains("not reachable")),
        "{llm}"
    );
    assert!(llm["fix"].is_string(), "{llm}");
    let out = r.run(&["doctor"]);
    assert!(out.stdout.contains("ERROR model llm"), "{out}");
}

#[test]
fn test_doctor_finds_the_model_on_a_live_server_or_says_it_is_missing() {
    let r = TestRepo::with_commit();
    r.git(&[
        "config",
        "fararoni.chat.baseUrl",
        &serve_models(r#"{"data":[{"id":"coder:latest"}]}"#),
    ]);
    r.git(&["config", "fararoni.chat.model", "coder"]);
    let (code, v) = doctor_json(&r);
    assert_eq!(find(&v, "model chat")["level"], "ok", "{v}");
    assert_eq!(code, 0, "{v}");
    r.git(&[
        "config",
        "fararoni.chat.baseUrl",
        &serve_models(r#"{"data":[{"id":"other"}]}"#),
    ]);
    let (code, v) = doctor_json(&r);
    let chat = find(&v, "model chat");
    assert_eq!(chat["level"], "error", "{chat}");
    assert!(
        chat["detail"]
            .as_str()
            .is_some_and(|d| d.contains("does not serve `coder`")),
        "{chat}"
    );
    assert_eq!(code, 1);
}

#[test]
fn test_doctor_reports_hooks_store_and_an_active_saga_with_what_to_do() {
    let r = TestRepo::with_commit();
    let (_, v) = doctor_json(&r);
    assert_eq!(find(&v, "hook pre-commit")["level"], "warn");
    assert_eq!(
        find(&v, "hook pre-commit")["fix"],
        "git fararoni hooks install"
    );
    assert_eq!(find(&v, "saga")["detail"], "none active");
    r.run(&["hooks", "install"]);
    r.run(&["saga", "start"]);
    std::fs::write(r.home().join("new.md"), "# demo\nmore\n").expect("write");
    let from = r.home().join("new.md");
    let out = r.run(&[
        "guard",
        "write",
        "README.md",
        "--from",
        from.to_str().expect("utf8"),
    ]);
    assert_eq!(out.code, 0, "{out}");
    let (_, v) = doctor_json(&r);
    let store = find(&v, "shadow store");
    assert!(
        store["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("1 version(s) of 1 file(s)")),
        "{store}"
    );
    assert_eq!(find(&v, "hook pre-commit")["level"], "ok", "{v}");
    let saga = find(&v, "saga");
    assert_eq!(saga["level"], "info", "{saga}");
    assert!(
        saga["fix"]
            .as_str()
            .is_some_and(|f| f.contains("saga finish")),
        "{saga}"
    );
    assert_eq!(find(&v, "git")["level"], "ok");
    // A misspelt key is pointed out with the key it was probably meant as.
    r.git(&["config", "fararoni.shadow.maxVersion", "80"]);
    let (_, v) = doctor_json(&r);
    let s = find(&v, "settings");
    assert_eq!(s["level"], "warn", "{s}");
    assert!(
        s["fix"]
            .as_str()
            .is_some_and(|f| f.contains("fararoni.shadow.maxVersions")),
        "{s}"
    );
}
