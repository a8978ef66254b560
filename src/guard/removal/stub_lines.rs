//! A stub line standing where a run of code lines was removed, in any
//! language, with or without block syntax the stub scanner knows: the
//! new side of a hunk holds, besides comments and the removed
//! definition's own header (its parameters renamed, `_`-prefixed), only
//! stubs — a failure that says "not done" (`error "TODO"`,
//! `erlang:error(not_implemented)`), a stub statement, a do-nothing value
//! or statement (`undefined`, `discard`, `{noreply, S}` is not one), a
//! placeholder — or a one-line definition of the same name whose right
//! side is one (`f _ _ = error "TODO"`, `def f(_), do: raise("TODO")`,
//! `p(_, _) :- fail.`).

use super::*;

/// The names of the two whole texts, gathered once, on first use: the
/// rules that ask whether a name is new to the file or written nowhere
/// look it up instead of searching the texts for every hunk (a spread
/// edit of a large file has thousands).
pub(super) struct Names<'t> {
    old: &'t str,
    new: &'t str,
    in_old: std::cell::OnceCell<std::collections::HashSet<&'t str>>,
    in_new: std::cell::OnceCell<HashMap<&'t str, u32>>,
    /// The new text's functions whose bodies do no real work, by their
    /// last name part.
    stubs_new: std::cell::OnceCell<std::collections::HashSet<String>>,
}

/// Returns the names of `t`: runs of letters, digits and `_`, and the
/// longer runs that also hold `-`, `?`, `!` or `'` (Lisp and Haskell
/// names).
fn names_of(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '?' | '!' | '\'')))
        .filter(|w| !w.is_empty())
        .flat_map(|w| {
            let parts = w
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|p| !p.is_empty() && p.len() < w.len());
            std::iter::once(w).chain(parts)
        })
}

impl<'t> Names<'t> {
    /// The names of `old` and `new`, not gathered yet.
    pub(super) fn new(old: &'t str, new: &'t str) -> Names<'t> {
        Names {
            old,
            new,
            in_old: std::cell::OnceCell::new(),
            in_new: std::cell::OnceCell::new(),
            stubs_new: std::cell::OnceCell::new(),
        }
    }

    /// Returns whether the new text defines a function named `w` whose
    /// body does no real work (`def _total(self): pass`).
    fn new_stub(&self, w: &str, lang: &Lang) -> bool {
        self.stubs_new
            .get_or_init(|| {
                stubs::functions(self.new, lang)
                    .into_iter()
                    .filter(|f| !f.body.implemented())
                    .map(|f| last_name(&f.name).to_string())
                    .collect()
            })
            .contains(w)
    }

    /// Returns whether the old text holds the name `w`.
    fn old_has(&self, w: &str) -> bool {
        self.in_old
            .get_or_init(|| names_of(self.old).collect())
            .contains(w)
    }

    /// Returns how many times the new text holds the name `w`.
    fn new_count(&self, w: &str) -> u32 {
        let counts = self.in_new.get_or_init(|| {
            let mut m = HashMap::new();
            for n in names_of(self.new) {
                *m.entry(n).or_insert(0u32) += 1;
            }
            m
        });
        counts.get(w).copied().unwrap_or(0)
    }
}

/// What separates a definition's head from its body on one line:
/// Haskell/ML/Nim `=`, Erlang/Elixir `->`, Prolog `:-`, Elixir `, do:`,
/// C#/Scala/Dart `=>`.
const DEFINES: &[&str] = &[" :- ", ", do:", " -> ", " = ", " => "];

/// Words that begin a definition without being its name.
const DEFINERS: &[&str] = &[
    "def",
    "defp",
    "defn",
    "defn-",
    "defun",
    "defmacro",
    "let",
    "rec",
    "fun",
    "fn",
    "function",
    "func",
    "proc",
    "method",
    "sub",
    "pub",
    "private",
    "public",
    "protected",
    "static",
    "async",
    "inline",
    "override",
    "member",
    "val",
    "var",
    "const",
    "procedure",
    "subroutine",
];

/// Words that begin a control statement: a line beginning with one names
/// nothing (`if b:` is not the header of a removed `if a:`).
const CONTROL: &[&str] = &[
    "if", "else", "elif", "elsif", "unless", "for", "foreach", "while", "loop", "do", "case",
    "when", "match", "switch", "try", "catch", "except", "cond", "return", "with", "begin",
];

/// Returns the name a line defines or calls first: its first identifier
/// that is not a definer ([`DEFINERS`]), not a parameter ignored with `_`;
/// none for a control statement ([`CONTROL`]).
fn defined(t: &str) -> Option<&str> {
    let name = t
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '?' | '!' | '\'')))
        .filter(|w| !w.is_empty() && !w.starts_with('_') && !w.starts_with('-'))
        .find(|w| !DEFINERS.contains(w))?;
    (!CONTROL.contains(&name)).then_some(name)
}

