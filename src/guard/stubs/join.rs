//! The brace scanner as a machine that can stop and go on, so that the
//! scan of an edited file can be joined to the scan of the file before the
//! edit: once the edited text's scan is past the changed lines, in the
//! shared ending, at a point right after a `}` or `;` where the old scan
//! was in the same state (the same open blocks, nothing pending), the rest
//! of the old scan is the rest of the new one, shifted by the change in
//! length. What the scanner reads from such a point on lies after the
//! point (the lexer's look-backs stop at the `}` or `;` before it), so it
//! reads the same bytes on both sides.

use std::borrow::Cow;

use super::{function_name, Found, Lexer, Scan};
use crate::guard::lang::Lang;
use crate::guard::lines::TextMap;

/// A block opened by `{`: the function it is the body of, if any, and
/// where the body starts.
type Open<'a> = (Option<Cow<'a, str>>, usize);

/// The brace scanner's state at the top of its loop.
pub(super) struct Braces<'a> {
    lx: Lexer<'a>,
    src: &'a str,
    stack: Vec<Open<'a>>,
    boundary: usize,
    stray: usize,
    i: usize,
    out: Vec<Found<'a>>,
    names: Names<'a>,
    /// Where each `}` was, when noted (the old side of an edit changed
    /// all through, [`scan_pair`]).
    closes: Option<Vec<usize>>,
}

/// A header's name as read at a `{`: where the `{` and the header's
/// start were, and the name.
type Named<'a> = (usize, usize, Option<Cow<'a, str>>);

/// What the scanner does with the names it reads from headers: nothing
/// more, noting them (the old side of an edit changed all through), or
/// taking them from those notes where the header lies in a stretch both
/// sides share ([`scan_pair`]).
enum Names<'a> {
    Read,
    Note(Vec<Named<'a>>),
    Reuse {
        noted: Vec<Named<'a>>,
        /// The shared stretches: (start in old, start in new, length).
        shared: Vec<(usize, usize, usize)>,
        /// Cursors into `shared` and `noted`.
        k: usize,
        j: usize,
    },
}

