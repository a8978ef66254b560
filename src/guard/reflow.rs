//! The Jaccard index of what a text holds, for edits that change every
//! line and keep the content: prose re-wrapped (another width, one
//! sentence per line) compared by its sentences with the line breaks
//! folded, and a table with a column added or dropped compared by its
//! cells. Taken only when the index of lines falls short, so it costs
//! nothing on ordinary edits.

use std::collections::HashSet;

/// Tables need at least this many rows to be read as tables.
const MIN_ROWS: usize = 5;

/// Texts longer than this are not re-read.
const MAX_BYTES: usize = 2 << 20;

/// Separators of a table's fields, tried in turn.
const SEPARATORS: &[char] = &[',', '\t', ';', '|'];

/// What a text may be read as, by its file kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Prose: sentences, or a table.
    Prose,
    /// No known kind (`.csv`, `.tsv`): a table.
    Unknown,
    /// Code or a known format: lines only (code whose lines all hold one
    /// comma would read as a table).
    Code,
}

/// Returns the Jaccard index of `old` and `new` by sentences when both
/// are prose, by cells when both are tables of a file that is not code;
/// `None` otherwise.
pub(super) fn jaccard(old: &str, new: &str, kind: Kind) -> Option<f64> {
    if kind == Kind::Code {
        return None;
    }
    // Past this the lines' verdict stands (a block, on the safe side):
    // the reading below allocates a string per sentence or cell.
    if old.len().max(new.len()) > MAX_BYTES {
        return None;
    }
    if let (Some(a), Some(b)) = (cells(old), cells(new)) {
        return Some(index(&a, &b));
    }
    (kind == Kind::Prose).then(|| index(&sentences(old), &sentences(new)))
}

fn index(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// The sentences of a prose text: its paragraphs (runs of lines between
/// blank ones) with their line breaks folded into spaces, cut after
/// `.`, `!`, `?` (and their full-width forms) followed by a space.
fn sentences(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for para in text.split("\n\n") {
        let folded: Vec<&str> = para.split_whitespace().collect();
        let mut sentence = String::new();
        for w in folded {
            if !sentence.is_empty() {
                sentence.push(' ');
            }
            sentence.push_str(w);
            if w.ends_with(['.', '!', '?', '。', '！', '？']) {
                out.insert(std::mem::take(&mut sentence));
            }
        }
        if !sentence.is_empty() {
            out.insert(sentence);
        }
    }
    out
}

/// The cells of a table (at least [`MIN_ROWS`] rows, nine in ten of them
/// with the same number of fields, two or more, by one separator), or
/// `None` when the text is not one.
fn cells(text: &str) -> Option<HashSet<String>> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if rows.len() < MIN_ROWS {
        return None;
    }
    SEPARATORS.iter().find_map(|&sep| {
        let mut counts = std::collections::HashMap::new();
        for r in &rows {
            if counts.len() > rows.len() / 10 + 1 {
                return None;
            }
            *counts.entry(r.split(sep).count()).or_insert(0usize) += 1;
        }
        let (&fields, &n) = counts.iter().max_by_key(|(_, n)| **n)?;
        (fields >= 2 && n * 10 >= rows.len() * 9).then(|| {
            rows.iter()
                .flat_map(|r| r.split(sep))
                .map(|c| c.trim().trim_matches('"').to_string())
                .filter(|c| !c.is_empty())
                .collect()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_added_or_dropped_keeps_the_cells() {
        let old: String = (0..20)
            .map(|i| format!("{i},name{i},{}\n", i * 3))
            .collect();
        let added: String = (0..20)
            .map(|i| format!("{i},name{i},{},0.2\n", i * 3))
            .collect();
        let dropped: String = (0..20).map(|i| format!("{i},name{i}\n")).collect();
        assert!(jaccard(&old, &added, Kind::Unknown).is_some_and(|j| j > 0.9));
        assert!(jaccard(&old, &dropped, Kind::Unknown).is_some_and(|j| j > 0.6));
        // Rows cut: the cells go with them.
        let cut: String = (0..5).map(|i| format!("{i},name{i},{}\n", i * 3)).collect();
        assert!(jaccard(&old, &cut, Kind::Unknown).is_some_and(|j| j < 0.4));
        // Not a table: nothing to say.
        assert_eq!(jaccard("a\nb c\n", "a b\nc\n", Kind::Unknown), None);
        // Code whose every line holds one comma is no table.
        let code: String = (0..20)
            .map(|i| format!("    v{i} = f{i}(a, b) + {i}\n"))
            .collect();
        let bumped: String = (0..20)
            .map(|i| format!("    v{i} = f{i}(a, b) + {}\n", i + 1))
            .collect();
        assert!(jaccard(&code, &bumped, Kind::Unknown).is_some());
        assert_eq!(jaccard(&code, &bumped, Kind::Code), None);
    }

    #[test]
    fn prose_rewrapped_keeps_its_sentences() {
        let old = "The tool judges every write. It keeps what was there\nand says why it refused. Nothing is lost.\n\nA second paragraph\nfollows here.\n";
        let wide = "The tool judges every write. It keeps what was there and says why it refused. Nothing is lost.\n\nA second paragraph follows here.\n";
        let one = "The tool judges every write.\nIt keeps what was there and says why it refused.\nNothing is lost.\n\nA second paragraph follows here.\n";
        assert_eq!(jaccard(old, wide, Kind::Prose), Some(1.0));
        assert_eq!(jaccard(old, one, Kind::Prose), Some(1.0));
        // A paragraph replaced by a note: its sentences are gone.
        let noted = "The tool judges every write. It keeps what was there\nand says why it refused. Nothing is lost.\n\n(unchanged)\n";
        assert!(jaccard(old, noted, Kind::Prose).is_some_and(|j| j < 1.0));
        assert_eq!(jaccard(old, wide, Kind::Code), None);
    }
}
