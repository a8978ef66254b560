//! `git fararoni undo`: bring back every file a session wrote.

use std::process::ExitCode;

use clap::Args;

use crate::error::{CliError, ErrorKind};

/// Restore every file written in the last (or named) session
#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    /// The session to undo (default: the last one)
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub(crate) fn run(_args: UndoArgs) -> Result<ExitCode, CliError> {
    Err(CliError::new(
        ErrorKind::Internal,
        "`undo` is not built yet",
    ))
}
