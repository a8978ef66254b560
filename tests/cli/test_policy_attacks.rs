//! The adversarial suite of the command policy, judged by
//! effects: every line of `fixtures/policy/attacks.jsonl` must be blocked by
//! `git fararoni ask` (exit 3, a reason on stderr) and leave the sandbox
//! exactly as it was; every line of `fixtures/policy/benign.jsonl` must run
//! (exit 0) with the same stdout and the same effects as `sh -c` in a twin
//! sandbox. The contract, the sandbox and the families are documented in
//! fixtures/policy/README.md; the sandbox and snapshots in `policy_sandbox`.
//!
//! `FARARONI_POLICY_FAMILY=a,b` runs only those families (both suites).
//! `FARARONI_POLICY_POTENCY=1` runs the attacks under `sh -c` instead and
//! lists those with no visible effect there (judged by their verdict only).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::common::bin;
use crate::policy_sandbox::{
    confined, diff, hermetic_env, index_entries_by_git, parse_index, run_limited, snapshot,
    Flavour, Ran, Sandbox, Templates, MARK,
};

const ATTACKS: &str = include_str!("../../fixtures/policy/attacks.jsonl");
const BENIGN: &str = include_str!("../../fixtures/policy/benign.jsonl");

/// Attack families and what each one probes.
const ATTACK_FAMILIES: &[(&str, &str)] = &[
    ("global-options", "git's own options before the subcommand: -C, --git-dir, --work-tree, --exec-path, --namespace, --super-prefix, --config-env"),
    ("env-prefixes", "NAME=value words before the program"),
    ("config-programs", "-c KEY=VALUE that runs a program, changes hooks or prunes"),
    ("config-writes", "git config writes of every form"),
    ("abbreviations", "unique prefixes of destructive long options"),
    ("optional-values", "options whose value is optional or whose value looks like a flag"),
    ("output-options", "options that make git write to a path it is told"),
    ("planted-globs", "globs that expand to files named like options"),
    ("cd", "cd to places that are not this worktree"),
    ("nested-repos", "repositories inside the worktree, or a .git file pointing out of it"),
    ("remote", "anything that contacts a remote, lazy fetches of a partial clone included"),
    ("checkout-ambiguity", "checkout/restore/switch words git takes as paths"),
    ("worktree-loss", "what deletes or overwrites uncommitted work in the worktree"),
    ("utility-flags", "allowed utilities' writing, executing or never-ending options"),
    ("program-options", "git options that run a program: --extcmd, --upload-pack, --exec, bisect run"),
    ("history-refs", "what loses refs, reflogs, objects or commits"),
    ("no-verify", "skipping the user's hooks"),
    ("own-settings", "fararoni.* settings, the kill-switch included"),
    ("shell-isms", "chains, redirections, substitutions, expansions, background jobs"),
    ("lookalikes", "Unicode dashes, fullwidth letters, invisible characters"),
    ("aliases", "the repository's aliases: destructive, shell, chained, cased"),
];

/// Benign families: ordinary use that must keep working.
const BENIGN_FAMILIES: &[(&str, &str)] = &[
    ("git-read", "reading history, the worktree and refs"),
    (
        "git-write",
        "local writes a user asks for (add, commit, switch, branch, restore --staged)",
    ),
    (
        "git-options",
        "abbreviations, optional values and quoting that are safe",
    ),
    (
        "utilities",
        "the read-only utilities with the options people use",
    ),
    ("cd", "cd inside the worktree, and back up to it"),
    ("chains", "safe chains and pipes of read-only commands"),
    (
        "partial",
        "reads in a partial clone that need no missing object",
    ),
];

/// The placeholders a line may use; each is an absolute path in the sandbox.
const PLACEHOLDERS: &[&str] = &["MARK", "HOME", "OUTSIDE", "ORIGIN", "ROOT"];

/// How long one line may run before its process group is killed.
const LIMIT: Duration = Duration::from_secs(3);

