//! Matching a request's tokens against the intent table.
//!
//! The tokens are grouped into spans, the longest lexicon phrase at each
//! position; a row matches when one of its `needs` sets is present and
//! every span is explained: by a concept the row takes, by politeness or a
//! filler anywhere, by a greeting or lead-in at the edges, or by filling
//! one of the row's slots. A trigger (condition, negation, question,
//! scope) explains nothing unless the row lists it. Pure.

use super::index::{phrases, Set};
use super::lexicon::{ANYWHERE, C, EDGE, TRIGGERS};
use super::normalize::{Tok, KNOWN_FILES};
use super::table::{Flag, Need, Row, When};
use crate::git::pathspec::STORE;

/// A group of tokens: one lexicon phrase, or one word the lexicon does
/// not know (`set` empty), or one quoted span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// What the phrase means.
    pub set: Set,
    /// Its first token.
    pub from: usize,
    /// One past its last token.
    pub to: usize,
}

/// The phrases that match at each token, longest first; none where the
/// lexicon knows no phrase starting there (a quoted span never matches).
/// One flat list with each token's share marked by offsets: a request is
/// read several times per routing, and a `Vec` per token was a large part
/// of its allocations.
#[derive(Debug, Clone, Default)]
pub struct Cands {
    /// Every token's phrases, token after token.
    spans: Vec<Span>,
    /// Where token `i`'s phrases start in `spans`; one entry per token plus
    /// one past the last.
    start: Vec<usize>,
}

impl Cands {
    /// How many tokens.
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The phrases starting at token `i`, longest first.
    pub fn at(&self, i: usize) -> &[Span] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.spans[a..b],
            _ => &[],
        }
    }

    /// Every phrase of every token.
    pub fn all(&self) -> &[Span] {
        &self.spans
    }
}

/// The phrases that match at each token (see [`Cands`]).
pub fn candidates(toks: &[Tok]) -> Cands {
    let mut out = Cands {
        spans: Vec::with_capacity(toks.len() * 2),
        start: Vec::with_capacity(toks.len() + 1),
    };
    for (i, t) in toks.iter().enumerate() {
        out.start.push(out.spans.len());
        if t.quoted {
            continue;
        }
        let found = phrases(&t.norm).iter().filter(|p| {
            let n = p.words.len();
            i + n <= toks.len()
                && p.words
                    .iter()
                    .zip(&toks[i..i + n])
                    .all(|(w, t)| !t.quoted && t.norm == *w)
                && !toks[i..i + n - 1].iter().any(|t| t.pause)
        });
        out.spans.extend(found.map(|p| Span {
            set: p.set,
            from: i,
            to: i + p.words.len(),
        }));
    }
    out.start.push(out.spans.len());
    out
}

/// Groups tokens into spans for a row: at each token the longest phrase
/// whose meaning the row accepts, else the token alone (with the meaning
/// of its one-word phrase, if any), which must then fill a slot.
pub fn segment(cands: &Cands, accepts: Set) -> Vec<Span> {
    let mut out = Vec::with_capacity(cands.len());
    let mut i = 0;
    while i < cands.len() {
        let here = cands.at(i);
        let span = here
            .iter()
            .find(|s| s.set.meets(accepts))
            .or_else(|| here.iter().find(|s| s.to == i + 1))
            .copied()
            .unwrap_or(Span {
                set: Set::EMPTY,
                from: i,
                to: i + 1,
            });
        let span = if span.set.meets(accepts) || span.to == i + 1 {
            span
        } else {
            Span {
                set: Set::EMPTY,
                from: i,
                to: i + 1,
            }
        };
        i = span.to;
        out.push(span);
    }
    out
}

/// Groups tokens into spans, the longest phrase at each position.
pub fn spans(toks: &[Tok]) -> Vec<Span> {
    let all = Set(u128::MAX);
    segment(&candidates(toks), all)
}

