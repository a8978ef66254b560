//! The build-output distiller: a build's output, reduced to at most
//! [`MAX_CHARS`] characters of actionable errors before a model sees it.
//!
//! One linear pass: ANSI colours are removed, each line is tested against
//! the table of error and warning starts ([`PATTERNS`], one row per
//! toolchain idiom). A report runs from its start to the next start; its
//! first lines after the headline are its context, and every location in
//! it (`file:line:col`, rustc's `-->` spans, `File "x.py", line N`,
//! `x.py:N: in f`, `file(L,C)`, stack frames) that points into the project
//! is its location list, whatever its distance from the headline. A Python
//! traceback is one report named by its exception, deepest frame first.
//! Reports are deduplicated by headline and first location; when they do
//! not all fit, context goes first, then warnings, and every error keeps
//! its headline and its locations.

use std::fmt::Write as _;
use std::sync::OnceLock;

use regex::{Regex, RegexSet};

/// The most characters a distillate holds, header included.
pub const MAX_CHARS: usize = 3000;

/// Up to this many distinct errors, every one keeps its headline and
/// location, whatever their context costs.
pub const GUARANTEED: usize = 10;

/// Lines of context kept after an error's headline.
const CONTEXT_LINES: usize = 6;

/// A headline or context line is cut to this many characters.
const LINE_CAP: usize = 220;

/// The most locations one report lists.
const LOCATIONS_PER_REPORT: usize = 12;

/// The most lines a report spans before it is closed (a runaway log with
/// one headline must not attach everything to it).
const REPORT_SPAN: usize = 400;

/// Whether a report is an error or a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Something a fixer must fix.
    Error,
    /// Something a fixer should look at when there is room.
    Warning,
}

/// One idiom of a toolchain that starts a report.
pub struct Pattern {
    /// The toolchains that print it.
    pub toolchain: &'static str,
    /// A regex matched against one line (colours removed).
    pub start: &'static str,
    /// What it starts.
    pub severity: Severity,
}

const fn err(toolchain: &'static str, start: &'static str) -> Pattern {
    Pattern {
        toolchain,
        start,
        severity: Severity::Error,
    }
}

const fn warn(toolchain: &'static str, start: &'static str) -> Pattern {
    Pattern {
        toolchain,
        start,
        severity: Severity::Warning,
    }
}

/// Every report start the distiller knows, as data.
pub const PATTERNS: &[Pattern] = &[
    err("cargo/rustc", r"^error(\[E\d{4}\])?: "),
    // Rust 1.89+ prints the thread id: `thread 'x' (4384) panicked at`.
    err("cargo test", r"^thread '[^']*'( \(\d+\))? panicked at "),
    err("cargo test", r"^test result: FAILED"),
    err(
        "gcc/clang/go/tsc(pretty)/eslint(unix)",
        r"^[^\s:][^:]*:\d+(:\d+)?:? (-|fatal error|error|undefined reference)",
    ),
    err(
        "make/ld",
        r"^(make(\[\d+\])?: \*\*\*|(\S*/)?ld: |collect2: |[\w+.-]+: (fatal )?error: )",
    ),
    err("javac", r"^[^\s:][^:]*\.java:\d+: error: "),
    err(
        "Maven/Gradle",
        r"^(\[ERROR\] |e: file://|e: [^\s:]+\.kts?:|FAILURE: |BUILD FAILED|> Task .* FAILED)",
    ),
    err(
        "tsc/dotnet/msbuild",
        r"^[^\s(][^(]*\(\d+,\d+\): error [A-Z]*\d+: ",
    ),
    err("eslint", r"^\s+\d+:\d+\s+error\s"),
    err("npm", r"^npm (ERR!|error) "),
    err("go", r"^[^\s:]+\.go:\d+(:\d+)?: "),
    err("go test", r"^\s+[\w./-]+_test\.go:\d+: "),
    err(
        "go",
        r"^(--- FAIL: |FAIL\s|panic: |# [\w./-]+$|fatal error: )",
    ),
    err(
        "pytest",
        r"^(_{3,} .+ _{3,}$|(FAILED|ERROR) \S+|E\s{3}|[\w./-]+\.py:\d+: (\w+|in \S+)?$)",
    ),
    err(
        "python",
        r"^(Traceback \(most recent call last\):|[\w.]*(Error|Exception|Exit|Interrupt): )",
    ),
    err(
        "node",
        r"^(\S+\.[cm]?[jt]sx?:\d+$|(Uncaught )?[A-Z]\w*(Error|Exception)\b)",
    ),
    err("java", r"^(Exception in thread |Caused by: )"),
    warn("cargo/rustc", r"^warning(\[\w+\])?: "),
    warn("gcc/clang/javac", r"^[^\s:][^:]*:\d+(:\d+)?: warning: "),
    warn(
        "tsc/dotnet",
        r"^[^\s(][^(]*\(\d+,\d+\): warning [A-Z]*\d+: ",
    ),
    warn("eslint", r"^\s+\d+:\d+\s+warning\s"),
    warn("pytest", r"^[\w./-]+\.py:\d+: \w*Warning: "),
    warn("Maven", r"^\[WARNING\] .*\.\w+:\[?\d+"),
];

