//! Stub detection: finds the functions of a source file and what their
//! bodies hold, so that a rewrite turning implemented bodies into stubs
//! (`pass`, `todo!()`, `raise NotImplementedError`, `throw new
//! UnsupportedOperationException()`, `// TODO: implement`, an empty body…)
//! is blocked with the names of the functions it stubbed. Pure functions,
//! no I/O.
//!
//! A block scanner keyed by language ([`Lang::blocks`]), not a parser: braces
//! for the C family, Rust, Go, Java, JS/TS, C#, PHP, Kotlin, Swift; the
//! indentation of a `def` for Python; a keyword header closed by `end` for
//! Ruby, Lua and Elixir. Strings and comments are skipped so braces inside
//! them do not count. One pass per file; a body is classified once, and
//! bodies above [`MAX_BODY`] bytes are taken as implemented unread, so the
//! cost stays linear. docs/decisions.md says why not tree-sitter.

use std::borrow::Cow;

use super::elision;
use super::lang::{Blocks, Lang};
use super::lines::{TextMap, TextSet};
use crate::text::fold;

mod blocks;
mod join;
mod lexer;
mod words;

pub use join::{scan_new, scan_old, scan_pair, Joined, OldScan};

use blocks::*;
use lexer::*;
use words::*;

/// What a function body holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Body {
    /// Code lines that do real work.
    pub real: usize,
    /// Code lines that do nothing worth keeping (trivial returns, logging,
    /// `pass`, docstrings).
    pub trivial: usize,
    /// A stub marker: `todo!()`, `raise NotImplementedError`, a TODO
    /// comment, a placeholder…
    pub marked: bool,
    /// A statement or comment that stands for the code (`todo!()`, `raise
    /// NotImplementedError`, `// TODO: implement`, a bare `// TODO`, a
    /// placeholder), not a note about future work.
    pub stub_statement: bool,
}

impl Body {
    /// Returns whether the body does real work.
    pub fn implemented(&self) -> bool {
        self.real > 0
    }

    /// Returns whether the body is a stub outright: no real work, and a
    /// stub marker.
    pub fn marked_stub(&self) -> bool {
        self.real == 0 && self.marked
    }

    /// Returns whether this body, replacing `old`, stubs it out: no real
    /// work where there was some — with a marker, or where the old body had
    /// at least two real lines (an emptied one-liner may be intended) — or a
    /// new stub statement beside a third or less of the old real lines (a
    /// stub dressed up with a statement or two), or a stub comment beside a
    /// single statement left of four or more.
    pub fn stubs(&self, old: &Body) -> bool {
        old.implemented()
            && ((self.real == 0 && (self.marked || old.real >= 2))
                || (self.stub_statement
                    && !old.stub_statement
                    && old.real >= 3
                    && self.real * 3 <= old.real)
                || (self.stub_statement && !old.marked && self.real <= 1 && old.real >= 4))
    }
}

/// A function the scanner found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name as written (`Foo::bar`, `Service.start`, `it(works)`).
    pub name: String,
    /// Which occurrence of the name this is (0 for the first), to tell
    /// overloads apart.
    pub occurrence: usize,
    /// What its body holds.
    pub body: Body,
}

/// Returns the functions of `src` with their bodies, in order of their end.
pub fn functions(src: &str, lang: &Lang) -> Vec<Function> {
    let scan = scan(src, lang);
    scan.found
        .into_iter()
        .map(|f| Function {
            body: classify(&src[f.body.clone()], lang),
            name: f.name.into_owned(),
            occurrence: f.occurrence,
        })
        .collect()
}

/// A function as the scanner finds it: its name and where its body is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found<'a> {
    /// Its name as written: borrowed from the scanned text, except for a
    /// name made up of parts (`it(works)`, `Class.method`).
    pub name: Cow<'a, str>,
    /// Which occurrence of the name this is.
    pub occurrence: usize,
    /// The body's byte range in the scanned text.
    pub body: std::ops::Range<usize>,
}

