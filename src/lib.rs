//! git-fararoni: a deterministic router in front of an LLM coding agent,
//! and the guardrails around every write.
//!
//! The library holds all logic; the binaries are thin mains over [`cli`].
//!
//! The modules below are listed in layers, lowest first. A module may
//! import only modules of lower layers. `tests/cli/test_layers.rs` reads
//! this file and every `crate::` path in `src/`, and fails on an import
//! that points sideways or up. Only `cli` prints.

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
// ── layer 1: reading and writing the repository ──
pub mod git;
// ── layer 2: the repository lock ──
pub mod lock;
// ── layer 3: settings ──
pub mod settings;
// ── layer 4: the policy, the shadow store, sagas ──
pub mod policy;
pub mod saga;
pub mod shadow;
// ── layer 5: the kill-switch and guarded writes ──
pub mod guard;
// ── layer 6: routing, and the I/O behind the policy's questions ──
pub mod facts;
pub mod router;
// ── layer 7: the executor ──
pub mod exec;
// ── layer 8: git hooks and other agents' hooks ──
pub mod hooks;
// ── layer 9: containment and recovery around a command ──
pub mod contain;
// ── layer 10: the model levels ──
pub mod agent;
// ── layer 11: diagnosis ──
pub mod doctor;
// ── layer 12: the command line, the only layer that prints ──
pub mod cli;
