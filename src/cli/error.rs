//! Exit codes and the one error type the command line renders.
//!
//! Library modules have their own `thiserror` enums; the CLI wraps them in
//! [`CliError`] with a kind (which picks the exit code) and hints, and
//! [`report`] prints them once, in git's voice.

use std::fmt::Write as _;
use std::process::ExitCode;

pub use crate::exit;

/// What kind of failure an error is, which decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request could not be carried out (exit 1).
    User,
    /// The command line was wrong (exit 2).
    Usage,
    /// A guard or policy refused (exit 3).
    Refused,
    /// No model is available (exit 4).
    ModelUnavailable,
    /// A bug (exit 101).
    Internal,
}

impl ErrorKind {
    /// Returns the exit code of this kind.
    pub fn code(self) -> u8 {
        match self {
            ErrorKind::User => exit::ERROR,
            ErrorKind::Usage => exit::USAGE,
            ErrorKind::Refused => exit::BLOCKED,
            ErrorKind::ModelUnavailable => exit::MODEL_UNAVAILABLE,
            ErrorKind::Internal => exit::INTERNAL,
        }
    }
}

/// An error on its way to the user, with hints on what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// What kind of failure it is.
    pub kind: ErrorKind,
    /// The message, lowercase, without a trailing period.
    pub message: String,
    /// The chain of underlying causes, outermost first.
    pub causes: Vec<String>,
    /// Suggestions, each printed as `hint: …`.
    pub hints: Vec<String>,
}

impl CliError {
    /// Creates an error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> CliError {
        CliError {
            kind,
            message: message.into(),
            causes: Vec::new(),
            hints: Vec::new(),
        }
    }

    /// Creates a user error (exit 1).
    pub fn user(message: impl Into<String>) -> CliError {
        CliError::new(ErrorKind::User, message)
    }

    /// Creates a usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::new(ErrorKind::Usage, message)
    }

    /// Creates a refusal (exit 3).
    pub fn refused(message: impl Into<String>) -> CliError {
        CliError::new(ErrorKind::Refused, message)
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> CliError {
        self.hints.push(hint.into());
        self
    }

    /// Appends `err` and its own causes to the cause chain.
    pub fn caused_by(mut self, err: &(dyn std::error::Error + 'static)) -> CliError {
        let mut cause = Some(err);
        while let Some(c) = cause {
            self.causes.push(c.to_string());
            cause = c.source();
        }
        self
    }

    /// Wraps a library error: its message becomes ours, its causes follow.
    pub fn wrap(kind: ErrorKind, err: &(dyn std::error::Error + 'static)) -> CliError {
        let e = CliError::new(kind, err.to_string());
        match err.source() {
            Some(s) => e.caused_by(s),
            None => e,
        }
    }

    /// Renders the error as the lines `report` prints.
    pub fn render(&self) -> String {
        let mut out = format!("error: {}\n", self.message);
        for c in &self.causes {
            let _ = writeln!(out, "caused by: {c}");
        }
        for h in &self.hints {
            let _ = writeln!(out, "hint: {h}");
        }
        out
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// Prints `err` on stderr and returns its exit code.
pub fn report(err: &CliError) -> ExitCode {
    eprint!("{}", err.render());
    ExitCode::from(err.kind.code())
}
