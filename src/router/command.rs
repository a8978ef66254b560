//! Level 1: deciding whether a segment *is* a command line, and classifying
//! the non-git ones against the read-only allowlist (default deny).

use std::path::Path;

use crate::policy::catalog::{self, Operands};
use crate::policy::{Facts, Place};
use crate::shell::words::{lex, Lexed, Word};
use crate::text::{fold, lookalike};

/// Whether the words after a program whose name is also an everyday word
/// read as its arguments ("sort imports" does not): none, or words that
/// look like flags, paths or numbers, or a program level 1 never runs.
fn looks_like_arguments(words: &[Word]) -> bool {
    match words.first() {
        None => true,
        Some(first) => {
            let lower = first.text.to_lowercase();
            lower == "git"
                || catalog::lookup(&lower).is_some_and(|e| e.command)
                || words.iter().any(|w| {
                    w.quoted
                        || w.glob
                        || w.text.starts_with(['-', '~', '+'])
                        || w.text.contains(['/', '.', '=', '$'])
                        || w.text.chars().all(|c| c.is_ascii_digit())
                })
        }
    }
}

/// Whether a word could be a file operand as typed, before asking the
/// file system: a path's shape (`/`, `.`, `~`, a glob), a number, `-`.
fn path_shaped(w: &str) -> bool {
    w.contains(['/', '.', '~', '*', '[', '_', '-'])
        || w.chars().all(|c| c.is_ascii_digit())
        || w.chars().any(|c| c.is_ascii_digit())
}

/// Whether the words after an allowed utility are prose rather than its
/// operands: a word that is neither an option, an option's value, nor an
/// operand the program takes (for files: a path's shape or a path that
/// exists), or a question mark the file system does not match. Git lines
/// are the policy's; programs that are never run are refused as typed.
pub fn prose_operands(line: &CommandLine, facts: &dyn Facts, dir: &Path) -> bool {
    let l = &line.lexed;
    // Shell syntax is a command line's, refused as typed.
    if line.program == "git"
        || !is_allowed(&line.program)
        || l.substitution
        || l.redirect
        || l.expansion
        || l.grouping
        || l.unbalanced
    {
        return false;
    }
    let kind = catalog::lookup(&line.program).map_or(Operands::Paths, |e| e.operands);
    if kind == Operands::Free {
        return false;
    }
    let place = Place {
        dir: dir.to_path_buf(),
        ..Place::default()
    };
    // A glob is looked up only when the word has a glob's characters.
    let exists = |w: &str| {
        facts.is_path(&place, w) == Some(true)
            || (w.contains(['*', '?', '[']) && !facts.expand_glob(dir, w).is_empty())
    };
    let mut pattern_taken = kind != Operands::PatternThenPaths;
    let mut after_option = false;
    let mut long_option = false;
    let mut dashdash = false;
    for w in &line.args {
        // A quoted word is read like the same word unquoted: quoting
        // never changes a decision.
        let t = w.text.as_str();
        if !w.quoted && !dashdash && t.len() > 1 && t.starts_with(['-', '+', '(', '!']) {
            if kind == Operands::PathsThenExpression {
                return false;
            }
            dashdash = t == "--";
            after_option = !t.contains('=') && !dashdash;
            long_option = t.starts_with("--");
            continue;
        }
        // An option's value: after a long option any word; after a short
        // one a word that is not plain letters (`-c %s`, `-d ,`, `-t :`).
        let value = long_option || !t.chars().all(char::is_alphabetic);
        if std::mem::take(&mut after_option) && value && !t.ends_with('?') {
            continue;
        }
        if !pattern_taken {
            pattern_taken = true;
            continue;
        }
        if kind == Operands::Nothing {
            return true;
        }
        if kind == Operands::Programs {
            if crate::which::resolve_program(t, dir).is_none() {
                return true;
            }
            continue;
        }
        let bare = t.trim_end_matches([':', ',', ';', '!']);
        if bare.len() != t.len() && !exists(t) {
            return true; // "algorithms:", a clause's punctuation.
        }
        if t.ends_with('?') && !exists(t) {
            return true;
        }
        if !path_shaped(t) && !exists(t) {
            return true;
        }
    }
    false
}

