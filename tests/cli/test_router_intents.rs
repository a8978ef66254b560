//! Level 1.5 against our own labelled corpus (`fixtures/router/
//! intents-corpus.jsonl`, 3,000+ requests in both languages): what must
//! run, with which slots and message; what must go to the model or be
//! small talk; commands behind lead-ins judged exactly as typed alone.
//!
//! The corpus is split before any tuning: a request is held out when the
//! FNV-1a 64 hash of its seed (the request as first written, shared by its
//! variants) is 0 modulo 5; a request written as people type it
//! (`seeds_people.py`) by the hash of its phrasing family instead, so a
//! way of saying things is never on both sides
//! (`test_router_intents_people_by_family` reports it per language and
//! class). Development looked only at the other four
//! fifths; `test_router_intents_held_out_metrics` prints precision and
//! recall on the held-out fifth per intent and per language:
//!
//! ```text
//! cargo test --test cli test_router_intents_held_out -- --nocapture
//! ```

use std::collections::BTreeMap;

use std::path::{Path, PathBuf};

use git_fararoni::policy::Place;
use git_fararoni::router::{route, Decision, Facts, Level, NoFacts, Plan, Verdict};
use serde_json::Value;

const CORPUS: &str = include_str!("../../fixtures/router/intents-corpus.jsonl");

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The repository the corpora are written against: no files are known,
/// and it has these branches (a plain word is a branch name only when the
/// repository has that branch: "switch to develop" runs, "switch to dark
/// mode" and "borra la rama vieja" go to the model).
pub struct CorpusRepo(NoFacts);

/// The branches of [`CorpusRepo`].
pub const BRANCHES: &[&str] = &[
    "main",
    "master",
    "develop",
    "dev",
    "hotfix",
    "staging",
    "release",
    "experiment",
    "experimento",
    "wip",
    "temp",
    "pruebas",
    "beta",
    "refactor",
    "docs",
    "test",
    "trunk",
    "legacy",
    "old-feature",
    "feature",
    "qa",
    "produccion",
    "production",
    "login",
    "payments",
];

impl CorpusRepo {
    /// The repository.
    pub fn new() -> CorpusRepo {
        CorpusRepo(NoFacts::new())
    }
}

impl Facts for CorpusRepo {
    fn cwd(&self) -> &Path {
        self.0.cwd()
    }
    fn home(&self) -> Option<String> {
        None
    }
    fn git_alias(&self, p: &Place, n: &str) -> Option<String> {
        self.0.git_alias(p, n)
    }
    fn same_repository(&self, p: &Place) -> Option<bool> {
        self.0.same_repository(p)
    }
    fn is_revision(&self, p: &Place, n: &str) -> Option<bool> {
        self.0.is_revision(p, n)
    }
    fn is_path(&self, p: &Place, n: &str) -> Option<bool> {
        self.0.is_path(p, n)
    }
    fn expand_glob(&self, d: &Path, p: &str) -> Vec<String> {
        self.0.expand_glob(d, p)
    }
    fn enter_dir(&self, d: &Path, t: &str) -> Option<PathBuf> {
        self.0.enter_dir(d, t)
    }
    fn inside_worktree(&self, d: &Path) -> Option<bool> {
        self.0.inside_worktree(d)
    }
    fn lease_unseen(
        &self,
        p: &Place,
        r: Option<&str>,
        s: &[String],
    ) -> Vec<git_fararoni::git::lease::Unseen> {
        self.0.lease_unseen(p, r, s)
    }
    fn has_branch(&self, name: &str, _remote: bool) -> Option<bool> {
        Some(BRANCHES.contains(&name))
    }
}

/// One labelled request.
struct Case {
    input: String,
    lang: String,
    expect: String,
    kind: String,
    message: Option<String>,
    paths: Vec<String>,
    name: Option<String>,
    count: Option<u64>,
    from: Option<String>,
    rev: Option<String>,
    command: Option<String>,
    family: Option<String>,
    blocked: bool,
    held_out: bool,
}

