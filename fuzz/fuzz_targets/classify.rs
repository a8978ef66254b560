//! The policy never panics on any argv: words are the NUL-separated parts
//! of the input, after `git` or a utility chosen by the first byte.
#![no_main]

use git_fararoni::policy::{self, Actor, Facts, NoFacts};
use libfuzzer_sys::fuzz_target;

const PROGRAMS: &[&str] = &["git", "find", "sort", "tail", "date", "uniq", "grep", "rg", "ls"];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut argv = vec![PROGRAMS[first as usize % PROGRAMS.len()].to_string()];
    argv.extend(text.split('\0').map(String::from));
    let facts = NoFacts::new();
    let v = policy::classify(&argv, &[], Actor::Human, &facts, facts.cwd());
    // What runs is what was judged: classifying the canonical argv again
    // gives the same verdict.
    if !v.blocked() {
        let again = policy::classify(&v.argv, &[], Actor::Human, &facts, facts.cwd());
        assert_eq!(again.risk, v.risk, "{argv:?} -> {:?}", v.argv);
        assert_eq!(again.argv, v.argv);
    }
});
