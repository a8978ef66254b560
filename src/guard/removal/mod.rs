//! Structural elision: what was removed, and what stands in its place.
//! Pure functions over the two texts; no I/O.
//!
//! The two sides are split into lines, each classed by the file's own
//! comment syntax ([`Lang::line_comments`], [`Lang::block_comments`],
//! docstrings, prose notes) as blank, code or comment, and keyed by its
//! trimmed text (so re-indenting changes nothing). A patience diff of the keys gives the hunks: a run
//! of old lines removed and a run of new lines added in their place. A
//! removed code line whose key is added anywhere else (in the file, or in
//! another file of the same change) was moved, not removed. Then, per
//! hunk, whatever the words:
//!
//! - **stand-in**: new comment lines (not a rewrite of a removed comment,
//!   not commented-out code) and no new code stand where a run of code was
//!   removed: at least [`MIN_RUN`] code lines, or a whole block (a header
//!   and its more-indented body);
//! - **stub**: only do-nothing statements (`pass`, `...`, `todo!()`,
//!   `raise NotImplementedError`, `return null` alone — the stub scanner's
//!   tables) stand where at least two code lines were removed;
//! - **emptied block**: every line of a block's body was removed while its
//!   header (`.btn {`, `build:`, `def f():`) stays;
//! - **stub line** ([`stub_lines`]): besides comments and the removed
//!   definition's own header, only stubs stand where at least [`MIN_RUN`]
//!   code lines were, or a one-line definition of the same name with a
//!   stub for its body (`f _ = error "TODO"`), in any language.
//!
//! A note standing where whole blocks were deleted is judged as a stand-in
//! even when it says the code was removed: the words that would tell a
//! deletion's note from a lazy one ("removed for brevity", "entfernt, der
//! Rest bleibt gleich") are no more reliable than any phrase list.
//!
//! A clean deletion (nothing in its place, no header left empty) is an
//! ordinary edit: dead code is deleted that way. The cost is linear in the
//! two texts, plus `n log n` in the changed lines for the diff.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

mod classify;
mod diff;
mod stub_lines;

use classify::*;
use diff::*;

use super::lang::Lang;
use super::lines::{count_newlines, find_newline, hash_line, seed, PassThrough};
use super::measure::{self, Delta, Hunk};
use super::stubs;

/// A removed run shorter than this, in code lines, may be replaced by a
/// comment (a note where two statements were) unless it is a whole block.
pub(super) const MIN_RUN: usize = 3;

/// A comment counts as a rewrite of a removed one from this share of
/// shared letter pairs on.
const REWRITE_SIMILARITY: f64 = 0.5;

/// Regions with more lines than this on each side and no line unique to
/// both are left unmatched rather than compared pairwise.
const DP_CELLS: usize = 1 << 16;

/// Comments read by tools rather than people (lint and formatter
/// switches, build tags, licence identifiers, encodings): added beside a
/// deletion they stand for nothing. Prefixes, compared in lower case.
const DIRECTIVES: &[&str] = &[
    "eslint",
    "prettier-ignore",
    "biome-ignore",
    "deno-lint",
    "@ts-",
    "noqa",
    "type:",
    "pylint:",
    "mypy:",
    "pyright:",
    "isort:",
    "fmt:",
    "nolint",
    "go:",
    "+build",
    "spdx-",
    "-*-",
    "frozen_string_literal",
    "rubocop:",
    "swiftlint:",
    "clang-format",
    "shellcheck",
    "istanbul",
    "c8 ignore",
    "nosonar",
    "nosec",
    "@flow",
    "<reference",
    "jshint",
    "cspell:",
    "markdownlint",
    "@jsx",
    "@license",
    "@preserve",
    "vim:",
    "pragma:",
    "coverage:",
    "codespell:",
    "ktlint-disable",
    "checkstyle:",
    "resharper disable",
    "phpcs:",
    "@phpstan",
    "@psalm",
    "sourcery",
    "tflint-ignore",
    "tfsec:",
    "checkov:",
    "hadolint",
    "yamllint",
];

/// Returns whether a comment's text is a tool directive ([`DIRECTIVES`]).
fn is_directive(body: &str) -> bool {
    let head: String = body.chars().take(32).collect::<String>().to_lowercase();
    DIRECTIVES.iter().any(|d| head.starts_with(d))
}

/// A lone line of prose with at most this many words standing where
/// paragraphs were is a note, not a rewrite.
const PROSE_NOTE_WORDS: usize = 6;

/// Folding directives: editor notes, not code (C#, C/C++, VB, Delphi).
const REGIONS: &[&str] = &[
    "#region",
    "#endregion",
    "#pragma region",
    "#pragma endregion",
    "#Region",
    "#End Region",
    "{$region",
    "{$endregion",
];

/// The longest comment text quoted in a reason, in characters.
const QUOTE_CHARS: usize = 60;

/// A table keyed by line hashes.
type Map<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

/// How a line reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Blank,
    Code,
    Comment,
}

/// One line of a side, in sixteen bytes (a 10 MB side has half a
/// million lines, and the diff reads them all): where its trimmed text
/// starts, with its class and whether it holds a letter or digit in the
/// top bits, and the hash of the trimmed text. Its end and its indent are
/// read from the text when asked for: only the lines around a change
/// are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line {
    /// The start (below bit [`FLAG_BITS`]), the class (the top two
    /// bits) and the word flag (the bit below them).
    at: u64,
    /// The hash of the trimmed text (re-indenting changes no key).
    key: u64,
}

/// Where a line's flags start in [`Line::at`]: no text reaches 2⁶¹
/// bytes (address spaces are at most 2⁵⁷).
const FLAG_BITS: u32 = 61;

impl Line {
    fn new(start: usize, key: u64, class: Class, word: bool) -> Line {
        debug_assert!((start as u64) < 1 << FLAG_BITS);
        let class = match class {
            Class::Blank => 0u64,
            Class::Code => 1,
            Class::Comment => 2,
        };
        Line {
            at: start as u64 | class << (FLAG_BITS + 1) | u64::from(word) << FLAG_BITS,
            key,
        }
    }

    /// Byte offset of the trimmed text.
    fn start(&self) -> usize {
        (self.at & ((1 << FLAG_BITS) - 1)) as usize
    }

    /// How the line reads.
    fn class(&self) -> Class {
        match self.at >> (FLAG_BITS + 1) {
            0 => Class::Blank,
            1 => Class::Code,
            _ => Class::Comment,
        }
    }

    /// Holds a letter or digit (not only punctuation).
    fn word(&self) -> bool {
        self.at >> FLAG_BITS & 1 == 1
    }

    /// The line with its start moved by `from` → `to` (a line of a
    /// stretch two texts share, from one text's offsets to the other's).
    fn moved(&self, from: usize, to: usize) -> Line {
        Line::new(
            self.start() - from + to,
            self.key,
            self.class(),
            self.word(),
        )
    }

    /// The trimmed text, in `text` (the side's).
    fn text<'t>(&self, text: &'t str) -> &'t str {
        let rest = &text[self.start()..];
        let end = find_newline(rest.as_bytes()).unwrap_or(rest.len());
        trim_end(&rest[..end])
    }

    /// Byte offset of the end of the trimmed text.
    fn end(&self, text: &str) -> usize {
        self.start() + self.text(text).len()
    }

    /// Leading white space, in columns (a tab counts four): the spaces
    /// and tabs from the line's start on.
    fn indent(&self, text: &str) -> u32 {
        let bytes = text.as_bytes();
        let from = bytes[..self.start()]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        bytes[from..]
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .map(|&b| if b == b'\t' { 4 } else { 1 })
            .sum()
    }
}

/// What a finding says, for [`super::killswitch::Reason::Removed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// New comments stand where code was removed.
    StandIn,
    /// Do-nothing statements stand where code was removed.
    Stub,
    /// A block's body was removed and its header kept.
    EmptiedBody,
    /// A call to a function defined nowhere stands where a body was.
    GhostCall,
    /// Lines kept with their values replaced by placeholders (`TODO`,
    /// `...`, `(same as before)`), in several places.
    Placeholders,
}

/// One structural finding, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What happened.
    pub kind: Removal,
    /// The first and last removed old line (1-based).
    pub old_lines: (usize, usize),
    /// How many blocks the removed lines held (0: loose lines).
    pub blocks: usize,
    /// What a block is called in this language (`functions`, `rules`).
    pub unit: &'static str,
    /// Code lines removed (not found elsewhere).
    pub code_lines: usize,
    /// The new line that stands in (or the kept header), 1-based.
    pub line: usize,
    /// Its text, shortened at a word boundary.
    pub text: String,
}

/// A side split into classed lines: the part of the text around the
/// change, whose first line is line `first` (0-based) of the file.
struct Side<'a> {
    text: &'a str,
    lines: Vec<Line>,
    first: usize,
}

