//! Level 1.5: git intents said in English or Spanish ("do the commit",
//! "hacé el commit che", "commit only the README", "¿en qué rama estoy?"),
//! mapped to fixed git sequences without any model.
//!
//! Intents are data: [`lexicon`] says what words mean (per language),
//! [`table`] what each intent needs, takes and runs. A request is
//! normalised ([`normalize`]: case, accents, punctuation, emoji, stretched
//! letters, chat abbreviations, typos), its commit message set aside
//! ([`message`]), and matched against the table ([`parse`]). Every word
//! must be explained by the intent, by politeness or greetings, or by a
//! slot; anything left over — a condition, a scope, a negation, a task —
//! sends the request to the model. Never does I/O.

mod index;
pub mod lexicon;
pub mod message;
pub mod normalize;
pub mod parse;
pub mod table;

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::Serialize;

use self::index::Set;
use self::lexicon::C;
use self::normalize::Tok;
use self::parse::Filled;
use self::table::{Flag, Row, When, ROWS};
use crate::git::pathspec::{NOT_STORE, USER_WORK};

/// One of the fixed git sequences level 1.5 knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Stage everything and commit.
    Commit,
    /// Stage and commit the given paths only.
    CommitPaths,
    /// Stage and commit everything but the given paths.
    CommitExcept,
    /// `git init`, then stage everything and commit.
    InitCommit,
    /// `git add` of paths or of everything.
    Stage,
    /// `git restore --staged` of paths or of everything.
    Unstage,
    /// A new message for the last commit, if it is not published.
    AmendMessage,
    /// `git status`.
    Status,
    /// `git diff`, of the index or of paths.
    Diff,
    /// `git log`.
    Log,
    /// `git log --follow` of a file.
    FileHistory,
    /// `git blame` of a file.
    Blame,
    /// `git show HEAD`.
    ShowLast,
    /// `git switch --create NAME`.
    BranchCreate,
    /// `git switch NAME`.
    BranchSwitch,
    /// `git branch`.
    BranchList,
    /// `git branch --move NAME`.
    BranchRename,
    /// `git branch --delete NAME`.
    BranchDelete,
    /// `git merge --no-edit NAME`.
    Merge,
    /// `git tag NAME`.
    TagCreate,
    /// `git tag`.
    TagList,
    /// `git remote --verbose`.
    RemoteList,
    /// `git stash push`.
    Stash,
    /// `git stash list`.
    StashList,
    /// `git stash pop`.
    StashPop,
    /// `git stash apply`.
    StashApply,
    /// `git reset --soft HEAD~1`.
    UndoCommit,
    /// Dropping uncommitted work: always refused.
    Discard,
    /// `git push`: always refused.
    Push,
}

impl Intent {
    /// Returns the intent's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Intent::Commit => "commit",
            Intent::CommitPaths => "commit_paths",
            Intent::CommitExcept => "commit_except",
            Intent::InitCommit => "init_commit",
            Intent::Stage => "stage",
            Intent::Unstage => "unstage",
            Intent::AmendMessage => "amend_message",
            Intent::Status => "status",
            Intent::Diff => "diff",
            Intent::Log => "log",
            Intent::FileHistory => "file_history",
            Intent::Blame => "blame",
            Intent::ShowLast => "show_last",
            Intent::BranchCreate => "branch_create",
            Intent::BranchSwitch => "branch_switch",
            Intent::BranchList => "branch_list",
            Intent::BranchRename => "branch_rename",
            Intent::BranchDelete => "branch_delete",
            Intent::Merge => "merge",
            Intent::TagCreate => "tag_create",
            Intent::TagList => "tag_list",
            Intent::RemoteList => "remote_list",
            Intent::Stash => "stash",
            Intent::StashList => "stash_list",
            Intent::StashPop => "stash_pop",
            Intent::StashApply => "stash_apply",
            Intent::UndoCommit => "undo_commit",
            Intent::Discard => "discard",
            Intent::Push => "push",
        }
    }
}

/// A request matched to a row of the table, with its slots.
#[derive(Debug, Clone)]
pub struct Match {
    /// The row.
    pub row: &'static Row,
    /// What filled its slots.
    pub filled: Filled,
    /// The stated commit message, if any.
    pub message: Option<String>,
}

