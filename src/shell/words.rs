//! Lexing of a request: validation, normalisation, chain splitting and
//! shell-like word splitting.
//!
//! Nothing here decides what a request means; it only tells the levels what
//! was typed, with the quoting a shell would have seen. Never does I/O.

use thiserror::Error;

/// Largest request accepted, in bytes; longer input is refused, not truncated.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// Why a request was refused before routing.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InputError {
    /// Nothing but whitespace (or wrapping quotes) was given.
    #[error("the request is empty")]
    Empty,
    /// The request exceeds [`MAX_INPUT_BYTES`].
    #[error("the request is {len} bytes long; the limit is {max} bytes")]
    TooLong {
        /// Length of the request in bytes.
        len: usize,
        /// The limit in bytes.
        max: usize,
    },
    /// The request contains a control character other than tab or newline.
    #[error("the request contains the control character U+{code:04X} at byte {offset}")]
    ControlChar {
        /// The character's code point.
        code: u32,
        /// Byte offset of the character in the request.
        offset: usize,
    },
}

/// Returns the closing quote for an opening quote character, if it is one.
pub fn closing_quote(open: char) -> Option<char> {
    match open {
        '"' => Some('"'),
        '\'' => Some('\''),
        '“' => Some('”'),
        '”' => Some('”'),
        '„' => Some('“'),
        '‘' => Some('’'),
        '«' => Some('»'),
        '`' => Some('`'),
        _ => None,
    }
}

/// Validates a request and returns its normalised form.
///
/// Unicode whitespace becomes a plain space and runs collapse (newlines are
/// kept, because they separate commands like `;`); one pair of backticks,
/// quotes or a code fence around the whole request is removed, and so is a
/// leading shell prompt `$ `.
pub fn normalize(input: &str) -> Result<String, InputError> {
    if input.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLong {
            len: input.len(),
            max: MAX_INPUT_BYTES,
        });
    }
    if let Some((offset, c)) = input
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != '\t' && c != '\n' && c != '\r')
    {
        return Err(InputError::ControlChar {
            code: c as u32,
            offset,
        });
    }
    // A backslash before a newline continues the line, as in a shell.
    let joined;
    let input = if input.contains("\\\n") {
        joined = input.replace("\\\r\n", "").replace("\\\n", "");
        joined.as_str()
    } else {
        input
    };
    let chars: Vec<(usize, char)> = input.char_indices().collect();
    let mut out = String::with_capacity(input.len());
    let mut pending_space = false;
    let mut pending_newline = false;
    // Inside ASCII quotes whitespace is kept as typed (`--format='%h  %s'`,
    // a commit message's blank line); an apostrophe opens nothing.
    let mut quote: Option<char> = None;
    for (k, &(_, c)) in chars.iter().enumerate() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        if (c == '\'' || c == '"') && !is_apostrophe(&chars, k) {
            if !out.is_empty() {
                if pending_newline {
                    out.push('\n');
                } else if pending_space {
                    out.push(' ');
                }
            }
            pending_space = false;
            pending_newline = false;
            out.push(c);
            // Only a quote that closes later keeps what is inside it.
            if chars[k + 1..].iter().any(|&(_, x)| x == c) {
                quote = Some(c);
            }
            continue;
        }
        if c == '\n' {
            pending_newline = true;
        } else if c.is_whitespace() || c == '\u{200B}' || c == '\u{FEFF}' {
            pending_space = true;
        } else {
            if !out.is_empty() {
                if pending_newline {
                    out.push('\n');
                } else if pending_space {
                    out.push(' ');
                }
            }
            pending_space = false;
            pending_newline = false;
            out.push(c);
        }
    }
    let stripped = strip_wrappers(&out);
    if stripped.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(stripped.to_string())
}

