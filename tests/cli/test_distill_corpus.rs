//! `git fararoni distill` over real build logs: every log of
//! `fixtures/agent/distill/real/TOOLCHAIN/` was printed by the real tool on
//! a small broken project (`generate.py` there remakes them), and its
//! `.locs` lists the planted `file:line` locations the tool reported. The
//! distillate must keep each of them, in any of the forms a fixer reads
//! (`file:L`, `file:L:C`, `file(L,C)`, `"file", line L`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

use crate::common::bin;

/// The recall every toolchain must reach.
const TARGET: f64 = 0.95;

fn logs() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/agent/distill/real");
    let mut out = Vec::new();
    for tool in std::fs::read_dir(&root).expect("corpus dir") {
        let tool = tool.expect("entry").path();
        if !tool.is_dir() {
            continue;
        }
        let name = tool
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 name")
            .to_string();
        for f in std::fs::read_dir(&tool).expect("toolchain dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "log") {
                out.push((name.clone(), f));
            }
        }
    }
    out.sort();
    out
}

fn found(distillate: &str, loc: &str) -> bool {
    let (file, line) = loc.rsplit_once(':').expect("file:line");
    let base = file.rsplit('/').next().unwrap_or(file);
    let re = Regex::new(&format!(
        r#"{}"?(?::|\(|, line ){}\b"#,
        regex::escape(base),
        line
    ))
    .expect("regex");
    re.is_match(distillate)
}

#[test]
fn test_distill_corpus_keeps_every_error_location_per_toolchain() {
    let logs = logs();
    assert!(
        logs.len() >= 100,
        "at least 100 real logs, got {}",
        logs.len()
    );
    let mut per: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    for (tool, log) in &logs {
        let locs =
            std::fs::read_to_string(log.with_extension("locs")).expect("every log has .locs");
        let exit = locs
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# exit "))
            .expect("first line is the exit code")
            .trim()
            .to_string();
        let out = Command::new(bin("git-fararoni"))
            .args(["distill", "--exit-code", &exit])
            .arg(log)
            .output()
            .expect("run distill");
        assert!(out.status.success(), "{}", log.display());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.chars().count() <= 3000 + 1, "{}", log.display());
        if exit == "0" {
            assert!(
                text.contains("Build succeeded"),
                "{}: {text}",
                log.display()
            );
        }
        let entry = per.entry(tool.clone()).or_default();
        for loc in locs.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            entry.1 += 1;
            if found(&text, loc) {
                entry.0 += 1;
            } else {
                missed.push(format!("{}: {loc}", log.display()));
            }
        }
    }
    let mut low = Vec::new();
    for (tool, (kept, all)) in &per {
        let recall = *kept as f64 / (*all).max(1) as f64;
        println!("{tool:16} {kept}/{all} = {recall:.2}");
        if recall < TARGET {
            low.push(format!("{tool} {recall:.2}"));
        }
    }
    assert!(per.len() >= 6, "toolchains: {:?}", per.keys());
    assert!(
        low.is_empty(),
        "below {TARGET}: {low:?}; missed: {missed:#?}"
    );
}