impl Side<'_> {
    /// Returns the 0-based number of `l`, one of this side's lines (a line
    /// does not carry its number: a 10 MB pair holds a million of them).
    fn index(&self, l: &Line) -> usize {
        (std::ptr::from_ref(l).addr() - self.lines.as_ptr().addr()) / std::mem::size_of::<Line>()
    }
}

/// Lines of shared text kept around the change: a removed body's header
/// and the line after it are looked up there.
const CONTEXT: usize = 32;

/// Returns the structural findings of replacing `old` with `new` in
/// `lang`; `elsewhere` holds the keys of code lines added to other files
/// of the same change (see [`added_keys`]). Only the changed lines and
/// [`CONTEXT`] lines around them are classed and compared: the shared
/// beginning and ending match line for line, so an edit of a large file
/// costs what its change does, plus one search of the beginning for an
/// open block comment.
pub(super) fn findings(old: &str, new: &str, lang: &Lang, elsewhere: Others<'_>) -> Vec<Finding> {
    findings_in(old, new, lang, elsewhere, true, None)
}

/// [`findings`] of an edit whose changed parts (`parts`, from
/// [`measure::hunks`] of the two texts) are known: the stretches between
/// them are classed once ([`classify_pair`]).
pub(super) fn findings_parted(
    old: &str,
    new: &str,
    lang: &Lang,
    elsewhere: Others<'_>,
    parts: &[Hunk],
) -> Vec<Finding> {
    findings_in(old, new, lang, elsewhere, true, Some(parts))
}

/// [`findings`], around the change only when `window` (the tests compare
/// both ways).
fn findings_in(
    old: &str,
    new: &str,
    lang: &Lang,
    elsewhere: Others<'_>,
    window: bool,
    parts: Option<&[Hunk]>,
) -> Vec<Finding> {
    if old == new {
        return Vec::new();
    }
    let d = if window {
        Delta::of(old.as_bytes(), new.as_bytes())
    } else {
        Delta { head: 0, tail: 0 }
    };
    let start = back_lines(old.as_bytes(), d.head, CONTEXT);
    let old_end = forward_lines(old.as_bytes(), old.len() - d.tail, CONTEXT);
    let new_end = forward_lines(new.as_bytes(), new.len() - d.tail, CONTEXT);
    let first = count_newlines(&old.as_bytes()[..start]);
    let open = open_at(&old[..start], lang);
    let (Some(ot), Some(nt)) = (old.get(start..old_end), new.get(start..new_end)) else {
        return Vec::new();
    };
    // An edit changed all through: the stretches both sides share are
    // classed once ([`classify_pair`]).
    // The parts in the window's offsets: those before it cannot be (the
    // window starts before the first change); `classify_pair` compares
    // the stretches between them and leaves those past its end.
    let parts = match parts {
        Some(p) => Some(
            p.iter()
                .filter(|h| h.0.start >= start && h.1.start >= start)
                .map(|h| {
                    (
                        h.0.start - start..h.0.end - start,
                        h.1.start - start..h.1.end - start,
                    )
                })
                .collect(),
        ),
        None => window
            .then(|| measure::hunks(ot.as_bytes(), nt.as_bytes()))
            .flatten(),
    };
    let (la, lb) = match parts {
        Some(parts) => classify_pair(ot, nt, lang, open, &parts),
        None => (
            classify_from(ot, lang, open),
            NewLines::whole(classify_from(nt, lang, open)),
        ),
    };
    let a = Side {
        text: ot,
        lines: la,
        first,
    };
    let hunks = hunks(&lb.matched(&a.lines), lb.len());
    if hunks.is_empty() {
        return Vec::new();
    }
    // The new side around each hunk: its lines, and those after it up to
    // the first that is not blank (all a hunk is judged by), numbered
    // from the hunk's first.
    let around: Vec<Side> = hunks
        .iter()
        .map(|(_, nr)| {
            let mut lines: Vec<Line> = nr.clone().map(|i| lb.line(&a.lines, i)).collect();
            for i in nr.end..lb.len() {
                let l = lb.line(&a.lines, i);
                lines.push(l);
                if l.class() != Class::Blank {
                    break;
                }
            }
            Side {
                text: nt,
                lines,
                first: first + nr.start,
            }
        })
        .collect();
    // Code keys added, and in which hunk (u32::MAX: in several).
    let mut added: Map<u32> = Map::default();
    for (h, (_, nr)) in hunks.iter().enumerate() {
        for l in &around[h].lines[..nr.len()] {
            if l.class() == Class::Code && l.word() {
                added
                    .entry(l.key)
                    .and_modify(|x| {
                        if *x != h as u32 {
                            *x = u32::MAX
                        }
                    })
                    .or_insert(h as u32);
            }
        }
    }
    let mut out = Vec::new();
    let mut small = Vec::new();
    let mut values = Vec::new();
    let (mut deleted, mut loose) = (None::<Finding>, None::<(usize, String)>);
    let known = stub_lines::Names::new(old, new);
    for (h, (or, nr)) in hunks.iter().enumerate() {
        values.extend(placeholder_values(&a, &around[h], or.clone(), 0..nr.len()));
        match judge_hunk(
            &a,
            &around[h],
            or.clone(),
            0..nr.len(),
            h as u32,
            &added,
            elsewhere,
            lang,
            &known,
        ) {
            Judged::Found(f) => out.push(f),
            Judged::Deleted(f) => {
                if deleted.as_ref().is_none_or(|d| d.code_lines < f.code_lines) {
                    deleted = Some(f);
                }
            }
            Judged::Loose(line, text) => {
                loose.get_or_insert((line, text));
            }
            Judged::Small(f) => small.push(f),
            Judged::Nothing => {}
        }
    }
    // Two statements replaced by a note is an edit; the same in several
    // places of one write is a file elided piece by piece.
    if out.is_empty() && small.len() >= 2 {
        out.append(&mut small);
    }
    // One value made a placeholder is a reminder; several are content
    // elided line by line.
    if let (true, Some(&(first, line, ref text))) =
        (out.is_empty() && values.len() >= 2, values.first())
    {
        let last = values.iter().map(|v| v.0).max().unwrap_or(first);
        out.push(Finding {
            kind: Removal::Placeholders,
            old_lines: (first, last),
            blocks: 0,
            unit: lang.unit,
            code_lines: values.len(),
            line,
            text: text.clone(),
        });
    }
    // Code deleted in one place and a note added in another, where no
    // code follows it (`// other methods unchanged` before the class's
    // closing brace): the note stands for the deletion.
    if let (true, Some(mut f), Some((line, text))) = (out.is_empty(), deleted, loose) {
        f.kind = Removal::StandIn;
        f.line = line;
        f.text = text;
        out.push(f);
    }
    out
}

/// What one hunk shows.
enum Judged {
    /// A removal with something standing in its place.
    Found(Finding),
    /// A clean deletion of a run of code (a finding if a note stands for
    /// it elsewhere).
    Deleted(Finding),
    /// A note added with no code after it, and nothing removed: its line
    /// and text.
    Loose(usize, String),
    /// A note where fewer than [`MIN_RUN`] code lines were: a finding
    /// when several hunks of the same write show one.
    Small(Finding),
    Nothing,
}

/// Keys of code lines, by their text with whitespace removed.
type Keys = Map<()>;

/// The code lines the files of a change add, by key: the index of the
/// file that adds it, or [`MANY`] when several do; apart, those added to
/// prose (Markdown, text), which stand for no code.
#[derive(Default, Clone)]
pub(super) struct Added {
    code: Map<u32>,
    prose: Map<u32>,
}

/// In [`Added`]: more than one file adds the line.
const MANY: u32 = u32::MAX;

/// The code lines the *other* files of a change add: those of `added`
/// that a file other than `me` adds, to code, or to prose when the file
/// judged is prose too (a section moved between documents; code pasted
/// into a document is not kept as code).
#[derive(Clone, Copy)]
pub(super) struct Others<'a> {
    /// Every file's added lines.
    pub added: &'a Added,
    /// The file being judged, whose own lines do not count.
    pub me: Option<u32>,
    /// The file being judged is prose.
    pub prose: bool,
}

impl Others<'_> {
    /// Returns whether another file of the change adds the line `key`.
    fn has(&self, key: u64) -> bool {
        let other = |m: &Map<u32>| {
            m.get(&key)
                .is_some_and(|&f| f == MANY || Some(f) != self.me)
        };
        other(&self.added.code) || (self.prose && other(&self.added.prose))
    }

    /// Returns whether no other file adds anything that counts.
    pub(super) fn is_empty(&self) -> bool {
        self.added.code.is_empty() && (!self.prose || self.added.prose.is_empty())
    }
}

