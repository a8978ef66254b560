//! End-to-end tests of `git fararoni ask` against real temporary
//! repositories: what runs, what is blocked, and what is left untouched.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::TcpListener;

use crate::common::{Out, TestRepo};

fn assert_code(out: &Out, code: i32) {
    assert_eq!(out.code, code, "unexpected exit code:\n{out}");
    assert!(!out.stderr.contains("panicked"), "panic:\n{out}");
}

#[test]
fn test_ask_commit_with_quoted_messages_in_every_quote_style() {
    let repo = TestRepo::with_commit();
    let cases = [
        (
            "commit everything with message \"fix parser\"",
            "fix parser",
        ),
        ("commit with message 'single quoted'", "single quoted"),
        (
            "haz commit con el mensaje «corrige el login»",
            "corrige el login",
        ),
        (
            "do the commit with the message “curly quotes”",
            "curly quotes",
        ),
        (
            "Commit everything with the message: update dependencies",
            "update dependencies",
        ),
        (
            "commit everything with message \"fix && git push\"",
            "fix && git push",
        ),
    ];
    for (i, (request, subject)) in cases.iter().enumerate() {
        repo.write(&format!("f{i}.txt"), "x\n");
        let out = repo.ask(request);
        assert_code(&out, 0);
        assert_eq!(repo.log()[0], *subject, "{request}");
    }
    // The message with `&& git push` was data: nothing was pushed (there is
    // no remote) and the commit exists with that exact subject.
    assert!(repo.git(&["remote"]).is_empty());
}

#[test]
fn test_ask_commit_generates_messages_from_staged_files() {
    let repo = TestRepo::with_commit();
    repo.write("pom.xml", "<version>17</version>\n");
    assert_code(&repo.ask("do the commit"), 0);
    assert_eq!(repo.log()[0], "Update pom.xml");
    repo.write("pom.xml", "<version>25</version>\n");
    assert_code(&repo.ask("do the commit"), 0);
    assert_eq!(repo.log()[0], "Update pom.xml");
    for f in ["a.rs", "b.rs", "c.rs"] {
        repo.write(f, "fn main() {}\n");
    }
    assert_code(&repo.ask("haz el commit"), 0);
    assert_eq!(repo.log()[0], "Update 3 files: a.rs, b.rs, c.rs");
}

#[test]
fn test_ask_commit_in_spanish_and_with_typos() {
    let repo = TestRepo::with_commit();
    for (i, request) in [
        "guarda los cambios en git",
        "has el commit",
        "hazme un commit porfa",
        "commitea todo",
        "do teh commit",
    ]
    .iter()
    .enumerate()
    {
        repo.write(&format!("es{i}.txt"), "hola\n");
        let out = repo.ask(request);
        assert_code(&out, 0);
        assert_eq!(repo.log()[0], format!("Update es{i}.txt"), "{request}");
    }
}

