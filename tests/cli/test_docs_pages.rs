//! The documentation a newcomer reads (README.md, docs/, CONTRIBUTING.md,
//! ARCHITECTURE.md) cannot drift from the code: the intent and settings
//! tables are generated from their tables in `src/` (`FARARONI_BLESS=1`
//! rewrites them), exit codes are those of `src/exit.rs`, every relative
//! link and anchor resolves, every `console` example runs against the real
//! binary with the output shown, README's install path guards a Claude
//! Code session as written, and nothing says how the work on the project
//! was organised.

use std::path::{Path, PathBuf};

use git_fararoni::policy::Risk;
use git_fararoni::router::intents::table::{Check, Flag, Row, When, ROWS};
use git_fararoni::settings::{Kind, SETTINGS};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// The pages the checks cover, relative to the crate: README.md,
/// CONTRIBUTING.md, ARCHITECTURE.md and every `docs/*.md`.
fn pages() -> Vec<String> {
    let mut out: Vec<String> = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

// ───────────────────────── generated tables ─────────────────────────

fn begin(name: &str) -> String {
    format!("<!-- BEGIN GENERATED {name}:")
}

fn end(name: &str) -> String {
    format!("<!-- END GENERATED {name} -->")
}

/// `text` with the lines between the markers of `name` replaced by `body`;
/// `None` when the markers are missing.
fn splice(text: &str, name: &str, body: &str) -> Option<String> {
    let b = text.find(&begin(name))?;
    let after_begin = b + text[b..].find('\n')? + 1;
    let e = text[after_begin..].find(&end(name))? + after_begin;
    Some(format!("{}{}{}", &text[..after_begin], body, &text[e..]))
}

/// Compares the generated block `name` of `rel` with `body`; rewrites it
/// under `FARARONI_BLESS`, else records `rel` as stale.
fn check_block(rel: &str, name: &str, body: &str, stale: &mut Vec<String>) {
    let text = read(rel);
    let fresh = splice(&text, name, body)
        .unwrap_or_else(|| panic!("{rel} has no `{name}` block (its BEGIN/END markers)"));
    if fresh != text {
        if std::env::var_os("FARARONI_BLESS").is_some() {
            std::fs::write(root().join(rel), fresh).expect("bless");
        } else {
            stale.push(format!("{rel} ({name})"));
        }
    }
}

/// A table cell: pipes escaped, so a doc line cannot break the table.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn flag(f: Flag) -> &'static str {
    match f {
        Flag::Force => "to force",
        Flag::Hard => "to lose the changes",
        Flag::Staged => "for the index",
        Flag::Previous => "for the previous commit",
    }
}

fn when(w: When) -> String {
    match w {
        When::Always => String::new(),
        When::If(f) => format!("when asked {}", flag(f)),
        When::Unless(_) => "otherwise".into(),
        When::Paths => "with paths".into(),
        When::NoPaths => "without paths".into(),
        When::OnePath => "one path".into(),
        When::ManyPaths => "several paths".into(),
        When::Count => "with a count".into(),
        When::NoCount => "without a count".into(),
        When::Name => "with a name".into(),
        When::NoName => "without a name".into(),
        When::From => "with a start point".into(),
        When::NoFrom => "without a start point".into(),
    }
}

fn check(c: Check) -> &'static str {
    match c {
        Check::None => "",
        Check::Undoable => "HEAD must have a parent; ",
        Check::Unpublished => "refused when a remote-tracking branch holds HEAD; ",
        Check::LocalBranch => "`{name}` must be a local branch; ",
    }
}

fn intent_row(r: &Row) -> String {
    let steps: Vec<String> = r
        .steps
        .iter()
        .map(|(w, argv)| {
            let cond = when(*w);
            let argv = format!("`{}`", argv.join(" "));
            if cond.is_empty() {
                argv
            } else {
                format!("*{cond}:* {argv}")
            }
        })
        .collect();
    let verdict = match r.risk {
        Risk::Remote | Risk::Destructive | Risk::UnsafeShell => " (refused)",
        _ => "",
    };
    format!(
        "| `{}` | {} | {}{} | {}{} |\n",
        r.intent.as_str(),
        cell(r.does),
        check(r.check),
        cell(&steps.join("; ")),
        r.risk.as_str(),
        verdict
    )
}

