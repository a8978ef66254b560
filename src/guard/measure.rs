//! One side of the kill-switch's comparison, measured: the hashes of its
//! non-blank lines (sorted), how many are comments, rewritten or padding,
//! and its line endings ([`measure`]); the counts two sides share
//! ([`merge`], [`meaningful_common`]).
//!
//! An edit of a large file leaves most of it as it was: when `old` and
//! `new` share a long beginning and end, `new` is measured as `old` minus
//! the lines only `old` has in between plus the lines only `new` has there
//! ([`Delta`], [`Measured::derive`]) — the same numbers as measuring `new`
//! whole (the test `derived_sides_equal_measured_ones` compares every
//! field), at the cost of the changed lines instead of the file.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use super::lang::Lang;
use super::lines::{
    self as text_lines, find_newline, hash_line, lines, seed, LineSet, PassThrough,
};

/// How many times each line form occurs.
type TextCounts = std::collections::HashMap<u64, usize, BuildHasherDefault<PassThrough>>;

/// The measurements of one side's lines.
///
/// Lines are compared through their hashes, kept in a sorted vector
/// (duplicates included) rather than a hash set: a linear radix sort and
/// a merge touch memory in order, where a 10 MB file's hash table missed
/// the cache on every insert. Meaningful code lines have no vector of their
/// own: for most lines the meaningful form is the line itself, so they are
/// the distinct lines minus the few `excluded` ones (blank to a reader,
/// comments, or needing a rewrite) plus the `rewritten` forms of the last.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Measured {
    /// Hashes of the non-blank trimmed lines, sorted.
    pub(super) hashes: Vec<u64>,
    /// Distinct values in `hashes`.
    pub(super) distinct: usize,
    /// Non-blank lines.
    pub(super) lines: usize,
    /// Distinct lines that are not meaningful code as they stand.
    excluded: LineSet,
    /// Distinct whole-line comments (also in `excluded`).
    comments: LineSet,
    /// The meaningful forms of the code lines that needed a rewrite
    /// (Unicode spaces, invisible characters, runs of spaces).
    rewritten: LineSet,
    /// Occurrences of meaningful code lines as written, of comments, and of
    /// rewritten code lines.
    plain: usize,
    comment_lines: usize,
    rewritten_lines: usize,
    /// Lines of invisible characters or a lone comment marker.
    markers: usize,
    /// How many lines have each form of `rewritten` (to take lines out of
    /// the set when a side is derived from another).
    rewritten_counts: TextCounts,
    /// Bare `\n` and `\r\n` line endings.
    lf: usize,
    crlf: usize,
}

impl Measured {
    /// Returns whether `h` is the hash of one of the lines.
    pub(super) fn contains(&self, h: u64) -> bool {
        self.hashes.binary_search(&h).is_ok()
    }

    /// Returns how many distinct meaningful code lines there are.
    pub(super) fn meaningful(&self) -> usize {
        self.distinct - self.excluded.len()
            + self
                .rewritten
                .iter()
                .filter(|k| !self.contains(**k))
                .count()
    }

    /// Returns whether `k`, the hash of a meaningful code line, is one of
    /// this side's meaningful code lines.
    fn has_meaningful(&self, k: u64) -> bool {
        (self.contains(k) && !self.excluded.contains(&k)) || self.rewritten.contains(&k)
    }

    /// Returns how many lines only pad: repeats of a meaningful line or a
    /// comment, however disguised, and lines of invisible characters or a
    /// lone comment marker.
    pub(super) fn junk(&self) -> usize {
        let plain_distinct = self.distinct - self.excluded.len();
        let new_forms = self
            .rewritten
            .iter()
            .filter(|k| !self.contains(**k))
            .count();
        self.plain.saturating_sub(plain_distinct)
            + self.comment_lines.saturating_sub(self.comments.len())
            + self.rewritten_lines.saturating_sub(new_forms)
            + self.markers
    }
}