fn strip_wrappers(s: &str) -> &str {
    let mut s = s.trim();
    if let Some(rest) = s.strip_prefix("```") {
        if let Some(body) = rest.strip_suffix("```") {
            // The fence's first line may name a language (```bash).
            let body = match body.split_once('\n') {
                Some((lang, code)) if !lang.contains(' ') => code,
                _ => body,
            };
            s = body.trim();
        }
    }
    if s.len() >= 2 && s.starts_with('`') && s.ends_with('`') && !s[1..s.len() - 1].contains('`') {
        s = s[1..s.len() - 1].trim();
    }
    if let Some(rest) = s.strip_prefix("$ ") {
        s = rest.trim_start();
    }
    let mut chars = s.chars();
    if let (Some(first), Some(last)) = (chars.next(), chars.next_back()) {
        if let Some(close) = closing_quote(first) {
            let inner = &s[first.len_utf8()..s.len() - last.len_utf8()];
            if first != '`' && last == close && !inner.contains(first) && !inner.contains(close) {
                s = inner.trim();
            }
        }
    }
    s
}

/// An operator that joins two segments of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `&&`: run the next segment if this one succeeded.
    And,
    /// `||`: run the next segment if this one failed.
    Or,
    /// `;` or a newline: run the next segment regardless.
    Seq,
    /// `|`: connect this segment's output to the next one's input.
    Pipe,
    /// A lone `&`: a background job, which is never run.
    Background,
}

impl Op {
    /// Returns the operator as it is written in a shell.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::And => "&&",
            Op::Or => "||",
            Op::Seq => ";",
            Op::Pipe => "|",
            Op::Background => "&",
        }
    }
}

/// One piece of a chain, with the operator that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The segment's text, trimmed.
    pub text: &'a str,
    /// The operator after the segment; `None` for the last one.
    pub op: Option<Op>,
}

/// True when a quote at `i` is an apostrophe inside a word (`don't`).
///
/// Only an English contraction's ending counts (`don't`, `it's`, `we're`,
/// `I've`, `you'll`, `I'd`, `I'm`): any other quote after a letter opens
/// a quoted region, as in a shell (`-O'touch x; :'`), so an operator
/// cannot hide behind a look-alike apostrophe.
fn is_apostrophe(chars: &[(usize, char)], i: usize) -> bool {
    let c = chars[i].1;
    if !(c == '\'' || c == '’') || i == 0 || !chars[i - 1].1.is_alphanumeric() {
        return false;
    }
    let tail: String = chars[i + 1..]
        .iter()
        .map(|&(_, c)| c)
        .take_while(|c| c.is_alphanumeric())
        .take(3)
        .collect::<String>()
        .to_lowercase();
    matches!(tail.as_str(), "s" | "t" | "d" | "m" | "re" | "ve" | "ll")
}

