//! The kill-switch's rules, one by one.

use super::*;
use crate::guard::lines::{self as text_lines, find_newline};
use crate::guard::measure::measure;
use std::collections::HashSet;

fn run(old: &str, new: &str) -> Report {
    check(Some(old.as_bytes()), new.as_bytes(), &Thresholds::default())
}

/// The seed's worked example: a 45-line class (43 distinct lines) cut to
/// 20 lines, one of them `// ... rest of the code`.
fn seed_pair() -> (&'static str, &'static str) {
    (
        include_str!("../../../fixtures/guard/seed-old.java"),
        include_str!("../../../fixtures/guard/seed-new.java"),
    )
}

#[test]
fn seed_example_is_blocked_for_volume() {
    let (old, new) = seed_pair();
    let r = run(old, new);
    assert_eq!((r.old_lines, r.new_lines), (45, 20));
    assert_eq!(format!("{:.2}", r.jaccard), "0.43");
    assert_eq!(format!("{:.2}", r.volume), "0.44");
    assert!(r.blocked());
    // What was removed and what stands in its place comes first; the
    // placeholder's line is the one that reason names.
    assert!(
        matches!(&r.reasons[0], Reason::Removed(f) if f.line == 19),
        "{r:?}"
    );
    assert!(r.reasons.iter().any(|x| matches!(x, Reason::Volume { .. })));
    assert!(!r
        .reasons
        .iter()
        .any(|x| matches!(x, Reason::Jaccard { .. })));
}

#[test]
fn pom_version_bump_passes() {
    let mut lines = vec![
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        "<project>",
        "  <modelVersion>4.0.0</modelVersion>",
        "  <groupId>edu.demo</groupId>",
        "  <artifactId>creditos</artifactId>",
        "  <version>1.0.0</version>",
        "  <properties>",
        "    <maven.compiler.source>17</maven.compiler.source>",
        "    <maven.compiler.target>17</maven.compiler.target>",
        "    <java.version>17</java.version>",
        "  </properties>",
        "  <dependencies>",
        "    <dependency>",
        "      <groupId>junit</groupId>",
        "      <artifactId>junit</artifactId>",
        "    </dependency>",
        "  </dependencies>",
        "</project>",
    ];
    let old = lines.join("\n");
    for l in lines.iter_mut() {
        if l.contains(">17<") {
            *l = match *l {
                s if s.contains("source") => {
                    "    <maven.compiler.source>25</maven.compiler.source>"
                }
                s if s.contains("target") => {
                    "    <maven.compiler.target>25</maven.compiler.target>"
                }
                _ => "    <java.version>25</java.version>",
            };
        }
    }
    let r = run(&old, &lines.join("\n"));
    assert_eq!(r.verdict, Verdict::Pass, "{r:?}");
    assert!(r.jaccard > 0.6 && (r.volume - 1.0).abs() < 1e-9);
}

#[test]
fn jaccard_below_threshold_blocks_a_rewrite() {
    let old: String = (0..20).map(|i| format!("old line {i}\n")).collect();
    let new: String = (0..20).map(|i| format!("new line {i}\n")).collect();
    let r = run(&old, &new);
    assert!(r.blocked());
    assert_eq!(r.jaccard, 0.0);
    assert!(matches!(r.reasons[..], [Reason::Jaccard { .. }]));
}

#[test]
fn elision_blocks_only_when_the_old_content_lacked_it() {
    let body: String = (0..10).map(|i| format!("let x{i} = {i};\n")).collect();
    let with = format!("{body}// ... rest of the code\n");
    assert!(run(&body, &with).blocked());
    // The same placeholder already present is not new.
    assert_eq!(
        run(&with, &format!("{with}let y = 1;\n")).verdict,
        Verdict::Pass
    );
    // Spanish.
    assert!(run(&body, &format!("{body}# resto del código sin cambios\n")).blocked());
}

#[test]
fn emptying_a_file_blocks_even_a_tiny_one() {
    let r = run("a\nb\n", "  \n\n");
    assert!(r.blocked());
    assert!(matches!(r.reasons[..], [Reason::Emptied { old_lines: 2 }]));
    assert_eq!(run("", "").verdict, Verdict::Pass);
}

