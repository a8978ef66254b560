//! `git fararoni guard`: the kill-switch as a verb, and guarded writes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::error::{CliError, ErrorKind};

/// Kill-switch checks and guarded writes, for people and other tools
#[derive(Debug, Subcommand)]
pub(crate) enum GuardCommand {
    /// Compare OLD and NEW with the kill-switch (exit 0 pass, 3 block)
    Check {
        /// The current content (a path that does not exist means a new file)
        old: PathBuf,
        /// The proposed content
        new: PathBuf,
        /// Print {"verdict", "jaccard", "volume", "reasons"} as JSON
        #[arg(long)]
        json: bool,
    },
    /// Write PATH through kill-switch, shadow backup and atomic write
    Write {
        /// The file to write
        path: PathBuf,
        /// Read the new content from FILE instead of standard input
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// Skip the kill-switch (the shadow backup is still taken)
        #[arg(long)]
        force: bool,
    },
}

pub(crate) fn run(_cmd: GuardCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new(
        ErrorKind::Internal,
        "`guard` is not built yet",
    ))
}
