//! Level 1.5: natural-language git intents, in English and Spanish, mapped
//! to fixed git sequences without any model.
//!
//! Every template must match the *whole* request (after politeness,
//! greetings and the commit message are set aside), so anything with a
//! condition, a scope, a negation or a task attached falls through to the
//! model instead of running a guess.

use std::collections::HashSet;
use std::sync::{LazyLock, OnceLock};

use regex::Regex;
use serde::Serialize;

use super::lex::closing_quote;
use super::Risk;
use crate::text::{fold, within_one_edit};

/// One of the fixed git sequences level 1.5 knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Stage everything and commit.
    Commit,
    /// `git init`, then stage everything and commit.
    InitCommit,
    /// `git status`.
    Status,
    /// `git log`.
    Log,
    /// `git show HEAD`.
    ShowLast,
    /// `git switch -c NAME`.
    BranchCreate,
    /// `git switch NAME`.
    BranchSwitch,
    /// `git branch`.
    BranchList,
    /// `git stash push`.
    Stash,
    /// `git reset --soft HEAD~1`.
    UndoCommit,
    /// Dropping uncommitted work: always blocked.
    Discard,
    /// `git push`: always blocked.
    Push,
}

impl Intent {
    /// Returns the intent's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Intent::Commit => "commit",
            Intent::InitCommit => "init_commit",
            Intent::Status => "status",
            Intent::Log => "log",
            Intent::ShowLast => "show_last",
            Intent::BranchCreate => "branch_create",
            Intent::BranchSwitch => "branch_switch",
            Intent::BranchList => "branch_list",
            Intent::Stash => "stash",
            Intent::UndoCommit => "undo_commit",
            Intent::Discard => "discard",
            Intent::Push => "push",
        }
    }
}

/// A matched composite intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composite {
    /// Which intent matched.
    pub intent: Intent,
    /// The risk of the sequence.
    pub risk: Risk,
    /// The stated commit message, if any.
    pub message: Option<String>,
    /// The branch named by branch intents.
    pub branch: Option<String>,
    /// Whether the sequence includes a commit (commit, init + commit, and
    /// "commit and push").
    pub with_commit: bool,
}

/// Greetings, politeness and "now" that may precede a request; stripped
/// word by word before matching ("gracias, ahora haz el commit").
const LEADING: &[&[&str]] = &[
    &["thank", "you"],
    &["thanks"],
    &["thx"],
    &["gracias"],
    &["ok"],
    &["okay"],
    &["vale"],
    &["hola"],
    &["hi"],
    &["hello"],
    &["hey"],
    &["oye"],
    &["bueno"],
    &["perfect"],
    &["perfecto"],
    &["great"],
    &["genial"],
    &["good"],
    &["bien"],
    &["listo"],
    &["now"],
    &["ahora"],
    &["so"],
    &["then"],
    &["entonces"],
    &["and"],
    &["y"],
    &["please"],
    &["pls"],
    &["plz"],
    &["por", "favor"],
    &["porfa"],
    &["just"],
    &["go", "ahead", "and"],
];

