//! From a request to tokens the table can be matched against: quoted spans
//! kept whole, punctuation and emoji set aside, case and accents folded,
//! stretched letters squeezed ("porfaaa"), chat abbreviations written out
//! ("xfa", "grax", "q"), and, on demand, typos corrected towards the
//! lexicon within an edit budget that grows with the word's length.
//!
//! Pure; never does I/O.

use crate::router::hash::{FastMap as HashMap, FastSet as HashSet};
use std::cell::OnceCell;
use std::sync::OnceLock;

use super::index;
use crate::shell::words::closing_quote;
use crate::text::fold;

/// One word of a request, or one quoted span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    /// The text as typed, without surrounding punctuation (a quoted
    /// span's content, without its quotes).
    pub orig: String,
    /// Folded, squeezed, abbreviations written out, possibly corrected.
    pub norm: String,
    /// Whether it was a quoted span.
    pub quoted: bool,
    /// Whether a `:` followed it ("message: …").
    pub colon: bool,
    /// Whether a `,`, `;` or `:` followed it: no phrase runs across.
    pub pause: bool,
    /// Byte offset of the token (its opening quote, for a quoted span).
    pub start: usize,
    /// Byte offset just past it (past its closing quote).
    pub end: usize,
}

impl Tok {
    /// Whether the token is shaped like a path: quoted names of files,
    /// `src/`, `README.md`, `.env`, `*.log`, or a well-known file name.
    pub fn path_like(&self) -> bool {
        let t = self.orig.as_str();
        // Most words hold none of a path's marks: only a well-known file
        // name is one then (what the rules below conclude for them).
        if !self.quoted && !t.contains(['/', '.', '*', ':']) {
            return !t.is_empty() && KNOWN_FILES.contains(&self.norm.as_str());
        }
        if t.is_empty() || t.contains("://") {
            return false;
        }
        // A quoted word is a path only when shaped like one ("commit
        // 'arreglo'" states a message, "commit 'a b.txt'" names a file).
        if self.quoted {
            return t.contains(['/', '.', '*']) || KNOWN_FILES.contains(&self.norm.as_str());
        }
        // "w/": "with", not a directory.
        if self.norm == "with" {
            return false;
        }
        if t.contains('/') || t.starts_with('*') {
            return true;
        }
        if KNOWN_FILES.contains(&self.norm.as_str()) {
            return true;
        }
        let name = t.rsplit('/').next().unwrap_or(t);
        match name.rsplit_once('.') {
            Some((stem, ext)) => {
                !ABBREVIATIONS_WITH_DOTS.contains(&self.norm.as_str())
                    && (1..=10).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    && ext.chars().any(|c| c.is_ascii_alphabetic())
                    && (stem.is_empty() || stem.chars().any(char::is_alphanumeric))
            }
            None => false,
        }
    }

    /// Whether the token is a count: digits, 1 to 10000.
    pub fn number(&self) -> Option<u32> {
        if self.quoted || !self.orig.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        self.orig.parse().ok().filter(|n| (1..=10_000).contains(n))
    }
}

/// File names people write without an extension or a slash.
pub const KNOWN_FILES: &[&str] = &[
    "readme",
    "license",
    "licence",
    "makefile",
    "dockerfile",
    "changelog",
    "gemfile",
    "procfile",
    "jenkinsfile",
    "vagrantfile",
    "justfile",
    "rakefile",
    "codeowners",
    "authors",
    "contributing",
    "copying",
    "notice",
];

/// Words whose `'s` is "is" or "us", not a possessive.
const CONTRACTED: &[&str] = &[
    "let", "what", "it", "that", "there", "here", "he", "she", "who", "where", "how", "wat",
    "whats",
];

/// Words with dots that are not file names.
const ABBREVIATIONS_WITH_DOTS: &[&str] = &["e.g", "i.e", "etc", "p.ej", "a.m", "p.m", "vs", "u.s"];