impl<'a> Names<'a> {
    /// Returns the name of the function whose header is `src[from..at]`
    /// and whose body opens at `at`: read from the header
    /// ([`function_name`]), or, for a header inside a stretch both sides
    /// share, the name noted for the same bytes on the old side — a name
    /// depends only on the header's text, and that text is the same.
    fn name(&mut self, src: &'a str, from: usize, at: usize) -> Option<Cow<'a, str>> {
        match self {
            Names::Read => function_name(&src[from..at]),
            Names::Note(noted) => {
                let name = function_name(&src[from..at]);
                noted.push((at, from, name.clone()));
                name
            }
            Names::Reuse {
                noted,
                shared,
                k,
                j,
            } => {
                while *k < shared.len() && shared[*k].1 + shared[*k].2 < at {
                    *k += 1;
                }
                if let Some(&(os, ns, _)) = shared.get(*k).filter(|s| s.1 <= from) {
                    let (o_at, o_from) = (at - ns + os, from - ns + os);
                    while *j < noted.len() && noted[*j].0 < o_at {
                        *j += 1;
                    }
                    if let Some(n) = noted.get(*j).filter(|n| n.0 == o_at && n.1 == o_from) {
                        #[cfg(test)]
                        REUSED.with(|r| r.set(r.get() + 1));
                        return n.2.clone();
                    }
                }
                function_name(&src[from..at])
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many scans were joined (the tests check that some were).
    static JOINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many new sides' scans started after functions of the old side.
    static RESUMED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many names were taken from the old side's notes.
    static REUSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many stretches the new side's scan replayed from the old one's.
    static REPLAYED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many points of the old side's scan are noted: the new side's scan
/// looks for a point to join at among them, and past them scans alone.
const MAX_JOINS: usize = 256;

/// A point right after a `}` or `;` where a scan may be joined: where it
/// was, how much it had found, and what was open.
pub(super) struct Join<'a> {
    at: usize,
    found: usize,
    stray: usize,
    stack: Vec<Open<'a>>,
}

impl<'a> Braces<'a> {
    pub(super) fn new(src: &'a str, lang: &'a Lang) -> Braces<'a> {
        Braces {
            lx: Lexer::new(src.as_bytes(), lang),
            src,
            stack: Vec::new(),
            boundary: 0,
            stray: 0,
            i: 0,
            out: Vec::new(),
            names: Names::Read,
            closes: None,
        }
    }

    /// Scans on; after each `}` or `;` from `from` on, asks `stop` whether
    /// to stop there. Returns whether it stopped (else it reached the end).
    pub(super) fn run(&mut self, from: usize, stop: &mut dyn FnMut(&Braces<'a>) -> bool) -> bool {
        let bytes = self.src.as_bytes();
        // The position and boundary live in registers, not in `self`: the
        // loop runs once per byte of the file.
        let (mut i, mut boundary) = (self.i, self.boundary);
        // So is the table of what each byte may start.
        let table = self.lx.class;
        while i < bytes.len() {
            let b = bytes[i];
            let class = table[usize::from(b)];
            if class == 0 {
                i += 1;
                continue;
            }
            if class & super::COMMENT != 0 {
                if let Some(end) = self.lx.comment_end(i) {
                    // A comment ends whatever came before it: the header of a
                    // block is the code after the last comment.
                    i = end;
                    boundary = end;
                    continue;
                }
            }
            if class & super::BLOCK == 0 {
                match self.lx.literal_end(i, class) {
                    Some(end) => i = end,
                    None => i += 1,
                }
                continue;
            }
            match b {
                b'{' => {
                    let name = self.names.name(self.src, boundary, i);
                    self.stack.push((name, i + 1));
                    boundary = i + 1;
                }
                b'}' => {
                    if let Some(closes) = &mut self.closes {
                        closes.push(i);
                    }
                    match self.stack.pop() {
                        Some((Some(name), start)) => self.out.push(Found {
                            name,
                            occurrence: 0,
                            body: start..i,
                        }),
                        Some(_) => {}
                        None => self.stray += 1,
                    }
                    boundary = i + 1;
                }
                _ => boundary = i + 1,
            }
            i += 1;
            if b != b'{' && i > from {
                (self.i, self.boundary) = (i, boundary);
                if stop(self) {
                    return true;
                }
            }
        }
        (self.i, self.boundary) = (i, boundary);
        false
    }

    /// Returns the scan's findings.
    pub(super) fn finish(self) -> Scan<'a> {
        Scan {
            found: self.out,
            open_blocks: self.stack.len(),
            stray_closers: self.stray,
        }
    }

    /// Returns the point the scanner is at (right after a `}` or `;`).
    pub(super) fn join(&self) -> Join<'a> {
        Join {
            at: self.i,
            found: self.out.len(),
            stray: self.stray,
            stack: self.stack.clone(),
        }
    }

    /// Returns the scanner at `at`, a point of an earlier scan of a text
    /// whose bytes up to there `src` shares: it goes on in `src` as that
    /// scan would have in it. The functions found before the point are not
    /// carried over (the caller has them).
    fn resumed(src: &'a str, lang: &'a Lang, at: &Join<'a>) -> Braces<'a> {
        Braces {
            lx: Lexer::new(src.as_bytes(), lang),
            src,
            stack: at.stack.clone(),
            boundary: at.at,
            stray: at.stray,
            i: at.at,
            out: Vec::new(),
            names: Names::Read,
            closes: None,
        }
    }

    /// Returns the scan of the whole text, given that it was resumed at
    /// `start` (a point of the shared beginning; `old`'s functions before
    /// it are this text's) and is now in the state `old`'s scan was in at
    /// `join` (a point of the shared ending, `shift` bytes earlier in the
    /// old text); `old`'s first `braces` functions are the brace
    /// scanner's.
    fn joined(
        self,
        start: &Join<'a>,
        join: &Join<'a>,
        old: &Scan<'a>,
        braces: usize,
        shift: isize,
    ) -> Scan<'a> {
        let moved = |p: usize| p.checked_add_signed(shift).unwrap_or(p);
        let mut found = Vec::with_capacity(start.found + self.out.len() + braces - join.found);
        found.extend_from_slice(&old.found[..start.found]);
        found.extend(self.out);
        found.extend(old.found[join.found..braces].iter().map(|f| Found {
            name: f.name.clone(),
            occurrence: 0,
            // Bodies opened before the point are where both sides have them.
            body: if f.body.start >= join.at {
                moved(f.body.start)
            } else {
                f.body.start
            }..moved(f.body.end),
        }));
        Scan {
            found,
            open_blocks: old.open_blocks,
            stray_closers: self.stray + (old.stray_closers - join.stray),
        }
    }

    /// Returns the scan of the whole text, resumed at `start` and scanned
    /// to its end.
    fn finished_from(self, start: &Join<'a>, old: &Scan<'a>) -> Scan<'a> {
        let mut scan = self.finish();
        if start.found > 0 {
            let own = std::mem::take(&mut scan.found);
            scan.found = old.found[..start.found].to_vec();
            scan.found.extend(own);
        }
        scan
    }
}

/// The old side of an edit, scanned: its scan, the point of its shared
/// beginning where the new side's scan starts, the points of its shared
/// ending where the new side's may be joined to it, and how many of its
/// functions the brace scanner found (the rest are one-expression bodies,
/// found apart).
pub struct OldScan<'a> {
    /// The scan, as [`super::scan`] returns it.
    pub scan: Scan<'a>,
    start: Join<'a>,
    joins: Vec<Join<'a>>,
    braces: usize,
}