fn cases() -> Vec<Case> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("corpus lines are JSON");
            let s = |k: &str| v[k].as_str().map(String::from);
            Case {
                input: s("input").expect("input"),
                lang: s("lang").expect("lang"),
                expect: s("expect").expect("expect"),
                kind: s("kind").expect("kind"),
                message: s("message"),
                paths: v["paths"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|p| p.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
                name: s("name"),
                count: v["count"].as_u64(),
                from: s("from"),
                rev: s("rev"),
                command: s("command"),
                blocked: v["blocked"].as_bool().unwrap_or(false),
                // The people corpus is split by phrasing family: a way of
                // saying things is never on both sides.
                held_out: fnv(&s("family").or_else(|| s("seed")).expect("seed")).is_multiple_of(5),
                family: s("family"),
            }
        })
        .collect()
}

/// What the router did with a request, as a class comparable to a label.
fn class(d: &Decision) -> String {
    match d.level {
        Level::Bare => "bare".into(),
        Level::Chat => "chat".into(),
        Level::Llm => "llm".into(),
        Level::Composite => d.intent.map(|i| i.as_str().to_string()).unwrap_or_default(),
    }
}

/// Whether the decision runs something (a command or a sequence).
fn executes(d: &Decision) -> bool {
    matches!(d.plan, Plan::Chain(_) | Plan::Composite(_))
}

/// Whether the policy refused a step only because it has no table for it
/// yet (`git merge`, `git remote` while their tables are being written).
fn policy_gap(d: &Decision) -> bool {
    d.verdict == Verdict::Blocked && d.reason.contains("not in the policy's tables")
}

/// Checks one case; returns why it disagrees, if it does.
fn judge(c: &Case) -> Result<(), String> {
    let d = route(&c.input, &CorpusRepo::new()).map_err(|e| format!("refused: {e}"))?;
    let got = class(&d);
    if c.expect == "bare" {
        let command = c.command.as_deref().unwrap_or_default();
        let alone = route(command, &CorpusRepo::new()).map_err(|e| format!("refused: {e}"))?;
        let same = d.level == alone.level
            && d.verdict == alone.verdict
            && d.risk == alone.risk
            && d.commands == alone.commands;
        return if same {
            Ok(())
        } else {
            Err(format!(
                "not judged as `{command}` typed alone: {got} {} {:?} vs {} {} {:?}",
                d.verdict.as_str(),
                d.commands,
                class(&alone),
                alone.verdict.as_str(),
                alone.commands
            ))
        };
    }
    // A refused intent typed as its command line without `git` ("push
    // -f") is refused as that command: nothing runs either way.
    if c.blocked && d.level == Level::Bare && d.verdict == Verdict::Blocked {
        return Ok(());
    }
    if got != c.expect {
        return Err(format!("{got} ({})", d.reason));
    }
    if d.level != Level::Composite {
        return Ok(());
    }
    if c.blocked && d.verdict != Verdict::Blocked {
        return Err(format!("runs: {:?}", d.commands));
    }
    if !c.blocked && d.verdict == Verdict::Blocked && !policy_gap(&d) {
        return Err(format!("blocked: {}", d.reason));
    }
    if d.message != c.message {
        return Err(format!("message {:?} (label {:?})", d.message, c.message));
    }
    if d.verdict == Verdict::Run {
        let words: Vec<&String> = d.commands.iter().flatten().collect();
        let has = |w: &str| {
            words.iter().any(|a| {
                *a == w || a.strip_prefix(":(exclude)") == Some(w) || a.ends_with(&format!("={w}"))
            })
        };
        for p in &c.paths {
            if !has(p) {
                return Err(format!("path `{p}` not in {:?}", d.commands));
            }
        }
        if let Some(n) = &c.name {
            if !has(n) {
                return Err(format!("name `{n}` not in {:?}", d.commands));
            }
        }
        if let Some(n) = c.count {
            if !has(&format!("-{n}")) && !has(&format!("HEAD~{n}")) {
                return Err(format!("count {n} not in {:?}", d.commands));
            }
        }
        for w in c.from.iter().chain(&c.rev) {
            if !has(w) {
                return Err(format!("`{w}` not in {:?}", d.commands));
            }
        }
        // A request that names no earlier commit acts on none.
        if c.rev.is_none()
            && c.count.is_none()
            && c.expect != "undo_commit"
            && words.iter().any(|a| a.contains("HEAD~"))
        {
            return Err(format!("acts on an earlier commit: {:?}", d.commands));
        }
    }
    Ok(())
}

