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
use std::collections::HashSet;
use std::sync::LazyLock;

use super::elision;
use super::lang::{Blocks, Lang};
use super::lines::{TextMap, TextSet};
use crate::text::fold;

mod join;

pub use join::{scan_new, scan_old, Joined, OldScan};

/// A table of prefixes indexed by their first byte, so a line is compared
/// with the few that could match.
struct Prefixes(Vec<Vec<&'static str>>);

impl Prefixes {
    fn new(list: &[&'static str]) -> Prefixes {
        let mut by_first = vec![Vec::new(); 256];
        for p in list {
            if let Some(&b) = p.as_bytes().first() {
                by_first[usize::from(b)].push(*p);
            }
        }
        Prefixes(by_first)
    }

    fn starts(&self, s: &str) -> bool {
        s.as_bytes()
            .first()
            .is_some_and(|&b| self.0[usize::from(b)].iter().any(|p| s.starts_with(p)))
    }
}

/// A table of words indexed by their first byte, so a word is compared
/// with the few that could be it (a function header is looked up in three
/// lists; comparing it with every entry cost more than the scan).
struct Words(Vec<Vec<&'static str>>);

impl Words {
    fn new(list: &[&'static str]) -> Words {
        let mut by_first = vec![Vec::new(); 256];
        for w in list {
            if let Some(&b) = w.as_bytes().first() {
                by_first[usize::from(b)].push(*w);
            }
        }
        Words(by_first)
    }

    fn has(&self, w: &str) -> bool {
        w.as_bytes()
            .first()
            .is_some_and(|&b| self.0[usize::from(b)].contains(&w))
    }
}

static CONTROL_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(CONTROL));
static CONTAINER_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(CONTAINERS));
static NOT_NAME_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(NOT_NAMES));
static STUB_PREFIXES: LazyLock<Prefixes> = LazyLock::new(|| Prefixes::new(STUB_STATEMENTS));
static FAILURE_PREFIXES: LazyLock<Prefixes> = LazyLock::new(|| Prefixes::new(FAILURES));
static LOGGING_PREFIXES: LazyLock<Prefixes> = LazyLock::new(|| Prefixes::new(LOGGING));
static TRIVIAL_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| TRIVIAL.iter().copied().collect());

/// Bodies longer than this are implemented, whatever they hold.
const MAX_BODY: usize = 16 * 1024;

/// Statements that are a stub on their own, matched as prefixes of a code
/// line with whitespace removed.
const STUB_STATEMENTS: &[&str] = &[
    "todo!(",
    "unimplemented!(",
    "std::unimplemented!(",
    "core::unimplemented!(",
    "TODO()",
    "TODO(\"",
    "raiseNotImplementedError",
    "raiseNotImplemented",
    "throwNotImplementedError",
    "thrownewUnsupportedOperationException",
    "thrownewjava.lang.UnsupportedOperationException",
    "thrownewNotImplementedException",
    "thrownewSystem.NotImplementedException",
    "thrownewNotSupportedException",
    "thrownewNotImplementedError",
    "thrownewsys.NotImplementedException",
    "throwUnsupportedOperationException",
    "throwNotImplementedException",
    "fatalError(",
    "preconditionFailure(",
    "notImplemented(",
    "NotImplemented",
    "assert(false",
    "assert(0",
    "assertfalse",
    "abort()",
    "std::abort()",
    "???",
    "throwUnimplementedError",
    "thrownewUnimplementedError",
];

/// Statements that fail on purpose; a stub when the line also says why in
/// stub words ("not implemented", "TODO"), otherwise real code.
const FAILURES: &[&str] = &[
    "throw",
    "raise",
    "panic",
    "panic!",
    "die(",
    "fail(",
    "error(",
    "exit(",
    "abort(",
    "log.Fatal",
    "os.Exit",
    "process.exit",
];

/// Words that mark a stub in a comment, a string or a log line of a body.
const STUB_WORDS: &[&str] = &[
    "todo",
    "fixme",
    "xxx",
    "tbd",
    "not implemented",
    "unimplemented",
    "not yet implemented",
    "implement me",
    "implement this",
    "implement later",
    "to be implemented",
    "to implement",
    "needs implementation",
    "needs implementing",
    "stub",
    "placeholder",
    "your code here",
    "implementation here",
    "implementation goes here",
    "code goes here",
    "no-op for now",
    "noop for now",
    "not supported yet",
    "coming soon",
    "no implementado",
    "por implementar",
    "implementar",
    "sin implementar",
    "non implemente",
    "a implementer",
    "nicht implementiert",
    "noch nicht implementiert",
    "non implementato",
    "da implementare",
    "nao implementado",
    "a implementar",
    "未实现",
    "待实现",
    "未実装",
    "実装予定",
    "todo:",
];

