//! The pathspecs that name the user's work: everything in the working tree
//! but git-fararoni's own store, `.fararoni/` at the top. Every git
//! invocation of ours that stages, snapshots or lists the user's work takes
//! them from here ([`GitCommand::user_work`]).
//!
//! Why `:(top,exclude,glob)[.]fararoni/**` and not `:!.fararoni/`: `git
//! add` (and `git stash -u`, which runs it) exits 1, after staging
//! everything else, when a pathspec names a path git ignores, and it counts
//! exclude pathspecs too: it compares the pattern's text before its first
//! wildcard with the ignored folder's name. So `:!.fararoni`,
//! `:!.fararoni/` and `:(exclude,glob).fararoni/**` all fail once
//! `.fararoni/` is ignored, by `info/exclude` (which the shadow store
//! writes) or by a `.gitignore`. A pattern that starts with a wildcard has
//! no such text and names nothing: `[.]` matches the dot alone, `/**`
//! everything below it, and git still skips the folder without reading it.
//! One argv is then right whether the store is ignored or not, and it also
//! leaves out files of the store that someone committed (asking `git
//! check-ignore` first and dropping the exclusion would stage those).
//!
//! Never runs git; only builds arguments.

use super::GitCommand;

/// The store's folder, relative to the top of the working tree.
pub const STORE: &str = ".fararoni";

/// Everything in the working tree, wherever in it git runs.
pub const WHOLE_TREE: &str = ":(top)";

/// Leaves the store's content out of a pathspec list, ignored by git or not.
pub const NOT_STORE: &str = ":(top,exclude,glob)[.]fararoni/**";

/// The store, for commands that only compare (`diff-index`), which never
/// refuse an ignored path. Literal, so that checking what [`NOT_STORE`]
/// left out does not rest on git reading a glob the same way twice.
pub const ONLY_STORE: &str = ":(top,literal).fararoni";

/// The pathspec list of the user's work, `--` included.
pub const USER_WORK: [&str; 3] = ["--", WHOLE_TREE, NOT_STORE];

/// The environment variables that change how git reads every pathspec
/// (`GIT_LITERAL_PATHSPECS=1` would make git look for a file named
/// `:(top)`); ours are written for git's defaults.
pub const PATHSPEC_ENV: [&str; 4] = [
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
];

/// Returns whether `path` (relative to the top, as git prints it) is in the
/// store.
pub fn in_store(path: &str) -> bool {
    path.strip_prefix(STORE)
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|inside| !inside.is_empty())
}

impl GitCommand {
    /// Appends the pathspecs of the user's work ([`USER_WORK`]) and makes
    /// git read them as written.
    pub fn user_work(self) -> GitCommand {
        self.extend_args(USER_WORK).pathspecs_as_written()
    }

    /// Makes git read pathspecs with its defaults, whatever the caller's
    /// environment asks for ([`PATHSPEC_ENV`]).
    pub fn pathspecs_as_written(self) -> GitCommand {
        PATHSPEC_ENV
            .iter()
            .fold(self, |cmd, key| cmd.env_remove(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pathspec_store_patterns_name_the_store() {
        // The exclusion's pattern starts with a wildcard (see the module
        // doc) and, read as a glob, is the store's content.
        let pattern = |spec: &'static str| spec.rsplit(')').next().unwrap_or_default();
        assert!(pattern(NOT_STORE).starts_with('['));
        assert_eq!(
            pattern(NOT_STORE).replace("[.]", "."),
            format!("{STORE}/**")
        );
        assert_eq!(pattern(ONLY_STORE), STORE);
    }

    #[test]
    fn pathspec_in_store_is_the_top_folder_only() {
        for inside in [".fararoni/journal.jsonl", ".fararoni/shadow/a b.v1.x"] {
            assert!(in_store(inside), "{inside}");
        }
        for outside in [
            ".fararoni",
            ".fararoni/",
            ".fararonix/a",
            ".fararoni.txt",
            "sub/.fararoni/a",
            ".FARARONI/a",
            "fararoni/a",
        ] {
            assert!(!in_store(outside), "{outside}");
        }
    }

    #[test]
    fn pathspec_user_work_clears_the_pathspec_environment() {
        let cmd = GitCommand::new(["add", "--all"]).user_work();
        assert_eq!(
            cmd.display_args(),
            "add --all -- :(top) :(top,exclude,glob)[.]fararoni/**"
        );
        let spawned = cmd.command();
        for key in PATHSPEC_ENV {
            assert!(
                spawned
                    .get_envs()
                    .any(|(k, v)| k == std::ffi::OsStr::new(key) && v.is_none()),
                "{key} is not removed"
            );
        }
    }
}