/// Bytes the lexer may read past a point where it decided something (a
/// character literal's closing quote, `"""`, a comment marker): a point
/// to resume at lies at least this far before the edit. Reads that go
/// further stop at a newline, and the edit starts after one.
const LOOK_AHEAD: usize = 8;

/// Scans `src`, the old side of an edit whose shared beginning is `head`
/// bytes long (whole lines) and whose shared ending starts at `tail` (an
/// offset in `src`): noting the last point of that beginning where the
/// new side's scan can start, and the points of that ending where the new
/// side's may be joined to it.
pub fn scan_old<'a>(src: &'a str, lang: &'a Lang, head: usize, tail: usize) -> OldScan<'a> {
    let at_start = || Join {
        at: 0,
        found: 0,
        stray: 0,
        stack: Vec::new(),
    };
    if lang.blocks != super::Blocks::Braces {
        return OldScan {
            scan: super::scan(src, lang),
            start: at_start(),
            joins: Vec::new(),
            braces: 0,
        };
    }
    let mut start = at_start();
    let mut joins = Vec::new();
    let mut b = Braces::new(src, lang);
    b.run(0, &mut |b| {
        if b.i + LOOK_AHEAD <= head {
            // The buffer is reused: this runs at every `}` and `;`.
            start.at = b.i;
            start.found = b.out.len();
            start.stray = b.stray;
            start.stack.clone_from(&b.stack);
        } else if b.i > tail && joins.len() < MAX_JOINS {
            // The new side joins at one of the first points where it can,
            // or scans on to its end: the points after these are never
            // needed.
            joins.push(b.join());
        }
        false
    });
    // A decision before the start point that read to the end of the text
    // may read otherwise in the new one: it is scanned from its start.
    if b.lx.far.get() {
        start = at_start();
    }
    let scan = b.finish();
    let braces = scan.found.len();
    OldScan {
        scan: super::complete(src, lang, scan),
        start,
        joins,
        braces,
    }
}