/// Ways of asking ("can you …", "¿puedes …?"), at most one, after the above.
const REQUEST_FORMS: &[&[&str]] = &[
    &["can", "you", "please"],
    &["could", "you", "please"],
    &["would", "you", "please"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["puedes", "por", "favor"],
    &["puedes"],
    &["podrias"],
    &["podes"],
    &["podria"],
    &["puede"],
    &["i", "want", "you", "to"],
    &["i", "need", "you", "to"],
    &["i", "want", "to"],
    &["i", "need", "to"],
    &["i'd", "like", "you", "to"],
    &["i'd", "like", "to"],
    &["let's"],
    &["lets"],
    &["quiero", "que"],
    &["quiero"],
    &["necesito", "que"],
    &["necesito"],
    &["please"],
    &["por", "favor"],
];

/// Politeness and time words that may follow a request.
const TRAILING: &[&[&str]] = &[
    &["please"],
    &["pls"],
    &["plz"],
    &["por", "favor"],
    &["porfa"],
    &["por", "fa"],
    &["for", "me"],
    &["right", "now"],
    &["now"],
    &["ahora"],
    &["ya"],
    &["thank", "you"],
    &["thanks"],
    &["gracias"],
    &["asap"],
    &["then"],
    &["entonces"],
    &["too"],
    &["tambien"],
];

/// Returns the range of `tokens` left after removing leading greetings, one
/// request form and trailing politeness.
fn core_range(tokens: &[String]) -> std::ops::Range<usize> {
    let starts = |at: usize, phrase: &[&str]| {
        tokens.len() >= at + phrase.len() && phrase.iter().zip(&tokens[at..]).all(|(p, t)| p == t)
    };
    let mut start = 0;
    while let Some(p) = LEADING.iter().find(|p| starts(start, p)) {
        start += p.len();
    }
    if let Some(p) = REQUEST_FORMS.iter().find(|p| starts(start, p)) {
        start += p.len();
    }
    let mut end = tokens.len();
    while end > start {
        let Some(p) = TRAILING
            .iter()
            .find(|p| p.len() <= end - start && starts(end - p.len(), p))
        else {
            break;
        };
        end -= p.len();
    }
    start..end
}

const COMMIT: &str = r"(?:(?:do|make|create|run|perform)\s+(?:the\s+|a\s+|an\s+|my\s+)?(?:git\s+)?commit(?:\s+(?:of|with)\s+(?:everything|all(?:\s+(?:the|my))?\s+changes|all))?|(?:stage\s+(?:and|&)\s+commit|add\s+(?:and|&)\s+commit|commit)(?:\s+(?:it\s+all|everything|all|it|this|that|them|these|those|(?:all\s+)?(?:of\s+)?(?:the|my|our|these)\s+(?:changes|work|files|edits|stuff)|all\s+(?:changes|files)))?(?:\s+(?:to|in|into)\s+git)?|save\s+(?:(?:all\s+)?(?:the|my|our)\s+|all\s+)?(?:changes|work|progress|everything|edits)\s+(?:to|in|into)\s+(?:git|the\s+repo(?:sitory)?)|(?:haz|hazme|haga|hagamos|hacer|realiza|realizame|crea|creame|genera|mete|lanza)\s+(?:el\s+|un\s+|los\s+|una\s+)?(?:git\s+)?commits?(?:\s+de\s+(?:todo|todos\s+los\s+cambios|(?:los|mis)\s+cambios))?|(?:commitea|commitear|commiteame|commitealo|comitea|comitear)(?:\s+(?:todo|todos\s+los\s+cambios|(?:los|mis)\s+cambios|esto|eso))?|(?:guarda|guardar|guardame|salva)\s+(?:todos\s+)?(?:los\s+|mis\s+)?cambios\s+en\s+(?:git|el\s+repo(?:sitorio)?)|guarda\s+todo\s+en\s+git)";

const NO_PUSH: &str = r"(?:\s+(?:but|pero)\s+(?:don't|dont|do\s+not|no)\s+(?:push|(?:lo\s+)?subas|hagas\s+push|(?:lo\s+)?empujes)(?:\s+(?:it|yet|todavia|aun))?)?";

const PUSH: &str = r"(?:(?:force[ -]?push|push(?:\s+(?:--force|-f|force))?|(?:do|make)\s+(?:a|the)\s+(?:force[ -]?)?push)(?:\s+(?:it|everything|all|them|(?:the|my|our|all|all\s+the|all\s+my)\s+(?:changes|commits?|work|branch)|this\s+branch))?(?:\s+(?:up\s+)?to\s+(?:origin|the\s+remote|remote|github|gitlab|the\s+server|upstream)(?:\s+[a-zA-Z0-9_./-]+)?)?|(?:(?:haz|hazme|hacer)\s+(?:el\s+|un\s+)?push|sube|subir|subeme|subelo|empuja|pushea|pushear)(?:\s+(?:todo|los\s+cambios|mis\s+cambios|el\s+commit|los\s+commits|la\s+rama|esta\s+rama|lo))?(?:\s+a\s+(?:origin|github|gitlab|remoto|el\s+remoto))?)";

const AND: &str =
    r"\s+(?:and|&|y|then|and\s+then|y\s+luego|luego|despues)\s+(?:(?:then|luego|also|tambien)\s+)?";

const INIT: &str = r"(?:(?:(?:do|run|make)\s+(?:the\s+|a\s+)?)?git\s+init|init(?:ialize|ialise)?(?:\s+(?:a|the|an))?(?:\s+new)?(?:\s+git)?\s+(?:repo|repository)(?:\s+here)?|init(?:ialize|ialise)?\s+git(?:\s+here)?|init|(?:haz|hazme|hacer)\s+(?:el\s+|un\s+)?git\s+init|inicializa(?:r)?\s+(?:el\s+|un\s+)?(?:nuevo\s+)?(?:repo|repositorio)(?:\s+(?:de\s+)?git)?(?:\s+aqui)?|inicializa(?:r)?\s+git(?:\s+aqui)?|crea(?:r)?\s+(?:el|un)\s+(?:repo|repositorio)(?:\s+(?:de\s+)?git)?(?:\s+aqui)?)";

const NAME: &str = r"(\S+)";

struct Template {
    intent: Intent,
    risk: Risk,
    /// Substrings one of which every match contains: templates without any
    /// are skipped, so most requests compile few or no regexes at all.
    keys: &'static [&'static str],
    src: String,
    /// Compiled on first use: the set below decides which templates match,
    /// so usually only one of these is ever built in a process.
    re: OnceLock<Regex>,
}

