//! Tokens of a shell command line as bash reads them: words with every
//! quoting form kept apart (so the judge knows what a shell would expand),
//! operators, redirections and here-document bodies.
//!
//! The lexer never guesses: input it cannot read exactly (an unterminated
//! quote, substitution or here-document, an arithmetic expansion with a
//! command inside) is an error, and the judge vetoes it.

use std::cell::RefCell;
use std::rc::Rc;

use thiserror::Error;

/// Deepest nesting of substitutions accepted; deeper input is refused.
const MAX_DEPTH: usize = 32;

/// Why a command line could not be read.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum LexError {
    /// A quote, substitution or brace was never closed.
    #[error("unterminated {0}")]
    Unterminated(&'static str),
    /// A here-document's delimiter line never came.
    #[error("the here-document ending with `{0}` is never closed")]
    HereDoc(String),
    /// Substitutions nested too deeply.
    #[error("substitutions nested more than {MAX_DEPTH} deep")]
    TooDeep,
    /// Shell syntax the guard does not read.
    #[error("{0} is not supported")]
    Unsupported(&'static str),
    /// Subshells, groups or compound commands nested too deeply.
    #[error("commands nested more than {MAX_NESTED_COMMANDS} deep")]
    NestedTooDeep,
}

/// How deeply subshells, groups and compound commands may nest: far
/// beyond what anyone writes, well within the judge's stack.
pub const MAX_NESTED_COMMANDS: usize = 100;

/// One piece of a word, with the quoting it had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Literal text; `quoted` when no glob or tilde applies to it.
    Lit {
        /// The text after quote removal.
        text: String,
        /// Whether it was quoted or escaped.
        quoted: bool,
    },
    /// A parameter expansion (`$x`, `${x}`, `${x:-y}`, `$1`, `$@`).
    Param {
        /// What stood between `$` / `${` and the end.
        name: String,
        /// Whether it stood inside double quotes (no word splitting).
        quoted: bool,
    },
    /// A command substitution (`$(…)` or backticks).
    Subst {
        /// Its tokens.
        toks: Vec<Tok>,
        /// Whether it stood inside double quotes.
        quoted: bool,
    },
    /// A process substitution (`<(…)`, `>(…)`).
    Proc {
        /// Its tokens.
        toks: Vec<Tok>,
    },
    /// An arithmetic expansion (`$((…))`), with no command inside.
    Arith,
}

/// A word: parts glued together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    /// The parts in order.
    pub parts: Vec<Part>,
}

impl Word {
    /// The word's text when it has only literal parts.
    pub fn literal(&self) -> Option<String> {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Lit { text, .. } => s.push_str(text),
                _ => return None,
            }
        }
        Some(s)
    }

    /// Whether the word is one unquoted literal equal to `s` (a reserved
    /// word or `]]`).
    pub fn is_bare(&self, s: &str) -> bool {
        matches!(self.parts.as_slice(), [Part::Lit { text, quoted: false }] if text == s)
    }

    /// A rendering for reasons (not exact shell).
    pub fn display(&self) -> String {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Lit { text, .. } => s.push_str(text),
                Part::Param { name, .. } => {
                    s.push_str("${");
                    s.push_str(name);
                    s.push('}');
                }
                Part::Subst { .. } => s.push_str("$(…)"),
                Part::Proc { .. } => s.push_str("<(…)"),
                Part::Arith => s.push_str("$((…))"),
            }
        }
        s
    }
}

/// Operators that separate or group commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `;`
    Semi,
    /// A newline.
    Newline,
    /// `&`
    Amp,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `|`
    Pipe,
    /// `|&`
    PipeAll,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `;;`, `;&`, `;;&` (end of a `case` arm).
    CaseEnd,
}

/// What a redirection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirOp {
    /// `<`
    Read,
    /// `>`
    Write,
    /// `>|`
    Clobber,
    /// `>>`
    Append,
    /// `<>`
    ReadWrite,
    /// `&>` / `>&WORD` (a file, not a descriptor)
    WriteAll,
    /// `&>>`
    AppendAll,
    /// `>&N`, `<&N`, `>&-`: descriptor duplication, no file.
    Dup,
    /// `<<<`
    HereString,
}

/// A here-document's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HereBody {
    /// The delimiter word.
    pub delimiter: String,
    /// Whether the delimiter was quoted: the body is then literal.
    pub quoted: bool,
    /// The body's raw text (with tabs stripped for `<<-`).
    pub text: String,
    /// For an unquoted delimiter: the body as double-quoted parts
    /// (parameters and substitutions that the shell expands).
    pub parts: Vec<Part>,
}

