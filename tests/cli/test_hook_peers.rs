//! The measurement against the peer guards' own test corpora:
//! of the commands a peer expects to block that touch git, files or the
//! shell, how many `git fararoni guard hook` lets through, and of the
//! commands a peer expects to allow, how many it blocks.
//!
//! The corpora are the peers' code and stay out of this repository: the
//! test reads a JSON-lines file named by `FARARONI_PEERS_CORPUS` (written
//! by fixtures/hooks/peers/extract.py from the peers' own repositories) and
//! is skipped when it is absent. Beside it (or, failing that, in
//! fixtures/hooks/peers/justified.jsonl), a `justified.jsonl`
//! lists, per command, where we deliberately differ from a peer and why
//! (`{"command", "verdict": "allow"|"veto", "kind", "why"}`; kind is
//! `nothing-lost`, `fails` — git or bash rejects the command, nothing
//! runs —, `posture` — a rule of the hook posture —, `loss` — the veto names
//! what this repository would lose — or `coarse`, a known imprecision). A
//! difference that is not listed fails the test; a listing that no longer
//! matches our verdict fails it too, so the list cannot go stale.
//!
//! `FARARONI_PEERS_CCSN=/path/cc-safety-net.js` also runs that peer (under
//! `node`, as its Claude Code hook) on every command in the same sandbox,
//! so its false blocks on the other peer's allowed commands are counted on
//! the same set. `FARARONI_PEERS_OUT=/path` writes every verdict there.
//!
//! Run: `FARARONI_PEERS_CORPUS=/work/peers-corpus/corpus.jsonl cargo test
//! --test cli hook_peers -- --nocapture`.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{run_with_stdin, TestRepo};
use crate::test_hook_attacks::{read_answer, sandbox};

/// The attack sandbox plus what the peers' commands name: modified tracked
/// files, untracked work, ignored build output, an unmerged branch, a
/// stash, tags — so "what would be lost" has an answer for each command.
fn peers_sandbox() -> (TestRepo, tempfile::TempDir) {
    let (r, outside) = sandbox();
    let tracked = [
        "file.txt",
        "file1.txt",
        "file2.txt",
        "a.txt",
        "b.txt",
        "path/file.txt",
        "docs/notes.txt",
        "dest/keep.txt",
        "src/main.rs",
        "app.js",
        "script.py",
        "stats/summary.txt",
    ];
    for p in tracked {
        r.write(p, &format!("committed {p}\n"));
    }
    r.write(
        ".gitignore",
        "target/\nnode_modules/\nbuild/\ndist/\n*.pyc\n__pycache__/\n.cache/\n",
    );
    let mut add = vec!["add", "--", ".gitignore"];
    add.extend(tracked);
    r.git(&add);
    r.git(&["commit", "-q", "-m", "more project"]);
    r.git(&["tag", "v1.0.0"]);
    // `master` as well as `main`: the peers' commands name both.
    r.git(&["branch", "master"]);
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("feature.txt", "unmerged work\n");
    r.git(&["add", "feature.txt"]);
    r.git(&["commit", "-q", "-m", "feature work"]);
    r.git(&["checkout", "-q", "main"]);
    r.write("a.txt", "stashed change\n");
    r.git(&["stash", "push", "-q", "--", "a.txt"]);
    for p in [
        "file.txt",
        "file1.txt",
        "file2.txt",
        "a.txt",
        "path/file.txt",
        "docs/notes.txt",
        "dest/keep.txt",
        "stats/summary.txt",
    ] {
        r.write(p, &format!("committed {p}\nand uncommitted work\n"));
    }
    for (p, t) in [
        ("data/records.csv", "id,name\n1,mine\n"),
        ("notes.md", "untracked notes\n"),
        ("build/out.o", "object\n"),
        ("dist/bundle.js", "bundle\n"),
        ("x.pyc", "bytecode\n"),
        ("__pycache__/m.pyc", "bytecode\n"),
    ] {
        r.write(p, t);
    }
    (r, outside)
}

/// Reads a JSON-lines file.
fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("read corpus")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect()
}

/// Whether a Claude Code hook's answer is a block.
fn claude_blocks(code: i32, stdout: &str) -> bool {
    code == 2 || stdout.contains("\"permissionDecision\":\"deny\"")
}

#[derive(Default)]
struct Tally {
    n: usize,
    ours: usize,
    ccsn: usize,
}

