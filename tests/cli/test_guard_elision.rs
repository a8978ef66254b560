//! The structural kill-switch over its own suite (fixtures/guard/elision/:
//! lazy rewrites across file kinds and natural languages, and the
//! legitimate edits that must keep passing; make_cases.py says where each
//! pattern comes from). Every case is judged through the library entry
//! point the write paths share, with the other files of its change; a
//! sample goes through the real `guard check` process too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use git_fararoni::guard::killswitch::{self, ChangedFile, Elsewhere, Thresholds};
use serde_json::Value;

use crate::common::TestRepo;

struct Case {
    name: String,
    file: String,
    old: String,
    new: String,
    block: bool,
    natural: Option<String>,
    others: Vec<(String, Option<String>, String)>,
}

fn cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/guard/elision/cases.jsonl");
    let text = std::fs::read_to_string(path).expect("cases.jsonl exists");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            let s = |k: &str| v[k].as_str().expect("a string field").to_string();
            let expect = s("expect");
            assert!(expect == "block" || expect == "pass", "{l}");
            Case {
                name: s("name"),
                file: s("file"),
                old: s("old"),
                new: s("new"),
                block: expect == "block",
                natural: v["natural"].as_str().map(str::to_string),
                others: v["others"]
                    .as_array()
                    .expect("others")
                    .iter()
                    .map(|o| {
                        (
                            o[0].as_str().expect("path").to_string(),
                            o[1].as_str().map(str::to_string),
                            o[2].as_str().expect("new").to_string(),
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

fn kind(file: &str) -> String {
    let base = file.rsplit('/').next().unwrap_or(file);
    match base.rsplit_once('.') {
        Some((_, ext)) => ext.to_string(),
        None => base.to_string(),
    }
}

#[test]
fn test_guard_elision_suite_has_no_miss_and_no_false_block() {
    let all = cases();
    let lazy: Vec<&Case> = all.iter().filter(|c| c.block).collect();
    let legit = all.len() - lazy.len();
    let kinds: BTreeSet<String> = lazy.iter().map(|c| kind(&c.file)).collect();
    let naturals: BTreeSet<&str> = lazy.iter().filter_map(|c| c.natural.as_deref()).collect();
    assert!(lazy.len() >= 300, "{} lazy rewrites", lazy.len());
    assert!(legit >= 150, "{legit} legitimate rewrites");
    assert!(kinds.len() >= 25, "{} file kinds: {kinds:?}", kinds.len());
    assert!(naturals.len() >= 15, "{} natural languages", naturals.len());

    let t = Thresholds::default();
    let mut wrong = Vec::new();
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for c in &all {
        // The change's files: this one (skipped) and the others.
        let mut files: Vec<ChangedFile> = vec![(c.file.as_str(), None, b"")];
        files.extend(
            c.others
                .iter()
                .map(|(p, o, n)| (p.as_str(), o.as_deref().map(str::as_bytes), n.as_bytes())),
        );
        let elsewhere = Elsewhere::of_others(&files, 0);
        let r = killswitch::check_in_change(
            &c.file,
            Some(c.old.as_bytes()),
            c.new.as_bytes(),
            &t,
            &elsewhere,
        );
        let e = by_kind.entry(kind(&c.file)).or_default();
        e.1 += 1;
        if r.blocked() == c.block {
            e.0 += 1;
            continue;
        }
        let why: Vec<String> = r.reasons.iter().map(|x| x.to_string()).collect();
        wrong.push(format!(
            "{} {}: {}",
            if c.block { "MISSED" } else { "BLOCKED" },
            c.name,
            why.join("; ")
        ));
    }
    for (k, (right, n)) in &by_kind {
        println!("{k:>12}: {right}/{n}");
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn test_guard_elision_reasons_say_where_and_fit_the_hook() {
    // Every lazy case's first reason names lines and is whole words
    // within the hook's 300 characters.
    let t = Thresholds::default();
    for c in cases().iter().filter(|c| c.block) {
        let r = killswitch::check_file(&c.file, Some(c.old.as_bytes()), c.new.as_bytes(), &t);
        let first = r.reasons.first().map(|x| x.to_string()).unwrap_or_default();
        assert!(first.chars().count() <= 300, "{}: {first}", c.name);
        assert!(
            first.contains("line") || first.contains("stub") || first.contains("volume"),
            "{}: {first}",
            c.name
        );
    }
}

#[test]
fn test_guard_check_process_agrees_with_the_suite() {
    // A sample through the real binary: the verdict (exit code 3 for a
    // block, 0 for a pass) and, for a block, a reason that says where.
    // Every case of an extension two languages share is in it: the
    // command line must choose the language from the content as the
    // library does.
    let shared = |f: &str| {
        [".m", ".pl", ".v", ".fs", ".cls", ".ts"]
            .iter()
            .any(|e| f.ends_with(e))
    };
    let repo = TestRepo::new();
    for (i, c) in cases()
        .iter()
        .enumerate()
        .filter(|(i, c)| i % 23 == 0 || shared(&c.file))
    {
        if !c.others.is_empty() {
            continue;
        }
        let base = c.file.rsplit('/').next().unwrap_or(&c.file);
        let (old, new) = (format!("o{i}/{base}"), format!("n{i}/{base}"));
        repo.write(&old, &c.old);
        repo.write(&new, &c.new);
        let out = repo.run(&["guard", "check", &old, &new, "--json"]);
        assert_eq!(out.code, if c.block { 3 } else { 0 }, "{}: {out}", c.name);
        let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
        assert_eq!(
            v["verdict"],
            if c.block { "block" } else { "pass" },
            "{}",
            c.name
        );
        // The files are as they were: `guard check` only judges.
        assert_eq!(repo.read(&new), c.new);
    }
}

/// A note left where whole blocks were deleted is judged as a stand-in,
/// even when it says the code was removed (fixtures/guard/elision/
/// noted_deletions.md says why): every case there is blocked, with a
/// reason that names the note; the same deletion without the note passes.
#[test]
fn test_guard_a_note_where_deleted_code_was_is_blocked_whatever_it_says() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/guard/elision/noted_deletions.jsonl");
    let text = std::fs::read_to_string(path).expect("noted_deletions.jsonl exists");
    let t = Thresholds::default();
    let mut passed = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a case");
        let field = |k: &str| v[k].as_str().expect("a string field").to_string();
        let (name, file, old, new) = (field("name"), field("file"), field("old"), field("new"));
        n += 1;
        let r = killswitch::check_file(&file, Some(old.as_bytes()), new.as_bytes(), &t);
        if !r.blocked() {
            passed.push(name.clone());
        }
        // Without its note the deletion is an ordinary edit.
        let note_line = new
            .lines()
            .find(|l| !old.lines().any(|o| o == *l) && !l.trim().is_empty())
            .expect("the note");
        let bare: String = new
            .split_inclusive('\n')
            .filter(|l| l.trim_end_matches('\n') != note_line)
            .collect();
        let r = killswitch::check_file(&file, Some(old.as_bytes()), bare.as_bytes(), &t);
        assert!(!r.blocked(), "{name} without its note: {:?}", r.reasons);
    }
    assert!(n >= 40, "{n} cases");
    assert!(passed.is_empty(), "passed: {passed:?}");
}

/// The smallest single edit that turns `old` into `new`: whole lines, the
/// old side widened until it occurs once (as Edit tools require).
fn one_edit(old: &str, new: &str) -> (String, String) {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let mut p = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let most = a.len().min(b.len()) - p;
    let mut s = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    loop {
        let o = a[p..a.len() - s].concat();
        if (!o.is_empty() && old.matches(o.as_str()).count() == 1) || (p == 0 && s == 0) {
            return (o, b[p..b.len() - s].concat());
        }
        if p > 0 {
            p -= 1;
        } else {
            s -= 1;
        }
    }
}

/// Every write path judges the suite alike: a sample (each file kind's
/// first lazy and first legitimate case, and every 97th) goes, in a real
/// repository, through `guard write`, the hook's Claude Edit and MultiEdit,
/// Gemini `replace` and Codex `apply_patch` payloads, and a real `git
/// commit` through the installed pre-commit hook; each blocks exactly the
/// lazy cases, and by effect: a blocked write leaves the file and HEAD as
/// they were.
#[test]
fn test_guard_every_write_path_judges_the_suite_alike() {
    use crate::test_hook_agents::{hook, payload, veto_message, with_path};
    use serde_json::json;
    let all = cases();
    let mut seen = BTreeSet::new();
    let sample: Vec<&Case> = all
        .iter()
        .enumerate()
        .filter(|(_, c)| c.others.is_empty())
        .filter(|(i, c)| seen.insert((kind(&c.file), c.block)) || i % 97 == 0)
        .map(|(_, c)| c)
        .collect();
    assert!(sample.len() >= 100, "{} sampled", sample.len());
    println!("{} cases sampled", sample.len());
    let mut wrong = Vec::new();
    for c in sample {
        let r = TestRepo::with_commit();
        assert_eq!(r.run(&["hooks", "install"]).code, 0);
        r.write(&c.file, &c.old);
        r.git(&["add", "-A"]);
        r.git(&["commit", "-q", "--no-verify", "-m", "old"]);
        let mut verdicts: Vec<(&str, bool)> = Vec::new();

        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["guard", "write", &c.file]);
        let out = crate::common::run_with_stdin(&mut cmd, c.new.as_bytes());
        assert!(out.code == 0 || out.code == 3, "{}: {out}", c.name);
        let now = r.read(&c.file);
        assert_eq!(
            &now,
            if out.code == 3 { &c.old } else { &c.new },
            "{}",
            c.name
        );
        verdicts.push(("guard write", out.code == 3));
        r.write(&c.file, &c.old);

        let (o, n) = one_edit(&c.old, &c.new);
        for (agent, tool) in [("claude", "Edit"), ("gemini", "replace")] {
            let mut v = payload(&r, agent, "edit");
            with_path(&r, agent, "edit", &mut v, &c.file);
            v["tool_input"]["old_string"] = json!(o);
            v["tool_input"]["new_string"] = json!(n);
            verdicts.push((tool, veto_message(agent, &hook(&r, agent, &v)).is_some()));
        }
        let mut v = payload(&r, "claude", "multiedit");
        with_path(&r, "claude", "multiedit", &mut v, &c.file);
        v["tool_input"]["edits"] = json!([{"old_string": o, "new_string": n}]);
        verdicts.push((
            "MultiEdit",
            veto_message("claude", &hook(&r, "claude", &v)).is_some(),
        ));
        let sign = |t: &str, s: char| -> String {
            t.split_inclusive('\n').map(|l| format!("{s}{l}")).collect()
        };
        let mut body = format!("*** Update File: {}\n@@\n{}", c.file, sign(&o, '-'));
        if !body.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(&sign(&n, '+'));
        if !body.ends_with('\n') {
            body.push('\n');
        }
        let mut v = payload(&r, "codex", "apply_patch");
        v["tool_input"]["command"] = json!(format!("*** Begin Patch\n{body}*** End Patch\n"));
        verdicts.push((
            "apply_patch",
            veto_message("codex", &hook(&r, "codex", &v)).is_some(),
        ));

        let head = r.git(&["rev-parse", "HEAD"]);
        r.write(&c.file, &c.new);
        r.git(&["add", "-A"]);
        let out = r.git_out(&["commit", "-q", "-m", "new"]);
        let made = r.git(&["rev-parse", "HEAD"]) != head;
        assert_eq!(made, out.code == 0, "{}: {out}", c.name);
        verdicts.push(("pre-commit", !made));

        for (path, blocked) in verdicts {
            if blocked != c.block {
                wrong.push(format!(
                    "{}: {path} {}",
                    c.name,
                    if blocked { "blocked" } else { "passed" }
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
