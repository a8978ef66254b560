//! What the judge knows about programs beyond their rows in the catalog
//! (`policy::catalog`, where each program's [`Kind`] and escapes are):
//! how a name is read, the variables whose value runs, Windows' commands
//! that destroy, archive extractors, ssh's clients. A program with no kind
//! is "another program": allowed (after the dirty-set snapshot) unless
//! `fararoni.hook.unknownPrograms` is `deny`.

use crate::policy::catalog;
pub use crate::policy::catalog::{Escape, Kind, Lang, Wrapper};

/// Our own program: its verbs are judged by a table of their own, `run`
/// as a wrapper.
pub const OURS: &str = "git-fararoni";
/// Our other binaries (`git-fararoni-saga`, `git-fararoni-shadow`): never
/// for agents.
pub const OURS_SIBLINGS: &str = "git-fararoni-";

/// Commands of PowerShell (cmdlets and their aliases) and cmd.exe that
/// delete, move or overwrite files, lower-case: a Windows shell's command
/// string that runs one is vetoed (the guard does not parse those
/// languages, so it cannot ask what would be lost).
pub const WINDOWS_DESTROYS: &[&str] = &[
    // PowerShell.
    "remove-item",
    "ri",
    "rm",
    "rmdir",
    "del",
    "erase",
    "rd",
    "move-item",
    "mi",
    "move",
    "mv",
    "copy-item",
    "cpi",
    "copy",
    "cp",
    "clear-content",
    "clc",
    "set-content",
    "sc",
    "out-file",
    "clear-item",
    "cli",
    "rename-item",
    "rni",
    "ren",
    "remove-itemproperty",
    // cmd.exe.
    "rename",
    "xcopy",
    "robocopy",
    "format",
    "cipher",
];

/// The name a program is known by: as written, or as a case-insensitive
/// file system finds it (`RM`, `Git` run rm and git on macOS and
/// Windows) and without Windows' `.exe` (Git Bash runs `rm.exe`).
pub fn canonical(name: &str) -> String {
    if kind(name).is_some() {
        return name.to_string();
    }
    let lower = name.to_ascii_lowercase();
    let bare = lower.strip_suffix(".exe").unwrap_or(&lower).to_string();
    if kind(&bare).is_some() {
        bare
    } else {
        name.to_string()
    }
}

/// Looks a program up by name (a path's last name, see [`canonical`]).
pub fn kind(name: &str) -> Option<Kind> {
    if let Some(kind) = catalog::lookup(name).and_then(|e| e.hook) {
        return Some(kind);
    }
    // `mkfs.ext4`, `mkfs.vfat`, `mkfs.btrfs`, …
    if name.starts_with("mkfs.") {
        return Some(Kind::Disk);
    }
    // `python3.12`, `perl5.36`, `ruby3.2`, `node18`.
    for (prefix, lang) in [
        ("python", Lang::Python),
        ("perl", Lang::Perl),
        ("ruby", Lang::Ruby),
        ("node", Lang::Node),
        ("php", Lang::Php),
    ] {
        if let Some(v) = name.strip_prefix(prefix) {
            if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Some(Kind::Interpreter(lang));
            }
        }
    }
    None
}

/// The options with which a disk tool only lists or reports (`fdisk -l`,
/// `sfdisk --dump`, `parted -l`, `wipefs` without `-a` only lists too).
pub const DISK_LISTING: &[&str] = &[
    "-l",
    "--list",
    "-d",
    "--dump",
    "-J",
    "--json",
    "-V",
    "--version",
    "-h",
    "--help",
];

