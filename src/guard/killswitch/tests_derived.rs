//! An edit judged from its changed lines (the new side derived from the
//! old one, scans joined), on two threads or on one, gives the report of
//! judging both sides whole.

use super::*;

/// A file of `n` small Rust functions, the one numbered `stub` gutted.
fn functions(n: usize, stub: Option<usize>) -> String {
    (0..n)
        .map(|i| match stub {
            Some(s) if s == i => format!("fn f{i}(x: u64) -> u64 {{\n    todo!()\n}}\n"),
            _ => format!("fn f{i}(x: u64) -> u64 {{\n    x * {i} + {}\n}}\n", i % 97),
        })
        .collect()
}

#[test]
fn edits_judged_from_their_changed_lines_judge_as_whole_files() {
    // The new side derived from the old one (an edit that leaves most
    // of the file) must give the report of measuring it whole: the
    // ratios, the counts and every reason, placeholders at their lines.
    let t = Thresholds::default();
    let old = functions(60, None);
    let crlf = old.replace('\n', "\r\n");
    let mut pairs: Vec<(String, String)> = vec![
        (old.clone(), old.replacen("x * 7 + 7", "x * 7 + 8", 1)),
        (
            old.clone(),
            old.replacen("    x * 7 + 7\n", "    // ... existing code ...\n", 1),
        ),
        (
            old.clone(),
            old.replacen("    x * 50 + 50\n", "    // ... existing code ...\n", 1),
        ),
        (old.clone(), old.replacen("}\n", "}\n}\n// ...\n", 1)),
        (old.clone(), format!("{old}// ... rest of the code\n")),
        (old.clone(), format!("// ... rest of the code\n{old}")),
        (
            old.clone(),
            old.replacen("fn f30", "// rest unchanged\nfn f30", 1),
        ),
        (old.clone(), functions(60, Some(30))),
        (
            old.clone(),
            old.replacen("x * 3 + 3\n}\n", "x * 3 + 3\n", 1),
        ),
        (
            old.clone(),
            old.replacen("x * 3 + 3", "x\u{a0}*\u{200b} 3 + 3", 1),
        ),
        (
            old.clone(),
            old.replacen("    x * 9 + 9\n", "    \u{200b}\n    //\n", 1),
        ),
        (old.clone(), old[..old.len() - 10].to_string()),
        (old.clone(), old.replacen('\n', "\r\n", 1)),
        (crlf.clone(), crlf.replacen("x * 4 + 4", "x * 4 + 5", 1)),
        (
            crlf.clone(),
            crlf.replacen("x * 4 + 4\r\n", "x * 4 + 4\n", 1),
        ),
        (
            format!("{old}// ... rest of the code\n"),
            format!("{old}// ... rest of the code\nlet y = 1;\n"),
        ),
    ];
    let dup = format!("{old}{old}");
    pairs.push((dup.clone(), dup.replacen("x * 5 + 5", "x * 5 + 6", 2)));
    pairs.push((
        old.clone(),
        format!("{}{}", &old[..old.len() / 2], &old[old.len() / 2 + 200..]),
    ));
    for (name, (a, b)) in ["lib.rs", "a.py", "a.json", "notes.txt", "A.java", "a.js"]
        .iter()
        .flat_map(|n| pairs.iter().map(move |p| (*n, p)))
    {
        let lang = lang::from_path(name).expect("a language");
        for (x, y) in [(a, b), (b, a)] {
            let none = Elsewhere::default();
            let whole = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, false, &none);
            let derived = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, true, &none);
            assert_eq!(derived, whole, "{name}: {x:?} -> {y:?}");
        }
    }
}

/// Tokens that change how code is read (quotes, comment markers,
/// braces, a regex, raw and verbatim strings, stub statements,
/// placeholders, invisible and wide characters), for random edits.
const TOKENS: &[&str] = &[
    "",
    "}",
    "{",
    ";",
    "\"",
    "'",
    "`",
    "/",
    "/*",
    "*/",
    "//",
    "#",
    "\n",
    "\r\n",
    "todo!()",
    "pass",
    "raise NotImplementedError",
    "throw new UnsupportedOperationException();",
    "// ... existing code ...",
    "# rest unchanged",
    "end",
    "def f():\n",
    "fn g() {\n",
    "\u{a0}",
    "x = 1 / 2; }\n",
    "return /}/;\n",
    "'}'",
    "r#\"{\"#",
    "@\"}\"\"\"",
    " ",
    "  ",
    "\t",
    "def ",
    "fn ",
    "function ",
    "class ",
    "=>",
    "->",
    "=",
    ":",
    "(",
    ")",
    "<",
    ">",
    "é",
    "日",
    "r#\"",
    "@\"",
    "\"\"\"",
    "'''",
    "do",
    "if ",
    "x",
    "return",
    "[",
    "]",
    ",",
    "$",
    "\\",
    "<!--",
    "-->",
    "--",
    "#[",
    "//!",
    "`${",
    "}`",
    "\u{200b}",
    "\u{feff}",
    "\r",
    "::",
    ".",
    "?",
    "!",
];