/// The slots a row was filled with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filled {
    /// Paths as typed.
    pub paths: Vec<String>,
    /// A branch or tag name as typed.
    pub name: Option<String>,
    /// A second branch as typed: where a new branch starts, or the branch
    /// renamed.
    pub from: Option<String>,
    /// Whether `name` was taken without the request marking it as a name
    /// (no quotes, no "called", no shape of one: "switch to develop"): it
    /// stands only for a branch the repository has.
    pub bare_name: bool,
    /// The same for `from`.
    pub bare_from: bool,
    /// A count.
    pub count: Option<u32>,
    /// The message, when a quoted span was taken as one.
    pub message: Option<String>,
    /// The variants chosen.
    pub flags: Vec<Flag>,
}

/// Whether `name` is a name git accepts for a branch or tag.
pub fn valid_ref(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['-', '.', '/'])
        && !name.ends_with(['/', '.'])
        && !name.ends_with(".lock")
        && !name.contains("..")
        && !name.contains("@{")
        && !name.contains("//")
        && name != "@"
        && !name.contains(|c: char| {
            c.is_whitespace()
                || c.is_control()
                || "~^:?*[\\'\"`$".contains(c)
                || !(c.is_alphanumeric() || c.is_ascii())
        })
}

/// Whether a path may be a slot: inside the working tree as typed, not
/// our store, not pathspec magic, not an option.
/// Our store and git's own directory are compared without case: on a
/// case-insensitive file system `.FARARONI/x` is the store.
fn valid_path(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with(['/', '~', '-', ':', '$'])
        && !p
            .split('/')
            .any(|c| c == ".." || c.eq_ignore_ascii_case(STORE) || c.eq_ignore_ascii_case(".git"))
        && !p.contains("://")
        && !p.contains(char::is_control)
}

/// Whether a tag name looks like one: a version, or something with a
/// separator (a bare word needs "called" or quotes).
fn tag_shaped(name: &str) -> bool {
    name_shaped(name)
}

/// Whether a word is shaped like a branch or tag name rather than like a
/// word of prose: it holds a digit or a separator (`feature/x`, `v0.9`,
/// `old-feature`, `fix_2`). A plain word ("old", "dark", "vieja") is a
/// name only when the request says so or the repository has it.
pub fn name_shaped(name: &str) -> bool {
    name.contains(|c: char| c.is_ascii_digit() || "._-/".contains(c))
}

/// What a name may follow.
const NAME_AFTER: Set = Set::of(C::Called)
    .with(C::As)
    .with(C::Go)
    .with(C::To)
    .with(C::Branch)
    .with(C::Tag)
    .with(C::Switch)
    .with(C::Merge);

const INDEFINITE: &[&str] = &[
    "a", "an", "un", "una", "unos", "unas", "another", "otro", "otra",
];