/// Whether a program reads a script from stdin with these arguments (no
/// script operand, or `-`), for shells and interpreters.
pub fn reads_code_from_stdin(args: &[String], kind: Kind) -> bool {
    match kind {
        Kind::Shell => {
            if args.iter().any(|a| a == "-s") {
                return true;
            }
            !args.iter().any(|a| {
                (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                    || !a.starts_with('-')
            })
        }
        Kind::Interpreter(_) => {
            let code_opt = |a: &str| {
                matches!(
                    a,
                    "-c" | "-e" | "-E" | "-r" | "-m" | "--eval" | "-p" | "--print" | "eval"
                ) || (a.starts_with('-')
                    && !a.starts_with("--")
                    && (a.ends_with('e') || a.ends_with('c')))
            };
            if args.iter().any(|a| code_opt(a)) {
                return false;
            }
            args.iter().all(|a| a.starts_with('-')) || args.iter().any(|a| a == "-")
        }
        _ => false,
    }
}

/// Words that, first in a [`Kind::Runner`]'s text, run or type the rest:
/// expect's `spawn`, `exec`, `system` and `send`, screen's `stuff`,
/// emacs's `(shell-command …)` and its kin too.
pub const RUNS_THE_REST: &[&str] = &[
    "spawn",
    "exec",
    "system",
    "send",
    "stuff",
    "shell-command",
    "async-shell-command",
    "call-process-shell-command",
];

/// What a program started with an environment variable does with its
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarRuns {
    /// The value is a command line run here (`GIT_SSH_COMMAND`, `PAGER`,
    /// `RSYNC_RSH`): judged as one.
    Line,
    /// The value is expanded by a shell before use (`BASH_ENV`, `PS4`):
    /// its substitutions run.
    Expanded,
    /// less's input preprocessor: a command line after `|` or `||` (a
    /// leading `-` too), with `%s` for the file.
    LessPipe,
    /// Where programs and code are looked up or preloaded from (`PATH`,
    /// `LD_PRELOAD`, zsh's `ZDOTDIR`): what runs is no longer what the
    /// line names, so it counts as another program — allowed after the
    /// dirty-set snapshot.
    Loads,
}

/// Environment variables whose value some program runs here. An
/// assignment of one — before a command, alone, through `export`,
/// `declare`, `env` or `sudo` — is judged as the command it would run,
/// whatever the program: git, rsync, ssh and less are not the only ones
/// to start git, rsync, ssh or a pager.
pub const COMMAND_VARS: &[(&str, VarRuns)] = &[
    // git (git(1) ENVIRONMENT; the config keys behind them are refused
    // by the git policy's `-c` allow-list).
    ("GIT_SSH_COMMAND", VarRuns::Line),
    ("GIT_SSH", VarRuns::Line),
    ("GIT_ASKPASS", VarRuns::Line),
    ("GIT_EDITOR", VarRuns::Line),
    ("GIT_SEQUENCE_EDITOR", VarRuns::Line),
    ("GIT_PAGER", VarRuns::Line),
    ("GIT_EXTERNAL_DIFF", VarRuns::Line),
    ("GIT_PROXY_COMMAND", VarRuns::Line),
    // Read by git, man, less, crontab, sudoedit and most terminal tools.
    ("EDITOR", VarRuns::Line),
    ("VISUAL", VarRuns::Line),
    ("PAGER", VarRuns::Line),
    ("MANPAGER", VarRuns::Line),
    ("SYSTEMD_PAGER", VarRuns::Line),
    ("BROWSER", VarRuns::Line),
    ("SSH_ASKPASS", VarRuns::Line),
    ("SUDO_ASKPASS", VarRuns::Line),
    // less runs `|CMD %s` input preprocessors.
    ("LESSOPEN", VarRuns::LessPipe),
    ("LESSCLOSE", VarRuns::LessPipe),
    // rsync: the remote shell (as `-e`), and the program that connects
    // to an `rsync://` daemon (run through `sh -c`).
    ("RSYNC_RSH", VarRuns::Line),
    ("RSYNC_CONNECT_PROG", VarRuns::Line),
    // bash and sh expand these (command substitution included) before
    // use: BASH_ENV/ENV in every non-interactive/interactive shell, PS4
    // under `set -x`, PROMPT_COMMAND before each prompt.
    ("BASH_ENV", VarRuns::Expanded),
    ("ENV", VarRuns::Expanded),
    ("PS4", VarRuns::Expanded),
    ("PROMPT_COMMAND", VarRuns::Line),
    // `PATH=./bin:$PATH ls` runs ./bin/ls; the loader runs LD_PRELOAD's
    // code in every program; zsh sources $ZDOTDIR/.zshenv even for
    // `zsh -c`; glibc loads iconv modules from GCONV_PATH.
    ("PATH", VarRuns::Loads),
    ("LD_PRELOAD", VarRuns::Loads),
    ("LD_LIBRARY_PATH", VarRuns::Loads),
    ("LD_AUDIT", VarRuns::Loads),
    ("ZDOTDIR", VarRuns::Loads),
    ("GCONV_PATH", VarRuns::Loads),
];

/// Whether `name`'s value is run (see [`COMMAND_VARS`]).
pub fn command_var(name: &str) -> Option<VarRuns> {
    COMMAND_VARS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
}

/// Options of multi-call binaries that write files themselves, and where
/// they write without a folder named: `busybox --install [-s] [DIR]`
/// links every applet into DIR, or else into the system folders and
/// `/linuxrc` (confirmed by effect, BusyBox 1.35). Their other options
/// (`--list`, `--help`; toybox's `--long`) only print.
pub const MULTICALL_INSTALLS: &[(&str, &str, &[&str])] = &[(
    "busybox",
    "--install",
    &["/bin", "/sbin", "/usr/bin", "/usr/sbin", "/linuxrc"],
)];

/// Whether `name` has options that make it write or run (its catalog
/// row's escapes).
pub fn has_escapes(name: &str) -> bool {
    catalog::lookup(name).is_some_and(|e| !e.escapes.is_empty())
}

/// The escapes of `name`'s catalog row found in `args` (program first):
/// each escape with its value (attached or the next word; `None` at the
/// end) and the index of the word after it.
pub fn read_only_escapes(name: &str, args: &[String]) -> Vec<(Escape, Option<String>, usize)> {
    let Some(table) = catalog::lookup(name).map(|e| e.escapes) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        for (opt, escape) in table.iter() {
            let value = if *opt == "+" {
                a.strip_prefix('+').map(|v| Some(v.to_string()))
            } else if a == *opt {
                let v = args.get(i).cloned();
                if *escape != Escape::Exec && *escape != Escape::InPlace {
                    i += 1;
                }
                Some(v)
            } else if opt.starts_with("--") {
                a.strip_prefix(&format!("{opt}="))
                    .map(|v| Some(v.to_string()))
            } else if opt.len() == 2 && !a.starts_with("--") && a.starts_with(opt) {
                Some(Some(a[2..].to_string()))
            } else {
                None
            };
            if let Some(v) = value {
                out.push((*escape, v, i));
                break;
            }
        }
    }
    out
}

