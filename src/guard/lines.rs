//! Lines as the kill-switch counts them: a fast splitter over raw bytes,
//! seeded 64-bit line hashes, and the *meaningful* form of a line that the
//! padding-resistant ratios use (Unicode spaces and invisible characters
//! normalised, lines of only punctuation or comment markers dropped). Pure
//! functions, no I/O.

use std::collections::HashSet;
use std::hash::{BuildHasher as _, BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::killswitch::LineEndings;
use super::lang::Lang;

/// Returns the index of the first `\n` in `s`, eight bytes at a time.
pub(super) fn find_newline(s: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    let mut chunks = s.chunks_exact(8);
    let mut offset = 0;
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word) ^ NL;
        // The lowest flagged byte is the first zero byte, i.e. the first `\n`.
        let zero = w.wrapping_sub(LO) & !w & HI;
        if zero != 0 {
            return Some(offset + (zero.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|p| offset + p)
}

/// Returns how many `\n` bytes `s` holds: counted in blocks whose byte
/// compares the compiler turns into vector instructions (a line number
/// after a long stretch is counted over megabytes, a byte at a time
/// several instructions each).
pub(super) fn count_newlines(s: &[u8]) -> usize {
    // At most 255 matches per block: the per-lane sums fit in a byte.
    const BLOCK: usize = 255;
    let mut blocks = s.chunks_exact(BLOCK);
    let mut n = 0;
    for block in blocks.by_ref() {
        n += usize::from(
            block
                .iter()
                .fold(0u8, |c, &b| c.wrapping_add(u8::from(b == b'\n'))),
        );
    }
    n + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// Iterates over the non-blank, trimmed lines of a buffer with their
/// 1-based numbers, counting the line endings it passes.
pub(super) struct Lines<'a> {
    rest: &'a [u8],
    number: usize,
    lf: usize,
    crlf: usize,
    done: bool,
}

impl<'a> Lines<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Lines<'a> {
        Lines {
            rest: bytes,
            number: 0,
            lf: 0,
            crlf: 0,
            done: false,
        }
    }

    pub(super) fn endings(&self) -> LineEndings {
        endings(self.lf, self.crlf)
    }

    /// Returns how many `\n` and `\r\n` endings were passed.
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.lf, self.crlf)
    }
}

/// Returns the line endings of content with `lf` bare `\n` and `crlf`
/// `\r\n` endings.
pub(super) fn endings(lf: usize, crlf: usize) -> LineEndings {
    match (lf > 0, crlf > 0) {
        (false, false) => LineEndings::None,
        (true, false) => LineEndings::Lf,
        (false, true) => LineEndings::Crlf,
        (true, true) => LineEndings::Mixed,
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        while !self.done {
            self.number += 1;
            let line = match find_newline(self.rest) {
                Some(i) => {
                    let line = &self.rest[..i];
                    if line.last() == Some(&b'\r') {
                        self.crlf += 1;
                    } else {
                        self.lf += 1;
                    }
                    self.rest = &self.rest[i + 1..];
                    line
                }
                None => {
                    self.done = true;
                    self.rest
                }
            };
            let line = line.trim_ascii();
            if !line.is_empty() {
                return Some((self.number, line));
            }
        }
        None
    }
}

/// Returns the non-blank, trimmed lines of `bytes`, with 1-based numbers.
pub(super) fn lines(bytes: &[u8]) -> Lines<'_> {
    Lines::new(bytes)
}

/// Hands a precomputed hash through to the table.
#[derive(Default)]
pub(super) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(MUL);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A set of line hashes, for the few lines the kill-switch treats apart (the
/// bulk are kept in sorted vectors). Lines are compared by their seeded
/// 64-bit hash: two different lines collide with odds of about n²/2⁶⁵
/// (1e-9 for 400 000 lines), which cannot move a ratio measured in
/// hundredths.
pub(super) type LineSet = HashSet<u64, BuildHasherDefault<PassThrough>>;

const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

/// Hashes keys made of text and numbers (function names, `(name,
/// occurrence)` pairs) with the seeded line hash: the scanners' tables hold
/// one key per function of a file, and SipHash cost more than the scan.
/// Seeded per process like the line hashes, so crafted names cannot aim
/// at collisions.
pub(super) struct Seeded(u64);

impl Default for Seeded {
    fn default() -> Seeded {
        Seeded(seed())
    }
}

impl Hasher for Seeded {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = hash_line(self.0, bytes);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(MUL).rotate_left(29);
    }

    fn finish(&self) -> u64 {
        fmix(self.0)
    }
}

