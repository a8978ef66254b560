//! Settings: one table of every `fararoni.*` key ([`table`]), read once
//! into [`Settings`] ([`loaded`]) with where each value comes from
//! ([`resolve`]). Environment variables override
//! git config, which git itself resolves (system, global, repository,
//! worktree, `git -c`, includes); protective settings cannot be set weaker
//! than their bound ([`crate::settings::read::protective_value`]).

pub mod loaded;
pub mod read;
pub mod resolve;
pub mod table;

pub use loaded::{of, Settings};
pub use resolve::{Resolved, Source, Unknown};
pub use table::{find, nearest, Bound, Kind, Setting, PROTECTIVE, SETTINGS};