impl Match {
    /// The intent.
    pub fn intent(&self) -> Intent {
        self.row.intent
    }

    /// Whether a step applies to this match.
    fn applies(&self, when: When) -> bool {
        let f = &self.filled;
        match when {
            When::Always => true,
            When::If(flag) => f.flags.contains(&flag),
            When::Unless(flag) => !f.flags.contains(&flag),
            When::Paths => !f.paths.is_empty(),
            When::NoPaths => f.paths.is_empty(),
            When::OnePath => f.paths.len() == 1,
            When::ManyPaths => f.paths.len() > 1,
            When::Count => f.count.is_some(),
            When::NoCount => f.count.is_none(),
            When::Name => f.name.is_some(),
            When::NoName => f.name.is_none(),
            When::From => f.from.is_some(),
            When::NoFrom => f.from.is_none(),
        }
    }

    /// Whether two matches would run the same thing.
    fn same(&self, other: &Match) -> bool {
        self.row.intent == other.row.intent
            && self.filled == other.filled
            && self.message == other.message
    }

    /// Whether the row's variant `flag` was chosen.
    pub fn has(&self, flag: Flag) -> bool {
        self.filled.flags.contains(&flag)
    }

    /// The argvs of the sequence, `generated` standing for a message to
    /// be generated at run time.
    pub fn sequence(&self, generated: &str) -> Vec<Vec<String>> {
        let f = &self.filled;
        let mut out = Vec::new();
        for (when, argv) in self.row.steps {
            if !self.applies(*when) {
                continue;
            }
            let mut v: Vec<String> = Vec::with_capacity(argv.len() + f.paths.len());
            for word in argv.iter() {
                match *word {
                    "{name}" => v.push(f.name.clone().unwrap_or_default()),
                    "{from}" => v.push(f.from.clone().unwrap_or_default()),
                    "{back}" => v.push(format!("HEAD~{}", f.count.unwrap_or(1))),
                    "{message}" => v.push(
                        self.message
                            .clone()
                            .unwrap_or_else(|| generated.to_string()),
                    ),
                    "{count}" => v.push(format!("-{}", f.count.unwrap_or(1))),
                    "{paths}" => v.extend(f.paths.iter().cloned()),
                    "{exclude}" => v.extend(f.paths.iter().map(|p| format!(":(exclude){p}"))),
                    "{work}" => v.extend(USER_WORK.iter().map(|s| s.to_string())),
                    "{store_out}" => v.push(NOT_STORE.to_string()),
                    other => v.push(other.to_string()),
                }
            }
            out.push(v);
        }
        out
    }
}

/// The most words a request may have that neither the lexicon nor a slot
/// explains (before typo correction): beyond that it is a task.
const MAX_UNKNOWN: usize = 3;

/// The most unknown words (typos, message words) a request may have for
/// typo correction to be tried.
const MAX_TYPOS: usize = 4;

/// Concepts that make the message framings worth looking for.
const COMMITTING: &[C] = &[C::Commit, C::CheckIn, C::Confirm, C::Save, C::Amend];

/// Matches a request against the table: the first row that explains every
/// word, trying the words as typed and then with typos corrected.
pub fn match_intent(text: &str) -> Option<Match> {
    match_read(&normalize::Read::new(text))
}