/// Returns how many distinct meaningful code lines `new` shares with `old`,
/// given `common`, the distinct lines they share as written.
pub(super) fn meaningful_common(old: &Measured, new: &Measured, common: usize) -> usize {
    // Lines shared as written are shared meaningful lines unless excluded
    // (the same text is excluded on both sides).
    let excluded_common = new.excluded.iter().filter(|h| old.contains(**h)).count();
    // Plain lines of `new` that `old` has only in a rewritten form.
    let via_old_rewrites = old
        .rewritten
        .iter()
        .filter(|k| !old.contains(**k) && new.contains(**k) && !new.excluded.contains(k))
        .count();
    // Rewritten lines of `new` that are not also plain lines of `new`.
    let via_new_rewrites = new
        .rewritten
        .iter()
        .filter(|k| !new.contains(**k) && old.has_meaningful(**k))
        .count();
    common - excluded_common + via_old_rewrites + via_new_rewrites
}

/// Hashes and classifies the lines of `bytes`, in one pass.
pub(super) fn measure(bytes: &[u8], lang: &Lang) -> Measured {
    measure_pieces(std::iter::once(bytes), lang)
}

/// [`measure`] of the lines of several pieces of text, each made of whole
/// lines (ending in `\n`, or at the end of its file): the measurements of
/// their lines together, as if they were one text.
fn measure_pieces<'a>(pieces: impl Iterator<Item = &'a [u8]>, lang: &Lang) -> Measured {
    let mut pieces = pieces.peekable();
    let bytes = pieces.peek().copied().unwrap_or_default();
    let seed = seed();
    let mut side = Measured {
        // Room for lines of 16 bytes on average: code's are longer, and
        // growing the vector copies it.
        hashes: Vec::with_capacity(bytes.len() / 16 + 1),
        distinct: 0,
        lines: 0,
        excluded: HashSet::default(),
        comments: HashSet::default(),
        rewritten: HashSet::default(),
        plain: 0,
        comment_lines: 0,
        rewritten_lines: 0,
        markers: 0,
        rewritten_counts: TextCounts::default(),
        lf: 0,
        crlf: 0,
    };
    let mut scratch = Vec::new();
    let comments = text_lines::CommentEdges::of(lang);
    for bytes in pieces {
        let mut it = lines(bytes);
        for (_, l) in it.by_ref() {
            side.lines += 1;
            let hash = hash_line(seed, l);
            side.hashes.push(hash);
            match text_lines::meaningful(l, &mut scratch) {
                Some(key) if comments.is(key) => {
                    side.comment_lines += 1;
                    side.comments.insert(hash);
                    side.excluded.insert(hash);
                }
                // `meaningful` borrows the line itself unless it rewrote it.
                Some(key) if std::ptr::eq(key, l) => side.plain += 1,
                Some(key) => {
                    side.rewritten_lines += 1;
                    let form = hash_line(seed, key);
                    side.rewritten.insert(form);
                    *side.rewritten_counts.entry(form).or_default() += 1;
                    side.excluded.insert(hash);
                }
                None => {
                    if !l.is_ascii() || comments.is(l) {
                        side.markers += 1;
                    }
                    side.excluded.insert(hash);
                }
            }
        }
        let (lf, crlf) = it.counts();
        side.lf += lf;
        side.crlf += crlf;
    }
    text_lines::radix_sort(&mut side.hashes);
    side.distinct = distinct(&side.hashes);
    side
}

/// Returns how many distinct values the sorted `hashes` hold.
fn distinct(hashes: &[u64]) -> usize {
    hashes.len() - hashes.windows(2).filter(|w| w[0] == w[1]).count()
}

