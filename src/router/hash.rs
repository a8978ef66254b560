//! A small, fast hasher for the router's static word indexes.
//!
//! The indexes are built once from the crate's own tables and looked up
//! with a handful of short words per request: std's SipHash, made to
//! resist keys chosen by an attacker, costs more per lookup than the rest
//! of the matching. FNV-1a is enough here because the keys are fixed at
//! build time and a request only ever looks up (a crafted word can at
//! worst make its own lookup a little longer, never the index larger).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, 64-bit.
#[derive(Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A map keyed by the router's own words.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// A set of the router's own words.
pub type FastSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;
