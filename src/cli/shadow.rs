//! `git fararoni shadow` (also `git fararoni-shadow`): the backup store.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::error::{CliError, ErrorKind};

/// Inspect and restore the shadow store of pre-write backups
#[derive(Debug, Subcommand)]
pub(crate) enum ShadowCommand {
    /// List backed-up versions, of PATH or of every file
    List {
        /// Only this file
        path: Option<PathBuf>,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Print a backed-up version of PATH (default: the newest)
    #[command(disable_version_flag = true)]
    Show {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
    },
    /// Diff a backed-up version of PATH against the working file
    #[command(disable_version_flag = true)]
    Diff {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
    },
    /// Restore PATH from a backed-up version (itself reversible)
    #[command(disable_version_flag = true)]
    Restore {
        /// The file
        path: PathBuf,
        /// Which version
        #[arg(long)]
        version: Option<u64>,
    },
    /// Remove old versions (dry run unless --yes)
    Prune {
        /// Versions to keep per file
        #[arg(long)]
        keep: Option<u64>,
        /// Remove versions older than DURATION (e.g. 30d, 12h)
        #[arg(long, value_name = "DURATION")]
        older_than: Option<String>,
        /// Really remove them
        #[arg(long)]
        yes: bool,
    },
}

pub(crate) fn run(_cmd: ShadowCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new(
        ErrorKind::Internal,
        "`shadow` is not built yet",
    ))
}