#[test]
fn test_ask_nothing_to_commit_creates_no_commit() {
    let repo = TestRepo::with_commit();
    let before = repo.git(&["rev-parse", "HEAD"]);
    let out = repo.ask("do the commit");
    assert_code(&out, 0);
    assert!(out.stderr.contains("nothing to commit"), "{out}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), before);
}

#[test]
fn test_ask_init_and_commit_in_an_empty_directory() {
    let dir = TestRepo::empty_dir();
    dir.write("src/main.rs", "fn main() {}\n");
    dir.write(".fararoni/shadow/src/main.rs.v1.20260101-000000", "old\n");
    let out = dir.ask("inicializa el repo y haz commit");
    assert_code(&out, 0);
    assert!(dir.path().join(".git").is_dir());
    assert_eq!(dir.read(".gitignore"), ".fararoni/\n");
    let files = dir.git(&["ls-files"]);
    assert!(
        files.contains("src/main.rs") && files.contains(".gitignore"),
        "{files}"
    );
    assert!(!files.contains(".fararoni"), "{files}");
    assert_eq!(dir.log(), ["Update 2 files: .gitignore, src/main.rs"]);
}

#[test]
fn test_ask_init_commit_keeps_an_existing_gitignore_and_repo() {
    let repo = TestRepo::with_commit();
    repo.write(".gitignore", "target/\n");
    let out = repo.ask("do the git init and commit");
    assert_code(&out, 0);
    assert!(out.stderr.contains("skipping `git init`"), "{out}");
    assert_eq!(repo.read(".gitignore"), "target/\n");
    assert_eq!(repo.log().len(), 2);
}

#[test]
fn test_ask_never_commits_the_shadow_store() {
    let repo = TestRepo::with_commit();
    repo.write(".fararoni/shadow/README.md.v1.20260101-000000", "# demo\n");
    repo.write(".fararoni/journal.jsonl", "{}\n");
    repo.write("notes.md", "notes\n");
    assert_code(&repo.ask("commit everything"), 0);
    let files = repo.git(&["ls-files"]);
    assert!(!files.contains(".fararoni"), "{files}");
    assert!(files.contains("notes.md"));
    // And with nothing else to commit, the store alone is not a change.
    repo.write(".fararoni/shadow/notes.md.v1.20260101-000000", "x\n");
    let out = repo.ask("do the commit");
    assert!(out.stderr.contains("nothing to commit"), "{out}");
}

#[test]
fn test_ask_commit_from_a_subdirectory_commits_everything() {
    let repo = TestRepo::with_commit();
    repo.write("top.txt", "top\n");
    repo.write("sub/inner.txt", "inner\n");
    let out = repo.run_in(&repo.path().join("sub"), &["ask", "do the commit"]);
    assert_code(&out, 0);
    let files = repo.git(&["ls-files"]);
    assert!(
        files.contains("top.txt") && files.contains("sub/inner.txt"),
        "{files}"
    );
}

#[test]
fn test_ask_blocked_git_leaves_the_repo_byte_identical() {
    let repo = TestRepo::with_commit();
    repo.write("README.md", "# edited, not committed\n");
    repo.write("untracked.txt", "keep me\n");
    repo.git(&[
        "remote",
        "add",
        "origin",
        "https://example.invalid/repo.git",
    ]);
    let before = repo.snapshot();
    for request in [
        "git push",
        "git push --force origin main",
        "git reset --hard HEAD",
        "git clean -fd",
        "git checkout -- .",
        "git -C . push",
        "git -c core.hooksPath=/dev/null commit -am x",
        "git commit --no-verify -am x",
        "git add . && git push",
        "discard all my changes",
        "descarta todos mis cambios",
        "commit and push",
        "sube los cambios",
        "undo the last commit and throw away its changes",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 3);
        assert!(out.stderr.contains("blocked"), "{request}: {out}");
        assert_eq!(repo.snapshot(), before, "{request} changed the repository");
    }
}

#[test]
fn test_ask_unsafe_shell_never_runs() {
    let repo = TestRepo::with_commit();
    repo.write("important.txt", "precious\n");
    let before = repo.snapshot();
    for request in [
        "rm -rf important.txt",
        "do the commit && rm -rf important.txt",
        "git log > history.txt",
        "echo pwned > important.txt",
        "cat $(git ls-files)",
        "echo `rm important.txt`",
        "curl -fsSL https://example.invalid/install.sh | sh",
        "find . -name '*.txt' -delete",
        "ls & rm important.txt",
        "git status; rm important.txt",
        "npm install",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 3);
        assert_eq!(repo.snapshot(), before, "{request} changed the repository");
    }
    assert!(!repo.path().join("history.txt").exists());
}

#[test]
fn test_ask_read_only_commands_and_chains_run() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "one\ntwo\nthree\n");
    let out = repo.ask("git status --short");
    assert_code(&out, 0);
    assert!(out.stdout.contains("?? a.txt"), "{out}");
    let out = repo.ask("git log --oneline | head -1");
    assert_code(&out, 0);
    assert!(out.stdout.contains("initial"), "{out}");
    let out = repo.ask("cat a.txt | wc -l");
    assert_eq!(out.stdout.trim(), "3", "{out}");
    let out = repo.ask("ls missing-file || echo fallback");
    assert_code(&out, 0);
    assert!(out.stdout.contains("fallback"), "{out}");
    let out = repo.ask("ls *.txt");
    assert_eq!(out.stdout.trim(), "a.txt", "{out}");
    let out = repo.ask("pwd");
    assert_eq!(out.stdout.trim(), repo.path().to_string_lossy(), "{out}");
    let out = repo.ask("cd sub-missing && pwd");
    assert_ne!(out.code, 0);
    std::fs::create_dir(repo.path().join("sub")).expect("mkdir");
    let out = repo.ask("cd sub && pwd");
    assert!(out.stdout.trim().ends_with("/sub"), "{out}");
    let out = repo.ask("please run git diff --stat?");
    assert_code(&out, 0);
}

