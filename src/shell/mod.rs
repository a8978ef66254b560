//! Shell syntax, side by side: the request lexer of the Human and Agent
//! postures ([`words`]) and the bash lexer and parser of the Hook posture
//! ([`lexer`], [`parser`]). A leaf layer: it knows no program and imports
//! nothing from the crate.

pub mod lexer;
pub mod parser;
pub mod words;
