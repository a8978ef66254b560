//! `git-fararoni`: a thin main over the library.

fn main() -> std::process::ExitCode {
    git_fararoni::cli::main(git_fararoni::cli::Entry::Main)
}
