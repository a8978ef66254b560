//! The build-output distiller: a build's output, reduced to at most
//! [`MAX_CHARS`] characters of actionable errors before a model sees it.
//!
//! One linear pass: ANSI colours are removed, each line is tested against
//! the table of error starts ([`PATTERNS`], one row per toolchain idiom),
//! and an error keeps the lines that follow it up to the next error, a blank
//! line or [`CONTEXT_LINES`]. Errors are deduplicated by their first line
//! and first location. When they do not all fit, context lines go first:
//! every error's headline and location line are kept while there are at
//! most [`GUARANTEED`] errors, so no file:line is lost.

use std::fmt::Write as _;
use std::sync::OnceLock;

use regex::{Regex, RegexSet};

/// The most characters a distillate holds, header included.
pub const MAX_CHARS: usize = 3000;

/// Up to this many distinct errors, every one keeps its headline and
/// location, whatever their context costs.
pub const GUARANTEED: usize = 10;

/// Lines kept after an error's headline.
const CONTEXT_LINES: usize = 6;

/// A headline or location line is cut to this many characters.
const LINE_CAP: usize = 220;

/// One idiom of a toolchain that starts an error report.
pub struct Pattern {
    /// The toolchains that print it.
    pub toolchain: &'static str,
    /// A regex matched against one line (colours removed).
    pub start: &'static str,
}

/// Every error start the distiller knows, as data.
pub const PATTERNS: &[Pattern] = &[
    Pattern {
        toolchain: "cargo/rustc",
        start: r"^error(\[E\d{4}\])?: ",
    },
    Pattern {
        toolchain: "cargo test",
        start: r"^thread '[^']*' panicked at ",
    },
    Pattern {
        toolchain: "cargo test",
        start: r"^test result: FAILED",
    },
    Pattern {
        toolchain: "gcc/clang/go/tsc(pretty)/eslint(unix)",
        start: r"^[^\s:][^:]*:\d+(:\d+)?: (fatal error|error|undefined reference)",
    },
    Pattern {
        toolchain: "make/ld",
        start: r"^(make(\[\d+\])?: \*\*\*|(\S*/)?ld: |[\w+.-]+: (fatal )?error: )",
    },
    Pattern {
        toolchain: "javac",
        start: r"^[^\s:][^:]*\.java:\d+: error: ",
    },
    Pattern {
        toolchain: "Maven/Gradle",
        start: r"^(\[ERROR\] |e: file://|e: [^\s:]+\.kts?:|FAILURE: |BUILD FAILED)",
    },
    Pattern {
        toolchain: "tsc/dotnet",
        start: r"^[^\s(][^(]*\(\d+,\d+\): error [A-Z]+\d+: ",
    },
    Pattern {
        toolchain: "eslint",
        start: r"^\s+\d+:\d+\s+error\s",
    },
    Pattern {
        toolchain: "npm",
        start: r"^npm (ERR!|error) ",
    },
    Pattern {
        toolchain: "go",
        start: r"^[^\s:]+\.go:\d+(:\d+)?: ",
    },
    Pattern {
        toolchain: "go",
        start: r"^(--- FAIL: |FAIL\s|panic: |# [\w./-]+$)",
    },
    Pattern {
        toolchain: "pytest/python",
        start: r"^(Traceback \(most recent call last\):|(FAILED|ERROR) \S+|E\s{3}|[\w./-]+\.py:\d+: \w+|\w+(Error|Exception): )",
    },
];

/// A distillate: the text for the model, and what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distilled {
    /// The header line and the body, at most [`MAX_CHARS`] characters.
    pub text: String,
    /// Distinct errors found.
    pub errors: usize,
    /// Whether the output reads as a successful build.
    pub success: bool,
}

fn set() -> &'static RegexSet {
    static SET: OnceLock<RegexSet> = OnceLock::new();
    SET.get_or_init(|| {
        // The table is static and tested: a bad row is a bug in this file.
        RegexSet::new(PATTERNS.iter().map(|p| p.start)).unwrap_or_else(|_| RegexSet::empty())
    })
}

fn location_re() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"([\w./\\-]+\.[A-Za-z]{1,6})"?(?::|\(|, line )(\d+)"#).ok())
        .as_ref()
}

/// Removes ANSI escape sequences (`ESC [ … letter`).
fn strip_ansi(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// Lines cheap to rule out before the regex set runs: every pattern needs
/// one of these somewhere in the line.
fn candidate(line: &str) -> bool {
    const NEEDLES: &[&str] = &[
        "rror",
        "RROR",
        "panic",
        "FAIL",
        "Traceback",
        "Exception",
        "ld: ",
        "make",
        "E   ",
        "e: ",
        "undefined",
        "# ",
        ".go:",
    ];
    NEEDLES.iter().any(|n| line.contains(n))
}

struct Block<'a> {
    head: &'a str,
    context: Vec<&'a str>,
    location: Option<String>,
}