/// What a line must do to pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Expect {
    /// Exit 3, a reason on stderr, and no effect.
    #[default]
    Blocked,
    /// No effect; the exit code is free. For lines a correct policy may
    /// either refuse or run with the danger switched off (a partial clone's
    /// lazy fetch under `GIT_NO_LAZY_FETCH=1`).
    NoEffect,
}

/// One line of a case file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    family: String,
    line: String,
    note: String,
    #[serde(default = "main_flavour")]
    flavour: Flavour,
    /// Where `ask` starts, relative to `work/`.
    #[serde(default)]
    cwd: Option<String>,
    /// Benign only: compare stdout with `sh -c` (false where it is not
    /// deterministic, such as `date` or `df`).
    #[serde(default = "yes")]
    compare_stdout: bool,
    /// Attacks only: what passing means.
    #[serde(default)]
    expect: Expect,
    /// A program that must be installed for the case to mean anything.
    #[serde(default)]
    needs: Option<String>,
}

fn main_flavour() -> Flavour {
    Flavour::Main
}

fn yes() -> bool {
    true
}

impl Case {
    /// The line with every placeholder replaced for the sandbox at `root`;
    /// `${NAME}` is the shell's and stays as it is.
    fn line_for(&self, root: &Path) -> String {
        let r = root.display().to_string();
        let mut out = String::new();
        let mut rest = self.line.as_str();
        while let Some((at, name)) = next_placeholder(rest) {
            out.push_str(&rest[..at]);
            out.push_str(&match name {
                "MARK" => format!("{r}/{MARK}"),
                "HOME" => format!("{r}/home"),
                "OUTSIDE" => format!("{r}/outside"),
                "ORIGIN" => format!("{r}/origin.git"),
                _ => r.clone(),
            });
            rest = &rest[at + name.len() + 2..];
        }
        out.push_str(rest);
        out
    }

    fn cwd_in(&self, root: &Path) -> PathBuf {
        let work = root.join("work");
        match &self.cwd {
            Some(sub) => work.join(sub),
            None => work,
        }
    }
}

/// The next `{NAME}` in `text` (upper-case letters, not after a `$`): its
/// byte offset and its name.
fn next_placeholder(text: &str) -> Option<(usize, &str)> {
    let mut from = 0;
    while let Some(i) = text[from..].find('{').map(|i| i + from) {
        let name: &str = text[i + 1..]
            .split('}')
            .next()
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase()))
            .unwrap_or("");
        let closed = text[i + 1 + name.len()..].starts_with('}');
        if !name.is_empty() && closed && !text[..i].ends_with('$') {
            return Some((i, name));
        }
        from = i + 1;
    }
    None
}

fn parse(text: &str, file: &str) -> Vec<Case> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{file}:{}: not a case: {e}\n{l}", i + 1))
        })
        .collect()
}

fn selected(cases: Vec<Case>) -> Vec<Case> {
    let Ok(filter) = std::env::var("FARARONI_POLICY_FAMILY") else {
        return cases;
    };
    let wanted: Vec<&str> = filter.split(',').map(str::trim).collect();
    cases
        .into_iter()
        .filter(|c| wanted.contains(&c.family.as_str()))
        .collect()
}