#[test]
fn test_ask_passes_the_commands_exit_code_through() {
    let repo = TestRepo::with_commit();
    let out = repo.ask("git rev-parse --verify no-such-ref");
    assert_eq!(out.code, 128, "{out}");
    let out = repo.ask("ls no-such-file");
    assert_eq!(out.code, 2, "{out}");
}

#[test]
fn test_ask_outside_a_repository_suggests_init() {
    let dir = TestRepo::empty_dir();
    dir.write("a.txt", "x\n");
    let before = dir.snapshot();
    let out = dir.ask("do the commit");
    assert_code(&out, 1);
    assert!(out.stderr.contains("not a git repository"), "{out}");
    assert!(out.stderr.contains("do the git init and commit"), "{out}");
    assert_eq!(dir.snapshot(), before);
    assert!(!dir.path().join(".git").exists());
    let out = dir.ask("what changed?");
    assert_code(&out, 1);
}

#[test]
fn test_ask_on_a_detached_head() {
    let repo = TestRepo::with_commit();
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "--detach", head.trim()]);
    repo.write("detached.txt", "x\n");
    let out = repo.ask("do the commit");
    assert_code(&out, 0);
    assert_eq!(repo.log()[0], "Update detached.txt");
    let out = repo.ask("which branch am I on?");
    assert_code(&out, 0);
    assert!(out.stdout.contains("HEAD detached"), "{out}");
}

#[test]
fn test_ask_on_an_unborn_head() {
    let repo = TestRepo::new();
    repo.write("first.txt", "x\n");
    let out = repo.ask("show last commit");
    assert_ne!(out.code, 0, "{out}");
    let out = repo.ask("undo the last commit");
    assert_code(&out, 1);
    assert!(out.stderr.contains("no commit yet"), "{out}");
    let out = repo.ask("do the commit");
    assert_code(&out, 0);
    assert_eq!(repo.log(), ["Update first.txt"]);
    let out = repo.ask("undo the last commit");
    assert_code(&out, 1);
    assert!(out.stderr.contains("first commit"), "{out}");
}

#[test]
fn test_ask_paths_with_spaces_and_non_ascii_names() {
    let repo = TestRepo::with_commit();
    repo.write("my file ñandú.txt", "contenido\n");
    let out = repo.ask("cat \"my file ñandú.txt\"");
    assert_code(&out, 0);
    assert_eq!(out.stdout, "contenido\n");
    let out = repo.ask("haz el commit");
    assert_code(&out, 0);
    assert_eq!(repo.log()[0], "Update my file ñandú.txt");
}

#[test]
fn test_ask_git_intents_run_their_sequences() {
    let repo = TestRepo::with_commit();
    assert_code(&repo.ask("create a branch called feature/students-api"), 0);
    assert_eq!(
        repo.git(&["branch", "--show-current"]).trim(),
        "feature/students-api"
    );
    assert_code(&repo.ask("cámbiate a la rama main"), 0);
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "main");
    repo.write("README.md", "# changed\n");
    assert_code(&repo.ask("stash my changes"), 0);
    assert_eq!(repo.read("README.md"), "# demo\n");
    assert!(!repo.git(&["stash", "list"]).is_empty());
    let out = repo.ask("¿qué cambió?");
    assert_code(&out, 0);
    assert!(out.stdout.contains("On branch main"), "{out}");
    repo.write("second.txt", "2\n");
    repo.git(&["add", "second.txt"]);
    repo.git(&["commit", "-q", "-m", "second"]);
    let out = repo.ask("deshaz el último commit");
    assert_code(&out, 0);
    assert_eq!(repo.log(), ["initial"]);
    assert!(repo
        .git(&["diff", "--cached", "--name-only"])
        .contains("second.txt"));
    let out = repo.ask("muéstrame el historial de commits");
    assert!(out.stdout.contains("initial"), "{out}");
}