/// Matches one row; `message` is the message found by its framing, if
/// any, which the row must take.
/// `possible` holds every concept any phrase of the request may mean.
pub fn fit(row: &Row, toks: &[Tok], cands: &Cands, possible: Set, message: bool) -> Option<Filled> {
    if !row
        .needs
        .iter()
        .any(|alt| alt.iter().all(|c| possible.has(*c)))
    {
        return None;
    }
    let mut allowed = Set::all(row.may).union(Set::all(ANYWHERE));
    for alt in row.needs {
        allowed = allowed.union(Set::all(alt));
    }
    for (c, _) in row.flags {
        allowed = allowed.with(*c);
    }
    let takes_paths = row.slots.paths != Need::No;
    if takes_paths {
        allowed = allowed.with(C::FileNoun).with(C::FolderNoun).with(C::And);
    }
    let edge = Set::all(EDGE).union(Set::all(ANYWHERE));
    let spans = segment(cands, allowed.union(edge));
    let spans = spans.as_slice();
    let present = spans.iter().fold(Set::EMPTY, |s, sp| s.union(sp.set));
    let need = row
        .needs
        .iter()
        .any(|alt| alt.iter().all(|c| present.has(*c)));
    if !need {
        return None;
    }
    if message && row.slots.message == Need::No {
        return None;
    }
    let triggers = Set::all(TRIGGERS);
    // The runs of greetings, lead-ins and politeness at either end.
    let lead = spans.iter().take_while(|s| s.set.meets(edge)).count();
    let tail = spans.len() - spans.iter().rev().take_while(|s| s.set.meets(edge)).count();
    let mut filled = Filled::default();
    for (k, sp) in spans.iter().enumerate() {
        let explained = sp.set.meets(allowed) || ((k < lead || k >= tail) && sp.set.meets(edge));
        if explained {
            continue;
        }
        if sp.to != sp.from + 1 || sp.set.meets(triggers) {
            return None;
        }
        if !slot(row, toks, spans, k, message, &mut filled) {
            return None;
        }
    }
    if row.slots.name == Need::Required && filled.name.is_none() {
        // "delete the branch merged": a word the row would take as a
        // modifier is the name when nothing else is and a marker precedes.
        let needed = row
            .needs
            .iter()
            .flat_map(|a| a.iter())
            .fold(Set::EMPTY, |s, c| s.with(*c));
        filled.name = spans.iter().enumerate().find_map(|(k, sp)| {
            let t = &toks[sp.from];
            let prev = spans[..k]
                .iter()
                .rev()
                .find(|p| p.set != Set::of(C::Filler));
            let single = sp.to == sp.from + 1;
            let paused = k > 0 && toks[spans[k - 1].to - 1].pause;
            (single
                && !paused
                && prev.is_some_and(|p| p.set.meets(NAME_AFTER))
                && !sp.set.meets(
                    needed
                        .union(triggers)
                        .union(Set::all(ANYWHERE))
                        .union(Set::all(EDGE)),
                )
                && valid_ref(&t.orig))
            .then(|| t.orig.clone())
        });
        filled.bare_name = filled.name.as_deref().is_some_and(|n| !name_shaped(n));
    }
    if row.slots.count != Need::No && filled.count.is_none() {
        // "the last three commits".
        filled.count = spans
            .iter()
            .filter(|s| s.set.has(C::NumberWord))
            .find_map(|s| {
                super::lexicon::NUMBER_WORDS
                    .iter()
                    .find(|(w, _)| *w == toks[s.from].norm)
                    .map(|(_, n)| *n)
            });
    }
    let required = |need: Need, has: bool| need != Need::Required || has;
    if !required(row.slots.paths, !filled.paths.is_empty())
        || !required(row.slots.name, filled.name.is_some())
        || !required(row.slots.count, filled.count.is_some())
        || !required(row.slots.from, filled.from.is_some())
        || !required(row.slots.message, message || filled.message.is_some())
    {
        return None;
    }
    filled.flags = row
        .flags
        .iter()
        .filter(|(c, _)| present.has(*c))
        .map(|(_, f)| *f)
        .collect();
    // A row whose every step is conditional must have one that applies.
    let applies = |w: When| match w {
        When::Always => true,
        When::If(f) => filled.flags.contains(&f),
        When::Unless(f) => !filled.flags.contains(&f),
        When::Paths => !filled.paths.is_empty(),
        When::NoPaths => filled.paths.is_empty(),
        When::OnePath => filled.paths.len() == 1,
        When::ManyPaths => filled.paths.len() > 1,
        When::Count => filled.count.is_some(),
        When::NoCount => filled.count.is_none(),
        When::Name => filled.name.is_some(),
        When::NoName => filled.name.is_none(),
        When::From => filled.from.is_some(),
        When::NoFrom => filled.from.is_none(),
    };
    if !row.steps.iter().any(|(w, _)| applies(*w)) {
        return None;
    }
    Some(filled)
}

