//! `git fararoni saga` (also `git fararoni-saga`): ephemeral branches.

use std::process::ExitCode;

use clap::Subcommand;

use crate::error::{CliError, ErrorKind};

/// Run work on an ephemeral branch and land it as one squashed commit
#[derive(Debug, Subcommand)]
pub(crate) enum SagaCommand {
    /// Start a saga: create fararoni/wip-<timestamp> at HEAD and switch to it
    Start {
        /// A name for the saga
        #[arg(long)]
        name: Option<String>,
    },
    /// Squash the saga onto the original branch as one [FARARONI] commit
    Finish {
        /// The commit message
        #[arg(short, long)]
        message: Option<String>,
        /// Commit uncommitted changes into the saga first
        #[arg(long)]
        include_dirty: bool,
    },
    /// Return to the original branch, keeping the wip tip recoverable
    Abort,
    /// Show the active saga
    Status {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// List active and aborted sagas
    List {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
}

pub(crate) fn run(_cmd: SagaCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new(
        ErrorKind::Internal,
        "`saga` is not built yet",
    ))
}