fn cap(line: &str) -> &str {
    match line.char_indices().nth(LINE_CAP) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}

fn location_of(lines: &[&str]) -> Option<String> {
    let re = location_re()?;
    lines
        .iter()
        .find_map(|l| re.captures(l).map(|c| format!("{}:{}", &c[1], &c[2])))
}

/// Success markers, for an output without errors and without an exit code.
const SUCCESS: &[&str] = &[
    "Finished ",
    "test result: ok",
    "BUILD SUCCESS",
    "BUILD SUCCESSFUL",
    " passed",
    "Build succeeded",
    "\nok ",
    "PASS",
];

/// Distills `output` of a build or test command that exited with `exit`
/// (`None` when unknown, e.g. piped into `git fararoni distill`).
pub fn distill(output: &str, exit: Option<i32>) -> Distilled {
    let clean = strip_ansi(output);
    let set = set();
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Option<usize> = None;
    let mut seen = std::collections::HashSet::new();
    for line in clean.lines() {
        let line = line.trim_end_matches('\r');
        if candidate(line) && set.is_match(line) {
            blocks.push(Block {
                head: line,
                context: Vec::new(),
                location: None,
            });
            open = Some(blocks.len() - 1);
            continue;
        }
        if let Some(i) = open {
            let b = &mut blocks[i];
            if line.trim().is_empty() || b.context.len() >= CONTEXT_LINES {
                open = None;
            } else {
                b.context.push(line);
            }
        }
    }
    let mut errors: Vec<Block> = Vec::new();
    for mut b in blocks {
        let mut all = vec![b.head];
        all.extend(b.context.iter().copied());
        b.location = location_of(&all);
        if seen.insert((b.head.to_string(), b.location.clone())) {
            errors.push(b);
        }
    }
    let failed_exit = exit.is_some_and(|c| c != 0);
    let success = errors.is_empty()
        && !failed_exit
        && (exit == Some(0)
            || SUCCESS.iter().any(|m| clean.contains(m))
            || clean.trim().is_empty());
    let body = if success {
        "Build succeeded: no errors.\n".to_string()
    } else if errors.is_empty() {
        tail_body(&clean, exit)
    } else {
        error_body(&errors, exit)
    };
    let header = format!(
        "[DISTILLED BUILD OUTPUT] Original: {} chars → Distilled: {} chars\n",
        output.chars().count(),
        body.chars().count()
    );
    let mut text = header;
    text.push_str(&body);
    Distilled {
        text: truncate_chars(text, MAX_CHARS),
        errors: errors.len(),
        success,
    }
}

fn truncate_chars(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s,
    }
}

/// Room for the body once the header (at most ~90 characters) is written.
const BODY_BUDGET: usize = MAX_CHARS - 100;

fn error_body(errors: &[Block], exit: Option<i32>) -> String {
    let mut intro = format!("{} distinct error(s)", errors.len());
    if let Some(c) = exit {
        let _ = write!(intro, ", exit code {c}");
    }
    intro.push_str(":\n");
    // Pass 1: headlines and locations of as many errors as fit (all of them
    // up to GUARANTEED); pass 2: context lines while room is left.
    let essentials: Vec<String> = errors
        .iter()
        .map(|b| {
            let mut s = format!("- {}\n", cap(b.head.trim_start()));
            if let Some(loc) = &b.location {
                if !b.head.contains(loc.as_str()) {
                    let _ = writeln!(s, "  at {loc}");
                }
            }
            s
        })
        .collect();
    let mut used = intro.chars().count();
    let mut shown = 0;
    for e in &essentials {
        let n = e.chars().count();
        if used + n > BODY_BUDGET - 40 {
            break;
        }
        used += n;
        shown += 1;
    }
    let mut extra: Vec<String> = vec![String::new(); shown];
    'outer: for (i, b) in errors.iter().take(shown).enumerate() {
        for line in &b.context {
            let l = format!("  {}\n", cap(line.trim_end()));
            let n = l.chars().count();
            if used + n > BODY_BUDGET - 40 {
                break 'outer;
            }
            used += n;
            extra[i].push_str(&l);
        }
    }
    let mut out = intro;
    for i in 0..shown {
        out.push_str(&essentials[i]);
        out.push_str(&extra[i]);
    }
    if shown < errors.len() {
        let _ = writeln!(
            out,
            "… and {} more error(s) not shown",
            errors.len() - shown
        );
    }
    out
}