/// Statements that do nothing worth keeping: trivial returns and values,
/// matched on the whole code line with whitespace removed and a trailing
/// `;` dropped.
const TRIVIAL: &[&str] = &[
    "pass",
    "...",
    "return",
    "returnnil",
    "returnnull",
    "returnNone",
    "return0",
    "return0.0",
    "returnfalse",
    "returnFalse",
    "returntrue",
    "returnTrue",
    "return\"\"",
    "return''",
    "return[]",
    "return{}",
    "return-1",
    "returnOk(())",
    "returnundefined",
    "returndefault",
    "returnDefault::default()",
    "returnself",
    "returnthis",
    "returnnullptr",
    "returnNULL",
    "returnstring.Empty",
    "returnString.Empty",
    "returnemptyList()",
    "returnnil,nil",
    "returnnil,err",
    "return0,nil",
    "return\"\",nil",
    "returnfalse,nil",
    "Ok(())",
    "None",
    "nil",
    "null",
    "0",
    "false",
    "true",
    "Default::default()",
    "{}",
    "[]",
    "()",
    "break",
    "continue",
    "returnvoid0",
    "returnOptional.empty()",
    "returnCollections.emptyList()",
    "returnList.of()",
    "returnMap.of()",
    "returnnewArrayList<>()",
    "returnVec::new()",
    "returnString::new()",
    "Vec::new()",
    "String::new()",
    "returnpd.DataFrame()",
    "returnPromise.resolve()",
    "returnawaitPromise.resolve()",
    "yield",
    "end",
    "nothing",
    "returnHashMap::new()",
    "returnOk(Vec::new())",
    "returnOk(None)",
    "returnOk(vec![])",
    "Ok(Vec::new())",
    "Ok(vec![])",
    "Ok(None)",
    "vec![]",
    "returnvec![]",
    "HashMap::new()",
    "Ok(Default::default())",
    "returnOk(Default::default())",
    "returnstd::ptr::null_mut()",
    "returnemptyMap()",
    "returnemptyArray()",
    "returnarrayOf()",
    "returnlistOf()",
    "returnmapOf()",
    "returnarray()",
    "returnnil,false",
    "returnfalse,err",
    "Unit",
];

/// Returns whether a squeezed line returns a new, empty value
/// (`return new ArrayList<>()`, `return Vec::new()`).
fn empty_construction(squeezed: &str) -> bool {
    let Some(value) = squeezed.strip_prefix("return") else {
        return false;
    };
    let constructed = value.strip_prefix("new");
    let value = constructed.unwrap_or(value);
    value.len() > 2
        && value.ends_with("()")
        && value[..value.len() - 2]
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '<' | '>' | '.' | ','))
        && (constructed.is_some()
            || [
                "::new()",
                "::default()",
                ".empty()",
                "Empty()",
                "emptyList()",
                "emptyMap()",
            ]
            .iter()
            .any(|e| value.ends_with(e)))
}

/// Calls that only log or print; they keep a stub company without making it
/// an implementation. Prefixes of a code line with whitespace removed.
const LOGGING: &[&str] = &[
    "console.",
    "print(",
    "println(",
    "printf(",
    "fprintf(",
    "puts(",
    "puts\"",
    "puts'",
    "print\"",
    "echo",
    "println!(",
    "eprintln!(",
    "print!(",
    "eprint!(",
    "dbg!(",
    "log.",
    "log::",
    "logger.",
    "logging.",
    "LOG.",
    "Log.",
    "LOGGER.",
    "self.log",
    "self.logger.",
    "this.log",
    "this.logger.",
    "_logger.",
    "_log.",
    "tracing::",
    "trace!(",
    "debug!(",
    "info!(",
    "warn!(",
    "error!(",
    "fmt.Print",
    "fmt.Fprint",
    "System.out.",
    "System.err.",
    "Console.Write",
    "Debug.Log",
    "Debug.Write",
    "Trace.Write",
    "NSLog(",
    "error_log(",
    "var_dump(",
    "Rails.logger.",
    "warn(",
    "warnings.warn(",
    "syslog(",
    "std::cout",
    "std::cerr",
    "cout<<",
    "cerr<<",
    "Timber.",
    "Logger.",
];

/// Words that begin a control block, not a function (`if (x) {`).
const CONTROL: &[&str] = &[
    "if",
    "else",
    "for",
    "foreach",
    "while",
    "do",
    "switch",
    "match",
    "try",
    "catch",
    "finally",
    "with",
    "using",
    "lock",
    "unsafe",
    "loop",
    "select",
    "synchronized",
    "defer",
    "go",
    "return",
    "case",
    "default",
    "when",
    "guard",
    "repeat",
    "elif",
    "except",
    "checked",
    "unchecked",
    "fixed",
    "async",
    "await",
    "yield",
    "throw",
    "new",
    "static",
    "init",
    "get",
    "set",
    "where",
    "move",
    "const",
    "let",
    "var",
    "val",
];

/// Words that open a container of functions, not a function.
const CONTAINERS: &[&str] = &[
    "class",
    "struct",
    "enum",
    "interface",
    "trait",
    "impl",
    "namespace",
    "module",
    "mod",
    "object",
    "record",
    "union",
    "extension",
    "protocol",
    "package",
    "extern",
    "actor",
    "companion",
    "@interface",
    "type",
];

