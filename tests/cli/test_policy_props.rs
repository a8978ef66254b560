//! Properties of the command policy: abbreviating, quoting or expanding
//! never makes a verdict less safe, the canonical argv is what runs, and
//! nothing panics on any input.

use std::path::{Path, PathBuf};

use git_fararoni::policy::git::tables;
use git_fararoni::policy::git::{Command, Rule};
use git_fararoni::policy::spec::{Arity, Opt, Syntax};
use git_fararoni::policy::{self, Actor, Facts, NoFacts, Place, Verdict};
use git_fararoni::router::{route, Plan};
use proptest::prelude::*;

fn classify(argv: &[String]) -> Verdict {
    let facts = NoFacts::new();
    policy::classify(argv, &[], Actor::Human, &facts, facts.cwd())
}

/// Commands whose options can be generated: parse-options syntax with
/// abbreviations, not refused unparsed; verbs flattened.
fn commands() -> Vec<(Vec<String>, &'static Command)> {
    let mut out = Vec::new();
    for c in tables::all() {
        match c.rule {
            Rule::Refuse(..) => {}
            Rule::Verbs(verbs, ..) => {
                for v in verbs {
                    if !matches!(v.rule, Rule::Refuse(..) | Rule::Verbs(..)) {
                        out.push((vec![c.name.to_string(), v.name.to_string()], v));
                    }
                }
            }
            _ => out.push((vec![c.name.to_string()], c)),
        }
    }
    out
}

fn longs(c: &Command) -> Vec<&'static Opt> {
    c.opts
        .iter()
        .flat_map(|g| g.iter())
        .filter(|o| !o.long.is_empty())
        .collect()
}

fn words_for(o: &Opt, name: &str) -> Vec<String> {
    match o.arity {
        Arity::Flag => vec![format!("--{name}")],
        Arity::Required | Arity::LastDefault => vec![format!("--{name}"), "x".into()],
        Arity::Optional => vec![format!("--{name}=x")],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any unique prefix of any long option gives the same verdict and the
    /// same canonical argv; an ambiguous one is refused.
    #[test]
    fn abbreviating_never_weakens_a_verdict(
        which in any::<prop::sample::Index>(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 1usize..40), 1..4),
    ) {
        let all = commands();
        let (head, c) = &all[which.index(all.len())];
        let opts = longs(c);
        prop_assume!(!opts.is_empty());
        let mut full: Vec<String> = vec!["git".into()];
        full.extend(head.iter().cloned());
        let mut short = full.clone();
        for (i, cut) in &picks {
            let o = opts[i.index(opts.len())];
            full.extend(words_for(o, o.long));
            let prefix = &o.long[..(*cut).min(o.long.len())];
            // A prefix that is itself another option's name is that option.
            let names_another = opts
                .iter()
                .any(|x| {
                    x.long != o.long
                        && (x.long == prefix
                            || format!("no-{}", x.long) == prefix
                            || x.long.strip_prefix("no-") == Some(prefix))
                });
            let abbreviated = if matches!(c.syntax, Syntax::Git { abbrev: true }) && !names_another {
                prefix
            } else {
                o.long
            };
            short.extend(words_for(o, abbreviated));
        }
        let a = classify(&full);
        let b = classify(&short);
        // What runs is what was judged: the canonical argv judges the same.
        if !a.blocked() {
            let again = classify(&a.argv);
            prop_assert_eq!(again.risk, a.risk, "{:?} -> {:?}", full, a.argv);
            prop_assert_eq!(&again.argv, &a.argv);
        }
        if !b.blocked() {
            prop_assert_eq!(&a.argv, &b.argv, "{:?} vs {:?}", full, short);
            prop_assert_eq!(a.risk, b.risk);
            prop_assert_eq!(a.unknown, b.unknown);
        } else {
            prop_assert!(b.risk >= a.risk || b.unknown, "{:?}: {} / {:?}: {}", full, a.reason, short, b.reason);
        }
    }

    /// Routing never panics, whatever is typed.
    #[test]
    fn routing_never_panics(input in "\\PC{0,120}") {
        let _ = route(&input, &NoFacts::new());
    }

    /// Classifying never panics on any argv built from real option names,
    /// separators and junk.
    #[test]
    fn classify_never_panics(
        which in any::<prop::sample::Index>(),
        words in prop::collection::vec(
            prop_oneof![
                Just("--".to_string()),
                Just("-".to_string()),
                Just("--end-of-options".to_string()),
                Just("--no-".to_string()),
                "-[a-zA-Z0-9]{1,4}",
                "--[a-z-]{0,12}(=[a-z]{0,3})?",
                "\\PC{0,8}",
            ],
            0..8,
        ),
    ) {
        let all = commands();
        let (head, _) = &all[which.index(all.len())];
        let mut argv: Vec<String> = vec!["git".into()];
        argv.extend(head.iter().cloned());
        argv.extend(words.iter().cloned());
        let _ = classify(&argv);
        let mut util = vec!["find".to_string()];
        util.extend(words.iter().cloned());
        let _ = classify(&util);
        util[0] = "sort".into();
        let _ = classify(&util);
    }
}

