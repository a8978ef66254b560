//! The patience diff of two sides' line keys, and the hunks between its
//! matched pairs.

use super::*;

/// What the diff compares: a line's key (the diff reads the keys in the
/// classed lines themselves, not in a copy of them).
pub(super) trait Keyed: Sync {
    fn key(&self) -> u64;
}

impl Keyed for u64 {
    fn key(&self) -> u64 {
        *self
    }
}

impl Keyed for Line {
    fn key(&self) -> u64 {
        self.key
    }
}

/// Returns the matched pairs (old index, new index) of a patience diff of
/// the two key sequences, in order.
#[cfg(test)]
pub(super) fn diff<K: Keyed>(a: &[K], b: &[K]) -> Vec<(usize, usize)> {
    matched(a, b)
        .iter()
        .enumerate()
        .filter(|(_, &y)| y != usize::MAX)
        .map(|(x, &y)| (x, y))
        .collect()
}

/// [`diff`]'s pairs as the new index each old line is matched with
/// (`usize::MAX`: none), in old order.
pub(super) fn matched<A: Keyed, B: Keyed>(a: &[A], b: &[B]) -> Vec<usize> {
    // Each old line is matched at most once (the work ranges never
    // overlap), so a match is noted at its old index and the pairs are
    // read off in order: collecting and sorting them cost more than the
    // diff of a file edited all through.
    let mut to = vec![usize::MAX; a.len()];
    let mut short = Vec::new();
    let mut work = vec![(0, a.len(), 0, b.len())];
    while let Some((mut a0, mut a1, mut b0, mut b1)) = work.pop() {
        while a0 < a1 && b0 < b1 && a[a0].key() == b[b0].key() {
            to[a0] = b0;
            a0 += 1;
            b0 += 1;
        }
        while a0 < a1 && b0 < b1 && a[a1 - 1].key() == b[b1 - 1].key() {
            to[a1 - 1] = b1 - 1;
            a1 -= 1;
            b1 -= 1;
        }
        if a0 == a1 || b0 == b1 {
            continue;
        }
        let anchors = unique_anchors(&a[a0..a1], &b[b0..b1]);
        if anchors.is_empty() {
            if (a1 - a0) * (b1 - b0) <= DP_CELLS {
                short.clear();
                lcs(&a[a0..a1], &b[b0..b1], a0, b0, &mut short);
                for &(x, y) in &short {
                    to[x] = y;
                }
            }
            continue;
        }
        let (mut pa, mut pb) = (a0, b0);
        for (x, y) in anchors.iter() {
            let (x, y) = (a0 + x, b0 + y);
            // A gap empty on either side matches nothing.
            if pa < x && pb < y {
                work.push((pa, x, pb, y));
            }
            to[x] = y;
            pa = x + 1;
            pb = y + 1;
        }
        work.push((pa, a1, pb, b1));
    }
    to
}

/// The longest increasing run of lines unique on both sides.
pub(super) fn unique_anchors<A: Keyed, B: Keyed>(a: &[A], b: &[B]) -> Anchors {
    // The bucketed search numbers lines in 32 bits (a side of four
    // billion lines is left to the table).
    let fits = a.len().max(b.len()) < u32::MAX as usize;
    if a.len() + b.len() >= BUCKETED && fits {
        Anchors::Narrow(longest_noted_run(&unique_pairs_noted(a, b)))
    } else {
        Anchors::Wide(longest_run(unique_pairs(a, b)))
    }
}

/// [`unique_anchors`]' pairs (index in `a`, index in `b`), in order: in 32
/// bits for a large region (a 10 MB side's run is half a million pairs,
/// and each byte of it a byte of fresh pages), else in `usize`.
pub(super) enum Anchors {
    Narrow(Vec<(u32, u32)>),
    Wide(Vec<(usize, usize)>),
}

impl Anchors {
    fn is_empty(&self) -> bool {
        match self {
            Anchors::Narrow(v) => v.is_empty(),
            Anchors::Wide(v) => v.is_empty(),
        }
    }

