//! Recognises the placeholder lines a model writes instead of code it did not
//! reproduce (`// ... rest of the code`, `# ... existing code ...`,
//! `/* unchanged */`, `<!-- rest omitted -->`, `@* ... *@`, `REM ...`,
//! "(resto del código sin cambios)", `// 其余代码保持不变`…). Pure functions,
//! no I/O.
//!
//! A line is a placeholder only when it is *framed* — a whole-line comment
//! in any common syntax, a bracketed note, a lone string literal, a line
//! starting with an ellipsis, or a comment trailing code — and the framed
//! text *is* an elision: an ellipsis alone, or a note made of elision
//! vocabulary ([`super::phrases`]) with a signal (an ellipsis, "the rest",
//! a qualified noun such as "existing methods", a predicate such as
//! "unchanged"). A comment that merely mentions the rest of something
//! ("Loads the rest of the config") has words outside the vocabulary and is
//! not a placeholder. Lines of any length are judged.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::lang::{Lang, GENERIC};
use super::phrases::{CJK, VOCABULARIES};
use crate::text::fold;

/// Whole-line comment openers, longest first so `///` wins over `//`.
const OPENERS: &[&str] = &[
    "{{!--", "<!--", "<%--", "--[[", "{/*", "<%#", "{{!", "///", "//!", "/**", "/*!", "'''",
    "\"\"\"", "@*", "//", "/*", "--", ";;", "::", "(*", "{-", "{#", "#", "*", ";", "%", "!", "'",
];

/// Closers stripped from the end of a framed note.
const CLOSERS: &[&str] = &[
    "--}}", "--%>", "*/}", "-->", "*/", "%>", "*@", "}}", "#}", "*)", "-}", "]]", "'''", "\"\"\"",
];

/// Markers of a comment after code on the same line.
const TRAILING: &[&str] = &[
    " //", "\t//", "/*", " #", "\t#", " --", "<!--", "{/*", "@*", "<%--",
];

/// What frames a note, which decides how much evidence it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A whole-line comment or lone string.
    Whole,
    /// A bracketed line, `[...]` or `(rest of the file)`; in code it may
    /// also be a literal with a spread (`[...items, x]`).
    Bracket,
    /// A line that starts with an ellipsis.
    Bare,
    /// A comment after code.
    Trailing,
}

/// Returns whether the (trimmed) line is an elision placeholder in a file
/// of unknown language.
pub fn is_placeholder(line: &str) -> bool {
    is_placeholder_in(line, &GENERIC)
}

/// Predicates too common in ordinary comments to say a note stands for
/// kept code on their own ("compute it here").
const WEAK_PREDICATES: &[&str] = &["here", "etc", "snip"];

/// Returns whether a note says that something is kept as it was ("timing
/// as before", "same checks unchanged"): it holds a predicate of the
/// vocabularies ([`super::phrases`]) whatever its other words. Weaker than
/// [`is_placeholder_in`]; only for a note that already stands where code
/// was removed.
pub fn says_kept(note: &str) -> bool {
    let folded = fold(note);
    let words: Vec<&str> = word_spans(&folded).map(|(_, w)| w).collect();
    let mut i = 0;
    while i < words.len() {
        let hit = LEXICON.entries.get(words[i]).and_then(|slot| {
            slot.iter()
                .filter(|(entry, cats)| {
                    cats & (cat::PRED | cat::PHRASE) != 0 && words[i..].starts_with(entry)
                })
                .map(|(entry, _)| entry)
                .max_by_key(|e| e.len())
        });
        match hit {
            Some(e) if !(e.len() == 1 && WEAK_PREDICATES.contains(&e[0])) => return true,
            Some(e) => i += e.len(),
            None => i += 1,
        }
    }
    false
}

/// Returns whether the (trimmed) line is an elision placeholder in `lang`.
pub fn is_placeholder_in(line: &str, lang: &Lang) -> bool {
    // Only the ASCII `...` can be code (Python's Ellipsis, YAML's document
    // end); `…` never is.
    if lang.bare_ellipsis_is_code && line.trim() == "..." {
        return false;
    }
    let normalised = normalise(line);
    let line = normalised.trim();
    if line.is_empty() {
        return false;
    }
    if lang.prose {
        return ellipsis_row(line)
            || prose_frames(line).is_some_and(|inner| judge(inner, Frame::Whole, lang));
    }
    if let Some((inner, frame)) = frame(line) {
        if judge(inner, frame, lang) {
            return true;
        }
    }
    trailing(line).is_some_and(|inner| judge(inner, Frame::Trailing, lang))
}

