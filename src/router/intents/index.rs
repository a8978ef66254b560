//! Lookup structures over the lexicon, built on first use in a process
//! (a few thousand short strings, well under a millisecond): phrases by
//! their first word, the set of known words, and the words typos are
//! corrected towards, by length.
//!
//! Pure; never does I/O.

use crate::router::hash::{FastMap as HashMap, FastSet as HashSet};
use std::sync::OnceLock;

use super::lexicon::{C, EDGE, NUMBER_WORDS, TRIGGERS, WORDS};

/// A set of concepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Set(pub(super) u128);

impl Set {
    /// The empty set.
    pub const EMPTY: Set = Set(0);

    /// The set holding one concept.
    pub const fn of(c: C) -> Set {
        Set(1 << c as u8)
    }

    /// The set holding every concept of `cs`.
    pub fn all(cs: &[C]) -> Set {
        cs.iter().fold(Set::EMPTY, |s, c| s.with(*c))
    }

    /// This set with `c` added.
    pub const fn with(self, c: C) -> Set {
        Set(self.0 | Set::of(c).0)
    }

    /// Whether `c` is in the set.
    pub const fn has(self, c: C) -> bool {
        self.0 & Set::of(c).0 != 0
    }

    /// Whether the sets share a concept.
    pub const fn meets(self, other: Set) -> bool {
        self.0 & other.0 != 0
    }