    /// The pairs, in order.
    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let narrow = match self {
            Anchors::Narrow(v) => v.as_slice(),
            Anchors::Wide(_) => &[],
        };
        let wide = match self {
            Anchors::Narrow(_) => &[],
            Anchors::Wide(v) => v.as_slice(),
        };
        narrow
            .iter()
            .map(|&(x, y)| (x as usize, y as usize))
            .chain(wide.iter().copied())
    }
}

/// From this many lines on both sides together, the lines unique to both
/// are found by bucketing the keys ([`unique_pairs_bucketed`]) rather
/// than in one hash table, which misses the cache at every line of a
/// large file.
const BUCKETED: usize = 1 << 14;

/// The pairs (index in `a`, index in `b`) of keys that occur once in
/// each, ordered by index in `a`.
pub(super) fn unique_pairs<A: Keyed, B: Keyed>(a: &[A], b: &[B]) -> Vec<(usize, usize)> {
    // (count in a, index in a, count in b, index in b)
    let mut seen: Map<(u32, usize, u32, usize)> = Map::default();
    seen.reserve(a.len());
    for (i, k) in a.iter().map(Keyed::key).enumerate() {
        let e = seen.entry(k).or_insert((0, i, 0, 0));
        e.0 += 1;
    }
    for (j, k) in b.iter().map(Keyed::key).enumerate() {
        if let Some(e) = seen.get_mut(&k) {
            e.2 += 1;
            e.3 = j;
        }
    }
    let mut cands: Vec<(usize, usize)> = seen
        .values()
        .filter(|e| e.0 == 1 && e.2 == 1)
        .map(|e| (e.1, e.3))
        .collect();
    cands.sort_unstable();
    cands
}

/// [`unique_pairs`], the same pairs in the same order. Each side has
/// fewer than `u32::MAX` lines.
#[cfg(test)]
pub(super) fn unique_pairs_bucketed<A: Keyed, B: Keyed>(a: &[A], b: &[B]) -> Vec<(usize, usize)> {
    unique_pairs_noted(a, b)
        .iter()
        .enumerate()
        .filter(|(_, &y)| y != u32::MAX)
        .map(|(x, &y)| (x, y as usize))
        .collect()
}

/// [`unique_pairs`] noted at their index in `a`: the index in `b` of the
/// line of `a` at each index (`u32::MAX`: none). Each side's keys with
/// their indices are spread into buckets by their top bits and sorted
/// within them, so the two sides are walked together in key order. Each
/// side has fewer than `u32::MAX` lines.
fn unique_pairs_noted<A: Keyed, B: Keyed>(a: &[A], b: &[B]) -> Vec<u32> {
    // A large pair's two sides are sorted on two threads: this comes late
    // in a check, when the other pieces of work are done and a core is
    // free.
    let (ka, kb) = if a.len() + b.len() >= PARALLEL_KEYS {
        std::thread::scope(
            |s| match std::thread::Builder::new().spawn_scoped(s, || by_key(b)) {
                Ok(h) => {
                    let ka = by_key(a);
                    // A panic there is the panic it would have been here.
                    let kb = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                    (ka, kb)
                }
                Err(_) => (by_key(a), by_key(b)),
            },
        )
    } else {
        (by_key(a), by_key(b))
    };
    // The pairs noted at their index in `a` (`u32::MAX`: none), read off
    // in that order.
    let mut to = vec![u32::MAX; a.len()];
    let (mut x, mut y) = (0, 0);
    let run = |v: &[Entry], from: usize| {
        let k = v[from].key();
        from + v[from..].iter().take_while(|p| p.key() == k).count()
    };
    while x < ka.len() {
        let k = ka[x].key();
        let x2 = run(&ka, x);
        while y < kb.len() && kb[y].key() < k {
            y += 1;
        }
        let y2 = if y < kb.len() && kb[y].key() == k {
            run(&kb, y)
        } else {
            y
        };
        if x2 - x == 1 && y2 - y == 1 {
            to[ka[x].at()] = kb[y].at() as u32;
        }
        (x, y) = (x2, y2);
    }
    to
}