impl Found<'_> {
    /// Returns what tells this function from the others: its name and
    /// occurrence.
    fn key(&self) -> (&str, usize) {
        (&self.name, self.occurrence)
    }
}

/// What one pass of the scanner found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan<'a> {
    /// The functions, in order of their end, unclassified.
    pub found: Vec<Found<'a>>,
    /// Blocks still open at the end of the text (brace languages).
    pub open_blocks: usize,
    /// Closing braces without an opening one (brace languages).
    pub stray_closers: usize,
}

impl Scan<'_> {
    /// Returns whether every block that opens also closes.
    pub fn balanced(&self) -> bool {
        self.open_blocks == 0 && self.stray_closers == 0
    }
}

/// Scans `src` once: where its functions are, and whether its blocks
/// balance. Bodies are classified later, and only those that changed.
pub fn scan<'a>(src: &'a str, lang: &'a Lang) -> Scan<'a> {
    let scan = match lang.blocks {
        Blocks::Braces => braces(src, lang),
        Blocks::Indent | Blocks::End => Scan {
            found: indented(src, lang),
            ..Scan::default()
        },
        Blocks::None => Scan::default(),
    };
    complete(src, lang, scan)
}

/// Completes what the block scanner found in `src`: one-expression bodies
/// added, and each function's occurrence of its name counted.
fn complete<'a>(src: &'a str, lang: &Lang, mut scan: Scan<'a>) -> Scan<'a> {
    if lang.blocks == Blocks::Braces && EXPRESSION_BODIES.contains(&lang.name) {
        scan.found.extend(expression_bodies(src, lang));
    }
    let occurrences = occurrences(&scan.found);
    for (f, n) in scan.found.iter_mut().zip(occurrences) {
        f.occurrence = n;
    }
    scan
}