fn intents_block() -> String {
    let mut s = String::from("| intent | what it does | runs | risk |\n|---|---|---|---|\n");
    for r in ROWS {
        s.push_str(&intent_row(r));
    }
    s
}

fn kind(k: Kind) -> String {
    match k {
        Kind::Choice(words) => {
            let w: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
            format!("one of {}", w.join(", "))
        }
        other => other.name().to_string(),
    }
}

fn settings_block() -> String {
    let mut s = String::from(
        "| git config | environment | type | default | what it does |\n|---|---|---|---|---|\n",
    );
    for st in SETTINGS {
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            st.key.map_or("—".to_string(), |k| format!("`{k}`")),
            st.env,
            cell(&kind(st.kind)),
            st.default.map_or("—".to_string(), |d| format!("`{d}`")),
            cell(st.doc)
        ));
    }
    s.push_str("\nThe floors (a weaker value is refused and the floor used):\n\n");
    s.push_str("| git config | floor | why the floor |\n|---|---|---|\n");
    for st in SETTINGS {
        if let Some(b) = st.bound {
            s.push_str(&format!(
                "| `{}` | {} | {} |\n",
                st.name(),
                b.display(),
                cell(st.why)
            ));
        }
    }
    s
}

#[test]
fn test_docs_pages_generated_tables_are_fresh() {
    let mut stale = Vec::new();
    check_block("docs/ask.md", "intents", &intents_block(), &mut stale);
    check_block(
        "docs/configuration.md",
        "settings",
        &settings_block(),
        &mut stale,
    );
    assert!(
        stale.is_empty(),
        "stale generated tables (run `FARARONI_BLESS=1 cargo test --test cli test_docs_pages`): {stale:?}"
    );
}

/// The part of `text` from the heading `from` to the next heading of the
/// same or a higher level.
fn section<'a>(text: &'a str, from: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no section {from:?}"));
    let level = from.chars().take_while(|c| *c == '#').count();
    let rest = &text[start + from.len()..];
    let stop = rest
        .match_indices("\n#")
        .find(|(i, _)| {
            let hashes = rest[i + 1..].chars().take_while(|c| *c == '#').count();
            hashes <= level && rest[i + 1 + hashes..].starts_with(' ')
        })
        .map_or(rest.len(), |(i, _)| i);
    &rest[..stop]
}

#[test]
fn test_docs_pages_every_intent_has_phrasings_and_a_row() {
    let page = read("docs/ask.md");
    let phrasings = section(&page, "### How people say them");
    let runs = section(&page, "### What each one runs");
    // Every intent the table can produce, and every intent the corpus
    // labels, is shown with examples and with what it runs.
    let corpus = read("fixtures/router/intents-corpus.jsonl");
    let mut names: Vec<String> = ROWS.iter().map(|r| r.intent.as_str().to_string()).collect();
    for line in corpus
        .lines()
        .filter(|l| l.contains("\"kind\": \"positive\""))
    {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        names.push(v["expect"].as_str().expect("intent").to_string());
    }
    names.sort();
    names.dedup();
    assert!(names.len() >= 29, "{names:?}");
    for name in &names {
        let tick = format!("`{name}`");
        assert!(
            phrasings
                .lines()
                .any(|l| l.starts_with('|') && l.contains(&tick)),
            "docs/ask.md: no example of {tick}"
        );
        assert!(
            runs.contains(&format!("| {tick} |")),
            "docs/ask.md: no row for {tick}"
        );
    }
}

#[test]
fn test_docs_pages_exit_codes_are_those_of_src_exit() {
    let page = read("docs/exit-codes.md");
    let src = read("src/exit.rs");
    let mut codes = 0;
    for line in src.lines() {
        let Some(rest) = line.trim().strip_prefix("pub const ") else {
            continue;
        };
        let code = rest
            .rsplit('=')
            .next()
            .expect("value")
            .trim()
            .trim_end_matches(';');
        codes += 1;
        assert!(
            page.contains(&format!("\n| {code} |")),
            "docs/exit-codes.md has no row for exit code {code}"
        );
    }
    assert!(codes >= 6, "read {codes} codes from src/exit.rs");
}

