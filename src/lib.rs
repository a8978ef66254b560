//! git-fararoni: a deterministic router in front of an LLM coding agent,
//! and the guardrails around every write.
//!
//! The library holds all logic; the binaries are thin mains over [`cli`].
//!
//! The modules below are listed in layers, lowest first. A module may
//! import modules of lower layers, and modules of its own layer listed
//! above it; never one below it in this list. `tests/cli/test_layers.rs`
//! reads this file and every `crate::` path in `src/`, and fails on an
//! import that points up. Only `cli` prints.

// Test code may print what it measured; product code outside `cli` may not.
#![cfg_attr(test, allow(clippy::print_stdout, clippy::print_stderr))]

// ── layer 0: leaves, no `crate::` imports ──
pub mod clock;
pub mod exit;
pub mod fsx;
pub mod sandbox;
pub mod shell;
pub mod sys;
pub mod text;
pub mod which;
// ── layer 1: the repository ──
pub mod git;
pub mod lock;
// ── layer 2: settings ──
pub mod settings;
// ── layer 3: decisions and the protection triad ──
pub mod guard;
pub mod policy;
pub mod saga;
pub mod shadow;
// ── layer 4: routing, and the I/O behind the policy's questions ──
pub mod facts;
pub mod router;
// ── layer 5: the executor ──
pub mod exec;
// ── layer 6: the agent, the hooks, the diagnosis ──
pub mod agent;
pub mod doctor;
pub mod hooks;
// ── layer 7: the command line, the only layer that prints ──
pub mod cli;