/// [`match_intent`] on a request whose tokens level 2 may read too.
pub fn match_read(read: &normalize::Read<'_>) -> Option<Match> {
    let text = read.text();
    // A look-alike letter or dash, or an invisible character, is a
    // disguise: what it says is not what it looks like.
    if crate::router::command::disguised(text) {
        return None;
    }
    if plainly_a_task(text) {
        return None;
    }
    let toks = read.toks();
    if toks.is_empty() {
        return None;
    }
    // A git command line with options that level 1 did not take (a stray
    // quote, a typo) is not prose to reinterpret: "git commit -m do'ne'"
    // must never become "stage everything and commit".
    if toks[0].norm == "git" && toks.iter().any(|t| !t.quoted && t.orig.starts_with('-')) {
        return None;
    }
    let unknown = normalize::unknown_words(toks);
    if hopeless(toks, text, unknown) {
        return None;
    }
    match attempt(toks, text) {
        Reading::Matched(m) => return stated_plainly(m),
        // A condition, negation or question stays one whatever the typos;
        // but a typo can hide the word that frames a message ("comnit,
        // message should be 'x'"), so with unknown words the corrected
        // readings are tried, and any of them that is triggered ends it.
        Reading::Triggered if unknown == 0 || !may_frame(toks) => return None,
        Reading::Triggered | Reading::Unmatched => {}
    }
    // Typos: every reading is tried, and the request is claimed only if
    // the readings that match all agree. A request with many words the
    // lexicon does not know is a task, not a mistyped intent.
    if unknown > MAX_TYPOS {
        return None;
    }
    let fixes = normalize::typo_fixes(toks)?;
    let mut agreed: Option<Match> = None;
    let mut doubt = false;
    normalize::for_each_reading(toks, &fixes, |reading| {
        match attempt(reading, text) {
            // A corrected word right beside a plain name is a guess twice
            // over ("switch to dark mode" read as "… dark move"): the model.
            Reading::Matched(m) if corrected_beside_name(reading, &fixes, &m) => doubt = true,
            Reading::Matched(m) => match &agreed {
                Some(a) if !a.same(&m) => doubt = true,
                Some(_) => {}
                None => agreed = Some(m),
            },
            // One reading that is a condition or a question is enough
            // doubt: the model decides.
            Reading::Triggered => doubt = true,
            Reading::Unmatched => {}
        }
        !doubt
    });
    if doubt {
        return None;
    }
    agreed.and_then(stated_plainly)
}