/// Git subcommands people type without `git` ("please reset --hard").
const GIT_VERBS: &[&str] = &[
    "add",
    "am",
    "branch",
    "checkout",
    "cherry-pick",
    "clean",
    "clone",
    "commit",
    "fetch",
    "filter-branch",
    "gc",
    "merge",
    "mv",
    "prune",
    "pull",
    "push",
    "rebase",
    "reflog",
    "remote",
    "reset",
    "restore",
    "revert",
    "rm",
    "stash",
    "switch",
    "tag",
    "update-ref",
    "worktree",
];

/// The git command line a request types without `git` ("please reset
/// --hard", "push --force origin main"): a git subcommand followed by an
/// option or a refspec, after the lead-ins level 1 strips. Only ever used
/// to refuse such a line with the reason the command would get; a line the
/// policy would let run is the model's to confirm, never run as a guess.
pub fn git_line_without_git(segment: &str) -> Option<String> {
    let body = strip_wrappers(segment);
    let first = body.split_whitespace().next()?;
    if !GIT_VERBS.contains(&first.to_ascii_lowercase().as_str()) {
        return None;
    }
    let optioned = body
        .split_whitespace()
        .skip(1)
        .any(|w| w.starts_with(['-', '+', ':']) && w.len() > 1);
    optioned.then(|| format!("git {body}"))
}

/// A segment recognised as a command line.
#[derive(Debug, Clone)]
pub struct CommandLine {
    /// `NAME=value` words before the program.
    pub assignments: Vec<(String, String)>,
    /// The program, case-normalised.
    pub program: String,
    /// The arguments after the program.
    pub args: Vec<Word>,
    /// Shell features seen while lexing.
    pub lexed: Lexed,
    /// The command as typed, without the lead-ins and politeness around it.
    pub text: String,
}

/// Lead-ins before a command, folded (compared without case or accents):
/// politeness, "run", "ejecuta", "lanza", "can you run", "haz un". The
/// command after them is judged exactly as if typed alone.
const LEADING_WRAPPERS: &[&str] = &[
    "can you please run",
    "could you please run",
    "would you please run",
    "can you run",
    "could you run",
    "would you run",
    "will you run",
    "can u run",
    "could u run",
    "cn u run",
    "can you execute",
    "please run",
    "pls run",
    "plz run",
    "please execute",
    "can you please",
    "could you please",
    "can you",
    "could you",
    "can u",
    "go ahead and run",
    "just run",
    "now run",
    "run this",
    "execute this",
    "the command",
    "this command",
    "puedes ejecutar",
    "podrias ejecutar",
    "podes ejecutar",
    "puedes correr",
    "podes correr",
    "podrias correr",
    "me ejecutas",
    "me corres",
    "por favor ejecuta",
    "porfa ejecuta",
    "xfa ejecuta",
    "el comando",
    "este comando",
    "tira un",
    "haz un",
    "hazme un",
    "haceme un",
    "hace un",
    "echale un",
    "echame un",
    "do a",
    "run a",
    "por favor",
    "please",
    "pls",
    "plz",
    "porfa",
    "porfis",
    "xfa",
    "x favor",
    "porfavor",
    "ok",
    "okay",
    "vale",
    "dale",
    "bueno",
    "che",
    "oye",
    "hey",
    "ya po",
    "ya",
    "now",
    "ahora",
    "ahorita",
    "just",
    "run",
    "execute",
    "ejecuta",
    "ejecutar",
    "corre",
    "correle",
    "lanza",
    "lanzame",
];