/// Lines people type (and a few that must stay blocked), with their words
/// quoted in every way a shell accepts.
const BENIGN: &[&str] = &[
    "git status",
    "git log --oneline -5",
    "git diff --stat",
    "git branch -a",
    "git commit -m done",
    "git restore --staged README.md",
    "ls -la src",
    "sort -r notes.txt",
    "git clean -n",
    "git reset --hard",
    "git clean -e -n -f",
    "git push --force",
];

fn quote(word: &str, style: u8) -> String {
    match style % 4 {
        0 => format!("'{word}'"),
        1 => format!("\"{word}\""),
        2 => format!("\\{word}"),
        _ => {
            let (a, b) = word.split_at(word.len() / 2);
            format!("{a}'{b}'")
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn quoting_never_changes_a_decision(
        which in any::<prop::sample::Index>(),
        styles in prop::collection::vec(any::<u8>(), 8),
        mask in any::<u8>(),
    ) {
        let line = BENIGN[which.index(BENIGN.len())];
        let quoted: Vec<String> = line
            .split(' ')
            .enumerate()
            .map(|(i, w)| if mask & (1 << (i % 8)) != 0 { quote(w, styles[i % 8]) } else { w.to_string() })
            .collect();
        let quoted = quoted.join(" ");
        let a = route(line, &NoFacts::new()).expect("valid");
        let b = route(&quoted, &NoFacts::new()).expect("valid");
        // A quote inside a word reads as an apostrophe (`don't`), which
        // hands the line to the model: never less safe. Whatever runs must
        // be exactly what the plain line runs.
        if matches!(b.plan, Plan::Chain(_) | Plan::Composite(_)) {
            prop_assert_eq!(a.verdict, b.verdict, "{} vs {}", line, quoted);
            prop_assert_eq!(a.risk, b.risk, "{} vs {}", line, quoted);
            prop_assert_eq!(a.commands, b.commands, "{} vs {}", line, quoted);
        } else if matches!(a.plan, Plan::Blocked) {
            prop_assert!(!matches!(b.plan, Plan::Chain(_) | Plan::Composite(_)));
        }
    }
}

/// Facts of a directory holding files planted to look like options.
struct Planted(PathBuf);

impl Facts for Planted {
    fn cwd(&self) -> &Path {
        &self.0
    }
    fn home(&self) -> Option<String> {
        None
    }
    fn git_alias(&self, _: &Place, _: &str) -> Option<String> {
        None
    }
    fn same_repository(&self, _: &Place) -> Option<bool> {
        Some(true)
    }
    fn is_revision(&self, _: &Place, _: &str) -> Option<bool> {
        Some(false)
    }
    fn is_path(&self, _: &Place, _: &str) -> Option<bool> {
        Some(true)
    }
    fn expand_glob(&self, _: &Path, _: &str) -> Vec<String> {
        [
            "--output=README.md",
            "--compress-program=sh",
            "-delete",
            "-o",
            "README.md",
        ]
        .map(String::from)
        .to_vec()
    }
    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
        Some(dir.join(target))
    }
    fn inside_worktree(&self, _: &Path) -> Option<bool> {
        Some(true)
    }
    fn lease_unseen(
        &self,
        _: &Place,
        _: Option<&str>,
        _: &[String],
    ) -> Vec<git_fararoni::git::lease::Unseen> {
        Vec::new()
    }
}

#[test]
fn test_a_planted_file_name_never_becomes_an_option() {
    let facts = Planted(PathBuf::from("/work"));
    for line in [
        "ls *",
        "sort *",
        "find *",
        "cat *",
        "head *",
        "grep x *",
        "wc -l *",
        "git add *",
    ] {
        let d = route(line, &facts).expect("valid");
        assert!(matches!(d.plan, Plan::Blocked), "{line}: {:?}", d.commands);
        assert!(d.reason.contains("rule glob"), "{line}: {}", d.reason);
    }
    let d = route("wc -l -- *", &facts).expect("valid");
    assert_eq!(d.commands[0][3], "--output=README.md");
}