/// Parts of a forge's address that lead to a file's history.
const HISTORY_LINKS: &[&str] = &[
    "/commits/",
    "/commit/",
    "/-/commits/",
    "/blame/",
    "/history/",
];

/// Returns whether a prose line sends the reader back to an earlier
/// version of the text or its history in version control ("See the
/// previous version of this section.", "A korábbi verziókat lásd a git
/// előzményekben.") instead of pointing at content that exists: a line
/// that links to a file or names a path is a pointer, not a back
/// reference. Words only: the caller judges where the line stands.
pub(super) fn refers_back(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.chars().count() > 240 {
        return false;
    }
    // A link into the history of a forge (`…/commits/main/README.md`) is
    // a back reference whatever the words.
    if HISTORY_LINKS.iter().any(|h| t.contains(h)) {
        return true;
    }
    if t.contains("](") {
        return false;
    }
    // A path (`docs/architecture.md`) names content that is still there.
    let path = t.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '.');
        !w.contains("://")
            && w.contains('/')
            && w.rsplit_once('.').is_some_and(|(_, ext)| {
                (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric())
            })
    });
    if path {
        return false;
    }
    let folded = fold(&normalise(t));
    super::phrases::BACK_REFERENCES
        .iter()
        .any(|r| folded.contains(r) || folded.contains(&fold(r)))
}

/// Returns `line` with invisible characters removed, Unicode spaces made
/// plain, and every ellipsis form (`…`, `⋯`, `‥`, `. . .`, `・・・`…) written
/// `...`.
fn normalise(line: &str) -> std::borrow::Cow<'_, str> {
    if line.is_ascii() && !line.contains(". .") && !line.contains('\t') && !line.contains('&') {
        return std::borrow::Cow::Borrowed(line);
    }
    let line = line
        .replace("&hellip;", "...")
        .replace("&#8230;", "...")
        .replace("&#x2026;", "...");
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        let c = crate::text::lookalike::latin(c);
        match c {
            '\u{2026}' | '\u{22EF}' | '\u{22EE}' | '\u{FE19}' | '\u{1801}' | '\u{2E2E}' => {
                out.push_str("...")
            }
            '\u{2025}' => out.push_str(".."),
            '\u{30FB}' | '\u{00B7}' | '\u{2027}' | '\u{FF0E}' | '\u{3002}' | '\u{FF61}'
            | '\u{2219}' | '\u{22C5}' => out.push('.'),
            c if c.is_whitespace() => out.push(' '),
            c if crate::text::lookalike::is_invisible(c) => {}
            c => out.push(c),
        }
    }
    // `. . .` → `...`: drop spaces between dots.
    let bytes = out.as_bytes();
    let mut squeezed = String::with_capacity(out.len());
    for (i, c) in out.char_indices() {
        if c == ' ' && i > 0 && bytes[i - 1] == b'.' && bytes.get(i + 1) == Some(&b'.') {
            continue;
        }
        squeezed.push(c);
    }
    std::borrow::Cow::Owned(squeezed)
}