/// An execution that must never happen: a request for the model or small
/// talk, or one whose intent is always refused, that runs something; or
/// a request for one intent that runs another.
fn unsafe_execution(c: &Case) -> Option<String> {
    let d = route(&c.input, &CorpusRepo::new()).ok()?;
    if !executes(&d) {
        return None;
    }
    let got = class(&d);
    let wrong = match c.expect.as_str() {
        "llm" | "chat" => true,
        "bare" => false,
        intent => c.blocked || (d.level == Level::Composite && got != intent),
    };
    wrong.then(|| {
        format!(
            "{:?} ({}) runs as {got}: {:?}",
            c.input, c.expect, d.commands
        )
    })
}

#[test]
fn test_router_intents_corpus_is_big_and_varied() {
    let all = cases();
    assert!(all.len() >= 1500, "{} requests", all.len());
    let near = all
        .iter()
        .filter(|c| c.kind.starts_with("near_miss"))
        .count();
    assert!(near >= 400, "{near} near-misses");
    for lang in [
        "en", "es", "es-MX", "es-AR", "es-ES", "es-CL", "es-CO", "mix",
    ] {
        assert!(
            all.iter().filter(|c| c.lang == lang).count() >= 20,
            "{lang}"
        );
    }
    let held = all.iter().filter(|c| c.held_out).count();
    assert!(
        (all.len() / 6..all.len() / 4).contains(&held),
        "{held} held out"
    );
}

#[test]
fn test_router_intents_nothing_for_the_model_is_ever_executed() {
    // Held-out cases are counted, never shown: they stay out of
    // development.
    let all = cases();
    let dev: Vec<String> = all
        .iter()
        .filter(|c| !c.held_out)
        .filter_map(unsafe_execution)
        .collect();
    let held = all
        .iter()
        .filter(|c| c.held_out)
        .filter_map(unsafe_execution)
        .count();
    assert!(
        dev.is_empty() && held == 0,
        "{held} unsafe executions held out; in development:\n{}",
        dev.join("\n")
    );
}

#[test]
fn test_router_intents_development_split_agrees() {
    let dev: Vec<Case> = cases().into_iter().filter(|c| !c.held_out).collect();
    let failures: Vec<String> = dev
        .iter()
        .filter_map(|c| {
            judge(c)
                .err()
                .map(|why| format!("{:?} [{}]: {why}", c.input, c.expect))
        })
        .collect();
    let rate = 1.0 - failures.len() as f64 / dev.len() as f64;
    println!(
        "development split: {} of {} agree ({:.3})",
        dev.len() - failures.len(),
        dev.len(),
        rate
    );
    // A few misses are the model's to answer (typos too far from any
    // word, `commit & push`, which is a chain); any that runs something
    // for the model fails `test_router_intents_nothing_…` instead.
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        rate >= 0.99,
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[derive(Default)]
struct Tally {
    labelled: usize,
    predicted: usize,
    right: usize,
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.3}", a as f64 / b as f64)
    }
}