/// Words that may stand right before a parameter list without being its
/// function's name.
const NOT_NAMES: &[&str] = &[
    "fn",
    "func",
    "function",
    "fun",
    "def",
    "sub",
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "await",
    "sizeof",
    "typeof",
    "match",
    "when",
    "foreach",
    "using",
    "lock",
    "synchronized",
    "async",
    "operator",
];

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
    let occurrences: Vec<usize> = {
        let mut seen =
            TextMap::<&str, usize>::with_capacity_and_hasher(scan.found.len(), Default::default());
        scan.found
            .iter()
            .map(|f| {
                let n = seen.entry(&f.name).or_default();
                *n += 1;
                *n - 1
            })
            .collect()
    };
    for (f, n) in scan.found.iter_mut().zip(occurrences) {
        f.occurrence = n;
    }
    scan
}

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
    for &(n, o) in same {
        new_known[n] = true;
        old_unchanged[o] = true;
    }
    // Keys are unique within a scan (a name and its occurrence), so a
    // function of `new` whose body is byte for byte the one of its key in
    // `old` cancels out with it; only the rest is classified. A known pair
    // holds its key on both sides, so no other function looks it up.
    let old_by_key: TextMap<(&str, usize), usize> = old
        .found
        .iter()
        .enumerate()
        .filter(|(i, _)| !old_unchanged[*i])
        .map(|(i, f)| (f.key(), i))
        .collect();
    let mut after: Vec<(&Found, Body)> = Vec::new();
    for (f, _) in new.found.iter().zip(&new_known).filter(|(_, k)| !**k) {
        let twin = old_by_key
            .get(&f.key())
            .copied()
            .filter(|&i| old_src.get(old.found[i].body.clone()) == new_src.get(f.body.clone()));
        match twin {
            Some(i) => old_unchanged[i] = true,
            None => after.push((f, classify(&new_src[f.body.clone()], lang))),
        }
    }
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
    let unmatched = |(f, _): &&(&Found, Body)| !old_by_key.contains_key(&f.key());
    if gained > names.len() && lost > names.len() {
        names.extend(
            after
                .iter()
                .filter(unmatched)
                .filter(|(_, b)| b.marked_stub())
                .map(|(f, _)| f.name.to_string()),
        );
    } else if lost >= RENAMED_EMPTY {
        // Renamed and emptied, without a marker: new functions that do
        // nothing, as many as the implementations lost.
        let empty: Vec<String> = after
            .iter()
            .filter(unmatched)
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

/// A lexer position: where code, strings and comments are.
struct Lexer<'a> {
    src: &'a [u8],
    lang: &'a Lang,
    rust: bool,
    csharp: bool,
    go: bool,
    /// `/` may open a regular expression literal (JavaScript, TypeScript).
    regex: bool,
    /// What may start at each byte: [`BLOCK`], [`COMMENT`], [`QUOTE`]
    /// flags; 0 for the bytes the scanner skips.
    class: [u8; 256],
}

/// `{`, `}` or `;`.
const BLOCK: u8 = 1;
/// The first byte of a comment marker (or of a regex literal).
const COMMENT: u8 = 2;
/// The first byte of a string or character literal.
const QUOTE: u8 = 4;

