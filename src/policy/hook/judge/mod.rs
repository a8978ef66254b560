//! The walk over a parsed command line: every command that would run is
//! judged, in order, with the shell state that matters (the directory
//! after `cd`, variables set on the line, aliases and functions). The
//! first veto wins; `may_write` records whether anything could write.
//!
//! One `impl Judge` block per family of programs, one file each: that is
//! how findings arrive ("a wrapper we did not read", "an interpreter's
//! hidden call"), so a fix lands in the file of its family.

mod expand;
mod find;
mod git;
mod interpreters;
mod own;
mod places;
mod remote;
mod run;
mod shells;
mod walk;
mod wrappers;

use expand::*;
use git::*;
use interpreters::*;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::archives;
use super::files::{self, Effect, FileOp};
use super::inline::{self, Finding};
use super::parallel;
use super::paths;
use super::programs::{self, Kind, Lang, Wrapper};
use super::{HookContext, KnownWrite, RemotePosture, UnknownPrograms};
use crate::policy::{self, Actor, Risk};
use crate::shell::lexer::{HereBody, Part, RedirOp, Word};
use crate::shell::parser::{self, AndOr, Command, Pipeline, Redir, Script, Simple, Target};

/// Longest command line judged; longer is vetoed.
pub const MAX_LINE: usize = 1 << 20;

/// Deepest nesting of `bash -c`, `eval`, `ssh`… judged.
const MAX_NESTING: usize = 12;
/// How many programs may wrap each other (`sudo nice timeout 5 env … git`):
/// far beyond what anyone writes.
const MAX_WRAPPED: usize = 64;

/// Judges one line: the veto reason (if any), whether it may write, the
/// writes of known content, whether it runs what was not judged.
pub fn judge_line(
    command: &str,
    ctx: &HookContext<'_>,
) -> (Option<String>, bool, Vec<KnownWrite>, bool) {
    if command.len() > MAX_LINE {
        return (
            Some(format!(
                "The command is {} bytes long; the guard judges lines up to {MAX_LINE} bytes",
                command.len()
            )),
            true,
            Vec::new(),
            true,
        );
    }
    let mut j = Judge {
        ctx,
        home: ctx.facts.home(),
        cwd: Some(ctx.cwd.to_path_buf()),
        vars: HashMap::new(),
        aliases: HashMap::new(),
        functions: Vec::new(),
        veto: None,
        may_write: false,
        unjudged: false,
        known: Vec::new(),
        depth: 0,
        running: 0,
        bodies: Vec::new(),
        elsewhere: None,
        spared: None,
        made: Vec::new(),
    };
    j.line(command);
    // A command allowed because the repository is not in the state that
    // makes it lose something holds only while nothing else on the line
    // changes that state (`git stash && git stash drop`).
    if let Some(spared) = j.spared.take() {
        if j.may_write {
            j.deny(format!(
                "`{spared}` loses nothing only in the repository as it is now, and the line changes it too; run it on its own"
            ));
        }
        j.may_write = true;
    }
    (j.veto, j.may_write, j.known, j.unjudged)
}

/// A word after expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    /// Known text.
    Lit(String),
    /// Computed at run time: the literal text before the first unknown
    /// part, and a rendering.
    Unknown { prefix: String, shown: String },
}

impl Arg {
    fn lit(&self) -> Option<&str> {
        match self {
            Arg::Lit(s) => Some(s),
            Arg::Unknown { .. } => None,
        }
    }

    fn shown(&self) -> &str {
        match self {
            Arg::Lit(s) => s,
            Arg::Unknown { shown, .. } => shown,
        }
    }
}

/// What a command reads on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stdin {
    /// Nothing redirected (the agent's terminal, or nothing).
    Inherited,
    /// Text known now (a quoted here-document, a literal here-string,
    /// `echo` piped in).
    Known(String),
    /// A file.
    File,
    /// Output of another command, unknown now.
    Pipe,
}

struct Judge<'a> {
    ctx: &'a HookContext<'a>,
    home: Option<String>,
    cwd: Option<PathBuf>,
    vars: HashMap<String, Option<String>>,
    aliases: HashMap<String, String>,
    functions: Vec<String>,
    veto: Option<String>,
    may_write: bool,
    /// Whether something runs that the guard let through without judging
    /// what it does (an unknown program, a script, inline code): the
    /// adapter then runs the line contained.
    unjudged: bool,
    known: Vec<KnownWrite>,
    depth: usize,
    /// Programs being judged around the current one (`nice sudo git`):
    /// wrappers recurse, so their nesting is bounded.
    running: usize,
    bodies: Vec<HereBody>,
    /// The host of an `ssh HOST CMD` being judged: its files are not the
    /// ones the repository here can be asked about.
    elsewhere: Option<String>,
    /// A destructive git command allowed because the repository is not in
    /// the state that makes it lose something (see
    /// [`git::STATE_DEPENDENT`]): shown, for the veto when the line
    /// changes that state too.
    spared: Option<String>,
    /// Paths an earlier command on the line made stand for others (a link
    /// to them, a move of them): what a later command does to the new path
    /// it does to the old one, which is what the repository is asked about.
    made: Vec<Made>,
}

/// A path an earlier command on the line made.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Made {
    /// The new path (absolute, lexical).
    path: PathBuf,
    /// The path it stands for (absolute, lexical).
    stands_for: PathBuf,
    /// Whether its content went there (a move): deleting the folder that
    /// holds it deletes that content; a link only leads there.
    content: bool,
}

impl Judge<'_> {
    fn deny(&mut self, why: impl Into<String>) {
        if self.veto.is_none() {
            self.veto = Some(why.into());
        }
    }

    fn done(&self) -> bool {
        self.veto.is_some()
    }
}

fn short_argv(argv: &[String]) -> String {
    super::shorten(&argv.join(" "), 60)
}

fn lit_args(args: &[Arg]) -> Option<Vec<String>> {
    args[1..]
        .iter()
        .map(|a| a.lit().map(String::from))
        .collect()
}
