//! Classing lines: each line of a side is blank, code or comment by the
//! file's own comment syntax (line and block comments, docstrings, prose
//! notes), keyed by its trimmed text.

use super::*;

/// Returns the block comment or docstring open at the end of `head`, if
/// any: the last opener is after the last closer (a docstring: an odd
/// number of triple quotes).
pub(super) fn open_at(head: &str, lang: &Lang) -> Option<(&'static str, Class)> {
    let h = head.as_bytes();
    for (open, close) in lang.block_comments {
        if let Some(o) = memchr::memmem::rfind(h, open.as_bytes()) {
            let closed = memchr::memmem::rfind(&h[o + open.len()..], close.as_bytes()).is_some();
            if !closed {
                return Some((close, Class::Comment));
            }
        }
    }
    if lang.docstrings {
        for q in ["\"\"\"", "'''"] {
            if memchr::memmem::find_iter(h, q.as_bytes()).count() % 2 == 1 {
                return Some((q, Class::Comment));
            }
        }
    }
    None
}

/// Splits `text` into lines and classes each by `lang`'s comment syntax.
pub(super) fn classify(text: &str, lang: &Lang) -> Vec<Line> {
    classify_from(text, lang, None)
}

/// [`classify`], starting inside the comment or string `open`.
pub(super) fn classify_from(
    text: &str,
    lang: &Lang,
    open: Option<(&'static str, Class)>,
) -> Vec<Line> {
    classify_lines(text, lang, open, |_, _, _| None)
}

/// What the classing carries from one line to the next: the closer of
/// the comment or string the next line is in, and the last byte of the
/// last code line.
type State = (Option<(&'static str, Class)>, u8);

/// Classes both sides of an edit changed in many places (`parts`, from
/// [`super::super::measure::hunks`] of the two texts): `old` line by line,
/// and `new` line by line except in the stretches both share, whose lines
/// are the old side's from a line where the classing enters them in the
/// state it entered them on the old side: the stretch's first line or one
/// of the [`ENTRIES`] after it.
///
/// Why that is the classing of `new` line by line: a line's class, key,
/// indent and words depend only on its text and the state before it, and
/// the state after it only on the same, so a stretch of the same bytes
/// entered in the same state is classed the same and left in the same
/// state, from any of its line starts on. An edit that changes the state a
/// stretch is entered in (a comment or docstring opened or closed in a
/// changed part, however far back; the last code line before it ending
/// otherwise) makes the states differ, and the stretch's lines are
/// classed one by one until the states meet again at one of its first
/// lines, or else to the next stretch. Each stretch copied ends after a
/// `\n` of its own, so no line is cut.
pub(super) fn classify_pair(
    old: &str,
    new: &str,
    lang: &Lang,
    open: Option<(&'static str, Class)>,
    parts: &[Hunk],
) -> (Vec<Line>, NewLines) {
    // The shared stretches: (start in old, start in new, length), each cut
    // after its last `\n`, and compared (the cut is only trusted as far
    // as the bytes are the same).
    let mut shared = Vec::with_capacity(parts.len() + 1);
    let (mut o, mut n) = (0, 0);
    let ends = std::iter::once((old.len()..old.len(), new.len()..new.len()));
    for (a, b) in parts.iter().cloned().chain(ends) {
        let len = a.start.saturating_sub(o).min(b.start.saturating_sub(n));
        if let (Some(x), Some(y)) = (old.get(o..o + len), new.get(n..n + len)) {
            let whole = x.bytes().rposition(|c| c == b'\n').map_or(0, |p| p + 1);
            if whole > 0 && x[..whole] == y[..whole] {
                shared.push((o, n, whole));
            }
        }
        (o, n) = (a.end, b.end);
    }
    // Where the new side may start copying each stretch, as offsets in it
    // (its first lines' starts), then its end: `bounds[first[k]..first[k
    // + 1]]` for stretch `k`, in old offsets, ascending.
    let mut bounds = Vec::with_capacity(shared.len() * (ENTRIES + 1));
    let mut first = Vec::with_capacity(shared.len() + 1);
    for &(os, _, len) in &shared {
        first.push(bounds.len());
        let stretch = &old.as_bytes()[os..os + len];
        let mut rel = 0;
        for _ in 0..ENTRIES {
            bounds.push(os + rel);
            match find_newline(&stretch[rel..]) {
                Some(p) if rel + p + 1 < len => rel += p + 1,
                _ => break,
            }
        }
        bounds.push(os + len);
    }
    first.push(bounds.len());
    // The old side: the line index and state at each bound.
    let mut marks: Vec<Option<(usize, State)>> = vec![None; bounds.len()];
    let mut c = 0;
    let old_lines = classify_lines(old, lang, open, |at, state, out| {
        while c < bounds.len() && bounds[c] <= at {
            if bounds[c] == at {
                marks[c] = Some((out.len(), state));
            }
            c += 1;
        }
        None
    });
    let mut k = 0;
    // The new side's keys, and its runs of lines: those classed here are
    // the classing's own (flushed to `keys` before each line start), the
    // copied ones the old side's.
    let mut keys = Vec::with_capacity(old_lines.len() + old_lines.len() / 8);
    let mut runs = Vec::with_capacity(2 * shared.len() + 1);
    let mut flushed = 0;
    let own = classify_lines(new, lang, open, |at, state, out| {
        if out.len() > flushed {
            if runs
                .last()
                .is_none_or(|r: &(usize, Source)| !matches!(r.1, Source::Own(_)))
            {
                runs.push((keys.len(), Source::Own(flushed)));
            }
            keys.extend(out[flushed..].iter().map(|l| l.key));
            flushed = out.len();
        }
        while k < shared.len() && shared[k].1 + shared[k].2 <= at {
            k += 1;
        }
        let &(os, ns, len) = shared.get(k).filter(|s| s.1 <= at)?;
        let (entries, end) = (first[k]..first[k + 1] - 1, first[k + 1] - 1);
        let e = entries.into_iter().find(|&e| bounds[e] - os == at - ns)?;
        let (Some((from, entered)), Some((to, left))) = (marks[e], marks[end]) else {
            return None;
        };
        if entered != state {
            return None;
        }
        #[cfg(test)]
        if e > first[k] {
            LATER_ENTRIES.with(|c| c.set(c.get() + 1));
        }
        if to > from {
            runs.push((keys.len(), Source::Old { from, os, ns }));
            keys.extend(old_lines[from..to].iter().map(|l| l.key));
        }
        Some((ns + len, left))
    });
    // The last own lines (the empty line after a final `\n` was dropped).
    if own.len() > flushed {
        if runs.last().is_none_or(|r| !matches!(r.1, Source::Own(_))) {
            runs.push((keys.len(), Source::Own(flushed)));
        }
        keys.extend(own[flushed..].iter().map(|l| l.key));
    }
    (
        old_lines,
        NewLines {
            keys: Some(keys),
            runs,
            own,
        },
    )
}

/// Where a run of the new side's lines comes from.
#[derive(Debug, Clone, Copy)]
pub(super) enum Source {
    /// Classed on the new side: its own lines from this index on.
    Own(usize),
    /// The old side's lines from `from` on, of a stretch starting at byte
    /// `os` there and `ns` here.
    Old { from: usize, os: usize, ns: usize },
}

/// The new side's classed lines: their keys (what the diff reads), and
/// the lines themselves as runs, of its own or of the old side's (a copy
/// of the old side's lines for the stretches both share would be most of
/// the side: a 10 MB file's copy took 18 MB).
pub(super) struct NewLines {
    /// Every line's key, in order (`None`: the lines are all `own`).
    keys: Option<Vec<u64>>,
    /// (first line, where the run comes from), in order.
    runs: Vec<(usize, Source)>,
    own: Vec<Line>,
}

impl NewLines {
    /// The lines of a side classed whole.
    pub(super) fn whole(own: Vec<Line>) -> NewLines {
        NewLines {
            keys: None,
            runs: vec![(0, Source::Own(0))],
            own,
        }
    }

    /// Returns how many lines there are.
    pub(super) fn len(&self) -> usize {
        self.keys.as_ref().map_or(self.own.len(), Vec::len)
    }

    /// Returns the matches of the patience diff of `old`'s lines and these.
    pub(super) fn matched(&self, old: &[Line]) -> Vec<usize> {
        match &self.keys {
            Some(keys) => super::diff::matched(old, keys),
            None => super::diff::matched(old, &self.own),
        }
    }

    /// Returns every line's key, as the diff reads them.
    #[cfg(test)]
    pub(super) fn keys(&self) -> Vec<u64> {
        match &self.keys {
            Some(keys) => keys.clone(),
            None => self.own.iter().map(|l| l.key).collect(),
        }
    }

    /// Returns every line.
    #[cfg(test)]
    pub(super) fn all(&self, old: &[Line]) -> Vec<Line> {
        (0..self.len()).map(|i| self.line(old, i)).collect()
    }

    /// Returns line `i` (below [`NewLines::len`]); `old` is the old side's
    /// lines.
    pub(super) fn line(&self, old: &[Line], i: usize) -> Line {
        let r = self.runs.partition_point(|r| r.0 <= i).saturating_sub(1);
        let (at, source) = self.runs[r];
        match source {
            Source::Own(from) => self.own[from + i - at],
            Source::Old { from, os, ns } => old[from + i - at].moved(os, ns),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many stretches the new side's classing copied from a line after
    /// their first (the tests check that some were).
    pub(super) static LATER_ENTRIES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many of a shared stretch's first lines the new side's classing may
/// start copying it at: the state a changed line leaves (the last code
/// line's end) is most often the old one's again a line or two later.
const ENTRIES: usize = 4;

/// Classes the lines of `text`, starting in `open`; before each line
/// (at byte `at`, in `state`) `skip` may instead append the lines up to
/// a later line start itself and say where and in which state to go on.
fn classify_lines(
    text: &str,
    lang: &Lang,
    open: Option<(&'static str, Class)>,
    mut skip: impl FnMut(usize, State, &mut Vec<Line>) -> Option<(usize, State)>,
) -> Vec<Line> {
    let seed = seed();
    let markers = Markers::of(lang);
    // Room for lines of 16 bytes on average (growing the vector copies
    // it; room never used costs no memory).
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    // The closer of the block comment, docstring or string the line is in.
    let mut inside: Option<(&'static str, Class)> = open;
    let mut prev_code_end: u8 = b'\n';
    let mut at = 0;
    let bytes = text.as_bytes();
    while at <= bytes.len() {
        if let Some((next, state)) = skip(at, (inside, prev_code_end), &mut out) {
            (at, (inside, prev_code_end)) = (next, state);
            continue;
        }
        let end = find_newline(&bytes[at..]).map_or(bytes.len(), |p| at + p);
        let raw = &text[at..end];
        let lead = trim_start(raw);
        let trimmed = trim_end(lead);
        let start = at + (raw.len() - lead.len());
        // Keyed by the trimmed text: re-indenting changes no key.
        let key = hash_line(seed, trimmed.as_bytes());
        // What the line's bytes are, in one pass ([`Markers::bytes`]).
        let seen = trimmed
            .bytes()
            .fold(0u8, |f, b| f | markers.bytes[usize::from(b)]);
        let word = if seen & NON_ASCII == 0 {
            seen & ALNUM != 0
        } else {
            trimmed.chars().any(char::is_alphanumeric)
        };
        let class = if trimmed.is_empty() {
            Class::Blank
        } else if let Some((close, class)) = inside {
            if trimmed.contains(close) {
                inside = None;
            }
            class
        } else if markers.plain_code(trimmed, seen) {
            // No marker begins the line and none is in it: code that
            // leaves nothing open ([`Markers`]).
            Class::Code
        } else {
            let (class, opened) = class_of(trimmed, lang, prev_code_end);
            inside = opened;
            class
        };
        if class == Class::Code {
            prev_code_end = trimmed.bytes().last().unwrap_or(b'\n');
        }
        out.push(Line::new(start, key, class, word));
        if end == bytes.len() {
            break;
        }
        at = end + 1;
    }
    // A final newline does not make a line.
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Classes a trimmed line outside any comment or string; returns what it
/// leaves open (a block comment, a docstring, a multi-line string).
pub(super) fn class_of(
    t: &str,
    lang: &Lang,
    prev_end: u8,
) -> (Class, Option<(&'static str, Class)>) {
    if lang.prose {
        for (open, close) in lang.block_comments {
            if let Some(rest) = t.strip_prefix(open) {
                return (
                    Class::Comment,
                    (!rest.contains(close)).then_some((*close, Class::Comment)),
                );
            }
        }
        // A document format's own line comments (AsciiDoc's `//`).
        if lang.line_comments.iter().any(|m| starts_marker(t, m)) {
            return (Class::Comment, None);
        }
        return (
            if prose_note(t) {
                Class::Comment
            } else {
                Class::Code
            },
            None,
        );
    }
    // Folding directives hold no code: `#region Unchanged` is a note.
    if REGIONS.iter().any(|r| starts_marker(t, r)) {
        return (Class::Comment, None);
    }
    // Block openers first: `--[[` and `#[[` begin with a line marker.
    for (open, close) in lang.block_comments {
        if let Some(rest) = t.strip_prefix(open) {
            return (
                Class::Comment,
                (!rest.contains(close)).then_some((*close, Class::Comment)),
            );
        }
    }
    if lang.line_comments.iter().any(|m| starts_marker(t, m)) {
        return (Class::Comment, None);
    }
    if lang.docstrings {
        for q in ["\"\"\"", "'''"] {
            let lead = t.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B', 'f', 'F']);
            if lead.starts_with(q) && !matches!(prev_end, b'=' | b'(' | b',' | b'[' | b'+' | b'{') {
                let closed = lead[3..].contains(q);
                return (Class::Comment, (!closed).then_some((q, Class::Comment)));
            }
            if t.matches(q).count() % 2 == 1 {
                return (Class::Code, Some((q, Class::Code)));
            }
        }
    }
    // A block comment opened after code and left open.
    for (open, close) in lang.block_comments {
        if let Some(p) = find(t, open) {
            if !t[p + open.len()..].contains(close) && !t[..p].contains(['"', '\'']) {
                return (Class::Code, Some((*close, Class::Comment)));
            }
        }
    }
    (Class::Code, None)
}

/// What decides [`class_of`] for a line, by byte: the first bytes (in
/// either case) of the markers a line may begin with (folding directives,
/// line and block comments, docstring quotes and their prefixes), and the
/// first bytes of what may open something after code (a block comment,
/// a docstring's quotes). A line that begins with none of the first and
/// holds none of the second is code that opens nothing: every branch of
/// [`class_of`] before its last needs one of them. Prose is always read
/// whole.
pub(super) struct Markers {
    first: [bool; 256],
    /// Per byte: [`ALNUM`], [`NON_ASCII`], and [`INNER`] for the first
    /// bytes of what may open something after code.
    bytes: [u8; 256],
    all: bool,
}

/// In [`Markers::bytes`]: an ASCII letter or digit.
const ALNUM: u8 = 1;
/// A byte of a character beyond ASCII.
const NON_ASCII: u8 = 2;
/// The first byte of a block comment opener or a docstring quote.
const INNER: u8 = 4;

impl Markers {
    pub(super) fn of(lang: &Lang) -> Markers {
        let mut m = Markers {
            first: [false; 256],
            bytes: [0; 256],
            all: lang.prose,
        };
        for b in 0..=255u8 {
            if b.is_ascii_alphanumeric() {
                m.bytes[usize::from(b)] |= ALNUM;
            }
            if !b.is_ascii() {
                m.bytes[usize::from(b)] |= NON_ASCII;
            }
        }
        let first = |b: Option<&u8>, m: &mut Markers| match b {
            Some(&b) => {
                m.first[usize::from(b.to_ascii_lowercase())] = true;
                m.first[usize::from(b.to_ascii_uppercase())] = true;
            }
            // An empty marker begins every line.
            None => m.all = true,
        };
        for r in REGIONS.iter().chain(lang.line_comments) {
            first(r.as_bytes().first(), &mut m);
        }
        for (open, _) in lang.block_comments {
            first(open.as_bytes().first(), &mut m);
            match open.as_bytes().first() {
                Some(&b) => m.bytes[usize::from(b)] |= INNER,
                None => m.all = true,
            }
        }
        if lang.docstrings {
            // Quotes, after any of the string prefixes trimmed before them.
            for &b in b"\"'rRuUbBfF" {
                first(Some(&b), &mut m);
            }
            m.bytes[usize::from(b'"')] |= INNER;
            m.bytes[usize::from(b'\'')] |= INNER;
        }
        m
    }

    /// Returns whether the trimmed, non-empty line `t`, whose bytes'
    /// flags are `seen`, is code that opens nothing, without reading it as
    /// [`class_of`] does.
    fn plain_code(&self, t: &str, seen: u8) -> bool {
        !self.all
            && t.as_bytes()
                .first()
                .is_some_and(|&c| !self.first[usize::from(c)])
            && seen & INNER == 0
    }
}

/// `str::find` for a short needle: the first byte found with `memchr`,
/// then compared (the standard searcher's set-up, once per line, cost
/// more than the search).
fn find(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else {
        return Some(0);
    };
    let mut from = 0;
    while let Some(p) = memchr::memchr(first, &h[from..]) {
        let at = from + p;
        if h[at..].starts_with(n) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `s.trim_start()`, ASCII white space a byte at a time (other characters
/// are left to the standard trim, which knows Unicode's spaces).
fn trim_start(s: &str) -> &str {
    let start = s
        .bytes()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r'))
        .unwrap_or(s.len());
    let t = &s[start..];
    match t.as_bytes().first() {
        Some(b) if !b.is_ascii() => t.trim_start(),
        _ => t,
    }
}

/// `s.trim_end()`, likewise.
pub(super) fn trim_end(s: &str) -> &str {
    let end = s
        .bytes()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r'))
        .map_or(0, |p| p + 1);
    let t = &s[..end];
    match t.as_bytes().last() {
        Some(b) if !b.is_ascii() => t.trim_end(),
        _ => t,
    }
}

/// `t` starts with the comment marker `m` (a word marker such as `REM`
/// must be followed by a space or end the line; matched in any case).
pub(super) fn starts_marker(t: &str, m: &str) -> bool {
    // Every line is tried against every marker: most differ at the first
    // byte (in any case), which settles it.
    if let (Some(a), Some(b)) = (t.as_bytes().first(), m.as_bytes().first()) {
        if !a.eq_ignore_ascii_case(b) {
            return false;
        }
    }
    let m = m.trim_end();
    // `#{…}` opening a line is interpolation in a heredoc or a string
    // (Ruby, Crystal, Elixir, CoffeeScript), not a comment.
    if m == "#" && t.starts_with("#{") {
        return false;
    }
    if m.bytes().all(|b| b.is_ascii_alphabetic()) {
        return t.len() >= m.len()
            && t.is_char_boundary(m.len())
            && t[..m.len()].eq_ignore_ascii_case(m)
            && t[m.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || c == ':');
    }
    t.starts_with(m)
}

/// A prose line that is a note rather than content: wholly in brackets,
/// parentheses or emphasis, or only an ellipsis.
pub(super) fn prose_note(t: &str) -> bool {
    let t = t.trim_start_matches(['>', ' ']).trim();
    let wrapped = |o: char, c: char| t.starts_with(o) && t.ends_with(c) && t.chars().count() > 2;
    if t.contains("](") || t.starts_with("[!") || t.starts_with("[^") {
        return false;
    }
    (wrapped('(', ')') || wrapped('[', ']') || wrapped('（', '）') || wrapped('【', '】'))
        || (wrapped('_', '_') && !t.starts_with("__"))
        || (wrapped('*', '*') && !t.starts_with("* ") && !t.starts_with("**"))
        || (wrapped('*', '*')
            && t.starts_with("**")
            && t.ends_with("**")
            && !t[2..].contains("**")
            && t.contains("..."))
        || t.trim_matches(['.', '…', ' ']).is_empty()
}
