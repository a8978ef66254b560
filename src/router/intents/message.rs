//! The commit message a request states, and the words that frame it:
//! "with message …", "que diga …", "que el mensaje sea …", "message should
//! be …", "ponle …", "called …" (after a commit), a quote of any kind.
//!
//! A quoted message is taken whole, whatever it says; an unquoted one runs
//! to the end of the request, without the politeness after it, and holds
//! no word that would make the request something else: a condition, a
//! negation, a question or a further task ("with message wip if tests
//! pass" is not a commit of "wip if tests pass"; the model decides). The words
//! of the framing and the message are taken out of the request, so what is
//! left is parsed as if the message had never been there. Pure.

use crate::router::hash::FastMap as HashMap;
use std::sync::OnceLock;

use super::normalize::{slice, Tok};

/// How a framing may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// Anywhere.
    Any,
    /// Only right after a word meaning commit ("a commit called …").
    AfterCommit,
    /// Only before a quoted message ("commit it as 'wip'").
    QuotedOnly,
}

/// Framings before a message, folded.
#[rustfmt::skip]
const BEFORE: &[(&str, Use)] = &[
    ("with message", Use::Any), ("with the message", Use::Any), ("with a message", Use::Any),
    ("with commit message", Use::Any), ("with the commit message", Use::Any), ("with msg", Use::Any),
    ("with message", Use::Any), ("w message", Use::Any), ("w msg", Use::Any), ("w/message", Use::Any),
    ("using the message", Use::Any), ("using message", Use::Any), ("use the message", Use::Any),
    ("and the message", Use::Any), ("message", Use::QuotedOnly), ("message:", Use::Any), ("msg:", Use::Any),
    ("the message is", Use::Any), ("message is", Use::Any), ("the message should be", Use::Any),
    ("message should be", Use::Any), ("the commit message should be", Use::Any),
    ("the commit message is", Use::Any), ("and call it", Use::Any),
    ("call it", Use::Any), ("and name it", Use::Any), ("name it", Use::Any), ("titled", Use::AfterCommit),
    ("with the title", Use::Any), ("with title", Use::Any), ("entitled", Use::AfterCommit),
    ("saying", Use::Any), ("that says", Use::Any), ("which says", Use::Any), ("with the description", Use::Any),
    ("with description", Use::Any), ("-m", Use::Any), ("--message", Use::Any), ("called", Use::AfterCommit),
    ("named", Use::AfterCommit), ("as", Use::QuotedOnly), ("with the subject", Use::Any),
    ("and the message should be", Use::Any), ("the message being", Use::Any), ("the message will be", Use::Any),
    ("con el mensaje", Use::Any), ("con mensaje", Use::Any), ("con el msj", Use::Any), ("con msj", Use::Any),
    ("con un mensaje", Use::Any), ("mensaje:", Use::Any), ("el mensaje es", Use::Any),
    ("el mensaje que sea", Use::Any), ("que el mensaje sea", Use::Any), ("que el mensaje diga", Use::Any),
    ("el mensaje sea", Use::Any), ("y que el mensaje sea", Use::Any), ("cuyo mensaje sea", Use::Any),
    ("con la descripcion", Use::Any), ("con descripcion", Use::Any), ("con el texto", Use::Any),
    ("con el titulo", Use::Any), ("titulado", Use::AfterCommit), ("que diga", Use::Any), ("que dice", Use::Any),
    ("diciendo", Use::Any), ("que ponga", Use::Any), ("ponle", Use::Any), ("ponele", Use::Any),
    ("y ponle", Use::Any), ("y ponele", Use::Any), ("ponle de mensaje", Use::Any), ("y que diga", Use::Any),
    ("poniendo", Use::Any), ("con el comentario", Use::Any), ("con comentario", Use::Any),
    ("comentario:", Use::Any), ("msj:", Use::Any), ("con la nota", Use::Any), ("mensaje", Use::QuotedOnly),
    ("llamado", Use::AfterCommit), ("que se llame", Use::AfterCommit), ("y pone", Use::QuotedOnly),
    ("pone", Use::QuotedOnly), ("y ponle de mensaje", Use::Any), ("el mensaje:", Use::Any),
    ("con el mensaje:", Use::Any), ("de mensaje", Use::QuotedOnly), ("mensaje de commit:", Use::Any),
    ("con el mensaje de commit", Use::Any), ("message should say", Use::Any), ("should say", Use::Any),
    ("with the following message", Use::Any), ("with this message", Use::Any), ("use message", Use::Any),
    ("use the message", Use::Any), ("with comment", Use::Any), ("with the comment", Use::Any),
    ("with a comment", Use::Any), ("label it", Use::Any), ("and label it", Use::Any), ("title it", Use::Any),
    ("and title it", Use::Any), ("with note", Use::QuotedOnly), ("with the note", Use::QuotedOnly),
    ("using", Use::QuotedOnly), ("write", Use::QuotedOnly), ("and write", Use::QuotedOnly),
    ("set the message to", Use::Any), ("and set the message to", Use::Any), ("with the text", Use::QuotedOnly),
    ("with text", Use::QuotedOnly),
    ("con la leyenda", Use::Any), ("con el siguiente mensaje", Use::Any), ("con este mensaje", Use::Any),
    ("usando el mensaje", Use::Any), ("usando", Use::QuotedOnly), ("escribe", Use::QuotedOnly),
    ("y escribe", Use::QuotedOnly), ("pon", Use::QuotedOnly), ("y pon", Use::QuotedOnly),
    ("con el nombre", Use::AfterCommit), ("con nombre", Use::AfterCommit), ("with the name", Use::AfterCommit),
    ("should read", Use::Any), ("the message should read", Use::Any), ("message should read", Use::Any),
    ("use", Use::QuotedOnly), ("and use", Use::QuotedOnly), ("que diga:", Use::Any), ("el mensaje que diga", Use::Any), ("con el mensaje que diga", Use::Any),
];