/// Scans both sides of an edit changed in many places (`parts`, from
/// `measure::hunks` of the two texts) with the brace scanner: the old side
/// whole, noting the name read at each `{`, where each `}` was, and, in
/// each stretch both sides share, the first [`ENTRIES`] points right after
/// a `}` or `;` of the stretch and the last one [`LOOK_AHEAD`] bytes or
/// more before its end; then the new side, taking the name of a header
/// inside a shared stretch from the note for the same bytes of the old
/// side (the same `{`, the header starting at the same place) instead of
/// reading it again, and, when its scan stops at one of a stretch's first
/// points, going on from the last one by replaying the old side's `{` and
/// `}` in between on its own open blocks ([`Braces::replay`]). Each scan
/// is the one [`super::scan`] makes.
///
/// Why the replay is the scan: from such a point both scanners stand right
/// after the same `}` or `;`, outside any literal or comment, with the
/// header starting there, and what the lexer reads up to the last point
/// lies between the two (its look-backs stop at that `}` or `;`) or at
/// most [`LOOK_AHEAD`] bytes past it, or up to a newline, which the
/// stretch, cut after one, holds — unless a decision read to the end of
/// the text ([`Lexer::far`]), which turns the replay off. So both read the
/// same bytes alike and meet the same `{` and `}` at the same places of
/// the stretch; what differs is only what was open before, which the
/// replay pops from the new side's own blocks.
///
/// [`Lexer::far`]: super::Lexer
pub fn scan_pair<'a>(
    old: &'a str,
    new: &'a str,
    lang: &'a Lang,
    parts: &[(std::ops::Range<usize>, std::ops::Range<usize>)],
) -> (Scan<'a>, Scan<'a>) {
    if lang.blocks != super::Blocks::Braces {
        return (super::scan(old, lang), super::scan(new, lang));
    }
    // The stretches between the parts, compared (the cut is only trusted
    // as far as the bytes are the same).
    let mut shared = Vec::with_capacity(parts.len() + 1);
    let (mut o, mut n) = (0, 0);
    let ends = std::iter::once((old.len()..old.len(), new.len()..new.len()));
    for (a, b) in parts.iter().cloned().chain(ends) {
        let len = a.start.saturating_sub(o).min(b.start.saturating_sub(n));
        if len > 0 && old.as_bytes().get(o..o + len) == new.as_bytes().get(n..n + len) {
            shared.push((o, n, len));
        }
        (o, n) = (a.end, b.end);
    }
    let mut b = Braces::new(old, lang);
    b.names = Names::Note(Vec::new());
    b.closes = Some(Vec::new());
    // Per stretch: its first points and its last, each with how many `{`
    // and `}` the scan had passed there.
    let mut points: Vec<Points> = vec![Points::default(); shared.len()];
    let mut s = 0;
    b.run(0, &mut |b| {
        let at = b.i;
        while s < shared.len() && shared[s].0 + shared[s].2 < at + LOOK_AHEAD {
            s += 1;
        }
        if let (Some(&(os, _, _)), Names::Note(noted), Some(closes)) =
            (shared.get(s), &b.names, &b.closes)
        {
            if at > os {
                let p = (at, noted.len(), closes.len());
                let ps = &mut points[s];
                if ps.entries < ENTRIES {
                    ps.first[ps.entries] = p;
                    ps.entries += 1;
                }
                ps.last = p;
            }
        }
        false
    });
    if b.lx.far.get() {
        points.clear();
    }
    let noted = match std::mem::replace(&mut b.names, Names::Read) {
        Names::Note(noted) => noted,
        _ => Vec::new(),
    };
    let closes = b.closes.take().unwrap_or_default();
    let old_scan = super::complete(old, lang, b.finish());
    let mut b = Braces::new(new, lang);
    b.names = Names::Reuse {
        noted,
        shared: shared.clone(),
        k: 0,
        j: 0,
    };
    let mut s = 0;
    loop {
        let mut hit = None;
        let stopped = b.run(0, &mut |b| {
            let at = b.i;
            while s < points.len() && shared[s].1 + shared[s].2 < at + LOOK_AHEAD {
                s += 1;
            }
            let (Some(&(os, ns, _)), Some(ps)) = (shared.get(s), points.get(s)) else {
                return false;
            };
            if at <= ns {
                return false;
            }
            let from = ps.first[..ps.entries]
                .iter()
                .find(|p| p.0 == at - ns + os)
                .filter(|p| p.0 < ps.last.0);
            hit = from.map(|&from| (from, ps.last, os, ns));
            hit.is_some()
        });
        let Some((from, to, os, ns)) = hit.filter(|_| stopped) else {
            break;
        };
        b.replay(&closes, from, to, os, ns);
    }
    let new_scan = super::complete(new, lang, b.finish());
    (old_scan, new_scan)
}

/// A point of the old side's scan right after a `}` or `;`: where, and how
/// many `{` and `}` the scan had passed.
type Point = (usize, usize, usize);

/// The points of a shared stretch the new side's scan may go on from: its
/// first [`ENTRIES`], and its last.
#[derive(Clone, Copy, Default)]
struct Points {
    first: [Point; ENTRIES],
    entries: usize,
    last: Point,
}

/// How many of a shared stretch's first points the new side's scan may
/// replay the old side's from: a changed line leaves the scan where the
/// old one was again at its next `;` or `}`, unless it opened a literal
/// or comment.
const ENTRIES: usize = 4;