#[test]
#[ignore = "a measurement over the peers' corpora, which are not in the repository: FARARONI_PEERS_CORPUS=FILE cargo test test_hook_peers_corpora -- --ignored"]
fn test_hook_peers_corpora_measured() {
    let corpus = std::env::var_os("FARARONI_PEERS_CORPUS")
        .expect("set FARARONI_PEERS_CORPUS to the peers' corpus (a JSONL file)");
    let corpus = Path::new(&corpus);
    assert!(corpus.exists(), "{} does not exist", corpus.display());
    let rows = jsonl(corpus);
    // Beside the corpus, or the list kept in the repository (the commands
    // and our reasons, not the peers' code).
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hooks/peers/justified.jsonl");
    let justified: HashMap<String, (String, String)> = corpus
        .parent()
        .map(|d| d.join("justified.jsonl"))
        .filter(|p| p.exists())
        .or_else(|| kept.exists().then_some(kept))
        .map(|p| jsonl(&p))
        .unwrap_or_default()
        .into_iter()
        .map(|j| {
            let s = |k: &str| j[k].as_str().unwrap_or("").to_string();
            (s("command"), (s("verdict"), s("kind")))
        })
        .collect();
    let ccsn = std::env::var_os("FARARONI_PEERS_CCSN");
    let (r, _outside) = peers_sandbox();
    let repo = r.path().to_string_lossy().into_owned();

    // One verdict per distinct command, whichever peer listed it.
    let mut verdicts: BTreeMap<String, (bool, Option<bool>, String)> = BTreeMap::new();
    for row in &rows {
        let command = row["command"].as_str().unwrap_or("").to_string();
        if verdicts.contains_key(&command) {
            continue;
        }
        let payload = json!({
            "session_id": "peers", "transcript_path": "/tmp/t.jsonl", "cwd": repo,
            "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_use_id": "toolu_1", "tool_name": "Bash",
            "tool_input": {"command": command},
        })
        .to_string();
        // An agent's shell with `$TMPDIR` set, as on macOS and in most
        // agents' sandboxes (unset, `$TMPDIR/x` is `/x` and is vetoed).
        let tmp = std::env::temp_dir();
        let mut cmd = r.cmd("git-fararoni");
        cmd.args(["guard", "hook", "--agent", "claude"])
            .env("TMPDIR", &tmp);
        let out = run_with_stdin(&mut cmd, payload.as_bytes());
        let (ours, msg) = match read_answer("claude", &out) {
            Ok(Some(m)) => (true, m),
            Ok(None) => (false, String::new()),
            Err(e) => panic!("invalid answer to {command:?}: {e}"),
        };
        let theirs = ccsn.as_ref().map(|js| {
            let mut c = Command::new("node");
            c.arg(js).arg("--claude-code").current_dir(r.path());
            r.env(&mut c);
            c.env("TMPDIR", &tmp);
            let o = run_with_stdin(&mut c, payload.as_bytes());
            claude_blocks(o.code, &o.stdout)
        });
        verdicts.insert(command, (ours, theirs, msg));
    }

    let mut misses = Vec::new();
    let mut stale = Vec::new();
    let mut justified_allows: BTreeMap<String, usize> = BTreeMap::new();
    let mut justified_vetoes: BTreeMap<String, usize> = BTreeMap::new();
    let mut blocked: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let mut allowed: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let mut out_lines = Vec::new();
    for row in &rows {
        let command = row["command"].as_str().unwrap_or("");
        let peer = row["peer"].as_str().unwrap_or("?");
        let class = row["class"].as_str().unwrap_or("other");
        let relevant = if class == "other" {
            "other"
        } else {
            "git/files/shell"
        };
        let expect_block = row["expect"] == "block";
        let (ours, theirs, msg) = &verdicts[command];
        let t = if expect_block {
            blocked.entry((peer, relevant)).or_default()
        } else {
            allowed.entry((peer, relevant)).or_default()
        };
        t.n += 1;
        t.ours += usize::from(*ours);
        t.ccsn += usize::from(theirs.unwrap_or(false));
        out_lines.push(
            json!({"peer": peer, "class": class, "expect": row["expect"], "command": command,
                   "ours": if *ours { "veto" } else { "allow" }, "ccsn": theirs, "message": msg})
            .to_string(),
        );
        if relevant == "other" || *ours == expect_block {
            continue;
        }
        let want = if *ours { "veto" } else { "allow" };
        match justified.get(command) {
            Some((v, kind)) if v == want => {
                let t = if *ours {
                    &mut justified_vetoes
                } else {
                    &mut justified_allows
                };
                *t.entry(kind.clone()).or_default() += 1;
            }
            Some((v, _)) => stale.push(format!("[{peer}] {command:?}: listed as {v}, now {want}")),
            None => misses.push(format!(
                "[{peer}] {:?}: {} expects {}, we {want}{}",
                command,
                peer,
                row["expect"].as_str().unwrap_or("?"),
                if msg.is_empty() {
                    String::new()
                } else {
                    format!(": {msg}")
                }
            )),
        }
    }
    if let Some(p) = std::env::var_os("FARARONI_PEERS_OUT") {
        std::fs::write(p, out_lines.join("\n") + "\n").expect("write results");
    }
    for (title, table) in [("peer-blocked", &blocked), ("peer-allowed", &allowed)] {
        for ((peer, rel), t) in table {
            eprintln!(
                "hook peers: {title} by {peer}, {rel}: {} commands, we veto {}{}",
                t.n,
                t.ours,
                if ccsn.is_some() {
                    format!(", cc-safety-net blocks {}", t.ccsn)
                } else {
                    String::new()
                }
            );
        }
    }
    eprintln!(
        "hook peers: differences listed with a reason (per peer expectation): allowed {justified_allows:?}, vetoed {justified_vetoes:?}"
    );
    for m in &misses {
        eprintln!("unlisted: {m}");
    }
    assert!(
        misses.is_empty() && stale.is_empty(),
        "{} unlisted differences, {} stale listings:\n{}",
        misses.len(),
        stale.len(),
        stale.join("\n")
    );
}