/// Framings after a quoted message ("'wip' de mensaje").
const AFTER: &[&str] = &[
    "de mensaje",
    "como mensaje",
    "as message",
    "as the message",
    "as the commit message",
    "como mensaje del commit",
    "for the message",
    "para el mensaje",
];

/// Framings of the new message when amending, after "message" or
/// "commit": "to 'x'", "a 'x'", "por 'x'", "to say x".
const AMEND: &[&str] = &[
    "to say",
    "to read",
    "to",
    "into",
    "as",
    "a",
    "por",
    "para que diga",
    "que diga",
    "to be",
    "so it says",
    "so that it says",
    "que sea",
    "y que diga",
];

/// Words between a framing and a quoted message ("con mensaje de 'x'").
const CONNECTORS: &[&str] = &["de", "of", "como", "as", "being", "="];

/// Politeness that ends an unquoted message without being part of it.
const TRAILING: &[&str] = &[
    "and thanks",
    "y gracias",
    "muchas gracias",
    "please",
    "por favor",
    "porfa",
    "thanks",
    "thank you",
    "gracias",
    "porfis",
    "plis",
    "por fa",
    "ty",
];

/// Words that, inside an unquoted message, make the request a condition,
/// a negation, a question or a further task rather than a message: the
/// request goes to the model, which can ask. Folded.
#[rustfmt::skip]
const DOUBT: &[&str] = &[
    "if", "when", "whenever", "unless", "once", "until", "till", "after", "before", "but", "except", "only",
    "then", "don't", "do not", "not", "never", "without", "should", "would", "could", "maybe", "why", "how",
    "while", "because", "instead", "first", "afterwards", "provided", "as soon as", "in case",
    "si", "cuando", "pero", "excepto", "salvo", "solo", "solamente", "nomas", "luego", "despues", "antes",
    "hasta", "mientras", "no", "nunca", "sin", "deberia", "porque", "en cuanto", "apenas", "primero",
    "a menos que", "en caso de", "siempre que", "una vez que", "as long as", "so long as", "provided that",
    "assuming", "depending on", "or", "also", "maybe", "perhaps", "siempre y cuando", "con tal de que",
    "en caso de que", "a no ser que", "salvo que", "o bien", "quizas", "tal vez", "a lo mejor", "tambien",
];