/// A hash map keyed by text, hashed with [`Seeded`].
pub(super) type TextMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<Seeded>>;

/// A hash set of text keys, hashed with [`Seeded`].
pub(super) type TextSet<K> = HashSet<K, BuildHasherDefault<Seeded>>;

/// A per-process random seed, so that crafted content cannot aim at
/// collisions.
pub(super) fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64))
}

/// Hashes a line: a seeded folded multiply over 8-byte words with a final
/// avalanche (murmur3's fmix64).
pub(super) fn hash_line(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed ^ (bytes.len() as u64).wrapping_mul(MUL);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = fold(h ^ u64::from_le_bytes(word));
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut word = [0u8; 8];
        word[..tail.len()].copy_from_slice(tail);
        h = fold(h ^ u64::from_le_bytes(word));
    }
    fmix(h)
}

/// One word's step: the 128-bit product with [`MUL`], its halves folded
/// together, so every bit of the word reaches every bit of the state (a
/// 64-bit product carries a difference only upward: lines differing in a
/// digit at the top of one word and at the bottom of the next collided
/// for about half the seeds, and the ratios moved from run to run).
fn fold(x: u64) -> u64 {
    let m = u128::from(x) * u128::from(MUL);
    (m as u64) ^ ((m >> 64) as u64)
}