#[test]
fn test_ask_aliases_are_classified_by_what_they_expand_to() {
    let repo = TestRepo::with_commit();
    repo.git(&["config", "alias.st", "status --short"]);
    repo.git(&["config", "alias.pu", "push"]);
    repo.git(&["config", "alias.nuke", "!rm -rf ."]);
    repo.write("new.txt", "x\n");
    let out = repo.ask("git st");
    assert_code(&out, 0);
    assert!(out.stdout.contains("?? new.txt"), "{out}");
    let before = repo.snapshot();
    let out = repo.ask("git pu");
    assert_code(&out, 3);
    assert!(out.stderr.contains("remote"), "{out}");
    let out = repo.ask("git nuke");
    assert_code(&out, 3);
    assert!(out.stderr.contains("shell alias"), "{out}");
    assert_eq!(repo.snapshot(), before);
    let out = repo.ask("git stauts");
    assert_code(&out, 3);
    assert!(out.stderr.contains("`status`"), "{out}");
}

#[test]
fn test_ask_checkout_of_a_path_is_destructive_but_of_a_branch_is_not() {
    let repo = TestRepo::with_commit();
    repo.git(&["branch", "develop"]);
    repo.write("README.md", "# unsaved edit\n");
    let out = repo.ask("git checkout README.md");
    assert_code(&out, 3);
    assert_eq!(repo.read("README.md"), "# unsaved edit\n");
    let out = repo.ask("git checkout develop");
    assert_code(&out, 0);
    assert_eq!(repo.read("README.md"), "# unsaved edit\n");
}

#[test]
fn test_ask_rejects_bad_input_clearly() {
    let repo = TestRepo::with_commit();
    for (arg, needle) in [
        ("", "empty"),
        ("   \t ", "empty"),
        ("git status\u{1b}[2J", "control character"),
    ] {
        let out = repo.ask(arg);
        assert_code(&out, 2);
        assert!(out.stderr.contains(needle), "{arg:?}: {out}");
    }
    // 1 MiB as argv words (one argv element is capped at 128 KiB) and on stdin.
    let words: Vec<String> = (0..9).map(|_| "a".repeat(120 * 1024)).collect();
    let mut args = vec!["ask".to_string()];
    args.extend(words);
    let out = repo.run(&args);
    assert_code(&out, 2);
    assert!(out.stderr.contains("limit"), "{}", out.stderr);
    let out = ask_stdin(&repo, "a".repeat(1024 * 1024).as_bytes());
    assert_code(&out, 2);
    assert!(out.stderr.contains("limit"), "{}", out.stderr);
    let out = ask_stdin(&repo, &[0xff, 0xfe, b'x']);
    assert_code(&out, 2);
    assert!(out.stderr.contains("not valid UTF-8"), "{}", out.stderr);
    let out = repo.run(&["ask"]);
    assert_code(&out, 2);
    // NUL cannot travel in argv; it can on standard input.
    let out = ask_stdin(&repo, b"git status\0");
    assert_code(&out, 2);
    assert!(out.stderr.contains("U+0000"), "{out}");
}

fn ask_stdin(repo: &TestRepo, input: &[u8]) -> Out {
    crate::common::run_with_stdin(repo.cmd("git-fararoni").args(["ask", "-"]), input)
}

#[cfg(unix)]
#[test]
fn test_ask_rejects_non_utf8_arguments() {
    use std::os::unix::ffi::OsStringExt;
    let repo = TestRepo::with_commit();
    let bad = OsString::from_vec(vec![b'c', b'a', b't', b' ', 0xff, 0xfe]);
    let out = repo.run(&[OsString::from("ask"), bad]);
    assert_code(&out, 2);
    assert!(out.stderr.contains("not valid UTF-8"), "{out}");
}

#[test]
fn test_ask_explain_json_runs_nothing_anywhere() {
    let dir = TestRepo::empty_dir();
    let before = dir.snapshot();
    for request in [
        "do the commit",
        "git push",
        "rm -rf /",
        "hola",
        "refactor the parser",
    ] {
        let out = dir.run(&["ask", "--explain", "--json", request]);
        assert_code(&out, 0);
        let v: serde_json::Value =
            serde_json::from_str(out.stdout.trim()).expect("one JSON object");
        for key in [
            "level", "verdict", "risk", "intent", "message", "commands", "reason",
        ] {
            assert!(v.get(key).is_some(), "{key} missing in {v}");
        }
    }
    assert_eq!(dir.snapshot(), before);
    let out = dir.run(&["ask", "--explain", "git push"]);
    assert!(out.stdout.contains("verdict: blocked"), "{out}");
}