/// Shared table of here-document bodies, filled when their line ends.
pub type Bodies = Rc<RefCell<Vec<Option<HereBody>>>>;

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A word.
    Word(Word),
    /// An operator.
    Op(Op),
    /// A redirection; its target is the next word token (except `Dup`
    /// with a descriptor, whose target is kept here).
    Redir {
        /// The descriptor number written before it, if any.
        fd: Option<u32>,
        /// What it does.
        op: RedirOp,
    },
    /// A here-document; its body is `bodies[id]` once its line ended.
    HereDoc {
        /// The descriptor number written before it, if any.
        fd: Option<u32>,
        /// Index into the shared body table.
        id: usize,
    },
}

/// The lexer's result.
#[derive(Debug, Clone)]
pub struct Lexed {
    /// The tokens.
    pub toks: Vec<Tok>,
    /// Here-document bodies, by id.
    pub bodies: Vec<HereBody>,
}

/// Reads `input` into tokens.
pub fn lex(input: &str) -> Result<Lexed, LexError> {
    let bodies: Bodies = Rc::new(RefCell::new(Vec::new()));
    let mut lx = Lexer {
        s: input.chars().collect(),
        i: 0,
        bodies: bodies.clone(),
        pending: Vec::new(),
        depth: 0,
    };
    let toks = lx.tokens(None)?;
    if !lx.pending.is_empty() {
        let id = lx.pending[0].0;
        let d = bodies.borrow()[id]
            .as_ref()
            .map(|b| b.delimiter.clone())
            .unwrap_or_default();
        return Err(LexError::HereDoc(d));
    }
    let filled: Vec<HereBody> = bodies
        .borrow()
        .iter()
        .map(|b| {
            b.clone().unwrap_or(HereBody {
                delimiter: String::new(),
                quoted: true,
                text: String::new(),
                parts: Vec::new(),
            })
        })
        .collect();
    Ok(Lexed {
        toks,
        bodies: filled,
    })
}

struct Lexer {
    s: Vec<char>,
    i: usize,
    bodies: Bodies,
    /// Here-documents whose bodies start after the next newline: id,
    /// whether tabs are stripped.
    pending: Vec<(usize, bool)>,
    depth: usize,
}

