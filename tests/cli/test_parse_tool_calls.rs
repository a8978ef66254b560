//! `git fararoni parse-tool-calls` over the extraction fixtures: one reply
//! per format family in `fixtures/agent/extract/NAME.txt`, and the exact
//! calls expected in `NAME.expected.json`.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{bin, Out};

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/agent/extract");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn parse(args: &[&str], stdin: Option<&[u8]>) -> Out {
    let mut child = Command::new(bin("git-fararoni"))
        .arg("parse-tool-calls")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.unwrap_or_default())
        .expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait").into()
}

#[test]
fn test_parse_tool_calls_every_fixture_gives_its_expected_calls() {
    let files = fixtures();
    assert!(files.len() >= 20, "one fixture per format family");
    for txt in files {
        let expected_path = txt.with_extension("expected.json");
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(&expected_path).expect("every fixture has its expected calls"),
        )
        .expect("expected JSON");
        let out = parse(&[txt.to_str().expect("utf-8 path")], None);
        assert_eq!(out.code, 0, "{}: {out}", txt.display());
        let got: Value = serde_json::from_str(&out.stdout).expect("a JSON array");
        assert_eq!(got, expected, "{}", txt.display());
    }
}

#[test]
fn test_parse_tool_calls_reads_stdin_and_survives_garbage() {
    let out = parse(
        &[],
        Some(br#"<tool_call>{"name":"cat","arguments":{"path":"a"}}</tool_call>"#),
    );
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(v[0]["tool"], "fs_read");
    for junk in [
        &b"\xff\xfe{{{{[[[\"\\"[..],
        b"",
        b"<tool_call>",
        b"[TOOL_CALLS]",
        b"<function=",
        b"<\xef\xbd\x9ctool\xe2\x96\x81sep\xef\xbd\x9c>",
    ] {
        let out = parse(&[], Some(junk));
        assert_eq!(out.code, 0, "{out}");
        assert_eq!(out.stdout.trim(), "[]", "{out}");
    }
    let out = parse(&["/nonexistent/reply.txt"], None);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr
            .contains("could not read `/nonexistent/reply.txt`"),
        "{out}"
    );
}