/// From this many lines on both sides together, [`unique_pairs_bucketed`]
/// sorts them on two threads (a thread costs tens of microseconds; the
/// sort of this many, a few milliseconds).
const PARALLEL_KEYS: usize = 1 << 17;

/// A key and the index of its line, in twelve bytes: the low and high
/// halves of the key, then the index (a pair of `u64` and `usize` takes
/// sixteen, and a large side's entries are megabytes of fresh pages).
#[derive(Clone, Copy)]
struct Entry([u32; 3]);

impl Entry {
    fn new(key: u64, at: usize) -> Entry {
        Entry([key as u32, (key >> 32) as u32, at as u32])
    }

    fn key(&self) -> u64 {
        u64::from(self.0[0]) | (u64::from(self.0[1]) << 32)
    }

    fn at(&self) -> usize {
        self.0[2] as usize
    }
}

/// The keys with their indices (each below `u32::MAX`), sorted by key.
fn by_key<K: Keyed>(keys: &[K]) -> Vec<Entry> {
    // About one bucket per 8 keys, so most buckets hold a handful and
    // their sort is short.
    let bits = (keys.len() / 8).max(2).ilog2().clamp(1, 20);
    let bucket = |k: u64| (k >> (64 - bits)) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for k in keys.iter().map(Keyed::key) {
        starts[bucket(k) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut at = starts.clone();
    let mut out = vec![Entry([0; 3]); keys.len()];
    for (i, k) in keys.iter().map(Keyed::key).enumerate() {
        let b = bucket(k);
        out[at[b]] = Entry::new(k, i);
        at[b] += 1;
    }
    // Only runs of one key are looked at, not the order of indices within
    // them: a line repeated all through the file (`}`) fills a bucket of
    // its own, already in order of index.
    for w in starts.windows(2) {
        out[w[0]..w[1]].sort_unstable_by_key(Entry::key);
    }
    out
}

/// [`longest_run`] of the pairs noted in `to` ([`unique_pairs_noted`]),
/// the same run: the candidates are numbered by their index in `a`
/// instead of their place among the candidates (both increase together),
/// so no list of candidates is made, and every index takes four bytes.
fn longest_noted_run(to: &[u32]) -> Vec<(u32, u32)> {
    let mut tails: Vec<u32> = Vec::new();
    let mut tail_ys: Vec<u32> = Vec::new();
    let mut back: Vec<u32> = vec![u32::MAX; to.len()];
    for (x, &y) in to.iter().enumerate() {
        if y == u32::MAX {
            continue;
        }
        // Below `u32::MAX`: `a` has fewer lines.
        let x = x as u32;
        let p = match tail_ys.last() {
            Some(&last) if last < y => tail_ys.len(),
            _ => tail_ys.partition_point(|&t| t < y),
        };
        if p > 0 {
            back[x as usize] = tails[p - 1];
        }
        if p == tails.len() {
            tails.push(x);
            tail_ys.push(y);
        } else {
            tails[p] = x;
            tail_ys[p] = y;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(x) = at {
        run.push((x, to[x as usize]));
        at = Some(back[x as usize]).filter(|&b| b != u32::MAX);
    }
    run.reverse();
    run
}

/// Patience sorting: the longest increasing subsequence of new indices
/// among `cands` (ordered by old index).
fn longest_run(cands: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    // Sized for the longest run, all of them (an edit's nearly is):
    // growing a vector copies it, and its pages are fresh each time.
    let mut tails: Vec<usize> = Vec::with_capacity(cands.len());
    // The new index of each tail, beside it: the search reads them in
    // order instead of through `cands`. They increase, so a candidate
    // past the last (most are, in an edit) extends the run unsearched.
    let mut tail_ys: Vec<usize> = Vec::with_capacity(cands.len());
    let mut back: Vec<usize> = vec![usize::MAX; cands.len()];
    for (i, &(_, y)) in cands.iter().enumerate() {
        let p = match tail_ys.last() {
            Some(&last) if last < y => tail_ys.len(),
            _ => tail_ys.partition_point(|&t| t < y),
        };
        if p > 0 {
            back[i] = tails[p - 1];
        }
        if p == tails.len() {
            tails.push(i);
            tail_ys.push(y);
        } else {
            tails[p] = i;
            tail_ys[p] = y;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(i) = at {
        run.push(cands[i]);
        at = (back[i] != usize::MAX).then_some(back[i]);
    }
    run.reverse();
    run
}

/// A longest common subsequence of two short runs.
pub(super) fn lcs<A: Keyed, B: Keyed>(
    a: &[A],
    b: &[B],
    a0: usize,
    b0: usize,
    out: &mut Vec<(usize, usize)>,
) {
    let (n, m) = (a.len(), b.len());
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i * (m + 1) + j] = if a[i].key() == b[j].key() {
                t[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i].key() == b[j].key() {
            out.push((a0 + i, b0 + j));
            i += 1;
            j += 1;
        } else if t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// The gaps between matched pairs: (old range, new range), at least one
/// of them non-empty; `to` is [`matched`]'s, for `m` new lines.
pub(super) fn hunks(
    to: &[usize],
    m: usize,
) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let (mut pa, mut pb) = (0, 0);
    let pairs = to
        .iter()
        .enumerate()
        .filter(|(_, &y)| y != usize::MAX)
        .map(|(x, &y)| (x, y));
    for (x, y) in pairs.chain(std::iter::once((to.len(), m))) {
        if x > pa || y > pb {
            out.push((pa..x, pb..y.max(pb)));
        }
        pa = x + 1;
        pb = y + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Patience sorting as first written: a binary search of every
    /// candidate through `cands`.
    fn searched(cands: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut tails: Vec<usize> = Vec::new();
        let mut back: Vec<usize> = vec![usize::MAX; cands.len()];
        for (i, &(_, y)) in cands.iter().enumerate() {
            let p = tails.partition_point(|&t| cands[t].1 < y);
            if p > 0 {
                back[i] = tails[p - 1];
            }
            if p == tails.len() {
                tails.push(i);
            } else {
                tails[p] = i;
            }
        }
        let mut run = Vec::new();
        let mut at = tails.last().copied();
        while let Some(i) = at {
            run.push(cands[i]);
            at = (back[i] != usize::MAX).then_some(back[i]);
        }
        run.reverse();
        run
    }

    /// The run taken with the last tail looked at first is the run of the
    /// search, candidate for candidate: in order, reversed, shuffled,
    /// runs swapped, one candidate out of place at every point.
    #[test]
    fn longest_runs_are_those_searched() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [0usize, 1, 2, 5, 40, 1000] {
            let ys: Vec<Vec<usize>> = vec![
                (0..n).collect(),
                (0..n).rev().collect(),
                {
                    let mut v: Vec<usize> = (0..n).collect();
                    for i in (1..n).rev() {
                        v.swap(i, next() as usize % (i + 1));
                    }
                    v
                },
                (0..n).map(|i| (i + n / 2) % n.max(1)).collect(),
                (0..n).map(|i| if i % 7 == 3 { n + i } else { i }).collect(),
                (0..n).map(|i| i ^ 1).filter(|&y| y < n).collect(),
            ];
            for y in ys {
                let cands: Vec<(usize, usize)> = y.into_iter().enumerate().collect();
                assert_eq!(longest_run(cands.clone()), searched(&cands), "{cands:?}");
                // Noted by old index, with gaps between the candidates.
                let mut to = vec![u32::MAX; 3 * cands.len() + 1];
                for &(x, y) in &cands {
                    to[3 * x + 1] = y as u32;
                }
                let spread: Vec<(usize, usize)> =
                    cands.iter().map(|&(x, y)| (3 * x + 1, y)).collect();
                let noted: Vec<(usize, usize)> = longest_noted_run(&to)
                    .into_iter()
                    .map(|(x, y)| (x as usize, y as usize))
                    .collect();
                assert_eq!(noted, searched(&spread), "{cands:?}");
            }
        }
    }
}