fn tail_body(clean: &str, exit: Option<i32>) -> String {
    let mut out = match exit {
        Some(c) => format!("The command failed (exit code {c}) and no known error pattern matched; its last lines:\n"),
        None => "No known error pattern matched and no success was reported; the last lines:\n".to_string(),
    };
    let lines: Vec<&str> = clean
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let mut tail = String::new();
    for l in lines.iter().rev() {
        let _ = writeln!(tail, "{}", cap(l));
    }
    let room = BODY_BUDGET.saturating_sub(out.chars().count());
    let skip = tail.chars().count().saturating_sub(room);
    out.extend(tail.chars().skip(skip));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for p in PATTERNS {
            assert!(Regex::new(p.start).is_ok(), "{}", p.start);
        }
        assert_eq!(set().len(), PATTERNS.len());
    }

    #[test]
    fn rustc_errors_keep_their_locations() {
        let out = "   Compiling x v0.1.0\nerror[E0425]: cannot find value `y` in this scope\n --> src/main.rs:3:13\n  |\n3 |     let x = y;\n  |             ^ not found\n\nerror: aborting due to 1 previous error\n";
        let d = distill(out, Some(101));
        assert!(!d.success);
        assert!(d.text.starts_with("[DISTILLED BUILD OUTPUT] Original: "));
        assert!(d.text.contains("src/main.rs:3"), "{}", d.text);
        assert!(d.text.contains("cannot find value `y`"));
    }

    #[test]
    fn success_is_success() {
        let d = distill("   Compiling x\n    Finished `dev` profile in 0.5s\n", None);
        assert!(d.success);
        assert!(d.text.contains("Build succeeded"));
        let d = distill("weird\n", Some(2));
        assert!(!d.success);
        assert!(d.text.contains("exit code 2"));
    }

    #[test]
    fn ten_errors_all_survive_a_huge_log() {
        let mut out = String::new();
        for i in 0..10 {
            out.push_str(&format!(
                "src/file{i}.c:{}:5: error: something {i} went wrong\n",
                i + 10
            ));
            for _ in 0..400 {
                out.push_str("    noise noise noise noise noise noise noise noise\n");
            }
        }
        let d = distill(&out, Some(2));
        assert!(d.text.chars().count() <= MAX_CHARS);
        for i in 0..10 {
            assert!(
                d.text.contains(&format!("src/file{i}.c:{}", i + 10)),
                "{i}: {}",
                d.text
            );
            assert!(d.text.contains(&format!("something {i} went wrong")));
        }
    }

    #[test]
    fn colours_are_removed() {
        let d = distill(
            "\u{1b}[0m\u{1b}[1m\u{1b}[38;5;9merror\u{1b}[0m: boom\n --> a.rs:1:1\n",
            Some(1),
        );
        assert!(d.text.contains("- error: boom"), "{}", d.text);
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        fn line() -> impl Strategy<Value = String> {
            prop_oneof![
                ".{0,80}",
                "[a-z/]{1,12}\\.(rs|c|py|go|ts|java|cs):[0-9]{1,4}:[0-9]{1,3}: error: .{0,40}",
                "error(\\[E[0-9]{4}\\])?: .{0,40}",
                "\\[ERROR\\] .{0,60}",
                "Traceback \\(most recent call last\\):",
                "\u{1b}\\[[0-9;]{0,6}m?.{0,20}",
                "  --> [a-z]{1,8}\\.rs:[0-9]{1,3}:[0-9]{1,2}",
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            #[test]
            fn never_panics_and_stays_bounded(lines in proptest::collection::vec(line(), 0..400), exit in proptest::option::of(-3i32..3)) {
                let input = lines.join("\n");
                let d = distill(&input, exit);
                prop_assert!(d.text.chars().count() <= MAX_CHARS);
                prop_assert!(d.text.starts_with("[DISTILLED BUILD OUTPUT] Original: "));
                if exit.is_some_and(|c| c != 0) {
                    prop_assert!(!d.success);
                }
            }

            #[test]
            fn arbitrary_text_never_panics(s in "\\PC{0,2000}") {
                let d = distill(&s, None);
                prop_assert!(d.text.chars().count() <= MAX_CHARS);
            }
        }

        #[test]
        fn up_to_ten_distinct_errors_all_survive() {
            let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(48));
            let strat = (
                1usize..=10,
                proptest::collection::vec("[a-z]{3,12}", 10),
                0usize..200,
            );
            runner
                .run(&strat, |(n, words, noise)| {
                    let mut out = String::new();
                    for (i, word) in words.iter().enumerate().take(n) {
                        out.push_str(&format!("src/m{i}.c:{}:1: error: {word} {i} is wrong because of a very long explanation that goes on and on and on for a while to use up the budget\n", i + 1));
                        for _ in 0..noise {
                            out.push_str("  | some context line of the compiler, repeated\n");
                        }
                    }
                    let d = distill(&out, Some(1));
                    for (i, word) in words.iter().enumerate().take(n) {
                        let loc = format!("src/m{i}.c:{}", i + 1);
                        prop_assert!(d.text.contains(&loc), "{} missing", loc);
                        let msg = format!("{word} {i} is wrong");
                        prop_assert!(d.text.contains(&msg), "{} missing", msg);
                    }
                    Ok(())
                })
                .map_err(|e| e.to_string())
                .expect("every error survives");
        }
    }
}