/// Verbs that, after "and"/"y" in an unquoted message, are a further task
/// ("with message wip and run the tests"), not the message's words.
#[rustfmt::skip]
const TASKS: &[&str] = &[
    "run", "test", "deploy", "build", "release", "publish", "open", "merge", "tag", "switch", "stash", "revert",
    "reset", "delete", "remove", "check", "review", "create", "make", "do", "commit", "amend", "rebase",
    "pull", "fetch", "ship", "upload", "send", "tell", "show", "let", "notify", "close",
    "corre", "correr", "ejecuta", "ejecutar", "prueba", "despliega", "publica", "abre", "mergea", "haz",
    "hace", "crea", "borra", "elimina", "revisa", "avisa", "avisame", "dime", "muestra", "manda", "envia",
    "cierra", "lanza", "commitea", "sube",
];

/// Clauses that ask for a push after an unquoted message: they are the
/// request's, not the message's.
const PUSH_CLAUSES: &[&str] = &[
    "and push",
    "and push it",
    "then push",
    "and then push",
    "y push",
    "y haz push",
    "y subelo",
    "y sube",
    "y pushea",
    "y pushealo",
    "y luego push",
    "y sube los cambios",
    "but don't push",
    "but do not push",
    "and don't push",
    "don't push",
    "but don't push it",
    "but don't push yet",
    "without pushing",
    "pero no hagas push",
    "pero no lo subas",
    "y no hagas push",
    "sin hacer push",
    "sin pushear",
    "sin subirlo",
    "pero sin push",
];

/// The framings before a message by their first word, built on first
/// use.
fn by_first() -> &'static HashMap<&'static str, Vec<(&'static str, Use)>> {
    static INDEX: OnceLock<HashMap<&'static str, Vec<(&'static str, Use)>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: HashMap<&'static str, Vec<(&'static str, Use)>> = HashMap::default();
        for (p, u) in BEFORE {
            let first = p.split([' ', ':']).next().unwrap_or(p);
            map.entry(first).or_default().push((p, *u));
        }
        for p in AFTER {
            let first = p.split(' ').next().unwrap_or(p);
            map.entry(first).or_default();
        }
        map
    })
}

/// Whether `word` (folded) may start a framing of a message.
pub fn frames(word: &str) -> bool {
    by_first().contains_key(word)
}

/// Whether a framing of a message (an amend's included: "… to say x")
/// starts at `words[0]`; words are lower case, without punctuation.
pub fn frames_at(words: &[&str]) -> bool {
    let starts_here = |phrase: &str| {
        let mut n = 0;
        for (k, p) in phrase.split(' ').enumerate() {
            if words.get(k).copied() != Some(p.trim_end_matches(':')) {
                return false;
            }
            n += 1;
        }
        n > 0
    };
    let first = words.first().copied().unwrap_or_default();
    by_first()
        .get(first)
        .is_some_and(|ps| ps.iter().any(|(p, _)| starts_here(p)))
        || amend_by_first()
            .get(first)
            .is_some_and(|ps| ps.iter().any(|a| starts_here(a)))
}

/// The words that may follow an amend's anchor ([`AMEND`]) by their
/// first word: [`frames_at`] runs at every word of a long request, and
/// most words start none.
fn amend_by_first() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static INDEX: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: HashMap<&'static str, Vec<&'static str>> = HashMap::default();
        for p in AMEND {
            let first = p.split(' ').next().unwrap_or(p).trim_end_matches(':');
            map.entry(first).or_default().push(p);
        }
        map
    })
}

/// A message found in a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The message.
    pub text: String,
    /// The tokens of the framing and the message, to be left out of the
    /// request.
    pub from: usize,
    /// One past the last token taken.
    pub to: usize,
    /// Whether an unquoted message holds a word of doubt ([`DOUBT`],
    /// [`TASKS`] after "and", a question mark): the request is the
    /// model's.
    pub doubt: bool,
}