/// Walks two sorted hash vectors together; returns the number of distinct
/// hashes they share and calls `surplus(hash, extra)` for every hash `new`
/// has more often than `old`.
pub(super) fn merge(old: &[u64], new: &[u64], mut surplus: impl FnMut(u64, usize)) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while j < new.len() {
        let h = new[j];
        let n = new[j..].iter().take_while(|&&x| x == h).count();
        while i < old.len() && old[i] < h {
            i += 1;
        }
        let o = old[i..].iter().take_while(|&&x| x == h).count();
        common += usize::from(o > 0);
        if n > o {
            surplus(h, n - o);
        }
        i += o;
        j += n;
    }
    common
}

/// Where two contents differ, cut at line boundaries: `old[..head]` is
/// `new[..head]`, the last `tail` bytes of both are the same, `head` is at
/// the start of a line and the `tail` starts right after a `\n` both share.
/// Between them lie the changed lines of each side (`old_mid`, `new_mid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Delta {
    /// Length of the shared beginning, whole lines only.
    pub(super) head: usize,
    /// Length of the shared ending, whole lines only.
    pub(super) tail: usize,
}

impl Delta {
    /// Finds the shared beginning and end of `old` and `new`.
    pub(super) fn of(old: &[u8], new: &[u8]) -> Delta {
        let common = shared_len(old.chunks(CHUNK), new.chunks(CHUNK), common_prefix);
        // Back to the start of the line the first difference is in.
        let head = old[..common]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        // The shared ending may not reach into the shared beginning.
        let room = old.len().min(new.len()) - head;
        let (o, n) = (&old[old.len() - room..], &new[new.len() - room..]);
        let same = shared_len(o.rchunks(CHUNK), n.rchunks(CHUNK), |a, b| {
            a.iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count()
        });
        // Forward to just after the first `\n` of the shared ending: the
        // lines before it end there on both sides.
        let start = old.len() - same;
        let tail = old[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(0, |p| same - p - 1);
        Delta { head, tail }
    }

    /// Returns the changed part of a side of length `len`.
    pub(super) fn mid(&self, len: usize) -> std::ops::Range<usize> {
        self.head..len - self.tail
    }

    /// Returns whether deriving the new side costs clearly less than
    /// measuring it: the changed parts are under a quarter of the whole.
    pub(super) fn worth_it(&self, old: usize, new: usize) -> bool {
        let changed = self.mid(old).len() + self.mid(new).len();
        changed * 4 < old + new
    }
}

/// A changed part of an edit: a byte range of the old side and the range
/// of the new side in its place, both of whole lines.
pub(super) type Hunk = (std::ops::Range<usize>, std::ops::Range<usize>);

/// How many lines ahead on each side the end of a changed part is looked
/// for: a change longer than this ends the search.
const RESYNC_LINES: usize = 48;

/// Returns the changed parts of an edit changed in many places (every
/// fortieth line of a file, say), in order: between and around them `old`
/// and `new` are byte for byte the same, cut at line boundaries. `None`
/// when the changed parts make a quarter of the pair or more (measuring
/// `new` whole costs as much), or when they cannot be found cheaply.
///
/// Any such cut serves [`Measured::derive_hunks`], whose result depends
/// only on which lines lie outside the changed parts being the same on
/// both sides: the search below may find a longer change than a diff
/// would, never a wrong one, because every stretch it calls unchanged was
/// compared byte for byte.
pub(super) fn hunks(old: &[u8], new: &[u8]) -> Option<Vec<Hunk>> {
    let total = old.len() + new.len();
    let (mut o, mut n) = (0, 0);
    let mut out = Vec::new();
    let mut changed = 0;
    // Lines compared while looking for where a change ends: a budget of
    // a few per line of the pair keeps the search linear.
    let mut budget = total / 8 + 4096;
    loop {
        // The shared stretch, back to the start of the line it ends in.
        let same = shared_len(
            old[o..].chunks(CHUNK),
            new[n..].chunks(CHUNK),
            common_prefix,
        );
        if o + same == old.len() && n + same == new.len() {
            return Some(out);
        }
        let back = old[o..o + same]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        (o, n) = (o + back, n + back);
        // The first pair of lines, nearest the change, from which both
        // sides go on alike: line `i` of `old` from `o` and line `j` of
        // `new` from `n`, by increasing `i + j`.
        let (mut lo, mut ln) = (Ahead::new(old, o), Ahead::new(new, n));
        let mut found = None;
        'search: for d in 1..2 * RESYNC_LINES {
            for i in d.saturating_sub(RESYNC_LINES - 1)..=d.min(RESYNC_LINES - 1) {
                let j = d - i;
                let (Some(a), Some(b)) = (lo.line(i), ln.line(j)) else {
                    continue;
                };
                budget = budget.checked_sub(1)?;
                // The ends of the texts (no line) match only each other;
                // a last line without `\n` only another such.
                if a.0 == b.0 && old[a.1.clone()] == new[b.1.clone()] {
                    found = Some((a.1.start, b.1.start));
                    break 'search;
                }
            }
        }
        // No end in sight: left to measuring the new side whole.
        let (eo, en) = found?;
        changed += eo - o + en - n;
        if changed * 4 >= total {
            return None;
        }
        out.push((o..eo, n..en));
        (o, n) = (eo, en);
    }
}

