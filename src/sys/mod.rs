//! The process-level calls the standard library does not offer: a Ctrl-C
//! flag and process-group kills. A leaf layer, and with [`crate::fsx`] and
//! the start-up shim the only home of `unsafe` code.
#![allow(unsafe_code)]

pub mod interrupt;
pub mod process;