/// Chat abbreviations and common misspellings, written out. A replacement
/// may be several words.
#[rustfmt::skip]
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("pls", "please"), ("plz", "please"), ("plis", "please"), ("pliss", "please"), ("plox", "please"),
    ("pleas", "please"), ("pleez", "please"), ("xfa", "por favor"), ("xfavor", "por favor"),
    ("porfavor", "por favor"), ("porfas", "porfa"), ("porfiss", "porfis"),
    ("grax", "gracias"), ("grx", "gracias"), ("grasias", "gracias"), ("grasia", "gracias"), ("gracia", "gracias"),
    ("thx", "thanks"), ("thnx", "thanks"), ("tnx", "thanks"), ("thks", "thanks"), ("tks", "thanks"),
    ("ty", "thanks"), ("tysm", "thanks"), ("tq", "thanks"),
    ("kk", "ok"), ("okey", "ok"), ("okay", "ok"), ("oki", "ok"), ("okis", "ok"), ("okk", "ok"), ("okok", "ok"),
    ("q", "que"), ("ke", "que"), ("xq", "porque"), ("pq", "porque"), ("porq", "porque"),
    ("tb", "tambien"), ("tmb", "tambien"), ("tmbn", "tambien"), ("d", "de"), ("pa", "para"),
    ("toy", "estoy"), ("msj", "mensaje"), ("msje", "mensaje"), ("msg", "message"), ("u", "you"),
    ("ur", "your"), ("r", "are"), ("cmt", "commit"), ("cn", "can"), ("hz", "haz"), ("hzme", "hazme"), ("rn", "right now"),
    ("ase", "hace"), ("aser", "hacer"), ("asme", "hazme"), ("hasme", "hazme"), ("haslo", "hazlo"),
    ("whats", "what's"), ("wats", "what's"), ("wat", "what"), ("wut", "what"), ("im", "i'm"),
    ("dont", "don't"), ("doesnt", "doesn't"), ("cant", "can't"), ("wont", "won't"), ("lemme", "let me"),
    ("gimme", "give me"), ("wanna", "want to"), ("gonna", "going to"), ("hw", "how"), ("bc", "because"),
    ("nd", "nada"), ("bn", "bien"), ("tmr", "tomorrow"), ("dps", "despues"), ("dsp", "despues"),
    ("k", "que"), ("teh", "the"), ("hte", "the"), ("th", "the"),
];

/// Real words close to the lexicon that must never be corrected into it
/// ("state" is not a typo of "stage", nor "comment" of "commit").
#[rustfmt::skip]
const PROTECTED: &[&str] = &[
    "state", "states", "stats", "statue", "static", "estate", "stack", "stacks", "slash", "smash", "stage",
    "comment", "comments", "commute", "summit", "limit", "vomit", "emit", "omit", "submit", "commits",
    "committed", "committee", "commitment", "bench", "brunch", "ranch", "lunch", "rush", "bush", "posh",
    "pull", "pulls", "push", "shop", "slow", "snow", "shoe", "blog", "flog", "frog", "dog", "fog", "lag",
    "tab", "tabs", "bag", "bags", "rags", "tap", "taps", "leg", "lot", "lots", "cliff", "riff", "flame",
    "blade", "blamed", "undue", "resent", "preset", "rest", "merger", "emerge", "verge", "range", "charge",
    "chance", "orange", "ropa", "toda", "apple", "amply", "reply", "remove",
    "removes", "remote", "mine", "main", "man", "tag", "tags", "cache", "caches", "cash", "crash", "trash",
    "stash", "staff", "stuff", "stiff", "shift", "sift", "gift", "list", "lost", "last", "past", "cast",
    "fast", "test", "tests", "tested", "text", "next", "best", "rest", "nest", "west", "show", "shows",
    "showed", "sow", "snowed", "cambia", "cambio", "campo", "cambios", "rama", "ramas", "estado", "estados",
    "evento", "eventos", "cuenta", "cuento", "lista", "listo", "lisa", "borde", "borra", "barra", "bota",
    "botas", "nota", "notas", "tira", "tiro", "sube", "sobre", "suba", "subes", "commits", "branch",
    "bunch", "brand", "beach", "teach", "reach", "each", "branching", "inbox", "tomato", "index",
    "indexes", "message", "massage", "passage", "usage", "menssage", "status", "stratus", "logo", "logs",
    "loge", "lodge", "pop", "pope", "pip", "pup", "top", "hop", "mop", "cop", "apply", "supply", "diff",
    "dif", "tiff", "stage", "stager", "staging", "blame", "aplica", "aplico", "replica", "replicas",
    "merge", "mergers", "unstable", "unable", "able", "instead", "steady", "ready", "readme", "reads",
    "head", "heads", "heap", "help", "held", "hello", "hell", "shell", "spell", "stall", "still", "stile",
    "hazel", "hash", "has", "have", "hace", "haze", "gaze", "maze", "laze",
];

