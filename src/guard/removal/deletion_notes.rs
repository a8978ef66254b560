//! A note that explains a deletion: `// peekAll() was removed: every
//! caller now drains with pop()`, `# Hardware decoding moved to the
//! vidcore-hw plugin`. Deleting code cleanly passes; a note that only says
//! the code is gone hides nothing, so it is judged as the deletion it
//! explains. A note that says the code is still there (`unchanged`,
//! `same as before`, `rest omitted`, an elision placeholder) is not one.

/// Words that say code was deleted, in lower case.
const DELETED: &[&str] = &[
    "removed",
    "deleted",
    "dropped",
    "no longer",
    "any more",
    "anymore",
    "retired",
    "was deprecated",
    "eliminad",
    "entfernt",
    "supprim",
    "rimoss",
];

/// Words that say code now lives elsewhere. Somewhere outside the files
/// (a plugin, a load balancer, another repository), the note explains a
/// deletion; a file named beside them (`now lives in store.py`) is a
/// claim the change itself must bear out (its other files gaining the
/// code), so such a note stands for the code until they do.
const RELOCATED: &[&str] = &[
    "moved to",
    "moved into",
    "now lives",
    "lives in",
    "lives on",
    "lives at",
    "replaced by",
    "superseded by",
];

/// Words that say code is kept out of sight, not gone: a note holding one
/// stands for code, whatever else it says.
const KEPT: &[&str] = &[
    "same",
    "unchanged",
    "as before",
    "as above",
    "as is",
    "the rest",
    "rest of",
    "remaining",
    "omitted",
    "elided",
    "brevity",
    "skipped",
    "not shown",
    "left out",
    "existing",
    "previous",
    "etc",
    "...",
    "…",
    "todo",
    "fixme",
    "for now",
    "temporarily",
    "later",
    "see above",
    "see below",
    "similar",
    "likewise",
    "ditto",
    "and so on",
];

/// Returns whether a word of `text` names a file (`store.py`,
/// `src/io`, `headers.rs`).
fn names_a_file(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '\'' | '"' | '(' | ')' | ','))
        .map(|w| w.trim_end_matches([':', ';', '.']))
        .any(|w| {
            w.split('/').filter(|p| !p.is_empty()).count() >= 2
                || w.rsplit_once('.').is_some_and(|(stem, ext)| {
                    !stem.is_empty()
                        && (1..=5).contains(&ext.len())
                        && ext.chars().all(|c| c.is_ascii_alphanumeric())
                        && ext.chars().any(|c| c.is_ascii_alphabetic())
                })
        })
}

/// Returns whether the comment `text` only explains a deletion.
pub(super) fn explains_deletion(text: &str) -> bool {
    let lower = text.to_lowercase();
    let relocated = RELOCATED.iter().any(|w| lower.contains(w));
    (DELETED.iter().any(|w| lower.contains(w)) || relocated)
        && !(relocated && names_a_file(text))
        && !KEPT.iter().any(|w| lower.contains(w))
        && !super::super::elision::is_placeholder(text)
}

#[cfg(test)]
mod tests {
    use super::explains_deletion;

    #[test]
    fn notes_that_only_explain_a_deletion() {
        for note in [
            "// peekAll() was removed: every caller now drains with pop().",
            "# Hardware decoding moved to the vidcore-hw plugin repository.",
            "# the :80 redirect lives on the load balancer since the 2024 migration",
            "// no fat jar any more: the image is built by jib (see deploy/jib.gradle.kts)",
            "# low_stock/1 was dropped; the dashboard uses Shop.Reports.low_stock/1.",
            "// Deploy moved to ArgoCD (watches the registry); no helm here any more.",
        ] {
            assert!(explains_deletion(note), "{note}");
        }
        for note in [
            // A move to a file of the repository: the change must show it.
            "# save() now lives in store.py",
            "// moved to src/util",
            // Words that say the code is still there.
            "// validate() removed for brevity",
            "// the rest removed, same as before",
            "# removed for now",
            "// TODO: removed, add back",
            "// other methods unchanged",
            "// duplicate handlers removed, see above",
        ] {
            assert!(!explains_deletion(note), "{note}");
        }
    }
}