impl Template {
    /// Whether the template's sequence includes a commit.
    fn commits(&self) -> bool {
        matches!(self.intent, Intent::Commit | Intent::InitCommit)
            || (self.intent == Intent::Push && self.src.contains(&ascii(COMMIT)))
    }

    fn regex(&self) -> &Regex {
        self.re
            .get_or_init(|| Regex::new(&self.src).expect("composite templates are valid regexes"))
    }
}

/// Rewrites a template for the tokenised text, whose words are separated by
/// exactly one ASCII space: Unicode whitespace classes would only make the
/// automata larger and slower to build.
fn ascii(src: &str) -> String {
    src.replace(r"\s+", " ")
        .replace(r"\s*", " ?")
        .replace(r"\S+", "[^ ]+")
        .replace(r"\w", "[a-zA-Z0-9_]")
}

fn template(intent: Intent, risk: Risk, keys: &'static [&'static str], body: &str) -> Template {
    Template {
        intent,
        risk,
        keys,
        src: ascii(&format!("^(?:{body})$")),
        re: OnceLock::new(),
    }
}

static TEMPLATES: LazyLock<Vec<Template>> = LazyLock::new(|| {
    use Intent::*;
    use Risk::*;
    vec![
        template(
            InitCommit,
            LocalWrite,
            &["init", "inicializ", "repo"],
            &format!("{INIT}{AND}{COMMIT}"),
        ),
        template(
            Push,
            Destructive,
            &["push"],
            &format!(
                "{COMMIT}{AND}(?:force[ -]?push|push\\s+(?:--force|-f|force))(?:\\s+\\S+){{0,3}}"
            ),
        ),
        template(
            Push,
            Remote,
            &["push", "sube", "subi", "empuja"],
            &format!("{COMMIT}{AND}{PUSH}"),
        ),
        template(
            Push,
            Destructive,
            &["push"],
            r"(?:force[ -]?push|push\s+(?:--force|-f|force)|(?:do|make)\s+a\s+force[ -]?push)(?:\s+(?:it|everything|all|the\s+changes|my\s+changes|this\s+branch))?(?:\s+to\s+\S+(?:\s+\S+)?)?",
        ),
        template(Push, Remote, &["push", "sube", "subi", "empuja"], PUSH),
        template(
            UndoCommit,
            Destructive,
            &[
                "undo", "desha", "quita", "elimina", "borra", "remove", "drop", "delete",
            ],
            r"(?:undo|remove|drop|delete)\s+(?:the\s+|my\s+)?(?:last|latest|previous)\s+commit\s*,?\s+(?:and|y)\s+(?:throw\s+away|discard|delete|drop|lose|remove|get\s+rid\s+of|wipe|destroy)\s+(?:its|the|my|all|all\s+the|all\s+my|all\s+its)?\s*changes|(?:deshaz|deshacer|quita|elimina|borra)\s+(?:el\s+)?ultimo\s+commit\s+(?:y\s+)?(?:descarta|borra|elimina|tira|pierde|bota)\s+(?:sus\s+|los\s+|mis\s+|todos\s+los\s+)?cambios",
        ),
        template(
            UndoCommit,
            LocalWrite,
            &[
                "undo",
                "uncommit",
                "take back",
                "desha",
                "quita",
                "elimina",
                "borra",
                "remove",
                "drop",
                "delete",
            ],
            r"(?:undo|uncommit|take\s+back)\s+(?:the\s+|my\s+|that\s+)?(?:last|latest|previous)\s+commit(?:\s*,?\s+(?:but|and)\s+keep\s+(?:my\s+|the\s+|its\s+|all\s+the\s+|all\s+my\s+)?changes)?|(?:remove|drop|delete)\s+(?:the\s+|my\s+)?(?:last|latest|previous)\s+commit\s*,?\s+(?:but|and)\s+keep\s+(?:my\s+|the\s+|its\s+|all\s+the\s+|all\s+my\s+)?changes|uncommit|(?:deshaz|deshacer|deshaga)\s+(?:el\s+|mi\s+)?ultimo\s+commit(?:\s+(?:pero\s+)?(?:y\s+)?(?:manten|mantener|manteniendo|conserva|conservar|conservando|sin\s+perder)\s+(?:mis|los)\s+cambios)?|(?:quita|elimina|borra)\s+(?:el\s+|mi\s+)?ultimo\s+commit\s+(?:pero\s+)?(?:manten|mantener|manteniendo|conserva|conservando|sin\s+perder)\s+(?:mis|los)\s+cambios",
        ),
        template(
            Discard,
            Destructive,
            &["chang", "edit", "modif", "work", "everything", "cambio"],
            r"(?:discard|throw\s+away|drop|delete|remove|lose|get\s+rid\s+of|wipe|nuke|undo|reset|trash|toss)\s+(?:all\s+)?(?:of\s+)?(?:my\s+|the\s+|our\s+|these\s+|all\s+)?(?:local\s+|uncommitted\s+|unstaged\s+)?(?:changes|edits|modifications|work)|(?:reset|clean)\s+everything|(?:descarta|descartar|borra|borrar|elimina|eliminar|tira|deshaz|deshacer|quita|pierde)\s+(?:todos\s+)?(?:mis|los)\s+cambios(?:\s+(?:locales|sin\s+commitear|no\s+guardados))?",
        ),
        template(
            Commit,
            LocalWrite,
            &["commit", "save", "guard", "salva"],
            &format!("{COMMIT}{NO_PUSH}"),
        ),
        template(
            Stash,
            LocalWrite,
            &[
                "stash", "aside", "temporar", "temporal", "later", "aparta", "despues", "luego",
                "momento", "ahora",
            ],
            r"stash(?:\s+(?:it|everything|all|(?:all\s+)?(?:of\s+)?(?:my|the|our|these)\s+(?:changes|work|edits|stuff)|(?:my\s+)?(?:changes|work)))?(?:\s+(?:for\s+now|for\s+later|temporarily))?|(?:do|make)\s+a\s+stash|(?:put|save|set)\s+(?:my\s+|the\s+)?(?:changes|work)\s+(?:aside|in\s+the\s+stash|on\s+the\s+stash|temporarily|for\s+later)|(?:guarda|guardar|guardame)\s+(?:todos\s+)?(?:mis|los)\s+cambios\s+(?:temporalmente|para\s+despues|para\s+luego|en\s+el\s+stash|en\s+stash|por\s+ahora|de\s+momento)|(?:haz|hazme)\s+(?:un\s+)?stash(?:\s+de\s+(?:mis|los)\s+cambios)?|(?:stashea|stashear)(?:\s+(?:mis|los)\s+cambios)?|aparta\s+(?:mis|los)\s+cambios",
        ),
        template(
            BranchCreate,
            LocalWrite,
            &["branch", "rama"],
            &format!(
                r"(?:create|make|start|open|add)\s+(?:a\s+|the\s+)?(?:new\s+)?branch\s+(?:called\s+|named\s+)?{NAME}|new\s+branch\s+(?:called\s+|named\s+)?{NAME}|(?:crea|creame|haz|hazme|abre)\s+(?:una\s+|la\s+)?(?:nueva\s+)?rama\s+(?:nueva\s+)?(?:llamada\s+|con\s+(?:el\s+)?nombre\s+|de\s+nombre\s+)?{NAME}|nueva\s+rama\s+(?:llamada\s+)?{NAME}"
            ),
        ),
        template(
            BranchSwitch,
            LocalWrite,
            &[
                "switch",
                "checkout",
                "check out",
                "branch",
                "rama",
                "cambiate",
                "pasate",
            ],
            &format!(
                r"(?:switch|checkout|check\s+out)\s+(?:to\s+)?(?:the\s+)?(?:branch\s+)?{NAME}(?:\s+branch)?|(?:go|move|change|jump)\s+(?:back\s+)?to\s+(?:the\s+)?(?:branch\s+{NAME}|{NAME}\s+branch)|(?:cambiate|cambia|cambiar|muevete|ve|vete|pasate|salta|regresa|vuelve)\s+a\s+(?:la\s+)?rama\s+{NAME}|(?:cambiate|pasate)\s+a\s+{NAME}|(?:haz\s+)?checkout\s+(?:a\s+)?(?:la\s+rama\s+)?{NAME}"
            ),
        ),
        template(
            BranchList,
            ReadOnly,
            &["branch", "rama"],
            r"(?:which|what)\s+branch\s+(?:am\s+i\s+(?:on|in)|are\s+we\s+(?:on|in)|is\s+(?:this|checked\s+out|active|current))|what(?:'s|\s+is)\s+(?:the|my)\s+current\s+branch|(?:current|active)\s+branch|(?:list|show)(?:\s+me)?\s+(?:all\s+)?(?:the\s+|my\s+)?(?:local\s+)?branches|(?:what|which)\s+branches\s+(?:are\s+there|exist|do\s+(?:we|i)\s+have)|branches|en\s+que\s+rama\s+(?:estoy|estamos)|(?:cual|que)\s+es\s+la\s+rama\s+actual|(?:la\s+)?rama\s+actual|(?:lista|listar|muestra|muestrame|ensename|ver)\s+(?:las\s+|todas\s+las\s+|mis\s+)?ramas|que\s+ramas\s+hay",
        ),
        template(
            ShowLast,
            ReadOnly,
            &["last", "latest", "ultimo", "recent", "previous"],
            r"(?:show|see|display|view)(?:\s+me)?\s+(?:the\s+|my\s+)?(?:last|latest|most\s+recent|previous)\s+commit|what\s+(?:was|is)\s+(?:the\s+|my\s+)?(?:last|latest|most\s+recent)\s+commit|what's\s+(?:the\s+|my\s+)?(?:last|latest|most\s+recent)\s+commit|(?:last|latest)\s+commit|(?:cual|que)\s+(?:fue|es)\s+el\s+ultimo\s+commit|(?:muestra|muestrame|ensename|ver|dame)\s+el\s+ultimo\s+commit|(?:el\s+)?ultimo\s+commit",
        ),
        template(
            Log,
            ReadOnly,
            &["log", "histor", "commits"],
            r"(?:show|see|display|view|print|give)(?:\s+me)?\s+(?:the\s+)?(?:git\s+|commit\s+)?(?:log|history)(?:\s+of\s+commits)?|(?:show|see|view)(?:\s+me)?\s+(?:the\s+)?(?:recent\s+|latest\s+|last\s+)?commits|(?:commit|git)\s+(?:log|history)|log|(?:muestra|muestrame|ensename|ver|dame|mostrar)\s+(?:el\s+)?(?:historial|log)(?:\s+de\s+(?:los\s+)?commits)?|historial\s+de\s+commits|(?:muestra|muestrame|ensename|ver)\s+(?:los\s+)?(?:ultimos\s+)?commits",
        ),
        template(
            Status,
            ReadOnly,
            &["chang", "status", "cambi", "estado", "archivos"],
            r"what(?:'s|\s+has|\s+have|\s+is)?\s+(?:been\s+)?changed(?:\s+(?:here|so\s+far|since\s+the\s+last\s+commit|in\s+the\s+repo(?:sitory)?))?|what\s+(?:did|have)\s+i\s+changed?(?:\s+so\s+far)?|(?:what|which)\s+files\s+(?:have\s+)?changed|(?:show|give|tell)(?:\s+me)?\s+(?:the\s+)?(?:repo|repository|git|working\s+tree)\s+status|(?:show|give|tell)(?:\s+me)?\s+(?:the\s+)?status\s+of\s+(?:the\s+)?(?:repo|repository|working\s+tree)|(?:(?:repo|repository|git)\s+)?status|what(?:'s|\s+is)\s+the\s+(?:repo|repository|git)\s+status|(?:are\s+there\s+)?any\s+(?:uncommitted\s+)?changes|que\s+(?:ha\s+|han\s+)?cambi(?:o|ado|aron)(?:\s+en\s+el\s+repo(?:sitorio)?)?|que\s+cambios\s+hay|(?:muestra|muestrame|ensename|dame|ver)\s+(?:el\s+)?estado\s+del\s+(?:repo|repositorio)|estado\s+del\s+(?:repo|repositorio)|(?:que|cuales)\s+archivos\s+(?:han\s+)?cambi(?:aron|ado)",
        ),
    ]
});