/// murmur3's final avalanche.
fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Sorts hashes: spread into buckets by their top bits (about eight
/// hashes to a bucket, the hashes being uniform), each bucket then sorted
/// on its own — one pass that reads and writes memory in order, where a
/// byte-by-byte radix sort took eight. A line repeated all through the
/// file (`}`) fills a bucket of its own, which the standard sort handles
/// in linear time (runs of one value).
pub(super) fn radix_sort(v: &mut Vec<u64>) {
    if v.len() < 64 {
        v.sort_unstable();
        return;
    }
    let bits = (v.len() / 8).max(2).ilog2().clamp(1, 20);
    let bucket = |x: u64| (x >> (64 - bits)) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for &x in v.iter() {
        starts[bucket(x) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut at = starts.clone();
    let mut buf = vec![0u64; v.len()];
    for &x in v.iter() {
        let b = bucket(x);
        buf[at[b]] = x;
        at[b] += 1;
    }
    for w in starts.windows(2) {
        buf[w[0]..w[1]].sort_unstable();
    }
    *v = buf;
}

/// Returns the meaningful form of a trimmed line: whitespace runs (Unicode
/// spaces included) collapsed to one space, invisible characters removed;
/// `None` when nothing alphanumeric is left (blank, punctuation, a lone
/// comment marker). Borrows the line itself when it needs no rewriting,
/// which is the common case, and writes into `scratch` otherwise.
pub(super) fn meaningful<'a>(line: &'a [u8], scratch: &'a mut Vec<u8>) -> Option<&'a [u8]> {
    if !needs_rewrite(line) {
        return line.iter().any(u8::is_ascii_alphanumeric).then_some(line);
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return line.iter().any(u8::is_ascii_alphanumeric).then_some(line);
    };
    scratch.clear();
    let mut alnum = false;
    let mut space = false;
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if crate::text::lookalike::is_invisible(c) {
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !scratch.is_empty() {
            scratch.push(b' ');
        }
        space = false;
        alnum |= c.is_alphanumeric();
        scratch.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    alnum.then_some(scratch.as_slice())
}

/// Returns whether a trimmed line has anything [`meaningful`] must rewrite:
/// a byte outside ASCII, a tab or other control space, or two spaces in a
/// row. Eight bytes at a time.
fn needs_rewrite(line: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    // A byte is flagged in `zero(w)` when it is zero.
    let zero = |w: u64| w.wrapping_sub(LO) & !w & HI;
    let mut prev_space = false;
    let mut chunks = line.chunks_exact(8);
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // Control bytes (tab, vertical tab, form feed…) are below 0x20.
        let control = zero(w & (LO * 0xE0));
        let spaces = zero(w ^ (LO * u64::from(b' ')));
        if w & HI != 0
            || control != 0
            || spaces & (spaces >> 8) != 0
            || (prev_space && spaces & 0x80 != 0)
        {
            return true;
        }
        prev_space = chunk[7] == b' ';
    }
    let mut prev = prev_space;
    for &b in chunks.remainder() {
        if !(0x20..0x80).contains(&b) || (b == b' ' && prev) {
            return true;
        }
        prev = b == b' ';
    }
    false
}

/// The bytes a whole-line comment of a language can begin or end with,
/// so that most lines are told apart from comments by two table lookups
/// (a file is classified a line at a time; [`is_comment`] compares every
/// marker).
pub(super) struct CommentEdges<'l> {
    lang: &'l Lang,
    first: [bool; 256],
    last: [bool; 256],
}

impl<'l> CommentEdges<'l> {
    /// The edges of `lang`'s comment markers (every byte, if one is empty).
    pub(super) fn of(lang: &'l Lang) -> CommentEdges<'l> {
        let (mut first, mut last) = ([false; 256], [false; 256]);
        let mut any = false;
        let mut mark = |table: &mut [bool; 256], m: Option<&u8>| match m {
            Some(&b) => table[usize::from(b)] = true,
            None => any = true,
        };
        for m in lang.line_comments {
            mark(&mut first, m.as_bytes().first());
        }
        for (open, close) in lang.block_comments {
            mark(&mut first, open.as_bytes().first());
            mark(&mut last, close.as_bytes().last());
        }
        first[usize::from(b'*')] = true;
        if any {
            (first, last) = ([true; 256], [true; 256]);
        }
        CommentEdges { lang, first, last }
    }

    /// [`is_comment`] of `line` in the language.
    pub(super) fn is(&self, line: &[u8]) -> bool {
        let edge = |table: &[bool; 256], b: Option<&u8>| b.is_some_and(|&b| table[usize::from(b)]);
        (edge(&self.first, line.first()) || edge(&self.last, line.last()))
            && is_comment(line, self.lang)
    }
}

/// Returns whether a meaningful line is a whole-line comment in `lang`.
pub(super) fn is_comment(line: &[u8], lang: &Lang) -> bool {
    let starts = |m: &str| begins(line, m.as_bytes());
    lang.line_comments.iter().any(|m| starts(m))
        || lang.block_comments.iter().any(|(open, close)| {
            starts(open) || (finishes(line, close.as_bytes()) && !line.contains(&b'('))
        })
        || (!lang.block_comments.is_empty()
            && lang.block_comments[0].0 == "/*"
            && (line.starts_with(b"* ") || line == b"*"))
}

/// `line.starts_with(m)`, the first byte compared first: most lines differ
/// there from every marker, and a call into `memcmp` per marker and line
/// cost more than the rest of the line's classification.
fn begins(line: &[u8], m: &[u8]) -> bool {
    m.first()
        .is_none_or(|b| line.first() == Some(b) && line.starts_with(m))
}

/// `line.ends_with(m)`, the last byte compared first (see [`begins`]).
fn finishes(line: &[u8], m: &[u8]) -> bool {
    m.last()
        .is_none_or(|b| line.last() == Some(b) && line.ends_with(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(line: &str) -> Option<String> {
        let mut scratch = Vec::new();
        meaningful(line.as_bytes(), &mut scratch).map(|k| String::from_utf8_lossy(k).into_owned())
    }

    /// Lines that differ only in numbers spread over two words (a call's
    /// argument: the shape of most lines of generated code) hash apart
    /// under every seed tried.
    #[test]
    fn lines_differing_across_words_hash_apart() {
        for k in 0..12u64 {
            let seed = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed;
            let mut hashes: Vec<u64> = (0..100_000)
                .map(|n| hash_line(seed, format!("let y = x.wrapping_mul({n});").as_bytes()))
                .collect();
            hashes.sort_unstable();
            hashes.dedup();
            assert_eq!(hashes.len(), 100_000, "seed {seed:#x}");
        }
    }

    #[test]
    fn meaningful_lines_ignore_padding() {
        assert_eq!(key("let x = 1;").as_deref(), Some("let x = 1;"));
        assert_eq!(key("let\u{a0}x  =\t1;").as_deref(), Some("let x = 1;"));
        assert_eq!(key("le\u{200b}t x = 1;").as_deref(), Some("let x = 1;"));
        for blank in [
            "}",
            "});",
            "#",
            "//",
            "/* */",
            "\u{a0}\u{a0}",
            "\u{200b}\u{200d}",
            "\u{3000}",
            "---",
            "\u{2800}",
            ";;",
        ] {
            assert_eq!(key(blank), None, "{blank:?}");
        }
        assert_eq!(key("pass").as_deref(), Some("pass"));
        assert_eq!(key("名前").as_deref(), Some("名前"));
        for (line, rewrite) in [
            ("let x = 1;", false),
            ("let x  = 1;", true),
            ("abcdefg  h", true),
            ("abcdefgh  ", true),
            ("abcdefg\tx", true),
            ("x\u{a0}y", true),
            ("a b c d e f g h i j k", false),
            ("0123456 89", false),
            ("0123456  9", true),
            ("abcdefgh\x0c", true),
            ("abcdefghijklmno\x0b", true),
        ] {
            assert_eq!(needs_rewrite(line.as_bytes()), rewrite, "{line:?}");
        }
    }

    /// The blocked newline count is the byte-by-byte one: around block
    /// edges, in runs of 255 and more `\n` (a block's count at its
    /// limit), with CR, CRLF, tabs, Unicode spaces, invalid UTF-8, no
    /// final newline.
    #[test]
    fn newlines_are_counted_as_one_by_one() {
        let naive = |s: &[u8]| s.iter().filter(|&&b| b == b'\n').count();
        let mut samples: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"a".to_vec(),
            b"a\r\nb\rc\n\td\x0b\x0c".to_vec(),
            "x\u{a0}y\u{2028}z\u{3000}\n\u{85}".as_bytes().to_vec(),
            b"\xff\xfe\n\xc3\n\x80".to_vec(),
            vec![b'\n'; 255],
            vec![b'\n'; 256],
            vec![b'\n'; 255 * 3 + 7],
            vec![b'x'; 10_000],
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        samples.push(
            (0..5000)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    [b'\n', b'\r', b'a', 0xff][(state % 4) as usize]
                })
                .collect(),
        );
        for s in &samples {
            for cut in [0, 1, 254, 255, 256, 509, 510, 511] {
                let s = &s[cut.min(s.len())..];
                assert_eq!(count_newlines(s), naive(s), "{}", s.len());
            }
        }
    }

    #[test]
    fn radix_sort_sorts() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut v: Vec<u64> = (0..5000)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if i % 7 == 0 {
                    42
                } else {
                    state
                }
            })
            .collect();
        let mut expected = v.clone();
        expected.sort_unstable();
        radix_sort(&mut v);
        assert_eq!(v, expected);
        // Many values alike, at the top and in the middle of the range,
        // and sizes around each number of buckets.
        for n in [64, 100, 1000, 4096, 70_000] {
            let mut v: Vec<u64> = (0..n as u64)
                .map(|i| match i % 3 {
                    0 => u64::MAX - i % 5,
                    1 => i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    _ => 1 << 63,
                })
                .collect();
            let mut expected = v.clone();
            expected.sort_unstable();
            radix_sort(&mut v);
            assert_eq!(v, expected, "{n}");
        }
        let mut small = vec![3, 1, 2];
        radix_sort(&mut small);
        assert_eq!(small, [1, 2, 3]);
    }

    #[test]
    fn comments_are_told_from_code() {
        let rust = super::super::lang::from_path("a.rs").expect("rust");
        let py = super::super::lang::from_path("a.py").expect("python");
        // The edge tables never disagree with the markers.
        for l in [rust, py] {
            let edges = CommentEdges::of(l);
            for line in [
                &b"// note"[..],
                b"* more",
                b"*",
                b"/* a */",
                b"a */",
                b"let x = 1; // note",
                b"# note",
                b"x = 1",
                b"",
                b"\"\"\"",
                b"-- x",
                b"<!-- x -->",
                b"x(a) */",
            ] {
                assert_eq!(edges.is(line), is_comment(line, l), "{line:?}");
            }
        }
        assert!(is_comment(b"// note", rust));
        assert!(is_comment(b"* more", rust));
        assert!(is_comment(b"/* a */", rust));
        assert!(!is_comment(b"let x = 1; // note", rust));
        assert!(!is_comment(b"# note", rust));
        assert!(is_comment(b"# note", py));
        assert!(!is_comment(b"x = 1", py));
    }
}
