//! git-fararoni: a deterministic router in front of an LLM coding agent,
//! and the guardrails around every write.
//!
//! The library holds all logic; the binaries are thin mains over [`cli`].

pub mod router;
pub mod text;