impl<'a> Braces<'a> {
    /// Goes on from `from` to `to`, points of the old side's scan in a
    /// stretch starting at `os` there and at `ns` here, by replaying the
    /// `{` (named in the notes) and `}` (`closes`) the old scan met in
    /// between on this scan's own open blocks.
    fn replay(&mut self, closes: &[usize], from: Point, to: Point, os: usize, ns: usize) {
        #[cfg(test)]
        REPLAYED.with(|r| r.set(r.get() + 1));
        let Names::Reuse { noted, .. } = &self.names else {
            return;
        };
        let here = |p: usize| p - os + ns;
        let (mut a, mut c) = (from.1, from.2);
        while a < to.1 || c < to.2 {
            if a < to.1 && (c >= to.2 || noted[a].0 < closes[c]) {
                self.stack.push((noted[a].2.clone(), here(noted[a].0) + 1));
                a += 1;
                continue;
            }
            let at = here(closes[c]);
            match self.stack.pop() {
                Some((Some(name), start)) => self.out.push(Found {
                    name,
                    occurrence: 0,
                    body: start..at,
                }),
                Some(_) => {}
                None => self.stray += 1,
            }
            c += 1;
        }
        self.i = here(to.0);
        self.boundary = self.i;
    }
}

/// The new side's scan, and which of its functions are known to be the
/// old side's unchanged: pairs of indices (in the new scan, in the old
/// one) of functions with the same key and the same body.
pub struct Joined<'a> {
    /// The scan, as [`super::scan`] returns it.
    pub scan: Scan<'a>,
    /// The pairs.
    pub same: Vec<(usize, usize)>,
}

/// Scans `src`, the new side of an edit of the text `old` scanned: from
/// the old scan's point in the shared beginning (`head` bytes) to the
/// first point of the shared ending (from `tail` in `src`) where both
/// scans are in the same state, then joined to the old scan; else to the
/// end. `shift` is how much longer the new side is.
pub fn scan_new<'a>(
    src: &'a str,
    lang: &'a Lang,
    old: &OldScan<'a>,
    head: usize,
    tail: usize,
    shift: isize,
) -> Joined<'a> {
    let alone = |scan: Scan<'a>| Joined {
        scan,
        same: Vec::new(),
    };
    if lang.blocks != super::Blocks::Braces {
        return alone(super::scan(src, lang));
    }
    let start = &old.start;
    let mut b = Braces::resumed(src, lang, start);
    let joins = &old.joins;
    let matching = |b: &Braces<'_>| -> Option<usize> {
        let at = b.i.checked_add_signed(-shift)?;
        let k = joins.binary_search_by_key(&at, |j| j.at).ok()?;
        // Open blocks that start before the edit are the same blocks on
        // both sides; one opened later sits elsewhere in each.
        (joins[k].stack == b.stack && b.stack.iter().all(|(_, s)| *s <= head)).then_some(k)
    };
    if !b.run(tail, &mut |b| matching(b).is_some()) {
        return alone(super::complete(
            src,
            lang,
            b.finished_from(start, &old.scan),
        ));
    }
    let Some(k) = matching(&b) else {
        return alone(super::complete(
            src,
            lang,
            b.finished_from(start, &old.scan),
        ));
    };
    #[cfg(test)]
    JOINED.with(|j| j.set(j.get() + 1));
    let own = b.out.len();
    let scan = b.joined(start, &joins[k], &old.scan, old.braces, shift);
    counted(src, lang, scan, own, &joins[k], old)
}

