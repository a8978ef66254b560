//! The stub scanner's lexer: where code, strings and comments are, so that
//! braces and keywords inside them do not count.

use crate::guard::lang::Lang;

/// A lexer position: where code, strings and comments are.
pub(super) struct Lexer<'a> {
    src: &'a [u8],
    lang: &'a Lang,
    rust: bool,
    csharp: bool,
    go: bool,
    /// `/` may open a regular expression literal (JavaScript, TypeScript).
    regex: bool,
    /// What may start at each byte: [`BLOCK`], [`COMMENT`], [`QUOTE`]
    /// flags; 0 for the bytes the scanner skips.
    pub(super) class: [u8; 256],
    /// A decision read to the end of the text and took nothing (a `'\\`
    /// with no `'` after it): what follows it then decided something
    /// before it, so no point after it may stand for the same point of
    /// another text ([`super::join`]).
    pub(super) far: std::cell::Cell<bool>,
}

/// `{`, `}` or `;`.
pub(super) const BLOCK: u8 = 1;
/// The first byte of a comment marker (or of a regex literal).
pub(super) const COMMENT: u8 = 2;
/// The first byte of a string or character literal.
pub(super) const QUOTE: u8 = 4;

impl<'a> Lexer<'a> {
    pub(super) fn new(src: &'a [u8], lang: &'a Lang) -> Lexer<'a> {
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
            far: std::cell::Cell::new(false),
        }
    }

    /// Returns where the string, character or regex literal starting at
    /// `i` (a byte of class `class`, not a comment) ends, if one starts
    /// there.
    pub(super) fn literal_end(&self, i: usize, class: u8) -> Option<usize> {
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
    pub(super) fn regex_end(&self, i: usize) -> Option<usize> {
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
    pub(super) fn comment_end(&self, i: usize) -> Option<usize> {
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
    pub(super) fn string_end(&self, i: usize) -> Option<usize> {
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
                let len = src[i + 2..].iter().position(|&c| c == b'\'').map(|p| p + 2);
                if len.is_none() {
                    self.far.set(true);
                }
                len
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

pub(super) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

pub(super) fn memchr_newline(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

pub(super) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
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
pub(super) fn code_and_comments<'a>(
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
