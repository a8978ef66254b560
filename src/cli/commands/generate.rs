//! `git fararoni generate`: man pages and shell completions from the one
//! clap tree (hidden; used to refresh `man/` and `completions/`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::error::CliError;

#[derive(Debug, Subcommand)]
pub(crate) enum GenerateCommand {
    /// Write git-fararoni*.1 man pages into DIR
    Man {
        /// Directory to write into
        dir: PathBuf,
    },
    /// Print a completion script for SHELL (bash, zsh, fish)
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

pub(crate) fn run(cmd: GenerateCommand) -> Result<ExitCode, CliError> {
    match cmd {
        GenerateCommand::Man { dir } => {
            crate::cli::render::write_man_pages(&dir).map_err(|e| {
                CliError::user(format!(
                    "could not write man pages into `{}`",
                    dir.display()
                ))
                .caused_by(&e)
            })?;
            Ok(ExitCode::SUCCESS)
        }
        GenerateCommand::Completions { shell } => {
            crate::cli::out(&crate::cli::render::completion_script(shell));
            Ok(ExitCode::SUCCESS)
        }
    }
}
