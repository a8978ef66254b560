//! The command structure of a token stream: lists, pipelines, simple
//! commands with their assignments and redirections, subshells, groups,
//! and the compound commands (`if`, `for`, `while`, `until`, `case`,
//! function definitions). The judge walks every command inside; anything
//! the parser does not read is an error, and the judge vetoes it.

use super::lexer::{lex, HereBody, LexError, Op, Part, RedirOp, Tok, Word};

/// Why a command line could not be parsed.
pub type ParseError = LexError;

/// A list of and-or lists, run one after the other (or in the background).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// The and-or lists.
    pub items: Vec<AndOr>,
}

/// Pipelines joined by `&&` / `||`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AndOr {
    /// The pipelines.
    pub pipelines: Vec<Pipeline>,
}

/// Commands joined by `|`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    /// The commands, left to right.
    pub cmds: Vec<Command>,
}

/// Where a redirection reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A file name (or descriptor for `Dup`).
    Word(Word),
    /// A here-document body.
    Body(HereBody),
    /// A descriptor duplication (`2>&1`): no file.
    Fd,
}

/// One redirection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redir {
    /// The descriptor it applies to, when written.
    pub fd: Option<u32>,
    /// What it does (`HereString` also stands for here-documents).
    pub op: RedirOp,
    /// Its target.
    pub target: Target,
}

/// A simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Simple {
    /// `NAME=value` prefixes.
    pub assigns: Vec<(String, Word)>,
    /// The words, program first.
    pub words: Vec<Word>,
    /// Its redirections.
    pub redirs: Vec<Redir>,
}

/// A command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A simple command.
    Simple(Simple),
    /// `( … )`, `{ …; }`, and the bodies of `if`, `while`, `until`: every
    /// list inside runs (or may run).
    Compound(Vec<Script>, Vec<Redir>),
    /// `for NAME in WORDS; do BODY; done`.
    For {
        /// The loop variable.
        var: String,
        /// The words it takes.
        words: Vec<Word>,
        /// The body.
        body: Script,
        /// Redirections after `done`.
        redirs: Vec<Redir>,
    },
    /// `case WORD in PATTERNS) LIST;; … esac`.
    Case {
        /// The word matched.
        word: Word,
        /// Each arm's patterns and list.
        arms: Vec<(Vec<Word>, Script)>,
        /// Redirections after `esac`.
        redirs: Vec<Redir>,
    },
    /// `[[ … ]]`: a test; only its words' substitutions run.
    Test(Vec<Word>),
    /// `NAME () BODY` / `function NAME BODY`: the body is judged as if run.
    Function(String, Box<Command>),
}

/// A parsed command line with the bodies its substitutions may name.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The commands.
    pub script: Script,
    /// Every here-document body, by id (for substitutions parsed later).
    pub bodies: Vec<HereBody>,
}

/// Parses a command line.
pub fn parse(input: &str) -> Result<Parsed, ParseError> {
    let lexed = lex(input)?;
    let script = parse_tokens(&lexed.toks, &lexed.bodies)?;
    Ok(Parsed {
        script,
        bodies: lexed.bodies,
    })
}

/// Parses tokens already lexed (a substitution's), sharing the bodies.
pub fn parse_tokens(toks: &[Tok], bodies: &[HereBody]) -> Result<Script, ParseError> {
    let mut p = Parser {
        toks: toks.to_vec(),
        i: 0,
        bodies: bodies.to_vec(),
        depth: 0,
    };
    let s = p.list(&[])?;
    if p.i < p.toks.len() {
        return Err(LexError::Unsupported(p.describe()));
    }
    Ok(s)
}

/// A word's substitutions, parsed, for the judge.
pub fn substitutions(w: &Word, bodies: &[HereBody]) -> Result<Vec<Script>, ParseError> {
    let mut out = Vec::new();
    collect_parts(&w.parts, bodies, &mut out)?;
    Ok(out)
}

/// The scripts inside parts (command and process substitutions).
pub fn collect_parts(
    parts: &[Part],
    bodies: &[HereBody],
    out: &mut Vec<Script>,
) -> Result<(), ParseError> {
    for p in parts {
        match p {
            Part::Subst { toks, .. } | Part::Proc { toks } => {
                out.push(parse_tokens(toks, bodies)?);
            }
            _ => {}
        }
    }
    Ok(())
}

struct Parser {
    toks: Vec<Tok>,
    i: usize,
    bodies: Vec<HereBody>,
    /// Compound commands open around the current one.
    depth: usize,
}

