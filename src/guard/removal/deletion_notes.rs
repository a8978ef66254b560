//! A note that explains a deletion: `// peekAll() was removed: every
//! caller now drains with pop()`, `# Hardware decoding moved to the
//! vidcore-hw plugin`. Deleting code cleanly passes; a note that only says
//! the code is gone hides nothing, so it is judged as the deletion it
//! explains. A note that says the code is still there (`unchanged`,
//! `same as before`, `rest omitted`, an elision placeholder) is not one.

/// Words that say code was deleted or now lives elsewhere, in lower case.
const DELETED: &[&str] = &[
    "removed",
    "deleted",
    "dropped",
    "moved to",
    "moved into",
    "now lives",
    "lives in",
    "lives on",
    "lives at",
    "no longer",
    "any more",
    "anymore",
    "replaced by",
    "superseded by",
    "retired",
    "was deprecated",
    "eliminad",
    "entfernt",
    "supprim",
    "rimoss",
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
];

/// Returns whether the comment `text` only explains a deletion.
pub(super) fn explains_deletion(text: &str) -> bool {
    let lower = text.to_lowercase();
    DELETED.iter().any(|w| lower.contains(w))
        && !KEPT.iter().any(|w| lower.contains(w))
        && !super::super::elision::is_placeholder(text)
}