impl<'a> Lexer<'a> {
    fn new(src: &'a [u8], lang: &'a Lang) -> Lexer<'a> {
        let mut class = [0u8; 256];
        let mut mark = |b: u8, flag: u8| class[usize::from(b)] |= flag;
        for &b in b"{};" {
            mark(b, BLOCK);
        }
        for &q in lang.quotes {
            mark(q, QUOTE);
        }
        for m in lang.line_comments {
            mark(m.as_bytes()[0], COMMENT);
            mark(m.as_bytes()[0].to_ascii_lowercase(), COMMENT);
        }
        for (open, _) in lang.block_comments {
            mark(open.as_bytes()[0], COMMENT);
        }
        let rust = lang.name == "rust";
        let csharp = lang.name == "c#";
        if lang.char_quote {
            mark(b'\'', QUOTE);
        }
        if rust {
            mark(b'r', QUOTE);
        }
        if csharp {
            mark(b'@', QUOTE);
        }
        let regex = matches!(lang.name, "javascript" | "typescript" | "generic");
        if regex {
            mark(b'/', COMMENT);
        }
        Lexer {
            src,
            lang,
            rust,
            csharp,
            go: lang.name == "go",
            regex,
            class,
        }
    }

    /// Returns where the string, character or regex literal starting at
    /// `i` (a byte of class `class`, not a comment) ends, if one starts
    /// there.
    fn literal_end(&self, i: usize, class: u8) -> Option<usize> {
        let end = if class & QUOTE != 0 {
            self.string_end(i)
        } else if class & COMMENT != 0 {
            self.regex_end(i)
        } else {
            None
        };
        end.map(|e| e.max(i + 1))
    }

    /// Returns where the regular expression literal starting at `i` ends,
    /// if `/` there opens one: after `(`, `,`, `=`, `:`, `[`, `!`, `&`,
    /// `|`, `?`, `{`, `}`, `;` or at the start of a line.
    fn regex_end(&self, i: usize) -> Option<usize> {
        let src = self.src;
        if !self.regex || src[i] != b'/' || matches!(src.get(i + 1), Some(b'/' | b'*')) {
            return None;
        }
        let before = src[..i].iter().rev().find(|b| !matches!(b, b' ' | b'\t'));
        let head = &src[..i].trim_ascii_end();
        let after_keyword = [&b"return"[..], b"typeof", b"case", b"in", b"of", b"yield"]
            .iter()
            .any(|k| {
                head.ends_with(k)
                    && !head[..head.len() - k.len()]
                        .last()
                        .is_some_and(|&c| is_ident(c))
            });
        if !after_keyword
            && !matches!(
                before,
                None | Some(
                    b'(' | b','
                        | b'='
                        | b':'
                        | b'['
                        | b'!'
                        | b'&'
                        | b'|'
                        | b'?'
                        | b'{'
                        | b'}'
                        | b';'
                        | b'\n'
                )
            )
        {
            return None;
        }
        let mut class = false;
        let mut j = i + 1;
        while j < src.len() {
            match src[j] {
                b'\\' => j += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => return Some(j + 1),
                b'\n' => return None,
                _ => {}
            }
            j += 1;
        }
        None
    }

    /// Returns where the comment starting at `i` ends (exclusive), if one
    /// starts there.
    fn comment_end(&self, i: usize) -> Option<usize> {
        let rest = &self.src[i..];
        for m in self.lang.line_comments {
            if rest.starts_with(m.as_bytes()) {
                // PHP 8 attributes and Rust inner attributes are not comments.
                if *m == "#" && rest.get(1) == Some(&b'[') && self.lang.name != "python" {
                    return None;
                }
                return Some(memchr_newline(rest).map_or(self.src.len(), |n| i + n));
            }
        }
        for (open, close) in self.lang.block_comments {
            if rest.starts_with(open.as_bytes()) {
                let from = i + open.len();
                return Some(
                    find(&self.src[from..], close.as_bytes())
                        .map_or(self.src.len(), |n| from + n + close.len()),
                );
            }
        }
        None
    }

    /// Returns where the string literal starting at `i` ends (exclusive),
    /// if one starts there.
    fn string_end(&self, i: usize) -> Option<usize> {
        let src = self.src;
        let b = src[i];
        // Raw strings: r"…", r#"…"#, br"…" (Rust); @"…" (C#).
        if b == b'r' && self.rust && (i == 0 || !is_ident(src[i - 1])) {
            let hashes = src[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if src.get(i + 1 + hashes) == Some(&b'"') {
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                let from = i + 2 + hashes;
                return Some(
                    find(&src[from..], &close).map_or(src.len(), |n| from + n + close.len()),
                );
            }
            return None;
        }
        if b == b'@' && src.get(i + 1) == Some(&b'"') && self.csharp {
            let mut j = i + 2;
            while j < src.len() {
                if src[j] == b'"' {
                    if src.get(j + 1) == Some(&b'"') {
                        j += 2;
                        continue;
                    }
                    return Some(j + 1);
                }
                j += 1;
            }
            return Some(src.len());
        }
        if !(self.lang.quotes.contains(&b) || (b == b'\'' && self.lang.char_quote)) {
            return None;
        }
        if src[i..].starts_with(b"\"\"\"") || src[i..].starts_with(b"'''") {
            let close = &src[i..i + 3];
            let from = i + 3;
            return Some(find(&src[from..], close).map_or(src.len(), |n| from + n + 3));
        }
        if b == b'\'' && self.lang.char_quote {
            // 'x', '\n', 'é' are characters; 'a alone is a lifetime or label.
            let len = if src.get(i + 1) == Some(&b'\\') {
                src[i + 2..].iter().position(|&c| c == b'\'').map(|p| p + 2)
            } else {
                let ch = std::str::from_utf8(&src[i + 1..src.len().min(i + 5)])
                    .ok()
                    .or_else(|| {
                        (1..4).rev().find_map(|k| {
                            std::str::from_utf8(&src[i + 1..src.len().min(i + 1 + k)]).ok()
                        })
                    })
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                (src.get(i + 1 + ch) == Some(&b'\'')).then_some(ch + 1)
            };
            return Some(len.map_or(i + 1, |l| i + l + 1));
        }
        let multiline = b == b'`' || self.rust;
        let mut j = i + 1;
        while j < src.len() {
            match src[j] {
                b'\\' if b != b'`' || !self.go => j += 2,
                c if c == b => return Some(j + 1),
                b'\n' if !multiline => return Some(j),
                _ => j += 1,
            }
        }
        Some(src.len())
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn memchr_newline(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let first = needle[0];
    let mut from = 0;
    while let Some(p) = hay[from..].iter().position(|&b| b == first) {
        let at = from + p;
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Returns the lines of `src` split into code (strings kept, comments
/// removed) and the comments' text, for classifying a body. Lines are
/// borrowed when the text has no comment.
fn code_and_comments<'a>(
    src: &'a str,
    lang: &Lang,
) -> (Vec<std::borrow::Cow<'a, str>>, Vec<&'a str>) {
    use std::borrow::Cow;
    let lx = Lexer::new(src.as_bytes(), lang);
    let bytes = src.as_bytes();
    let mut comments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let class = lx.class[usize::from(bytes[i])];
        if class & (COMMENT | QUOTE) == 0 {
            i += 1;
            continue;
        }
        if class & COMMENT != 0 {
            if let Some(end) = lx.comment_end(i) {
                comments.push(i..end);
                i = end;
                continue;
            }
        }
        match lx.literal_end(i, class) {
            Some(end) => i = end,
            None => i += 1,
        }
    }
    if comments.is_empty() {
        return (src.split('\n').map(Cow::Borrowed).collect(), Vec::new());
    }
    let mut code = String::with_capacity(src.len());
    let mut at = 0;
    for r in &comments {
        code.push_str(&src[at..r.start]);
        code.extend(src[r.clone()].chars().filter(|&c| c == '\n'));
        at = r.end;
    }
    code.push_str(&src[at..]);
    (
        code.split('\n')
            .map(|l| Cow::Owned(l.to_string()))
            .collect(),
        comments.into_iter().map(|r| &src[r]).collect(),
    )
}

/// Classifies a body's text.
fn classify(body: &str, lang: &Lang) -> Body {
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
        if STUB_WORDS.iter().any(|w| text.contains(w)) || placeholder {
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
        let line = match line.find(" as ") {
            Some(p) if line.trim_start().starts_with("return") => &line[..p],
            _ => line.as_ref(),
        };
        squeezed.clear();
        squeezed.extend(line.chars().filter(|c| !c.is_whitespace()));
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
            STUB_WORDS.iter().any(|w| folded.contains(w))
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

/// The brace scanner.
fn braces<'a>(src: &'a str, lang: &'a Lang) -> Scan<'a> {
    let mut b = join::Braces::new(src, lang);
    b.run(src.len(), &mut |_| false);
    b.finish()
}

/// Languages whose functions may have a one-expression body.
const EXPRESSION_BODIES: &[&str] = &["kotlin", "scala", "c#", "javascript", "typescript", "dart"];

/// Finds functions whose body is one expression (`fun f(x: Int) = x * 2`,
/// `def total: Int = ???`, `public int F() => throw new
/// NotImplementedException();`, `const add = (a, b) => a + b;`), one per
/// line, so that a block body turned into `= TODO()` is seen for what it
/// is.
fn expression_bodies<'a>(src: &'a str, lang: &Lang) -> Vec<Found<'a>> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in src.split('\n') {
        let start = at;
        at += line.len() + 1;
        let t = line.trim();
        if t.is_empty() || lang.line_comments.iter().any(|m| t.starts_with(m)) || t.starts_with('*')
        {
            continue;
        }
        let Some((split, width)) = expression_split(t) else {
            continue;
        };
        let (header, body) = (&t[..split], t[split + width..].trim());
        let body = body.trim_end_matches(';').trim_end();
        if body.is_empty() || body.starts_with('{') {
            continue;
        }
        let first = header
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty());
        let name = match first {
            Some("fun" | "def") => header
                .split_whitespace()
                .skip_while(|w| *w != "fun" && *w != "def")
                .nth(1)
                .map(|w| Cow::Borrowed(w.split(['(', ':', '[', '<']).next().unwrap_or(w)))
                .filter(|n| !n.is_empty()),
            Some(w)
                if CONTROL_WORDS.has(w)
                    && !matches!(w, "const" | "let" | "var" | "static" | "async") =>
            {
                None
            }
            _ if width == 2 && header.contains(" = ") => {
                arrow_name(&format!("{header}=>")).map(|n| Cow::Owned(n.into_owned()))
            }
            _ if header.contains('(') => named_parameter_list(header).map(Cow::Borrowed),
            _ => None,
        };
        let Some(name) = name else { continue };
        let offset = start
            + (line.len() - line.trim_start().len())
            + (body.as_ptr() as usize - t.as_ptr() as usize);
        out.push(Found {
            name,
            occurrence: 0,
            body: offset..offset + body.len(),
        });
    }
    out
}

/// Returns where a one-line function's expression body starts: the first
/// `=>` or `=` (not `==`, `<=`, `>=`, `!=`) outside brackets that follows a
/// parameter list or a `fun`/`def` header, with the marker's width.
fn expression_split(t: &str) -> Option<(usize, usize)> {
    let bytes = t.as_bytes();
    let mut depth = 0i32;
    let mut params = false;
    let keyword = t.starts_with("fun ")
        || t.starts_with("def ")
        || t.contains(" fun ")
        || t.contains(" def ");
    let mut quote = None;
    for (k, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'"' | b'\'' | b'`' => quote = Some(b),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                params |= b == b')' && depth == 0;
            }
            b'=' if depth == 0 && (params || keyword) => {
                let prev = k.checked_sub(1).map(|p| bytes[p]);
                let next = bytes.get(k + 1).copied();
                if matches!(
                    prev,
                    Some(
                        b'=' | b'<' | b'>' | b'!' | b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'&'
                    )
                ) || next == Some(b'=')
                {
                    return None;
                }
                return Some((k, if next == Some(b'>') { 2 } else { 1 }));
            }
            _ => {}
        }
    }
    None
}