/// The lines of a text from a line start on, read as they are asked for:
/// each line's hash and byte range (with its `\n`); past the last line,
/// one empty line at the end of the text.
struct Ahead<'a> {
    text: &'a [u8],
    seed: u64,
    lines: Vec<(u64, std::ops::Range<usize>)>,
    at: usize,
    ended: bool,
}

impl<'a> Ahead<'a> {
    fn new(text: &'a [u8], at: usize) -> Ahead<'a> {
        Ahead {
            text,
            seed: seed(),
            lines: Vec::new(),
            at,
            ended: false,
        }
    }

    /// Returns line `i`, if the text has it (or `i` is the end).
    fn line(&mut self, i: usize) -> Option<(u64, std::ops::Range<usize>)> {
        while self.lines.len() <= i && !self.ended {
            let s = self.at;
            let e = find_newline(&self.text[s..]).map_or(self.text.len(), |k| s + k + 1);
            // The end of the text is a line of its own, empty: it matches
            // only the other text's end.
            self.ended = s == e;
            // Marked apart from any line's hash by its length.
            let h = hash_line(self.seed, &self.text[s..e]) ^ u64::from(self.ended);
            self.lines.push((h, s..e));
            self.at = e;
        }
        self.lines.get(i).cloned()
    }
}

/// Contents are compared this many bytes at a time (`memcmp`), byte by
/// byte only in the chunk where they differ.
const CHUNK: usize = 4096;

/// Returns how many bytes `a` and `b` share from their start, compared
/// eight at a time (the chunk where two sides differ is compared here,
/// once per changed part of an edit changed all through).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    // Blocks of 64 compared whole first (a vector compare), so only the
    // block where they differ is read a word at a time.
    while i + 64 <= n && a[i..i + 64] == b[i..i + 64] {
        i += 64;
    }
    while i + 8 <= n {
        let word = |s: &[u8]| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&s[i..i + 8]);
            u64::from_le_bytes(w)
        };
        let diff = word(a) ^ word(b);
        if diff != 0 {
            // The lowest differing byte is the first.
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Returns how many bytes two sequences of chunks share from their start:
/// whole equal chunks, then `within` of the first pair that differs (or
/// of the shorter last chunk).
fn shared_len<'a>(
    a: impl Iterator<Item = &'a [u8]>,
    b: impl Iterator<Item = &'a [u8]>,
    within: impl Fn(&[u8], &[u8]) -> usize,
) -> usize {
    let mut n = 0;
    for (x, y) in a.zip(b) {
        if x == y {
            n += x.len();
            continue;
        }
        return n + within(x, y);
    }
    n
}

