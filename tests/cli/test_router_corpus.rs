//! Routes every labelled case of the development corpus through the same
//! code `ask --explain` uses and compares each field with its label.

use git_fararoni::router::route;

use crate::test_router_intents::CorpusRepo;
use serde_json::Value;

const CORPUS: &str = include_str!("../../fixtures/router/routing-dev.jsonl");
/// Phrasings beyond the corpus, in both languages, written by us: new ways
/// users ask for the same intents, and traps that must not execute.
const EXTRA: &str = include_str!("../../fixtures/router/extra-phrasings.jsonl");

#[test]
fn test_router_corpus_agrees_with_every_label() {
    assert_eq!(check(CORPUS), 168, "the corpus has 168 cases");
}

#[test]
fn test_router_extra_phrasings_agree_with_their_labels() {
    assert!(check(EXTRA) >= 140);
}

/// Routes every line and returns how many there were; panics listing every
/// disagreement.
fn check(cases: &str) -> usize {
    let mut failures = Vec::new();
    let mut total = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let case: Value = serde_json::from_str(line).expect("corpus lines are JSON");
        let input = case["input"].as_str().expect("input is a string");
        let decision = route(input, &CorpusRepo::new()).expect("corpus inputs are valid");
        let got = decision.to_json();
        for field in ["level", "verdict", "risk", "intent", "message"] {
            if got[field] != case[field] {
                failures.push(format!(
                    "{input:?}: {field} = {} (label {}) — {}",
                    got[field], case[field], decision.reason
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    total
}