/// Returns the name of the function whose header is `header` (the code
/// between the previous `;`, `{` or `}` and a `{`), or `None` when the
/// block is not a function body.
///
/// Called for every block of a file, so it reads ASCII a byte at a time
/// (decoding only other characters) and borrows the name from the header.
fn function_name(header: &str) -> Option<Cow<'_, str>> {
    // Attributes and decorators on their own lines stay in the header;
    // they do not change what follows.
    let h = trim(header);
    if h.is_empty() {
        return None;
    }
    let first_word = words(h).next().unwrap_or("");
    if CONTROL_WORDS.has(first_word)
        && !matches!(
            first_word,
            "async" | "static" | "const" | "get" | "set" | "let" | "var" | "val"
        )
    {
        return None;
    }
    let before_paren = &h[..h.bytes().position(|b| b == b'(').unwrap_or(h.len())];
    if words(before_paren).any(|w| CONTAINER_WORDS.has(w))
        && !words(before_paren).any(|w| matches!(w, "fn" | "func" | "function" | "fun" | "def"))
    {
        return None;
    }
    if h.ends_with("=>") || h.ends_with("->") {
        return arrow_name(h);
    }
    if matches!(first_word, "let" | "var" | "val" | "const") && !h.contains("function") {
        return arrow_name(h);
    }
    named_parameter_list(h).map(Cow::Borrowed).or_else(|| {
        (h.contains(" = function") || h.contains("=function"))
            .then(|| arrow_name(h))
            .flatten()
    })
}