/// Removes the sorted `gone` from the sorted `from` (each value as often
/// as it occurs in `gone`) and merges in the sorted `added`.
fn replace_sorted(from: &[u64], gone: &[u64], added: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(from.len() - gone.len() + added.len());
    let (mut g, mut a) = (0, 0);
    for &x in from {
        while g < gone.len() && gone[g] < x {
            g += 1; // Cannot happen: `gone` is part of `from`.
        }
        if g < gone.len() && gone[g] == x {
            g += 1;
            continue;
        }
        while a < added.len() && added[a] < x {
            out.push(added[a]);
            a += 1;
        }
        out.push(x);
    }
    out.extend_from_slice(&added[a..]);
    out
}

impl Measured {
    /// Returns the measurements of `new` from those of `old` (`self`) and
    /// the lines between `delta`'s shared beginning and end: equal to
    /// `measure(new, lang)`, because every line outside that part is the
    /// same line on both sides and what a line counts as depends only on
    /// its text.
    pub(super) fn derive(&self, old: &[u8], new: &[u8], delta: Delta, lang: &Lang) -> Measured {
        let hunk = (delta.mid(old.len()), delta.mid(new.len()));
        self.derive_hunks(old, new, std::slice::from_ref(&hunk), lang)
    }

    /// [`Measured::derive`] over several changed parts ([`hunks`]): equal
    /// to `measure(new, lang)` for the same reason, the lines outside them
    /// being the same lines on both sides.
    pub(super) fn derive_hunks(
        &self,
        old: &[u8],
        new: &[u8],
        hunks: &[Hunk],
        lang: &Lang,
    ) -> Measured {
        let gone = measure_pieces(hunks.iter().map(|h| &old[h.0.clone()]), lang);
        let added = measure_pieces(hunks.iter().map(|h| &new[h.1.clone()]), lang);
        let hashes = replace_sorted(&self.hashes, &gone.hashes, &added.hashes);
        let present = |h: &u64| hashes.binary_search(h).is_ok();
        let keep = |set: &LineSet, gone: &LineSet, added: &LineSet| -> LineSet {
            let mut out = set.clone();
            for h in gone {
                if !present(h) {
                    out.remove(h);
                }
            }
            out.extend(added.iter().copied());
            out
        };
        let excluded = keep(&self.excluded, &gone.excluded, &added.excluded);
        let comments = keep(&self.comments, &gone.comments, &added.comments);
        let mut rewritten_counts = self.rewritten_counts.clone();
        for (form, n) in &gone.rewritten_counts {
            if let Some(c) = rewritten_counts.get_mut(form) {
                *c -= n;
                if *c == 0 {
                    rewritten_counts.remove(form);
                }
            }
        }
        for (form, n) in &added.rewritten_counts {
            *rewritten_counts.entry(*form).or_default() += n;
        }
        let rewritten = rewritten_counts.keys().copied().collect();
        let count = |this: usize, g: usize, a: usize| this - g + a;
        Measured {
            distinct: distinct(&hashes),
            hashes,
            lines: count(self.lines, gone.lines, added.lines),
            excluded,
            comments,
            rewritten,
            plain: count(self.plain, gone.plain, added.plain),
            comment_lines: count(self.comment_lines, gone.comment_lines, added.comment_lines),
            rewritten_lines: count(
                self.rewritten_lines,
                gone.rewritten_lines,
                added.rewritten_lines,
            ),
            markers: count(self.markers, gone.markers, added.markers),
            rewritten_counts,
            lf: count(self.lf, gone.lf, added.lf),
            crlf: count(self.crlf, gone.crlf, added.crlf),
        }
    }