/// Returns, for each of `found`, how many before it have its name.
///
/// A file of many functions is counted by sorting the names' hashes, not
/// in one table: the table of a large file's names missed the cache at
/// every function. Functions whose names hash alike are counted by their
/// names (the same hash with different names is counted apart).
fn occurrences(found: &[Found<'_>]) -> Vec<usize> {
    let counted = |fs: &mut dyn Iterator<Item = &Found<'_>>, out: &mut Vec<usize>| {
        let mut seen = TextMap::<&str, usize>::default();
        for f in fs {
            let n = seen.entry(&f.name).or_default();
            out.push(*n);
            *n += 1;
        }
    };
    if found.len() < SORTED_FROM {
        let mut out = Vec::with_capacity(found.len());
        counted(&mut found.iter(), &mut out);
        return out;
    }
    use std::hash::BuildHasher as _;
    let hasher = std::hash::BuildHasherDefault::<crate::guard::lines::Seeded>::default();
    let hashes: Vec<u64> = found.iter().map(|f| hasher.hash_one(&*f.name)).collect();
    // Spread by the top bits into buckets of a handful, in order of index,
    // then sorted by hash within them (a stable sort keeps that order).
    let bits = (found.len() / 8).max(2).ilog2().clamp(1, 20);
    let bucket = |h: u64| (h >> (64 - bits)) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for &h in &hashes {
        starts[bucket(h) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut at = starts.clone();
    let mut order = vec![(0u64, 0usize); found.len()];
    for (i, &h) in hashes.iter().enumerate() {
        let b = bucket(h);
        order[at[b]] = (h, i);
        at[b] += 1;
    }
    drop(hashes);
    for w in starts.windows(2) {
        order[w[0]..w[1]].sort_by_key(|p| p.0);
    }
    let mut out = vec![0; found.len()];
    let mut run = Vec::new();
    let mut k = 0;
    while k < order.len() {
        let h = order[k].0;
        let end = k + order[k..].iter().take_while(|p| p.0 == h).count();
        let same = &order[k..end];
        if same.len() > 1 {
            let first = &found[same[0].1].name;
            if same.iter().all(|p| found[p.1].name == *first) {
                for (n, p) in same.iter().enumerate() {
                    out[p.1] = n;
                }
            } else {
                run.clear();
                counted(&mut same.iter().map(|p| &found[p.1]), &mut run);
                for (p, &n) in same.iter().zip(&run) {
                    out[p.1] = n;
                }
            }
        }
        k = end;
    }
    out
}

/// From this many functions, their names are counted by sorting.
const SORTED_FROM: usize = 4096;

/// Returns the names of the functions `new` turns into stubs: by name, and,
/// for functions renamed while gutted, by count (more marked stubs and
/// fewer implemented bodies than before). Empty for declaration files.
pub fn stubbed(old: &str, new: &str, lang: &Lang) -> Vec<String> {
    stubbed_between(&scan(old, lang), old, &scan(new, lang), new, lang)
}

/// [`stubbed`] over scans [`scan`] already made of `old_src` and `new_src`
/// (their keys, a name and its occurrence, are unique).
/// Functions whose body is byte for byte the same on both sides cancel
/// out and are never classified, which keeps an edit of a large file cheap.
pub fn stubbed_between<'a>(
    old: &'a Scan<'a>,
    old_src: &str,
    new: &'a Scan<'a>,
    new_src: &str,
    lang: &Lang,
) -> Vec<String> {
    stubbed_between_known(old, old_src, new, new_src, lang, &[])
}

/// [`stubbed_between`], told `same`: pairs of indices (in `new.found`,
/// in `old.found`) of functions already known to have the same key and
/// the same body (an edit's joined scan says which), so they cancel out
/// without being looked up.
pub fn stubbed_between_known<'a>(
    old: &'a Scan<'a>,
    old_src: &str,
    new: &'a Scan<'a>,
    new_src: &str,
    lang: &Lang,
    same: &[(usize, usize)],
) -> Vec<String> {
    if lang.declarations || lang.blocks == Blocks::None {
        return Vec::new();
    }
    let mut old_unchanged = vec![false; old.found.len()];
    let mut new_known = vec![false; new.found.len()];
    let has_old_key: Vec<bool>;
    for &(n, o) in same {
        new_known[n] = true;
        old_unchanged[o] = true;
    }
    // Keys are unique within a scan (a name and its occurrence), so a
    // function of `new` whose body is byte for byte the one of its key in
    // `old` cancels out with it; only the rest is classified. A known pair
    // holds its key on both sides, so no other function looks it up.
    //
    // Most functions sit in the same order on both sides, so the old
    // function after the last one found is tried first: when it has the
    // key and is not known unchanged, it is the one the table would give
    // (keys are unique), and the table of every old function's key is
    // built only for a function out of order.
    let old_known = old_unchanged.clone();
    let mut table: Option<TextMap<(&str, usize), usize>> = None;
    let mut by_key = |key: (&str, usize), hint: usize| -> Option<usize> {
        if old
            .found
            .get(hint)
            .is_some_and(|g| g.key() == key && !old_known[hint])
        {
            return Some(hint);
        }
        table
            .get_or_insert_with(|| {
                old.found
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !old_known[*i])
                    .map(|(i, f)| (f.key(), i))
                    .collect()
            })
            .get(&key)
            .copied()
    };
    // The functions of `new` that changed, with whether `old` has their
    // key.
    let mut after: Vec<(&Found, Body, bool)> = Vec::new();
    let mut hint = 0;
    for (f, _) in new.found.iter().zip(&new_known).filter(|(_, k)| !**k) {
        let key = by_key(f.key(), hint);
        if let Some(i) = key {
            hint = i + 1;
        }
        let twin =
            key.filter(|&i| old_src.get(old.found[i].body.clone()) == new_src.get(f.body.clone()));
        match twin {
            Some(i) => old_unchanged[i] = true,
            None => after.push((f, classify(&new_src[f.body.clone()], lang), key.is_some())),
        }
    }
    let after: Vec<(&Found, Body)> = {
        let (a, matched): (Vec<_>, Vec<_>) = after.into_iter().map(|(f, b, m)| ((f, b), m)).unzip();
        has_old_key = matched;
        a
    };
    let before: Vec<(&Found, Body)> = old
        .found
        .iter()
        .zip(&old_unchanged)
        .filter(|(_, same)| !**same)
        .map(|(f, _)| (f, classify(&old_src[f.body.clone()], lang)))
        .collect();
    let old_bodies: TextMap<(&str, usize), &Body> =
        before.iter().map(|(f, b)| (f.key(), b)).collect();
    // A name that occurs once on each side is matched by name. Repeated
    // names (overloads, `it(…)` callbacks, `useEffect()`) are matched by
    // occurrence, which reordering shuffles: for them, count instead —
    // more bodies doing nothing and fewer doing work under that name. A
    // name is repeated when it has a second occurrence on either side.
    let repeated_names: TextSet<&str> = old
        .found
        .iter()
        .chain(&new.found)
        .filter(|f| f.occurrence > 0)
        .map(|f| &*f.name)
        .collect();
    let repeated = |name: &str| repeated_names.contains(name);
    let mut names: Vec<String> = after
        .iter()
        .filter(|(f, _)| !repeated(&f.name))
        .filter(|(f, b)| old_bodies.get(&f.key()).is_some_and(|o| b.stubs(o)))
        .map(|(f, _)| f.name.to_string())
        .collect();
    let mut groups: Vec<&str> = after
        .iter()
        .map(|(f, _)| &*f.name)
        .filter(|n| repeated(n))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    for name in groups {
        let of = |fs: &[(&Found, Body)], p: &dyn Fn(&Body) -> bool| {
            fs.iter().filter(|(f, b)| f.name == name && p(b)).count()
        };
        let idle = |b: &Body| !b.implemented();
        let (idle_old, idle_new) = (of(&before, &idle), of(&after, &idle));
        let (work_old, work_new) = (
            of(&before, &Body::implemented),
            of(&after, &Body::implemented),
        );
        if idle_new > idle_old && work_new < work_old {
            names.extend(std::iter::repeat_n(
                name.to_string(),
                (idle_new - idle_old).min(work_old - work_new),
            ));
        }
    }
    let count =
        |fs: &[(&Found, Body)], p: fn(&Body) -> bool| fs.iter().filter(|(_, b)| p(b)).count();
    let gained = count(&after, Body::marked_stub).saturating_sub(count(&before, Body::marked_stub));
    let lost = count(&before, Body::implemented).saturating_sub(count(&after, Body::implemented));
    let unmatched = |(k, _): &(usize, &(&Found, Body))| !has_old_key[*k];
    if gained > names.len() && lost > names.len() {
        names.extend(
            after
                .iter()
                .enumerate()
                .filter(unmatched)
                .map(|(_, x)| x)
                .filter(|(_, b)| b.marked_stub())
                .map(|(f, _)| f.name.to_string()),
        );
    } else if lost >= RENAMED_EMPTY {
        // Renamed and emptied, without a marker: new functions that do
        // nothing, as many as the implementations lost.
        let empty: Vec<String> = after
            .iter()
            .enumerate()
            .filter(unmatched)
            .map(|(_, x)| x)
            .filter(|(_, b)| !b.implemented())
            .map(|(f, _)| f.name.to_string())
            .collect();
        if empty.len() >= RENAMED_EMPTY {
            names.extend(empty.into_iter().take(lost));
        }
    }
    names
}