#[test]
fn tiny_files_may_be_rewritten() {
    let r = run("a\nb\nc\n", "x\n");
    assert_eq!(r.verdict, Verdict::Pass);
    assert!(r.tiny);
    assert_eq!(r.jaccard, 0.0);
    // But not with a placeholder.
    assert!(run("a\nb\nc\n", "x\n// ...\n").blocked());
}

#[test]
fn new_files_pass_unless_binary() {
    let r = check(
        None,
        b"fn main() {}\n// ... rest of the code\n",
        &Thresholds::default(),
    );
    assert_eq!(r.verdict, Verdict::Pass);
    assert!(r.new_file);
    assert_eq!((r.jaccard, r.volume), (1.0, 1.0));
    let r = check(None, b"\x00\x01\x02", &Thresholds::default());
    assert_eq!(r.reasons, vec![Reason::Binary(Side::New)]);
}

#[test]
fn binary_and_encoding_changes_block() {
    let text: String = (0..10).map(|i| format!("line {i}\n")).collect();
    let mut bin = text.clone().into_bytes();
    bin[3] = 0;
    let r = check(Some(&bin), text.as_bytes(), &Thresholds::default());
    assert_eq!(r.reasons, vec![Reason::Binary(Side::Old)]);

    let latin1: Vec<u8> = text
        .replace("line", "l\u{ed}nea")
        .chars()
        .map(|c| c as u8)
        .collect();
    let utf8 = text.replace("line", "l\u{ed}nea");
    let r = check(Some(&latin1), utf8.as_bytes(), &Thresholds::default());
    assert!(
        matches!(
            r.reasons[..],
            [
                Reason::Encoding {
                    from: Encoding::Other,
                    to: Encoding::Utf8
                },
                ..
            ]
        ),
        "{r:?}"
    );

    let bom = format!("\u{feff}{text}");
    let r = run(&bom, &text);
    assert!(
        matches!(
            r.reasons[..],
            [
                Reason::Encoding {
                    from: Encoding::Utf8Bom,
                    to: Encoding::Utf8
                },
                ..
            ]
        ),
        "{r:?}"
    );
}

#[test]
fn crlf_files_keep_their_line_endings() {
    let crlf: String = (0..10).map(|i| format!("line {i}\r\n")).collect();
    let edited = crlf.replace("line 3", "line three");
    assert_eq!(run(&crlf, &edited).verdict, Verdict::Pass);
    let lf = crlf.replace("\r\n", "\n");
    let r = run(&crlf, &lf);
    assert!(matches!(
        r.reasons[..],
        [Reason::LineEndings {
            from: LineEndings::Crlf,
            to: LineEndings::Lf
        }]
    ));
    // Line contents are compared without their `\r`.
    assert_eq!(r.jaccard, 1.0);
}

#[test]
fn lines_split_like_the_naive_way() {
    for text in [
        "",
        "a",
        "a\n",
        "\n\n  \n",
        "0123456\n01234567\n012345678\r\n\tx  \n",
        "line one\r\nline two\nlast without newline",
    ] {
        let naive: Vec<(usize, &[u8])> = text
            .as_bytes()
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_ascii()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        assert_eq!(
            lines(text.as_bytes()).collect::<Vec<_>>(),
            naive,
            "{text:?}"
        );
    }
    assert_eq!(line_endings(b"a\r\nb\r\n"), LineEndings::Crlf);
    assert_eq!(line_endings(b"a\nb\r\n"), LineEndings::Mixed);
    assert_eq!(line_endings(b"ab"), LineEndings::None);
    for i in 0..20 {
        let mut v = vec![b'x'; 20];
        v[i] = b'\n';
        assert_eq!(find_newline(&v), Some(i));
    }
    assert_eq!(find_newline(b"no newline here at all"), None);
}

#[test]
fn thresholds_are_respected() {
    let old: String = (0..10).map(|i| format!("l{i}\n")).collect();
    let new: String = (0..4).map(|i| format!("l{i}\n")).collect();
    let lax = Thresholds {
        jaccard: 0.3,
        volume: 0.3,
        min_lines: 5,
    };
    assert_eq!(
        check(Some(old.as_bytes()), new.as_bytes(), &lax).verdict,
        Verdict::Pass
    );
    assert!(run(&old, &new).blocked());
}

