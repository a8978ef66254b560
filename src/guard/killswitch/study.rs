//! Measuring and scanning the two sides: each side's lines hashed and
//! classed ([`super::super::measure`]), each side's functions and blocks
//! ([`super::super::stubs`]), the placeholders among the lines the new side
//! gained, on two or three threads for a large pair.

use std::hash::BuildHasherDefault;

use super::super::elision;
use super::super::lang::{self, Lang};
use super::super::lines::{count_newlines, hash_line, lines, seed, PassThrough};
use super::super::measure::{hunks, measure, Delta, Hunk, Measured};
use super::super::stubs;
use super::Reason;

/// At most this many placeholder lines are reported.
pub(super) const MAX_ELISIONS: usize = 3;

/// What is known of each side: its measured lines and, for text, its
/// functions and blocks; the functions known unchanged (pairs of indices
/// in the new and old scans); and the functions stubbed, when the thread
/// that scanned the sides already compared them.
pub(super) type Studied<'a> = (
    Measured,
    Measured,
    Option<stubs::Scan<'a>>,
    Option<stubs::Scan<'a>>,
    Vec<(usize, usize)>,
    Option<Vec<String>>,
);

/// Where the new side differs from the old one, when that was worked
/// out: one shared beginning and ending, or many changed parts.
pub(super) enum Changed {
    /// Neither: the sides were measured whole.
    Unknown,
    /// One edit.
    Delta(Delta),
    /// Edits all through.
    Hunks(Vec<Hunk>),
}

/// Returns where `new` differs from `old`, when that is worth knowing
/// and quick to see: an edit that leaves most of the file as it was, in
/// one place (a look from both ends); `None` when it may be an edit in
/// many places ([`all_through`]). `derive: false` measures both sides
/// whole (the tests compare).
pub(super) fn one_edit(old: &[u8], new: &[u8], derive: bool) -> Option<Changed> {
    if !derive {
        return Some(Changed::Unknown);
    }
    let d = Delta::of(old, new);
    d.worth_it(old.len(), new.len())
        .then_some(Changed::Delta(d))
}

/// Returns where `new` differs from `old` when [`one_edit`] did not say:
/// its changed parts, if it is changed all through in small places (the
/// new side is derived from them all the same).
pub(super) fn all_through(old: &[u8], new: &[u8]) -> Changed {
    match hunks(old, new) {
        Some(h) => Changed::Hunks(h),
        None => Changed::Unknown,
    }
}