/// Whether a typo was corrected in a word right beside a plain name the
/// match took ("dark mode" → "dark move", "mode dark" → "move dark"): the
/// words beside a name are part of what it means, and a corrected one is
/// not what was typed. A branch noun ("develop brnach") is the exception.
fn corrected_beside_name(reading: &[Tok], fixes: &[(usize, Vec<&'static str>)], m: &Match) -> bool {
    let f = &m.filled;
    let plain = [
        f.name.as_deref().filter(|_| f.bare_name),
        f.from.as_deref().filter(|_| f.bare_from),
    ];
    plain.into_iter().flatten().any(|name| {
        reading
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.quoted && t.orig == name)
            .any(|(j, _)| {
                fixes.iter().any(|(i, _)| {
                    (*i == j + 1 || *i + 1 == j)
                        && !parse::spans(std::slice::from_ref(&reading[*i]))
                            .first()
                            .is_some_and(|s| s.set.has(C::Branch))
                })
            })
    })
}

/// The match, unless its message is one a shell would read differently
/// ([`message::shell_like`]).
fn stated_plainly(m: Match) -> Option<Match> {
    match &m.message {
        Some(text) if message::shell_like(text) => None,
        _ => Some(m),
    }
}

/// Every concept some row of the table explains, with politeness and
/// greetings.
fn consumed() -> Set {
    static CONSUMED: OnceLock<Set> = OnceLock::new();
    *CONSUMED.get_or_init(|| {
        let mut set = Set::all(lexicon::EDGE).union(Set::all(lexicon::ANYWHERE));
        for row in ROWS {
            set = set.union(Set::all(row.may));
            for alt in row.needs {
                set = set.union(Set::all(alt));
            }
            for (c, _) in row.flags {
                set = set.with(*c);
            }
        }
        set
    })
}

/// Whether a message's framing may start at some token (then a typo
/// elsewhere may have hidden the word the framing needs).
fn may_frame(toks: &[Tok]) -> bool {
    let norms: Vec<&str> = toks.iter().map(|t| t.norm.as_str()).collect();
    (0..norms.len()).any(|i| message::frames_at(&norms[i..]))
}

/// Whether a long request is a task before it is tokenised: with no
/// quote, more plain lower-case words the lexicon does not know before
/// the first word that could frame a message than typo correction would
/// try (the cheap part of [`hopeless`], for the long requests the model
/// gets).
fn plainly_a_task(text: &str) -> bool {
    const LONG: usize = 8;
    if text.split_whitespace().nth(LONG).is_none()
        || text.contains(|c: char| crate::shell::words::closing_quote(c).is_some())
    {
        return false;
    }
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', '.', '!', '?', ';', ':']))
        .collect();
    let mut unknown = 0;
    for (i, w) in words.iter().enumerate() {
        if !w.bytes().all(|b| b.is_ascii_lowercase() || b == b'\'') {
            continue; // capitals, accents, paths, numbers: tokens decide.
        }
        if message::frames_at(&words[i..]) {
            break;
        }
        if !index::known(w) {
            unknown += 1;
        }
    }
    unknown > MAX_TYPOS
}

/// Whether no reading of the request can match, before any work: more
/// unknown words than any intent has outside a message it may state.
fn hopeless(toks: &[Tok], text: &str, unknown: usize) -> bool {
    if unknown <= MAX_TYPOS {
        return false;
    }
    let framed = toks.iter().any(|t| t.quoted || message::frames(&t.norm));
    match message::find(toks, text).filter(|_| framed) {
        Some(f) => normalize::unknown_words(&without(toks, f.from, f.to)) > MAX_TYPOS,
        None => true,
    }
}

/// Whether a word (as the longest phrase reads it) only makes the request
/// a condition, a negation or a question that no row takes ("if", "how",
/// "don't"): then no row can match, whatever else the request says.
fn triggered(cands: &parse::Cands) -> bool {
    let consumed = consumed();
    let triggers = Set::all(lexicon::TRIGGERS);
    parse::segment(cands, Set(u128::MAX))
        .iter()
        .any(|s| s.set.meets(triggers) && !s.set.meets(consumed))
}

/// What one reading of a request gave.
enum Reading {
    /// A row matched.
    Matched(Match),
    /// No row matched.
    Unmatched,
    /// A word makes it something no row takes (see [`triggered`]).
    Triggered,
}

/// One reading of the tokens: the message set aside by its framing, or,
/// for an amend, after "to"/"a"/"por".
fn attempt(toks: &[Tok], text: &str) -> Reading {
    let cands = parse::candidates(toks);
    let present = cands.all().iter().fold(Set::EMPTY, |s, sp| s.union(sp.set));
    let found = if present.meets(Set::all(COMMITTING)) {
        message::find(toks, text)
    } else {
        None
    };
    // A message that holds a condition, a negation, a question or a
    // further task makes the request the model's.
    if found.as_ref().is_some_and(|f| f.doubt) {
        return Reading::Triggered;
    }
    // The request without its message, read as the rows read it.
    let (rest, rest_cands, message) = match &found {
        Some(f) => {
            let rest = without(toks, f.from, f.to);
            let cands = parse::candidates(&rest);
            (Cow::Owned(rest), cands, Some(f.text.clone()))
        }
        None => (Cow::Borrowed(toks), cands, None),
    };
    let trigger = triggered(&rest_cands);
    let matched = if trigger {
        None
    } else {
        try_rows(&rest, &rest_cands, message, |_| true)
    };
    if let Some(m) = matched {
        return Reading::Matched(m);
    }
    // "change the last commit message to 'x'": the message follows "to".
    // A framing may have taken the word the amend is anchored on ("amend
    // the commit message: x"): the amend reading is tried either way.
    if present.has(C::Amend) || present.has(C::Rename) {
        let anchor = |t: &Tok| {
            parse::spans(std::slice::from_ref(t))
                .first()
                .is_some_and(|s| s.set.has(C::MessageNoun) || s.set.has(C::Commit))
        };
        let noun = |t: &Tok| {
            parse::spans(std::slice::from_ref(t))
                .first()
                .is_some_and(|s| s.set.has(C::MessageNoun))
        };
        if let Some(f) = message::find_amend(toks, text, anchor, noun) {
            if f.doubt {
                return Reading::Triggered;
            }
            let rest = without(toks, f.from, f.to);
            let cands = parse::candidates(&rest);
            if triggered(&cands) {
                return Reading::Triggered;
            }
            let amended = try_rows(&rest, &cands, Some(f.text), |r| {
                r.intent == Intent::AmendMessage
            });
            if let Some(m) = amended {
                return Reading::Matched(m);
            }
        }
    }
    if trigger {
        Reading::Triggered
    } else {
        Reading::Unmatched
    }
}

fn without(toks: &[Tok], from: usize, to: usize) -> Vec<Tok> {
    toks[..from].iter().chain(&toks[to..]).cloned().collect()
}

fn try_rows(
    toks: &[Tok],
    cands: &parse::Cands,
    message: Option<String>,
    keep: impl Fn(&Row) -> bool,
) -> Option<Match> {
    if toks.is_empty() || normalize::unknown_words(toks) > MAX_UNKNOWN {
        return None;
    }
    let possible = cands.all().iter().fold(Set::EMPTY, |s, sp| s.union(sp.set));
    for row in ROWS.iter().filter(|r| keep(r)) {
        if let Some(mut filled) = parse::fit(row, toks, cands, possible, message.is_some()) {
            let message = message.clone().or_else(|| filled.message.take());
            return Some(Match {
                row,
                filled,
                message,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(s: &str) -> Option<Intent> {
        match_intent(s).map(|m| m.intent())
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
            "hsz el comit",
            "coomit everything",
            "hacé el commit che",
            "commit plz 🙏🙏",
            "Le ruego que haga un commit de los cambios.",
        ] {
            assert_eq!(intent(s), Some(Intent::Commit), "{s}");
        }
    }

    #[test]
    fn leaves_tasks_to_the_model() {
        for s in [
            "commit only if the tests pass",
            "commit this to memory",
            "I'm committed to finishing this",
            "don't commit yet",
            "switch the HTTP client to reqwest",
            "sube el timeout del cliente HTTP a 30 segundos",
            "create a branch for the login feature",
            "initialize a git repo here",
            "commit the parser changes only",
        ] {
            assert_eq!(intent(s), None, "{s}");
        }
    }

    #[test]
    fn disguises_shell_messages_and_courtesy_never_fill_a_slot() {
        for s in [
            "create a branch called \u{2010}D",
            "crea la rama \u{FF0D}f",
            "switch to m\u{0430}in",
            "c\u{043E}mmit everything",
            "stage a\u{200B}.txt",
            "commit with message '$(touch x)'",
            "haz commit que diga $(touch x)",
            "commit with message \"a\nb\"",
            "commit with message $HOME",
            "stage .FARARONI/x",
            "commit only .git/config",
        ] {
            assert!(match_intent(s).is_none(), "{s:?}");
        }
        // Praise and thanks are never a branch name.
        for s in ["te pasaste, gracias", "cámbiate, gracias", "switch, please"] {
            assert!(
                match_intent(s).is_none_or(|m| m.filled.name.is_none()),
                "{s:?}"
            );
        }
        // Framings in a row; a connector before the quote; `)` kept.
        for (s, message) in [
            ("haz commit con el mensaje que diga \"arreglo\"", "arreglo"),
            ("haz commit con mensaje de 'x'", "x"),
            ("commit with message fix (wip)", "fix (wip)"),
            ("commit w/ msg 'tests'", "tests"),
            ("haz commit 'arreglo'", "arreglo"),
            ("amend the commit message: fix login", "fix login"),
            ("comnit, message should be \"add tests\"", "add tests"),
        ] {
            let m = match_intent(s).expect(s);
            assert_eq!(m.message.as_deref(), Some(message), "{s:?}");
            assert!(m.filled.paths.is_empty(), "{s:?}");
        }
    }

    #[test]
    fn slots_are_filled() {
        let m = match_intent("commit only the README").expect("match");
        assert_eq!(
            (m.intent(), m.filled.paths.clone()),
            (Intent::CommitPaths, vec!["README".to_string()])
        );
        let m = match_intent("create a branch called Feature/API").expect("match");
        assert_eq!(m.filled.name.as_deref(), Some("Feature/API"));
        let m = match_intent("cámbiate a la rama develop").expect("match");
        assert_eq!(
            (m.intent(), m.filled.name.as_deref()),
            (Intent::BranchSwitch, Some("develop"))
        );
        let m = match_intent("haz commit y ponle 'v1 lista'").expect("match");
        assert_eq!(m.message.as_deref(), Some("v1 lista"));
        let m = match_intent("show the last 5 commits").expect("match");
        assert_eq!((m.intent(), m.filled.count), (Intent::Log, Some(5)));
    }
}

#[cfg(test)]
mod debug {
    use super::*;

    /// Prints how requests are read: `FARARONI_DEBUG="a|b" cargo test
    /// --lib intents::debug -- --ignored --nocapture`.
    #[test]
    #[ignore = "a debugging aid, not a check: prints how FARARONI_DEBUG's requests are read"]
    fn debug_spans() {
        let names: Vec<C> = lexicon::WORDS.iter().map(|w| w.concept).collect();
        let input = std::env::var("FARARONI_DEBUG").unwrap_or_default();
        for text in input.split('|') {
            let mut toks = normalize::tokens(text);
            normalize::in_context(&mut toks);
            let mut readings = vec![toks.clone()];
            readings.extend(normalize::correct(&toks));
            for (pass, toks) in readings.iter().enumerate() {
                let spans = parse::spans(toks);
                let shown: Vec<String> = spans
                    .iter()
                    .map(|s| {
                        let words: Vec<&str> =
                            toks[s.from..s.to].iter().map(|t| t.norm.as_str()).collect();
                        let mut cs: Vec<String> = names
                            .iter()
                            .filter(|c| s.set.has(**c))
                            .map(|c| format!("{c:?}"))
                            .collect();
                        cs.dedup();
                        format!("{}={}", words.join("_"), cs.join(","))
                    })
                    .collect();
                println!("{text:?} pass {pass}: {}", shown.join("  "));
            }
            println!(
                "  -> {:?}",
                match_intent(text).map(|m| (m.intent(), m.filled, m.message))
            );
            for t in text.split_whitespace() {
                println!(
                    "  corrections({t}) = {:?} known={}",
                    index::corrections(t),
                    index::known(t)
                );
            }
        }
    }
}

#[cfg(test)]
mod policy_agrees {
    use super::*;
    use crate::policy::{classify, Actor, Facts, NoFacts, Risk};

    /// Every row's sequence, filled with sample slots, has the risk the
    /// table declares when the policy judges it as typed; the rows that
    /// are always refused are refused. A subcommand the policy has no
    /// table for yet (`merge`, `remote`) is refused as unknown.
    #[test]
    fn every_sequence_has_the_declared_risk() {
        let facts = NoFacts::new();
        for row in ROWS {
            for flags in [
                vec![],
                row.flags.iter().map(|(_, f)| *f).collect::<Vec<_>>(),
            ] {
                let filled = Filled {
                    paths: if row.slots.paths == table::Need::No {
                        vec![]
                    } else {
                        vec!["a.txt".into()]
                    },
                    name: (row.slots.name != table::Need::No).then(|| "feature/x".into()),
                    count: (row.slots.count != table::Need::No).then_some(3),
                    from: (row.slots.from != table::Need::No).then(|| "develop".into()),
                    bare_name: false,
                    bare_from: false,
                    message: None,
                    flags: flags.clone(),
                };
                let m = Match {
                    row,
                    filled,
                    message: Some("m".into()),
                };
                let mut worst = Risk::ReadOnly;
                let mut unknown = false;
                for argv in m.sequence("generated") {
                    let v = classify(&argv, &[], Actor::Human, &facts, facts.cwd());
                    unknown |= v.unknown;
                    worst = worst.max(v.risk);
                }
                if unknown {
                    assert!(
                        matches!(row.intent, Intent::Merge | Intent::RemoteList),
                        "{:?}: a step is unknown to the policy",
                        row.intent
                    );
                    continue;
                }
                let forced = flags.iter().any(|f| matches!(f, Flag::Force | Flag::Hard));
                if forced {
                    assert_eq!(worst, Risk::Destructive, "{:?} {flags:?}", row.intent);
                } else {
                    assert_eq!(worst, row.risk, "{:?} {flags:?}", row.intent);
                }
            }
        }
    }
}

#[cfg(test)]
mod early_exit {
    #[test]
    fn long_tasks_exit_before_tokens() {
        assert!(super::plainly_a_task("please review the error handling in src/router/mod.rs and tell me whether the chain splitting can lose a segment when the request ends with a semicolon, then propose a fix with tests"));
        // After a word that may frame a message ("to", "with message"),
        // the tokens decide.
        assert!(!super::plainly_a_task("refactor StudentService to use constructor injection and add tests for the service layer"));
        assert!(!super::plainly_a_task(
            "commit everything with message fix the parser and the lexer and the router"
        ));
        assert!(!super::plainly_a_task("do the commit"));
    }
}