/// Finds the index of the quote closing the one opened at `i`, if any.
fn find_close(chars: &[(usize, char)], i: usize, close: char) -> Option<usize> {
    let escapes = chars[i].1 == '"';
    // A quote opened inside a word (`g'i't`, `-O'…'`) is shell quoting:
    // the next quote closes it, whatever follows. One opened at the start
    // of a word may hold prose with apostrophes (`'it's done'`).
    let mid_word = i > 0 && chars[i - 1].1.is_alphanumeric();
    let mut j = i + 1;
    while j < chars.len() {
        let c = chars[j].1;
        if escapes && c == '\\' {
            j += 2;
            continue;
        }
        let apostrophe = !mid_word && (close == '\'' || close == '’') && is_apostrophe(chars, j);
        if c == close && !apostrophe {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// Splits a normalised request on chain operators outside quotes.
///
/// A quote that is never closed, or an apostrophe inside a word, does not
/// open a quoted region, so an operator cannot hide behind it.
pub fn split_chain(s: &str) -> Vec<Segment<'_>> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut segments = Vec::new();
    let mut start = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let (pos, c) = chars[i];
        if c == '\\' {
            i += 2;
            continue;
        }
        if let Some(close) = closing_quote(c) {
            if !is_apostrophe(&chars, i) {
                if let Some(j) = find_close(&chars, i, close) {
                    i = j + 1;
                    continue;
                }
            }
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let (op, width) = match (c, next) {
            ('&', Some('&')) => (Some(Op::And), 2),
            ('|', Some('|')) => (Some(Op::Or), 2),
            (';', _) | ('\n', _) => (Some(Op::Seq), 1),
            ('|', _) => (Some(Op::Pipe), 1),
            ('&', _) => {
                // `2>&1` and `&>` are redirections, found by the lexer later.
                let prev = i.checked_sub(1).map(|p| chars[p].1);
                if prev == Some('>') || next == Some('>') {
                    (None, 1)
                } else {
                    (Some(Op::Background), 1)
                }
            }
            _ => (None, 1),
        };
        if let Some(op) = op {
            segments.push(Segment {
                text: s[start..pos].trim(),
                op: Some(op),
            });
            start = pos + c.len_utf8() * width;
        }
        i += width;
    }
    segments.push(Segment {
        text: s[start..].trim(),
        op: None,
    });
    segments
}

/// One word of a segment after quote removal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// The word's text with quotes removed.
    pub text: String,
    /// Whether any part of the word was quoted.
    pub quoted: bool,
    /// Whether the word holds an apostrophe between letters (`don't`).
    pub contraction: bool,
    /// Whether the word has an unquoted glob character (`*`, `?`, `[`).
    pub glob: bool,
    /// Whether the word starts with an unquoted `~`.
    pub tilde: bool,
    /// The word as a glob pattern: like `text`, with every quoted `*`, `?`,
    /// `[`, `]` and `\\` escaped by a backslash, so only unquoted ones match.
    pub pattern: String,
}

impl Word {
    fn push_raw(&mut self, c: char) {
        self.text.push(c);
        self.pattern.push(c);
    }

    fn push_quoted(&mut self, c: char) {
        self.text.push(c);
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            self.pattern.push('\\');
        }
        self.pattern.push(c);
    }
}

/// A segment split into words, with the shell features it uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lexed {
    /// The words, quotes removed.
    pub words: Vec<Word>,
    /// An unquoted `>` or `<` appears.
    pub redirect: bool,
    /// Command substitution (`$(…)` or backticks) appears outside single quotes.
    pub substitution: bool,
    /// Parameter expansion (`$NAME`, `${…}`) appears outside single quotes.
    pub expansion: bool,
    /// Unquoted shell grouping syntax (`(`, `)`, `{ `…) appears.
    pub grouping: bool,
    /// A quote was opened and never closed.
    pub unbalanced: bool,
}

