//! File-system primitives that must hold against a hostile working tree:
//! verified directory handles ([`dir`]), atomic replacement ([`atomic`]),
//! and the order in which a guarded write reaches the disk ([`durable`]).
//! A leaf layer, and the only home of `unsafe` file-system code.
#![allow(unsafe_code)]

pub mod atomic;
pub mod dir;
pub mod durable;
