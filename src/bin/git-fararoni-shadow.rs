//! `git-fararoni-shadow`: a thin main over the library.
//!
//! On linux-gnu the process starts at a C `main` that skips std's runtime
//! set-up (see `git_fararoni::cli::start`): `ask "git status"` is a
//! process start and an exec, and that set-up was a fifth of it.
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

git_fararoni::entry_point!(Shadow);