/// Politeness after a command, and whether it is cut only after a comma:
/// a bare trailing word may be an operand (`git config gc.pruneExpire
/// now`, `git commit -m please`), so only phrases no command takes are cut
/// without one.
const TRAILING_WRAPPERS: &[(&str, bool)] = &[
    ("please", true),
    ("pls", true),
    ("plz", true),
    ("now", true),
    ("thanks", true),
    ("thx", true),
    ("thank you", true),
    ("ty", true),
    ("ahora", true),
    ("por favor", false),
    ("porfa", false),
    ("porfis", false),
    ("porfavor", false),
    ("xfa", false),
    ("x favor", false),
    ("for me", false),
    ("gracias", false),
    ("grax", false),
    ("al tiro", false),
];

/// Words that mark prose after a program name.
const PROSE_WORDS: &[&str] = &[
    "the", "an", "is", "are", "was", "were", "be", "been", "in", "on", "of", "for", "with", "to",
    "from", "into", "about", "why", "what", "how", "when", "where", "who", "whom", "which", "does",
    "do", "did", "can", "could", "should", "would", "will", "it", "its", "this", "that", "these",
    "those", "my", "your", "and", "or", "but", "not", "me", "i", "you", "we", "they", "if", "then",
    "after", "before", "than", "shows", "says", "mean", "means", "works", "fails", "failing",
    "wrong", "broken", "el", "la", "los", "las", "una", "de", "del", "que", "por", "para", "con",
    "en", "es", "son", "esta", "y", "pero", "no", "como", "cual", "porque", "mi", "mis", "tu",
    "se", "lo", "al", "qué", "cómo", "cuál", "está", "dónde", "donde", "cuando", "cuándo",
    "por qué",
];

/// Words that make a trailing `?` a question rather than punctuation.
const QUESTION_WORDS: &[&str] = &[
    "what", "why", "how", "when", "where", "who", "which", "que", "qué", "por", "cómo", "como",
    "cuál", "cual", "dónde", "donde", "cuándo", "cuando",
];

/// Strips the lead-in `phrase` (folded words) from the start of `s`; the
/// words must be followed by a space, `,` or `:`, or end `s`.
fn strip_leading<'a>(s: &'a str, phrase: &str) -> Option<&'a str> {
    let mut rest = s.trim_start_matches(['¿', '¡']);
    for (k, word) in phrase.split(' ').enumerate() {
        if k > 0 {
            rest = rest.trim_start_matches(' ');
        }
        let end = rest.find([' ', ',', ':']).unwrap_or(rest.len());
        if fold(&rest[..end]) != word {
            return None;
        }
        rest = &rest[end..];
    }
    (rest.is_empty() || rest.starts_with([' ', ',', ':']))
        .then(|| rest.trim_start_matches([' ', ',', ':']))
}

/// Strips the first lead-in of [`LEADING_WRAPPERS`] `s` starts with; the
/// first word is folded once and only phrases starting with it are tried.
/// The table is scanned rather than indexed: a scan costs a few hundred
/// instructions, an index built on first use costs a process that runs
/// one command (`ask "git status"`) a hundred allocations.
fn strip_lead_in(s: &str) -> Option<&str> {
    let body = s.trim_start_matches(['¿', '¡']);
    let end = body.find([' ', ',', ':']).unwrap_or(body.len());
    let first = &body[..end];
    let folded;
    // Most requests start with a plain lower-case word: no copy.
    let first = if first.is_ascii() && first.bytes().all(|b| b.is_ascii_lowercase()) {
        first
    } else {
        folded = fold(first);
        folded.as_str()
    };
    let lead = *first.as_bytes().first()?;
    LEADING_WRAPPERS
        .iter()
        .filter(|p| {
            // One byte compared first: most phrases differ there.
            p.as_bytes().first() == Some(&lead)
                && p.strip_prefix(first)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
        .find_map(|p| strip_leading(s, p))
}

/// Strips `phrase` (compared case-insensitively, with any `?`, `!` or `.`
/// after it) from the end of `s`.
fn strip_trailing<'a>(s: &'a str, phrase: &str) -> Option<&'a str> {
    let s = s.trim_end_matches(['?', '!', '.']);
    let cut = s.len().checked_sub(phrase.len())?;
    let tail = s.get(cut..)?;
    let rest = &s[..cut];
    (tail.eq_ignore_ascii_case(phrase) && rest.ends_with([' ', ',']))
        .then(|| rest.trim_end_matches([' ', ',']))
}