/// Adds to `into`, as file number `file`, the keys of the code lines
/// `new` has and `old` has not (what a change adds to one of its files),
/// for [`findings`]' `elsewhere`.
pub(super) fn added_keys(old: &str, new: &str, lang: &Lang, file: u32, into: &mut Added) {
    let before: Keys = classify(old, lang)
        .into_iter()
        .map(|l| (l.key, ()))
        .collect();
    let into = if lang.prose {
        &mut into.prose
    } else {
        &mut into.code
    };
    for l in classify(new, lang) {
        if l.class() == Class::Code && l.word() && !before.contains_key(&l.key) {
            into.entry(l.key)
                .and_modify(|f| {
                    if *f != file {
                        *f = MANY;
                    }
                })
                .or_insert(file);
        }
    }
}

/// Returns the share of the code lines `old` has and `new` has not that
/// the change added to its other files (`elsewhere`): 1 for a file split
/// in two, 0 for code deleted.
pub(super) fn moved_away(old: &str, new: &str, lang: &Lang, elsewhere: Others<'_>) -> f64 {
    let kept: Keys = classify(new, lang)
        .into_iter()
        .map(|l| (l.key, ()))
        .collect();
    let (mut gone, mut moved) = (0usize, 0usize);
    for l in classify(old, lang) {
        if l.class() == Class::Code && l.word() && !kept.contains_key(&l.key) {
            gone += 1;
            moved += usize::from(elsewhere.has(l.key));
        }
    }
    if gone == 0 {
        0.0
    } else {
        moved as f64 / gone as f64
    }
}

#[cfg(test)]
fn nowhere() -> Others<'static> {
    static NONE: std::sync::OnceLock<Added> = std::sync::OnceLock::new();
    Others {
        added: NONE.get_or_init(Added::default),
        me: None,
        prose: false,
    }
}

#[allow(clippy::too_many_arguments)]
fn judge_hunk(
    a: &Side,
    b: &Side,
    or: std::ops::Range<usize>,
    nr: std::ops::Range<usize>,
    h: u32,
    added: &Map<u32>,
    elsewhere: Others<'_>,
    lang: &Lang,
    known: &stub_lines::Names,
) -> Judged {
    let removed = &a.lines[or.clone()];
    let put = &b.lines[nr.clone()];
    // Removed code not added anywhere: in this hunk it was kept (a diff
    // artefact), in another one or another file it was moved.
    let mut gone: Vec<&Line> = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .filter(|l| !added.contains_key(&l.key) && !elsewhere.has(l.key))
        .collect();
    let moved = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .filter(|l| added.get(&l.key).is_some_and(|&x| x != h) || elsewhere.has(l.key))
        .count();
    if gone.is_empty() {
        return if moved == 0 {
            loose_note(b, nr, lang)
        } else {
            Judged::Nothing
        };
    }
    if moved >= gone.len() {
        return Judged::Nothing;
    }
    // Every rule wants two code lines, or a block or a body whole: most
    // hunks of an edit (a line changed) stop here.
    let (blocks, whole) = blocks_in(a.text, removed);
    let emptied = || emptied_header(a, or.clone(), lang);
    if gone.len() < 2 && !whole && emptied().is_none() {
        return Judged::Nothing;
    }
    // New code, counting the stubs made of punctuation (`...`, `???`) but
    // not the closers left behind.
    let mut new_code: Vec<&Line> = put
        .iter()
        .filter(|l| l.class() == Class::Code)
        .filter(|l| {
            let t = l.text(b.text);
            let code = t.len() - trailing_note(t, lang).map_or(0, str::len);
            let code = &t[..code];
            code.chars().any(char::is_alphanumeric)
                || ["...", "…", "???"].iter().any(|s| code.contains(s))
        })
        .collect();
    // A new line that is a removed one edited (a value bumped, a trailing
    // comma dropped with the entry after it, a note appended) is neither
    // new code nor removed code: what else the hunk removed is judged by
    // what else stands in its place. A note appended to it stands in.
    let mut edited_notes: Vec<(usize, &Line)> = Vec::new();
    let gone_before = gone.len();
    // Lines equal but for white space and a trailing `,`/`;` are found by
    // their key; the likeness of every pair is weighed only in hunks small
    // enough (a file rewritten whole is one hunk of every line).
    let fuzzy = gone.len() <= EDIT_PAIRING && new_code.len() <= EDIT_PAIRING;
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, r) in gone.iter().enumerate().rev() {
        by_key.entry(edit_key(r.text(a.text))).or_default().push(i);
    }
    let mut taken = vec![false; gone.len()];
    new_code.retain(|l| {
        let t = l.text(b.text);
        let (code, note) = split_note(t, lang);
        let free = |i: &usize| !taken[*i] && !heads_block(a, removed, gone[*i]);
        let exact = by_key
            .get(&edit_key(code))
            .and_then(|v| v.iter().rev().copied().find(free))
            .filter(|_| code.chars().any(char::is_alphanumeric));
        let at = exact.or_else(|| {
            fuzzy
                .then(|| {
                    (0..gone.len()).find(|i| free(i) && edit_of(gone[*i].text(a.text), code, lang))
                })
                .flatten()
        });
        let Some(at) = at else {
            return true;
        };
        taken[at] = true;
        let was = gone[at].text(a.text);
        // A note hidden in the edited line's string (`image: "web:1.27 #
        // the rest as before"`) is a note too, if it has words.
        let note = note.or_else(|| {
            split_note_in(t, lang, false)
                .1
                .filter(|n| comment_body(n, lang).split_whitespace().count() >= 2)
        });
        if let Some(n) = note.filter(|n| !was.contains(n.trim())) {
            if comment_body(n, lang).chars().any(char::is_alphanumeric)
                && !is_directive(comment_body(n, lang))
            {
                edited_notes.push((b.index(l) - nr.start, l));
            }
        }
        false
    });
    let mut i = 0;
    gone.retain(|_| {
        i += 1;
        !taken[i - 1]
    });
    // A list or a call emptied on its header's line (`deps = []`
    // where `deps = [` and its items were) stands for nothing: a note
    // beside it stands in for the items; alone it is a clean deletion.
    if !new_code.is_empty() {
        let openers = openers(a, removed);
        new_code.retain(|l| !emptied_literal(&openers, l.text(b.text)));
    }
    let code_lines = gone.len();
    // A body with an edited line left in it is not emptied.
    let edited = gone.len() < gone_before;
    let emptied = || if edited { None } else { emptied() };
    if code_lines < 2 && !whole && emptied().is_none() {
        return Judged::Nothing;
    }
    let removed_comments: Vec<&str> = removed
        .iter()
        .filter(|l| l.class() == Class::Comment)
        .map(|l| l.text(a.text))
        .collect();
    let removed_code: Map<()> = removed
        .iter()
        .filter(|l| l.class() == Class::Code)
        .map(|l| (l.key, ()))
        .collect();
    // New comments that stand for something: not a rewrite of a removed
    // comment, not removed code commented out, not a bare separator.
    let mut paired = vec![false; removed_comments.len()];
    let mut commented_out = 0usize;
    let mut stand_ins: Vec<(usize, &Line)> = put
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.class() == Class::Comment || trailing_note(l.text(b.text), lang).is_some()
        })
        .filter(|(_, l)| {
            let whole = l.text(b.text);
            let t = trailing_note(whole, lang).unwrap_or(whole);
            let body = comment_body(t, lang);
            if !body.chars().any(char::is_alphanumeric)
                && !body.contains("...")
                && !body.contains('…')
            {
                return false;
            }
            if t.starts_with("#!") || is_directive(body) {
                return false;
            }
            if removed_code.contains_key(&squeezed_key(body)) {
                commented_out += 1;
                return false;
            }
            // A heading kept with a note appended (`# Hardening` →
            // `# Hardening (unchanged)`) is a note, not a rewording.
            if let Some(i) = (0..removed_comments.len()).find(|&i| {
                !paired[i]
                    && similar(removed_comments[i], t)
                    && !extends(comment_body(removed_comments[i], lang), body)
            }) {
                paired[i] = true;
                return false;
            }
            true
        })
        .collect();
    // Code commented out, with a note on why, is kept code.
    if commented_out * 2 >= code_lines {
        return Judged::Nothing;
    }
    stand_ins.extend(edited_notes);
    stand_ins.sort_by_key(|(i, _)| *i);
    let first_gone = gone.first().map_or(or.start, |l| a.index(l));
    let last_gone = gone.last().map_or(or.end, |l| a.index(l));
    let old_lines = (a.first + first_gone + 1, a.first + last_gone + 1);
    let unit = lang.unit;
    let text_of = |l: &Line| shorten(l.text(b.text));
    // Every finding of this hunk names the same removed run.
    let finding = |kind, line, text| Finding {
        kind,
        old_lines,
        blocks,
        unit,
        code_lines,
        line,
        text,
    };

    if lang.prose && stand_ins.is_empty() && code_lines >= MIN_RUN {
        let texts: Vec<&str> = gone.iter().map(|l| l.text(a.text)).collect();
        if let Some((i, l)) = prose_stand_in(b, put, &texts) {
            return Judged::Found(finding(
                Removal::StandIn,
                b.first + nr.start + i + 1,
                text_of(l),
            ));
        }
    }
    if new_code.is_empty()
        && !stand_ins.is_empty()
        && (code_lines >= MIN_RUN || whole || emptied().is_some())
    {
        let (i, l) = stand_ins[0];
        return Judged::Found(finding(
            Removal::StandIn,
            b.first + nr.start + i + 1,
            text_of(l),
        ));
    }
    if let (true, Some(l)) = (new_code.len() == 1 && code_lines >= 2, new_code.first()) {
        if collapsed(a, removed, l.text(b.text), lang) {
            return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
        }
    }
    // In a notebook a string line is a line of a cell (judged as code of
    // the cell's language besides), not a statement that does nothing.
    // Elsewhere in JSON a string standing where an object was is one.
    let statements = !lang.prose && lang.name != "notebook";
    if !new_code.is_empty() && code_lines >= 2 && statements {
        let start = new_code[0].start();
        let end = new_code[new_code.len() - 1].end(b.text);
        let body = stubs::classify(&b.text[start..end], lang);
        if body.real == 0 && (body.trivial > 0 || body.marked) {
            let l = new_code[0];
            return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
        }
    }
    if let ([l], true) = (new_code.as_slice(), code_lines >= 2) {
        if stub_lines::stub_definition(a, removed, l.text(b.text), known, lang) {
            return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
        }
    }
    if !new_code.is_empty() && code_lines >= MIN_RUN && statements {
        if let Some(l) = stub_lines::stub_stands_in(a, b, removed, put, known, lang) {
            return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
        }
    }
    if let Some(l) = stub_lines::noted_shrink(
        known,
        b,
        put,
        (new_code.len(), code_lines, whole || emptied().is_some()),
        &removed_comments,
        lang,
    ) {
        return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
    }
    if new_code.is_empty() && stand_ins.is_empty() && code_lines >= 2 {
        if let Some(header) = emptied() {
            let hl = &a.lines[header];
            // The header is kept: its line in the new side is the last one
            // before the hunk.
            let line = b.first + nr.start;
            return Judged::Found(finding(
                Removal::EmptiedBody,
                line,
                shorten(hl.text(a.text)),
            ));
        }
    }
    if new_code.is_empty() && stand_ins.is_empty() && (code_lines >= MIN_RUN || whole) {
        return Judged::Deleted(finding(Removal::StandIn, 0, String::new()));
    }
    if let (1..=2, true) = (new_code.len(), code_lines >= MIN_RUN) {
        let texts: Vec<&str> = new_code.iter().map(|l| l.text(b.text)).collect();
        if stub_lines::ghost_call(a, or.clone(), &texts, known, lang) {
            let l = new_code[0];
            return Judged::Found(finding(
                Removal::GhostCall,
                b.first + b.index(l) + 1,
                text_of(l),
            ));
        }
    }
    if let (1..=6, true) = (new_code.len(), code_lines >= MIN_RUN) {
        let texts: Vec<&str> = new_code.iter().map(|l| l.text(b.text)).collect();
        if stub_lines::handed_to_stub(&texts, known, lang) {
            let l = new_code[0];
            return Judged::Found(finding(Removal::Stub, b.first + b.index(l) + 1, text_of(l)));
        }
    }
    if let (true, Some(&(i, l))) = (new_code.is_empty(), stand_ins.first()) {
        return Judged::Small(finding(
            Removal::StandIn,
            b.first + nr.start + i + 1,
            text_of(l),
        ));
    }
    Judged::Nothing
}