/// Which ASCII bytes belong to a word of a header: a keyword or an
/// identifier, `@` for annotations.
const WORD_BYTES: [bool; 128] = ascii_table(b"_@");

/// Which ASCII bytes belong to a (qualified) name: letters, digits, and
/// the marks names carry (`Foo::bar`, `$el`, `~Foo`, `save!`, `ok?`).
const NAME_BYTES: [bool; 128] = ascii_table(b"_$.:~!?");

/// A table of the ASCII letters and digits and `extra`.
const fn ascii_table(extra: &[u8]) -> [bool; 128] {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    let mut k = 0;
    while k < extra.len() {
        t[extra[k] as usize] = true;
        k += 1;
    }
    t
}

/// Returns whether the character at byte `i` of `s` (a character
/// boundary) belongs to a word of a header, and its length: ASCII by
/// table, other characters decoded (alphanumeric ones are word
/// characters).
#[inline(always)]
fn word_char_at(s: &str, i: usize) -> (bool, usize) {
    match s.as_bytes().get(i) {
        Some(&b) if b < 128 => (WORD_BYTES[usize::from(b)], 1),
        _ => s
            .get(i..)
            .and_then(|r| r.chars().next())
            .map_or((false, 1), |c| (c.is_alphanumeric(), c.len_utf8())),
    }
}

/// The words of `s` (its longest runs of word characters, see
/// [`word_char_at`]) in order.
fn words(s: &str) -> impl Iterator<Item = &str> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < s.len() {
            let (word, len) = word_char_at(s, i);
            if word {
                break;
            }
            i += len;
        }
        if i >= s.len() {
            return None;
        }
        let start = i;
        while i < s.len() {
            let (word, len) = word_char_at(s, i);
            if !word {
                break;
            }
            i += len;
        }
        Some(&s[start..i])
    })
}

/// Whether `b` is ASCII white space as Unicode counts it (`str::trim`
/// also removes the vertical tab, which `u8::is_ascii_whitespace` keeps).
fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r')
}

/// `s.trim()`, ASCII white space a byte at a time.
fn trim(s: &str) -> &str {
    let bytes = s.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !ascii_space(b))
        .unwrap_or(bytes.len());
    let t = trim_end(&s[start..]);
    match t.as_bytes().first() {
        Some(b) if !b.is_ascii() => t.trim_start(),
        _ => t,
    }
}

/// `s.trim_end()`, ASCII white space a byte at a time.
fn trim_end(s: &str) -> &str {
    let bytes = s.as_bytes();
    let end = bytes
        .iter()
        .rposition(|&b| !ascii_space(b))
        .map_or(0, |p| p + 1);
    let t = &s[..end];
    match t.as_bytes().last() {
        Some(b) if !b.is_ascii() => t.trim_end(),
        _ => t,
    }
}

/// Returns the name before the first top-level parameter list whose
/// preceding word is a name, with everything after it plausible for a
/// signature (return types, `throws`, `const`, `where`…, but no `=` or `;`).
fn named_parameter_list(h: &str) -> Option<&str> {
    let bytes = h.as_bytes();
    let mut from = 0;
    while let Some(k) = bytes[from..].iter().position(|&b| b == b'(') {
        let open = from + k;
        let close = matching_paren(bytes, open)?;
        let lead = trim_end(&h[..open]);
        match name_before(lead) {
            Some(n) if !NOT_NAME_WORDS.has(last_part(n)) => {
                // `new Runnable() {` opens an anonymous class.
                let at = n.as_ptr() as usize - lead.as_ptr() as usize;
                if trim_end(&lead[..at]).ends_with("new") {
                    return None;
                }
                // Scala's `def f(x: Int): Int = {` opens its body after an
                // `=`.
                let after = &h[close + 1..];
                let after = trim_end(after).strip_suffix('=').unwrap_or(after);
                // Removing `=>`, `->` and `==` leaves an `=` only where
                // there was one: most signatures have none and are never
                // copied.
                let (eq, semi) = after
                    .bytes()
                    .fold((false, false), |(e, s), b| (e || b == b'=', s || b == b';'));
                let assigns = eq
                    && after
                        .replace("=>", "")
                        .replace("->", "")
                        .replace("==", "")
                        .contains('=');
                if assigns || semi {
                    return None;
                }
                return Some(n);
            }
            _ => from = close + 1,
        }
    }
    None
}

