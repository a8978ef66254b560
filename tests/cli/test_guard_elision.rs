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