/// Prints precision and recall on the held-out fifth (never looked at
/// case by case during development) and checks the maintainers' bar.
#[test]
fn test_router_intents_held_out_metrics() {
    let held: Vec<Case> = cases().into_iter().filter(|c| c.held_out).collect();
    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_lang: BTreeMap<String, Tally> = BTreeMap::new();
    let mut lang_all: BTreeMap<String, usize> = BTreeMap::new();
    let mut messages = (0, 0);
    // A stated message level 1.5 claimed and got wrong; one that went to
    // the model is a recall miss, never a wrong commit.
    let mut wrong_messages = 0;
    let mut deterministic = (0, 0);
    for c in &held {
        let d = route(&c.input, &CorpusRepo::new()).expect("corpus inputs are valid");
        let got = if c.expect == "bare" && judge(c).is_ok() {
            "bare".to_string()
        } else {
            class(&d)
        };
        let ok = judge(c).is_ok();
        let family = if c.lang.starts_with("es") {
            "es"
        } else {
            c.lang.as_str()
        }
        .to_string();
        by_class.entry(c.expect.clone()).or_default().labelled += 1;
        by_class.entry(got.clone()).or_default().predicted += 1;
        // Per language, over the deterministic classes: recall of what is
        // labelled one, precision of what the router claimed as one.
        let deterministic_label = !matches!(c.expect.as_str(), "llm" | "chat");
        let claimed = !matches!(got.as_str(), "llm" | "chat");
        let lang = by_lang.entry(family.clone()).or_default();
        lang.labelled += usize::from(deterministic_label);
        lang.predicted += usize::from(claimed);
        lang.right += usize::from(ok && deterministic_label);
        *lang_all.entry(family).or_default() += 1;
        if ok {
            by_class.entry(c.expect.clone()).or_default().right += 1;
        }
        if !matches!(c.expect.as_str(), "llm" | "chat") {
            deterministic.1 += 1;
            deterministic.0 += usize::from(ok);
        }
        if c.message.is_some() {
            messages.1 += 1;
            messages.0 += usize::from(d.message == c.message);
            if d.level == Level::Composite && d.message != c.message {
                wrong_messages += 1;
            }
        }
    }
    println!("held-out fifth: {} requests", held.len());
    println!("| class | requests | precision | recall |");
    println!("|---|---|---|---|");
    for (name, t) in &by_class {
        if t.labelled > 0 {
            println!(
                "| {name} | {} | {} | {} |",
                t.labelled,
                pct(t.right, t.predicted),
                pct(t.right, t.labelled)
            );
        }
    }
    println!("| language | requests | deterministic | precision | recall |");
    println!("|---|---|---|---|---|");
    for (name, t) in &by_lang {
        println!(
            "| {name} | {} | {} | {} | {} |",
            lang_all.get(name).copied().unwrap_or_default(),
            t.labelled,
            pct(t.right, t.predicted),
            pct(t.right, t.labelled)
        );
    }
    let unsafe_runs: Vec<String> = held.iter().filter_map(unsafe_execution).collect();
    println!(
        "deterministic recall {} ({} of {}); messages right {} of {} ({} claimed with a wrong message, {} left to the model); unsafe executions {}",
        pct(deterministic.0, deterministic.1),
        deterministic.0,
        deterministic.1,
        messages.0,
        messages.1,
        wrong_messages,
        messages.1 - messages.0 - wrong_messages,
        unsafe_runs.len()
    );
    assert_eq!(
        unsafe_runs.len(),
        0,
        "unsafe executions on the held-out fifth"
    );
    assert!(
        deterministic.0 * 100 >= deterministic.1 * 95,
        "recall below 0.95"
    );
    // The bar: never a commit with a message other than the one stated.
    // A request level 1.5 does not claim goes to the model, which sees the
    // message as typed; it counts against recall above.
    assert_eq!(wrong_messages, 0, "a stated message was claimed wrong");
}

