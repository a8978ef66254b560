//! Every git subcommand the policy lets run or refuses by name, with every
//! option it accepts. One file per family; `lookup` finds a table by name.
//!
//! Conventions (see `crate::policy::spec`): `flag`, `req` (value required:
//! attached or the next word), `opt` (value only when attached); `.raise(RISK,
//! "why")` when giving the option makes the command riskier than its rule;
//! `.value(check)` when that depends on the value. An option missing here is
//! refused, so a table must list every option people really use.

mod common;
pub mod history;
mod inspect;
mod refs;
mod remote;
mod worktree;

use super::Command;

/// The tables, by family.
const FAMILIES: &[&[Command]] = &[
    inspect::COMMANDS,
    worktree::COMMANDS,
    refs::COMMANDS,
    remote::COMMANDS,
    history::COMMANDS,
];

/// The table of the subcommand `name` (lower case), if there is one.
pub fn lookup(name: &str) -> Option<&'static Command> {
    FAMILIES
        .iter()
        .flat_map(|f| f.iter())
        .find(|c| c.name == name)
}

pub use remote::hook_table;

/// Every table, for tests.
pub fn all() -> impl Iterator<Item = &'static Command> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::git::Rule;

    /// A table with two entries for one long name or short letter would make
    /// the parser pick whichever comes first.
    fn check_unique(path: &str, c: &Command) {
        let opts: Vec<_> = c.opts.iter().flat_map(|g| g.iter()).collect();
        for (i, a) in opts.iter().enumerate() {
            for b in &opts[i + 1..] {
                assert!(
                    a.long.is_empty() || a.long != b.long,
                    "{path}: --{} twice",
                    a.long
                );
                assert!(
                    a.short == '\0' || a.short != b.short,
                    "{path}: -{} twice",
                    a.short
                );
            }
        }
        if let Rule::Verbs(verbs, ..) = c.rule {
            for v in verbs {
                check_unique(&format!("{path} {}", v.name), v);
            }
        }
    }

    #[test]
    fn tables_are_well_formed() {
        let mut names = Vec::new();
        for c in all() {
            assert!(!names.contains(&c.name), "{} has two tables", c.name);
            names.push(c.name);
            check_unique(c.name, c);
        }
        for c in remote::hook_tables() {
            check_unique(c.name, c);
        }
    }
}
