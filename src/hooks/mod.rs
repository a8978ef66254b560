//! Hooks: the adapters that let other coding agents (Claude Code, Gemini
//! CLI, Codex CLI, Cursor, Cline, Copilot CLI) ask git-fararoni before a
//! tool call ([`agents`]).
//!
//! Never prints: the command line writes the answers built here.

pub mod agents;