/// Shortens every run of three or more equal letters to `to` letters;
/// shorter runs stay ("commmit" → "commit" with 2, "porfaaa" → "porfa"
/// with 1).
fn squeeze(word: &str, to: usize) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..].iter().take_while(|c| **c == chars[i]).count();
        let keep = if run >= 3 { to } else { run };
        out.extend(std::iter::repeat_n(chars[i], keep));
        i += run;
    }
    out
}

/// Words that are misspellings only before certain words: "has el commit"
/// is "haz el commit", "what has changed" is English.
const IN_CONTEXT: &[(&str, &[&str], &str)] = &[
    (
        "has",
        &[
            "el", "un", "una", "commit", "git", "push", "stash", "merge", "checkout", "blame",
            "amend",
        ],
        "haz",
    ),
    ("as", &["el", "un", "commit"], "haz"),
    ("hase", &["el", "un", "commit"], "hace"),
];

/// Whether a word has a letter three or more times in a row ("porfaaa").
fn stretched(word: &str) -> bool {
    let b = word.as_bytes();
    b.windows(3)
        .any(|w| w[0] == w[1] && w[1] == w[2] && w[0].is_ascii_alphabetic())
}

/// Laughter and emoticons: "jajaja", "jsjs", "xD", ":)".
pub fn is_laughter(word: &str) -> bool {
    // Laughter is ASCII letters starting with one of few; most words are
    // ruled out without copying.
    if word.len() < 2
        || !word.bytes().all(|b| b.is_ascii_alphabetic())
        || !matches!(
            word.as_bytes()[0].to_ascii_lowercase(),
            b'j' | b'h' | b'a' | b'x' | b'l' | b'r' | b'k'
        )
    {
        return false;
    }
    // Stretched laughter ("loool", "hahaaa", "jejeee") is laughter: runs of
    // a letter count once, and a trailing half syllable ("jajaj") is kept.
    // The word is ASCII letters here: squeezed on the stack unless long.
    let mut stack = [0u8; 64];
    let mut heap;
    let buf: &mut [u8] = if word.len() <= stack.len() {
        &mut stack
    } else {
        heap = vec![0u8; word.len()];
        &mut heap
    };
    let mut len = 0;
    for b in word.bytes().map(|b| b.to_ascii_lowercase()) {
        if len == 0 || buf[len - 1] != b {
            buf[len] = b;
            len += 1;
        }
    }
    if len % 2 == 1 && len > 4 {
        len -= 1;
    }
    let w = &buf[..len];
    if matches!(
        w,
        b"xd" | b"xdd" | b"lol" | b"lmao" | b"rofl" | b"lul" | b"kek"
    ) {
        return true;
    }
    let pairs = |syllables: &[&str]| {
        w.len() >= 4
            && w.len().is_multiple_of(2)
            && w.chunks(2)
                .all(|c| syllables.iter().any(|s| s.as_bytes() == c))
    };
    pairs(&["ja", "je", "ji", "jo", "aj"])
        || pairs(&["ha", "he", "hi", "ah"])
        || pairs(&["js", "sj"])
        || (w.len() >= 3 && w.iter().all(|c| *c == b'j' || *c == b'a'))
}

/// Whether a character is part of a word for tokenising purposes.
fn wordish(c: char) -> bool {
    c.is_alphanumeric() || "/._-~*+&#@=%^$'’".contains(c)
}

/// Characters trimmed from the start of a word.
fn lead_trim(c: char) -> bool {
    !c.is_alphanumeric() && !"./_-~*&+#@$:".contains(c)
}

/// Characters trimmed from the end of a word.
fn trail_trim(c: char) -> bool {
    !c.is_alphanumeric() && !"/*_&+#-".contains(c)
}

