//! Shell command lines sent by other coding agents, judged for
//! [`Actor::Hook`](crate::policy::Actor::Hook): protect the repository,
//! never get in the way of ordinary work.
//!
//! The line is lexed and parsed the way bash reads it ([`lexer`],
//! [`parser`]); every command inside — substitutions, subshells, loop
//! bodies, `bash -c` strings, `ssh` commands, `find -exec`, `xargs` — is
//! judged ([`judge`]): git through `policy::classify`, commands that
//! destroy files by asking the repository what would be lost
//! ([`LossFacts`]), inline interpreter code by its visible file
//! operations ([`inline`]), everything else allowed. Here-documents are
//! data, never commands. Anything the parser cannot read is vetoed.

pub mod archives;
pub mod files;
pub mod inline;
pub mod judge;
pub mod loss;
pub mod parallel;
pub mod paths;
pub mod programs;

use std::path::{Path, PathBuf};

pub use loss::{Loss, LossFacts};

/// Whether remote contact that loses nothing is allowed
/// (`fararoni.hook.remote`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RemotePosture {
    /// fetch, pull, plain push, `push -u`, ls-remote… run (the default).
    #[default]
    Allow,
    /// Every remote contact is vetoed.
    Deny,
}

impl RemotePosture {
    /// Reads a `fararoni.hook.remote` value (`allow` or `deny`).
    pub fn parse(value: &str) -> Option<RemotePosture> {
        match value.trim().to_ascii_lowercase().as_str() {
            "allow" => Some(RemotePosture::Allow),
            "deny" => Some(RemotePosture::Deny),
            _ => None,
        }
    }
}

impl UnknownPrograms {
    /// Reads a `fararoni.hook.unknownPrograms` value (`allow` or `deny`).
    pub fn parse(value: &str) -> Option<UnknownPrograms> {
        match value.trim().to_ascii_lowercase().as_str() {
            "allow" => Some(UnknownPrograms::Allow),
            "deny" => Some(UnknownPrograms::Deny),
            _ => None,
        }
    }
}

/// Whether programs the guard does not know run
/// (`fararoni.hook.unknownPrograms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownPrograms {
    /// They run, after the dirty set is saved (the default).
    #[default]
    Allow,
    /// They are vetoed.
    Deny,
}

/// What the judge may consult.
pub struct HookContext<'a> {
    /// The agent's cwd from the payload.
    pub cwd: &'a Path,
    /// The repository facts, as at level 1.
    pub facts: &'a dyn crate::policy::Facts,
    /// "What would be lost" questions.
    pub loss: &'a dyn LossFacts,
    /// `fararoni.hook.remote`.
    pub remote: RemotePosture,
    /// `fararoni.hook.unknownPrograms`.
    pub unknown_programs: UnknownPrograms,
}

/// A write of known content found in the line (`cat > F <<'EOF'`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownWrite {
    /// The file, absolute.
    pub path: PathBuf,
    /// What is written.
    pub content: Vec<u8>,
    /// Whether it is appended (`>>`) rather than replacing the file.
    pub append: bool,
}

/// The judgement of one shell command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellVerdict {
    /// Whether the line must not run.
    pub veto: bool,
    /// ≤ 300 characters for the model: the rule, what would be lost, the
    /// safe alternative, "do not retry this; ask the user".
    pub reason: String,
    /// False when every command in the line is read-only: the dirty-set
    /// snapshot can be skipped.
    pub may_write: bool,
    /// Writes of known content: the adapter judges each with the
    /// kill-switch like an Edit and backs the file up.
    pub known_writes: Vec<KnownWrite>,
    /// Whether the line runs something allowed without being judged (an
    /// unknown program, a script, inline code): it should run contained.
    pub unjudged: bool,
}

/// Longest reason handed to the model, in characters.
pub const MAX_REASON: usize = 300;

/// The suffix every veto ends with.
const ASK: &str = " Do not retry this; ask the user.";

/// What another agent asked to run, judged for Actor::Hook.
pub fn judge_shell(command: &str, ctx: &HookContext<'_>) -> ShellVerdict {
    let (veto, may_write, known_writes, unjudged) = judge::judge_line(command, ctx);
    match veto {
        Some(why) => ShellVerdict {
            veto: true,
            reason: fit_reason(&why),
            may_write,
            known_writes: Vec::new(),
            unjudged,
        },
        None => ShellVerdict {
            veto: false,
            reason: String::new(),
            may_write,
            known_writes,
            unjudged,
        },
    }
}

/// Fits a veto reason into [`MAX_REASON`] characters, keeping the ending
/// that tells the model to stop.
fn fit_reason(why: &str) -> String {
    let budget = MAX_REASON - ASK.chars().count() - 1;
    let s = shorten(why, budget);
    let s = s.trim_end().trim_end_matches('.');
    format!("{s}.{ASK}")
}

/// Shortens `text` to at most `max` characters by one rule: keep whole
/// words from the start, drop the dangling punctuation after the last one,
/// and mark the cut with `…`. A word is never cut; a first word longer
/// than `max` leaves only the mark.
pub fn shorten(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    // The byte offset where the `max - 1`-th character ends: room for `…`.
    let room = text
        .char_indices()
        .nth(max - 1)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..room];
    // The cut is at the last space inside the room, or right at its end
    // when a space follows there.
    let cut = if text[room..].starts_with(char::is_whitespace) {
        room
    } else {
        head.rfind(char::is_whitespace).unwrap_or(0)
    };
    let kept = text[..cut].trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | '—' | '-' | '`' | '“' | '"')
    });
    format!("{kept}…")
}
#[cfg(test)]
mod tests;