/// The part of a qualified name after its last `.` or `:`.
fn last_part(name: &str) -> &str {
    let at = name.bytes().rposition(|b| b == b'.' || b == b':');
    &name[at.map_or(0, |p| p + 1)..]
}

fn matching_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &b) in bytes[open..].iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Returns the (qualified) identifier ending `s`, skipping generic
/// arguments (`foo<T>`): a part of `s`.
fn name_before(s: &str) -> Option<&str> {
    let mut s = trim_end(s);
    if s.ends_with('>') {
        let mut depth = 0i32;
        for (k, c) in s.char_indices().rev() {
            match c {
                '>' => depth += 1,
                '<' => {
                    depth -= 1;
                    if depth == 0 {
                        s = trim_end(&s[..k]);
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    // The longest ending of identifier characters, ASCII a byte at a time.
    let mut start = s.len();
    while let Some(&b) = s.as_bytes()[..start].last() {
        if b < 128 {
            if !NAME_BYTES[usize::from(b)] {
                break;
            }
            start -= 1;
        } else {
            match s[..start].chars().next_back() {
                Some(c) if c.is_alphanumeric() => start -= c.len_utf8(),
                _ => break,
            }
        }
    }
    let name = s[start..].trim_start_matches([':', '.']);
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

/// Returns the name of an arrow function or lambda: the variable or
/// property it is assigned to, or the call it is passed to with its first
/// string argument (`it(works)`).
fn arrow_name(h: &str) -> Option<Cow<'_, str>> {
    let bytes = h.as_bytes();
    let mut depth = 0usize;
    for (k, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            b'=' | b':' if depth == 0 => {
                let next = bytes.get(k + 1).copied();
                let prev = k.checked_sub(1).map(|p| bytes[p]);
                if next == Some(b'>')
                    || next == Some(b'=')
                    || prev == Some(b'=')
                    || next == Some(b':')
                    || prev == Some(b':')
                {
                    continue;
                }
                return name_before(&h[..k])
                    .map(|n| Cow::Borrowed(n.rsplit(' ').next().unwrap_or(n)));
            }
            _ => {}
        }
    }
    let open = bytes.iter().position(|&b| b == b'(')?;
    let callee = name_before(&h[..open])?;
    let arg = h[open + 1..]
        .trim_start()
        .strip_prefix(['"', '\'', '`'])
        .and_then(|rest| rest.split(['"', '\'', '`']).next())
        .unwrap_or("");
    Some(Cow::Owned(format!("{callee}({arg})")))
}

/// The indentation scanner (Python, Ruby, Lua, Elixir).
fn indented<'a>(src: &'a str, lang: &Lang) -> Vec<Found<'a>> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        starts.push(at);
        at += l.len() + 1;
    }
    starts.push(src.len());
    let end_of = |k: usize| (starts[k] + lines[k].len()).min(src.len());
    let in_string = string_lines(&lines, lang);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    let mut classes: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() || in_string[i] {
            i += 1;
            continue;
        }
        let ind = indent(line);
        while classes.last().is_some_and(|(ci, _)| *ci >= ind) {
            classes.pop();
        }
        if let Some(name) = t
            .strip_prefix("class ")
            .or_else(|| t.strip_prefix("module "))
        {
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let name = name.trim_end_matches(':').to_string();
            classes.push((ind, name));
            i += 1;
            continue;
        }
        let Some(name) = header_name(t, lang) else {
            i += 1;
            continue;
        };
        // Python headers may span lines until the `:` that ends them.
        let mut end = i;
        if lang.blocks == Blocks::Indent {
            let mut depth = 0i32;
            'header: for (k, l) in lines.iter().enumerate().skip(i) {
                for c in l.split('#').next().unwrap_or("").chars() {
                    match c {
                        '(' | '[' => depth += 1,
                        ')' | ']' => depth -= 1,
                        _ => {}
                    }
                }
                end = k;
                if depth <= 0 {
                    break 'header;
                }
            }
        }
        // A one-line body after the header's colon: `def f(): return 1`.
        let mut body_start = starts[end + 1].min(src.len());
        if lang.blocks == Blocks::Indent {
            if let Some(after) = after_header_colon(lines[end]) {
                body_start = after.as_ptr() as usize - src.as_ptr() as usize;
            }
        }
        // Ruby's `def f; end` and `def f(x) = …`-free one-liners: the body
        // is what stands between the header and its `end`.
        if lang.blocks == Blocks::End {
            let code = lines[end].trim_end();
            if let Some(inner) = code.strip_suffix("end").filter(|c| c.ends_with([';', ' '])) {
                // An empty body is the empty end of `inner`: a slice of
                // `src`, so its offset can be taken.
                let body = inner
                    .split_once(';')
                    .map_or(&inner[inner.len()..], |(_, b)| b);
                let at = body.as_ptr() as usize - src.as_ptr() as usize;
                let qualified = match classes.last() {
                    Some((_, c)) => format!("{c}.{name}"),
                    None => name,
                };
                out.push(Found {
                    name: Cow::Owned(qualified),
                    occurrence: 0,
                    body: at..at + body.len(),
                });
                i = end + 1;
                continue;
            }
        }
        let by_keywords = match lang.blocks {
            Blocks::End => end_of_block(&lines[end + 1..]),
            _ => None,
        };
        let last = match by_keywords {
            Some(len) => end + len,
            None => {
                let mut j = end + 1;
                while j < lines.len() {
                    let l = lines[j];
                    if !l.trim().is_empty() && !in_string[j] && indent(l) <= ind {
                        break;
                    }
                    j += 1;
                }
                j - 1
            }
        };
        let body_end = if last > end {
            end_of(last)
        } else {
            body_start.max(end_of(end))
        };
        let qualified = match classes.last() {
            Some((_, c)) => format!("{c}.{name}"),
            None => name,
        };
        out.push(Found {
            name: Cow::Owned(qualified),
            occurrence: 0,
            body: body_start..body_end.max(body_start),
        });
        // Nested functions are found too: continue inside the body.
        i = end + 1;
    }
    out
}