/// Renamed functions left empty count as stubs from this many on (a
/// single new no-op function beside a deleted one is ordinary).
const RENAMED_EMPTY: usize = 2;

/// Classifies a body's text.
pub(in crate::guard) fn classify(body: &str, lang: &Lang) -> Body {
    if body.len() > MAX_BODY {
        return Body {
            real: 2,
            ..Body::default()
        };
    }
    let (code, comments) = code_and_comments(body, lang);
    let mut b = Body::default();
    for c in comments {
        let text = fold(c);
        let placeholder = elision::is_placeholder_in(c.trim(), lang);
        if has_stub_word(&text) || placeholder {
            b.marked = true;
            // `// TODO`, `// TODO: implement`, a placeholder: the comment
            // stands for the code. `// TODO: retry on timeouts` is a note.
            let words: Vec<&str> = text
                .split(|ch: char| !ch.is_alphanumeric())
                .filter(|w| !w.is_empty() && !matches!(*w, "todo" | "fixme" | "xxx" | "tbd"))
                .collect();
            b.stub_statement |= placeholder
                || words.len() <= 1
                || words
                    .iter()
                    .any(|w| w.starts_with("implement") || *w == "stub");
        }
    }
    let mut squeezed = String::new();
    for line in &code {
        // `return undefined as any;` is `return undefined`.
        // (Looked for only in a `return`: the search costs more than the
        // test, on every code line of every changed body.)
        let line: &str = line.as_ref();
        let line = match line.trim_start().starts_with("return") {
            true => line.find(" as ").map_or(line, |p| &line[..p]),
            false => line,
        };
        squeezed.clear();
        if line.is_ascii() {
            // ASCII white space as `char::is_whitespace` has it, the runs
            // between copied whole (every code line of every changed body
            // comes here).
            let mut run = 0;
            for (i, b) in line.bytes().enumerate() {
                if matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r') {
                    squeezed.push_str(&line[run..i]);
                    run = i + 1;
                }
            }
            squeezed.push_str(&line[run..]);
        } else {
            squeezed.extend(line.chars().filter(|c| !c.is_whitespace()));
        }
        let squeezed = squeezed.trim_end_matches(';');
        if squeezed == "???" {
            // Scala's stub.
            b.marked = true;
            b.stub_statement = true;
            b.trivial += 1;
            continue;
        }
        if !squeezed.chars().any(char::is_alphanumeric) {
            if squeezed.contains("...") {
                b.trivial += 1;
            }
            continue;
        }
        let words = || {
            let folded = fold(line);
            has_stub_word(&folded)
        };
        if STUB_PREFIXES.starts(squeezed) {
            b.marked = true;
            b.stub_statement = true;
            b.trivial += 1;
        } else if FAILURE_PREFIXES.starts(squeezed) && (words() || !has_message(squeezed)) {
            // A failure that says "not implemented", or says nothing at all.
            let says = words();
            b.marked |= says;
            b.stub_statement |= says;
            b.trivial += 1;
        } else if squeezed.starts_with("return") && words() {
            // `return nil, errors.New("not implemented")`.
            b.marked = true;
            b.stub_statement = true;
            b.trivial += 1;
        } else if TRIVIAL_SET.contains(squeezed)
            || empty_construction(squeezed)
            || is_string_statement(squeezed)
            || LOGGING_PREFIXES.starts(squeezed)
            || words::ignores(squeezed)
        {
            if words() {
                b.marked = true;
            }
            b.trivial += 1;
        } else {
            b.real += 1;
        }
    }
    b
}