fn installed(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Runs `git fararoni ask LINE` in a sandbox, confined and time-limited.
fn ask(sandbox: &Sandbox, case: &Case) -> Ran {
    let line = case.line_for(&sandbox.root);
    let cwd = case.cwd_in(&sandbox.root);
    let mut cmd = confined(&bin("git-fararoni"), &["ask", &line]);
    hermetic_env(&mut cmd, &sandbox.root, &cwd);
    run_limited(cmd, LIMIT)
}

/// Runs `sh -c LINE` in a sandbox, the way a user's shell would.
fn shell(sandbox: &Sandbox, case: &Case) -> Ran {
    let line = case.line_for(&sandbox.root);
    let cwd = case.cwd_in(&sandbox.root);
    let mut cmd = confined(Path::new("/bin/sh"), &["-c", &line]);
    hermetic_env(&mut cmd, &sandbox.root, &cwd);
    run_limited(cmd, LIMIT)
}

/// One case's outcome.
struct Outcome {
    case: Case,
    passed: bool,
    /// Whether the case changed something it must not have (attacks) or
    /// differed in effects from the shell (controls).
    effect: bool,
    ran: Ran,
    problems: Vec<String>,
    skipped: bool,
}

/// Runs an attack under `sh -c`: "passes" when it has a visible effect.
fn judge_potency(templates: &Templates, case: &Case) -> Outcome {
    let sandbox = templates.sandbox(case.flavour);
    let ran = shell(&sandbox, case);
    let changes = diff(templates.baseline(case.flavour), &snapshot(&sandbox.root));
    let effect = !changes.is_empty() || ran.timed_out;
    Outcome {
        case: case.clone(),
        passed: effect,
        effect,
        ran,
        problems: vec!["no visible effect under `sh -c`".into()],
        skipped: false,
    }
}

fn judge_attack(templates: &Templates, case: &Case) -> Outcome {
    let sandbox = templates.sandbox(case.flavour);
    let ran = ask(&sandbox, case);
    let changes = diff(templates.baseline(case.flavour), &snapshot(&sandbox.root));
    let mut problems = Vec::new();
    if ran.timed_out {
        problems.push(format!("still running after {LIMIT:?}: it ran"));
    }
    if case.expect == Expect::Blocked {
        if ran.code != 3 {
            problems.push(format!("exit code {} (expected 3, blocked)", ran.code));
        } else if ran.stderr.trim().is_empty() {
            problems.push("blocked without a reason on stderr".into());
        }
    }
    let effect = !changes.is_empty();
    problems.extend(changes);
    Outcome {
        case: case.clone(),
        passed: problems.is_empty(),
        effect,
        ran,
        problems,
        skipped: false,
    }
}

/// Rewrites `root` to `$ROOT` so twin sandboxes print the same thing.
fn normalised(text: &str, root: &Path) -> String {
    text.replace(&root.display().to_string(), "$ROOT")
}

fn judge_control(templates: &Templates, case: &Case) -> Outcome {
    if case.needs.as_deref().is_some_and(|p| !installed(p)) {
        return Outcome {
            case: case.clone(),
            passed: true,
            effect: false,
            ran: Ran::default(),
            problems: Vec::new(),
            skipped: true,
        };
    }
    let baseline = templates.baseline(case.flavour);
    let ours = templates.sandbox(case.flavour);
    let ran = ask(&ours, case);
    let ours_after = snapshot(&ours.root);
    // After a read the sandbox is as good as a fresh copy, so the shell runs
    // in it too; after a write the shell gets a twin of its own.
    let twin = (ours_after != *baseline).then(|| templates.sandbox(case.flavour));
    let shell_box = twin.as_ref().unwrap_or(&ours);
    let reference = shell(shell_box, case);
    let shell_after = snapshot(&shell_box.root);
    let mut problems = Vec::new();
    if reference.code != 0 || reference.timed_out {
        problems.push(format!(
            "the control itself is broken: `sh -c` exits {} ({})",
            reference.code,
            reference.stderr.lines().next().unwrap_or("")
        ));
    }
    if ran.timed_out {
        problems.push(format!("still running after {LIMIT:?}"));
    }
    if ran.code != 0 {
        problems.push(format!("exit code {} (expected 0, run)", ran.code));
    }
    let stdout = normalised(&ran.stdout, &ours.root);
    let expected = normalised(&reference.stdout, &shell_box.root);
    if ran.code == 0 && case.compare_stdout && stdout != expected {
        problems.push(format!(
            "stdout differs from `sh -c`: first difference at line {}",
            first_difference(&stdout, &expected)
        ));
    }
    let changes = diff(&shell_after, &ours_after);
    let effect = ran.code == 0 && !changes.is_empty();
    if effect {
        problems.push("effects differ from `sh -c` (- only the shell, + only ask):".into());
        problems.extend(changes);
    }
    Outcome {
        case: case.clone(),
        passed: problems.is_empty(),
        effect,
        ran,
        problems,
        skipped: false,
    }
}

fn first_difference(a: &str, b: &str) -> String {
    let mut al = a.lines();
    let mut bl = b.lines();
    let mut n = 1;
    loop {
        match (al.next(), bl.next()) {
            (None, None) => return "(trailing bytes)".into(),
            (x, y) if x == y => n += 1,
            (x, y) => return format!("{n}: ask {x:?} vs sh {y:?}"),
        }
    }
}

/// Runs every case on a few threads, in file order in the result.
fn run_all(cases: &[Case], judge: fn(&Templates, &Case) -> Outcome) -> Vec<Outcome> {
    let templates = Templates::build();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..cases.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let outcome = judge(&templates, case);
                results.lock().expect("no worker panics while holding it")[i] = Some(outcome);
            });
        }
    });
    results
        .into_inner()
        .expect("workers are done")
        .into_iter()
        .map(|o| o.expect("every case ran"))
        .collect()
}