/// Strips closers and trailing punctuation from a framed note.
fn strip_closers(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches([',', ';']).trim_end();
        for c in CLOSERS {
            if let Some(rest) = s.strip_suffix(c) {
                s = rest.trim_end();
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// Returns the note a whole line frames, if any.
fn frame(line: &str) -> Option<(&str, Frame)> {
    let upper = line.get(..4).map(str::to_ascii_uppercase);
    if upper.as_deref() == Some("REM ") || line.eq_ignore_ascii_case("rem") {
        return Some((strip_closers(&line[3..]), Frame::Whole));
    }
    for m in OPENERS {
        if let Some(rest) = line.strip_prefix(m) {
            // `'` and `"` frame only a whole string literal, `'''…'''`.
            if matches!(*m, "'" | "'''" | "\"\"\"") && !line.ends_with(*m) && *m != "'" {
                return Some((strip_closers(rest), Frame::Whole));
            }
            return Some((
                strip_closers(rest.strip_suffix(*m).unwrap_or(rest)),
                Frame::Whole,
            ));
        }
    }
    let body = line.trim_end_matches([',', ';']);
    for (open, close) in [('(', ')'), ('[', ']'), ('{', '}'), ('"', '"'), ('`', '`')] {
        if body.len() >= 2 && body.starts_with(open) && body.ends_with(close) {
            let frame = if open == '"' || open == '`' {
                Frame::Whole
            } else {
                Frame::Bracket
            };
            return Some((strip_closers(&body[1..body.len() - 1]), frame));
        }
    }
    if let Some(rest) = line.strip_prefix("..") {
        // `...rest,` / `...args)` is a spread or a variadic, not a note.
        let rest = rest.trim_start_matches('.');
        let spread = rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            && !rest
                .trim_end_matches([',', ')', ']', '}', ';'])
                .contains(' ');
        if !spread && !line.starts_with("..=") && !line.starts_with("..<") {
            return Some((line, Frame::Bare));
        }
    }
    None
}

/// Returns the note of an HTML comment or bracketed note in prose.
fn prose_frames(line: &str) -> Option<&str> {
    // A list item's text is framed as a line's: `2. ... (same steps as
    // before)`.
    if let Some(item) = list_item(line) {
        return prose_frames(item);
    }
    if let Some(rest) = line.strip_prefix("<!--") {
        return Some(strip_closers(rest));
    }
    // `… (rest of the README unchanged)`: the words decide, not the dots.
    if line.starts_with("..") {
        return Some(line);
    }
    for (open, close) in [('(', ')'), ('[', ']')] {
        if line.len() >= 2 && line.starts_with(open) && line.ends_with(close) {
            return Some(line[1..line.len() - 1].trim());
        }
    }
    None
}

/// Returns whether a line is a table row whose cells are only ellipses
/// (`| ... | ... |`): rows left out of a table, not a row of it.
fn ellipsis_row(line: &str) -> bool {
    let Some(inner) = line.strip_prefix('|').and_then(|l| l.strip_suffix('|')) else {
        return false;
    };
    let cells: Vec<&str> = inner.split('|').map(str::trim).collect();
    cells.contains(&"...") && cells.iter().all(|c| c.is_empty() || *c == "...")
}

/// Returns the text of a list item (`- x`, `* x`, `+ x`, `#. x`, `2. x`,
/// `2) x`), if the line is one.
fn list_item(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let marker = if digits > 0 && digits <= 3 {
        // `2. ...` may have been normalised to `2....`.
        let rest = &line[digits..];
        rest.strip_prefix(". ")
            .or_else(|| rest.strip_prefix(") "))
            .or_else(|| rest.starts_with("....").then(|| &rest[1..]))
    } else {
        ["- ", "* ", "+ ", "#. "]
            .iter()
            .find_map(|m| line.strip_prefix(m))
    };
    marker.map(str::trim_start).filter(|t| !t.is_empty())
}

/// Returns the comment after code on the line, outside string literals.
fn trailing(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut quote = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'`' => quote = Some(b),
            None if i > 0 && matches!(b, b' ' | b'\t' | b'/' | b'<' | b'{' | b'@') => {
                for m in TRAILING {
                    if bytes[i..].starts_with(m.as_bytes()) {
                        return Some(strip_closers(&line[i + m.len()..]));
                    }
                }
            }
            None => {}
        }
        i += 1;
    }
    None
}

/// What a word can be in the vocabularies.
mod cat {
    pub const REST: u8 = 1;
    pub const QUAL: u8 = 2;
    pub const WEAK: u8 = 4;
    pub const NOUN: u8 = 8;
    pub const PRED: u8 = 16;
    pub const PHRASE: u8 = 32;
    pub const FILLER: u8 = 64;
}

/// Every vocabulary entry, indexed by its first word.
struct Lexicon {
    entries: HashMap<&'static str, Vec<(Vec<&'static str>, u8)>>,
}

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut entries: HashMap<&'static str, Vec<(Vec<&'static str>, u8)>> = HashMap::new();
    for v in VOCABULARIES {
        for (list, c) in [
            (v.rest, cat::REST),
            (v.qualifiers, cat::QUAL),
            (v.weak_qualifiers, cat::WEAK),
            (v.nouns, cat::NOUN),
            (v.predicates, cat::PRED),
            (v.phrases, cat::PHRASE),
            (v.fillers, cat::FILLER),
        ] {
            for entry in list {
                let words: Vec<&'static str> = entry
                    .split(|ch: char| !ch.is_alphanumeric())
                    .filter(|w| !w.is_empty())
                    .collect();
                let Some(first) = words.first() else { continue };
                let slot = entries.entry(first).or_default();
                match slot.iter_mut().find(|(w, _)| *w == words) {
                    Some((_, cats)) => *cats |= c,
                    None => slot.push((words, c)),
                }
            }
        }
    }
    for slot in entries.values_mut() {
        slot.sort_by_key(|e| std::cmp::Reverse(e.0.len()));
    }
    Lexicon { entries }
});