/// Words that open a block closed by `end` (Ruby, Lua, Elixir) when they
/// start a line.
const END_OPENERS: &[&str] = &[
    "if",
    "unless",
    "while",
    "until",
    "for",
    "case",
    "begin",
    "def",
    "defp",
    "class",
    "module",
    "function",
    "local function",
    "repeat",
    "do",
    "fn",
];

/// Returns how many lines of `lines` (the lines after a header) form the
/// body, counting the keywords that open and close blocks; `None` when the
/// count never closes.
fn end_of_block(lines: &[&str]) -> Option<usize> {
    let mut depth = 1i32;
    for (k, line) in lines.iter().enumerate() {
        let code = line.split(" #").next().unwrap_or(line);
        let code = code.split(" --").next().unwrap_or(code).trim();
        if code.starts_with('#') || code.starts_with("--") {
            continue;
        }
        let words: Vec<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if let Some(first) = words.first() {
            if END_OPENERS.contains(first) && *first != "do" {
                depth += 1;
            }
        }
        // `... do`, `... do |x|`, Lua's `for … do`/`while … do` and
        // anonymous `function(...)` open blocks mid-line.
        let first = words.first().copied().unwrap_or("");
        for (w, word) in words.iter().enumerate() {
            if *word == "do" && !matches!(first, "for" | "while" | "until") {
                depth += 1;
            }
            if (*word == "function" || *word == "fn") && w > 0 {
                depth += 1;
            }
            if *word == "then"
                && first != "if"
                && first != "elseif"
                && w > 0
                && words[..w].contains(&"if")
            {
                depth += 1;
            }
            if *word == "end" || (*word == "until" && w == 0 && first == "until") {
                depth -= 1;
            }
        }
        if depth == 0 {
            return Some(k);
        }
    }
    None
}

/// Returns the function name of a header line, if it is one.
fn header_name(t: &str, lang: &Lang) -> Option<String> {
    let rest = lang
        .fn_keywords
        .iter()
        .filter_map(|k| t.strip_prefix(k).filter(|r| r.starts_with(' ')))
        .next()?
        .trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '?' | '!' | '='))
        .collect();
    let name = name.trim_end_matches('=').to_string();
    // Ruby's endless `def x = expr` and Elixir's `def x, do: expr` have no
    // body to stub.
    let tail = rest[name.len()..].trim_start();
    if (lang.blocks == Blocks::End && (tail.starts_with('=') || tail.contains(", do:")))
        || name.is_empty()
    {
        return None;
    }
    Some(name)
}

/// Returns the code after the colon that ends a one-line Python header.
fn after_header_colon(line: &str) -> Option<&str> {
    let code = line.split('#').next().unwrap_or("");
    let mut depth = 0i32;
    for (k, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ':' if depth == 0 => {
                let after = code[k + 1..].trim();
                return (!after.is_empty() && !after.starts_with('#')).then_some(after);
            }
            _ => {}
        }
    }
    None
}

/// Marks the lines that start inside a multi-line string (Python's
/// triple-quoted strings, Ruby heredocs are not tracked).
fn string_lines(lines: &[&str], lang: &Lang) -> Vec<bool> {
    let mut out = vec![false; lines.len()];
    if lang.name != "python" && lang.name != "python-stubs" {
        return out;
    }
    let mut open: Option<&str> = None;
    for (k, line) in lines.iter().enumerate() {
        out[k] = open.is_some();
        let mut rest: &str = line;
        loop {
            match open {
                Some(q) => match rest.find(q) {
                    Some(p) => {
                        rest = &rest[p + 3..];
                        open = None;
                    }
                    None => break,
                },
                None => {
                    let code = rest.split('#').next().unwrap_or("");
                    let next = ["\"\"\"", "'''"]
                        .iter()
                        .filter_map(|q| code.find(q).map(|p| (p, *q)))
                        .min();
                    match next {
                        Some((p, q)) => {
                            rest = &rest[p + 3..];
                            open = Some(q);
                        }
                        None => break,
                    }
                }
            }
        }
    }
    out
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