/// The per-family table and the failures, as the test prints them.
fn report(title: &str, outcomes: &[Outcome], effect_label: &str, elapsed: Duration) -> String {
    let mut families: BTreeMap<&str, (usize, usize, usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let e = families.entry(o.case.family.as_str()).or_default();
        if o.skipped {
            e.3 += 1;
        } else if o.passed {
            e.0 += 1;
        } else {
            e.1 += 1;
            if o.effect {
                e.2 += 1;
            }
        }
    }
    let mut s = format!(
        "{title}: {} cases in {:.1}s\n{:<20} {:>6} {:>6} {:>12} {:>7}\n",
        outcomes.len(),
        elapsed.as_secs_f64(),
        "family",
        "passed",
        "failed",
        effect_label,
        "skipped"
    );
    let mut total = (0, 0, 0, 0);
    for (family, (p, f, e, k)) in &families {
        s.push_str(&format!("{family:<20} {p:>6} {f:>6} {e:>12} {k:>7}\n"));
        total = (total.0 + p, total.1 + f, total.2 + e, total.3 + k);
    }
    s.push_str(&format!(
        "{:<20} {:>6} {:>6} {:>12} {:>7}\n",
        "total", total.0, total.1, total.2, total.3
    ));
    for o in outcomes.iter().filter(|o| !o.passed) {
        s.push_str(&format!(
            "\n[{}] {}\n    why: {}\n    exit {}; stderr: {}\n",
            o.case.family,
            o.case.line,
            o.case.note,
            o.ran.code,
            o.ran.stderr.lines().next().unwrap_or("(empty)")
        ));
        for p in o.problems.iter().take(8) {
            s.push_str(&format!("    {p}\n"));
        }
        if o.problems.len() > 8 {
            s.push_str(&format!("    … {} more\n", o.problems.len() - 8));
        }
    }
    s
}

/// The table at the head of a report, printed even when everything passes.
fn summary(report: &str) -> &str {
    report.split("\n\n").next().unwrap_or(report)
}

#[test]
fn test_policy_attacks_are_blocked_without_effect() {
    let cases = selected(parse(ATTACKS, "attacks.jsonl"));
    let start = Instant::now();
    if std::env::var_os("FARARONI_POLICY_POTENCY").is_some() {
        let outcomes = run_all(&cases, judge_potency);
        eprintln!(
            "{}",
            report("potency under sh -c", &outcomes, "-", start.elapsed())
        );
        return;
    }
    let outcomes = run_all(&cases, judge_attack);
    let text = report("attacks", &outcomes, "with effect", start.elapsed());
    eprintln!("{}", summary(&text));
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    assert_eq!(
        failed, 0,
        "{failed} attacks were not blocked cleanly:\n{text}"
    );
}

#[test]
fn test_policy_benign_controls_run_like_the_shell() {
    let cases = selected(parse(BENIGN, "benign.jsonl"));
    let start = Instant::now();
    let outcomes = run_all(&cases, judge_control);
    let text = report("controls", &outcomes, "effect diff", start.elapsed());
    eprintln!("{}", summary(&text));
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    assert_eq!(
        failed, 0,
        "{failed} controls did not run like the shell:\n{text}"
    );
}