/// Returns the head and body of a one-line definition (`f x = body`),
/// split at its first separator ([`DEFINES`]).
fn split_definition(t: &str) -> Option<(&str, &str)> {
    DEFINES
        .iter()
        .filter_map(|s| t.find(s).map(|p| (p, s.len())))
        .min()
        .map(|(p, n)| (&t[..p], &t[p + n..]))
}

/// The most words of an aside read as a label ([`labels_a_placeholder`]).
const LABEL_WORDS: usize = 8;

/// Returns whether a string or a parenthesised aside of the code line
/// `t` is a placeholder (`@doc "unchanged"`, `- name: Enable the site
/// (unchanged)`): a label kept over code left out.
pub(super) fn labels_a_placeholder(t: &str) -> bool {
    let mut parts = Vec::new();
    for (open, close) in [('"', '"'), ('\'', '\''), ('(', ')')] {
        let mut rest = t;
        while let Some(o) = rest.find(open) {
            let after = &rest[o + open.len_utf8()..];
            let Some(c) = after.find(close) else { break };
            parts.push(&after[..c]);
            rest = &after[c + close.len_utf8()..];
        }
    }
    // A short aside that says the text is kept ("(same digest text as
    // before)" where a heredoc's lines were) is a label too.
    parts.iter().any(|p| {
        p.chars().any(char::is_alphabetic)
            && (super::super::elision::is_placeholder(&format!("// {p}"))
                || (p.split_whitespace().count() <= LABEL_WORDS
                    && super::super::elision::says_kept(p)))
    })
}

/// Returns whether `t` (code) does nothing worth keeping and says so or
/// is trivial.
fn is_stub(t: &str, lang: &Lang) -> bool {
    let body = stubs::classify(t, lang);
    body.real == 0 && (body.trivial > 0 || body.marked)
}

/// Returns the new line that stands for the removed code when the new
/// lines `put` (of side `b`) are only stubs, comments and the removed
/// definition's header (see the module's documentation); `removed` are
/// the old lines (of side `a`). At least one of them must be a stub.
pub(super) fn stub_stands_in<'p>(
    a: &Side,
    b: &Side,
    removed: &[Line],
    put: &'p [Line],
    known: &Names,
    lang: &Lang,
) -> Option<&'p Line> {
    if lang.prose {
        return None;
    }
    // The names the removed lines define or begin with.
    let names: Vec<&str> = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .filter_map(|l| {
            let t = l.text(a.text);
            defined(split_definition(t).map_or(t, |(head, _)| head))
        })
        .collect();
    // The removed definition's header, or a definition under a name the
    // old text does not hold (`schedule2 _ = undefined` where `schedule`
    // was, `def cleanup_old(): ...`): a stub renamed is still a stub.
    let ours = |head: &str| {
        defined(head)
            .is_some_and(|n| names.contains(&n) || (!names.is_empty() && !known.old_has(n)))
    };
    let mut stub = None;
    for l in put {
        let t = l.text(b.text);
        match l.class() {
            Class::Blank => {}
            Class::Comment => {
                if stub.is_none() && stubs::classify(t, lang).marked {
                    stub = Some(l);
                }
            }
            Class::Code => {
                let code = &t[..t.len() - trailing_note(t, lang).map_or(0, str::len)];
                let opener = code
                    .trim_end()
                    .trim_end_matches(['{', ':', '=', '('])
                    .trim_end_matches("->")
                    .trim_end_matches(" do")
                    .trim_end();
                if ["...", "…", "???"].contains(&code.trim()) {
                    // A body of punctuation that stands for code.
                    stub.get_or_insert(l);
                    continue;
                }
                if !l.word() || (opener.len() < code.trim_end().len() && ours(opener)) {
                    // Punctuation, or the removed definition's header.
                    continue;
                }
                let stubbed = is_stub(t, lang)
                    || stubs::only_fails(code)
                    || super::super::elision::is_placeholder_in(t, lang)
                    || labels_a_placeholder(code)
                    || split_definition(code).is_some_and(|(head, body)| {
                        ours(head) && (is_stub(body, lang) || stubs::only_fails(body))
                    });
                if !stubbed {
                    return None;
                }
                stub.get_or_insert(l);
            }
        }
    }
    stub
}

/// Returns whether `line`, the one new code line where at least two
/// removed code lines were, is a one-line definition of a removed name
/// (or of a name new to the text) whose right side is a stub or a typed
/// hole (`transpose xs = ?transpose_rhs` where two clauses were).
pub(super) fn stub_definition(
    a: &Side,
    removed: &[Line],
    line: &str,
    known: &Names,
    lang: &Lang,
) -> bool {
    if lang.prose {
        return false;
    }
    let names: Vec<&str> = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .filter_map(|l| {
            let t = l.text(a.text);
            defined(split_definition(t).map_or(t, |(head, _)| head))
        })
        .collect();
    let code = &line[..line.len() - trailing_note(line, lang).map_or(0, str::len)];
    split_definition(code).is_some_and(|(head, body)| {
        defined(head)
            .is_some_and(|n| names.contains(&n) || (!names.is_empty() && !known.old_has(n)))
            && (is_stub(body, lang) || stubs::only_fails(body))
    })
}