const RESERVED_ENDS: &[&str] = &[
    "then", "elif", "else", "fi", "do", "done", "esac", "}", "in",
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }

    fn describe(&self) -> &'static str {
        match self.peek() {
            Some(Tok::Op(Op::Close)) => "an unmatched `)`",
            Some(Tok::Op(Op::CaseEnd)) => "`;;` outside `case`",
            Some(Tok::Word(_)) => "a misplaced reserved word",
            _ => "this command structure",
        }
    }

    fn peek_word(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.is_bare(s))
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Some(Tok::Op(Op::Newline))) {
            self.i += 1;
        }
    }

    fn expect_word(&mut self, s: &'static str) -> Result<(), ParseError> {
        self.skip_newlines();
        if self.peek_word(s) {
            self.i += 1;
            Ok(())
        } else {
            Err(LexError::Unterminated(s))
        }
    }

    /// A list, stopping before any reserved word in `ends`, a `)` or `;;`.
    fn list(&mut self, ends: &[&str]) -> Result<Script, ParseError> {
        let mut script = Script::default();
        loop {
            self.skip_newlines();
            while matches!(self.peek(), Some(Tok::Op(Op::Semi | Op::Amp))) {
                self.i += 1;
                self.skip_newlines();
            }
            match self.peek() {
                None | Some(Tok::Op(Op::Close | Op::CaseEnd)) => return Ok(script),
                Some(Tok::Word(w)) if ends.iter().any(|e| w.is_bare(e)) => return Ok(script),
                _ => {}
            }
            let item = self.and_or()?;
            script.items.push(item);
            if let Some(Tok::Op(Op::Semi | Op::Amp | Op::Newline)) = self.peek() {
                self.i += 1;
            }
        }
    }

    fn and_or(&mut self) -> Result<AndOr, ParseError> {
        let mut a = AndOr::default();
        loop {
            a.pipelines.push(self.pipeline()?);
            match self.peek() {
                Some(Tok::Op(Op::And | Op::Or)) => {
                    self.i += 1;
                    self.skip_newlines();
                }
                _ => return Ok(a),
            }
        }
    }

    fn pipeline(&mut self) -> Result<Pipeline, ParseError> {
        let mut p = Pipeline::default();
        while self.peek_word("!") || self.peek_word("time") {
            // bash's `time` keyword takes `-p` (POSIX output) before the
            // pipeline it times.
            let timed = self.peek_word("time");
            self.i += 1;
            while timed && (self.peek_word("-p") || self.peek_word("--")) {
                self.i += 1;
            }
        }
        loop {
            p.cmds.push(self.command()?);
            match self.peek() {
                Some(Tok::Op(Op::Pipe | Op::PipeAll)) => {
                    self.i += 1;
                    self.skip_newlines();
                }
                _ => return Ok(p),
            }
        }
    }

    /// One command; compound ones recurse, so their nesting is bounded
    /// (a deep `( ( ( …` would otherwise overflow the stack: a crash the
    /// agent takes for a hook that allows).
    fn command(&mut self) -> Result<Command, ParseError> {
        if self.depth >= super::lexer::MAX_NESTED_COMMANDS {
            return Err(LexError::NestedTooDeep);
        }
        self.depth += 1;
        let c = self.command_at_depth();
        self.depth -= 1;
        c
    }

    fn command_at_depth(&mut self) -> Result<Command, ParseError> {
        match self.peek() {
            Some(Tok::Op(Op::Open)) => {
                self.i += 1;
                let inner = self.list(&[])?;
                if !matches!(self.peek(), Some(Tok::Op(Op::Close))) {
                    return Err(LexError::Unterminated("subshell"));
                }
                self.i += 1;
                let redirs = self.trailing_redirs()?;
                return Ok(Command::Compound(vec![inner], redirs));
            }
            Some(Tok::Word(w)) => {
                let w = w.clone();
                if w.is_bare("{") {
                    self.i += 1;
                    let inner = self.list(&["}"])?;
                    self.expect_word("}")?;
                    let redirs = self.trailing_redirs()?;
                    return Ok(Command::Compound(vec![inner], redirs));
                }
                if w.is_bare("if") {
                    return self.if_clause();
                }
                if w.is_bare("while") || w.is_bare("until") {
                    self.i += 1;
                    let cond = self.list(&["do"])?;
                    self.expect_word("do")?;
                    let body = self.list(&["done"])?;
                    self.expect_word("done")?;
                    let redirs = self.trailing_redirs()?;
                    return Ok(Command::Compound(vec![cond, body], redirs));
                }
                if w.is_bare("for") || w.is_bare("select") {
                    return self.for_clause();
                }
                if w.is_bare("case") {
                    return self.case_clause();
                }
                if w.is_bare("[[") {
                    return self.test();
                }
                if w.is_bare("function") {
                    self.i += 1;
                    let name = match self.peek() {
                        Some(Tok::Word(n)) => n.literal().unwrap_or_default(),
                        _ => return Err(LexError::Unterminated("function")),
                    };
                    self.i += 1;
                    if matches!(self.peek(), Some(Tok::Op(Op::Open))) {
                        self.i += 1;
                        if !matches!(self.peek(), Some(Tok::Op(Op::Close))) {
                            return Err(LexError::Unterminated("function"));
                        }
                        self.i += 1;
                    }
                    self.skip_newlines();
                    let body = self.command()?;
                    return Ok(Command::Function(name, Box::new(body)));
                }
                if RESERVED_ENDS.iter().any(|e| w.is_bare(e)) {
                    return Err(LexError::Unsupported("a misplaced reserved word"));
                }
                // `name () { …; }`
                if matches!(self.toks.get(self.i + 1), Some(Tok::Op(Op::Open)))
                    && matches!(self.toks.get(self.i + 2), Some(Tok::Op(Op::Close)))
                {
                    let name = w.literal().unwrap_or_default();
                    self.i += 3;
                    self.skip_newlines();
                    let body = self.command()?;
                    return Ok(Command::Function(name, Box::new(body)));
                }
            }
            _ => {}
        }
        self.simple()
    }

    fn if_clause(&mut self) -> Result<Command, ParseError> {
        self.i += 1;
        let mut lists = Vec::new();
        lists.push(self.list(&["then"])?);
        self.expect_word("then")?;
        lists.push(self.list(&["elif", "else", "fi"])?);
        loop {
            self.skip_newlines();
            if self.peek_word("elif") {
                self.i += 1;
                lists.push(self.list(&["then"])?);
                self.expect_word("then")?;
                lists.push(self.list(&["elif", "else", "fi"])?);
            } else if self.peek_word("else") {
                self.i += 1;
                lists.push(self.list(&["fi"])?);
            } else {
                self.expect_word("fi")?;
                break;
            }
        }
        let redirs = self.trailing_redirs()?;
        Ok(Command::Compound(lists, redirs))
    }

    fn for_clause(&mut self) -> Result<Command, ParseError> {
        self.i += 1;
        let var = match self.peek() {
            Some(Tok::Word(w)) => w.literal().unwrap_or_default(),
            Some(Tok::Op(Op::Open)) => return Err(LexError::Unsupported("an arithmetic `for`")),
            _ => return Err(LexError::Unterminated("for")),
        };
        self.i += 1;
        let mut words = Vec::new();
        self.skip_newlines();
        if self.peek_word("in") {
            self.i += 1;
            while let Some(Tok::Word(w)) = self.peek() {
                words.push(w.clone());
                self.i += 1;
            }
        } else {
            // `for x; do` iterates over "$@": unknown values.
            words.push(Word {
                parts: vec![Part::Param {
                    name: "@".into(),
                    quoted: true,
                }],
            });
        }
        if matches!(self.peek(), Some(Tok::Op(Op::Semi))) {
            self.i += 1;
        }
        self.expect_word("do")?;
        let body = self.list(&["done"])?;
        self.expect_word("done")?;
        let redirs = self.trailing_redirs()?;
        Ok(Command::For {
            var,
            words,
            body,
            redirs,
        })
    }

    fn case_clause(&mut self) -> Result<Command, ParseError> {
        self.i += 1;
        let word = match self.peek() {
            Some(Tok::Word(w)) => w.clone(),
            _ => return Err(LexError::Unterminated("case")),
        };
        self.i += 1;
        self.expect_word("in")?;
        let mut arms = Vec::new();
        loop {
            self.skip_newlines();
            if self.peek_word("esac") {
                self.i += 1;
                break;
            }
            if matches!(self.peek(), Some(Tok::Op(Op::Open))) {
                self.i += 1;
            }
            let mut patterns = Vec::new();
            loop {
                match self.peek() {
                    Some(Tok::Word(w)) => {
                        patterns.push(w.clone());
                        self.i += 1;
                    }
                    _ => return Err(LexError::Unterminated("case pattern")),
                }
                match self.peek() {
                    Some(Tok::Op(Op::Pipe)) => self.i += 1,
                    Some(Tok::Op(Op::Close)) => {
                        self.i += 1;
                        break;
                    }
                    _ => return Err(LexError::Unterminated("case pattern")),
                }
            }
            let body = self.list(&["esac"])?;
            arms.push((patterns, body));
            if matches!(self.peek(), Some(Tok::Op(Op::CaseEnd))) {
                self.i += 1;
            } else {
                self.expect_word("esac")?;
                break;
            }
        }
        let redirs = self.trailing_redirs()?;
        Ok(Command::Case { word, arms, redirs })
    }

    fn test(&mut self) -> Result<Command, ParseError> {
        self.i += 1;
        let mut words = Vec::new();
        loop {
            match self.peek() {
                None => return Err(LexError::Unterminated("[[")),
                Some(Tok::Word(w)) if w.is_bare("]]") => {
                    self.i += 1;
                    break;
                }
                Some(Tok::Word(w)) => words.push(w.clone()),
                Some(Tok::HereDoc { .. }) => {
                    return Err(LexError::Unsupported("a here-document inside `[[`"))
                }
                // Operators inside `[[` are comparisons, not redirections.
                Some(_) => {}
            }
            self.i += 1;
        }
        Ok(Command::Test(words))
    }

    fn trailing_redirs(&mut self) -> Result<Vec<Redir>, ParseError> {
        let mut redirs = Vec::new();
        while let Some(r) = self.redir()? {
            redirs.push(r);
        }
        Ok(redirs)
    }

    fn redir(&mut self) -> Result<Option<Redir>, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Redir { fd, op }) => {
                self.i += 1;
                if op == RedirOp::Dup {
                    return Ok(Some(Redir {
                        fd,
                        op,
                        target: Target::Fd,
                    }));
                }
                match self.peek() {
                    Some(Tok::Word(w)) => {
                        let w = w.clone();
                        self.i += 1;
                        Ok(Some(Redir {
                            fd,
                            op,
                            target: Target::Word(w),
                        }))
                    }
                    _ => Err(LexError::Unterminated("redirection")),
                }
            }
            Some(Tok::HereDoc { fd, id }) => {
                self.i += 1;
                let body = self
                    .bodies
                    .get(id)
                    .cloned()
                    .ok_or(LexError::Unsupported("here-document"))?;
                Ok(Some(Redir {
                    fd,
                    op: RedirOp::HereString,
                    target: Target::Body(body),
                }))
            }
            _ => Ok(None),
        }
    }

    fn simple(&mut self) -> Result<Command, ParseError> {
        let mut s = Simple::default();
        loop {
            if let Some(r) = self.redir()? {
                s.redirs.push(r);
                continue;
            }
            match self.peek() {
                Some(Tok::Word(w)) => {
                    let w = w.clone();
                    if s.words.is_empty() {
                        if let Some((name, value)) = assignment(&w) {
                            s.assigns.push((name, value));
                            self.i += 1;
                            // `a=(x y)`: an array assignment.
                            if matches!(self.peek(), Some(Tok::Op(Op::Open)))
                                && s.assigns.last().is_some_and(|(_, v)| v.parts.is_empty())
                            {
                                return Err(LexError::Unsupported("an array assignment"));
                            }
                            continue;
                        }
                    }
                    s.words.push(w);
                    self.i += 1;
                }
                _ => break,
            }
        }
        if s.words.is_empty() && s.assigns.is_empty() && s.redirs.is_empty() {
            return Err(LexError::Unsupported(self.describe()));
        }
        Ok(Command::Simple(s))
    }
}