/// Measures and scans both sides. An edit that leaves most of the file as
/// it was has its new side derived from the old one ([`Delta`]) and its
/// scan joined to the old one's. For a large pair, the pieces of work
/// (measuring; scanning each side for stubs) run on three threads, or on
/// two for an edit (the new side's scan is then short, and follows the
/// old side's) or for changes all through (one thread scans both sides
/// and compares their functions).
///
/// `old_side` measures the old side (it may have been started on a thread
/// of its own before the changed parts were known: they are found first,
/// on one core). `weigh` is called with both sides' measurements as soon
/// as they are known, on the thread that measured them, while the other
/// may still be scanning; what it returns comes back beside them.
pub(super) fn study<'a, W>(
    old: &[u8],
    new: &[u8],
    texts: Option<(&'a str, &'a str)>,
    lang: &'static Lang,
    changed: &Changed,
    old_side: impl FnOnce() -> Measured,
    weigh: impl FnOnce(&Measured, &Measured) -> W,
) -> (Studied<'a>, W) {
    let parallel = old.len() + new.len() >= PARALLEL_BYTES;
    let (delta, parts) = match changed {
        Changed::Delta(d) => (Some(*d), None),
        Changed::Hunks(h) => (None, Some(h)),
        Changed::Unknown => (None, None),
    };
    let measured = || {
        let old_side = old_side();
        let new_side = match (delta, parts) {
            (Some(d), _) => old_side.derive(old, new, d, lang),
            (None, Some(h)) => old_side.derive_hunks(old, new, h, lang),
            (None, None) => measure(new, lang),
        };
        let weighed = weigh(&old_side, &new_side);
        ((old_side, new_side), weighed)
    };
    // Only the brace scanner can start and stop mid-text: the other
    // scanners read each side whole, on a thread each.
    let Some(d) = delta.filter(|_| lang.blocks == lang::Blocks::Braces) else {
        let scan = |text: Option<&'a str>| text.map(|t| stubs::scan(t, lang));
        let ((old_scan, new_scan, stubbed), ((old_side, new_side), weighed)) = match (parts, texts)
        {
            // Changed all through: one thread scans the old side and then
            // the new one, reading again only the headers in its changed
            // parts, and compares their functions (the measuring and the
            // weighing after it take longer), while the other measures.
            (Some(p), Some((o, n))) if lang.blocks == lang::Blocks::Braces => {
                let scanned = || {
                    let (before, after) = stubs::scan_pair(o, n, lang, p);
                    let stubbed = stubs::stubbed_between_known(&before, o, &after, n, lang, &[]);
                    (before, after, stubbed)
                };
                let (scans, sides) = both(parallel, scanned, measured);
                ((Some(scans.0), Some(scans.1), Some(scans.2)), sides)
            }
            _ => {
                let (scans, sides) = both(
                    parallel,
                    || {
                        both(
                            parallel,
                            || scan(texts.map(|t| t.0)),
                            || scan(texts.map(|t| t.1)),
                        )
                    },
                    measured,
                );
                ((scans.0, scans.1, None), sides)
            }
        };
        return (
            (old_side, new_side, old_scan, new_scan, Vec::new(), stubbed),
            weighed,
        );
    };
    // The new side's scan starts where the old one was just before the
    // changed lines and joins it past them: one thread scans the old side
    // and then the new side's changed part, while the other measures.
    let (old_tail, new_tail) = (old.len() - d.tail, new.len() - d.tail);
    let shift = new.len() as isize - old.len() as isize;
    let (scans, ((old_side, new_side), weighed)) = both(
        parallel,
        || {
            texts.map(|(o, n)| {
                let old_scan = stubs::scan_old(o, lang, d.head, old_tail);
                let joined = stubs::scan_new(n, lang, &old_scan, d.head, new_tail, shift);
                (old_scan, joined)
            })
        },
        measured,
    );
    let (old_scan, new_scan, same) = match scans {
        Some((o, j)) => (Some(o), Some(j.scan), j.same),
        None => (None, None, Vec::new()),
    };
    let old_scan = old_scan.map(|o| o.scan);
    (
        (old_side, new_side, old_scan, new_scan, same, None),
        weighed,
    )
}

