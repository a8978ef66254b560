//! What every git we spawn is given so that a permitted command does no
//! more than it says (the protective environment), and how to find the
//! subcommand of a canonical git argument list. Owned here, below the
//! policy, because the runner applies it to every spawn.

/// Settings given to every git that level 1 spawns, through git's
/// `GIT_CONFIG_COUNT` mechanism or its own variables. None changes what a
/// permitted command does; each closes a way for a permitted command to do
/// more than it says:
/// - `GIT_NO_LAZY_FETCH=1`: in a partial clone, `show`, `log -p`, `grep`,
///   `blame` would fetch missing objects from the promisor remote.
/// - `safe.bareRepository=explicit`: a bare repository planted inside the
///   working tree is never discovered implicitly.
/// - `protocol.allow=never`: no transport at all, should any path reach one
///   (submodules, a promisor remote, an alias we did not foresee).
/// - `maintenance.auto=false`: a commit does not start background
///   maintenance, whose tasks can prune or prefetch.
/// - `core.fsmonitor=false`: a repository planted inside the working tree
///   (added as a gitlink, then visited by `status`) cannot name a program
///   for git to run; it reaches nested gits through the environment.
/// - `GIT_TERMINAL_PROMPT=0`: nothing waits on a credential prompt.
pub const PROTECTIONS: &[(&str, &str)] =
    &[("GIT_NO_LAZY_FETCH", "1"), ("GIT_TERMINAL_PROMPT", "0")];

/// Configuration forced on every git level 1 spawns (see [`PROTECTIONS`]).
pub const PROTECTED_CONFIG: &[(&str, &str)] = &[
    ("safe.bareRepository", "explicit"),
    ("protocol.allow", "never"),
    ("maintenance.auto", "false"),
    ("core.fsmonitor", "false"),
];

/// The subcommand of a canonical `git` argument list (without `git`):
/// the first word after the global options.
pub fn subcommand(args: &[String]) -> Option<&str> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-C" | "-c" => i += 2,
            w if w.starts_with('-') => i += 1,
            w => return Some(w),
        }
    }
    None
}