/// `NAME=value` (or `NAME+=value`) at the start of a word, unquoted.
fn assignment(w: &Word) -> Option<(String, Word)> {
    let Some(Part::Lit {
        text,
        quoted: false,
    }) = w.parts.first()
    else {
        return None;
    };
    let eq = text.find('=')?;
    let name = text[..eq].trim_end_matches('+');
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_')
        || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    let mut value = Word::default();
    let rest = &text[eq + 1..];
    if !rest.is_empty() {
        value.parts.push(Part::Lit {
            text: rest.to_string(),
            quoted: false,
        });
    }
    value.parts.extend(w.parts[1..].iter().cloned());
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple_count(s: &Script) -> usize {
        s.items
            .iter()
            .flat_map(|a| &a.pipelines)
            .flat_map(|p| &p.cmds)
            .map(|c| match c {
                Command::Simple(_) => 1,
                Command::Compound(l, _) => l.iter().map(simple_count).sum(),
                Command::For { body, .. } => simple_count(body),
                Command::Case { arms, .. } => arms.iter().map(|(_, b)| simple_count(b)).sum(),
                Command::Test(_) => 1,
                Command::Function(..) => 1,
            })
            .sum()
    }

    #[test]
    fn structures_parse() {
        for (line, n) in [
            ("a && b || c; d | e & f", 6),
            ("(a; b) && { c; d; }", 4),
            ("if a; then b; elif c; then d; else e; fi", 5),
            ("for x in 1 2; do a $x; b; done", 2),
            ("while read l; do echo $l; done < f", 2),
            ("case $x in a|b) c;; *) d;; esac", 2),
            ("f() { rm x; }; f", 2),
            ("[[ -f x && y > z ]] && ls", 2),
            ("X=1 Y=2 cmd a >out 2>&1 <in", 1),
            ("a\nb\n\nc", 3),
        ] {
            let s = parse(line).unwrap_or_else(|e| panic!("{line}: {e}")).script;
            assert_eq!(simple_count(&s), n, "{line}: {s:?}");
        }
    }

    #[test]
    fn malformed_is_an_error() {
        for line in [
            "if a; then b",
            "(a",
            "a )",
            "for x in a; do b",
            "case x in a) b",
            "then",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }
}