/// Finds a quoted span starting at `at` (the opening quote's offset):
/// returns the content's range and the offset past the closing quote.
fn quoted_span(text: &str, at: usize, open: char) -> Option<(usize, usize, usize)> {
    let close = closing_quote(open).or(match open {
        '‹' => Some('›'),
        '「' => Some('」'),
        _ => None,
    })?;
    let body = at + open.len_utf8();
    let mut search = body;
    loop {
        let rel = text[search..].find(|c: char| c == close || (open == '„' && c == '”'))?;
        let end = search + rel;
        let close_len = text[end..].chars().next().map_or(1, char::len_utf8);
        let after = text[end + close_len..].chars().next();
        // An apostrophe inside the quoted text ("don't") does not close it.
        if after.is_none_or(|c| !c.is_alphanumeric()) && end > body {
            return Some((body, end, end + close_len));
        }
        search = end + close_len;
    }
}

/// A request and its tokens, read once (with [`in_context`] applied) and
/// shared by level 1.5 and level 2, which read a request the same way.
pub struct Read<'t> {
    text: &'t str,
    toks: OnceCell<Vec<Tok>>,
}

impl<'t> Read<'t> {
    /// A request not tokenised yet: an early exit may never need it.
    pub fn new(text: &'t str) -> Read<'t> {
        Read {
            text,
            toks: OnceCell::new(),
        }
    }

    /// The request.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Its tokens, words whose meaning depends on the next one fixed.
    pub fn toks(&self) -> &[Tok] {
        self.toks.get_or_init(|| {
            let mut toks = tokens(self.text);
            in_context(&mut toks);
            toks
        })
    }
}

/// Splits a request into tokens: quoted spans whole, words without the
/// punctuation and emoji around them. Folds and writes out abbreviations;
/// does not correct typos (see [`correct`]).
pub fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    let bytes = text.len();
    while i < bytes {
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let prev = text[..i].chars().next_back();
        let opens = closing_quote(c).is_some() || matches!(c, '‹' | '「');
        let word_start = prev.is_none_or(|p| p.is_whitespace() || "([{:,;¿¡".contains(p));
        if opens && word_start {
            if let Some((body, end, past)) = quoted_span(text, i, c) {
                let content = text[body..end].trim();
                if !content.is_empty() {
                    out.push(Tok {
                        orig: content.to_string(),
                        norm: fold(content),
                        quoted: true,
                        colon: text[past..].trim_start().starts_with(':'),
                        pause: text[past..].trim_start().starts_with([':', ',', ';']),
                        start: i,
                        end: past,
                    });
                }
                i = past;
                continue;
            }
        }
        // A word runs to the next whitespace.
        let len = text[i..].find(char::is_whitespace).unwrap_or(bytes - i);
        let raw = &text[i..i + len];
        push_word(&mut out, raw, i);
        i += len;
    }
    out
}

/// Adds one whitespace-separated word (it may hold a comma: "commit,ok").
fn push_word(out: &mut Vec<Tok>, raw: &str, at: usize) {
    let mut offset = at;
    for piece in raw.split_inclusive([',', ';']) {
        let start_trim = piece.len() - piece.trim_start_matches(lead_trim).len();
        let body = &piece[start_trim..];
        let trimmed = body.trim_end_matches(trail_trim);
        let colon = body[trimmed.len()..].contains(':');
        let pause = body[trimmed.len()..].contains([':', ',', ';']);
        // "commit's" → "commit"; the possessive carries no meaning here
        // ("let's", "what's" are not possessives).
        let word = trimmed
            .strip_suffix("'s")
            .or_else(|| trimmed.strip_suffix("’s"))
            .filter(|w| !w.is_empty() && !CONTRACTED.contains(&fold(w).as_str()))
            .unwrap_or(trimmed);
        if !word.is_empty() && word.chars().any(wordish) && !is_laughter(word) {
            let norm = normal_form(word);
            let start = offset + start_trim;
            let tok = |orig: String, norm: String| Tok {
                orig,
                norm,
                quoted: false,
                colon,
                pause,
                start,
                end: start + trimmed.len(),
            };
            if norm.contains(' ') {
                for (k, part) in norm.split(' ').enumerate() {
                    let orig = if k == 0 { word } else { part };
                    out.push(tok(orig.to_string(), part.to_string()));
                }
            } else {
                // One word (nearly always): its normal form is moved, not copied.
                out.push(tok(word.to_string(), norm));
            }
        }
        offset += piece.len();
    }
}