#[test]
fn test_docs_pages_readme_is_short_and_keeps_the_ci_test_command() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines (at most 250)");
    let all: Vec<&str> = readme.lines().collect();
    let at = all
        .iter()
        .position(|l| l.trim() == "Run the whole test suite:")
        .expect("README.md keeps \"Run the whole test suite:\"");
    let mut rest = all[at + 1..].iter().filter(|l| !l.trim().is_empty());
    assert_eq!(rest.next().map(|l| l.trim()), Some("```sh"));
    let command = rest.next().expect("the test command").trim();
    let ci = read(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == command),
        "`{command}` (README's test command) is not what .ci/run runs"
    );
    // The newcomer's path: install, then guard a Claude Code session.
    for step in [
        "cargo install",
        "hooks install --agent claude",
        "undo --session",
    ] {
        assert!(readme.contains(step), "README.md lost `{step}`");
    }
}

// ───────────────────────── links ─────────────────────────

/// GitHub's anchor for a heading.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every `](target)` of `text` outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let tail = &rest[i + 2..];
            let Some(j) = tail.find(')') else { break };
            out.push(tail[..j].to_string());
            rest = &tail[j..];
        }
    }
    out
}

#[test]
fn test_docs_pages_relative_links_and_anchors_resolve() {
    let mut broken = Vec::new();
    for rel in pages() {
        let Ok(text) = std::fs::read_to_string(root().join(&rel)) else {
            broken.push(format!("{rel} is missing"));
            continue;
        };
        let dir = Path::new(&rel).parent().unwrap_or(Path::new(""));
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target: PathBuf = if file.is_empty() {
                PathBuf::from(&rel)
            } else {
                dir.join(file)
            };
            let path = root().join(&target);
            if !path.exists() {
                broken.push(format!("{rel}: {link} (no {})", target.display()));
                continue;
            }
            if !anchor.is_empty() {
                let body = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&body).iter().any(|a| a == anchor) {
                    broken.push(format!("{rel}: {link} (no heading `#{anchor}`)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

// ───────────────────────── runnable examples ─────────────────────────

/// The `console` blocks of a page, run in order in one shell (so a `cd`
/// or a file made in one block holds in the next): each `$ ` line is a
/// command, the lines after it what it prints (stdout and stderr as they
/// interleave). In the expected text, `[..]` matches anything within a
/// line and a line `...` any number of lines.
struct Example {
    page: String,
    /// (line of the command, the command, what it prints)
    steps: Vec<(usize, String, Vec<String>)>,
}

fn examples(rel: &str, text: &str) -> Example {
    let mut ex = Example {
        page: rel.to_string(),
        steps: Vec::new(),
    };
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if !inside {
            inside = line.trim() == "```console";
        } else if line.starts_with("```") {
            inside = false;
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            ex.steps.push((n + 1, cmd.to_string(), Vec::new()));
        } else if let Some((_, _, expected)) = ex.steps.last_mut() {
            expected.push(line.to_string());
        }
    }
    ex
}

/// Whether `line` matches `pattern`, where `[..]` matches any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let Some(mut rest) = line.strip_prefix(parts[0]) else {
        return false;
    };
    let last = parts[parts.len() - 1];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether `lines` match `expected`, where a line `...` matches any run
/// of lines.
fn lines_match(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((first, rest)) => lines
            .split_first()
            .is_some_and(|(l, more)| line_matches(first, l) && lines_match(rest, more)),
    }
}

const STEP_MARK: &str = "@@fararoni-docs-step@@";

fn run_example(ex: &Example) -> Result<(), String> {
    let r = crate::common::TestRepo::empty_dir();
    let mut script = String::from("exec 2>&1\n");
    for (_, cmd, _) in &ex.steps {
        script.push_str(&format!("echo '{STEP_MARK}'\n{cmd}\n"));
    }
    let mut sh = std::process::Command::new("bash");
    r.env(&mut sh);
    let out: crate::common::Out = sh
        .args(["--norc", "--noprofile", "-c", &script])
        .output()
        .expect("bash runs")
        .into();
    let printed: Vec<&str> = out
        .stdout
        .split(&format!("{STEP_MARK}\n"))
        .skip(1)
        .collect();
    if printed.len() != ex.steps.len() {
        return Err(format!("the example stopped early:\n{out}"));
    }
    for ((line, cmd, expected), got) in ex.steps.iter().zip(printed) {
        let got_lines: Vec<&str> = got.lines().map(str::trim_end).collect();
        let expected: Vec<String> = expected.iter().map(|l| l.trim_end().to_string()).collect();
        // A blank line before the next command is layout, not output.
        let mut expected = expected;
        while expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        if !lines_match(&expected, &got_lines) {
            return Err(format!(
                "line {line}: `$ {cmd}` printed:\n{}\n--- the page shows:\n{}",
                got_lines.join("\n"),
                expected.join("\n")
            ));
        }
    }
    Ok(())
}

#[test]
fn test_docs_pages_console_examples_run_as_shown() {
    let all: Vec<Example> = pages()
        .iter()
        .map(|rel| examples(rel, &read(rel)))
        .filter(|e| !e.steps.is_empty())
        .collect();
    assert!(
        all.iter()
            .any(|e| e.page == "README.md" && e.steps.len() >= 10),
        "README.md's tour is made of `console` blocks"
    );
    let mut failed = Vec::new();
    for ex in &all {
        if let Err(e) = run_example(ex) {
            failed.push(format!("{}: {e}", ex.page));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn test_docs_pages_example_matcher() {
    assert!(line_matches("[main [..]] x", "[main 3516237] x"));
    assert!(!line_matches("[main [..]] x", "[main 3516237] y"));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]bc", "abx"));
    let lines = ["a", "b", "c"];
    let exp = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    assert!(lines_match(&exp(&["a", "...", "c"]), &lines));
    assert!(lines_match(&exp(&["...", "a", "b", "c"]), &lines));
    assert!(!lines_match(&exp(&["a", "c"]), &lines));
    assert!(!lines_match(&exp(&["a", "b"]), &lines));
}

// ───────────────────────── how the work was organised ─────────────────────────

/// References to how the work on the project was organised: numbered
/// sessions or work periods, issue, ticket or pull-request numbers, and
/// who did what. `--session 1` (the option) and "session id" are not.
fn organisation() -> regex::Regex {
    regex::Regex::new(
        r"(?i)(?:^|[^-\w])(sessions? ?[-#]?\d|issues? ?#?\d|tickets?\b|work[- ]periods?|period ?\d|sprint ?\d|pull request ?#?\d|\bPR ?#\d|\bthe lead\b(?:[^-]|$)|helper sessions?)",
    )
    .expect("regex")
}

/// The comments of a Rust source, as (line, text): `//` to the end of the
/// line and `/* … */`, outside strings, raw strings and char literals.
fn rust_comments(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(b.len(), |e| i + e);
                out.push((line, src[i..end].to_string()));
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                let text = &src[i..end];
                for (k, l) in text.lines().enumerate() {
                    out.push((line + k, l.to_string()));
                }
                line += text.matches('\n').count();
                i = end;
            }
            b'r' if (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                && matches!(b.get(i + 1), Some(b'#' | b'"')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let end = src[start..]
                    .find(&close)
                    .map_or(b.len(), |e| start + e + close.len());
                line += src[i..end].matches('\n').count();
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let end = (j + 1).min(b.len());
                line += src[i..end].matches('\n').count();
                i = end;
            }
            b'\'' => {
                // A char literal ('x', '\n', '"'); otherwise a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i += src[i + 2..].find('\'').map_or(b.len() - i, |e| e + 3);
                } else {
                    let ch = src[i + 1..].chars().next().map_or(0, char::len_utf8);
                    if b.get(i + 1 + ch) == Some(&b'\'') {
                        i += ch + 2;
                    } else {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn test_docs_pages_say_nothing_of_how_the_work_was_organised() {
    let re = organisation();
    let mut hits = Vec::new();
    for rel in pages() {
        for (n, line) in read(&rel).lines().enumerate() {
            if let Some(m) = re.find(line) {
                hits.push(format!(
                    "{rel}:{}: {:?} in {line}",
                    n + 1,
                    m.as_str().trim()
                ));
            }
        }
    }
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("read source");
        let rel = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        for (n, comment) in rust_comments(&src) {
            if let Some(m) = re.find(&comment) {
                hits.push(format!("{rel}:{n}: {:?} in {comment}", m.as_str().trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "say what the code does and why, not when or by whom:\n{}",
        hits.join("\n")
    );
}

#[test]
fn test_docs_pages_organisation_scan_finds_what_it_must_and_only_that() {
    let re = organisation();
    for bad in [
        "measured in session 7",
        "At the stop of session 6",
        "a session-6 attack pass",
        "(issue 17: only new paths)",
        "as issue #12 asks",
        "see the ticket",
        "in the second work period",
        "the lead's statically linked build",
        "while the lead merged",
    ] {
        assert!(re.is_match(bad), "missed: {bad}");
    }
    for good in [
        "`git fararoni undo --session 1`",
        "the session id is in .git/fararoni/sessions/",
        "a session starts from the file as it is",
        "lead-ins and politeness",
        "the leading `-`",
        "a known issue with rsync",
        "sessions are FARARONI_SESSION when set",
    ] {
        assert!(!re.is_match(good), "flagged: {good}");
    }
    let src = "let s = \"// see issue 12\"; // fine\nlet c = '\"'; // issue 3\nlet r = r#\"// session 4 \"#;\n/* ticket */";
    let found: Vec<(usize, String)> = rust_comments(src);
    assert_eq!(
        found,
        vec![
            (1, "// fine".to_string()),
            (2, "// issue 3".to_string()),
            (4, "/* ticket */".to_string())
        ]
    );
}

// ───────────────────────── the newcomer's path ─────────────────────────

/// The command lines of the `sh` blocks of README.md's section `heading`
/// (up to the next `## `), except the test suite's.
fn readme_commands(heading: &str) -> Vec<String> {
    let readme = read("README.md");
    let start = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no `## {heading}`"));
    let body = &readme[start + 1..];
    let body = &body[..body[3..].find("\n## ").map_or(body.len(), |e| e + 3)];
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in body.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            l if in_sh && !l.is_empty() && !l.starts_with('#') => out.push(l.to_string()),
            _ => {}
        }
    }
    out.retain(|c| !c.starts_with("cargo test"));
    out
}

#[test]
fn test_docs_pages_newcomer_path_guards_a_claude_session_in_three_commands() {
    // README's path from a clone to a guarded Claude Code session, run as
    // written. `cargo install` is stood in for by what it does: the three
    // binaries this checkout builds, copied into `~/.cargo/bin` on PATH
    // (building them again would take minutes).
    let commands = readme_commands("Install");
    assert_eq!(
        commands,
        [
            "cargo install --locked --path .",
            "git fararoni install-docs",
            "git fararoni hooks install --agent claude",
        ],
        "README.md's install path changed: update this test and the count it names"
    );
    let r = crate::common::TestRepo::with_commit();
    let cargo_bin = r.home().join(".cargo/bin");
    std::fs::create_dir_all(&cargo_bin).expect("~/.cargo/bin");
    for name in ["git-fararoni", "git-fararoni-saga", "git-fararoni-shadow"] {
        std::fs::copy(crate::common::bin(name), cargo_bin.join(name)).expect("install a binary");
    }
    let path = {
        let mut paths = vec![cargo_bin.clone()];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        std::env::join_paths(paths).expect("PATH joins")
    };
    let sh = |line: &str| {
        let mut sh = std::process::Command::new("sh");
        sh.args(["-c", line]);
        r.env(&mut sh);
        sh.env("PATH", &path);
        sh
    };
    r.write("README.md", "# demo\n\nuncommitted work\n");
    for line in &commands[1..] {
        let out: crate::common::Out = sh(line).output().expect("sh runs").into();
        assert_eq!(out.code, 0, "`{line}` failed as written:\n{out}");
    }
    assert!(
        r.home()
            .join(".cargo/share/man/man1/git-fararoni.1")
            .exists(),
        "install-docs did not put the man page beside ~/.cargo/bin"
    );
    // The session is guarded: the command Claude Code runs before a Bash
    // call vetoes a reset that would lose the uncommitted edit, and lets a
    // read through.
    let settings: serde_json::Value =
        serde_json::from_str(&r.read(".claude/settings.json")).expect("settings JSON");
    let hook = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a PreToolUse command")
        .to_string();
    let payload = |command: &str| {
        serde_json::json!({
            "session_id": "newcomer", "cwd": r.path(), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}
        })
        .to_string()
    };
    let call =
        |command: &str| crate::common::run_with_stdin(&mut sh(&hook), payload(command).as_bytes());
    let veto = call("git reset --hard");
    assert_eq!(veto.code, 2, "the reset was not vetoed:\n{veto}");
    assert!(
        veto.stdout.contains("deny") && veto.stderr.contains("reset"),
        "{veto}"
    );
    let read_only = call("git status");
    assert_eq!(read_only.code, 0, "a read was refused:\n{read_only}");
    assert_eq!(r.read("README.md"), "# demo\n\nuncommitted work\n");
}