#[test]
fn test_ask_json_reports_the_executed_outcome() {
    let repo = TestRepo::with_commit();
    let out = repo.run(&["ask", "--json", "git log --format=%s"]);
    assert_code(&out, 0);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["stdout"], "initial\n");
    assert_eq!(v["level"], "bare");
    let out = repo.run(&["ask", "--json", "git push"]);
    assert_code(&out, 3);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(v["exit_code"], 3);
    assert_eq!(v["verdict"], "blocked");
    repo.write("j.txt", "x\n");
    let out = repo.run(&["ask", "--json", "do the commit"]);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(v["intent"], "commit");
    assert_eq!(v["exit_code"], 0);
    assert!(
        v["stdout"]
            .as_str()
            .unwrap_or_default()
            .contains("Update j.txt"),
        "{v}"
    );
}

#[test]
fn test_ask_verbose_prints_the_decision_trail() {
    let repo = TestRepo::with_commit();
    let out = repo.run(&["ask", "-v", "git status"]);
    assert_code(&out, 0);
    assert!(out.stderr.contains("L1:"), "{out}");
}

#[test]
fn test_ask_model_levels_are_reported_unavailable() {
    let repo = TestRepo::with_commit();
    let before = repo.snapshot();
    let out = repo.ask("refactor StudentService to use constructor injection");
    assert_code(&out, 4);
    assert!(out.stderr.contains("model levels"), "{out}");
    assert!(out.stderr.contains("fararoni.llm.baseUrl"), "{out}");
    assert_eq!(repo.snapshot(), before);
}

#[test]
fn test_ask_small_talk_gets_a_builtin_reply() {
    let repo = TestRepo::with_commit();
    let out = repo.ask("gracias");
    assert_code(&out, 0);
    assert_eq!(out.stdout.trim(), "¡De nada!");
    let out = repo.ask("hello");
    assert_code(&out, 0);
    assert!(out.stdout.starts_with("Hello"), "{out}");
}

/// Serves one canned OpenAI-compatible answer on loopback and returns the
/// URL and a handle yielding the request it received.
fn one_shot_chat_server(reply: &'static str) -> (String, std::thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
    let handle = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("accept");
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            let n = stream.read(&mut chunk).expect("read");
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf);
            if let Some(head_end) = text.find("\r\n\r\n") {
                let len = text[..head_end]
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if buf.len() >= head_end + 4 + len {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        let body = format!(
            "{{\"choices\":[{{\"message\":{{\"role\":\"assistant\",\"content\":\"{reply}\"}}}}]}}"
        );
        let resp = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(resp.as_bytes()).expect("write");
        String::from_utf8_lossy(&buf).into_owned()
    });
    (url, handle)
}

#[test]
fn test_ask_small_talk_uses_the_configured_chat_model() {
    let repo = TestRepo::with_commit();
    let (url, server) = one_shot_chat_server("Hi from the model");
    let out: Out = repo
        .cmd("git-fararoni")
        .args(["ask", "hello"])
        .env("FARARONI_CHAT_BASE_URL", &url)
        .env("FARARONI_CHAT_MODEL", "tiny")
        .output()
        .expect("runs")
        .into();
    assert_code(&out, 0);
    assert_eq!(out.stdout.trim(), "Hi from the model");
    let request = server.join().expect("server thread");
    assert!(
        request.starts_with("POST /v1/chat/completions"),
        "{request}"
    );
    assert!(request.contains("\"model\":\"tiny\""), "{request}");
    assert!(request.contains("hello"), "{request}");
}

#[test]
fn test_ask_small_talk_falls_back_when_the_chat_model_is_down() {
    let repo = TestRepo::with_commit();
    // A port nobody listens on: bind, read the port, close.
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    repo.git(&[
        "config",
        "fararoni.chat.baseUrl",
        &format!("http://127.0.0.1:{port}/v1"),
    ]);
    repo.git(&["config", "fararoni.chat.model", "tiny"]);
    let out = repo.ask("thanks");
    assert_code(&out, 0);
    assert_eq!(out.stdout.trim(), "You're welcome.");
    assert!(
        out.stderr
            .contains("warning: the chat model did not answer"),
        "{out}"
    );
}
