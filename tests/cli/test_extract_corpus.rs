//! The text tool-call extractor over `fixtures/agent/extract/corpus/`:
//! replies in every family's format (its `generate.py` names the source
//! of each), with one or several calls, repeated calls, and replies that
//! only show, quote, explain or negate a call. Each must yield exactly its
//! calls, in order, once each; the ones without a call must yield none.

use std::collections::BTreeMap;

use git_fararoni::agent::{extract, normalize};
use serde_json::Value;

fn calls_of(text: &str) -> Vec<Value> {
    extract::find_calls(text)
        .into_iter()
        .map(
            |c| match normalize::normalize_call(&c.name, c.arguments.clone()) {
                Ok((tool, args, _)) => serde_json::json!({"tool": tool, "arguments": args}),
                Err(_) => serde_json::json!({"tool": null, "arguments": c.arguments}),
            },
        )
        .collect()
}

#[test]
fn test_extract_corpus_every_call_exactly_once_and_no_false_call() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/agent/extract/corpus/corpus.jsonl");
    let text = std::fs::read_to_string(path).expect("corpus");
    let mut per: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut with, mut exact, mut without, mut false_calls) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for line in text.lines() {
        let row: Value = serde_json::from_str(line).expect("jsonl");
        let reply = row["text"].as_str().expect("text");
        let want = row["calls"].as_array().expect("calls").clone();
        let got = calls_of(reply);
        let fmt = row["format"].as_str().unwrap_or("?").to_string();
        let e = per.entry(fmt.clone()).or_default();
        e.1 += 1;
        if want.is_empty() {
            without += 1;
            if got.is_empty() {
                e.0 += 1;
            } else {
                false_calls += 1;
                wrong.push(format!("FALSE CALL {reply:?} → {got:?}"));
            }
        } else {
            with += 1;
            if got == want {
                exact += 1;
                e.0 += 1;
            } else {
                wrong.push(format!(
                    "[{fmt}] {reply:?}\n  want {want:?}\n  got  {got:?}"
                ));
            }
        }
    }
    for (f, (ok, n)) in &per {
        println!("{f:28} {ok}/{n}");
    }
    let rate = exact as f64 / with.max(1) as f64;
    println!("exact {exact}/{with} = {rate:.3}; false calls {false_calls}/{without}");
    assert!(with + without >= 500 && without >= 150, "corpus size");
    assert!(
        rate >= 0.99 && false_calls == 0 && std::env::var_os("SHOW_ALL").is_none(),
        "exact {rate:.3}, false calls {false_calls}:\n{}",
        wrong.join("\n")
    );
}