/// Returns whether `line` is the removed block's header with an empty or
/// do-nothing body on the same line (`.btn-danger {}`, `def f(): pass`,
/// `fun f() = TODO()`).
fn collapsed(a: &Side, removed: &[Line], line: &str, lang: &Lang) -> bool {
    let Some(h) = removed
        .iter()
        .find(|l| l.class() == Class::Code && l.word())
    else {
        return false;
    };
    // A body that did nothing, joined onto its header, is a reformat.
    let Some(last) = removed.iter().rev().find(|l| l.class() == Class::Code) else {
        return false;
    };
    let (h_end, last_end) = (h.end(a.text), last.end(a.text));
    if h_end >= last_end || stubs::classify(&a.text[h_end..last_end], lang).real == 0 {
        return false;
    }
    let squeeze = |t: &str| -> String { t.chars().filter(|c| !c.is_whitespace()).collect() };
    let head = squeeze(h.text(a.text));
    // Lean's `:= by` opens a proof's tactic block: `:= sorry` collapses it.
    let head = head
        .strip_suffix("by")
        .filter(|h| h.ends_with(":="))
        .unwrap_or(&head);
    let head = head
        .trim_end_matches(['{', ':'])
        .trim_end_matches("=>")
        .trim_end_matches('=');
    let new = squeeze(line);
    let Some(rest) = new.strip_prefix(head) else {
        return false;
    };
    // A note inside the collapsed line stands for the body too
    // (`{% block nav %}{# same as the list page #}{% endblock %}`): the
    // header and the removed closer with only comments between them.
    let bare = without_comments(rest, lang);
    if bare.len() < rest.len() && bare == squeeze(last.text(a.text)) {
        return true;
    }
    let rest = rest
        .trim_start_matches(['{', ':', '='])
        .trim_start_matches('>')
        .trim_end_matches([';', '}', ',']);
    if rest.is_empty() {
        return true;
    }
    let body = stubs::classify(rest, lang);
    body.real == 0 && (body.trivial > 0 || body.marked)
}

/// `t` (squeezed: no white space) without the language's block
/// comments.
fn without_comments(t: &str, lang: &Lang) -> String {
    let mut out = t.to_string();
    for (open, close) in lang.block_comments {
        let squeeze = |m: &str| -> String { m.chars().filter(|c| !c.is_whitespace()).collect() };
        let (o, c) = (squeeze(open), squeeze(close));
        if o.is_empty() || c.is_empty() {
            continue;
        }
        while let Some(a) = out.find(&o) {
            let Some(b) = out[a + o.len()..].find(&c) else {
                break;
            };
            out.replace_range(a..a + o.len() + b + c.len(), "");
        }
    }
    out
}

/// A note added where nothing was removed, with no code after it at its
/// indentation (a closer, a dedent or the end of the file follows).
fn loose_note(b: &Side, nr: std::ops::Range<usize>, lang: &Lang) -> Judged {
    let put = &b.lines[nr.clone()];
    if put.iter().any(|l| l.class() == Class::Code && l.word()) {
        return Judged::Nothing;
    }
    let Some(note) = put.iter().find(|l| {
        l.class() == Class::Comment && {
            let t = l.text(b.text);
            let body = comment_body(t, lang);
            body.chars().any(char::is_alphanumeric) && !t.starts_with("#!") && !is_directive(body)
        }
    }) else {
        return Judged::Nothing;
    };
    let next = b.lines[nr.end..].iter().find(|l| l.class() != Class::Blank);
    if next.is_some_and(|l| {
        l.class() != Class::Code || (l.word() && l.indent(b.text) >= note.indent(b.text))
    }) {
        return Judged::Nothing;
    }
    Judged::Loose(b.first + b.index(note) + 1, shorten(note.text(b.text)))
}

/// Returns how many blocks the removed lines hold (headers at their least
/// indentation followed by a more-indented line), and whether there is at
/// least one.
fn blocks_in(text: &str, removed: &[Line]) -> (usize, bool) {
    let code = || removed.iter().filter(|l| l.class() == Class::Code);
    let Some(min) = code().filter(|l| l.word()).map(|l| l.indent(text)).min() else {
        return (0, false);
    };
    let mut n = 0;
    let mut it = code().peekable();
    while let Some(l) = it.next() {
        if l.word() && l.indent(text) == min && it.peek().is_some_and(|x| x.indent(text) > min) {
            n += 1;
        }
    }
    (n, n > 0)
}

/// Returns the kept header whose whole body the hunk `or` removed: the
/// code line before it, with every removed line indented deeper and the
/// line after not; or a section opener (`FROM`, `[table]`, a heading)
/// with the removed lines running to the next one.
fn emptied_header(a: &Side, or: std::ops::Range<usize>, lang: &Lang) -> Option<usize> {
    let header = (0..or.start)
        .rev()
        .find(|&i| a.lines[i].class() != Class::Blank)?;
    let hl = &a.lines[header];
    if hl.class() != Class::Code {
        return None;
    }
    let text = |l: &Line| l.text(a.text);
    let body = || {
        a.lines[or.clone()]
            .iter()
            .filter(|l| l.class() != Class::Blank)
    };
    let after = a.lines[or.end..].iter().find(|l| l.class() != Class::Blank);
    let opens = |l: &Line| {
        let t = text(l);
        lang.sections.iter().any(|p| {
            t.len() >= p.len()
                && t.is_char_boundary(p.len())
                && t[..p.len()].eq_ignore_ascii_case(p)
        })
    };
    if opens(hl) {
        return (body().all(|l| !opens(l)) && after.is_none_or(opens)).then_some(header);
    }
    let indent = hl.indent(a.text);
    let deeper = body().all(|l| l.indent(a.text) > indent);
    (deeper && after.is_none_or(|l| l.indent(a.text) <= indent)).then_some(header)
}