/// Completes a joined scan (`old`'s functions before its start point,
/// then `own` functions found by the new side, then the old side's from
/// `join` on): the first keep their occurrences; each of the new side's
/// is numbered after those of its name before it; each of the rest is
/// the old one's plus how many more of its name the new side found than
/// the old side had between the two points. A function before the start
/// point, or wholly past the join point with its occurrence unmoved, is
/// known to be the old side's unchanged.
fn counted<'a>(
    src: &'a str,
    lang: &Lang,
    mut scan: Scan<'a>,
    own: usize,
    join: &Join<'a>,
    old: &OldScan<'a>,
) -> Joined<'a> {
    // One-expression bodies are numbered after all the others.
    if super::EXPRESSION_BODIES.contains(&lang.name) {
        return Joined {
            scan: super::complete(src, lang, scan),
            same: Vec::new(),
        };
    }
    let base = old.start.found;
    let (before, rest) = scan.found.split_at_mut(base);
    let (mine, rest) = rest.split_at_mut(own);
    // How many of each of the new side's names come before its functions.
    let mut seen = TextMap::<&str, usize>::default();
    for f in mine.iter() {
        seen.insert(&f.name, 0);
    }
    if !seen.is_empty() {
        for f in before.iter() {
            if let Some(n) = seen.get_mut(&*f.name) {
                *n += 1;
            }
        }
    }
    let mut more: TextMap<&str, isize> = TextMap::default();
    let occurrences: Vec<usize> = mine
        .iter()
        .map(|f| {
            *more.entry(&f.name).or_default() += 1;
            let n = seen.entry(&f.name).or_default();
            *n += 1;
            *n - 1
        })
        .collect();
    for f in &old.scan.found[base..join.found] {
        *more.entry(&f.name).or_default() -= 1;
    }
    more.retain(|_, n| *n != 0);
    let mut same: Vec<(usize, usize)> = (0..base).map(|i| (i, i)).collect();
    same.reserve(rest.len());
    for (t, f) in rest.iter_mut().enumerate() {
        let g = &old.scan.found[join.found + t];
        let moved = match more.is_empty() {
            true => 0,
            false => more.get(&*f.name).copied().unwrap_or(0),
        };
        f.occurrence = g
            .occurrence
            .checked_add_signed(moved)
            .unwrap_or(g.occurrence);
        if moved == 0 && g.body.start >= join.at {
            same.push((base + own + t, join.found + t));
        }
    }
    drop(more);
    drop(seen);
    for (f, n) in mine.iter_mut().zip(occurrences) {
        f.occurrence = n;
    }
    Joined { scan, same }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lang;
    use crate::guard::measure::Delta;

    /// The new side's scan joined to the old side's must be the scan of
    /// the new side made whole.
    fn joins_as_whole(name: &str, old: &str, new: &str) {
        let lang = lang::from_path(name).expect("a language");
        let d = Delta::of(old.as_bytes(), new.as_bytes());
        let (old_tail, new_tail) = (old.len() - d.tail, new.len() - d.tail);
        let o = scan_old(old, lang, d.head, old_tail);
        assert_eq!(o.scan, super::super::scan(old, lang), "{name}: old");
        let shift = new.len() as isize - old.len() as isize;
        let n = scan_new(new, lang, &o, d.head, new_tail, shift);
        if o.start.found > 0 {
            RESUMED.with(|r| r.set(r.get() + 1));
        }
        assert_eq!(
            n.scan,
            super::super::scan(new, lang),
            "{name}: {old:?} -> {new:?}"
        );
        // The pairs known unchanged are: the same key, the same body.
        for &(i, k) in &n.same {
            let (f, g) = (&n.scan.found[i], &o.scan.found[k]);
            assert_eq!((&f.name, f.occurrence), (&g.name, g.occurrence));
            assert_eq!(&new[f.body.clone()], &old[g.body.clone()]);
        }
        // And the stub verdicts are those of the plain comparison.
        assert_eq!(
            super::super::stubbed_between_known(&o.scan, old, &n.scan, new, lang, &n.same),
            super::super::stubbed(old, new, lang),
            "{name}: {old:?} -> {new:?}"
        );
    }

    const RUST: &str = "fn a(x: u64) -> u64 {\n    x + 1\n}\nimpl S {\n    fn b(&self) {\n        let s = \"}\";\n    }\n}\nfn c() { let r = r#\"{\"#; }\nfn d() {\n    todo!()\n}\n";
    const JAVA: &str = "class A {\n  int a() {\n    return 1;\n  }\n  // }\n  void b() { String s = \"{\"; }\n  char c() { return '}'; }\n}\nclass B {\n  void d() {}\n}\n";
    const JS: &str = "function a(x) {\n  return x.replace(/}/g, '');\n}\nconst b = (y) => {\n  return y / 2;\n};\nfunction c() {\n  const r = /[{]/;\n}\n";
    /// A block comment opened in a changed line and closed in a shared
    /// one moves where the next header starts (`if` in it or not).
    const MOVED: &str = "fn a() {\n    b();\n}\nw();\nz(); if */ fn c() {\n    d();\n}\n";
    const CS: &str = "class A {\n  string P() { return @\"}\"\"{\"; }\n  int Q() => throw new NotImplementedException();\n  void R() {\n    x();\n  }\n}\n";

    #[test]
    fn joined_scans_equal_whole_ones() {
        let edits: &[(&str, &str)] = &[
            ("x + 1", "x + 2"),
            ("x + 1", "x + 1 }"),
            ("x + 1", "x + 1 {"),
            ("x + 1", "\"x"),
            ("x + 1", "/* x"),
            ("x + 1", "// x {"),
            ("return 1;", "return 2; }"),
            ("return 1;", "return '{';"),
            ("return x", "return '\\\\"),
            ("return y / 2;", "return y / 2 / 3;"),
            ("return y", "return /"),
            ("x();", "x(); } void S() {"),
            ("x();", "throw new NotImplementedException();"),
            ("\n", "\n\n"),
            ("}\n", "}\n}\n"),
            ("{", ""),
            ("}", ""),
            // A function whose name comes again later, added or removed:
            // the later ones' occurrences move.
            ("fn c()", "fn a() {}\nfn c()"),
            ("fn a(x: u64) -> u64 {\n    x + 1\n}\n", ""),
            ("void b()", "void d() {}\n  void b()"),
        ];
        // A function holding functions: the edit in the first inner one,
        // the outer one closing after the join point.
        for (name, outer) in [
            (
                "a.js",
                format!(
                    "function outer() {{\n{}}}\n",
                    "  function inner(x) {\n    return x + 1;\n  }\n".repeat(12)
                ),
            ),
            (
                "a.rs",
                format!(
                    "fn outer() {{\n{}}}\nfn after() {{\n    y + 1\n}}\n",
                    "    fn inner(x: u64) -> u64 {\n        x + 1\n    }\n".repeat(12)
                ),
            ),
        ] {
            for n in [0, 4] {
                let at = outer.match_indices("x + 1").nth(n).map_or(0, |(i, _)| i);
                let new = format!("{}x + 10{}", &outer[..at], &outer[at + 5..]);
                joins_as_whole(name, &outer, &new);
                joins_as_whole(name, &new, &outer);
            }
        }
        for (name, src) in [
            ("a.rs", RUST),
            ("A.java", JAVA),
            ("a.js", JS),
            ("A.cs", CS),
            ("a.go", RUST),
            ("a.py", "def f():\n    return 1\n"),
        ] {
            // The same text repeated, so an edit has a long shared
            // beginning and ending to join in.
            let old = src.repeat(6);
            for (from, to) in edits {
                for n in [1, 3, 5] {
                    let Some(at) = old.match_indices(from).nth(n).map(|(i, _)| i) else {
                        continue;
                    };
                    let new = format!("{}{to}{}", &old[..at], &old[at + from.len()..]);
                    joins_as_whole(name, &old, &new);
                    joins_as_whole(name, &new, &old);
                }
            }
        }
        // Most edits were joined, not scanned to the end, and started
        // after the functions before them.
        assert!(
            JOINED.with(|j| j.get()) > 100,
            "{}",
            JOINED.with(|j| j.get())
        );
        assert!(
            RESUMED.with(|r| r.get()) > 100,
            "{}",
            RESUMED.with(|r| r.get())
        );
    }

    /// Edits all through a text (every k-th line), of tokens that change
    /// how the rest reads (quotes, comment markers, braces, a regex, raw
    /// and verbatim strings), CRLF, wide characters, the first and last
    /// lines: both scans of the pair are the whole scans, and names were
    /// taken from the old side's notes.
    #[test]
    fn paired_scans_equal_whole_ones() {
        let tokens = [
            "",
            "}",
            "{",
            ";",
            "\"",
            "'",
            "`",
            "/",
            "/*",
            "*/",
            "//",
            "r#\"",
            "@\"",
            "日本",
            "\r",
            "x(); } void S() {",
            "fn g() {",
            "return /}/;",
        ];
        for (name, src) in [
            ("a.rs", RUST),
            ("A.java", JAVA),
            ("a.js", JS),
            ("A.cs", CS),
            ("a.go", RUST),
            ("a.py", "def f():\n    return 1\n"),
            ("a.rs", MOVED),
            ("a.js", MOVED),
        ] {
            let lang = lang::from_path(name).expect("a language");
            let old = src.repeat(12);
            let lines: Vec<&str> = old.split_inclusive('\n').collect();
            for k in [3, 7, 11] {
                for from in [0, 1] {
                    for (t, token) in tokens.iter().enumerate() {
                        let new: String = lines
                            .iter()
                            .enumerate()
                            .map(|(i, l)| {
                                match (i >= from && (i - from).is_multiple_of(k), t % 2) {
                                    (false, _) => l.to_string(),
                                    (true, 0) => format!("{token}{l}"),
                                    (true, _) => l.replacen('\n', &format!("{token}\n"), 1),
                                }
                            })
                            .collect();
                        for (x, y) in [(&old, &new), (&new, &old)] {
                            let Some(parts) =
                                crate::guard::measure::hunks(x.as_bytes(), y.as_bytes())
                            else {
                                continue;
                            };
                            let (a, b) = scan_pair(x, y, lang, &parts);
                            assert_eq!(a, super::super::scan(x, lang), "{name}: old {x:?}");
                            assert_eq!(b, super::super::scan(y, lang), "{name}: {x:?} -> {y:?}");
                        }
                    }
                }
            }
        }
        assert!(
            REUSED.with(|r| r.get()) > 1000,
            "{}",
            REUSED.with(|r| r.get())
        );
        // And stretches were replayed, not scanned again.
        assert!(
            REPLAYED.with(|r| r.get()) > 1000,
            "{}",
            REPLAYED.with(|r| r.get())
        );
    }

    /// A character escape with no quote after it in the old text, where
    /// the new one has a quote in a changed line further on: the old
    /// scan's reading of it read to the end, and the new side reads it as
    /// a literal swallowing braces, so no stretch is replayed, in a paired
    /// scan or from an edit's start.
    #[test]
    fn reads_to_the_end_are_never_replayed() {
        let body = "fn f() {\n    a();\n    b();\n}\n".repeat(30);
        let old = format!(
            "fn z() {{\n    a();\n    let c = '\\ ;\n    b();\n    c();\n    d();\n}}\n{body}"
        );
        let lines: Vec<&str> = old.split_inclusive('\n').collect();
        let lang = lang::from_path("a.rs").expect("rust");
        for k in [9, 11, 13] {
            for from in 0..k {
                let new: String = lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| match i >= from && (i - from).is_multiple_of(k) {
                        true => format!("'{l}"),
                        false => l.to_string(),
                    })
                    .collect();
                if let Some(parts) = crate::guard::measure::hunks(old.as_bytes(), new.as_bytes()) {
                    let (a, b) = scan_pair(&old, &new, lang, &parts);
                    assert_eq!(a, super::super::scan(&old, lang));
                    assert_eq!(b, super::super::scan(&new, lang), "{new:?}");
                }
                joins_as_whole("a.rs", &old, &new);
            }
        }
    }

    /// An edit at every line, of text whose lexing reads ahead (regular
    /// expressions and division, character literals and lifetimes, raw and
    /// multi-line strings, comments): the new side's scan, started before
    /// the edit, is the whole scan.
    #[test]
    fn scans_started_before_any_line_equal_whole_ones() {
        let samples = [
            ("a.js", "function a(x) {\n  return x / 2; }\nconst r = x => { return /}/.test(x); };\nfunction b() { let s = '}'; t = `{\n}`; }\n// } {\nfunction c(y) { return y /* } */ / 3; }\n/* {\n */ function d() { return 1; }\n"),
            ("a.rs", "fn a<'a>(x: &'a str) -> char {\n    let c = '}'; c }\nfn b() { let s = r#\"}{\"#; }\nfn c() { let s = \"{\n}\"; }\n// }\nfn d() { x / y; }\n"),
            ("A.cs", "class A {\n  string P() { return @\"}\"\"{\"; }\n  void R() { x(); }\n  char C() { return '{'; }\n}\n"),
        ];
        let inserts = [
            "",
            "/",
            "'",
            "\"",
            "`",
            "{",
            "}",
            ";",
            "/*",
            "//",
            "r#\"",
            "@\"",
            "x = 1 / 2; }\n",
        ];
        for (name, src) in samples {
            let old = src.repeat(4);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(old.match_indices('\n').map(|(i, _)| i + 1))
                .filter(|&i| i < old.len())
                .collect();
            for &at in &starts {
                for ins in inserts {
                    // Inserted at the start of a line, and a line's first
                    // byte replaced.
                    let new = format!("{}{ins}{}", &old[..at], &old[at..]);
                    joins_as_whole(name, &old, &new);
                    joins_as_whole(name, &new, &old);
                    let next = old[at..].chars().next().map_or(0, char::len_utf8);
                    let new = format!("{}{ins}{}", &old[..at], &old[at + next..]);
                    joins_as_whole(name, &old, &new);
                }
            }
        }
    }
}