/// Splits one segment into words the way a POSIX shell would, recording
/// (never evaluating) any expansion, substitution or redirection.
pub fn lex(segment: &str) -> Lexed {
    let chars: Vec<(usize, char)> = segment.char_indices().collect();
    let mut out = Lexed::default();
    let mut word = Word::default();
    let mut in_word = false;
    let mut i = 0usize;
    let flush = |word: &mut Word, in_word: &mut bool, out: &mut Lexed| {
        if *in_word {
            out.words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i].1;
        match c {
            ' ' | '\t' | '\r' | '\n' => {
                flush(&mut word, &mut in_word, &mut out);
                i += 1;
            }
            '\\' => {
                if let Some(&(_, n)) = chars.get(i + 1) {
                    word.push_quoted(n);
                    word.quoted = true;
                }
                in_word = true;
                i += 2;
            }
            '$' => {
                match chars.get(i + 1).map(|&(_, c)| c) {
                    Some('(') => out.substitution = true,
                    Some(n) if n == '{' || n == '_' || n.is_ascii_alphanumeric() => {
                        out.expansion = true
                    }
                    _ => {}
                }
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            '>' | '<' => {
                out.redirect = true;
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            '(' | ')' => {
                out.grouping = true;
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            '{' | '}' if !in_word => {
                out.grouping = true;
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            '*' | '?' | '[' => {
                word.glob = true;
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            '~' if !in_word => {
                word.tilde = true;
                word.push_raw(c);
                in_word = true;
                i += 1;
            }
            _ => {
                let close = closing_quote(c);
                if is_apostrophe(&chars, i) {
                    word.contraction = true;
                    word.push_raw(c);
                    in_word = true;
                    i += 1;
                    continue;
                }
                match close.and_then(|close| find_close(&chars, i, close)) {
                    Some(j) => {
                        if c == '`' {
                            out.substitution = true;
                        }
                        let inner: String = chars[i + 1..j].iter().map(|&(_, c)| c).collect();
                        if c == '"' {
                            push_double_quoted(&inner, &mut word, &mut out);
                        } else {
                            inner.chars().for_each(|c| word.push_quoted(c));
                        }
                        word.quoted = true;
                        in_word = true;
                        i = j + 1;
                    }
                    None => {
                        if close.is_some() {
                            out.unbalanced = true;
                        }
                        word.push_raw(c);
                        in_word = true;
                        i += 1;
                    }
                }
            }
        }
    }
    flush(&mut word, &mut in_word, &mut out);
    out
}

fn push_double_quoted(inner: &str, word: &mut Word, out: &mut Lexed) {
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => match it.peek() {
                Some(&n) if matches!(n, '"' | '\\' | '$' | '`') => {
                    word.push_quoted(n);
                    it.next();
                }
                _ => word.push_quoted('\\'),
            },
            '$' => {
                match it.peek() {
                    Some('(') => out.substitution = true,
                    Some(&n) if n == '{' || n == '_' || n.is_ascii_alphanumeric() => {
                        out.expansion = true
                    }
                    _ => {}
                }
                word.push_quoted('$');
            }
            '`' => {
                out.substitution = true;
                word.push_quoted('`');
            }
            _ => word.push_quoted(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_collapses_and_strips() {
        assert_eq!(
            normalize("  git\u{a0}\u{a0}status  ").unwrap(),
            "git status"
        );
        assert_eq!(normalize("`git status`").unwrap(), "git status");
        assert_eq!(normalize("$ git log -3").unwrap(), "git log -3");
        assert_eq!(normalize("```bash\ngit status\n```").unwrap(), "git status");
        assert_eq!(normalize("\"hello\"").unwrap(), "hello");
        assert_eq!(normalize("a\n\n b").unwrap(), "a\nb");
    }

    #[test]
    fn normalize_refuses_bad_input() {
        assert_eq!(normalize("   "), Err(InputError::Empty));
        assert_eq!(normalize("``"), Err(InputError::Empty));
        assert!(matches!(
            normalize("git\u{1b}[31m"),
            Err(InputError::ControlChar { code: 0x1b, .. })
        ));
        let big = "a".repeat(MAX_INPUT_BYTES + 1);
        assert!(matches!(normalize(&big), Err(InputError::TooLong { .. })));
    }

    #[test]
    fn split_respects_quotes_and_apostrophes() {
        let segs = split_chain("git commit -m \"a && b\" && git log | head");
        let texts: Vec<_> = segs.iter().map(|s| s.text).collect();
        assert_eq!(texts, ["git commit -m \"a && b\"", "git log", "head"]);
        let segs = split_chain("don't commit && rm -rf ~");
        assert_eq!(segs.len(), 2);
        assert_eq!(segs[1].text, "rm -rf ~");
        // An unclosed quote hides nothing.
        let segs = split_chain("echo 'oops && rm -rf /");
        assert_eq!(segs.len(), 2);
        let segs = split_chain("git log 2>&1");
        assert_eq!(segs.len(), 1);
    }

    #[test]
    fn lex_records_shell_features() {
        let l = lex("cat $(git ls-files '*.md')");
        assert!(l.substitution);
        let l = lex("git commit -m 'it''s' \"x $HOME\"");
        assert!(l.expansion);
        assert_eq!(l.words[3].text, "its");
        let l = lex("git log > out.txt");
        assert!(l.redirect);
        let l = lex("git commit -m “primer commit”");
        assert_eq!(l.words[3].text, "primer commit");
        assert!(l.words[3].quoted);
        let l = lex("ls doesn't work");
        assert!(l.words[1].contraction);
        assert!(!l.unbalanced);
    }
}