/// At most this many new code lines, with a note that says they stand
/// in, may replace a removed body ([`noted_shrink`]).
const NOTED_SHRINK_LINES: usize = 2;

/// Splits a code line at a comment after its code (`return 1.0; //
/// placeholder`): the first comment marker of `lang` outside a string,
/// after white space.
fn split_note<'t>(t: &'t str, lang: &Lang) -> Option<(&'t str, &'t str)> {
    let markers: Vec<&str> = lang
        .line_comments
        .iter()
        .copied()
        .chain(lang.block_comments.iter().map(|(o, _)| *o))
        .map(str::trim_end)
        .filter(|m| !m.is_empty())
        .collect();
    let bytes = t.as_bytes();
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == q {
                quote = None;
            }
            continue;
        }
        if lang.quotes.contains(&b) {
            quote = Some(b);
            continue;
        }
        if i > 0
            && bytes[i - 1].is_ascii_whitespace()
            && markers.iter().any(|m| bytes[i..].starts_with(m.as_bytes()))
        {
            return Some((&t[..i], &t[i..]));
        }
    }
    None
}

/// Returns the note that stands for a removed body when one or two short
/// code lines that write nothing new (every name in them was in the old
/// text: `return x;`, `return 1.0;`, `esc(expr)`, `(void)`) replace at
/// least three times as many removed code lines, or a body whole, next to
/// a new comment that says it stands in (a stub word or an elision
/// phrase: `// placeholder`, `// TODO: ACES curve`, `; same as before`),
/// or in any words when the code calls nothing. A rewrite that shortens
/// the code writes something new: a library call, a helper's name.
/// `counts` are the new code lines, the removed ones, and whether those
/// were a body whole.
pub(super) fn noted_shrink<'p>(
    known: &Names,
    b: &Side,
    put: &'p [Line],
    (new_code, gone, body): (usize, usize, bool),
    removed_comments: &[&str],
    lang: &Lang,
) -> Option<&'p Line> {
    if lang.prose || new_code == 0 || new_code > NOTED_SHRINK_LINES {
        return None;
    }
    if !(gone >= new_code * MIN_RUN || (body && gone > new_code)) {
        return None;
    }
    let mut note: Option<(&Line, bool)> = None;
    let mut calls = false;
    for l in put {
        let t = l.text(b.text);
        let (code, comment) = match l.class() {
            Class::Blank => continue,
            Class::Comment => ("", Some(t)),
            Class::Code => split_note(t, lang).map_or((t, None), |(c, n)| (c, Some(n))),
        };
        if let Some(n) = comment {
            let says = stubs::classify(n, lang).marked
                || super::super::elision::is_placeholder_in(n, lang)
                || super::super::elision::says_kept(n);
            let words = comment_body(n, lang).chars().any(char::is_alphanumeric);
            if !removed_comments.iter().any(|r| similar(r, n))
                && words
                && !is_directive(comment_body(n, lang))
            {
                if says {
                    note.get_or_insert((l, true));
                } else {
                    note.get_or_insert((l, false));
                }
            }
        }
        calls |= code.contains('(') && stubs::classify(code, lang).real > 0;
        // Every name of the code was in the old text: nothing was written.
        let new_name = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| {
                w.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
            })
            .any(|w| !known.old_has(w));
        if new_name {
            return None;
        }
    }
    // A note in words no vocabulary holds ("giữ nguyên như cũ") counts
    // when the code beside it calls nothing: a value or a name returned
    // (`return rows;`, `rv_total = 0.`) is no rewrite of a body.
    note.filter(|&(_, says)| says || !calls).map(|(l, _)| l)
}

/// Receivers that name the object or module itself (`self._fetch(…)`,
/// `this.cache.get(…)`), stripped before a call's chain is judged.
const OWN_RECEIVERS: &[&str] = &["self", "this", "Self", "$this", "static", "@"];

/// Words a one- or two-line delegating body may hold without writing
/// anything new.
const GLUE_WORDS: &[&str] = &[
    "return", "await", "let", "const", "var", "val", "auto", "yield", "try", "new", "nil", "null",
    "None", "true", "false", "err", "mut", "async",
];

/// Languages whose libraries are called unqualified by compound names
/// (`json_encode`, `pthread_mutex_lock`, `array_filter`): a bare call
/// there may be the library's, so only a private name counts.
const UNQUALIFIED_LIBRARIES: &[&str] = &[
    "c",
    "c++",
    "objective-c",
    "php",
    "shell",
    "perl",
    "r",
    "erlang",
    "generic",
];

/// Library functions called unqualified by compound names, named like
/// the helpers they replace (`parseNumber` → `parseFloat`, `maxScore` →
/// `maxOf`): the web platform's globals, Kotlin's and Swift's standard
/// top-level functions.
const GLOBAL_CALLS: &[&str] = &[
    "listOf",
    "mapOf",
    "setOf",
    "arrayOf",
    "sequenceOf",
    "mutableListOf",
    "mutableMapOf",
    "mutableSetOf",
    "emptyList",
    "emptyMap",
    "emptySet",
    "maxOf",
    "minOf",
    "requireNotNull",
    "checkNotNull",
    "buildString",
    "buildList",
    "buildMap",
    "withContext",
    "runCatching",
    "readLine",
    "readln",
    "swap",
    "repeatElement",
    "parseInt",
    "parseFloat",
    "structuredClone",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "queueMicrotask",
    "requestAnimationFrame",
    "cancelAnimationFrame",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
];