/// In prose, a lone short line that stands where paragraphs were ("Sin
/// cambios.", "Same as above."): no heading, list item, link or code in
/// it, at most [`PROSE_NOTE_WORDS`] words.
fn prose_stand_in<'s>(b: &Side, put: &'s [Line], removed: &[&str]) -> Option<(usize, &'s Line)> {
    let mut lines = put
        .iter()
        .enumerate()
        .filter(|(_, l)| l.class() != Class::Blank);
    let (i, l) = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let t = l.text(b.text);
    // A LaTeX command (`\input{method}`) is markup, not a note.
    let structured = t.starts_with(['#', '-', '*', '+', '|', '>', '!', '<', '`', '\\'])
        || t.contains("](")
        || t.contains('`')
        || t.contains("://")
        || t.chars().next().is_some_and(|c| c.is_ascii_digit());
    let words = t.split_whitespace().count();
    (!structured && words <= PROSE_NOTE_WORDS && !shares_words(t, removed)).then_some((i, l))
}

/// Returns whether a word of four letters or more of `t` begins a word of
/// `removed` (a condensed paragraph keeps some of its words; a note such
/// as "unchanged" does not).
fn shares_words(t: &str, removed: &[&str]) -> bool {
    let lower = |s: &str| s.to_lowercase();
    let theirs: Vec<String> = removed
        .iter()
        .flat_map(|r| r.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(lower)
        .collect();
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4)
        .map(lower)
        .any(|w| theirs.iter().any(|x| x.starts_with(&w)))
}

/// Returns the comment after code on a line whose code is only
/// punctuation (`}  // the rest as before`), if it has words.
fn trailing_note<'t>(t: &'t str, lang: &Lang) -> Option<&'t str> {
    let markers = lang
        .line_comments
        .iter()
        .copied()
        .chain(lang.block_comments.iter().map(|(o, _)| *o));
    let at = markers
        .filter(|m| !m.trim().is_empty())
        .filter_map(|m| t.find(m.trim_end()))
        .filter(|&p| p > 0)
        .min()?;
    let (code, note) = t.split_at(at);
    (!code.chars().any(char::is_alphanumeric)
        && !code.contains(['"', '\''])
        && note.chars().any(char::is_alphanumeric))
    .then_some(note)
}

/// Returns the text of a comment line without its markers.
fn comment_body<'t>(t: &'t str, lang: &Lang) -> &'t str {
    let mut s = t.trim();
    for m in lang.line_comments {
        if let Some(r) = s.strip_prefix(m.trim_end()) {
            s = r;
            break;
        }
    }
    for (open, close) in lang.block_comments {
        if let Some(r) = s.strip_prefix(open) {
            s = r;
        }
        if let Some(r) = s.strip_suffix(close) {
            s = r;
        }
    }
    for q in ["\"\"\"", "'''"] {
        s = s.trim_start_matches(q).trim_end_matches(q);
    }
    s.trim_start_matches(['*', '/', '#', '!', '-', ';', '%', '<', '>'])
        .trim()
}

/// The key of a line's text, as [`classify`] keys it.
fn squeezed_key(t: &str) -> u64 {
    hash_line(seed(), t.trim().as_bytes())
}

/// Returns whether two comments share at least half their letter pairs
/// (a rewording, not a new note).
fn similar(x: &str, y: &str) -> bool {
    dice(x, y) >= REWRITE_SIMILARITY
}

/// Returns whether the comment text `new` is `old` with words added
/// (`Hardening` → `Hardening (unchanged)`).
fn extends(old: &str, new: &str) -> bool {
    let (o, n) = (old.trim().to_lowercase(), new.trim().to_lowercase());
    o.chars().filter(|c| c.is_alphanumeric()).count() >= 3
        && n.contains(&o)
        && n.split_whitespace().count() > o.split_whitespace().count()
}

/// Hunks of more code lines than this on either side pair edited lines
/// only when they are equal but for white space and a trailing `,`/`;`.
const EDIT_PAIRING: usize = 32;

/// A line's text without white space and a trailing `,`/`;`: equal keys
/// are the same line edited at most in those.
fn edit_key(t: &str) -> String {
    let s: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    s.trim_end_matches([',', ';']).to_string()
}

/// A line edited keeps at least this share of its letter pairs.
const EDIT_SIMILARITY: f64 = 0.8;

/// Returns whether the new code `new` is the removed line `old` edited:
/// the same once white space and a trailing `,`/`;` are ignored, most of
/// its letter pairs kept, or, in a file of entries (data formats, INI
/// and properties files), the same key with another value. Never a stub
/// or a placeholder.
fn edit_of(old: &str, new: &str, lang: &Lang) -> bool {
    let (o, n) = (edit_key(old), edit_key(new));
    if n.is_empty() || !n.chars().any(char::is_alphanumeric) {
        return false;
    }
    if o == n {
        return true;
    }
    let body = stubs::classify(new, lang);
    if n.contains("...")
        || n.contains('…')
        || body.marked
        || stubs::says_unfinished(new)
        || super::elision::is_placeholder_in(new, lang)
        || stub_lines::labels_a_placeholder(new)
    {
        return false;
    }
    // `return nil` where `return v, nil` was is a stub, however alike.
    if body.real > 0 && dice(&o, &n) >= EDIT_SIMILARITY {
        return true;
    }
    let key = |t: &str| -> Option<String> {
        let at = t.find([':', '='])?;
        let k = &t[..at];
        (!k.is_empty()
            && k.chars()
                .all(|c| c.is_alphanumeric() || "-_.\"'@$[]".contains(c)))
        .then(|| k.to_string())
    };
    let entries = lang.format.is_some() || lang.name == "ini";
    entries && key(&o).is_some() && key(&o) == key(&n)
}

/// Returns whether the removed line `l` opens a block of the removed
/// lines (the next code line is indented deeper, or it ends with an
/// opener): collapsing it onto one line is a stub, not an edit.
fn heads_block(a: &Side, removed: &[Line], l: &Line) -> bool {
    let t = l.text(a.text).trim_end();
    if t.ends_with(['{', ':', '=', '(', '[', '>']) || t.ends_with(" do") || t.ends_with(" then") {
        return true;
    }
    let at = removed.iter().position(|r| r.start() == l.start());
    at.and_then(|i| removed[i + 1..].iter().find(|r| r.class() == Class::Code))
        .is_some_and(|next| next.indent(a.text) > l.indent(a.text))
}

/// The lines of a hunk kept with their value replaced by a placeholder
/// (`<string name="x">TODO</string>`, `KEY=...`, `subject: "(same as
/// before)"`): each new code line is set against the removed line in
/// the same place, and what differs between them (the part after their
/// common beginning and before their common end) says it is unfinished
/// or elided where the old part did not. Returns (old line, new line,
/// new text), 1-based.
fn placeholder_values(
    a: &Side,
    b: &Side,
    or: std::ops::Range<usize>,
    nr: std::ops::Range<usize>,
) -> Vec<(usize, usize, String)> {
    let code = |s: &Side, r: std::ops::Range<usize>| -> Vec<usize> {
        r.filter(|&i| s.lines[i].class() == Class::Code).collect()
    };
    let (olds, news) = (code(a, or), code(b, nr));
    if olds.len() != news.len() || olds.len() > PLACEHOLDER_HUNK {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (&i, &j) in olds.iter().zip(&news) {
        let (o, n) = (
            a.lines[i].text(a.text).trim(),
            b.lines[j].text(b.text).trim(),
        );
        // Cheap first: nothing that could be a placeholder, no comparing.
        if !(n.contains("...")
            || n.contains('…')
            || n.contains('(')
            || !n.is_ascii()
            || stubs::says_unfinished(n))
        {
            continue;
        }
        let p = o
            .char_indices()
            .zip(n.chars())
            .take_while(|((_, x), y)| x == y)
            .last()
            .map_or(0, |((at, c), _)| at + c.len_utf8());
        let s = o[p..]
            .chars()
            .rev()
            .zip(n[p..].chars().rev())
            .take_while(|(x, y)| x == y)
            .map(|(c, _)| c.len_utf8())
            .sum::<usize>();
        // The key the value belongs to must be kept.
        if !o[..p].chars().any(char::is_alphanumeric) {
            continue;
        }
        let (was, now) = (&o[p..o.len() - s], &n[p..n.len() - s.min(n.len() - p)]);
        // Full-width and look-alike letters read as the letters they
        // imitate (`ＴＯＤＯ`).
        let now: String = now.chars().map(crate::text::lookalike::latin).collect();
        let now = now.trim().trim_matches(['"', '\'']);
        let says = |t: &str| {
            t == "..."
                || t == "…"
                || stubs::says_unfinished(t)
                || stub_lines::labels_a_placeholder(t)
                || super::elision::is_placeholder(&format!("// {t}"))
        };
        if !now.is_empty() && says(now) && !says(was.trim().trim_matches(['"', '\''])) {
            out.push((a.first + i + 1, b.first + j + 1, shorten(n)));
        }
    }
    out
}

/// Hunks of more code lines than this are not read value by value.
const PLACEHOLDER_HUNK: usize = 64;

/// The removed openers (`deps = [`, `f(`) of a hunk, without white
/// space, for [`emptied_literal`].
fn openers(a: &Side, removed: &[Line]) -> std::collections::HashSet<String> {
    removed
        .iter()
        .filter(|l| l.class() == Class::Code)
        .map(|l| {
            l.text(a.text)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
        })
        // A brace block collapsed (`.btn {}`) is the stub rule's.
        .filter(|h| h.len() > 1 && h.ends_with(['[', '(']))
        .collect()
}

/// Returns whether `line` is one of the removed `openers` closed at once
/// (`deps = []`): the list or the call emptied.
fn emptied_literal(openers: &std::collections::HashSet<String>, line: &str) -> bool {
    let n: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let n = n.trim_end_matches([',', ';']);
    [("[", ']'), ("(", ')')].iter().any(|(o, c)| {
        n.strip_suffix(*c)
            .is_some_and(|h| h.ends_with(o) && openers.contains(h))
    })
}

/// Splits a line into its code and a comment after it (`- pytest -q  #
/// the rest unchanged`): a comment marker of the language after white
/// space, outside quotes.
fn split_note<'t>(t: &'t str, lang: &Lang) -> (&'t str, Option<&'t str>) {
    split_note_in(t, lang, true)
}