/// Folds a word and writes out abbreviations and stretched letters.
fn normal_form(word: &str) -> String {
    let folded = fold(word);
    if folded == "w/" {
        return "with".to_string();
    }
    if folded.contains(['/', '.']) && !folded.ends_with('.') {
        return folded;
    }
    let mut w = folded;
    if stretched(&w) {
        let two = squeeze(&w, 2);
        let one = squeeze(&w, 1);
        let known = |w: &str| index::known(w) || crate::router::chat::is_small_talk_word(w);
        // Emphasis stretches a letter that is single more often than one
        // that is double ("porfaaa", "eeestás"; but "commmit").
        w = if known(&two) && !known(&one) {
            two
        } else {
            one
        };
    }
    match abbreviation(&w) {
        Some(full) => full.to_string(),
        None => w,
    }
}

/// The written-out form of a chat abbreviation.
fn abbreviation(w: &str) -> Option<&'static str> {
    static TABLE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE
        .get_or_init(|| ABBREVIATIONS.iter().copied().collect())
        .get(w)
        .copied()
}

/// Whether `w` is a real word that is never corrected.
fn protected(w: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| PROTECTED.iter().copied().collect())
        .contains(w)
}

/// Fixes words whose meaning depends on the next one: "k" is "ok" alone
/// or at the end and "que" elsewhere ("k cambió?"); "has el commit" is
/// "haz el commit".
pub fn in_context(toks: &mut [Tok]) {
    let n = toks.len();
    for i in 0..n {
        if toks[i].quoted {
            continue;
        }
        if toks[i].orig.eq_ignore_ascii_case("k") && i + 1 == n {
            toks[i].norm = "ok".into();
        }
        let next = toks.get(i + 1).map_or("", |t| t.norm.as_str());
        let fix = IN_CONTEXT
            .iter()
            .find(|(w, before, _)| toks[i].norm == *w && before.contains(&next))
            .map(|(_, _, fix)| *fix);
        if let Some(fix) = fix {
            toks[i].norm = fix.to_string();
        }
    }
}

/// Whether a token may be corrected: a plain word the lexicon does not
/// know, that is not a path, a number or a protected real word.
fn correctable(t: &Tok) -> bool {
    !t.quoted
        && t.norm.chars().count() >= 3
        && t.norm.chars().all(|c| c.is_alphabetic() || c == '\'')
        && !index::known(&t.norm)
        && !protected(&t.norm)
        && !crate::router::chat::is_small_talk_word(&t.norm)
}

/// Returns how many tokens neither the lexicon nor the slots can explain
/// before correction: a request with many is a task, not an intent.
pub fn unknown_words(toks: &[Tok]) -> usize {
    toks.iter()
        .filter(|t| !t.quoted && !t.path_like() && t.number().is_none() && !index::known(&t.norm))
        .count()
}

/// The most readings of a request with typos the parser tries.
const MAX_READINGS: usize = 16;

/// Corrects typos towards the lexicon's words: the nearest words within
/// one edit for words of 4 to 7 letters, two from 8 letters on, a
/// neighbouring key or a missing letter for 3-letter words, or the same
/// Spanish sound ("aser" → "hacer"). A word with several equally near
/// corrections gives several readings ("sage": "save", "stage"). Returns
/// each corrected token's index with the words it may be; none when
/// nothing changed, or when there would be too many readings.
pub fn typo_fixes(toks: &[Tok]) -> Option<Vec<(usize, Vec<&'static str>)>> {
    let mut fixes = Vec::new();
    let mut readings = 1usize;
    for (i, t) in toks.iter().enumerate() {
        if !correctable(t) {
            continue;
        }
        let words = index::corrections(&t.norm);
        if words.is_empty() {
            continue;
        }
        readings *= words.len();
        if readings > MAX_READINGS {
            return None;
        }
        fixes.push((i, words));
    }
    (!fixes.is_empty()).then_some(fixes)
}