/// Returns the words of an identifier, lower case, split at `_`, `-` and
/// camel-case humps (`fetchWithRetries`, `fetch_with_retries`: fetch,
/// with, retries).
fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            prev_lower = false;
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One call in a line: the chain before its `(` split at `.`/`::`/`->`,
/// whether it began at the object itself, and its arguments' text.
struct Call<'t> {
    parts: Vec<&'t str>,
    own: bool,
    args: &'t str,
}

/// Returns the position of the `)` that closes the `(` at `open`.
fn closing_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Returns the calls of a code line (`return this.cache.fetch(id)`:
/// `cache`, `fetch` on the object itself).
fn calls_in(code: &str) -> Vec<Call<'_>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for (p, _) in code.match_indices('(') {
        let start = bytes[..p]
            .iter()
            .rposition(|&b| {
                !(b.is_ascii_alphanumeric()
                    || matches!(b, b'_' | b'.' | b':' | b'$' | b'@' | b'#' | b'-' | b'>'))
            })
            .map_or(0, |x| x + 1);
        let chain = &code[start..p];
        let mut parts: Vec<&str> = chain
            .split(['.', ':', '#'])
            .flat_map(|x| x.split("->"))
            .filter(|x| !x.is_empty())
            .collect();
        if parts.is_empty() {
            continue;
        }
        let own = OWN_RECEIVERS.contains(&parts[0]) || chain.starts_with('@');
        if OWN_RECEIVERS.contains(&parts[0]) {
            parts.remove(0);
        }
        let valid = |w: &&str| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$' || c == '@')
        };
        if parts.is_empty() || !parts.iter().all(valid) {
            continue;
        }
        let close = closing_paren(bytes, p).unwrap_or(code.len());
        out.push(Call {
            parts: parts
                .into_iter()
                .map(|w| w.trim_start_matches(['@', '$']))
                .collect(),
            own,
            args: &code[(p + 1).min(close)..close],
        });
    }
    out
}

/// Returns whether the one or two new code lines (`lines`) where a run of
/// removed code lines (`or`, a body) was hand the body to code never
/// written: a call whose name, and every name it is reached through, the
/// two texts hold nowhere else (`return splitQuoted(line, ',');`, `return
/// this.cache.fetchOrder(id);`, `out := scheduleEDF(now, jobs)`), the rest
/// of the lines writing nothing new. A bare or module-qualified name must
/// also be private (`_`-prefixed) or share a word with the function whose
/// body it replaces while not being one of its words (`splitLine` →
/// `splitQuoted`; not `my_strlen` → `strlen`), and be no library's where
/// libraries are called bare ([`UNQUALIFIED_LIBRARIES`], [`GLOBAL_CALLS`]).
pub(super) fn ghost_call(
    a: &Side,
    or: std::ops::Range<usize>,
    lines: &[&str],
    known: &Names,
    lang: &Lang,
) -> bool {
    if lang.prose || lang.format.is_some() || lines.is_empty() || lines.len() > 2 {
        return false;
    }
    let nowhere = |w: &str| !known.old_has(w) && known.new_count(w) <= 1;
    let owner = owner_words(a, or.clone());
    let codes: Vec<&str> = lines
        .iter()
        .map(|l| split_note(l, lang).map_or(*l, |(c, _)| c))
        .collect();
    let ghost = codes.iter().flat_map(|c| calls_in(c)).find(|call| {
        let Some((&name, qualifiers)) = call.parts.split_last() else {
            return false;
        };
        if name.len() < 4 || !nowhere(name) || !qualifiers.iter().all(|q| nowhere(q)) {
            return false;
        }
        let words = name_words(name);
        let shares = words.iter().any(|w| w.len() >= 3 && owner.contains(w));
        let one_of_its_words = words.len() == 1 && owner.contains(&words[0]);
        let related = shares && !one_of_its_words;
        if call.own {
            // A member of a class that inherits nothing is declared in
            // the file: one it never names was never written. An
            // inherited one (`self.filter_queryset`) may be the base's.
            let private = name.starts_with('_') || qualifiers.iter().any(|q| q.starts_with('_'));
            return private
                || (base_free_class(a, or.start) && (related || !qualifiers.is_empty()));
        }
        if !qualifiers.is_empty() {
            return related;
        }
        let simple_args = !call.args.contains(['(', '{']) && !call.args.contains("=>");
        // Where libraries are called bare, the project's own prefix
        // (`su_trim` → `su_trim_both`) tells its functions from theirs.
        let own_prefix = owner.len() >= 2 && words.first() == owner.first();
        name.starts_with('_')
            || (related
                && simple_args
                && (!UNQUALIFIED_LIBRARIES.contains(&lang.name) || own_prefix)
                && !GLOBAL_CALLS.contains(&name))
    });
    let Some(ghost) = ghost else {
        return false;
    };
    // Nothing else new: every other name was in the old text.
    codes.iter().all(|c| {
        c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .filter(|w| {
                w.chars()
                    .next()
                    .is_some_and(|ch| ch.is_alphabetic() || ch == '_')
            })
            .all(|w| ghost.parts.contains(&w) || GLUE_WORDS.contains(&w) || known.old_has(w))
    })
}