fn is_meta(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>'
    )
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn starts(&self, pat: &str) -> bool {
        pat.chars().enumerate().all(|(k, c)| self.at(k) == Some(c))
    }

    /// Tokens until the end, or until `close` (a `)` ending `$(`/`<(`) at
    /// depth zero, which is consumed.
    fn tokens(&mut self, close: Option<char>) -> Result<Vec<Tok>, LexError> {
        let mut toks = Vec::new();
        // Whether the next word starts a command (comments and `case`
        // patterns care; reserved words are the parser's).
        let mut parens = 0usize;
        loop {
            let Some(c) = self.peek() else {
                return match close {
                    Some(_) => Err(LexError::Unterminated("command substitution")),
                    None => Ok(toks),
                };
            };
            match c {
                ' ' | '\t' | '\r' => self.i += 1,
                '\\' if self.at(1) == Some('\n') => self.i += 2,
                '#' => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                '\n' => {
                    self.i += 1;
                    toks.push(Tok::Op(Op::Newline));
                    self.read_bodies()?;
                }
                ')' if close.is_some() && parens == 0 => {
                    self.i += 1;
                    return Ok(toks);
                }
                ';' => {
                    if self.starts(";;&") {
                        self.i += 3;
                        toks.push(Tok::Op(Op::CaseEnd));
                    } else if self.starts(";;") || self.starts(";&") {
                        self.i += 2;
                        toks.push(Tok::Op(Op::CaseEnd));
                    } else {
                        self.i += 1;
                        toks.push(Tok::Op(Op::Semi));
                    }
                }
                '&' => {
                    if self.starts("&&") {
                        self.i += 2;
                        toks.push(Tok::Op(Op::And));
                    } else if self.starts("&>>") {
                        self.i += 3;
                        toks.push(Tok::Redir {
                            fd: None,
                            op: RedirOp::AppendAll,
                        });
                    } else if self.starts("&>") {
                        self.i += 2;
                        toks.push(Tok::Redir {
                            fd: None,
                            op: RedirOp::WriteAll,
                        });
                    } else {
                        self.i += 1;
                        toks.push(Tok::Op(Op::Amp));
                    }
                }
                '|' => {
                    if self.starts("||") {
                        self.i += 2;
                        toks.push(Tok::Op(Op::Or));
                    } else if self.starts("|&") {
                        self.i += 2;
                        toks.push(Tok::Op(Op::PipeAll));
                    } else {
                        self.i += 1;
                        toks.push(Tok::Op(Op::Pipe));
                    }
                }
                '(' => {
                    self.i += 1;
                    parens += 1;
                    toks.push(Tok::Op(Op::Open));
                }
                ')' => {
                    self.i += 1;
                    parens = parens.saturating_sub(1);
                    toks.push(Tok::Op(Op::Close));
                }
                '<' | '>' => {
                    if matches!(self.at(1), Some('(')) {
                        // A process substitution is a word.
                        let w = self.word()?;
                        toks.push(Tok::Word(w));
                    } else {
                        self.redirection(None, &mut toks)?;
                    }
                }
                _ => {
                    // A descriptor number glued to a redirection: `2>`.
                    if c.is_ascii_digit() {
                        let mut k = 0;
                        while self.at(k).is_some_and(|c| c.is_ascii_digit()) {
                            k += 1;
                        }
                        if matches!(self.at(k), Some('<' | '>')) && self.at(k + 1) != Some('(') {
                            let n: String = self.s[self.i..self.i + k].iter().collect();
                            self.i += k;
                            let fd = n.parse::<u32>().ok();
                            self.redirection(fd, &mut toks)?;
                            continue;
                        }
                    }
                    let w = self.word()?;
                    toks.push(Tok::Word(w));
                }
            }
        }
    }

    fn redirection(&mut self, fd: Option<u32>, toks: &mut Vec<Tok>) -> Result<(), LexError> {
        let table: &[(&str, RedirOp)] = &[
            ("<<<", RedirOp::HereString),
            ("<>", RedirOp::ReadWrite),
            ("<&", RedirOp::Dup),
            ("<", RedirOp::Read),
            (">>", RedirOp::Append),
            (">|", RedirOp::Clobber),
            (">&", RedirOp::Dup),
            (">", RedirOp::Write),
        ];
        if self.starts("<<") && !self.starts("<<<") {
            let strip = self.starts("<<-");
            self.i += if strip { 3 } else { 2 };
            while matches!(self.peek(), Some(' ' | '\t')) {
                self.i += 1;
            }
            let w = self.word()?;
            let quoted = w.parts.iter().any(|p| match p {
                Part::Lit { quoted, .. } => *quoted,
                _ => false,
            });
            let Some(delimiter) = w.literal() else {
                return Err(LexError::Unsupported(
                    "a here-document delimiter with expansions",
                ));
            };
            if delimiter.is_empty() {
                return Err(LexError::Unterminated("here-document delimiter"));
            }
            let id = {
                let mut b = self.bodies.borrow_mut();
                b.push(Some(HereBody {
                    delimiter,
                    quoted,
                    text: String::new(),
                    parts: Vec::new(),
                }));
                b.len() - 1
            };
            self.pending.push((id, strip));
            toks.push(Tok::HereDoc { fd, id });
            return Ok(());
        }
        for (pat, op) in table {
            if self.starts(pat) {
                self.i += pat.chars().count();
                let mut op = *op;
                if op == RedirOp::Dup {
                    // `>&WORD` with a file name is a write of both streams.
                    while matches!(self.peek(), Some(' ' | '\t')) {
                        self.i += 1;
                    }
                    let mut k = 0;
                    while self.at(k).is_some_and(|c| c.is_ascii_digit()) {
                        k += 1;
                    }
                    let is_fd = (k > 0 && self.at(k).is_none_or(is_meta))
                        || (self.peek() == Some('-') && self.at(1).is_none_or(is_meta));
                    if is_fd {
                        self.i += k.max(1);
                        toks.push(Tok::Redir { fd, op });
                        return Ok(());
                    }
                    if pat.starts_with('<') {
                        op = RedirOp::Read;
                    } else {
                        op = RedirOp::WriteAll;
                    }
                }
                toks.push(Tok::Redir { fd, op });
                return Ok(());
            }
        }
        Err(LexError::Unsupported("this redirection"))
    }

    /// Reads the bodies of the here-documents started on the line that
    /// just ended.
    fn read_bodies(&mut self) -> Result<(), LexError> {
        let pending = std::mem::take(&mut self.pending);
        for (id, strip) in pending {
            let (delimiter, quoted) = {
                let b = self.bodies.borrow();
                let body = b[id]
                    .as_ref()
                    .ok_or(LexError::Unsupported("here-document"))?;
                (body.delimiter.clone(), body.quoted)
            };
            let mut text = String::new();
            loop {
                if self.i >= self.s.len() {
                    return Err(LexError::HereDoc(delimiter));
                }
                let start = self.i;
                while self.peek().is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                let mut line: String = self.s[start..self.i].iter().collect();
                if self.peek() == Some('\n') {
                    self.i += 1;
                }
                if strip {
                    line = line.trim_start_matches('\t').to_string();
                }
                if line == delimiter || line.trim_end_matches('\r') == delimiter {
                    break;
                }
                text.push_str(&line);
                text.push('\n');
            }
            let parts = if quoted {
                Vec::new()
            } else {
                let mut sub = Lexer {
                    s: text.chars().collect(),
                    i: 0,
                    bodies: self.bodies.clone(),
                    pending: Vec::new(),
                    depth: self.depth + 1,
                };
                sub.double_quoted(true)?
            };
            let mut b = self.bodies.borrow_mut();
            if let Some(slot) = b.get_mut(id) {
                *slot = Some(HereBody {
                    delimiter,
                    quoted,
                    text,
                    parts,
                });
            }
        }
        Ok(())
    }

    /// One word, up to an unquoted metacharacter.
    fn word(&mut self) -> Result<Word, LexError> {
        let mut w = Word::default();
        let mut lit = String::new();
        let flush = |lit: &mut String, w: &mut Word, quoted: bool| {
            if !lit.is_empty() {
                w.parts.push(Part::Lit {
                    text: std::mem::take(lit),
                    quoted,
                });
            }
        };
        while let Some(c) = self.peek() {
            match c {
                '<' | '>' if self.at(1) == Some('(') => {
                    flush(&mut lit, &mut w, false);
                    self.i += 2;
                    let toks = self.nested(Some(')'))?;
                    w.parts.push(Part::Proc { toks });
                }
                c if is_meta(c) => break,
                '\\' => {
                    flush(&mut lit, &mut w, false);
                    match self.at(1) {
                        Some('\n') => self.i += 2,
                        Some(n) => {
                            self.i += 2;
                            w.parts.push(Part::Lit {
                                text: n.to_string(),
                                quoted: true,
                            });
                        }
                        None => self.i += 1,
                    }
                }
                '\'' => {
                    flush(&mut lit, &mut w, false);
                    self.i += 1;
                    let start = self.i;
                    while self.peek().is_some_and(|c| c != '\'') {
                        self.i += 1;
                    }
                    if self.peek().is_none() {
                        return Err(LexError::Unterminated("single quote"));
                    }
                    let text: String = self.s[start..self.i].iter().collect();
                    self.i += 1;
                    w.parts.push(Part::Lit { text, quoted: true });
                }
                '"' => {
                    flush(&mut lit, &mut w, false);
                    self.i += 1;
                    let parts = self.double_quoted(false)?;
                    if parts.is_empty() {
                        w.parts.push(Part::Lit {
                            text: String::new(),
                            quoted: true,
                        });
                    }
                    w.parts.extend(parts);
                }
                '`' => {
                    flush(&mut lit, &mut w, false);
                    let toks = self.backtick()?;
                    w.parts.push(Part::Subst {
                        toks,
                        quoted: false,
                    });
                }
                '$' => {
                    if self.at(1) == Some('\'') {
                        flush(&mut lit, &mut w, false);
                        self.i += 2;
                        let text = self.ansi_c()?;
                        w.parts.push(Part::Lit { text, quoted: true });
                    } else if self.at(1) == Some('"') {
                        flush(&mut lit, &mut w, false);
                        self.i += 2;
                        let parts = self.double_quoted(false)?;
                        if parts.is_empty() {
                            w.parts.push(Part::Lit {
                                text: String::new(),
                                quoted: true,
                            });
                        }
                        w.parts.extend(parts);
                    } else if let Some(p) = self.dollar(false)? {
                        flush(&mut lit, &mut w, false);
                        w.parts.push(p);
                    } else {
                        lit.push('$');
                        self.i += 1;
                    }
                }
                _ => {
                    lit.push(c);
                    self.i += 1;
                }
            }
        }
        flush(&mut lit, &mut w, false);
        Ok(w)
    }

    fn nested(&mut self, close: Option<char>) -> Result<Vec<Tok>, LexError> {
        if self.depth >= MAX_DEPTH {
            return Err(LexError::TooDeep);
        }
        self.depth += 1;
        // Here-documents started inside belong to the inner lines.
        let outer = std::mem::take(&mut self.pending);
        let r = self.tokens(close);
        let inner = std::mem::replace(&mut self.pending, outer);
        self.depth -= 1;
        // A here-document opened inside a substitution whose line did not
        // end before `)` takes its body after the outer line's newline.
        self.pending.extend(inner);
        r
    }

    /// After `$`: a parameter, substitution or arithmetic; `None` when the
    /// `$` is literal.
    fn dollar(&mut self, quoted: bool) -> Result<Option<Part>, LexError> {
        match self.at(1) {
            Some('(') if self.at(2) == Some('(') => {
                // Arithmetic: refuse a command inside, skip the rest.
                self.i += 3;
                let mut depth = 2usize;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(Some(Part::Arith));
                            }
                        }
                        '$' if self.peek() == Some('(') => {
                            return Err(LexError::Unsupported(
                                "a command substitution inside arithmetic",
                            ))
                        }
                        '`' => {
                            return Err(LexError::Unsupported(
                                "a command substitution inside arithmetic",
                            ))
                        }
                        _ => {}
                    }
                }
                Err(LexError::Unterminated("arithmetic expansion"))
            }
            Some('(') => {
                self.i += 2;
                let toks = self.nested(Some(')'))?;
                Ok(Some(Part::Subst { toks, quoted }))
            }
            Some('{') => {
                self.i += 2;
                let start = self.i;
                let mut depth = 1usize;
                while let Some(c) = self.peek() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\\' => self.i += 1,
                        _ => {}
                    }
                    self.i += 1;
                }
                if self.peek() != Some('}') {
                    return Err(LexError::Unterminated("parameter expansion"));
                }
                let name: String = self.s[start..self.i].iter().collect();
                self.i += 1;
                if name.contains("$(") || name.contains('`') {
                    return Err(LexError::Unsupported(
                        "a command substitution inside a parameter expansion",
                    ));
                }
                Ok(Some(Part::Param { name, quoted }))
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                self.i += 1;
                let start = self.i;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.i += 1;
                }
                let name: String = self.s[start..self.i].iter().collect();
                Ok(Some(Part::Param { name, quoted }))
            }
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                self.i += 2;
                Ok(Some(Part::Param {
                    name: c.to_string(),
                    quoted,
                }))
            }
            _ => Ok(None),
        }
    }

    /// Inside double quotes (after the opening quote), or a whole unquoted
    /// here-document body (`to_end`).
    fn double_quoted(&mut self, to_end: bool) -> Result<Vec<Part>, LexError> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        loop {
            let Some(c) = self.peek() else {
                if to_end {
                    break;
                }
                return Err(LexError::Unterminated("double quote"));
            };
            match c {
                '"' if !to_end => {
                    self.i += 1;
                    break;
                }
                '\\' => match self.at(1) {
                    Some(n @ ('$' | '`' | '\\' | '\n')) => {
                        if n != '\n' {
                            lit.push(n);
                        }
                        self.i += 2;
                    }
                    Some('"') if !to_end => {
                        lit.push('"');
                        self.i += 2;
                    }
                    _ => {
                        lit.push('\\');
                        self.i += 1;
                    }
                },
                '`' => {
                    if !lit.is_empty() {
                        parts.push(Part::Lit {
                            text: std::mem::take(&mut lit),
                            quoted: true,
                        });
                    }
                    let toks = self.backtick()?;
                    parts.push(Part::Subst { toks, quoted: true });
                }
                '$' => match self.dollar(true)? {
                    Some(p) => {
                        if !lit.is_empty() {
                            parts.push(Part::Lit {
                                text: std::mem::take(&mut lit),
                                quoted: true,
                            });
                        }
                        parts.push(p);
                    }
                    None => {
                        lit.push('$');
                        self.i += 1;
                    }
                },
                _ => {
                    lit.push(c);
                    self.i += 1;
                }
            }
        }
        if !lit.is_empty() {
            parts.push(Part::Lit {
                text: lit,
                quoted: true,
            });
        }
        Ok(parts)
    }

    /// A backtick substitution (at the opening backtick): its text with
    /// `\`` `\\` `\$` unescaped, lexed as a command line.
    fn backtick(&mut self) -> Result<Vec<Tok>, LexError> {
        self.i += 1;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(LexError::Unterminated("backtick")),
                Some('`') => {
                    self.i += 1;
                    break;
                }
                Some('\\') if matches!(self.at(1), Some('`' | '\\' | '$')) => {
                    if let Some(n) = self.at(1) {
                        text.push(n);
                    }
                    self.i += 2;
                }
                Some(c) => {
                    text.push(c);
                    self.i += 1;
                }
            }
        }
        if self.depth >= MAX_DEPTH {
            return Err(LexError::TooDeep);
        }
        let mut sub = Lexer {
            s: text.chars().collect(),
            i: 0,
            bodies: self.bodies.clone(),
            pending: Vec::new(),
            depth: self.depth + 1,
        };
        let toks = sub.tokens(None)?;
        if !sub.pending.is_empty() {
            return Err(LexError::Unsupported("a here-document inside backticks"));
        }
        Ok(toks)
    }

    /// `$'…'` after the opening quote: ANSI-C escapes decoded.
    fn ansi_c(&mut self) -> Result<String, LexError> {
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(LexError::Unterminated("$'…' string"));
            };
            self.i += 1;
            match c {
                '\'' => return Ok(out),
                '\\' => {
                    let Some(e) = self.peek() else {
                        return Err(LexError::Unterminated("$'…' string"));
                    };
                    self.i += 1;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        'a' => out.push('\u{7}'),
                        'b' => out.push('\u{8}'),
                        'e' | 'E' => out.push('\u{1b}'),
                        'f' => out.push('\u{c}'),
                        'v' => out.push('\u{b}'),
                        '\\' | '\'' | '"' | '?' => out.push(e),
                        'x' => out.push(self.radix(16, 2)),
                        'u' => out.push(self.radix(16, 4)),
                        'U' => out.push(self.radix(16, 8)),
                        '0'..='7' => {
                            self.i -= 1;
                            out.push(self.radix(8, 3));
                        }
                        'c' => {
                            let ch = self.peek().unwrap_or('@');
                            self.i += 1;
                            out.push(char::from_u32((ch as u32) & 0x1f).unwrap_or('\0'));
                        }
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn radix(&mut self, radix: u32, max: usize) -> char {
        let mut v: u32 = 0;
        let mut n = 0;
        while n < max {
            match self.peek().and_then(|c| c.to_digit(radix)) {
                Some(d) => {
                    v = v.saturating_mul(radix).saturating_add(d);
                    self.i += 1;
                    n += 1;
                }
                None => break,
            }
        }
        char::from_u32(v).unwrap_or('\u{fffd}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        lex(s)
            .unwrap()
            .toks
            .iter()
            .filter_map(|t| match t {
                Tok::Word(w) => Some(w.literal().unwrap_or_else(|| w.display())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn quotes_are_removed_the_way_bash_removes_them() {
        assert_eq!(
            words(r#"r""m -r\f 'a b' "c d""#),
            ["rm", "-rf", "a b", "c d"]
        );
        assert_eq!(words(r"\rm x"), ["rm", "x"]);
        assert_eq!(words(r"$'\x72m' $'a\tb'"), ["rm", "a\tb"]);
        assert_eq!(words("a#b # comment"), ["a#b"]);
    }

    #[test]
    fn heredocs_are_data() {
        let l = lex("git commit -F - <<'EOF'\nrm -rf /; $(x)\nEOF\necho done").unwrap();
        assert_eq!(l.bodies[0].text, "rm -rf /; $(x)\n");
        assert!(l.bodies[0].quoted);
        let w: Vec<_> = l
            .toks
            .iter()
            .filter_map(|t| match t {
                Tok::Word(w) => w.literal(),
                _ => None,
            })
            .collect();
        assert_eq!(w, ["git", "commit", "-F", "-", "echo", "done"]);
    }

    #[test]
    fn heredoc_inside_a_substitution() {
        let l = lex("git commit -m \"$(cat <<'EOF'\nmsg )\nEOF\n)\" && ls").unwrap();
        assert_eq!(l.bodies[0].text, "msg )\n");
    }

    #[test]
    fn errors_are_errors() {
        assert!(lex("echo 'x").is_err());
        assert!(lex("echo $(ls").is_err());
        assert!(lex("cat <<EOF\nx").is_err());
        assert!(lex("echo $(( $(rm x) ))").is_err());
    }
}