/// The requests written as people type them (`seeds_people.py`), split
/// by phrasing family: development failures are listed; the held-out
/// families are only counted, per language and per class.
#[test]
fn test_router_intents_people_by_family() {
    let people: Vec<Case> = cases().into_iter().filter(|c| c.family.is_some()).collect();
    assert!(people.len() >= 1500, "{} people requests", people.len());
    let families = |held: bool| {
        let mut f: Vec<&str> = people
            .iter()
            .filter(|c| c.held_out == held)
            .filter_map(|c| c.family.as_deref())
            .collect();
        f.sort_unstable();
        f.dedup();
        f
    };
    let (dev_families, held_families) = (families(false), families(true));
    assert!(
        dev_families.iter().all(|f| !held_families.contains(f)),
        "a family on both sides"
    );
    let dev_misses: Vec<String> = people
        .iter()
        .filter(|c| !c.held_out)
        .filter_map(|c| {
            judge(c)
                .err()
                .map(|why| format!("{:?} [{}]: {why}", c.input, c.expect))
        })
        .collect();
    let held: Vec<&Case> = people.iter().filter(|c| c.held_out).collect();
    let mut by_lang: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut by_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut deterministic = (0, 0);
    for c in &held {
        let ok = judge(c).is_ok();
        for (map, key) in [
            (&mut by_lang, c.lang.clone()),
            (&mut by_class, c.expect.clone()),
        ] {
            let e = map.entry(key).or_default();
            e.0 += usize::from(ok);
            e.1 += 1;
        }
        if !matches!(c.expect.as_str(), "llm" | "chat") {
            deterministic.0 += usize::from(ok);
            deterministic.1 += 1;
        }
    }
    let unsafe_dev: Vec<String> = people
        .iter()
        .filter(|c| !c.held_out)
        .filter_map(unsafe_execution)
        .collect();
    let unsafe_held = held.iter().filter_map(|c| unsafe_execution(c)).count();
    println!(
        "people: {} requests, {} families ({} held out, {} requests)",
        people.len(),
        dev_families.len() + held_families.len(),
        held_families.len(),
        held.len()
    );
    println!("development misses ({}):", dev_misses.len());
    for m in &dev_misses {
        println!("  {m}");
    }
    println!("| held out: language | requests | agree |");
    println!("|---|---|---|");
    for (k, (ok, n)) in &by_lang {
        println!("| {k} | {n} | {} |", pct(*ok, *n));
    }
    println!("| held out: class | requests | agree |");
    println!("|---|---|---|");
    for (k, (ok, n)) in &by_class {
        println!("| {k} | {n} | {} |", pct(*ok, *n));
    }
    println!(
        "held-out deterministic recall {} ({} of {}); unsafe executions: {} development, {unsafe_held} held out",
        pct(deterministic.0, deterministic.1),
        deterministic.0,
        deterministic.1,
        unsafe_dev.len()
    );
    assert!(unsafe_dev.is_empty(), "{}", unsafe_dev.join("\n"));
    assert_eq!(unsafe_held, 0, "unsafe executions in held-out families");
    assert!(
        deterministic.0 * 100 >= deterministic.1 * 95,
        "held-out recall below 0.95"
    );
}

/// Commands of every risk, and lead-ins people put before them.
const COMMANDS: &[&str] = &[
    "git status",
    "git log --oneline -5",
    "git diff --stat",
    "git push",
    "git push --force origin main",
    "git reset --hard HEAD~1",
    "git clean -fd",
    "git commit -m 'fix parser'",
    "rm -rf node_modules",
    "git status && git log",
    "git log | head -5",
    "git status; rm -rf ~",
    "cat README.md > copy.md",
];

const LEAD_INS: &[(&str, &str)] = &[
    ("porfa: ", ""),
    ("please run ", ""),
    ("ejecuta ", ""),
    ("ejecutá ", ""),
    ("lanza ", ""),
    ("dale, ", ""),
    ("can you run `", "`?"),
    ("ejecuta '", "'"),
    ("corré \"", "\" porfa"),
    ("por favor ", ""),
    ("run this: ", ""),
    ("haz un ", ""),
    ("", ", porfa"),
    ("", ", please"),
];

#[test]
fn test_router_intents_a_command_after_a_lead_in_is_judged_as_typed_alone() {
    for command in COMMANDS {
        let alone = route(command, &CorpusRepo::new()).expect("valid");
        for (before, after) in LEAD_INS {
            if command.contains('\'') && before.ends_with('\'') {
                continue;
            }
            let request = format!("{before}{command}{after}");
            let d = route(&request, &NoFacts::new()).expect("valid");
            assert_eq!(
                (d.level, d.verdict, d.risk, &d.commands),
                (alone.level, alone.verdict, alone.risk, &alone.commands),
                "{request:?} is not judged as {command:?}"
            );
        }
    }
}

#[test]
fn test_router_intents_docs_page_documents_every_intent() {
    let page = include_str!("../../docs/ask.md");
    let start = page
        .find("## Level 1.5: intents")
        .expect("docs/ask.md has the level 1.5 section");
    let section = &page[start..];
    let section = &section[..section
        .find("## How a request is understood")
        .unwrap_or(section.len())];
    for line in CORPUS
        .lines()
        .filter(|l| l.contains("\"kind\": \"positive\""))
    {
        let v: Value = serde_json::from_str(line).expect("JSON");
        let intent = v["expect"].as_str().expect("intent");
        assert!(
            section.contains(&format!("`{intent}`")),
            "docs/ask.md's level 1.5 tables do not list `{intent}`"
        );
    }
}