/// Words the templates are written in; typo correction maps unknown words
/// onto these and never away from them.
static VOCABULARY: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let mut set: HashSet<String> = HashSet::new();
    let phrases = LEADING.iter().chain(REQUEST_FORMS).chain(TRAILING);
    for w in phrases.flat_map(|p| p.iter()).filter(|w| w.len() >= 5) {
        set.insert(w.to_string());
    }
    for src in TEMPLATES.iter().map(|t| t.src.as_str()) {
        for word in src.split(|c: char| !(c.is_ascii_lowercase() || c == '\'')) {
            if word.len() >= 5 {
                set.insert(word.to_string());
            }
        }
    }
    for extra in ["commits", "changes", "stash", "branch"] {
        set.insert(extra.to_string());
    }
    set
});

/// The vocabulary grouped by length, so a correction only looks at words
/// one letter shorter, as long, or one longer.
static VOCABULARY_BY_LEN: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    let mut by_len: Vec<Vec<String>> = Vec::new();
    for w in VOCABULARY.iter() {
        if by_len.len() <= w.len() {
            by_len.resize(w.len() + 1, Vec::new());
        }
        by_len[w.len()].push(w.clone());
    }
    for bucket in &mut by_len {
        bucket.sort();
    }
    by_len
});

static MESSAGE_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:[,;] ?)?(?:(?-u:\b)(?:with|and|using|w/|con|y|usando) )?(?:(?:the|a|this|el|un|este) )?(?:commit )?(?-u:\b)(?:message|msg|mensaje)(?-u:\b)(?: (?:de commit|of))? ?[:=]? ?|(?:^| )-m ")
        .expect("static regex")
});

