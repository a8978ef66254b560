//! `git fararoni distill [FILE]`: a build's output reduced to its
//! actionable errors, for anyone to pipe a build into.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::agent::distill;
use crate::cli::error::CliError;

/// Reduce a build's output to at most 3000 characters of actionable errors
///
/// Reads FILE (standard input by default) and prints the distillate the
/// agent's model sees: every distinct error location and message while
/// there are up to 10 errors, or that the build succeeded. Knows cargo and
/// rustc, gcc/clang/make, javac/Maven/Gradle, tsc/eslint/npm, go,
/// pytest/Python tracebacks and dotnet.
#[derive(Debug, Args)]
pub(crate) struct DistillArgs {
    /// The build's exit code, when known (a non-zero code is never reported as success)
    #[arg(long, value_name = "CODE", allow_negative_numbers = true)]
    exit_code: Option<i32>,
    /// The build output; `-` or nothing reads standard input
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// The most bytes read (a larger log is distilled from its first 64 MiB).
const READ_CAP: u64 = 64 << 20;

pub(crate) fn run(args: DistillArgs) -> Result<ExitCode, CliError> {
    let mut bytes = Vec::new();
    match args.file.as_deref() {
        None => {
            std::io::stdin()
                .take(READ_CAP)
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::user("could not read standard input").caused_by(&e))?;
        }
        Some(p) if p.as_os_str() == "-" => {
            std::io::stdin()
                .take(READ_CAP)
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::user("could not read standard input").caused_by(&e))?;
        }
        Some(p) => {
            let f = std::fs::File::open(p).map_err(|e| {
                CliError::user(format!("could not read `{}`", p.display())).caused_by(&e)
            })?;
            f.take(READ_CAP).read_to_end(&mut bytes).map_err(|e| {
                CliError::user(format!("could not read `{}`", p.display())).caused_by(&e)
            })?;
        }
    }
    let d = distill::distill(&String::from_utf8_lossy(&bytes), args.exit_code);
    crate::cli::out(&format!("{}\n", d.text.trim_end()));
    Ok(ExitCode::SUCCESS)
}
