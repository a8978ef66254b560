//! `git fararoni install-docs` and `git fararoni completions SHELL`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::cli::error::CliError;

/// Install the man pages and shell completions where git and the shells look
///
/// `cargo install` cannot install man pages, and `git fararoni --help` is
/// answered by git itself, which runs `man git-fararoni`. This writes the
/// pages to PREFIX/share/man/man1 and the completions to
/// PREFIX/share/bash-completion/completions, PREFIX/share/zsh/site-functions
/// and PREFIX/share/fish/vendor_completions.d. PREFIX defaults to the
/// folder above the binary's `bin/` (`~/.cargo` after `cargo install`):
/// man finds `share/man` beside every `bin/` folder on PATH, so nothing
/// else needs setting. Without `--prefix`, the bash script also goes to
/// bash-completion's user folder (`~/.local/share/bash-completion/completions`),
/// from which git's own completion loads it for `git fararoni <TAB>`.
#[derive(Debug, Args)]
pub(crate) struct InstallDocsArgs {
    /// Install under DIR instead
    #[arg(long, value_name = "DIR")]
    prefix: Option<PathBuf>,
}

/// Print the completion script for SHELL (bash, zsh, fish)
///
/// The bash script also defines `_git_fararoni`, which git's own bash
/// completion calls for `git fararoni <TAB>`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell
    shell: clap_complete::Shell,
}

pub(crate) fn completions(args: CompletionsArgs) -> Result<ExitCode, CliError> {
    crate::cli::out(&crate::cli::render::completion_script(args.shell));
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn install_docs(args: InstallDocsArgs) -> Result<ExitCode, CliError> {
    // Without --prefix this is the user's own install: bash's user folder too.
    let bash_user = match args.prefix {
        Some(_) => None,
        None => crate::cli::render::bash_user_dir(),
    };
    let prefix = match args.prefix.or_else(crate::cli::render::default_prefix) {
        Some(p) => p,
        None => {
            return Err(
                CliError::user("could not tell where to install the documentation")
                    .hint("name a prefix: `git fararoni install-docs --prefix ~/.local`"),
            )
        }
    };
    let installed =
        crate::cli::render::install_docs(&prefix, bash_user.as_deref()).map_err(|e| {
            CliError::user(format!(
                "could not install the documentation under `{}`",
                prefix.display()
            ))
            .caused_by(&e)
            .hint("choose a folder you can write to with `--prefix DIR`")
        })?;
    let mut text = String::new();
    for f in &installed.files {
        text.push_str(&format!("installed {}\n", f.display()));
    }
    crate::cli::ui::say(&text);
    if !on_path(&prefix.join("bin")) {
        eprintln!(
            "hint: `{}` is not on PATH, so man will not find these pages by itself; add `{}` to MANPATH (e.g. `export MANPATH=\"{}:$MANPATH\"`)",
            prefix.join("bin").display(),
            prefix.join("share/man").display(),
            prefix.join("share/man").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn on_path(dir: &Path) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d == dir))
}
