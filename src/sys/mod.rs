//! The process-level calls the standard library does not offer: a Ctrl-C
//! flag, process-group kills and huge pages under large allocations. A leaf layer, and with [`crate::fsx`] and
//! the start-up shim the only home of `unsafe` code.
#![allow(unsafe_code)]

pub mod alloc;
pub mod interrupt;
pub mod process;