fn starts(toks: &[Tok], at: usize, phrase: &str) -> Option<usize> {
    let mut n = 0;
    for (k, word) in phrase.split(' ').enumerate() {
        let t = toks.get(at + k)?;
        if t.quoted {
            return None;
        }
        let (word, colon) = match word.strip_suffix(':') {
            Some(w) => (w, true),
            None => (word, false),
        };
        if t.norm != word || (colon && !t.colon) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// Whether a token means commit (the framings that need one).
fn is_commit(t: &Tok) -> bool {
    t.norm.starts_with("commit") || t.norm.starts_with("comit") || t.norm == "amend"
}

/// The unquoted message from token `at` to the end, without trailing
/// politeness, emoji or a closing period, and where it stops (a push
/// clause after it belongs to the request).
fn rest(toks: &[Tok], text: &str, at: usize) -> Option<(String, usize)> {
    let first = toks.get(at)?;
    let mut to = toks.len();
    // A push clause ends the message.
    'clauses: for i in at + 1..toks.len() {
        for c in PUSH_CLAUSES {
            if starts(toks, i, c).is_some_and(|n| {
                i + n == toks.len()
                    || toks[i + n..]
                        .iter()
                        .all(|t| TRAILING.contains(&t.norm.as_str()))
            }) {
                to = i;
                break 'clauses;
            }
        }
    }
    // Politeness after the message.
    while let Some(last) = to.checked_sub(1).filter(|&l| l > at) {
        let two = last
            .checked_sub(1)
            .filter(|&p| p > at)
            .map(|p| format!("{} {}", toks[p].norm, toks[last].norm));
        if two.as_deref().is_some_and(|t| TRAILING.contains(&t)) {
            to = last - 1;
        } else if TRAILING.contains(&toks[last].norm.as_str()) {
            to = last;
        } else {
            break;
        }
    }
    // The message runs to the end of its last word as typed: the closing
    // `)` of "$(x)" or "(wip)" is the message's, not punctuation.
    let last = toks[to - 1].end;
    let end = last
        + text[last..]
            .find(char::is_whitespace)
            .unwrap_or(text.len() - last);
    let raw = slice(text, first.start, end);
    let msg = raw
        .trim_end_matches(|c: char| {
            c == '.'
                || c == ','
                || c == '!'
                || c.is_whitespace()
                || (!c.is_alphanumeric() && !c.is_ascii())
        })
        .trim_start_matches([':', '=', ' ']);
    (!msg.is_empty()).then(|| (msg.to_string(), to))
}

/// Whether a word of four letters or more is one edit from a word of
/// [`DOUBT`] ("unles", "befor", "cuadno"): a mistyped condition is still
/// one, and words of doubt are never corrected into (see `index`).
fn mistyped_doubt(w: &str) -> bool {
    w.len() >= 4
        && DOUBT.iter().any(|d| {
            d.len() >= 4
                && !d.contains(' ')
                && crate::text::distance::osa(w.as_bytes(), d.as_bytes(), 1).is_some()
        })
}

/// Whether the unquoted message of tokens `at..to` (raw text `msg`) holds
/// a word that makes the request something other than a commit with it.
fn doubtful(toks: &[Tok], at: usize, to: usize, msg: &str) -> bool {
    if msg.contains(['?', '¿']) {
        return true;
    }
    let words = &toks[at..to.min(toks.len())];
    // Read as written and as normalised: a typo correction elsewhere in
    // the request ("long" → "log") must not hide "as long as".
    let written: Vec<String> = words.iter().map(|t| crate::text::fold(&t.orig)).collect();
    let normal: Vec<String> = words.iter().map(|t| t.norm.clone()).collect();
    [written, normal].iter().any(|ws| {
        ws.iter().enumerate().any(|(i, w)| {
            let next = ws.get(i + 1).map_or("", String::as_str);
            let two = format!("{w} {next}");
            let three = ws
                .get(i + 2)
                .map(|n| format!("{two} {n}"))
                .unwrap_or_default();
            DOUBT.contains(&w.as_str())
                || mistyped_doubt(w)
                || DOUBT.contains(&two.as_str())
                || DOUBT.contains(&three.as_str())
                || w.ends_with("n't")
                || (matches!(w.as_str(), "and" | "y" | "&" | "e") && TASKS.contains(&next))
                // "with message wip, run the tests": a task after a pause.
                || (words[i].pause && TASKS.contains(&next))
        })
    })
}

/// Whether a message would mean something else to a shell than it says:
/// a substitution (`$(…)`, backticks), a variable (`$HOME`, `${x}`) or
/// a line break. Taken literally it is not what the user meant; run, it
/// would run something: the request goes to the model.
pub fn shell_like(message: &str) -> bool {
    message.contains('`')
        || message.contains(char::is_control)
        || message.split('$').skip(1).any(|after| {
            after.starts_with(|c: char| {
                c == '(' || c == '{' || c == '_' || c.is_ascii_alphanumeric()
            })
        })
}

/// Finds the message a request states through a framing or after one,
/// the first framing winning.
pub fn find(toks: &[Tok], text: &str) -> Option<Found> {
    for i in 0..toks.len() {
        // "'wip' de mensaje", "'x' as the message".
        if toks[i].quoted {
            for a in AFTER {
                if let Some(n) = starts(toks, i + 1, a) {
                    return Some(Found {
                        text: toks[i].orig.clone(),
                        from: i,
                        to: i + 1 + n,
                        doubt: false,
                    });
                }
            }
            continue;
        }
        let Some(here) = by_first().get(toks[i].norm.as_str()) else {
            continue;
        };
        let mut framings: Vec<(usize, Use)> = here
            .iter()
            .filter_map(|(p, u)| starts(toks, i, p).map(|n| (n, *u)))
            .collect();
        // The longest framing first, and one that takes any message before
        // one that takes only a quote.
        framings.sort_by_key(|(n, u)| (std::cmp::Reverse(*n), *u == Use::QuotedOnly));
        for (n, how) in framings {
            if how == Use::AfterCommit && !(i > 0 && is_commit(&toks[i - 1])) {
                continue;
            }
            let mut next = i + n;
            // "con el mensaje que diga 'x'": a framing right after a
            // framing is framing too, never the message.
            while let Some(more) = by_first().get(toks.get(next).map_or("", |t| t.norm.as_str())) {
                let longest = more
                    .iter()
                    .filter(|(_, u)| *u != Use::AfterCommit)
                    .filter_map(|(p, u)| {
                        let k = starts(toks, next, p)?;
                        let quoted = toks.get(next + k).is_some_and(|t| t.quoted);
                        (*u == Use::Any || quoted).then_some(k)
                    })
                    .max();
                match longest {
                    Some(k) => next += k,
                    None => break,
                }
            }
            // "con mensaje de 'x'", "message of 'x'": a connector before
            // a quote is framing too.
            if toks
                .get(next)
                .is_some_and(|t| CONNECTORS.contains(&t.norm.as_str()))
                && toks.get(next + 1).is_some_and(|t| t.quoted)
            {
                next += 1;
            }
            match toks.get(next) {
                Some(q) if q.quoted => {
                    // "poniendo 'wip' como mensaje": the framing after it too.
                    let after = AFTER
                        .iter()
                        .filter_map(|a| starts(toks, next + 1, a))
                        .max()
                        .unwrap_or(0);
                    return Some(Found {
                        text: q.orig.clone(),
                        from: i,
                        to: next + 1 + after,
                        doubt: false,
                    });
                }
                Some(_) if how != Use::QuotedOnly => {
                    if let Some((text, to)) = rest(toks, text, next) {
                        let doubt = doubtful(toks, next, to, &text);
                        return Some(Found {
                            text,
                            from: i,
                            to,
                            doubt,
                        });
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Framings of an amend that are a bare preposition: after the word for
/// message they frame the new message ("change the message to fix typo"),
/// after the word for commit they may frame anything ("amend the last
/// commit to include app.py" amends content): then only a quote is one.
const BARE_AMEND: &[&str] = &["to", "into", "as", "a", "por"];

/// Finds the new message of an amend: a quote or the rest of the request
/// after "to", "a", "por", ":" following the words for message or commit
/// (`is_message` tells the former).
pub fn find_amend(
    toks: &[Tok],
    text: &str,
    is_anchor: impl Fn(&Tok) -> bool,
    is_message: impl Fn(&Tok) -> bool,
) -> Option<Found> {
    let anchor = toks.iter().rposition(is_anchor)?;
    // A quote after the anchor, framed.
    if let Some(q) = toks.iter().rposition(|t| t.quoted).filter(|&q| q > anchor) {
        if toks[q - 1].colon && q > anchor {
            return Some(Found {
                text: toks[q].orig.clone(),
                from: q,
                to: q + 1,
                doubt: false,
            });
        }
        for a in AMEND {
            let n = a.split(' ').count();
            if q >= n && q - n > anchor.saturating_sub(1) && starts(toks, q - n, a) == Some(n) {
                return Some(Found {
                    text: toks[q].orig.clone(),
                    from: q - n,
                    to: q + 1,
                    doubt: false,
                });
            }
        }
        return None;
    }
    if toks[anchor].colon {
        let (text, to) = rest(toks, text, anchor + 1)?;
        let doubt = doubtful(toks, anchor + 1, to, &text);
        return Some(Found {
            text,
            from: anchor + 1,
            to,
            doubt,
        });
    }
    let at = anchor + 1;
    let (framing, best) = AMEND
        .iter()
        .filter_map(|a| starts(toks, at, a).map(|n| (*a, n)))
        .max_by_key(|(_, n)| *n)?;
    let (text, to) = rest(toks, text, at + best)?;
    let bare = BARE_AMEND.contains(&framing) && !is_message(&toks[anchor]);
    let doubt = bare || doubtful(toks, at + best, to, &text);
    Some(Found {
        text,
        from: at,
        to,
        doubt,
    })
}

#[cfg(test)]
mod tests {
    use super::super::normalize::tokens;
    use super::*;

    fn msg(s: &str) -> Option<String> {
        find(&tokens(s), s).map(|f| f.text)
    }

    #[test]
    fn messages_from_every_framing() {
        for (request, message) in [
            ("commit with message \"fix && git push\"", "fix && git push"),
            (
                "Commit everything with the message: update dependencies",
                "update dependencies",
            ),
            (
                "haz commit con el mensaje «corrige el login»",
                "corrige el login",
            ),
            (
                "haz commit que diga ya funciona el login porfa",
                "ya funciona el login",
            ),
            (
                "haz un commit que el mensaje sea \"versión 2\"",
                "versión 2",
            ),
            ("haz commit y ponle 'v1 lista'", "v1 lista"),
            ("commit, message should be \"add tests\"", "add tests"),
            ("make a commit called \"hotfix\"", "hotfix"),
            ("haz commit llamado “refactor”", "refactor"),
            ("haz commit poniendo 'wip' como mensaje", "wip"),
            (
                "commit with message fix the build and push",
                "fix the build",
            ),
            ("commit -m \"wip\"", "wip"),
            ("commit with message „low quotes“", "low quotes"),
            ("commit with message fix bug, thanks", "fix bug"),
        ] {
            assert_eq!(msg(request).as_deref(), Some(message), "{request}");
        }
        // A condition, a question or a task in an unquoted message makes
        // the request the model's; quoted, it is the message.
        for request in [
            "commit with message wip if tests pass",
            "commit with message wip as long as tests pass",
            "commit with message wip, run the tests",
            "commit with message wip and deploy",
            "haz commit con el mensaje listo si compila",
            "commit with message done?",
            "commit with message wip unles tests fail",
        ] {
            let f = find(&tokens(request), request).expect(request);
            assert!(f.doubt, "{request}");
        }
        let quoted = "commit with message 'wip if tests pass'";
        assert!(!find(&tokens(quoted), quoted).expect("quoted").doubt);
        // "called" frames a message only after a commit.
        assert_eq!(msg("create a branch called feature"), None);
        assert_eq!(msg("commit message should mention the ticket"), None);
    }
}
