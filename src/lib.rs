//! git-fararoni: a deterministic router in front of an LLM coding agent,
//! and the guardrails around every write.
//!
//! The library holds all logic; the binaries are thin mains over [`cli`].

pub mod agent;
pub mod ask;
pub mod cli;
pub mod clock;
pub mod config;
pub mod docs;
pub mod doctor;
pub mod error;
pub mod exec;
pub mod git;
pub mod guard;
pub mod hooks;
pub mod lock;
pub mod policy;
pub mod router;
pub mod sandbox;
pub mod saga;
pub mod settings;
pub mod shadow;
pub mod text;
