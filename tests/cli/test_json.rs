//! `--json` on every command that reports state: the output parses, says
//! what happened, and the effect on disk is the one it says.

use serde_json::Value;

use crate::common::{Out, TestRepo};

fn json_of(out: &Out) -> Value {
    serde_json::from_str(out.stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON value ({e}):\n{out}"))
}

/// Writes `content` to `rel` through `guard write --json`.
fn guarded_write(r: &TestRepo, rel: &str, content: &str) -> Out {
    let from = r.home().join("incoming.txt");
    std::fs::write(&from, content).expect("write");
    // One session for the whole test, as an agent's run would be.
    r.cmd("git-fararoni")
        .env("FARARONI_SESSION", "json-test")
        .args([
            "guard",
            "write",
            rel,
            "--from",
            from.to_str().expect("utf8"),
            "--json",
        ])
        .output()
        .expect("git-fararoni runs")
        .into()
}

fn source(n: usize) -> String {
    (0..n)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect()
}

#[test]
fn test_json_guard_write_reports_created_updated_and_blocked() {
    let r = TestRepo::with_commit();
    let out = guarded_write(&r, "src/a.rs", &source(20));
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    assert_eq!(v["outcome"], "created", "{v}");
    assert_eq!(v["path"], "src/a.rs");
    assert_eq!(r.read("src/a.rs"), source(20));

    let edited = source(20) + "let extra = 1;\n";
    let v = json_of(&guarded_write(&r, "src/a.rs", &edited));
    assert_eq!(v["outcome"], "updated", "{v}");
    assert_eq!(v["saved_as"], 1, "{v}");
    assert_eq!(v["report"]["verdict"], "pass", "{v}");
    assert_eq!(r.read("src/a.rs"), edited);

    // Gutted: exit 3, the JSON says blocked, the file is untouched.
    let out = guarded_write(&r, "src/a.rs", "// TODO\n");
    assert_eq!(out.code, 3, "{out}");
    let v = json_of(&out);
    assert_eq!(v["outcome"], "blocked", "{v}");
    assert_eq!(v["report"]["verdict"], "block", "{v}");
    assert_eq!(r.read("src/a.rs"), edited);
}

#[test]
fn test_json_shadow_restore_and_prune() {
    let r = TestRepo::with_commit();
    for n in [20, 21, 22, 23] {
        assert_eq!(guarded_write(&r, "a.rs", &source(n)).code, 0);
    }
    // v1..v3 hold 20, 21, 22 lines; the file holds 23 (uncommitted: --yes).
    let out = r.run(&[
        "shadow",
        "restore",
        "a.rs",
        "--version",
        "1",
        "--yes",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    assert_eq!(v["path"], "a.rs");
    assert_eq!(v["version"], 1);
    assert_eq!(v["changed"], true);
    assert_eq!(v["saved_as"], 4, "the replaced content is v4: {v}");
    assert_eq!(r.read("a.rs"), source(20));

    let list = |r: &TestRepo| {
        json_of(&r.run(&["shadow", "list", "a.rs", "--json"]))
            .as_array()
            .map_or(0, Vec::len)
    };
    let versions = list(&r);
    // Dry run: lists, removes nothing.
    let out = r.run(&["shadow", "prune", "--keep", "1", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    assert_eq!(v["dry_run"], true);
    let removed = v["removed"].as_array().expect("removed is a list").len();
    assert!(removed >= 1, "{v}");
    assert!(v["store_size"].is_null(), "{v}");
    assert_eq!(list(&r), versions, "a dry run removes nothing");
    let out = r.run(&["shadow", "prune", "--keep", "1", "--yes", "--json"]);
    let v = json_of(&out);
    assert_eq!(v["dry_run"], false, "{v}");
    assert_eq!(v["removed"].as_array().map(Vec::len), Some(removed));
    assert!(v["store_size"].as_u64().is_some(), "{v}");
    assert_eq!(list(&r), versions - removed, "what JSON says went is gone");
}

#[test]
fn test_json_undo_lists_each_file_and_restores_it() {
    let r = TestRepo::with_commit();
    r.write("a.rs", &source(20));
    r.git(&["add", "a.rs"]);
    r.git(&["commit", "-qm", "a"]);
    assert_eq!(guarded_write(&r, "a.rs", &(source(20) + "x();\n")).code, 0);
    assert_eq!(guarded_write(&r, "b.rs", &source(5)).code, 0);
    let out = r.run(&["undo", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    let files = v["files"].as_array().expect("files");
    let outcome = |p: &str| {
        files
            .iter()
            .find(|f| f["path"] == p)
            .map(|f| f["outcome"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(outcome("a.rs").as_deref(), Some("restored"), "{v}");
    assert_eq!(outcome("b.rs").as_deref(), Some("removed"), "{v}");
    assert!(
        v["session"].is_string() && v["undo_session"].is_string(),
        "{v}"
    );
    assert_eq!(r.read("a.rs"), source(20));
    assert!(!r.path().join("b.rs").exists());
}

#[test]
fn test_json_saga_start_finish_and_abort() {
    let r = TestRepo::with_commit();
    let out = r.run(&["saga", "start", "--name", "demo", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    let wip = v["wip_branch"].as_str().expect("wip_branch").to_string();
    assert!(wip.starts_with("fararoni/wip-"), "{v}");
    assert_eq!(v["original_branch"], "main");
    assert_eq!(
        r.git(&["rev-parse", "--abbrev-ref", "HEAD"]).trim(),
        wip,
        "on the wip branch as the JSON says"
    );
    r.write("n.txt", "new\n");
    r.git(&["add", "n.txt"]);
    r.git(&["commit", "-qm", "n"]);
    let out = r.run(&["saga", "finish", "--yes", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    assert_eq!(v["result"], "landed", "{v}");
    assert_eq!(v["branch"], "main");
    assert_eq!(v["commits"], 1);
    assert_eq!(
        r.git(&["rev-parse", "HEAD"]).trim(),
        v["commit"].as_str().expect("commit"),
        "HEAD is the commit the JSON names"
    );

    let v = json_of(&r.run(&["saga", "start", "--json"]));
    let id = v["id"].as_str().expect("id").to_string();
    r.write("m.txt", "more\n");
    r.git(&["add", "m.txt"]);
    r.git(&["commit", "-qm", "m"]);
    let out = r.run(&["saga", "abort", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let v = json_of(&out);
    assert_eq!(v["result"], "returned", "{v}");
    assert_eq!(v["id"], id.as_str());
    let kept = v["aborted_ref"].as_str().expect("aborted_ref");
    assert_eq!(
        r.git(&["rev-parse", kept]).trim(),
        v["tip"].as_str().expect("tip"),
        "the saga's commits are where the JSON says"
    );
    assert!(!r.path().join("m.txt").exists());
}
