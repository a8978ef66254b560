//! git hooks: installing ours beside any others ([`git`]) and what they
//! check when git runs them ([`check`]).

pub mod check;
pub mod git;
