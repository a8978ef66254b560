//! Hooks: git's own (`pre-commit`, `post-checkout`: installing ours beside
//! any others in [`git`], what they check in [`check`], with [`pairs`] for moved files and
//! symlinks) and the pre-tool-use
//! hooks of other coding agents (Claude Code, Gemini CLI, Codex CLI, Cursor,
//! Cline, Copilot CLI) in [`agents`].
//!
//! Never prints: the command line writes the answers built here.

pub mod agents;
pub mod check;
pub mod git;
pub mod pairs;