/// One token of a note: a vocabulary match (its categories) or an unknown
/// word (0), with how many words it spans.
struct Token {
    cats: u8,
}

/// Returns whether a character is written in a CJK script.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{FF66}'..='\u{FF9F}')
}

/// Returns whether a framed note is an elision.
fn judge(inner: &str, frame: Frame, lang: &Lang) -> bool {
    // In code, `...items` spreads; only an ellipsis not glued to a name
    // (or a note around one) stands for something left out.
    let spread_free;
    let inner = if matches!(frame, Frame::Bracket | Frame::Bare) {
        spread_free = without_spreads(inner);
        spread_free.as_str()
    } else {
        inner
    };
    let ellipsis_at = inner.find("..");
    let folded = fold(inner);
    let mut words: Vec<&str> = Vec::new();
    let mut cjk = String::new();
    let mut first_word_at = None;
    for (at, w) in word_spans(&folded) {
        if w.chars().any(is_cjk) {
            cjk.extend(w.chars().filter(|c| is_cjk(*c)));
            let latin: &str = w.trim_matches(is_cjk);
            if !latin.is_empty() && !latin.chars().any(is_cjk) {
                words.push(latin);
            }
        } else {
            words.push(w);
        }
        first_word_at.get_or_insert(at);
    }
    let ellipsis = ellipsis_at.is_some() && !lang.prose;
    let lead = ellipsis && first_word_at.is_none_or(|w| ellipsis_at.is_some_and(|e| e < w));
    if !cjk.is_empty() && cjk_judge(&cjk, ellipsis) {
        return true;
    }
    if words.is_empty() {
        return cjk.is_empty() && ellipsis;
    }
    let tokens = tokenize(&words);
    let known = |t: &Token, c: u8| t.cats & c != 0;
    let unknown = tokens.iter().filter(|t| t.cats == 0).count() + usize::from(!cjk.is_empty());
    let first = tokens
        .iter()
        .find(|t| t.cats & !cat::FILLER != 0 || t.cats == 0);
    // "The rest" needs company: `// resto` alone may be a remainder.
    let rest = first.is_some_and(|t| known(t, cat::REST))
        && (ellipsis || tokens.iter().filter(|t| t.cats & !cat::FILLER != 0).count() >= 2);
    let adjacent = |q: u8| {
        tokens.windows(2).any(|w| {
            (known(&w[0], q) && known(&w[1], cat::NOUN))
                || (known(&w[0], cat::NOUN) && known(&w[1], q))
        }) || tokens
            .windows(3)
            .any(|w| known(&w[0], q) && w[1].cats == cat::FILLER && known(&w[2], cat::NOUN))
    };
    let qualified = adjacent(cat::QUAL);
    let weak = adjacent(cat::WEAK);
    let predicate = tokens.iter().any(|t| known(t, cat::PRED));
    let phrase = tokens.iter().any(|t| known(t, cat::PHRASE));
    let noun = tokens.iter().any(|t| known(t, cat::NOUN));
    let signal = ellipsis || rest || qualified || predicate || phrase;
    match frame {
        // After code, a comment may describe that code (`rest[0]  # rest
        // of the list`): only an ellipsis, or the rest said to be
        // unchanged, stands for code left out.
        Frame::Trailing => (ellipsis || (rest && predicate)) && unknown == 0,
        Frame::Whole | Frame::Bare | Frame::Bracket => {
            (unknown == 0 && signal)
                || ((ellipsis || rest || qualified) && (predicate || phrase) && unknown <= 4)
                // Where a bare `...` is code (Python's doctest continuation
                // `...     1)`), a line led by one needs words that say so.
                || (!(frame == Frame::Bare && lang.bare_ellipsis_is_code)
                    && ((lead && tokens.len() <= 3)
                        || ((rest || qualified || (ellipsis && (noun || weak || predicate)))
                            && unknown <= 1 + usize::from(ellipsis)
                            && tokens.len() <= 8)))
        }
    }
}