/// Returns the last part of a qualified name (`Cart._total` → `_total`).
fn last_name(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// Returns whether the new code lines (`lines`) where a run of removed
/// code lines was hand the work to a function the new text defines with a
/// body that does nothing (`return self._total()` beside `def
/// _total(self): pass`, in the same write or written first): one or two
/// lines call it, and every other line is that function's header or a
/// stub. The body's logic is gone either way.
pub(super) fn handed_to_stub(lines: &[&str], known: &Names, lang: &Lang) -> bool {
    let calls_stub = |l: &&str| {
        let code = split_note(l, lang).map_or(*l, |(c, _)| c);
        calls_in(code)
            .iter()
            .filter_map(|c| c.parts.last())
            .any(|name| known.new_stub(name, lang))
    };
    let (calls, rest): (Vec<&str>, Vec<&str>) = lines.iter().copied().partition(calls_stub);
    (1..=2).contains(&calls.len())
        && rest.iter().all(|l| {
            is_stub(l, lang) || names_of(l).any(|w| w.len() > 2 && known.new_stub(w, lang))
        })
}

/// How many lines above a call its class header is looked for (a bound:
/// every candidate call of a spread edit looks).
const CLASS_SCAN: usize = 4096;

/// Returns whether the nearest class header above old line `at` (in the
/// side's window) declares a class with no base class (`class Repo {`,
/// `class Repo implements Store {`, `class Repo:`): one whose members
/// are all in the file. No class header found: unknown, so no.
fn base_free_class(a: &Side, at: usize) -> bool {
    let Some(header) = a.lines[..at]
        .iter()
        .rev()
        .take(CLASS_SCAN)
        .filter(|l| l.class() == Class::Code)
        .map(|l| l.text(a.text))
        .find(|t| {
            t.split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "class")
        })
    else {
        return false;
    };
    let after = header.split_once("class").map_or("", |(_, r)| r);
    let bases = after.contains("extends")
        || after.contains(" < ")
        || after.contains(':') && !after.trim_end().ends_with(':')
        || after.split_once('(').is_some_and(|(_, r)| {
            !matches!(r.split(')').next().map(str::trim), Some("" | "object"))
        });
    !bases
}