/// Calls `each` with every reading the [`typo_fixes`] give, the last
/// corrected token's choices varying fastest, until it returns false.
/// One copy of the tokens is rewritten in place for every reading rather
/// than every reading copied.
pub fn for_each_reading(
    toks: &[Tok],
    fixes: &[(usize, Vec<&'static str>)],
    mut each: impl FnMut(&[Tok]) -> bool,
) {
    let mut reading = toks.to_vec();
    let mut choice = vec![0usize; fixes.len()];
    loop {
        for ((i, words), c) in fixes.iter().zip(&choice) {
            let norm = &mut reading[*i].norm;
            norm.clear();
            norm.push_str(words[*c]);
        }
        if !each(&reading) {
            return;
        }
        // The next choice, as a number whose last digit turns fastest.
        let mut k = fixes.len();
        loop {
            let Some(prev) = k.checked_sub(1) else {
                return;
            };
            k = prev;
            choice[k] += 1;
            if choice[k] < fixes[k].1.len() {
                break;
            }
            choice[k] = 0;
        }
    }
}

/// Every reading of the tokens with typos corrected (see [`typo_fixes`]).
#[cfg(test)]
pub fn correct(toks: &[Tok]) -> Vec<Vec<Tok>> {
    let mut out = Vec::new();
    if let Some(fixes) = typo_fixes(toks) {
        for_each_reading(toks, &fixes, |r| {
            out.push(r.to_vec());
            true
        });
    }
    out
}

/// Returns the text between two byte offsets of the request, trimmed.
pub fn slice(text: &str, from: usize, to: usize) -> &str {
    text.get(from..to).unwrap_or("").trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norms(s: &str) -> Vec<String> {
        tokens(s).into_iter().map(|t| t.norm).collect()
    }

    #[test]
    fn tokens_fold_squeeze_and_write_out() {
        assert_eq!(
            norms("¡Hacé el COMMIT, porfaaa! 🙏🙏"),
            ["hace", "el", "commit", "porfa"]
        );
        assert_eq!(norms("commit plz 🙏🙏"), ["commit", "please"]);
        assert_eq!(norms("xfa commiiiit"), ["por", "favor", "commit"]);
        assert_eq!(norms("jajaja ok"), ["ok"]);
        assert_eq!(norms("the commit's message"), ["the", "commit", "message"]);
    }

    #[test]
    fn quoted_spans_are_one_token() {
        let t = tokens("commit with message “don't panic” ok");
        assert_eq!(t[3].orig, "don't panic");
        assert!(t[3].quoted);
        let t = tokens("haz commit y ponle 'v1 lista'");
        assert_eq!(t.last().map(|t| t.orig.as_str()), Some("v1 lista"));
        let t = tokens("commit with message „low quotes“!!");
        assert_eq!(t.last().map(|t| t.orig.as_str()), Some("low quotes"));
        // An apostrophe inside a word opens nothing.
        let t = tokens("don't commit");
        assert_eq!(t[0].norm, "don't");
    }

    #[test]
    fn paths_keep_their_shape() {
        let t = tokens("commit src/main.rs, README.md and .env.");
        let paths: Vec<&str> = t
            .iter()
            .filter(|t| t.path_like())
            .map(|t| t.orig.as_str())
            .collect();
        assert_eq!(paths, ["src/main.rs", "README.md", ".env"]);
        for not_path in ["v1.0", "e.g.", "2.0", "https://x.y/z"] {
            assert!(!tokens(not_path)[0].path_like(), "{not_path}");
        }
    }

    #[test]
    fn laughter_is_recognised() {
        for s in [
            "jajaja", "jejeje", "jsjsjs", "hahaha", "xD", "jaaaj", "lol", "loool", "lmaooo",
            "hahaaa", "jejeee", "jajaj", "xDDD",
        ] {
            assert!(is_laughter(s), "{s}");
        }
        for s in [
            "java", "haha1", "jest", "hash", "hello", "ahead", "jaja1", "lolly", "hall",
        ] {
            assert!(!is_laughter(s), "{s}");
        }
    }
}
