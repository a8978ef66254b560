//! Everything the product knows about a program, one row per program
//! ([`CATALOG`]): how the hook judge treats it (its [`Kind`] and the
//! options that make a reading program write or run), the option table
//! level 1 parses it with (when level 1 runs it), what its operands are,
//! whether the router takes a line starting with it for a command line,
//! whether its name is also an everyday word, and the builds and tests
//! our agent may run with it. A new program is one row.
//!
//! The catalog sits in `policy` because its rows hold the policy's own
//! types (option tables, rules, builds); `router`, `hooks` and `agent`
//! are above it and read it from here.

mod rows;
mod wrappers;

use std::collections::HashMap;
use std::sync::OnceLock;

pub use rows::CATALOG;

use super::builds::Build;
use super::utils::Program;

/// How the judge treats a program.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Reads only (or changes only the shell's own state).
    ReadOnly,
    /// Runs the command that follows its own options.
    Wrapper(&'static Wrapper),
    /// A shell: `-c STRING` is a command line; stdin may be one.
    Shell,
    /// `eval`, `trap`: its words joined are a command line.
    Eval,
    /// `xargs`.
    Xargs,
    /// GNU `parallel`: a command template filled from `:::` words, files
    /// or stdin, or (with no template) the words themselves as commands.
    Parallel,
    /// `busybox`, `toybox`: the first word is the program (the applet).
    Multicall,
    /// `pwsh -c`, `powershell -Command`, `cmd /c`: a command string in
    /// another shell's language.
    WindowsShell,
    /// `find`.
    Find,
    /// `ssh HOST CMD`, `watch CMD`, `su -c CMD`: joined words are a
    /// command line run elsewhere (judged as if here).
    Remote,
    /// Runs text it is given as commands in ways too varied to read
    /// exactly: a terminal multiplexer's shell-command, `script -c`,
    /// entr's utility, at's stdin. Whatever command its arguments could
    /// hold is judged.
    Runner,
    /// `git`.
    Git,
    /// An interpreter of inline code.
    Interpreter(Lang),
    /// Deletes, overwrites or changes the files it is given.
    Files,
    /// Fetches from the network (piped into a shell: vetoed).
    Fetcher,
    /// Can hand out a shell to the network (`nc -e`, `socat EXEC:`).
    Listener,
    /// `cd`, `pushd`, `popd`: moves the judge's cwd.
    Cd,
    /// Formats, partitions or wipes disks (`mkfs.*`, `wipefs`, `fdisk`):
    /// only its listing options read.
    Disk,
    /// `alias NAME=VALUE`.
    Alias,
    /// `crontab`: only `-l` reads.
    Crontab,
    /// `source FILE`, `. FILE`: runs a script the guard cannot see.
    Source,
}

/// The language of inline code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Python.
    Python,
    /// JavaScript (node, deno, bun).
    Node,
    /// Perl.
    Perl,
    /// Ruby.
    Ruby,
    /// PHP.
    Php,
}

/// How a wrapper's own arguments end and the wrapped command starts.
#[derive(Debug)]
pub struct Wrapper {
    /// Options that take the next word as their value (short or long).
    pub with_value: &'static [&'static str],
    /// Plain words the wrapper takes before the command (`timeout 5`).
    pub positionals: usize,
    /// Options after which there is no command to run (`command -v`).
    pub no_command: &'static [&'static str],
    /// Options whose value is a command line (`npx -c`, `flock -c`).
    pub command_string: &'static [&'static str],
    /// Whether `NAME=VALUE` words before the command set its environment
    /// (`sudo GIT_PAGER=… git log`), as they do for `env`.
    pub assignments: bool,
    /// The sub-commands that run the command (`uv run`, `npm exec`);
    /// empty when the wrapper always does. With another sub-command the
    /// program is just another program.
    pub verbs: &'static [&'static str],
    /// Whether the command runs in another folder (chroot's new root,
    /// systemd-run's unit: `/` or the home): its relative paths are not
    /// the ones here.
    pub moves_cwd: bool,
    /// Options after which the command's words are joined and run by a
    /// shell (`sudo -s CMD`, `sudo -i CMD`).
    pub shell_flags: &'static [&'static str],
}

/// What an option does to a program that otherwise only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// Its value is a file the program writes (`tree -o FILE`).
    Output,
    /// Its value is a command line run here (`man -P CMD`).
    Line,
    /// Its value is a program run on each file read (`rg --pre PROG`).
    PerFile,
    /// The words after it, up to `;` or the end, are a command run on
    /// each file found, `{}` standing for it (`fd -x CMD`).
    Exec,
    /// The program's operands are rewritten in place (`yq -i`).
    InPlace,
    /// It runs code from a file or library the guard does not read
    /// (`awk -f prog.awk`, `less +!CMD`): another program, allowed after
    /// the dirty-set snapshot.
    Unseen,
}

/// What the words after a utility level 1 runs are, to tell its operands
/// from prose that starts with its name ("cat videos lol").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    /// Files: a plain word must be a path that exists.
    Paths,
    /// A pattern, then files (`grep TODO src`).
    PatternThenPaths,
    /// Free text or names (`echo`, `date +%F`).
    Free,
    /// Programs on `PATH` (`which cargo`).
    Programs,
    /// Files, then an expression from the first option on (`find`).
    PathsThenExpression,
    /// None: only options.
    Nothing,
}