/// Paths that are not the project's: toolchains, standard libraries,
/// installed packages. A location there is kept only when a report has
/// no other.
const FOREIGN_PATHS: &[&str] = &[
    "/rustc/",
    "/.cargo/registry/",
    "/.rustup/",
    "library/std/",
    "library/core/",
    "library/alloc/",
    "library/test/",
    "/usr/lib/",
    "/usr/local/lib/",
    "/usr/include/",
    "/usr/local/go/",
    "/go/pkg/mod/",
    "site-packages/",
    "dist-packages/",
    "/lib/python",
    "<frozen",
    "node:internal",
    "node_modules/",
    "/.pyenv/",
    "java.base/",
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

/// `path:L[:C]`, `path(L,C)`, `"path", line L` and `path:L` in frames.
fn location_re() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"([\w.@~/\\+-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,5})"?(?::(\d+)(?::(\d+))?|\((\d+),(\d+)\)|, line (\d+))"#,
        )
        .ok()
    })
    .as_ref()
}

/// Lines after a traceback that end it: the exception raised.
fn exception_re() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^[A-Za-z_][\w.]*(: |$)").ok())
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
        ".py:",
        "___",
        "arning",
        "ARNING",
        "Caused by",
        "collect2",
        "Exit",
        "Interrupt",
        ".js:",
        ".ts:",
        ".mjs:",
        ".cjs:",
    ];
    NEEDLES.iter().any(|n| line.contains(n))
}

/// A location found in a report: as written (`path:L[:C]`), and whether
/// it points into the project.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Loc {
    text: String,
    project: bool,
}

/// Every location in `line`.
fn locations_in(line: &str, out: &mut Vec<Loc>) {
    let Some(re) = location_re() else { return };
    for c in re.captures_iter(line) {
        let path = c.get(1).map_or("", |m| m.as_str());
        let path = path.strip_prefix("./").unwrap_or(path);
        // A URL's host or a version number is no file.
        if path.contains("://") || path.chars().next().is_some_and(|ch| ch.is_ascii_digit()) {
            continue;
        }
        let num = |i: usize| c.get(i).map(|m| m.as_str());
        let (l, col) = match (num(2), num(4), num(6)) {
            (Some(l), _, _) => (l, num(3)),
            (None, Some(l), _) => (l, num(5)),
            (None, None, Some(l)) => (l, None),
            _ => continue,
        };
        let text = match col {
            Some(col) => format!("{path}:{l}:{col}"),
            None => format!("{path}:{l}"),
        };
        let project = !FOREIGN_PATHS.iter().any(|f| path.contains(f));
        if !out.iter().any(|o| o.text == text) {
            out.push(Loc { text, project });
        }
    }
}

struct Report<'a> {
    severity: Severity,
    head: &'a str,
    /// For a Python traceback: the exception line that ends it.
    raised: Option<&'a str>,
    context: Vec<&'a str>,
    locations: Vec<Loc>,
    /// Lines seen since the headline.
    span: usize,
    /// Whether context is still being collected (until a blank line).
    taking: bool,
}

impl Report<'_> {
    fn is_traceback(&self) -> bool {
        self.head.starts_with("Traceback (most recent call last)")
    }

    /// The project's locations, deepest frame first for a traceback; the
    /// foreign ones only when there is no other.
    fn shown_locations(&self) -> Vec<&str> {
        let mut own: Vec<&str> = self
            .locations
            .iter()
            .filter(|l| l.project)
            .map(|l| l.text.as_str())
            .collect();
        if own.is_empty() {
            own = self.locations.iter().map(|l| l.text.as_str()).collect();
            own.truncate(2);
        }
        if self.is_traceback() {
            own.reverse();
        }
        own.truncate(LOCATIONS_PER_REPORT);
        own
    }

    fn headline(&self) -> &str {
        self.raised.unwrap_or(self.head)
    }
}

/// A separator line (`_ _ _`, `=====`, `-----`): no information.
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 8
        && t.chars()
            .all(|c| matches!(c, '_' | '=' | '-' | ' ' | '~' | '*'))
}