/// Returns whether `text` says it is unfinished (a stub word of
/// [`words::has_stub_word`]'s, in any case or accent).
pub fn says_unfinished(text: &str) -> bool {
    has_stub_word(&fold(text))
}

/// Returns whether a failure statement carries a message of its own
/// (`throw new Error("closed")`), as opposed to `throw new Error()`,
/// `raise Exception`, `panic!()`.
fn has_message(squeezed: &str) -> bool {
    squeezed.contains(['"', '\'', '`'])
}

/// Returns whether a squeezed code line is a lone string literal (a
/// docstring, or the tail of a multi-line string).
fn is_string_statement(s: &str) -> bool {
    let s = s.trim_end_matches(',');
    s.len() >= 2
        && ["\"\"\"", "'''", "\"", "'", "`"]
            .iter()
            .any(|q| s.starts_with(q) && s.ends_with(q) && s.len() >= 2 * q.len())
}

/// Returns whether the code line `t` only fails (`throw …`, `panic(…)`,
/// `error "…"`, `revert(…)`), whatever its message says: standing alone
/// where a body of real logic was, that is a stub (a message without a
/// stub word, `"pending"`, hides nothing).
pub(crate) fn only_fails(t: &str) -> bool {
    let squeezed: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    FAILURE_PREFIXES.starts(squeezed.trim_end_matches(';'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lang::from_path;

    fn lang(ext: &str) -> &'static Lang {
        from_path(&format!("x.{ext}")).expect("known extension")
    }

    fn names(src: &str, ext: &str) -> Vec<String> {
        functions(src, lang(ext))
            .into_iter()
            .map(|f| f.name)
            .collect()
    }

    #[test]
    fn finds_functions_in_brace_languages() {
        let rust = "impl Foo {\n    pub fn new(x: u32) -> Self {\n        if x > 1 { a(); }\n        Self { x }\n    }\n    fn get<T>(&self) -> &T where T: Copy {\n        &self.x\n    }\n}\nfn main() {\n    let s = \"}{\";\n    let c = '{';\n    run(|x| { x + 1 });\n}\n";
        assert_eq!(names(rust, "rs"), ["new", "get", "main"]);
        let java = "public class A {\n  @Override\n  public String toString() {\n    return \"A\";\n  }\n  public A(int x) throws IOException {\n    this.x = x;\n  }\n  static {\n    init();\n  }\n}\n";
        assert_eq!(names(java, "java"), ["toString", "A"]);
        let go = "package main\n\nfunc (s *Server) Start(ctx context.Context) (int, error) {\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\treturn 1, nil\n}\n";
        assert_eq!(names(go, "go"), ["Start"]);
        let js = "const add = (a, b) => {\n  return a + b;\n};\nclass X {\n  async load(id) {\n    return fetch(`/x/${id}`);\n  }\n}\nfunction main() {\n  it('works', () => {\n    expect(1).toBe(1);\n  });\n}\n";
        assert_eq!(names(js, "js"), ["add", "load", "it(works)", "main"]);
        let cpp = "int Foo::bar(int a) const {\n  return a;\n}\nstatic int\nbaz(void)\n{\n  return 0;\n}\n";
        assert_eq!(names(cpp, "cpp"), ["Foo::bar", "baz"]);
        // A generic function whose name begins with `new` is a function;
        // `new` before a generic type opens an anonymous class (the name
        // was once cut by the length of the generics: both read wrong, and
        // a multi-byte character in them panicked).
        let generic = "fn new_receiver<T>(s: T) -> R<T> {\n    r(s)\n}\npub fn new<I>(iter: I) -> Self\nwhere\n    I: Iterator,\n{\n    t(iter)\n}\n";
        assert_eq!(names(generic, "rs"), ["new_receiver", "new"]);
        let anonymous = "class A {\n  void sort() {\n    l.sort(new Comparator<String>() {\n      public int compare(String a, String b) {\n        return 0;\n      }\n    });\n  }\n  void ab<é>(int x) {\n    y();\n  }\n}\n";
        assert_eq!(names(anonymous, "java"), ["compare", "sort", "ab"]);
    }

    #[test]
    fn finds_functions_by_indentation() {
        let py = "class A:\n    def f(self, x):\n        \"\"\"Doc.\n\ndef not_a_function():\n        \"\"\"\n        return x\n\n    async def g(\n        self,\n    ) -> int:\n        return 1\n\ndef h(): return 2\n";
        assert_eq!(names(py, "py"), ["A.f", "A.g", "h"]);
        let rb = "class Foo\n  def bar(x)\n    x + 1\n  end\n\n  def self.baz\n    2\n  end\nend\n";
        assert_eq!(names(rb, "rb"), ["Foo.bar", "Foo.self.baz"]);
        let gutted = "class Foo\n  def bar(x); end\n\n  def self.baz\n    2\n  end\nend\n";
        assert_eq!(names(gutted, "rb"), ["Foo.bar", "Foo.self.baz"]);
        let old = "class Foo\n  def bar(x)\n    y = x + 1\n    y * 2\n  end\nend\n";
        assert_eq!(
            stubbed(old, "class Foo\n  def bar(x); end\nend\n", lang("rb")),
            ["Foo.bar"]
        );
        // `def bar end` (no `;`): an empty body at the line's end, not an
        // offset computed from an unrelated empty string (it panicked when
        // classified, and the hook vetoed an ordinary edit).
        let bare = "class Foo\n  def bar end\nend\n";
        assert_eq!(names(bare, "rb"), ["Foo.bar"]);
        assert_eq!(stubbed(old, bare, lang("rb")), ["Foo.bar"]);
    }

    #[test]
    fn occurrences_of_many_functions_are_counted_as_in_order() {
        // Names repeated a few times and many times, and unique ones, past
        // the size counted by sorting.
        for (n, alphabet) in [
            (100, 7),
            (SORTED_FROM, 3),
            (20_000, 13),
            (20_000, 9_000),
            (20_000, 1_000_000),
        ] {
            let found: Vec<Found> = (0..n)
                .map(|i| Found {
                    name: Cow::Owned(format!("f{}", (i * 7919) % alphabet)),
                    occurrence: 0,
                    body: 0..0,
                })
                .collect();
            let mut seen = std::collections::HashMap::<&str, usize>::new();
            let expected: Vec<usize> = found
                .iter()
                .map(|f| {
                    let c = seen.entry(&f.name).or_default();
                    *c += 1;
                    *c - 1
                })
                .collect();
            assert_eq!(occurrences(&found), expected, "{n} {alphabet}");
        }
    }

    /// The one search for the stub words finds what looking for each word
    /// finds: each word alone, inside other text, cut by a character at
    /// either end, in other case, beside wide characters.
    #[test]
    fn stub_words_are_found_as_by_each_word() {
        let mut texts: Vec<String> = STUB_WORDS
            .iter()
            .flat_map(|w| {
                let tail: String = w.chars().skip(1).collect();
                let head: String = w.chars().take(w.chars().count() - 1).collect();
                [
                    w.to_string(),
                    format!("// {w}!"),
                    format!("x{tail}"),
                    format!("{head}."),
                    w.to_uppercase(),
                    format!("日本{w}日本"),
                ]
            })
            .collect();
        texts.extend(["", "to do", "stubborn", "implementation", "TODO"].map(String::from));
        for t in &texts {
            assert_eq!(
                has_stub_word(t),
                STUB_WORDS.iter().any(|w| t.contains(w)),
                "{t:?}"
            );
        }
    }

    #[test]
    fn classifies_bodies() {
        let rs = lang("rs");
        let b = classify("\n    let x = 1;\n    x + 2\n", rs);
        assert_eq!((b.real, b.marked), (2, false));
        let b = classify("\n    todo!()\n", rs);
        assert!(b.marked_stub());
        let b = classify("\n    // TODO: implement\n    Ok(())\n", rs);
        assert!(b.marked_stub());
        let b = classify("\n    log::warn!(\"not implemented yet\");\n    None\n", rs);
        assert!(b.marked_stub());
        let b = classify("", rs);
        assert_eq!(b, Body::default());
        let py = lang("py");
        assert!(
            classify("    \"\"\"Docs.\"\"\"\n    raise NotImplementedError\n", py).marked_stub()
        );
        assert!(classify("    pass\n", py).stubs(&classify("    a = 1\n    return a\n", py)));
        assert!(!classify("    pass\n", py).stubs(&classify("    return a\n", py)));
        let java = lang("java");
        assert!(classify("\n    throw new UnsupportedOperationException();\n", java).marked_stub());
        assert!(
            !classify("\n    throw new IllegalStateException(\"closed\");\n", java).marked_stub()
        );
        let go = lang("go");
        assert!(classify("\n\tpanic(\"not implemented\")\n", go).marked_stub());
        assert!(classify("\n    ???\n", lang("scala")).marked_stub());
        assert!(classify("\n    throw UnimplementedError();\n", lang("dart")).marked_stub());
        assert!(classify("\n\treturn nil // TODO\n", go).marked_stub());
        assert!(classify("\n\treturn nil, errors.New(\"not implemented\")\n", go).marked_stub());
    }

    #[test]
    fn reports_stubbed_functions_by_name_and_by_count() {
        let old =
            "fn a() {\n    let x = 1;\n    x + 1;\n}\nfn b() {\n    work();\n    more();\n}\n";
        let new = "fn a() {\n    todo!()\n}\nfn b() {\n    work();\n    more();\n}\n";
        assert_eq!(stubbed(old, new, lang("rs")), ["a"]);
        let renamed = "fn a2() {\n    todo!()\n}\nfn b2() {\n    unimplemented!()\n}\n";
        assert_eq!(stubbed(old, renamed, lang("rs")), ["a2", "b2"]);
        // Repeated names are matched by count, so reordering them is no
        // gutting, and gutting one of them is.
        let overloads =
            "void f(int a) {\n    a();\n    b();\n}\nvoid f(String s) {\n    c();\n    d();\n}\n";
        let swapped =
            "void f(String s) {\n    c();\n    d();\n}\nvoid f(int a) {\n    a();\n    b();\n}\n";
        assert!(stubbed(overloads, swapped, lang("java")).is_empty());
        let gutted = "void f(String s) {\n}\nvoid f(int a) {\n    a();\n    b();\n}\n";
        assert_eq!(stubbed(overloads, gutted, lang("java")), ["f"]);
        // Expression bodies: a block turned into `= TODO()` or `=> throw`.
        let kt = "class A {\n    fun total(xs: List<Int>): Int {\n        val s = xs.sum()\n        return s * 2\n    }\n}\n";
        let kt_stub = "class A {\n    fun total(xs: List<Int>): Int = TODO()\n}\n";
        assert_eq!(stubbed(kt, kt_stub, lang("kt")), ["total"]);
        let cs = "class A {\n    public int F(int x) {\n        var y = x * 2;\n        return y + 1;\n    }\n}\n";
        let cs_stub =
            "class A {\n    public int F(int x) => throw new NotImplementedException();\n}\n";
        assert_eq!(stubbed(cs, cs_stub, lang("cs")), ["F"]);
        let scala = "object A {\n  def total(xs: Seq[Int]): Int = {\n    val s = xs.sum\n    s * 2\n  }\n}\n";
        assert_eq!(
            stubbed(
                scala,
                "object A {\n  def total(xs: Seq[Int]): Int = ???\n}\n",
                lang("scala")
            ),
            ["total"]
        );
        // Ordinary one-liners are functions too, and stay implemented.
        let js =
            "const add = (a, b) => a + b;\nconst double = (x) => x * 2;\nconst neg = (x) => -x;\n";
        let found = functions(js, lang("js"));
        assert_eq!(
            found.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["add", "double", "neg"]
        );
        assert!(found.iter().all(|f| f.body.implemented()));
        assert!(functions(
            "if (a == b) {\n  x = f(y);\n}\nitems.forEach((x) => use(x));\n",
            lang("js")
        )
        .is_empty());
        let emptied = "fn a2() {\n}\nfn b2() {}\n";
        assert_eq!(stubbed(old, emptied, lang("rs")), ["a2", "b2"]);
        // Adding a stub for a new function alone is not a gutting.
        let added = format!("{old}fn c() {{\n    todo!()\n}}\n");
        assert!(stubbed(old, &added, lang("rs")).is_empty());
        // Declarations are bodies of nothing by design.
        assert!(stubbed(
            "def f():\n    return 1\n    x = 2\n",
            "def f(): ...\n",
            lang("pyi")
        )
        .is_empty());
    }
}
