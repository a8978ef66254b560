//! Levels 3–5, the stochastic zone: a model with tools, governed.
//!
//! `client` is the contract every model implementation fulfils (an HTTP
//! server today, an in-process engine later); the rest of the agent talks
//! only to [`client::LlmClient`].

pub mod cascade;
pub mod client;
pub mod dirty;
pub mod distill;
pub mod extract;
pub mod gate;
pub mod http;
pub mod levels;
pub mod local;
pub mod modes;
pub mod normalize;
pub mod protocol;
pub mod run;
pub mod script;
pub mod secrets;
pub mod session_log;
pub mod tools;