/// Archive extractors: the options naming the folder they extract into,
/// and the options that let members be written at their own absolute
/// paths. Extracting is another program (allowed after the dirty-set
/// snapshot), but not into a protected place or an existing folder
/// outside the working tree and the temp folder (`tar -xf x.tar -C ~`
/// plants `~/.ssh/config`).
pub const EXTRACTORS: &[Extractor] = &[
    Extractor {
        program: "tar",
        extracts: &["-x", "--extract", "--get"],
        into: &["-C", "--directory"],
        absolute: &["-P", "--absolute-names"],
    },
    Extractor {
        program: "bsdtar",
        extracts: &["-x"],
        into: &["-C", "--cd", "--directory"],
        absolute: &["-P", "--absolute-paths"],
    },
    Extractor {
        program: "unzip",
        extracts: &[],
        into: &["-d"],
        absolute: &[],
    },
];

/// One row of [`EXTRACTORS`]. Short options are also found inside a
/// cluster (`-xPf`) and tar's old style first word (`xPf`).
#[derive(Debug)]
pub struct Extractor {
    /// The program.
    pub program: &'static str,
    /// Options that make it extract (empty: it always does).
    pub extracts: &'static [&'static str],
    /// Options whose value is the folder written into.
    pub into: &'static [&'static str],
    /// Options that write members at their absolute paths.
    pub absolute: &'static [&'static str],
}

impl Extractor {
    /// Whether `option` is given in `args` (as a word, inside a short
    /// cluster, or in tar's old-style first word).
    fn given(&self, args: &[String], option: &str) -> bool {
        args.iter().enumerate().any(|(k, a)| {
            if a == option || (option.starts_with("--") && a.starts_with(&format!("{option}="))) {
                return true;
            }
            let Some(letter) = option.strip_prefix('-').filter(|l| l.len() == 1) else {
                return false;
            };
            let old_style = k == 0 && self.program == "tar" && !a.starts_with('-');
            let cluster = a.starts_with('-') && !a.starts_with("--");
            (old_style || cluster) && a.trim_start_matches('-').contains(letter)
        })
    }

    /// What `args` (without the program) extract into: `None` when they do
    /// not extract; the folders named (empty: the current one); whether
    /// members keep absolute paths.
    pub fn reading(&self, args: &[String]) -> Option<(Vec<String>, bool)> {
        if !self.extracts.is_empty() && !self.extracts.iter().any(|o| self.given(args, o)) {
            return None;
        }
        let mut dirs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            for o in self.into {
                if a == o {
                    dirs.extend(args.get(k + 1).cloned());
                } else if let Some(v) = a.strip_prefix(&format!("{o}=")) {
                    dirs.push(v.to_string());
                } else if o.len() == 2 && !a.starts_with("--") && a.len() > 2 && a.starts_with(o) {
                    dirs.push(a[2..].to_string());
                }
            }
        }
        let absolute = self.absolute.iter().any(|o| self.given(args, o));
        Some((dirs, absolute))
    }
}

/// OpenSSH's clients, read alike: (program, short options that take a
/// value, those whose value is a program run here, whether a command for
/// the host follows the host). All read `-o ProxyCommand=…`,
/// `LocalCommand`, `KnownHostsCommand` and a `-F` file, which run here;
/// `scp -S PROG`, `sftp -S PROG` run PROG instead of ssh and
/// `sftp -D CMD` runs a local sftp server (ssh(1), scp(1), sftp(1)).
pub const SSH_CLIENTS: &[(&str, &str, &str, bool)] = &[
    ("ssh", "bcDEeFIiJLlmOopQRSWw", "", true),
    ("scp", "cDFiJlMoPSX", "S", false),
    ("sftp", "BbcDFiJlMoPRSsX", "DS", false),
];