    /// The union.
    pub const fn union(self, other: Set) -> Set {
        Set(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A phrase of the lexicon: its words and every concept it belongs to.
pub struct Phrase {
    /// The words, folded.
    pub words: Vec<&'static str>,
    /// The concepts that list this exact phrase.
    pub set: Set,
}

struct Index {
    /// Phrases by first word, longest first.
    by_first: HashMap<&'static str, Vec<Phrase>>,
    /// Every word of every phrase, and the number words.
    known: HashSet<&'static str>,
    /// Correction targets by length, then by first and by second letter.
    targets: Vec<Targets>,
    /// Spanish sound of a target, when only one target sounds so.
    sounds: HashMap<String, Option<&'static str>>,
    /// What each one-word phrase means, to tell whether two equally near
    /// corrections mean the same.
    meaning: HashMap<&'static str, Set>,
}

/// The correction targets of one length, by their first and by their
/// second letter: a typo keeps the first or the second letter, or swaps
/// them, so a word is compared only with the targets of three buckets.
#[derive(Default)]
struct Targets {
    /// By first letter (`a`..`z`), with the letters each holds.
    first: [Vec<(&'static str, u32)>; 26],
    /// By second letter.
    second: [Vec<(&'static str, u32)>; 26],
}

/// A letter's bucket, for lower-case ASCII letters only (targets hold
/// nothing else).
fn bucket(b: Option<&u8>) -> Option<usize> {
    b.filter(|b| b.is_ascii_lowercase())
        .map(|b| usize::from(b - b'a'))
}

impl Targets {
    fn add(&mut self, w: &'static str) {
        let entry = (w, letters(w.as_bytes()));
        let b = w.as_bytes();
        if let Some(i) = bucket(b.first()) {
            self.first[i].push(entry);
        }
        if let Some(i) = bucket(b.get(1)) {
            self.second[i].push(entry);
        }
    }

    /// The targets that keep `w`'s first letter, or its second, or have
    /// its first as their second: each once, in the order the buckets give.
    fn plausible<'a>(&'a self, w: &'a [u8]) -> impl Iterator<Item = &'a (&'static str, u32)> {
        let get = |table: &'a [Vec<(&'static str, u32)>; 26], b: Option<&u8>| {
            bucket(b).map_or(&[][..], |i| table[i].as_slice())
        };
        let (w0, w1) = (w.first(), w.get(1));
        let by_first = get(&self.first, w0);
        let keep_second = get(&self.second, w1)
            .iter()
            .filter(move |(t, _)| t.as_bytes().first() != w0);
        let swapped = get(&self.second, w0).iter().filter(move |(t, _)| {
            let t = t.as_bytes();
            // Already seen in one of the two buckets before.
            t.first() != w0 && t.get(1) != w1
        });
        by_first.iter().chain(keep_second).chain(swapped)
    }
}

fn build() -> Index {
    let mut sets: HashMap<&'static str, Set> = HashMap::default();
    for words in WORDS {
        for p in words.en.iter().chain(words.es) {
            let s = sets.entry(*p).or_default();
            *s = s.with(words.concept);
        }
    }
    for (word, _) in NUMBER_WORDS {
        let s = sets.entry(*word).or_default();
        *s = s.with(C::NumberWord);
    }
    let mut by_first: HashMap<&'static str, Vec<Phrase>> = HashMap::default();
    let mut known = HashSet::default();
    let edge_or_trigger = Set::all(EDGE).union(Set::all(TRIGGERS)).with(C::Filler);
    let mut target_set: HashSet<&'static str> = HashSet::default();
    for (phrase, set) in &sets {
        let words: Vec<&'static str> = phrase.split(' ').collect();
        for w in &words {
            known.insert(*w);
            // Typos are fixed towards what requests are about (and towards
            // politeness, which is everywhere), never towards a word that
            // only greets, fills, or turns a request into a question.
            let about =
                !(set.0 & !edge_or_trigger.0 == 0 && !set.has(C::Polite) && !set.has(C::Thanks));
            if about && w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()) {
                target_set.insert(*w);
            }
        }
        by_first
            .entry(words[0])
            .or_default()
            .push(Phrase { words, set: *set });
    }
    // A program's name is never a target: "gti status" is a mistyped
    // command, which is suggested, never corrected and run.
    target_set.remove("git");
    // A word that is also a trigger is never a target either.
    for words in WORDS.iter().filter(|w| TRIGGERS.contains(&w.concept)) {
        for p in words.en.iter().chain(words.es) {
            target_set.remove(p);
        }
    }
    for list in by_first.values_mut() {
        list.sort_by(|a, b| {
            b.words
                .len()
                .cmp(&a.words.len())
                .then(a.words.cmp(&b.words))
        });
    }
    let mut targets: Vec<Targets> = Vec::new();
    let mut sounds: HashMap<String, Option<&'static str>> = HashMap::default();
    let mut sorted: Vec<&'static str> = target_set.into_iter().collect();
    sorted.sort_unstable();
    for w in sorted {
        let n = w.chars().count();
        if targets.len() <= n {
            targets.resize_with(n + 1, Targets::default);
        }
        targets[n].add(w);
        sounds
            .entry(sound(w))
            .and_modify(|e| {
                if *e != Some(w) {
                    *e = None;
                }
            })
            .or_insert(Some(w));
    }
    let mut meaning: HashMap<&'static str, Set> = HashMap::default();
    for (p, set) in &sets {
        if !p.contains(' ') {
            let m = meaning.entry(*p).or_default();
            *m = m.union(*set);
        }
    }
    Index {
        by_first,
        known,
        targets,
        sounds,
        meaning,
    }
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(build)
}

/// Whether `word` is a word of the lexicon.
pub fn known(word: &str) -> bool {
    index().known.contains(word)
}

/// The phrases that start with `word`, longest first.
pub fn phrases(word: &str) -> &'static [Phrase] {
    index().by_first.get(word).map_or(&[], Vec::as_slice)
}

/// How a Spanish speaker would write `w` by ear: no `h`, one letter for
/// the sounds of s/z/c, b/v, y/ll, k/qu/c.
pub fn sound(w: &str) -> String {
    // Read with one character of look-ahead rather than collected into a
    // Vec<char>: this runs for several words of every request.
    let mut out = String::with_capacity(w.len());
    let mut chars = w.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            'h' => {}
            'z' => out.push('s'),
            'c' if matches!(next, Some('e' | 'i')) => out.push('s'),
            'c' | 'k' => out.push('k'),
            'q' if next == Some('u') => {
                out.push('k');
                chars.next();
            }
            'v' => out.push('b'),
            'l' if next == Some('l') => {
                out.push('y');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// Keys next to each other on a QWERTY keyboard.
fn neighbours(a: char, b: char) -> bool {
    const ROWS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
    let pos = |c: char| {
        ROWS.iter()
            .enumerate()
            .find_map(|(r, row)| row.find(c).map(|i| (r as i32, i as i32)))
    };
    match (pos(a), pos(b)) {
        // Rows are staggered: a key touches two keys of the row below.
        (Some((ra, ia)), Some((rb, ib))) => match ra - rb {
            0 => (ia - ib).abs() == 1,
            -1 => ib == ia || ib == ia - 1,
            1 => ia == ib || ia == ib - 1,
            _ => false,
        },
        _ => false,
    }
}

/// The letters a word holds, one bit each: an edit changes at most two
/// bits, so words whose bits differ in more than twice the budget are
/// never compared.
fn letters(w: &[u8]) -> u32 {
    w.iter()
        .filter(|b| b.is_ascii_lowercase())
        .fold(0, |m, b| m | 1 << (b - b'a'))
}

/// The longest word corrections consider.
const LONGEST: usize = 31;

/// The edit budget for a word of `n` characters.
fn budget(n: usize) -> usize {
    match n {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The most corrections a word may have for the parser to try them all.
const MAX_CHOICES: usize = 4;

/// The one lexicon word `word` is a typo of, if there is exactly one (or
/// all the nearest mean the same).
#[cfg(test)]
pub fn nearest(word: &str) -> Option<&'static str> {
    match corrections(word).as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// The lexicon words `word` may be a typo of: those at the smallest
/// distance within the budget (one word when they all mean the same), at
/// most [`MAX_CHOICES`]; the parser tries each and acts only if they
/// agree (see [`super::normalize::correct`]).
pub fn corrections(word: &str) -> Vec<&'static str> {
    let ix = index();
    // Folded words are ASCII; anything else is not a typo of ours.
    if !word.is_ascii() {
        return Vec::new();
    }
    let w = word.as_bytes();
    let n = w.len();
    let sounds = || {
        ix.sounds
            .get(&sound(word))
            .copied()
            .flatten()
            .into_iter()
            .collect()
    };
    if n == 3 {
        // Short words: one key next to the right one, two letters swapped
        // ("hza") or one letter missing ("shw", "tdo"), and nothing else.
        let mut found: Vec<&'static str> = Vec::new();
        let mask = letters(w);
        // A neighbouring key or a swap changes at most two letter bits; a
        // missing letter adds one: most targets are never looked at.
        for (t, bits) in ix.targets.get(3).into_iter().flat_map(|t| t.plausible(w)) {
            if (bits ^ mask).count_ones() > 2 {
                continue;
            }
            let tc = t.as_bytes();
            let mut diffs = (0..3).filter(|&i| tc[i] != w[i]);
            match (diffs.next(), diffs.next(), diffs.next()) {
                (Some(i), None, _) if neighbours(char::from(w[i]), char::from(tc[i])) => {
                    found.push(t)
                }
                (Some(i), Some(j), None) if j == i + 1 && w[i] == tc[j] && w[j] == tc[i] => {
                    found.push(t)
                }
                _ => {}
            }
        }
        for (t, bits) in ix.targets.get(4).into_iter().flat_map(|t| t.plausible(w)) {
            if bits & mask != mask || (bits ^ mask).count_ones() > 1 {
                continue;
            }
            let tc = t.as_bytes();
            let missing = (0..4).any(|skip| {
                tc.iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .map(|(_, c)| *c)
                    .eq(w.iter().copied())
            });
            if missing {
                found.push(t);
            }
        }
        return if found.is_empty() {
            sounds()
        } else {
            choices(ix, found)
        };
    }
    let max = budget(n);
    let mask = letters(w);
    let mut best: Option<usize> = None;
    let mut at_best: Vec<&'static str> = Vec::new();
    for len in n.saturating_sub(max)..=n + max {
        for (t, bits) in ix.targets.get(len).into_iter().flat_map(|t| t.plausible(w)) {
            if (bits ^ mask).count_ones() as usize > 2 * max {
                continue;
            }
            let tv = t.as_bytes();
            // A typo keeps the first or the second letter, or swaps them.
            let plausible = tv[0] == w[0] || tv.get(1) == w.get(1) || tv.get(1) == Some(&w[0]);
            if !plausible {
                continue;
            }
            if w.len() > LONGEST || tv.len() > LONGEST {
                continue;
            }
            let Some(d) = crate::text::distance::osa(w, tv, max) else {
                continue;
            };
            match best {
                Some(bd) if d > bd => {}
                Some(bd) if d == bd => at_best.push(t),
                _ => {
                    best = Some(d);
                    at_best = vec![*t];
                }
            }
        }
    }
    match best {
        Some(_) => choices(ix, at_best),
        None => sounds(),
    }
}

/// Equally near corrections, one per meaning ("renombra" and "renombrar"
/// for "reenombar" mean the same); none when there are too many to try.
fn choices(ix: &Index, mut found: Vec<&'static str>) -> Vec<&'static str> {
    let meaning = |w: &str| ix.meaning.get(w).copied().unwrap_or_default();
    found.sort_by_key(|w| (std::cmp::Reverse(meaning(w).0.count_ones()), *w));
    let mut out: Vec<&'static str> = Vec::new();
    for w in found {
        if !out.iter().any(|o| meaning(o) == meaning(w)) {
            out.push(w);
        }
    }
    if out.len() > MAX_CHOICES {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_corrected_towards_the_lexicon() {
        for (typo, word) in [
            ("coomit", "commit"),
            ("comit", "commit"),
            ("commti", "commit"),
            ("cmomit", "commit"),
            ("hsz", "haz"),
            ("evrything", "everything"),
            ("everyting", "everything"),
            ("brnach", "branch"),
            ("stauts", "status"),
            ("aser", "hacer"),
            ("asme", "hazme"),
        ] {
            assert_eq!(nearest(typo), Some(word), "{typo}");
        }
    }

    #[test]
    fn keys_next_to_each_other() {
        assert!(neighbours('a', 's') && neighbours('s', 'z') && neighbours('e', 'd'));
        assert!(!neighbours('a', 'l') && !neighbours('q', 'm'));
    }
}