/// [`split_note`], the marker sought outside quotes only when `outside`.
fn split_note_in<'t>(t: &'t str, lang: &Lang, outside: bool) -> (&'t str, Option<&'t str>) {
    let markers = lang
        .line_comments
        .iter()
        .copied()
        .chain(lang.block_comments.iter().map(|(o, _)| *o))
        .map(str::trim_end)
        .filter(|m| !m.is_empty());
    let at = markers
        .filter_map(|m| {
            t.match_indices(m).map(|(p, _)| p).find(|&p| {
                p > 0
                    && t[..p].ends_with([' ', '\t'])
                    && (!outside
                        || lang
                            .quotes
                            .iter()
                            .all(|&q| t[..p].bytes().filter(|&b| b == q).count() % 2 == 0))
            })
        })
        .min();
    match at {
        Some(p) if t[..p].chars().any(char::is_alphanumeric) => (t[..p].trim_end(), Some(&t[p..])),
        _ => (t, None),
    }
}

/// The share of letter pairs two texts have in common (Dice's
/// coefficient over lower-cased letters and digits).
fn dice(x: &str, y: &str) -> f64 {
    fn pairs(s: &str) -> Vec<(char, char)> {
        let cs: Vec<char> = s
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        let mut v: Vec<(char, char)> = cs.windows(2).map(|w| (w[0], w[1])).collect();
        v.sort_unstable();
        v
    }
    let (p, q) = (pairs(x), pairs(y));
    if p.is_empty() || q.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < p.len() && j < q.len() {
        match p[i].cmp(&q[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (p.len() + q.len()) as f64
}

/// Shortens `t` to [`QUOTE_CHARS`] characters at a word boundary.
pub(super) fn shorten(t: &str) -> String {
    shorten_to(t.trim(), QUOTE_CHARS)
}

/// Shortens `t` to at most `max` characters, cutting at the last space
/// that fits and marking the cut with `…`; never inside a word unless the
/// first word alone is too long.
pub fn shorten_to(t: &str, max: usize) -> String {
    if t.chars().count() <= max {
        return t.to_string();
    }
    let keep: String = t.chars().take(max.saturating_sub(1)).collect();
    let cut = match keep.rfind(char::is_whitespace) {
        Some(p) if p > 0 => keep[..p].trim_end().to_string(),
        _ => keep,
    };
    format!("{cut}…")
}

/// Returns the start of the line `n` lines before the one `at` starts.
fn back_lines(text: &[u8], at: usize, n: usize) -> usize {
    let mut at = at;
    for _ in 0..n {
        if at == 0 {
            break;
        }
        at = text[..at - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
    }
    at
}

/// Returns the end (after its `\n`) of the line `n` lines after `at`.
fn forward_lines(text: &[u8], at: usize, n: usize) -> usize {
    let mut at = at;
    for _ in 0..n {
        match find_newline(&text[at..]) {
            Some(p) => at += p + 1,
            None => return text.len(),
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lang::from_path;

    fn find(old: &str, new: &str, name: &str) -> Vec<Finding> {
        let lang = from_path(name).expect("a language");
        findings(old, new, lang, nowhere())
    }

    #[test]
    fn a_comment_where_code_was_is_found_whatever_its_words() {
        let old =
            "a {\n  color: red;\n}\n.b {\n  color: blue;\n  margin: 0;\n}\n.c {\n  x: 1;\n}\n";
        let new = "a {\n  color: red;\n}\n/* b the same */\n.c {\n  x: 1;\n}\n";
        let f = find(old, new, "x.css");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].kind, Removal::StandIn);
        assert_eq!(f[0].old_lines, (4, 6));
        assert_eq!(f[0].line, 4);
        assert_eq!(f[0].blocks, 1);
    }

    #[test]
    fn clean_deletions_moves_and_comment_rewrites_pass() {
        let old = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    y = 2\n    return y\n";
        // Deleted dead code.
        assert!(find(old, "def a():\n    x = 1\n    return x\n", "x.py").is_empty());
        // Moved.
        let moved = "def b():\n    y = 2\n    return y\n\n\ndef a():\n    x = 1\n    return x\n";
        assert!(find(old, moved, "x.py").is_empty());
        // A comment rewritten.
        let o = "# compute the total\nx = 1\ny = 2\nz = 3\n";
        let n = "# calcula el total\nx = 1\ny = 2\nz = 3\n";
        assert!(find(o, n, "x.py").is_empty());
        // Commented out.
        let n = "# compute the total\n# x = 1\n# y = 2\n# z = 3\n";
        assert!(find(o, n, "x.py").is_empty());
    }

    /// `n` lines `key{i}: value{i}` (or `= ` in INI), for padding.
    fn entries(n: usize, sep: &str) -> String {
        (0..n).map(|i| format!("key{i}{sep}value{i}\n")).collect()
    }

    #[test]
    fn a_line_edited_beside_a_removal_is_an_edit() {
        // The last member of a JSON object removed: the one before loses
        // its comma. Not a stub.
        let old = "{\n  \"deps\": {\n    \"a\": \"^1.0.0\",\n    \"b\": \"^2.0.0\",\n    \"c\": \"^3.0.0\"\n  }\n}\n";
        let new = old.replace("\"^2.0.0\",\n    \"c\": \"^3.0.0\"\n", "\"^2.0.0\"\n");
        assert!(find(old, &new, "package.json").is_empty());
        // A key removed and its neighbour's value changed (YAML, TOML, INI).
        for (name, sep) in [("a.yaml", ": "), ("a.toml", " = "), ("a.properties", "=")] {
            let old = entries(12, sep);
            let new = old.replace(
                &format!("key5{sep}value5\nkey6{sep}value6\n"),
                &format!("key5{sep}value50\n"),
            );
            assert!(find(&old, &new, name).is_empty(), "{name}");
        }
        // In code, the same key with another value is new code.
        let old = "def f(x):\n    y = compute(x)\n    z = y + 1\n    w = z * 2\n    return w\n";
        let new = "def f(x):\n    y = cached(x)\n    return y\n";
        assert!(find(old, new, "a.py").is_empty());
    }

    #[test]
    fn a_note_beside_an_edited_line_or_on_it_stands_in() {
        let pad = entries(20, ": ");
        let old = format!(
            "{pad}spec:\n  image: web:1.25\n  ports:\n    - 80\n  env:\n    - A=1\n  replicas: 3\n"
        );
        // The image bumped, the rest replaced by a note: the bump is an
        // edit, the note stands where four entries were.
        let new =
            format!("{pad}spec:\n  image: web:1.27\n  # ports, env and replicas: as before\n");
        let f = find(&old, &new, "deploy.yaml");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::StandIn), "{f:?}");
        // The note appended to the kept line instead.
        let new = format!("{pad}spec:\n  image: web:1.25  # the rest as before\n");
        let f = find(&old, &new, "deploy.yaml");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::StandIn), "{f:?}");
        // The same through a tab or in full-width letters.
        for line in [
            "  image: web:1.25\t# the rest as before",
            "  image: web:1.25  # ｒｅｓｔ ｕｎｃｈａｎｇｅｄ",
        ] {
            let new = format!("{pad}spec:\n{line}\n");
            assert!(!find(&old, &new, "deploy.yaml").is_empty(), "{line}");
        }
        // Inside the edited line's quoted value: no comment, but a value
        // that labels a placeholder is no edit, and the write is blocked.
        let new = format!(
            "{pad}spec:\n  image: \"web:1.27 # ports, env and replicas: same as before\"\n"
        );
        let t = crate::guard::Thresholds::default();
        let r = crate::guard::check_file("deploy.yaml", Some(old.as_bytes()), new.as_bytes(), &t);
        assert!(r.blocked(), "{:?}", r.reasons);
        // The bump alone with the rest deleted is a deletion; a tool's
        // directive appended is no note.
        let new = format!("{pad}spec:\n  image: web:1.27\n");
        assert!(find(&old, &new, "deploy.yaml").is_empty());
        let new = format!("{pad}spec:\n  image: web:1.25  # yamllint disable-line\n");
        assert!(find(&old, &new, "deploy.yaml").is_empty());
        // A `#` inside quotes is no comment.
        let old = format!("{pad}a:\n  b: \"x\"\n  c: 1\n  d: 2\n  e: 3\n");
        let new = format!("{pad}a:\n  b: \"x # y\"\n");
        assert!(find(&old, &new, "a.yaml").is_empty());
    }

    #[test]
    fn a_heading_kept_with_a_note_appended_stands_in() {
        let pad = entries(20, "=");
        let old = format!("{pad}# Hardening\nNoNewPrivileges=yes\nProtectSystem=strict\nProtectHome=yes\nPrivateTmp=yes\n");
        let new = format!("{pad}# Hardening (unchanged)\n");
        let f = find(&old, &new, "a.ini");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::StandIn), "{f:?}");
        // The heading reworded, the options kept: an edit.
        let new = old.replace("# Hardening\n", "# Sandboxing\n");
        assert!(find(&old, &new, "a.ini").is_empty());
        // The section deleted with its heading: a deletion.
        let new = pad.clone();
        assert!(find(&old, &new, "a.ini").is_empty());
    }

    #[test]
    fn small_notes_in_several_places_stand_in_together() {
        let block = |i: usize| {
            format!("location /p{i} {{\n    proxy_pass http://b{i};\n    proxy_set_header Host h{i};\n    proxy_read_timeout {i}s;\n}}\n")
        };
        let old: String = (0..6).map(block).collect();
        let noted =
            |i: usize| format!("location /p{i} {{\n    proxy_pass http://b{i};\n    # idem\n}}\n");
        // Once: two statements replaced by a note is an edit.
        let once: String = (0..6)
            .map(|i| if i == 2 { noted(i) } else { block(i) })
            .collect();
        assert!(find(&old, &once, "nginx.conf").is_empty());
        // In three places of the same write: elided piece by piece.
        let thrice: String = (0..6)
            .map(|i| if i % 2 == 0 { noted(i) } else { block(i) })
            .collect();
        let f = find(&old, &thrice, "nginx.conf");
        assert_eq!(f.len(), 3, "{f:?}");
    }

    #[test]
    fn a_list_emptied_beside_a_note_stands_in_and_alone_is_a_deletion() {
        let pad = "project('x', 'c')\ncc = meson.get_compiler('c')\nsrc = files('a.c')\n";
        let old = format!("{pad}deps = [\n  dependency('libpng'),\n  dependency('zlib'),\n  dependency('threads'),\n]\nexecutable('x', src, dependencies : deps)\n");
        let new = format!(
            "{pad}# dependencies as before\ndeps = []\nexecutable('x', src, dependencies : deps)\n"
        );
        let f = find(&old, &new, "build.py");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::StandIn), "{f:?}");
        let new = format!("{pad}deps = []\nexecutable('x', src, dependencies : deps)\n");
        assert!(find(&old, &new, "build.py").is_empty());
    }

    #[test]
    fn values_made_placeholders_in_several_places_are_found() {
        let old: String = (0..12)
            .map(|i| format!("    <string name=\"s{i}\">Wert Nummer {i}</string>\n"))
            .collect();
        let old = format!("<resources>\n{old}</resources>\n");
        let todo = old
            .replace(">Wert Nummer 3<", ">TODO<")
            .replace(">Wert Nummer 7<", ">TODO<");
        let f = find(&old, &todo, "strings.xml");
        assert_eq!(
            f.first().map(|f| &f.kind),
            Some(&Removal::Placeholders),
            "{f:?}"
        );
        assert_eq!(f[0].code_lines, 2);
        for p in ["...", "(same as before)", "(sin cambios)"] {
            let new = old
                .replace(">Wert Nummer 3<", &format!(">{p}<"))
                .replace(">Wert Nummer 4<", &format!(">{p}<"));
            assert!(!find(&old, &new, "strings.xml").is_empty(), "{p}");
        }
        // One is a reminder; values changed to other values are edits;
        // a placeholder already there stays one.
        let once = old.replace(">Wert Nummer 3<", ">TODO<");
        assert!(find(&old, &once, "strings.xml").is_empty());
        let edited = old
            .replace(">Wert Nummer 3<", ">Value three<")
            .replace(">Wert Nummer 7<", ">Value seven<");
        assert!(find(&old, &edited, "strings.xml").is_empty());
        // Full-width look-alikes read as the letters they imitate.
        let wide = old
            .replace(">Wert Nummer 3<", ">ＴＯＤＯ<")
            .replace(">Wert Nummer 7<", ">ＴＯＤＯ<");
        assert!(!find(&old, &wide, "strings.xml").is_empty());
        let had = old.replace("Nummer", "TODO");
        let new = had
            .replace(">Wert TODO 3<", ">TODO<")
            .replace(">Wert TODO 7<", ">TODO<");
        assert!(find(&had, &new, "strings.xml").is_empty());
    }

    #[test]
    fn a_block_collapsed_onto_one_line_around_a_note_is_a_stub() {
        let pad = "{% extends \"base.html\" %}\n{% block title %}Order{% endblock %}\n";
        let old = format!("{pad}{{% block nav %}}\n<nav>\n  <a href=\"/\">Home</a>\n  <span>{{{{ order.number }}}}</span>\n</nav>\n{{% endblock %}}\n<p>{{{{ order.total }}}}</p>\n");
        let new = format!("{pad}{{% block nav %}}{{# kalau sama #}}{{% endblock %}}\n<p>{{{{ order.total }}}}</p>\n");
        let f = find(&old, &new, "order.j2");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::Stub), "{f:?}");
        // The block removed whole is a deletion.
        let new = format!("{pad}<p>{{{{ order.total }}}}</p>\n");
        assert!(find(&old, &new, "order.j2").is_empty());
    }

    #[test]
    fn a_file_rewritten_whole_is_judged_without_weighing_every_pair() {
        // One hunk of 20,000 lines on each side: pairing every new line
        // with every removed one by likeness never finished.
        let old: String = (0..20_000)
            .map(|i| format!("    value_{i} = compute_{i}(alpha, beta) + {i}\n"))
            .collect();
        let new: String = (0..20_000)
            .map(|i| format!("    result_{i} = derive_{i}(gamma, delta) - {i}\n"))
            .collect();
        // Other code throughout, nothing standing in: no finding here (the
        // ratios judge it).
        assert!(find(&old, &new, "a.py").is_empty());
        // Re-spaced throughout: every line pairs by its key, in a hunk that
        // large too.
        let spaced = old.replace(") + ", ")  +  ");
        assert!(find(&old, &spaced, "a.py").is_empty());
    }

    #[test]
    fn stubs_and_emptied_bodies_are_found() {
        let old = "def f(x):\n    y = x * 2\n    z = y + 1\n    return z\n";
        let f = find(old, "def f(x):\n    ...\n", "x.py");
        assert_eq!(f.first().map(|f| &f.kind), Some(&Removal::Stub), "{f:?}");
        let mk = "build:\n\tcc -o app main.c\n\tstrip app\n\ntest: build\n\t./app --test\n";
        let f = find(mk, "build:\n\ntest: build\n\t./app --test\n", "Makefile");
        assert_eq!(
            f.first().map(|f| &f.kind),
            Some(&Removal::EmptiedBody),
            "{f:?}"
        );
    }

    #[test]
    fn judging_around_the_change_judges_as_the_whole_file() {
        // Random edits of a file with block comments and docstrings: the
        // findings made from the changed lines and their context are the
        // findings made from the whole of both sides.
        let py = (0..60)
            .map(|i| {
                format!(
                    "def f{i}(x):\n    \"\"\"Doc {i}.\n\n    More.\n    \"\"\"\n    y = x * {i}\n    z = y + {i}\n    return z\n\n"
                )
            })
            .collect::<String>();
        let rs = (0..60)
            .map(|i| format!("/* f{i}\n * does {i}\n */\nfn f{i}(x: u64) -> u64 {{\n    let y = x * {i};\n    let z = y + 1;\n    z\n}}\n\n"))
            .collect::<String>();
        let edits = [
            "    # same as before\n",
            "    ...\n",
            "",
            "/* rest */\n",
            "    \"\"\"\n",
            "    pass\n",
            "x = 1\n",
        ];
        let mut rng = 0x9e37_79b9_u64;
        let mut next = |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        for (name, text) in [("x.py", &py), ("x.rs", &rs)] {
            let lang = from_path(name).expect("a language");
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            for _ in 0..200 {
                let at = next(lines.len());
                let len = next(8);
                let mut new: Vec<&str> = lines[..at].to_vec();
                new.push(edits[next(edits.len())]);
                new.extend(&lines[(at + len).min(lines.len())..]);
                let new = new.concat();
                let w = findings_in(text, &new, lang, nowhere(), true, None);
                let all = findings_in(text, &new, lang, nowhere(), false, None);
                assert_eq!(w, all, "{name} at {at} len {len}");
            }
        }
    }

    /// A line's end and indent, read from the text when asked for, are
    /// those of the line as split: its text trimmed as `str::trim` does
    /// (Unicode's spaces, the vertical tab, a `\r` before the `\n`), its
    /// leading spaces and tabs counted, a blank line empty at its end.
    #[test]
    fn lines_read_their_end_and_indent_from_the_text() {
        let lang = from_path("x.rs").expect("rust");
        let text = "fn a() {\n\t  let x = 1;  \r\n\u{a0}\u{2003}y\u{3000}\n\n   \n\
                    \x0b z \x0b\n\t\t// note\t\n\u{85}w\u{2028}\n}\n  last";
        let lines = classify(text, lang);
        let mut at = 0;
        let mut expected = Vec::new();
        for raw in text.split('\n') {
            let lead = raw.trim_start();
            let start = at + raw.len() - lead.len();
            let indent: u32 = raw
                .bytes()
                .take_while(|b| *b == b' ' || *b == b'\t')
                .map(|b| if b == b'\t' { 4 } else { 1 })
                .sum();
            expected.push((start, lead.trim_end(), indent));
            at += raw.len() + 1;
        }
        let got: Vec<(usize, &str, u32)> = lines
            .iter()
            .map(|l| (l.start(), l.text(text), l.indent(text)))
            .collect();
        assert_eq!(got, expected);
        for l in &lines {
            assert_eq!(l.end(text), l.start() + l.text(text).len());
            let moved = l.moved(0, 7);
            assert_eq!(
                (moved.start(), moved.key, moved.class(), moved.word()),
                (l.start() + 7, l.key, l.class(), l.word())
            );
        }
        let classes: Vec<Class> = lines.iter().map(Line::class).collect();
        assert!(classes.contains(&Class::Blank) && classes.contains(&Class::Comment));
        assert!(lines.iter().any(|l| l.word()) && lines.iter().any(|l| !l.word()));
    }

    /// Edits all through a file (every k-th line) of tokens that open or
    /// close comments, docstrings and strings, line endings changed,
    /// wide characters, the first and last lines: the lines classed with
    /// the shared stretches classed once are the lines classed one by one,
    /// and the findings those of the whole of both sides.
    #[test]
    fn edits_all_through_class_and_judge_as_whole_files() {
        let py = (0..40)
            .map(|i| format!("def f{i}(x):\n    \"\"\"Doc {i}.\n    \"\"\"\n    y = x * {i}\n    return y\n\n"))
            .collect::<String>();
        let rs = (0..40)
            .map(|i| format!("/* f{i}\n */\nfn f{i}(x: u64) -> u64 {{\n    let y = \"é{i}\";\n    y + 1\n}}\n"))
            .collect::<String>();
        let tokens = [
            "/*",
            "*/",
            "\"\"\"",
            "'''",
            "#",
            "//",
            "\"",
            "",
            "    pass",
            "    # same\n",
            "日本",
            // A changed line that ends otherwise than the old one (the state
            // a docstring's reading depends on), or opens a bracket, a raw
            // string or a character.
            " =",
            "(",
            "    // same as before",
            "r#\"",
            "'",
        ];
        let fields = |ls: &[Line], t: &str| -> Vec<(usize, usize, u64, Class, u32, bool)> {
            ls.iter()
                .map(|l| (l.start(), l.end(t), l.key, l.class(), l.indent(t), l.word()))
                .collect()
        };
        let mut paired = 0;
        for (name, text) in [("x.py", &py), ("x.rs", &rs)] {
            let lang = from_path(name).expect("a language");
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            for k in [3, 7, 20] {
                for from in [0, 1, 2] {
                    for (t, token) in tokens.iter().enumerate() {
                        let edited = |l: &str| match t % 3 {
                            0 => format!("{token}{l}"),
                            1 => l.replacen('\n', &format!("{token}\n"), 1),
                            _ => format!("{token}\r\n"),
                        };
                        let new: String = lines
                            .iter()
                            .enumerate()
                            .map(|(i, l)| {
                                if i >= from && (i - from).is_multiple_of(k) {
                                    edited(l)
                                } else {
                                    l.to_string()
                                }
                            })
                            .collect();
                        // Also with the last line's `\n` dropped: that line
                        // is then the new side's own, after the copied ones.
                        let cut = new.trim_end_matches('\n');
                        for (x, y) in [
                            (text.as_str(), new.as_str()),
                            (&new, text),
                            (text, cut),
                            (cut, text),
                        ] {
                            if let Some(parts) = measure::hunks(x.as_bytes(), y.as_bytes()) {
                                paired += 1;
                                for open in [None, Some(("*/", Class::Comment))] {
                                    let (a, b) = classify_pair(x, y, lang, open, &parts);
                                    assert_eq!(
                                        fields(&a, x),
                                        fields(&classify_from(x, lang, open), x)
                                    );
                                    let whole = classify_from(y, lang, open);
                                    assert_eq!(
                                        fields(&b.all(&a), y),
                                        fields(&whole, y),
                                        "{name}: {x:?} -> {y:?}"
                                    );
                                    let keys: Vec<u64> = whole.iter().map(|l| l.key).collect();
                                    assert_eq!(b.keys(), keys, "{name}: {x:?} -> {y:?}");
                                }
                            }
                            let w = findings_in(x, y, lang, nowhere(), true, None);
                            if let Some(parts) = measure::hunks(x.as_bytes(), y.as_bytes()) {
                                let given = findings_in(x, y, lang, nowhere(), true, Some(&parts));
                                assert_eq!(given, w, "{name}: {x:?} -> {y:?}");
                            }
                            let all = findings_in(x, y, lang, nowhere(), false, None);
                            assert_eq!(w, all, "{name}: {x:?} -> {y:?}");
                        }
                    }
                }
            }
        }
        assert!(paired > 100, "{paired}");
        // Some stretches were copied from a line after their first, where
        // the states met again.
        let later = classify::LATER_ENTRIES.with(|c| c.get());
        assert!(later > 100, "{later}");
    }

    #[test]
    fn shortening_never_cuts_a_word() {
        assert_eq!(shorten_to("one two three", 9), "one two…");
        assert_eq!(shorten_to("short", 9), "short");
        assert_eq!(shorten_to("abcdefghijkl", 5), "abcd…");
    }

    #[test]
    fn bucketed_unique_lines_are_the_hashed_ones() {
        // Keys drawn from small and large alphabets (many repeated, many
        // unique), spread over the buckets by their top bits.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (len, alphabet) in [
            (0, 1),
            (1, 1),
            (50, 7),
            (3000, 40),
            (20_000, 15_000),
            (20_000, u64::MAX),
            // Past the size sorted on two threads.
            (80_000, 60_000),
        ] {
            let mut key = |_| {
                let k = next() % alphabet;
                k.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ (k << 60)
            };
            let a: Vec<u64> = (0..len).map(&mut key).collect();
            let mut b: Vec<u64> = (0..len).map(&mut key).collect();
            b.extend_from_slice(&a[..len / 2]);
            for (x, y) in [(&a, &b), (&b, &a), (&a, &a)] {
                assert_eq!(
                    unique_pairs_bucketed(x, y),
                    unique_pairs(x, y),
                    "{len} {alphabet}"
                );
            }
        }
    }

    #[test]
    fn the_diff_matches_what_is_common() {
        let a = [1, 2, 3, 4, 5, 6];
        let b = [1, 9, 3, 4, 6];
        let d = diff(&a, &b);
        assert_eq!(d, vec![(0, 0), (2, 2), (3, 3), (5, 4)]);
        assert_eq!(hunks(&matched(&a, &b), 5), vec![(1..2, 1..2), (4..5, 4..4)]);
        assert_eq!(hunks(&[0], 2), vec![(1..1, 1..2)]);
    }
}
