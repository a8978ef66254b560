//! One file per verb: its clap arguments and the function that carries it
//! out and renders the result.

pub mod agent;
pub mod agent_hooks;
pub mod ask;
pub mod config;
pub mod distill;
pub mod docs;
pub mod doctor;
pub mod generate;
pub mod guard;
pub mod guard_hook;
pub mod hooks;
pub mod models;
pub mod parse_tool_calls;
pub mod run;
pub mod saga;
pub mod session;
pub mod shadow;
pub mod undo;