/// One program: a row of [`CATALOG`].
#[derive(Clone, Copy)]
pub struct Entry {
    /// Its name (after any directory: `/bin/rm` is `rm`).
    pub name: &'static str,
    /// How the hook judge treats it; `None`: another program, allowed
    /// after the dirty-set snapshot unless `fararoni.hook.unknownPrograms`
    /// is `deny`.
    pub hook: Option<Kind>,
    /// Options that make a program of [`Kind::ReadOnly`] write files or
    /// run commands. A short option matches with its value attached
    /// (`-fprog`), a long one with `=`; an entry of nothing but `+`
    /// matches every word starting with `+`.
    pub escapes: &'static [(&'static str, Escape)],
    /// Level 1's option table and rule, when level 1 runs it.
    pub utility: Option<Program>,
    /// What its operands are (level 1 utilities; files unless said).
    pub operands: Operands,
    /// Whether the router takes a line starting with it for a command
    /// line though level 1 never runs it (the policy then refuses it).
    pub command: bool,
    /// Whether its name is also an everyday word ("sort imports", "code
    /// review"): a line starting with it is a command only with no
    /// arguments or arguments that look like flags or paths.
    pub word: bool,
    /// The builds and tests our agent may run with it, tried in order.
    pub builds: &'static [Build],
}

/// A row naming `name` and nothing else about it yet.
const fn program(name: &'static str) -> Entry {
    Entry {
        name,
        hook: None,
        escapes: &[],
        utility: None,
        operands: Operands::Paths,
        command: false,
        word: false,
        builds: &[],
    }
}

impl Entry {
    /// The same row, judged by the hook as `kind`.
    const fn hook(self, kind: Kind) -> Entry {
        Entry {
            hook: Some(kind),
            ..self
        }
    }

    /// The same row, with options that make it write or run.
    const fn escapes(self, escapes: &'static [(&'static str, Escape)]) -> Entry {
        Entry { escapes, ..self }
    }

    /// The same row, run by level 1 as `spec` says.
    const fn utility(self, spec: Program) -> Entry {
        Entry {
            utility: Some(spec),
            ..self
        }
    }

    /// The same row, with operands that are not files.
    const fn operands(self, operands: Operands) -> Entry {
        Entry { operands, ..self }
    }

    /// The same row, a command name to the router.
    const fn command(self) -> Entry {
        Entry {
            command: true,
            ..self
        }
    }

    /// The same row, whose name is also an everyday word.
    const fn word(self) -> Entry {
        Entry { word: true, ..self }
    }

    /// The same row, with builds our agent may run.
    const fn builds(self, builds: &'static [Build]) -> Entry {
        Entry { builds, ..self }
    }

    /// Whether the router reads a line starting with this name as a
    /// command line: level 1 runs it, or knows it and refuses it.
    pub fn names_a_command(&self) -> bool {
        self.utility.is_some() || self.command
    }
}

/// The row of `name`, exactly as written (no case folding, no
/// directory: the callers decide how a word names a program).
pub fn lookup(name: &str) -> Option<&'static Entry> {
    // Built once per process, by every hook call: a fixed fast hash (the
    // names are ours, no attacker chooses the keys inserted) costs a third
    // of SipHash's build.
    type Index = HashMap<&'static str, &'static Entry, foldhash::fast::FixedState>;
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX
        .get_or_init(|| {
            let mut index = Index::with_capacity_and_hasher(CATALOG.len(), Default::default());
            for e in CATALOG {
                index.entry(e.name).or_insert(e);
            }
            index
        })
        .get(name)
        .copied()
}

/// Whether the router reads a line starting with `name` as a command
/// line (a utility level 1 runs, or a program it knows and refuses: git's
/// own policy is one of those).
pub fn names_a_command(name: &str) -> bool {
    lookup(name).is_some_and(Entry::names_a_command)
}

/// Whether `name` is a program that is also an everyday word.
pub fn is_word(name: &str) -> bool {
    lookup(name).is_some_and(|e| e.word)
}

/// Every program level 1 runs, with its option table and rule.
pub fn utilities() -> impl Iterator<Item = (&'static str, &'static Program)> {
    CATALOG
        .iter()
        .filter_map(|e| e.utility.as_ref().map(|u| (e.name, u)))
}

/// Every name the router reads as a command.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    CATALOG
        .iter()
        .filter(|e| e.names_a_command())
        .map(|e| e.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_program() {
        let mut seen = std::collections::HashSet::new();
        for e in CATALOG {
            assert!(seen.insert(e.name), "`{}` has two rows", e.name);
            assert!(lookup(e.name).is_some_and(|f| std::ptr::eq(e, f)));
        }
        assert!(lookup("Ls").is_none() && lookup("ls ").is_none() && lookup("").is_none());
    }

    #[test]
    fn escapes_are_for_programs_that_only_read() {
        for e in CATALOG.iter().filter(|e| !e.escapes.is_empty()) {
            assert!(matches!(e.hook, Some(Kind::ReadOnly)), "{}", e.name);
        }
    }

    #[test]
    fn a_word_or_a_command_row_says_so_to_the_router() {
        assert!(names_a_command("git") && names_a_command("ls") && names_a_command("rsync"));
        assert!(!names_a_command("niceload") && !names_a_command("hello"));
        assert!(is_word("sort") && is_word("make") && !is_word("rsync"));
    }
}