fn file(name: &str, old: &str, new: &str) -> Report {
    check_file(
        name,
        Some(old.as_bytes()),
        new.as_bytes(),
        &Thresholds::default(),
    )
}

fn has(r: &Report, p: impl Fn(&Reason) -> bool) -> bool {
    r.reasons.iter().any(p)
}

const PY: &str = "import os\n\n\ndef load(path):\n    with open(path) as f:\n        data = f.read()\n    return data.split()\n\n\ndef save(path, words):\n    text = \" \".join(words)\n    with open(path, \"w\") as f:\n        f.write(text)\n    return len(text)\n\n\ndef count(words):\n    seen = {}\n    for w in words:\n        seen[w] = seen.get(w, 0) + 1\n    return seen\n";

#[test]
fn a_placeholder_the_old_file_had_excuses_nothing_new() {
    let old = format!("{PY}# ... rest of the code\n");
    let new = PY.replace(
        "def count(words):",
        "# ... rest of the code\n\n\ndef count(words):",
    );
    let new = format!("{new}# ... rest of the code\n");
    let r = file("a.py", &old, &new);
    assert!(has(&r, |x| matches!(x, Reason::Elision { .. })), "{r:?}");
    assert_eq!(
        file("a.py", &old, &format!("{old}\n")).verdict,
        Verdict::Pass
    );
}

#[test]
fn stubbed_bodies_are_named() {
    let new = PY
        .replace("    with open(path) as f:\n        data = f.read()\n    return data.split()", "    raise NotImplementedError")
        .replace("    text = \" \".join(words)\n    with open(path, \"w\") as f:\n        f.write(text)\n    return len(text)", "    pass");
    let r = file("a.py", PY, &new);
    assert!(
        has(
            &r,
            |x| matches!(x, Reason::Stubbed { functions } if functions == &["load", "save"])
        ),
        "{r:?}"
    );
    // The same stubs in a type stub file are declarations.
    assert!(!has(&file("a.pyi", PY, &new), |x| matches!(
        x,
        Reason::Stubbed { .. }
    )));
}

#[test]
fn padding_does_not_buy_volume_back() {
    let old: String = (0..20)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    let kept: String = (0..9)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    let pad = "\u{a0}\u{a0}\n\u{200b}\n//\n".repeat(6);
    let r = file("a.rs", &old, &format!("{kept}{pad}"));
    assert!(r.volume >= 0.5, "the seed's volume is fooled: {r:?}");
    assert!(
        has(&r, |x| matches!(x, Reason::MeaningfulVolume { .. }))
            && has(&r, |x| matches!(x, Reason::Padding { .. })),
        "{r:?}"
    );
    // Repeating kept lines is padding too.
    let repeated = format!("{kept}{kept}{kept}");
    assert!(file("a.rs", &old, &repeated).blocked());
}

#[test]
fn truncation_is_recognised() {
    let old: String = (0..20)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    let cut = &old[..old.len() * 6 / 10 + 3];
    let r = file("a.rs", &old, cut);
    assert!(has(&r, |x| matches!(x, Reason::Truncated { .. })), "{r:?}");
    let open = "fn a() {\n    let x = 1;\n    if x > 0 {\n        b();\n    }\n    c();\n}\n";
    let r = file(
        "a.rs",
        &format!("{open}{open}"),
        &format!("{open}fn a() {{\n    let x = 1;\n"),
    );
    assert!(has(&r, |x| matches!(x, Reason::Truncated { .. })), "{r:?}");
    // Deleting the last part of a file, keeping most of it, is an edit.
    let most: String = (0..16)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    assert_eq!(file("a.rs", &old, &most).verdict, Verdict::Pass);
}