/// Whether a word is only pictures (emoji), which no command takes.
fn pictures(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| !c.is_ascii() && !c.is_alphanumeric())
}

/// What is inside quotes or backticks that hold all of `s` (with `?`,
/// `!` or `.` after them).
fn unquote(s: &str) -> Option<&str> {
    let s = s.trim_end_matches(['?', '!', '.']).trim_end();
    let open = s.chars().next()?;
    let close = crate::shell::words::closing_quote(open)?;
    let inner = s.get(open.len_utf8()..s.len().checked_sub(close.len_utf8())?)?;
    (s.ends_with(close)
        && !inner.contains(open)
        && !inner.contains(close)
        && !inner.trim().is_empty())
    .then(|| inner.trim())
}

/// Characters that make a quoted command more than one simple command.
const SHELL_CHARS: &[char] = &[';', '&', '|', '<', '>', '$', '`', '(', ')', '{', '}', '\n'];

/// A whole request that is a command in quotes or backticks after a
/// lead-in ("ejecuta 'git status && git log'", "can you run `git push`?"):
/// the command, to be routed exactly as if it had been typed alone.
pub fn quoted_command(request: &str) -> Option<&str> {
    let quotes = |c: char| crate::shell::words::closing_quote(c).is_some();
    if !request.contains(quotes) {
        return None;
    }
    let mut s = request.trim();
    let mut lead_in = false;
    'outer: loop {
        if let Some(rest) = strip_lead_in(s) {
            if rest.is_empty() {
                return None;
            }
            s = rest;
            lead_in = true;
            continue 'outer;
        }
        for (w, needs_comma) in TRAILING_WRAPPERS {
            if let Some(rest) = strip_trailing(s, w) {
                if !needs_comma || s[rest.len()..].contains(',') {
                    s = rest;
                    continue 'outer;
                }
            }
        }
        break;
    }
    let inner = unquote(s).filter(|_| lead_in)?;
    parse_command(inner).map(|_| inner)
}

/// Removes politeness and "run" wrappers around a command line.
pub fn strip_wrappers(segment: &str) -> &str {
    let mut s = segment.trim();
    let mut lead_in = false;
    'outer: loop {
        if let Some(rest) = strip_lead_in(s) {
            if rest.is_empty() {
                return s;
            }
            s = rest;
            lead_in = true;
            continue 'outer;
        }
        for (w, needs_comma) in TRAILING_WRAPPERS {
            if let Some(rest) = strip_trailing(s, w) {
                let comma = s[rest.len()..].contains(',');
                if !needs_comma || comma {
                    s = rest;
                    continue 'outer;
                }
            }
        }
        // Emoji after a command ("git status 🙏"), unless an option takes
        // it as its value (`git commit -m 🎉`).
        if let Some((rest, last)) = s.rsplit_once(' ') {
            let before = rest.rsplit(' ').next().unwrap_or("");
            if pictures(last.trim_start_matches(',')) && !before.starts_with('-') {
                s = rest.trim_end_matches([' ', ',']);
                continue 'outer;
            }
        }
        // A simple command in quotes after a lead-in; one with chain or
        // shell characters is routed whole (`quoted_command`).
        if lead_in {
            if let Some(inner) = unquote(s).filter(|i| !i.contains(SHELL_CHARS)) {
                s = inner;
                continue 'outer;
            }
        }
        return s;
    }
}

fn is_assignment(w: &Word) -> Option<(String, String)> {
    let (name, value) = w.text.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then(|| (name.to_string(), value.to_string()))
}

fn clean_word(w: &str) -> String {
    fold(w.trim_end_matches(['.', ',', '!', '?', ';', ':']))
}

/// A line split: what lexing saw, `NAME=value` prefixes, the program word
/// and the words after it.
type Split = (Lexed, Vec<(String, String)>, Word, Vec<Word>);