/// Returns `text` with every spread (`...name`) reduced to its name.
fn without_spreads(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(p) = rest.find("...") {
        let after = &rest[p + 3..];
        out.push_str(&rest[..p]);
        if !after.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
            out.push_str("...");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Returns the words of folded text with their byte offsets; apostrophes
/// and slashes stay inside words (`file's`, `getters/setters`).
fn word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let inside = c.is_alphanumeric() || ((c == '\'' || c == '/') && start.is_some());
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, text[s..i].trim_end_matches(['\'', '/'])));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text[s..].trim_end_matches(['\'', '/'])));
    }
    out.into_iter().filter(|(_, w)| !w.is_empty())
}

/// Matches words against the lexicon, longest entry first.
fn tokenize(words: &[&str]) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let mut best: Option<(usize, u8)> = None;
        if let Some(slot) = LEXICON.entries.get(words[i]) {
            for (entry, cats) in slot {
                if words[i..].starts_with(entry) {
                    match best {
                        Some((len, c)) if len == entry.len() => best = Some((len, c | cats)),
                        None => best = Some((entry.len(), *cats)),
                        _ => {}
                    }
                }
            }
        }
        match best {
            Some((len, cats)) => {
                // A multi-word match keeps the categories of its words too
                // ("the same" is a predicate; "same" alone a qualifier).
                tokens.push(Token { cats });
                i += len;
            }
            None => {
                tokens.push(Token { cats: 0 });
                i += 1;
            }
        }
    }
    tokens
}