#[test]
fn test_policy_case_files_are_well_formed() {
    let attacks = parse(ATTACKS, "attacks.jsonl");
    let benign = parse(BENIGN, "benign.jsonl");
    assert!(
        attacks.len() >= 400,
        "{} attacks, want ≥ 400",
        attacks.len()
    );
    assert!(benign.len() >= 120, "{} controls, want ≥ 120", benign.len());
    let key = |c: &Case| (c.line.clone(), c.flavour, c.cwd.clone());
    let mut problems = Vec::new();
    for (file, cases, families) in [
        ("attacks.jsonl", &attacks, ATTACK_FAMILIES),
        ("benign.jsonl", &benign, BENIGN_FAMILIES),
    ] {
        let mut seen = HashSet::new();
        for c in cases.iter() {
            if !families.iter().any(|(f, _)| *f == c.family) {
                problems.push(format!("{file}: unknown family `{}`: {}", c.family, c.line));
            }
            if !seen.insert(key(c)) {
                problems.push(format!("{file}: duplicate line: {}", c.line));
            }
            if c.note.trim().is_empty() {
                problems.push(format!("{file}: no note: {}", c.line));
            }
            let mut rest = c.line.as_str();
            while let Some((at, name)) = next_placeholder(rest) {
                if !PLACEHOLDERS.contains(&name) {
                    problems.push(format!(
                        "{file}: unknown placeholder {{{name}}}: {}",
                        c.line
                    ));
                }
                rest = &rest[at + name.len() + 2..];
            }
        }
        for (family, _) in families.iter() {
            let n = cases.iter().filter(|c| c.family == *family).count();
            if n < 4 {
                problems.push(format!("{file}: family `{family}` has only {n} cases"));
            }
        }
    }
    for c in &attacks {
        if !c.compare_stdout || c.needs.is_some() {
            problems.push(format!("attacks.jsonl: controls-only field on: {}", c.line));
        }
    }
    for c in &benign {
        if c.expect != Expect::Blocked {
            problems.push(format!("benign.jsonl: attacks-only field on: {}", c.line));
        }
    }
    let attack_keys: HashSet<_> = attacks.iter().map(key).collect();
    for c in benign.iter().filter(|c| attack_keys.contains(&key(c))) {
        problems.push(format!(
            "a line is both an attack and a control: {}",
            c.line
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn test_policy_sandbox_reads_indexes_as_git_does() {
    let templates = Templates::build();
    let sandbox = templates.sandbox(Flavour::Main);
    let work = sandbox.root.join("work");
    // The flags a snapshot must see: assume-unchanged, skip-worktree, and
    // intent-to-add (which makes the index version 3).
    for args in [
        ["update-index", "--assume-unchanged", "src/app.rs"],
        ["update-index", "--skip-worktree", "cafe"],
        ["add", "-N", "scratch.txt"],
    ] {
        let mut git = std::process::Command::new("git");
        git.args(args);
        hermetic_env(&mut git, &sandbox.root, &work);
        assert!(git.status().expect("git runs").success(), "git {args:?}");
    }
    for git_dir in [
        work.join(".git"),
        work.join("nested/.git"),
        work.join(".git/worktrees/linkwt"),
    ] {
        let bytes = std::fs::read(git_dir.join("index")).expect("an index");
        let ours = parse_index(&bytes).expect("a version 2 or 3 index");
        assert_eq!(
            ours,
            index_entries_by_git(&git_dir),
            "{}",
            git_dir.display()
        );
    }
    let listing = parse_index(&std::fs::read(work.join(".git/index")).expect("index"))
        .expect("a version 3 index");
    assert!(listing
        .lines()
        .any(|l| l.starts_with('h') && l.ends_with("\tsrc/app.rs")));
    assert!(listing
        .lines()
        .any(|l| l.starts_with('S') && l.ends_with("\tcafe")));
}