/// Fixes common typos of the template words (`teh`, `comit`, `has el`).
fn correct(tokens: &mut [String]) {
    for i in 0..tokens.len() {
        let t = tokens[i].as_str();
        let fixed = match t {
            "teh" | "hte" | "th" => Some("the".to_string()),
            "has" | "hace" | "hacé" => {
                let next = tokens.get(i + 1).map(String::as_str);
                matches!(
                    next,
                    Some("el" | "un" | "commit" | "git" | "push" | "stash")
                )
                .then(|| "haz".to_string())
            }
            _ if t.len() >= 5
                && t.chars().all(|c| c.is_alphabetic())
                && !VOCABULARY.contains(t) =>
            {
                let lens = t.len().saturating_sub(1)..=t.len() + 1;
                let mut best = lens
                    .filter_map(|l| VOCABULARY_BY_LEN.get(l))
                    .flatten()
                    .filter(|v| v.len() >= 5 && within_one_edit(t, v));
                match (best.next(), best.next()) {
                    (Some(only), None) => Some(only.clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(f) = fixed {
            tokens[i] = f;
        }
    }
}

/// Splits text into matchable tokens: folded and edge-trimmed for matching,
/// and edge-trimmed originals for captures (branch names keep their case).
fn tokens(text: &str) -> (Vec<String>, Vec<String>) {
    const LEAD: &[char] = &['¿', '¡', '"', '\'', '“', '”', '‘', '’', '«', '»', '(', '`'];
    const TRAIL: &[char] = &[
        '?', '!', '.', ',', ';', ':', '"', '\'', '“', '”', '‘', '’', '»', ')', '`', '¿', '¡',
    ];
    let mut folded = Vec::new();
    let mut original = Vec::new();
    for raw in text.split_whitespace() {
        let t = raw.trim_start_matches(LEAD).trim_end_matches(TRAIL);
        if t.is_empty() {
            continue;
        }
        folded.push(fold(t));
        original.push(t.to_string());
    }
    correct(&mut folded);
    (folded, original)
}

/// Removes the commit message from a request and returns both.
pub fn extract_message(text: &str) -> (String, Option<String>) {
    let lower = text.to_ascii_lowercase();
    let has_marker = ["message", "msg", "mensaje", "-m "]
        .iter()
        .any(|m| lower.contains(m));
    if let Some(m) = has_marker.then(|| MESSAGE_MARKER.find(text)).flatten() {
        let after = &text[m.end()..];
        let (message, rest) = match quoted_prefix(after) {
            Some((msg, rest)) => (
                msg,
                rest.trim_start_matches(['.', '!', '?', ',']).to_string(),
            ),
            None => (
                after.trim().trim_end_matches(['.']).to_string(),
                String::new(),
            ),
        };
        if !message.trim().is_empty() {
            let remaining = format!("{} {}", &text[..m.start()], rest);
            return (remaining.trim().to_string(), Some(message));
        }
    }
    if let Some((start, msg, end)) = first_quoted(text) {
        let remaining = format!("{} {}", &text[..start], &text[end..]);
        return (remaining.trim().to_string(), Some(msg));
    }
    (text.to_string(), None)
}

fn quoted_prefix(s: &str) -> Option<(String, String)> {
    let first = s.chars().next()?;
    let close = closing_quote(first).filter(|_| first != '`')?;
    let body = &s[first.len_utf8()..];
    let end = body.find(close)?;
    Some((
        body[..end].to_string(),
        body[end + close.len_utf8()..].to_string(),
    ))
}

fn first_quoted(s: &str) -> Option<(usize, String, usize)> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    for (k, &(pos, c)) in chars.iter().enumerate() {
        let Some(close) = closing_quote(c).filter(|_| c != '`') else {
            continue;
        };
        let prev_alnum = k > 0 && chars[k - 1].1.is_alphanumeric();
        if prev_alnum {
            continue; // an apostrophe inside a word
        }
        let body_start = pos + c.len_utf8();
        if let Some(rel) = s[body_start..].find(close) {
            let end = body_start + rel;
            let next_alnum = s[end + close.len_utf8()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric);
            if !next_alnum && rel > 0 {
                return Some((pos, s[body_start..end].to_string(), end + close.len_utf8()));
            }
        }
    }
    None
}

/// Returns whether `name` is a branch name git would accept and not a word
/// of the sentence around it.
fn valid_branch(name: &str) -> bool {
    const STOP: &[&str] = &[
        "for", "to", "the", "a", "an", "with", "from", "of", "that", "which", "it", "this", "para",
        "de", "con", "que", "la", "el", "una", "un", "and", "y", "branch", "rama", "called",
        "named", "llamada",
    ];
    !name.is_empty()
        && !STOP.contains(&fold(name).as_str())
        && !name.starts_with(['-', '.', '/'])
        && !name.ends_with(['/', '.'])
        && !name.ends_with(".lock")
        && !name.contains("..")
        && !name.contains("@{")
        && name != "@"
        && !name
            .contains(|c: char| c.is_whitespace() || c.is_control() || "~^:?*[\\'\"".contains(c))
}

fn match_templates(text: &str) -> Option<Composite> {
    let (folded, original) = tokens(text);
    let core = core_range(&folded);
    if core.is_empty() {
        return None;
    }
    let offset = core.start;
    let joined = folded[core].join(" ");
    for t in TEMPLATES.iter() {
        if !t.keys.iter().any(|k| joined.contains(k)) {
            continue;
        }
        let Some(caps) = t.regex().captures(&joined) else {
            continue;
        };
        let branch = match caps.iter().skip(1).flatten().next() {
            Some(m) => {
                let index = offset + joined[..m.start()].matches(' ').count();
                let name = original.get(index).cloned().unwrap_or_default();
                if !valid_branch(&name) {
                    continue;
                }
                Some(name)
            }
            None => None,
        };
        return Some(Composite {
            intent: t.intent,
            risk: t.risk,
            message: None,
            branch,
            with_commit: t.commits(),
        });
    }
    None
}

/// Matches a prose request against the composite intents.
pub fn match_intent(text: &str) -> Option<Composite> {
    let (without_message, message) = extract_message(text);
    if message.is_some() {
        if let Some(mut c) = match_templates(&without_message) {
            if c.with_commit {
                c.message = message;
                return Some(c);
            }
        }
    }
    match_templates(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(s: &str) -> Option<Intent> {
        match_intent(s).map(|c| c.intent)
    }

    #[test]
    fn matches_commit_phrasings() {
        for s in [
            "do the commit",
            "commit everything",
            "haz el commit",
            "has el commit",
            "do teh commit",
            "hazme un commit porfa",
            "can you do the commit?",
            "commitea todo",
            "gracias, ahora haz el commit",
            "commit but don't push",
            "guarda los cambios en git",
        ] {
            assert_eq!(intent(s), Some(Intent::Commit), "{s}");
        }
    }

    #[test]
    fn extracts_messages() {
        let c = match_intent("commit everything with message \"fix && git push\"").unwrap();
        assert_eq!(c.message.as_deref(), Some("fix && git push"));
        let c = match_intent("Commit everything with the message: update dependencies").unwrap();
        assert_eq!(c.message.as_deref(), Some("update dependencies"));
        let c = match_intent("haz commit con el mensaje «corrige el login»").unwrap();
        assert_eq!(c.message.as_deref(), Some("corrige el login"));
        let c = match_intent("create a branch called 'feature/x'").unwrap();
        assert_eq!(c.branch.as_deref(), Some("feature/x"));
        assert_eq!(c.message, None);
    }

    #[test]
    fn leaves_tasks_to_the_model() {
        for s in [
            "commit only the README",
            "commit this to memory",
            "I'm committed to finishing this",
            "don't commit yet",
            "switch the HTTP client to reqwest",
            "sube el timeout del cliente HTTP a 30 segundos",
            "create a branch for the login feature",
            "initialize a git repo here",
        ] {
            assert_eq!(intent(s), None, "{s}");
        }
    }

    #[test]
    fn branch_names_keep_their_case() {
        let c = match_intent("create a branch called Feature/API").unwrap();
        assert_eq!(c.branch.as_deref(), Some("Feature/API"));
        let c = match_intent("cámbiate a la rama develop").unwrap();
        assert_eq!(c.intent, Intent::BranchSwitch);
        assert_eq!(c.branch.as_deref(), Some("develop"));
    }
}