/// Returns the words of the name of the function whose body the removed
/// lines `or` were: the nearest code line with words above them, indented
/// less.
fn owner_words(a: &Side, or: std::ops::Range<usize>) -> Vec<String> {
    let removed = &a.lines[or.clone()];
    let Some(indent) = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .map(|l| l.indent(a.text))
        .min()
    else {
        return Vec::new();
    };
    a.lines[..or.start]
        .iter()
        .rev()
        .filter(|l| l.class() == Class::Code && l.word())
        .find(|l| l.indent(a.text) < indent)
        .map(|h| {
            let t = h.text(a.text);
            t.split('(')
                .next()
                .unwrap_or(t)
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty())
                .map(name_words)
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::guard::{check_file, Thresholds};

    fn blocked(path: &str, old: &str, new: &str) -> Vec<String> {
        let r = check_file(
            path,
            Some(old.as_bytes()),
            new.as_bytes(),
            &Thresholds::default(),
        );
        r.reasons.iter().map(|x| x.to_string()).collect()
    }

    /// A module of several definitions whose second one's body is `body`.
    fn module(head: &str, body: &str, tail: &str) -> String {
        let mut s = String::from("-- prelude\nimport Data.List\n\nfirst xs = sum xs\n\n");
        s.push_str(head);
        s.push_str(body);
        s.push_str("\n\n");
        s.push_str(tail);
        s
    }

    #[test]
    fn a_stub_line_of_the_same_definition_stands_for_its_body() {
        let tail = "third ys = map (* 2) ys\nfourth = 4\nfifth = 5\n";
        let body = "\n  where\n    ordered = sortOn fst xs\n    total = foldl' (+) 0 ordered\n    scaled = map (* total) ordered";
        let old = module("second xs = scaled", body, tail);
        // Haskell: a one-line definition of the same name, `error "TODO"`
        // or `undefined`, where the body and its where clause were.
        for stub in ["second _ = error \"TODO: port\"", "second = undefined"] {
            let new = module(stub, "", tail);
            let why = blocked("Sched.hs", &old, &new);
            assert!(
                why.iter().any(|w| w.contains("stub on line 6")),
                "{stub}: {why:?}"
            );
        }
        // A one-line definition that does real work is a refactor.
        let new = module("second xs = map (* sum xs) (sortOn fst xs)", "", tail);
        assert_eq!(blocked("Sched.hs", &old, &new), Vec::<String>::new());
    }

    #[test]
    fn a_kept_header_with_a_todo_or_a_failure_idiom_is_a_stub() {
        let old = "-module(m).\n\ninit(A) ->\n    {ok, A}.\n\nhandle_info(sweep, S = #state{w = W}) ->\n    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\nhandle_info(_Other, S) ->\n    {noreply, S}.\n\nstop(S) ->\n    {stop, normal, S}.\n";
        // The clause gone, the catch-all's header renamed, a TODO left.
        let new = old.replace(
            "handle_info(sweep, S = #state{w = W}) ->\n    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\nhandle_info(_Other, S) ->\n",
            "handle_info(_Msg, S) ->\n    %% TODO sweep\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        // The body replaced by the language's own "not done" failure.
        let new = old.replace(
            "    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\n",
            "    erlang:error(not_implemented);\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        // A failure alone where the whole body was, whatever its message
        // says ("pending", "later", or words that sound like a guard): the
        // body's logic is gone; a message is no sign of work kept.
        for message in ["the window must be positive", "pending", "later"] {
            let new = old.replace(
                "    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\n",
                &format!("    erlang:error(\"{message}\");\n"),
            );
            let why = blocked("rl.erl", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{message}: {why:?}");
        }
        // A guard added before the body's logic, which stays, is code.
        let new = old.replace(
            "    Now = erlang:monotonic_time(millisecond),\n",
            "    W > 0 orelse erlang:error(\"the window must be positive\"),\n    Now = erlang:monotonic_time(millisecond),\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.is_empty(), "{why:?}");
    }

    #[test]
    fn each_languages_not_done_idiom_is_a_stub() {
        use crate::guard::lang::from_path;
        for (file, line) in [
            ("a.zig", "@panic(\"TODO\");"),
            ("a.zig", "unreachable; // TODO"),
            ("a.fs", "failwith \"not implemented\""),
            ("a.f90", "error stop 'not implemented'"),
            ("a.sol", "revert(\"TODO\");"),
            ("a.erl", "erlang:error(not_implemented)."),
            ("a.lisp", "(error \"not implemented\"))"),
            (
                "a.clj",
                "(throw (UnsupportedOperationException. \"TODO\")))",
            ),
            ("a.nim", "discard # TODO"),
            ("a.hs", "undefined"),
            ("a.elm", "Debug.todo \"view\""),
            ("a.cob", "CONTINUE."),
            ("a.cob", "EXIT PARAGRAPH."),
            ("a.sql", "RAISE EXCEPTION 'not implemented';"),
            ("a.yml", "ansible.builtin.meta: noop"),
            (
                "a.m",
                "@throw [NSException exceptionWithName:@\"TODO\" reason:nil userInfo:nil];",
            ),
            ("a.zig", "_ = self;\n@panic(\"TODO\");"),
            ("a.lisp", "(declare (ignore config))\n(error \"TODO\")"),
        ] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(super::is_stub(line, lang), "{file}: {line}");
        }
        // Real work, and failures that say why in their own words.
        for (file, line) in [
            ("a.zig", "_ = try self.flush();"),
            ("a.fs", "failwith \"the price is negative\""),
            ("a.sql", "RAISE EXCEPTION 'account % is closed', id;"),
            ("a.hs", "fromIntegral busy / fromIntegral horizon"),
            ("a.py", "admit_patient(record)"),
            ("a.py", "RAISE_LIMIT = 5"),
        ] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(!super::is_stub(line, lang), "{file}: {line}");
        }
    }

    #[test]
    fn failure_idioms_and_unused_names_are_stubs() {
        let old = "const std = @import(\"std\");\n\nfn a() void {}\n\npub fn push(self: *Ring, byte: u8) !void {\n    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n}\n\nfn b() void {}\n";
        let body = "    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n";
        for stub in [
            "    _ = self;\n    _ = byte;\n    @panic(\"TODO\");\n",
            "    _ = self;\n    unreachable; // TODO\n",
        ] {
            let new = old.replace(body, stub);
            let why = blocked("ring.zig", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{stub}: {why:?}");
        }
        // One line doing the real work is a rewrite.
        let new = old.replace(body, "    try self.pushChecked(byte);\n");
        let why = blocked("ring.zig", old, &new);
        assert!(!why.iter().any(|w| w.contains("stub")), "{why:?}");
    }

    #[test]
    fn a_failure_with_any_message_standing_for_a_body_is_a_stub() {
        // A one-line definition of the same name that only fails.
        let old = "module Sched where\n\nschedule :: Int -> [Int] -> [Int]\nschedule n xs =\n  let sorted = reverse (foldr insert [] xs)\n      kept = take n sorted\n  in map (* 2) kept\n\nother :: Int\nother = 1\n";
        for message in ["TODO", "pending", "later"] {
            let new = old.replace(
                "schedule n xs =\n  let sorted = reverse (foldr insert [] xs)\n      kept = take n sorted\n  in map (* 2) kept\n",
                &format!("schedule _ _ = error \"{message}\"\n"),
            );
            let why = blocked("Sched.hs", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{message}: {why:?}");
        }
        // A body left as one failure under its kept header, in braces.
        let old = "const std = @import(\"std\");\n\nfn a() void {}\n\npub fn push(self: *Ring, byte: u8) !void {\n    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n}\n\nfn b() void {}\n";
        let new = old.replace(
            "    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n",
            "    @panic(\"later\");\n",
        );
        assert!(!blocked("ring.zig", old, &new).is_empty());
    }

    /// A D module of three functions, the second's body `body`.
    fn d_module(body: &str) -> String {
        format!(
            "module csv;\nimport std.string : strip;\n\nsize_t count(string s)\n{{\n    return s.length;\n}}\n\nstring[] splitLine(string line)\n{{\n{body}}}\n\nbool blank(string s)\n{{\n    return s.strip.length == 0;\n}}\n"
        )
    }

    const D_BODY: &str = "    string[] result;\n    string cur;\n    foreach (ch; line)\n    {\n        if (ch == ',')\n        {\n            result ~= cur;\n            cur = null;\n        }\n        else\n            cur ~= ch;\n    }\n    return result ~ cur;\n";

    #[test]
    fn code_that_writes_nothing_new_beside_a_note_is_a_stub() {
        let old = d_module(D_BODY);
        // A value or a parameter returned, a note in any words.
        for body in [
            "    return null; // placeholder\n",
            "    string[] result;\n    return result; // giữ nguyên như cũ\n",
            "    // TODO: quoting\n    return [line];\n",
        ] {
            let why = blocked("csv.d", &old, &d_module(body));
            assert!(
                why.iter()
                    .any(|w| w.contains("stub") || w.contains("comment")),
                "{body}: {why:?}"
            );
        }
        // A call beside a note in words no vocabulary holds, a call of
        // code the old text did not hold, or no note: rewrites.
        for body in [
            "    return line.split(\",\"); // std does it\n",
            "    import std.array : split;\n    return split(line, \",\");\n",
            "    return [line];\n",
        ] {
            let why = blocked("csv.d", &old, &d_module(body));
            assert!(!why.iter().any(|w| w.contains("stub")), "{body}: {why:?}");
        }
    }

    #[test]
    fn a_body_handed_to_a_function_defined_nowhere_is_blocked() {
        let old = d_module(D_BODY);
        for body in [
            "    return splitQuoted(line, ',');\n",
            "    return Csv.splitQuoted(line);\n",
            "    return _split(line);\n",
        ] {
            let why = blocked("csv.d", &old, &d_module(body));
            assert!(
                why.iter().any(|w| w.contains("written nowhere")),
                "{body}: {why:?}"
            );
        }
        // The helper written in the same file, a library call named like
        // the function, a name the file already uses: refactors.
        let helper = d_module("    return splitQuoted(line, ',');\n")
            + "\nstring[] splitQuoted(string line, char sep)\n{\n    string[] result;\n    string cur;\n    foreach (ch; line)\n    {\n        if (ch == sep)\n        {\n            result ~= cur;\n            cur = null;\n        }\n        else\n            cur ~= ch;\n    }\n    return result ~ cur;\n}\n";
        assert!(blocked("csv.d", &old, &helper).is_empty());
        let old_c = "#include <string.h>\n\nint a(void) { return 1; }\n\nsize_t su_strlen(const char *s)\n{\n    size_t n = 0;\n    while (s[n] != '\\0') {\n        n++;\n    }\n    return n;\n}\n\nint b(void) { return 2; }\n";
        let new_c = old_c.replace(
            "    size_t n = 0;\n    while (s[n] != '\\0') {\n        n++;\n    }\n    return n;\n",
            "    return strlen(s);\n",
        );
        assert!(blocked("strutil.c", old_c, &new_c).is_empty());
    }

    #[test]
    fn a_member_nothing_declares_is_a_ghost_only_in_a_class_that_inherits_nothing() {
        let class = |base: &str, body: &str| {
            format!(
                "import {{ Pool }} from 'pg';\n\nexport class Repo{base} {{\n  constructor(private readonly pool: Pool) {{}}\n\n  async byId(id: string) {{\n{body}  }}\n\n  close() {{\n    return this.pool.end();\n  }}\n}}\n"
            )
        };
        let body = "    const { rows } = await this.pool.query('SELECT 1 WHERE id = $1', [id]);\n    if (rows.length === 0) {\n      return null;\n    }\n    return rows[0];\n";
        let ghost = "    return this.cache.fetchOrder(id);\n";
        let why = blocked("repo.ts", &class("", body), &class("", ghost));
        assert!(why.iter().any(|w| w.contains("written nowhere")), "{why:?}");
        // A base class may declare it.
        let why = blocked(
            "repo.ts",
            &class(" extends Base", body),
            &class(" extends Base", ghost),
        );
        assert!(why.is_empty(), "{why:?}");
        // Library calls named like the helper they replace.
        let php_old = "<?php\nfinal class U\n{\n    public function encodeJson(array $users): string\n    {\n        $parts = [];\n        foreach ($users as $u) {\n            $parts[] = $u->name;\n        }\n        return '[' . implode(',', $parts) . ']';\n    }\n\n    public function count(array $users): int\n    {\n        $n = 0;\n        foreach ($users as $u) {\n            $n += $u->active ? 1 : 0;\n        }\n        return $n;\n    }\n}\n";
        let php_new = php_old.replace(
            "        $parts = [];\n        foreach ($users as $u) {\n            $parts[] = $u->name;\n        }\n        return '[' . implode(',', $parts) . ']';\n",
            "        return json_encode($users);\n",
        );
        assert!(blocked("U.php", php_old, &php_new).is_empty());
        let js_old = "const D = /x/;\n\nexport function parseNumber(text) {\n  const t = String(text).trim();\n  if (!D.test(t)) {\n    return NaN;\n  }\n  return Number(t);\n}\n\nexport function clamp(n, lo, hi) {\n  if (n < lo) {\n    return lo;\n  }\n  if (n > hi) {\n    return hi;\n  }\n  return n;\n}\n";
        let js_new = js_old.replace(
            "  const t = String(text).trim();\n  if (!D.test(t)) {\n    return NaN;\n  }\n  return Number(t);\n",
            "  return parseFloat(text);\n",
        );
        let why = blocked("num.js", js_old, &js_new);
        assert!(why.is_empty(), "{why:?}");
        let kt_old = "package a\n\nfun one() = 1\n\nfun maxScore(a: Int, b: Int): Int {\n    if (a > b) {\n        return a\n    }\n    return b\n}\n\nfun two() = 2\nfun three() = 3\nfun four() = 4\n";
        let kt_new = kt_old.replace(
            "    if (a > b) {\n        return a\n    }\n    return b\n",
            "    return maxOf(a, b)\n",
        );
        assert!(blocked("a.kt", kt_old, &kt_new).is_empty());
    }

    #[test]
    fn a_stub_under_a_new_name_or_a_typed_hole_is_a_stub() {
        let old = "import os\n\n\ndef a():\n    return 1\n\n\ndef cleanup(days):\n    removed = 0\n    for p in os.listdir('.'):\n        os.remove(p)\n        removed += 1\n    return removed\n\n\ndef b():\n    return 2\n";
        let new = old.replace(
            "def cleanup(days):\n    removed = 0\n    for p in os.listdir('.'):\n        os.remove(p)\n        removed += 1\n    return removed\n",
            "def cleanup_old(days):\n    ...\n",
        );
        let why = blocked("jobs.py", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        let old = "module Vect\n\nhead : Vect (S n) a -> a\nhead (x :: _) = x\n\ntranspose : Vect m (Vect n a) -> Vect n (Vect m a)\ntranspose [] = replicate _ []\ntranspose (r :: rs) = zipWith (::) r (transpose rs)\n\nlast : Vect (S n) a -> a\nlast [x] = x\nlast (_ :: xs) = last xs\n";
        let new = old.replace(
            "transpose [] = replicate _ []\ntranspose (r :: rs) = zipWith (::) r (transpose rs)\n",
            "transpose xs = ?transpose_rhs\n",
        );
        let why = blocked("Vect.idr", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        // Two clauses merged into one that does the work: a rewrite.
        let new = old.replace(
            "transpose [] = replicate _ []\ntranspose (r :: rs) = zipWith (::) r (transpose rs)\n",
            "transpose xs = foldr (zipWith (::)) (replicate _ []) xs\n",
        );
        assert!(blocked("Vect.idr", old, &new).is_empty());
    }

    #[test]
    fn a_lean_proof_collapsed_to_sorry_is_a_stub() {
        let old = "namespace S\n\ndef f (n : Nat) : Nat := n + 1\n\ntheorem f_pos (n : Nat) :\n    0 < f n := by\n  unfold f\n  induction n with\n  | zero => simp\n  | succ k ih => omega\n\ndef g := 2\n\nend S\n";
        let new = old.replace(
            "    0 < f n := by\n  unfold f\n  induction n with\n  | zero => simp\n  | succ k ih => omega\n",
            "    0 < f n := sorry\n",
        );
        let why = blocked("S.lean", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        let new = old.replace(
            "  unfold f\n  induction n with\n  | zero => simp\n  | succ k ih => omega\n",
            "  simp [f]\n",
        );
        assert!(blocked("S.lean", old, &new).is_empty());
    }

    #[test]
    fn more_languages_failures_and_holes_are_stubs() {
        use crate::guard::lang::from_path;
        for (file, line) in [
            ("a.nu", "error make {msg: \"not implemented\"}"),
            ("a.sv", "$fatal(1, \"TODO\");"),
            ("a.st", "^ self notYetImplemented"),
            ("a.idr", "?rhs"),
            ("a.agda", "{! !}"),
            ("a.rkt", "(void))"),
            ("a.el", "(user-error \"TODO\"))"),
        ] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(super::is_stub(line, lang), "{file}: {line}");
        }
        for (file, line) in [("a.php", "?>"), ("a.js", "{!loading && <Spinner/>}")] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(!super::is_stub(line, lang), "{file}: {line}");
        }
    }
}