/// A seeded xorshift: `next(n)` is below `n`; `FARARONI_TEST_SEED`
/// replaces the seed.
fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut seed = std::env::var("FARARONI_TEST_SEED")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(seed);
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    }
}

/// `i`, moved back to a character boundary of `s`.
fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Random edits of every file of the corpus — a range replaced by a
/// token that changes how code is read (quotes, comment markers,
/// braces, a regex, stub statements, placeholders) or by a piece of the
/// same case's new file — judged from their changed lines and whole:
/// the same report, both ways (`FARARONI_TEST_EDITS` per file, 6;
/// `FARARONI_TEST_SEED`).
#[test]
fn random_edits_of_the_corpus_judge_as_whole_files() {
    let t = Thresholds::default();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/guard/corpus");
    let mut next = rng(0x2545_F491_4F6C_DD1D);
    let mut judged = 0;
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus")
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains(".old."))
        .collect();
    files.sort();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (Ok(old), Ok(other)) = (
            std::fs::read_to_string(&path),
            std::fs::read_to_string(path.to_string_lossy().replace(".old.", ".new.")),
        ) else {
            continue;
        };
        let lang = lang::from_path(&name).unwrap_or_else(|| lang::sniff(old.as_bytes()));
        for _ in 0..std::env::var("FARARONI_TEST_EDITS")
            .ok()
            .and_then(|e| e.parse().ok())
            .unwrap_or(6)
        {
            let a = floor(&old, next(old.len() + 1));
            let b = floor(&old, (a + next(200)).min(old.len())).max(a);
            let piece = match next(2) {
                0 => TOKENS[next(TOKENS.len())].to_string(),
                _ => {
                    let c = floor(&other, next(other.len() + 1));
                    other[c..floor(&other, (c + next(200)).min(other.len()))].to_string()
                }
            };
            let new = format!("{}{piece}{}", &old[..a], &old[b..]);
            for (x, y) in [(&old, &new), (&new, &old)] {
                let whole = judge(
                    lang,
                    Some(x.as_bytes()),
                    y.as_bytes(),
                    &t,
                    false,
                    &Elsewhere::default(),
                );
                let derived = judge(
                    lang,
                    Some(x.as_bytes()),
                    y.as_bytes(),
                    &t,
                    true,
                    &Elsewhere::default(),
                );
                assert_eq!(derived, whole, "{name}: {x:?} -> {y:?}");
                judged += 1;
            }
        }
    }
    assert!(judged > 5_000, "{judged}");
}

/// Text made of tokens that change how code is read, edited at random
/// in every language: never a panic, and the same report judged from
/// the changed lines as whole (`FARARONI_TEST_EDITS`, 100 texts;
/// `FARARONI_TEST_SEED`).
#[test]
fn random_token_soup_judges_as_whole_files_in_every_language() {
    let t = Thresholds::default();
    let mut next = rng(99);
    let names = [
        "a.rs", "a.py", "a.rb", "a.lua", "a.ex", "A.java", "a.js", "a.ts", "A.cs", "a.go", "a.kt",
        "a.scala", "a.php", "a.swift", "a.c", "a.json", "a.toml", "a.yaml", "a.txt", "a.dart",
        "a.cpp",
    ];
    let n: usize = std::env::var("FARARONI_TEST_EDITS")
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(100);
    for _ in 0..n {
        let len = next(400);
        let old: String = (0..len).map(|_| TOKENS[next(TOKENS.len())]).collect();
        let mut new = old.clone();
        for _ in 0..1 + next(3) {
            let a = floor(&new, next(new.len() + 1));
            let b = floor(&new, (a + next(30)).min(new.len())).max(a);
            let ins: String = (0..next(6)).map(|_| TOKENS[next(TOKENS.len())]).collect();
            new = format!("{}{ins}{}", &new[..a], &new[b..]);
        }
        for name in names {
            let Some(lang) = lang::from_path(name) else {
                continue;
            };
            let w = judge(
                lang,
                Some(old.as_bytes()),
                new.as_bytes(),
                &t,
                false,
                &Elsewhere::default(),
            );
            let d = judge(
                lang,
                Some(old.as_bytes()),
                new.as_bytes(),
                &t,
                true,
                &Elsewhere::default(),
            );
            assert_eq!(w, d, "{name}: {old:?} -> {new:?}");
        }
    }
}