/// Returns whether CJK text (punctuation removed) is an elision note.
fn cjk_judge(text: &str, ellipsis: bool) -> bool {
    let mut text = text.to_string();
    for e in CJK.exceptions {
        text = text.replace(e, "\u{3007}");
    }
    if CJK.strong.iter().any(|p| text.contains(p)) {
        return true;
    }
    CJK.phrases.iter().any(|p| {
        if p.chars().count() == 1 {
            return text == *p;
        }
        text.starts_with(p) || text.ends_with(p) || (ellipsis && text.contains(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lang::from_path;

    fn lang(ext: &str) -> &'static Lang {
        from_path(&format!("x.{ext}")).expect("known extension")
    }

    #[test]
    fn recognises_common_placeholders() {
        for line in [
            "// ... rest of the code",
            "// ...rest of the code...",
            "# ... existing code ...",
            "/* unchanged */",
            "<!-- rest omitted -->",
            "(rest of file unchanged)",
            "[rest of the class]",
            "// ...",
            "# …",
            "/* ... */",
            "{/* ... */}",
            "// Rest of the implementation remains the same",
            "// existing methods",
            "// other methods unchanged",
            "// ... (keep existing)",
            "// code unchanged",
            "// remaining implementation unchanged",
            "    // ... existing imports",
            "-- rest of the query unchanged",
            "; same as before",
            "... rest of the file",
            "// ... resto del código",
            "# código existente",
            "// sin cambios",
            "/* el resto se mantiene igual */",
            "<!-- resto del archivo sin cambios -->",
            "// ... demás métodos",
            "}  // ... rest of the class",
            "fn helper() { /* ... */ }",
            "x = compute()  # ...",
        ] {
            assert!(is_placeholder(line), "{line:?} should be a placeholder");
        }
    }

    #[test]
    fn recognises_every_comment_syntax_and_ellipsis_form() {
        for line in [
            "// ... and so on",
            "// ... (rest of the implementation remains the same as before, omitted for brevity)",
            "REM ... rest of the script",
            "rem rest of the script unchanged",
            "' ... rest of the module",
            "! ... rest of the subroutine",
            "<%-- ... rest of the page --%>",
            "@* ... *@",
            "<%# rest of the template unchanged %>",
            "{/* rest of the component */}",
            "% ... rest omitted",
            ";; ... rest of the functions",
            "; rest unchanged",
            "-- ...",
            "// ⋯",
            "// ‥",
            "// . . .",
            "[...]",
            "(...)",
            "…",
            "⋯",
            "\"... rest of the code\";",
            "'''rest of the class unchanged'''",
            "\"\"\"...\"\"\"",
            "// · · ·",
            "//\u{a0}...\u{a0}rest\u{200b} of the code",
            "// ... reste du code inchangé",
            "// le reste de la classe est inchangé",
            "# ... resto do código permanece igual",
            "// código existente omitido por brevidade",
            "// ... restlicher Code bleibt unverändert",
            "// Rest der Methoden unverändert",
            "// ... resto del codice invariato",
            "// altri metodi invariati",
            "// ... 其余代码保持不变",
            "// 省略",
            "# 其他方法同上",
            "// ... 残りのコードは同じ",
            "// 既存のコード",
            "// 変更なし",
            "// ... resto of the código",
            "// ... rest of the UserService methods remain unchanged",
            "// ... handle errors",
            "// your code here",
            "// ... more tests",
            "# ... etc",
            "/** ... */",
            "// (the remaining 12 handlers follow the same pattern)",
            "// ... same pattern for the other endpoints",
            "// implement the remaining cases similarly",
            "// ... 20 more lines",
            "}  // rest of the methods unchanged",
            "// <snip>",
        ] {
            assert!(is_placeholder(line), "{line:?} should be a placeholder");
        }
        // No length limit.
        let long = format!(
            "// ... {}",
            "rest of the code remains unchanged, ".repeat(20)
        );
        assert!(is_placeholder(&long));
    }

    #[test]
    fn leaves_code_and_real_comments_alone() {
        for line in [
            "...",
            "let rest = &code[..];",
            "println!(\"rest of the code\");",
            "fetch(\"https://example.com/...\")",
            "// Returns the number of lines read so far, or zero",
            "// TODO: the rest of the parser keeps unchanged tokens, see issue 12 for details",
            "# Install dependencies",
            "/* Copyright 2026 */",
            "<!-- navigation -->",
            "(define (rest x) (cdr x))",
            "[dependencies]",
            "{",
            "}",
            "* Parses the header and the body",
            "private BigDecimal monto;",
            "// Loads the rest of the config",
            "// Rest of the config is loaded lazily",
            "...rest,",
            "...args)",
            "...existing_config,",
            "return { ...state, loading: true };",
            "for i in 0..=10 {",
            "func join(args ...string) string {",
            "int printf(const char *fmt, ...);",
            "def f(x: int) -> str: ...",
            "// Loading...",
            "// wait for it...",
            "// We retry three times because the server may drop the connection",
            "// Other methods",
            "// retry, back off, and so on until the deadline passes",
            "// 不变量检查",
            "// 获取其余的配置",
            "// 引数は省略可能です",
            "// 策略模式",
            "#include <stdio.h>",
            "#[derive(Debug)]",
            "'a'",
            "// see ../docs for more",
            "x = [..., 1]",
            "[...items, newItem],",
            "// Keep existing behaviour for old clients",
            "x = rest[0]  # rest of the list",
            "// use short names for brevity",
            "{...state, loading: true}",
            "({ ...defaults, ...overrides })",
            "(...args) => f(...args)",
        ] {
            assert!(
                !is_placeholder(line),
                "{line:?} should not be a placeholder"
            );
        }
    }

    #[test]
    fn language_decides_what_a_bare_ellipsis_is() {
        assert!(!is_placeholder_in("...", lang("py")));
        assert!(!is_placeholder_in("...     1)", lang("py")));
        assert!(!is_placeholder_in("... def f(x): return x", lang("py")));
        assert!(is_placeholder_in(
            "... rest of the methods unchanged",
            lang("py")
        ));
        assert!(!is_placeholder_in("...", lang("yaml")));
        assert!(is_placeholder_in("...", lang("java")));
        assert!(is_placeholder_in("...", lang("rs")));
        assert!(is_placeholder_in("…", lang("py")));
        // Prose: an ellipsis is punctuation, a heading is not a comment.
        assert!(!is_placeholder_in("...", lang("md")));
        assert!(!is_placeholder_in("[...]", lang("md")));
        assert!(!is_placeholder_in("# Existing code", lang("md")));
        assert!(is_placeholder_in(
            "<!-- rest of the document unchanged -->",
            lang("md")
        ));
        assert!(is_placeholder_in(
            "[rest of the README unchanged]",
            lang("md")
        ));
    }
}

#[cfg(test)]
mod list_item_tests {
    use crate::guard::lang::from_path;

    #[test]
    fn a_list_item_holding_a_placeholder_is_one() {
        let rst = from_path("deploy.rst").expect("prose");
        for line in [
            "2. ... (same steps as before)",
            "3) (unchanged)",
            "- (same as above)",
        ] {
            assert!(super::is_placeholder_in(line, rst), "{line}");
        }
        for line in ["2. ... and then restart the shell", "1. Tag the release."] {
            assert!(!super::is_placeholder_in(line, rst), "{line}");
        }
    }
}