/// Lexes `body` and splits it into its `NAME=value` prefixes, the program
/// word and the words after it; `None` when no program word is left.
fn split_line(body: &str) -> Option<Split> {
    let mut lexed = lex(body);
    let mut words = std::mem::take(&mut lexed.words);
    let mut assignments = Vec::new();
    while let Some(w) = words.first() {
        match is_assignment(w) {
            Some(a) if words.len() > 1 => {
                assignments.push(a);
                words.remove(0);
            }
            _ => break,
        }
    }
    if words.is_empty() {
        return None;
    }
    let first = words.remove(0);
    Some((lexed, assignments, first, words))
}

/// Returns the command line a segment holds, or `None` when it is prose.
///
/// A segment is a command line when its first word names a known program
/// (or a path to one) and the words after it read as arguments: flags,
/// paths, refs, short values or quoted strings, with no function words,
/// contractions or follow-on clauses.
pub fn parse_command(segment: &str) -> Option<CommandLine> {
    // Without a lead-in, stripping politeness only ever shortens the end:
    // the first word decides before any of it is done.
    let trimmed = segment.trim();
    if plainly_not_a_program(trimmed) && strip_lead_in(trimmed).is_none() {
        return None;
    }
    let body = strip_wrappers(segment);
    if plainly_not_a_program(body) {
        return None;
    }
    let (lexed, assignments, first, mut words) = split_line(body)?;
    let mut program = first.text.clone();
    if words.is_empty() {
        program = program.trim_end_matches(['.', '!', '?']).to_string();
    }
    let lower = program.to_lowercase();
    // "nice!", ":)": small talk, not the `nice` program or the `:` builtin.
    if words.is_empty()
        && !first.quoted
        && (super::chat::is_emoticon(&first.text)
            || (catalog::is_word(&lower) && super::chat::is_small_talk_word(&first.text)))
    {
        return None;
    }
    let shell_syntax = !first.quoted && lower.contains(['(', ')', '{', '}']);
    // `gіt` with a Cyrillic і is meant to look like git: a command line,
    // which the policy then refuses as an unknown program.
    let plain = if lower.is_ascii() {
        lower.clone()
    } else {
        skeleton(&lower)
    };
    let known = catalog::names_a_command(&lower)
        || (plain != lower && catalog::names_a_command(&plain))
        || lower.starts_with("mkfs.")
        || (!first.quoted && lower.contains('/') && !lower.contains(' '))
        || shell_syntax;
    if !known && assignments.is_empty() {
        return None;
    }
    if catalog::is_word(&lower) && !looks_like_arguments(&words) {
        return None;
    }
    // `git config KEY VALUE`: the value is a value whatever word it is
    // (`core.hooksPath no`).
    let config_line = lower == "git"
        && words.first().is_some_and(|w| w.text == "config")
        && words.get(1).is_some_and(|w| {
            let (section, key) = w.text.split_once('.').unwrap_or(("", ""));
            !section.is_empty() && !key.is_empty() && !w.text.contains(' ')
        });
    if !config_line && is_prose(&mut words, lower == "git") {
        return None;
    }
    let program = if catalog::names_a_command(&lower) {
        lower
    } else {
        program
    };
    Some(CommandLine {
        assignments,
        program,
        args: words,
        lexed,
        text: body.to_string(),
    })
}

/// Returns the command line a model's `ShellCommand` holds. A model's
/// command is always meant as a command: no polite wrappers are stripped
/// and no prose heuristics apply; the first word is the program, and the
/// policy refuses it when it is not on the allow-list.
pub fn parse_agent_command(segment: &str) -> Option<CommandLine> {
    let (lexed, assignments, first, words) = split_line(segment.trim())?;
    let lower = first.text.to_lowercase();
    let program = if catalog::names_a_command(&lower) {
        lower
    } else {
        first.text.clone()
    };
    Some(CommandLine {
        assignments,
        program,
        args: words,
        lexed,
        text: segment.trim().to_string(),
    })
}