/// Fills a slot of `row` with the single-token span `k`; returns whether
/// it could.
fn slot(
    row: &Row,
    toks: &[Tok],
    spans: &[Span],
    k: usize,
    message: bool,
    filled: &mut Filled,
) -> bool {
    let sp = spans[k];
    let t = &toks[sp.from];
    let takes_paths = row.slots.paths != Need::No;
    let takes_name = row.slots.name != Need::No && filled.name.is_none();
    // A name comes after "called", "to", "as", a branch or tag noun or a
    // verb that takes one ("checkout develop"), or right before a branch
    // or tag noun ("the develop branch").
    let meaningful = |p: &&Span| p.set != Set::of(C::Filler);
    let prev = spans[..k].iter().rev().find(meaningful);
    let next = spans[k + 1..].iter().find(meaningful);
    let after_marker = prev.is_some_and(|p| p.set.meets(NAME_AFTER));
    let before_noun = next.is_some_and(|n| n.set.meets(Set::of(C::Branch).with(C::Tag)));
    let from_marker = prev.is_some_and(|p| p.set.has(C::From));
    let takes_from = row.slots.from != Need::No && filled.from.is_none();
    // "rename branch old-feature to legacy": the branch renamed comes
    // right after the branch noun (or the verb) and before "to".
    let renamed = row.intent == super::Intent::BranchRename
        && prev.is_some_and(|p| p.set.meets(Set::of(C::Branch).with(C::Rename)))
        && next.is_some_and(|n| n.set.has(C::To));
    if t.quoted {
        if takes_paths && t.path_like() && valid_path(&t.orig) {
            filled.paths.push(t.orig.clone());
        } else if takes_from && (from_marker || renamed) && valid_ref(&t.orig) {
            filled.from = Some(t.orig.clone());
        } else if takes_name && valid_ref(&t.orig) {
            filled.name = Some(t.orig.clone());
        } else if row.slots.message != Need::No && !message && filled.message.is_none() {
            filled.message = Some(t.orig.clone());
        } else {
            return false;
        }
        return true;
    }
    // A path after "a"/"un" is something to create, not a file to act on.
    let indefinite = k > 0 && INDEFINITE.contains(&toks[spans[k - 1].to - 1].norm.as_str());
    if takes_paths && !indefinite {
        if t.path_like() {
            if !valid_path(&t.orig) {
                return false;
            }
            filled.paths.push(t.orig.clone());
            return true;
        }
        // "the src folder", "la carpeta docs".
        let folder = Set::of(C::FolderNoun);
        let near = |j: Option<&Span>| j.is_some_and(|s| s.set.meets(folder));
        let beside = near(spans.get(k + 1)) || near(k.checked_sub(1).and_then(|j| spans.get(j)));
        if sp.set.is_empty() && beside && valid_path(&t.orig) {
            filled.paths.push(t.orig.clone());
            return true;
        }
    }
    if row.slots.count != Need::No && filled.count.is_none() {
        if let Some(n) = t.number() {
            filled.count = Some(n);
            return true;
        }
    }
    // Thanks, greetings and politeness are never a name ("te pasaste,
    // gracias" is praise, not "switch to the branch gracias"), nor is a
    // word after a pause that follows the marker ("switch, develop").
    let courtesy = Set::all(EDGE).union(Set::all(ANYWHERE));
    let paused = k > 0 && toks[spans[k - 1].to - 1].pause;
    if takes_from
        && (from_marker || renamed)
        && (sp.set.is_empty() || name_shaped(&t.orig))
        && valid_ref(&t.orig)
        && !sp.set.meets(courtesy)
        && !paused
    {
        filled.from = Some(t.orig.clone());
        filled.bare_from = !name_shaped(&t.orig);
        return true;
    }
    if takes_name && valid_ref(&t.orig) && !sp.set.meets(courtesy) && !paused {
        // A word the lexicon knows is a name only right after a marker; a
        // tag also needs a version's shape unless named so.
        let unknown = sp.set.is_empty();
        let tag = row.intent == super::Intent::TagCreate;
        let called = prev.is_some_and(|p| p.set.has(C::Called));
        let named = prev.is_some_and(|p| p.set.meets(Set::of(C::Called).with(C::As)));
        let shaped = !tag || named || tag_shaped(&t.orig);
        let version = tag && unknown && tag_shaped(&t.orig);
        // "force delete old-feature": forcing names what it deletes.
        let forced = row.intent == super::Intent::BranchDelete
            && prev.is_some_and(|p| p.set.has(C::Delete) && p.set.has(C::Force));
        if (after_marker || forced || (unknown && before_noun) || version) && shaped {
            filled.name = Some(t.orig.clone());
            // "as" names a tag ("tag this as stable"), never a branch
            // ("switch to dark mode" is not `git switch dark`).
            // "rename … to trunk": what a rename goes to is a name.
            let renamed_to = row.intent == super::Intent::BranchRename
                && prev.is_some_and(|p| p.set.has(C::To) || p.set.has(C::Rename));
            filled.bare_name = !(called || (tag && named) || renamed_to || name_shaped(&t.orig));
            return true;
        }
    }
    false
}

/// Whether `w` is a file name people write bare ("the README").
pub fn known_file(w: &str) -> bool {
    KNOWN_FILES.contains(&crate::text::fold(w).as_str())
}