#[test]
fn large_pairs_studied_on_two_threads_judge_as_small_ones() {
    // Past the threshold, each side is measured and scanned on its own
    // thread: the verdicts must be those of the one-thread path.
    let t = Thresholds::default();
    for n in [40, 20_000] {
        let old = functions(n, None);
        assert_eq!(old.len() >= PARALLEL_BYTES, n > 40, "{n}");
        let stubbed = functions(n, Some(n / 2));
        let r = check_file("lib.rs", Some(old.as_bytes()), stubbed.as_bytes(), &t);
        assert!(r.blocked(), "{n}: {:?}", r.reasons);
        assert!(
            r.reasons.iter().any(|x| matches!(x, Reason::Stubbed { functions } if functions == &[format!("f{}", n / 2)])),
            "{n}: {:?}",
            r.reasons
        );
        let edited = old.replacen("x * 7 + 7", "x * 7 + 8", 1);
        assert_ne!(edited, old);
        let r = check_file("lib.rs", Some(old.as_bytes()), edited.as_bytes(), &t);
        assert!(!r.blocked(), "{n}: {:?}", r.reasons);
        let cut = &old[..old.len() / 3];
        let r = check_file("lib.rs", Some(old.as_bytes()), cut.as_bytes(), &t);
        assert!(r.blocked(), "{n}: a third left");
        let elided = old.replacen("    x * 7 + 7\n", "    // ... existing code ...\n", 1);
        let r = check_file("lib.rs", Some(old.as_bytes()), elided.as_bytes(), &t);
        assert!(r.blocked(), "{n}: placeholder: {:?}", r.reasons);
    }
}

/// Edits all through a file (every k-th line changed: too spread out for
/// one shared beginning and ending, so the new side is derived from the
/// changed parts between stretches both sides share) judge as whole
/// files, whatever the change does to how the unchanged stretches read:
/// a string or comment opened in an unchanged stretch and closed in a
/// changed one, a change that turns the rest into a comment or a string,
/// CRLF endings, multi-byte characters, changes at the very start and
/// end, one side much shorter than the other.
#[test]
fn edits_all_through_a_file_judge_as_whole_files() {
    let t = Thresholds::default();
    // A string and a block comment that open on one line and close a few
    // lines later, in every function: an edit of the closing line leaves
    // them open across the unchanged stretch after it.
    let base: String = (0..100)
        .map(|i| {
            format!(
                "fn f{i}(x: u64) -> u64 {{\n    let s = \"é{i}\n    {{\";\n    /* {i}\n    }} */\n    x * {i} + {}\n}}\n",
                i % 97
            )
        })
        .collect();
    let lines: Vec<&str> = base.split_inclusive('\n').collect();
    let every = |k: usize, from: usize, f: &dyn Fn(&str) -> String| -> String {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i >= from && (i - from).is_multiple_of(k) {
                    f(l)
                } else {
                    l.to_string()
                }
            })
            .collect()
    };
    let mut pairs: Vec<String> = Vec::new();
    for k in [5, 13, 40] {
        for from in [0, 3] {
            pairs.extend([
                every(k, from, &|l| l.replace("x *", "x /")),
                every(k, from, &|l| l.replace('"', "")),
                every(k, from, &|l| l.replace("*/", "")),
                every(k, from, &|l| format!("/* {l}")),
                every(k, from, &|l| format!("\"{l}")),
                every(k, from, &|l| format!("r#\"{l}")),
                every(k, from, &|l| l.replace('\n', "\r\n")),
                every(k, from, &|l| l.replace('{', "")),
                every(k, from, &|l| l.replace('}', "}}")),
                every(k, from, &|_| "    todo!()\n".to_string()),
                every(k, from, &|_| "    // ... existing code ...\n".to_string()),
                every(k, from, &|l| l.replace("é", "日本")),
                every(k, from, &|_| String::new()),
                every(k, from, &|l| format!("{l}{l}{l}")),
            ]);
        }
    }
    let spread = every(7, 1, &|l| l.replace("x *", "x -"));
    pairs.push(format!("// header\n{spread}// footer"));
    pairs.push(spread[..spread.len() / 3].to_string());
    pairs.push(format!("{spread}{spread}"));
    pairs.push(base.replace('\n', "\r\n"));
    // A placeholder the old side has once, near its start, added all
    // through: its first line is in a stretch both sides share.
    let noted = format!("fn g() {{\n    // ... existing code ...\n}}\n{base}");
    let noted_more = format!(
        "fn g() {{\n    // ... existing code ...\n}}\n{}",
        every(9, 2, &|_| "    // ... existing code ...\n".to_string())
    );
    let mut derived = 0;
    for name in ["lib.rs", "A.java", "a.js", "a.py", "A.cs", "a.go"] {
        let lang = lang::from_path(name).expect("a language");
        let both_ways = pairs
            .iter()
            .flat_map(|new| [(&base, new), (new, &base)])
            .chain([(&noted, &noted_more), (&noted_more, &noted)]);
        {
            for (x, y) in both_ways {
                let none = Elsewhere::default();
                let whole = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, false, &none);
                let report = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, true, &none);
                assert_eq!(report, whole, "{name}: {x:?} -> {y:?}");
                let (a, b) = (x.as_bytes(), y.as_bytes());
                let one = crate::guard::measure::Delta::of(a, b).worth_it(a.len(), b.len());
                derived += usize::from(!one && crate::guard::measure::hunks(a, b).is_some());
            }
        }
    }
    // Most pairs took the changed parts' way.
    assert!(derived > 250, "{derived}");
}