/// Decides whether the words after a program are prose; strips a trailing
/// `.`, `!` or `?` from the last word when they are not.
fn is_prose(words: &mut [Word], git: bool) -> bool {
    let n = words.len();
    let mut has_question_word = false;
    // Function words after an option are its values or operands
    // (`git clean -fdx -e it`, `grep -c is`), not prose.
    let mut options_seen = false;
    for (i, w) in words.iter().enumerate() {
        if w.quoted {
            continue;
        }
        if w.contraction {
            return true;
        }
        let clean = clean_word(&w.text);
        has_question_word |= QUESTION_WORDS.contains(&clean.as_str());
        options_seen |= w.text.len() > 1 && w.text.starts_with('-');
        if !options_seen && PROSE_WORDS.contains(&clean.as_str()) {
            return true;
        }
        // The article "a" before another bare word ("a new branch"), but
        // not a lone operand named `a`.
        if !options_seen
            && clean == "a"
            && words.get(i + 1).is_some_and(|n| {
                !n.quoted && n.text.len() > 1 && n.text.chars().all(char::is_alphabetic)
            })
        {
            return true;
        }
        // A clause break: a word ending in `,` or `?` with more after it.
        // `-t,` and `-d,` are option values, and a lone `,` is an operand.
        let short_value = w.text.len() <= 3 && w.text.starts_with('-') && !w.text.starts_with("--");
        if i + 1 < n
            && w.text.len() > 1
            && !short_value
            && (w.text.ends_with(',') || w.text.ends_with('?'))
        {
            return true;
        }
    }
    if let Some(last) = words.last_mut() {
        if !last.quoted && last.text.len() > 1 && last.text.ends_with(['.', '!', '?']) {
            if last.text.ends_with('?') && has_question_word {
                return true;
            }
            let trimmed = last.text.trim_end_matches(['.', '!', '?']);
            // Punctuation after a sentence-like command (`Git status.`,
            // `git diff --stat?`), never after a value (`echo Done.`,
            // `git commit -m wip.`) or a path (`cd ..`).
            let subcommand = git && n == 1;
            if trimmed.ends_with(|c: char| c.is_alphanumeric())
                && (subcommand || trimmed.starts_with('-'))
            {
                last.text = trimmed.to_string();
                last.pattern = last.pattern.trim_end_matches(['.', '!', '?']).to_string();
                last.glob = last.text.contains(['*', '?', '[']);
            }
        }
    }
    false
}

/// Whether a request hides what it says: an invisible character, a
/// fullwidth form or a letter from another script that renders like a
/// Latin one, or a look-alike dash glued to a word (`‐D`, `—force`).
/// Prose in any script is fine; a disguise inside Latin words is not,
/// so level 1.5 leaves such a request to the model.
pub fn disguised(text: &str) -> bool {
    // Every disguise is a character outside ASCII.
    if text.is_ascii() {
        return false;
    }
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let glued_dash = lookalike::is_dash(c)
            && (chars.peek().is_some_and(|n| n.is_alphanumeric())
                || prev.is_some_and(|p| p.is_alphanumeric()));
        if glued_dash
            || lookalike::is_invisible(c)
            || lookalike::is_fullwidth(c)
            || lookalike::is_confusable(c)
        {
            return true;
        }
        prev = Some(c);
    }
    // A word mixing Latin letters with letters of another script.
    text.split_whitespace().any(|w| {
        w.chars().any(|c| c.is_ascii_alphabetic())
            && w.chars().any(|c| {
                c.is_alphabetic() && !c.is_ascii() && !('\u{00C0}'..='\u{024F}').contains(&c)
            })
    })
}

/// `word` with look-alike letters (and fullwidth forms) mapped to ASCII,
/// invisible characters dropped.
fn skeleton(word: &str) -> String {
    word.chars()
        .filter(|c| !lookalike::is_invisible(*c))
        .map(lookalike::latin)
        .collect()
}