#[test]
fn structured_files_are_judged_by_their_entries() {
    let big = format!(
        "{{{}}}",
        (0..60)
            .map(|i| format!("\"key{i}\":{{\"v\":{i}}}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let r = file("data.json", &big, "{}");
    assert!(r.blocked());
    assert_eq!((r.unit, r.old_lines, r.new_lines), ("JSON entries", 120, 0));
    // Pretty-printing the same document changes every line, no entry.
    let pretty = serde_json::to_string_pretty(
        &serde_json::from_str::<serde_json::Value>(&big).expect("valid JSON"),
    )
    .expect("serialises");
    assert_eq!(file("data.json", &big, &pretty).verdict, Verdict::Pass);
    let r = file(
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"1\"\n",
        "[package]\nname = \"x",
    );
    assert!(
        has(&r, |x| matches!(
            x,
            Reason::Unparsable {
                format: Format::Toml,
                ..
            }
        )),
        "{r:?}"
    );
    // Unparsable before: judged by lines like any text.
    let r = file("bad.json", "{ not json\n", "{ still not json\n");
    assert_eq!(r.unit, "lines");
}

#[test]
fn meaningful_counts_match_a_plain_set_computation() {
    let lang = lang::from_path("a.rs").expect("rust");
    let naive = |text: &str| -> HashSet<Vec<u8>> {
        let mut scratch = Vec::new();
        lines(text.as_bytes())
            .filter_map(|(_, l)| text_lines::meaningful(l, &mut scratch).map(<[u8]>::to_vec))
            .filter(|k| !text_lines::is_comment(k, lang))
            .collect()
    };
    let samples = [
        "let x = 1;\nlet  x = 1;\n}\n// note\nlet y = 2;\nlet y = 2;\n",
        "let x = 1;\nlet\u{a0}x = 1;\nz\u{200b}\nz\n// note\n\u{a0}\n",
        "let  y = 2;\nlet q = 3;\n#\n{\n}\nlet\tq = 3;\n",
        "a\nb\nc\n",
        "",
    ];
    for old in samples {
        for new in samples {
            let o = measure(old.as_bytes(), lang);
            let n = measure(new.as_bytes(), lang);
            let common = merge(&o.hashes, &n.hashes, |_, _| {});
            let (no, nn) = (naive(old), naive(new));
            assert_eq!(o.meaningful(), no.len(), "{old:?}");
            assert_eq!(
                meaningful_common(&o, &n, common),
                no.intersection(&nn).count(),
                "{old:?} -> {new:?}"
            );
        }
    }
}

/// `PY` with `save` replaced by a note, and `save` itself.
fn without_save() -> (String, String) {
    let save = "def save(path, words):\n    text = \" \".join(words)\n    with open(path, \"w\") as f:\n        f.write(text)\n    return len(text)\n";
    assert!(PY.contains(save));
    (
        PY.replace(save, "# save() now lives in store.py\n"),
        save.to_string(),
    )
}

#[test]
fn a_change_counts_the_code_its_other_files_gain_as_moved() {
    let t = Thresholds::default();
    let (a, save) = without_save();
    let judge_first = |files: &[ChangedFile<'_>]| {
        let change = Change::new(files);
        let r = change.check(0, &t).expect("a file");
        // The one-file entry point with the same others says the same.
        let e = Elsewhere::of_others(files, 0);
        let (p, o, n) = files[0];
        assert_eq!(check_in_change(p, o, n, &t, &e), r);
        r
    };
    fn gains<'a>(path: &'a str, text: &'a str) -> ChangedFile<'a> {
        (path, None, text.as_bytes())
    }
    let me: ChangedFile = ("a.py", Some(PY.as_bytes()), a.as_bytes());
    // Alone: a note stands where `save` was.
    assert!(judge_first(&[me]).blocked());
    // Moved to another code file: passes.
    assert!(!judge_first(&[me, gains("store.py", &save)]).blocked());
    // Gained by two other files: still elsewhere.
    let r = judge_first(&[me, gains("store.py", &save), gains("io.py", &save)]);
    assert!(!r.blocked(), "{r:?}");
    // Pasted into a document: not kept as code.
    let md = format!("```python\n{save}```\n");
    assert!(judge_first(&[me, gains("README.md", &md)]).blocked());
    // A file deleted by the change gains nothing.
    let deleted: ChangedFile = ("store.py", Some(save.as_bytes()), b"");
    assert!(judge_first(&[me, deleted]).blocked());
    // A Markdown section moved to another document is a move.
    let doc = "# Guide\n\n## Install\n\nRun the installer first.\nThen restart the shell.\nCheck the version it prints.\n\n## Use\n\nAsk a question.\n";
    let cut = doc.replace(
        "Run the installer first.\nThen restart the shell.\nCheck the version it prints.\n",
        "(moved to install.md)\n",
    );
    let install = "# Install\n\nRun the installer first.\nThen restart the shell.\nCheck the version it prints.\n";
    let guide: ChangedFile = ("guide.md", Some(doc.as_bytes()), cut.as_bytes());
    assert!(judge_first(&[guide]).blocked());
    assert!(!judge_first(&[guide, gains("install.md", install)]).blocked());
    // Out of range: no file to judge.
    assert!(Change::new(&[me]).check(3, &t).is_none());
}

/// Reasons of `guard check` for a pair of files named `path`.
fn reasons_of(path: &str, old: &str, new: &str) -> Vec<String> {
    crate::guard::check_file(
        path,
        Some(old.as_bytes()),
        new.as_bytes(),
        &Thresholds::default(),
    )
    .reasons
    .iter()
    .map(|r| r.to_string())
    .collect()
}

/// A notebook of the given code cells.
fn notebook(cells: &[&str]) -> String {
    let cells: Vec<serde_json::Value> = cells
        .iter()
        .map(|c| {
            let source: Vec<String> = c.lines().map(|l| format!("{l}\n")).collect();
            serde_json::json!({"cell_type": "code", "metadata": {}, "outputs": [], "source": source})
        })
        .collect();
    let doc =
        serde_json::json!({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5});
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

#[test]
fn embedded_code_is_judged_as_code() {
    let load = "import pandas as pd\nimport numpy as np";
    let clean = "df = pd.read_csv('sales.csv')\ndf = df.dropna(subset=['amount'])\ndf['month'] = df['date'].dt.month\ndf['amount'] = df['amount'].clip(lower=0)";
    let plot = "ax = df.plot(x='month', y='amount')\nax.set_title('Revenue')\nax.set_ylabel('EUR')\nax.grid(True)";
    let old = notebook(&[load, clean, plot]);
    // A cell cut to a note in any words, or to a stub.
    for cell in ["# sama seperti sebelumnya", "pass  # plotting unchanged"] {
        let why = reasons_of("a.ipynb", &old, &notebook(&[load, clean, cell]));
        assert!(!why.is_empty(), "{cell}");
    }
    // A cell rewritten shorter: its lines are code, not string values that
    // do nothing.
    let new = notebook(&[
        load,
        clean,
        "df.plot(x='month', y='amount', title='Revenue')",
    ]);
    let why = reasons_of("a.ipynb", &old, &new);
    assert!(why.is_empty(), "{why:?}");
    // A Markdown fence's body, an HTML page's inline script.
    let fence = |body: &str| {
        format!("# API\n\nSet up:\n\n```python\n{body}\n```\n\n## Errors\n\nEvery call raises `Error`.\nNetwork errors are retried.\n")
    };
    let old_md = fence("from acme import Client\nclient = Client(key)\nsession = client.session(timeout=30)\nsession.login()");
    let why = reasons_of("api.md", &old_md, &fence("# la fel ca mai sus"));
    assert!(!why.is_empty());
    let page = |body: &str| {
        format!("<!DOCTYPE html>\n<html>\n<body>\n<ul id=\"s\"></ul>\n<script>\nasync function refresh() {{\n{body}\n}}\nrefresh();\n</script>\n</body>\n</html>\n")
    };
    let old_page = page("  const res = await fetch('/api');\n  const data = await res.json();\n  document.getElementById('s').textContent = data.name;\n  console.log(data);");
    let why = reasons_of("index.html", &old_page, &page("  // kuten ennen"));
    assert!(!why.is_empty());
    let why = reasons_of(
        "index.html",
        &old_page,
        &page("  const { name } = await (await fetch('/api')).json();\n  document.getElementById('s').textContent = name;\n  console.log(name);"),
    );
    assert!(why.is_empty(), "{why:?}");
}