    /// Returns the line endings the side uses.
    pub(super) fn endings(&self) -> super::killswitch::LineEndings {
        text_lines::endings(self.lf, self.crlf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust() -> &'static Lang {
        super::super::lang::from_path("a.rs").expect("rust")
    }

    /// Every pair: the new side derived from the old one is the new side
    /// measured whole, field by field.
    fn same_as_measured(old: &str, new: &str) {
        let lang = rust();
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let delta = Delta::of(o, n);
        assert_eq!(&o[..delta.head], &n[..delta.head], "{old:?} -> {new:?}");
        assert_eq!(
            &o[o.len() - delta.tail..],
            &n[n.len() - delta.tail..],
            "{old:?} -> {new:?}"
        );
        assert!(delta.head == 0 || o[delta.head - 1] == b'\n');
        assert!(delta.tail == 0 || o[o.len() - delta.tail - 1] == b'\n');
        assert!(delta.tail == 0 || n[n.len() - delta.tail - 1] == b'\n');
        let derived = measure(o, lang).derive(o, n, delta, lang);
        assert_eq!(derived, measure(n, lang), "{old:?} -> {new:?}");
    }

    #[test]
    fn derived_sides_equal_measured_ones() {
        let samples = [
            "",
            "a",
            "a\n",
            "\n\n",
            "let x = 1;\nlet  x = 1;\n}\n// note\nlet y = 2;\nlet y = 2;\n",
            "let x = 1;\nlet\u{a0}x = 1;\nz\u{200b}\nz\n// note\n\u{a0}\n",
            "let  y = 2;\nlet q = 3;\n#\n{\n}\nlet\tq = 3;\n",
            "a\r\nb\r\nc\r\n",
            "a\r\nb\nc",
            "x\n// ... rest of the code\nx\n",
        ];
        for old in samples {
            for new in samples {
                same_as_measured(old, new);
                // The same change inside a larger file, at its start, middle
                // and end.
                let body: String = (0..40).map(|i| format!("let v{i} = {i};\n")).collect();
                for (a, b) in [
                    (format!("{old}{body}"), format!("{new}{body}")),
                    (format!("{body}{old}"), format!("{body}{new}")),
                    (format!("{body}{old}{body}"), format!("{body}{new}{body}")),
                    (format!("{body}{old}\n{body}"), format!("{body}{new}{body}")),
                    (
                        format!("{body}{old}{body}"),
                        format!("{body}{new}\r\n{body}"),
                    ),
                ] {
                    same_as_measured(&a, &b);
                }
            }
        }
    }

    #[test]
    fn lines_leaving_and_coming_back_are_counted() {
        // A line moved from the changed part to elsewhere, a rewritten
        // form kept by another line, a comment removed while its twin
        // stays, every line ending changed.
        let base = "let a = 1;\nlet\u{a0}b = 2;\n// c\nlet b = 2;\n// c\nfn f() {}\n";
        for new in [
            "let a = 1;\n// c\nlet b = 2;\n// c\nfn f() {}\n",
            "let a = 1;\nlet\u{2003}b = 2;\nlet\u{a0}b = 2;\n// c\nlet b = 2;\nfn f() {}\n",
            "let a = 1;\r\nlet\u{a0}b = 2;\r\n// c\r\nlet b = 2;\r\n// c\r\nfn f() {}\r\n",
            "let a = 1;\n\n\n\nfn f() {}\n",
            "let a = 1;\nlet\u{a0}b = 2;\n// c\nlet b = 2;\n// c\nfn f() {}",
        ] {
            same_as_measured(base, new);
            same_as_measured(new, base);
        }
    }

    /// The changed parts of an edit made in many places: between them
    /// both sides are the same bytes, every cut is at a line start, and
    /// the new side derived from them is the new side measured whole.
    fn hunks_derive_as_measured(old: &str, new: &str) -> bool {
        let lang = rust();
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let Some(hs) = hunks(o, n) else {
            return false;
        };
        let (mut po, mut pn) = (0, 0);
        let starts = |t: &[u8], p: usize| p == 0 || p == t.len() || t[p - 1] == b'\n';
        for (a, b) in hs
            .iter()
            .chain(std::iter::once(&(o.len()..o.len(), n.len()..n.len())))
        {
            assert_eq!(&o[po..a.start], &n[pn..b.start], "{old:?} -> {new:?}");
            for p in [a.start, a.end] {
                assert!(starts(o, p), "{p}: {old:?} -> {new:?}");
            }
            for p in [b.start, b.end] {
                assert!(starts(n, p), "{p}: {old:?} -> {new:?}");
            }
            (po, pn) = (a.end, b.end);
        }
        let derived = measure(o, lang).derive_hunks(o, n, &hs, lang);
        assert_eq!(derived, measure(n, lang), "{old:?} -> {new:?}");
        true
    }

    #[test]
    fn edits_all_through_derive_as_measured() {
        let body: String = (0..400)
            .map(|i| format!("fn f{i}() {{\n    let v = {i};\n}}\n"))
            .collect();
        let lines: Vec<&str> = body.split_inclusive('\n').collect();
        // Every k-th line changed, removed, doubled, ended with CRLF, made
        // a comment or a run of wide characters; at the very start and
        // end; the last line's `\n` dropped; one side much shorter.
        let edit = |k: usize, f: &dyn Fn(&str) -> String| -> String {
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    if i.is_multiple_of(k) {
                        f(l)
                    } else {
                        l.to_string()
                    }
                })
                .collect()
        };
        let mut derived = 0;
        for k in [1, 2, 7, 40, 399] {
            for new in [
                edit(k, &|l| l.replace("let", "const")),
                edit(k, &|_| String::new()),
                edit(k, &|l| format!("{l}{l}")),
                edit(k, &|l| l.replace('\n', "\r\n")),
                edit(k, &|l| format!("// {l}")),
                edit(k, &|l| l.replace("v", "日本\u{a0}")),
                edit(k, &|l| format!("/*\n{l}")),
            ] {
                for (a, b) in [(&body, &new), (&new, &body)] {
                    derived += usize::from(hunks_derive_as_measured(a, b));
                    let cut = b.trim_end_matches('\n');
                    hunks_derive_as_measured(a, cut);
                    hunks_derive_as_measured(a, &format!("x\n{cut}"));
                    hunks_derive_as_measured(a, &b[..b.len() / 3]);
                    hunks_derive_as_measured(a, &format!("{b}{b}"));
                }
            }
        }
        // Most were derived, not measured whole.
        assert!(derived > 20, "{derived}");
        for (a, b) in [
            ("", ""),
            ("", "x\n"),
            ("x", "y"),
            ("a\nb", "a\nc"),
            ("a\n", "a"),
        ] {
            hunks_derive_as_measured(a, b);
        }
    }

    #[test]
    fn common_prefixes_are_counted_to_the_byte() {
        let a: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        for at in 0..=a.len() {
            for len in [at, a.len()] {
                let mut b = a[..len].to_vec();
                if at < len {
                    b[at] ^= 0x80;
                }
                let naive = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                assert_eq!(common_prefix(&a, &b), naive, "{at} {len}");
                assert_eq!(common_prefix(&b, &a), naive, "{at} {len}");
            }
        }
    }

    #[test]
    fn deltas_cut_at_line_boundaries() {
        let old = b"one\ntwo\nthree\nfour\n";
        let d = Delta::of(old, b"one\ntwo\nthrEE\nfour\n");
        assert_eq!((d.head, d.tail), (8, 5));
        assert_eq!(&old[d.mid(old.len())], b"three\n");
        // Appending: the shared ending cannot overlap the beginning.
        let d = Delta::of(b"a\na\n", b"a\na\na\n");
        assert!(d.head + d.tail <= 4, "{d:?}");
        assert_eq!(Delta::of(b"", b"x"), Delta { head: 0, tail: 0 });
        // Identical contents: nothing changed.
        let d = Delta::of(old, old);
        assert!(d.mid(old.len()).is_empty() || d.head + d.tail <= old.len());
        let big = "x\n".repeat(10_000);
        assert!(Delta::of(big.as_bytes(), format!("{big}y\n").as_bytes())
            .worth_it(big.len(), big.len() + 2));
    }
}