/// Whether the line starts with a plain word (letters only, perhaps after
/// `¿` or `¡`, then a space or the end) that names no program level 1
/// knows, even read as the ASCII it may imitate: then it is not a command
/// line, exactly as [`parse_command`] would find after lexing — which, for
/// a request bound for the model, is most of the cost of routing it.
fn plainly_not_a_program(body: &str) -> bool {
    let first = body.split([' ', '\t']).next().unwrap_or("");
    let letters = first.trim_start_matches(['¿', '¡']);
    if letters.is_empty() || !letters.chars().all(char::is_alphabetic) {
        return false;
    }
    let names = catalog::names_a_command;
    if first.is_ascii() {
        return !names(&first.to_ascii_lowercase());
    }
    // The full reading keeps a leading `¿` or `¡`; without it the word is
    // checked too, which only ever sends more lines to the lexer.
    // `gіt` with a Cyrillic і is judged as the git it imitates.
    let lower = letters.to_lowercase();
    !names(&lower) && !names(&skeleton(&lower))
}

/// Whether `program` is on the policy's allow-list of programs.
fn is_allowed(program: &str) -> bool {
    crate::policy::utils::is_allowed(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrappers_are_stripped() {
        assert_eq!(strip_wrappers("please run git diff"), "git diff");
        assert_eq!(strip_wrappers("ejecuta git branch"), "git branch");
        assert_eq!(strip_wrappers("ok, git status, please"), "git status");
        assert_eq!(strip_wrappers("git status por favor"), "git status");
        // A bare trailing word may be an operand: never cut.
        assert_eq!(
            strip_wrappers("git config gc.pruneExpire now"),
            "git config gc.pruneExpire now"
        );
        assert_eq!(
            strip_wrappers("git commit -m please"),
            "git commit -m please"
        );
        assert_eq!(strip_wrappers("ok"), "ok");
    }

    #[test]
    fn the_early_exit_never_skips_a_program() {
        // Every program level 1 runs or names, in any case, is lexed and
        // judged; only a first word naming none skips the lexer.
        for p in catalog::command_names() {
            if !p.bytes().all(|b| b.is_ascii_alphabetic()) {
                continue;
            }
            for line in [
                format!("{p} x"),
                format!("{} -rf /", p.to_uppercase()),
                p.to_string(),
            ] {
                assert!(!plainly_not_a_program(&line), "{line}");
            }
        }
        for line in ["git push", "GIT push", "Git\tpush"] {
            assert!(!plainly_not_a_program(line), "{line}");
        }
        // Not plain letters: the lexer decides.
        for line in ["FOO=1 git push", "./run.sh", "$(x)", "\"git\" push"] {
            assert!(!plainly_not_a_program(line), "{line}");
        }
        // Letters that imitate a program's name are read as that name.
        for line in [
            "g\u{0456}t push",
            "\u{FF47}\u{FF49}\u{FF54} push",
            "¡git push",
            "rmd\u{0456}r x",
        ] {
            assert!(!plainly_not_a_program(line), "{line}");
        }
        for line in [
            "refactor the parser",
            "Explain src/router to me",
            "¿cómo hago un rebase interactivo sin perder cambios?",
            "Éxito total",
            // A Cyrillic м imitates nothing the lexer would map to `m`.
            "r\u{043C} -rf x",
        ] {
            assert!(plainly_not_a_program(line), "{line}");
            assert!(parse_command(line).is_none(), "{line}");
        }
    }

    #[test]
    fn prose_is_not_a_command() {
        for s in [
            "which test is failing?",
            "echo server in rust with tokio",
            "date parsing fails for ISO strings with offsets",
            "head of the linked list is null after remove()",
            "ls shows nothing in the src folder, why?",
            "git status says 'detached HEAD', what does that mean?",
            "gti status",
            "make the button blue",
            "run the tests and then commit",
        ] {
            assert!(parse_command(s).is_none(), "{s}");
        }
        for s in [
            "ls -la",
            "git diff --stat?",
            "Git status.",
            "npm install",
            "./deploy.sh",
        ] {
            assert!(parse_command(s).is_some(), "{s}");
        }
        let c = parse_command("git diff --stat?").unwrap();
        assert_eq!(c.args.last().unwrap().text, "--stat");
    }
}