/// Returns the placeholder lines among those `new` has more often than
/// `old` (`surplus`, by hash), at most [`MAX_ELISIONS`], each at its first
/// line. After one edit (`changed` is a [`Delta`]), a surplus line is in the shared beginning (then
/// `old` has it too) or in `new`'s changed part, so only the beginning is
/// read for the lines `old` has and then the changed part; the lines after
/// it never are.
pub(super) fn placeholders(
    new: &[u8],
    old_side: &Measured,
    mut surplus: std::collections::HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
    changed: &Changed,
    lang: &Lang,
) -> Vec<Reason> {
    let seed = seed();
    let mut found = Vec::new();
    let judge = |number: usize, l: &[u8], found: &mut Vec<Reason>| {
        if let Ok(text) = std::str::from_utf8(l) {
            if elision::is_placeholder_in(text, lang) {
                found.push(Reason::Elision {
                    line: number,
                    text: text.to_string(),
                });
            }
        }
    };
    let delta = match changed {
        Changed::Delta(d) => *d,
        Changed::Hunks(h) => return placeholders_in_parts(new, old_side, surplus, h, judge),
        Changed::Unknown => {
            for (number, l) in lines(new) {
                if found.len() >= MAX_ELISIONS || surplus.is_empty() {
                    break;
                }
                if surplus.remove(&hash_line(seed, l)).is_some() {
                    judge(number, l, &mut found);
                }
            }
            return found;
        }
    };
    // Lines of the shared beginning are lines of `old`.
    let mut in_head = surplus.keys().filter(|h| old_side.contains(**h)).count();
    let head = &new[..delta.head];
    let mut it = lines(head);
    while in_head > 0 && found.len() < MAX_ELISIONS && !surplus.is_empty() {
        let Some((number, l)) = it.next() else { break };
        if surplus.remove(&hash_line(seed, l)).is_some() {
            in_head -= 1;
            judge(number, l, &mut found);
        }
    }
    if found.len() >= MAX_ELISIONS || surplus.is_empty() {
        return found;
    }
    // The changed part starts on the line after the beginning's last `\n`.
    let before = count_newlines(head);
    for (number, l) in lines(&new[delta.mid(new.len())]) {
        if found.len() >= MAX_ELISIONS || surplus.is_empty() {
            break;
        }
        if surplus.remove(&hash_line(seed, l)).is_some() {
            judge(before + number, l, &mut found);
        }
    }
    found
}

/// [`placeholders`] of an edit changed in many parts: a surplus line that
/// `old` has not is in a changed part of `new` (every line outside them
/// is a line of `old`), so the stretches between them are read only while
/// some surplus line is one `old` has, and otherwise only counted for the
/// line numbers. The lines are read in order, so each is judged at its
/// first line, as when reading `new` whole.
fn placeholders_in_parts(
    new: &[u8],
    old_side: &Measured,
    mut surplus: std::collections::HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
    parts: &[Hunk],
    judge: impl Fn(usize, &[u8], &mut Vec<Reason>),
) -> Vec<Reason> {
    let seed = seed();
    let mut found = Vec::new();
    // Surplus lines not yet met that `old` has: only they can be in a
    // stretch both sides share.
    let mut in_old = surplus.keys().filter(|h| old_side.contains(**h)).count();
    // The pieces in order, each a shared stretch and the changed part
    // after it, then the last shared stretch.
    let pieces = parts
        .iter()
        .flat_map(|h| [(h.1.start, false), (h.1.end, true)])
        .chain(std::iter::once((new.len(), false)));
    // Lines before the piece, and where it starts.
    let (mut before, mut at) = (0, 0);
    for (end, changed) in pieces {
        if found.len() >= MAX_ELISIONS || surplus.is_empty() {
            break;
        }
        let piece = &new[at..end];
        for (number, l) in lines(piece) {
            if found.len() >= MAX_ELISIONS || surplus.is_empty() || (!changed && in_old == 0) {
                break;
            }
            let h = hash_line(seed, l);
            if surplus.remove(&h).is_some() {
                if old_side.contains(h) {
                    in_old -= 1;
                }
                judge(before + number, l, &mut found);
            }
        }
        before += count_newlines(piece);
        at = end;
    }
    found
}

/// From this many bytes (both sides together) the sides are studied on two
/// threads: below it a thread costs more than it saves.
pub(super) const PARALLEL_BYTES: usize = 256 * 1024;

/// Returns what `a` and `b` return, running `a` on a second thread when
/// `parallel` (or here, when no thread can be had).
pub(super) fn both<A: Send, B>(
    parallel: bool,
    a: impl Fn() -> A + Sync,
    b: impl FnOnce() -> B,
) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    std::thread::scope(|s| match std::thread::Builder::new().spawn_scoped(s, &a) {
        Ok(handle) => {
            let y = b();
            // A panic on the thread is the panic it would have been here.
            let x = handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (x, y)
        }
        Err(_) => (a(), b()),
    })
}
