//! Access to git: reading repository state in-process with gix
//! ([`repo`]), and running the `git` executable for every change the user
//! will see in their history ([`run`]), so their hooks, signing and config
//! apply exactly as if they had typed the command, with the pathspecs that
//! keep our own store out of it ([`pathspec`]); the one reading of
//! `git status` ([`status`]) and of the plumbing's output ([`plumbing`]).

pub mod lease;
pub mod pathspec;
pub mod plumbing;
pub mod protect;
pub mod repo;
pub mod run;
pub mod status;

pub use repo::{Head, Repo, RepoError};
pub use run::{GitCommand, GitError};