fn cap(line: &str) -> &str {
    match line.char_indices().nth(LINE_CAP) {
        Some((i, _)) => &line[..i],
        None => line,
    }
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

fn severity_of(line: &str) -> Option<Severity> {
    if !candidate(line) {
        return None;
    }
    let m = set().matches(line);
    let first = m.iter().next()?;
    PATTERNS.get(first).map(|p| p.severity)
}

fn scan(clean: &str) -> Vec<Report<'_>> {
    let mut reports: Vec<Report> = Vec::new();
    for line in clean.lines() {
        let line = line.trim_end_matches('\r');
        let open = reports.last_mut().filter(|r| r.span < REPORT_SPAN);
        // Inside a traceback, frames and their source lines are indented;
        // the first line that is not ends it (the exception raised).
        if let Some(r) = open {
            if r.is_traceback() && r.raised.is_none() {
                r.span += 1;
                if line.starts_with(' ') || line.trim().is_empty() {
                    locations_in(line, &mut r.locations);
                    if r.context.len() < CONTEXT_LINES * 2 && !line.trim().is_empty() {
                        r.context.push(line);
                    }
                    continue;
                }
                if exception_re().is_some_and(|re| re.is_match(line))
                    && !line.starts_with("During handling")
                    && !line.starts_with("The above exception")
                {
                    r.raised = Some(line);
                    r.taking = false;
                    continue;
                }
            }
        }
        if let Some(severity) = severity_of(line) {
            let mut locations = Vec::new();
            locations_in(line, &mut locations);
            reports.push(Report {
                severity,
                head: line,
                raised: None,
                context: Vec::new(),
                locations,
                span: 0,
                taking: true,
            });
            continue;
        }
        if let Some(r) = reports.last_mut().filter(|r| r.span < REPORT_SPAN) {
            r.span += 1;
            if r.locations.len() < LOCATIONS_PER_REPORT * 4 {
                locations_in(line, &mut r.locations);
            }
            if line.trim().is_empty() {
                r.taking = false;
            } else if r.taking && r.context.len() < CONTEXT_LINES && !is_rule(line) {
                r.context.push(line);
            }
        }
    }
    reports
}

/// Distills `output` of a build or test command that exited with `exit`
/// (`None` when unknown, e.g. piped into `git fararoni distill`).
pub fn distill(output: &str, exit: Option<i32>) -> Distilled {
    let clean = strip_ansi(output);
    let mut seen = std::collections::HashSet::new();
    let mut errors: Vec<Report> = Vec::new();
    let mut warnings: Vec<Report> = Vec::new();
    for r in scan(&clean) {
        let first = r.shown_locations().first().map(|s| s.to_string());
        if !seen.insert((r.headline().trim().to_string(), first)) {
            continue;
        }
        match r.severity {
            Severity::Error => errors.push(r),
            // A warning without a place (`warning: 3 warnings emitted`)
            // tells a fixer nothing.
            Severity::Warning if !r.locations.is_empty() => warnings.push(r),
            Severity::Warning => {}
        }
    }
    let failed_exit = exit.is_some_and(|c| c != 0);
    let success = errors.is_empty()
        && !failed_exit
        && (exit == Some(0)
            || SUCCESS.iter().any(|m| clean.contains(m))
            || clean.trim().is_empty());
    let body = if success {
        let mut b = "Build succeeded: no errors.\n".to_string();
        if !warnings.is_empty() {
            b.push_str(&report_body(
                &warnings,
                &[],
                "warning(s) worth a look",
                None,
            ));
        }
        b
    } else if errors.is_empty() {
        tail_body(&clean, exit)
    } else {
        report_body(&errors, &warnings, "distinct error(s)", exit)
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

/// A report's essentials: its headline and where.
fn essentials(r: &Report) -> String {
    let head = r.headline().trim_start();
    let mut s = match r.raised {
        Some(raised) => format!("- {} {}\n", r.head.trim(), cap(raised.trim())),
        None => format!("- {}\n", cap(head)),
    };
    let locs: Vec<&str> = r
        .shown_locations()
        .into_iter()
        .filter(|l| !head.contains(l))
        .collect();
    if !locs.is_empty() {
        let _ = writeln!(s, "  at {}", locs.join(", "));
    }
    s
}

fn report_body(main: &[Report], extra: &[Report], what: &str, exit: Option<i32>) -> String {
    let mut intro = format!("{} {what}", main.len());
    if let Some(c) = exit {
        let _ = write!(intro, ", exit code {c}");
    }
    intro.push_str(":\n");
    // Pass 1: headlines and locations of as many reports as fit (errors
    // first, then warnings); pass 2: context lines while room is left.
    let budget = BODY_BUDGET - 40;
    let all: Vec<&Report> = main.iter().chain(extra.iter()).collect();
    let mut used = intro.chars().count();
    let mut parts: Vec<String> = Vec::new();
    for r in &all {
        let e = essentials(r);
        let n = e.chars().count();
        if used + n > budget {
            break;
        }
        used += n;
        parts.push(e);
    }
    let shown = parts.len();
    let mut more: Vec<String> = vec![String::new(); shown];
    'outer: for (i, r) in all.iter().take(shown).enumerate() {
        let head = r.headline();
        for line in r.context.iter().filter(|l| l.trim() != head.trim()) {
            let l = format!("  {}\n", cap(line.trim_end()));
            let n = l.chars().count();
            if used + n > budget {
                break 'outer;
            }
            used += n;
            more[i].push_str(&l);
        }
    }
    let mut out = intro;
    let mut said_warnings = false;
    for i in 0..shown {
        if i == main.len() && !said_warnings {
            out.push_str("and warning(s):\n");
            said_warnings = true;
        }
        out.push_str(&parts[i]);
        out.push_str(&more[i]);
    }
    if shown < main.len() {
        let _ = writeln!(out, "… and {} more not shown", main.len() - shown);
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
