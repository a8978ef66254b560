//! Runs a command contained: whatever it does, it writes only inside its
//! worktree (minus the protected paths), the temp dir, the tool caches of
//! [`policy::CACHES`] and the extra writable folders; it writes no device but
//! `/dev/null`, `/dev/tty` and ptys; it reaches the network only when allowed;
//! and every process it starts ends when it ends.
//!
//! A leaf layer: imports nothing from the rest of the crate, never prints,
//! never decides whether to proceed without containment (an error says what
//! failed; the caller decides).
//!
//! # How (Linux)
//! The caller spawns the hidden shim, [`command`] builds it:
//! `<exe> __sandbox-exec --level L --worktree P [--protect P]… [--write P]…
//! --net|--no-net -- CMD ARG…`, whose main calls [`run_shim`]. The shim is a
//! fresh single-threaded process, which `unshare(CLONE_NEWUSER)` requires
//! and which may allocate freely between `fork` and `exec` (a multi-threaded
//! caller could do neither in a `pre_exec` hook). A caller that is itself
//! single-threaded (`git fararoni run`) skips the shim: [`run_here`] does
//! the shim's part in that process and returns the code (a process start
//! and exit fewer, two thirds of a millisecond). A caller that saves the
//! work first starts early: [`start_here`] (in-process) or the shim with
//! [`AFTER_STDIN`] first (our agent) does everything below that needs no
//! look at the tree while the snapshot is taken, and plans only when told
//! to start — the snapshot may change the tree (a planted store set
//! aside), and the plan must protect what the command will find. At
//! [`Level::Full`] the shim (or that caller) takes a shared `flock` on the
//! worktree and forks a helper, then (when started) plans the paths
//! (creating placeholders) and sends the plan down a pipe, while the
//! helper, in parallel:
//! 1. reads the unix sockets bound outside; enters new user, mount, PID
//!    and (network off) network namespaces (the network one alone takes
//!    half a millisecond), maps the caller's uid and gid to themselves
//!    (`setgroups` denied); makes every mount private; network off:
//!    brings up loopback; covers every unix socket bound outside with
//!    `/dev/null` (the ssh agent's left reachable with the network on);
//!    mounts a private `/dev/shm`; then reads the plan and
//! 2. covers the sockets bound outside since (started ahead, the plan
//!    may come long after step 1), binds each writable root over itself,
//!    then
//!    makes every other mount read-only (one recursive `mount_setattr`,
//!    the writable roots' own mounts set back as they were, unless what
//!    one shows lies outside the roots (a bind of `/etc` into `/tmp`,
//!    whose path Landlock would allow); a remount per
//!    mount before Linux 5.12). This refuses what Landlock ABI ≤ 7 does
//!    not see — chmod, chown, utimes, xattrs — and any second path to the
//!    same files. It binds each directory between a writable root and
//!    a protected path over itself (a mount point cannot be renamed or
//!    removed: EBUSY); binds each protected path read-only over itself;
//!    re-enters the current directory by name (so a cwd inside the tree
//!    goes through the new binds);
//! 3. forks: the child is pid 1 of the new PID namespace, so when it exits
//!    the kernel kills everything it left behind; it mounts a fresh `/proc`,
//!    empties the ambient, effective, permitted and inheritable
//!    capabilities, sets `PR_SET_NO_NEW_PRIVS` and, as root,
//!    `SECBIT_NOROOT` (locked), so no exec can give a capability back (the
//!    bounding set, which only caps what an exec grants, is left as it is:
//!    emptying it took a call per capability), restricts itself with
//!    Landlock (writes allowed beneath the writable roots and on the few
//!    device files only; abstract unix sockets and signals scoped to the
//!    sandbox), resets `SIGPIPE` and the signal mask, and execs the command;
//! 4. waits for pid 1 and sends its code (or 128+N when a signal N killed
//!    it, or a setup or exec error) to the shim, which exits with it at
//!    once (or to the caller, which goes on and reaps the helper later);
//!    the helper takes the worktree's lock exclusively first (so a
//!    run started on that answer waits rather than reuse a placeholder
//!    about to go), then removes its placeholders and exits, paying the
//!    unmounts and the namespaces' teardown (RCU grace periods) after the
//!    caller has its answer. The helper gives up the caller's stdio once pid 1 is
//!    forked. `PR_SET_PDEATHSIG` chains shim → helper → pid 1: if the shim
//!    dies, everything in the sandbox dies.
//!
//! As pid 1 the command ignores signals it has no handler for (SIGTERM,
//! SIGINT) sent from inside or outside; to stop it, signal the shim: any
//! signal that ends the shim ends the command (SIGKILL through PDEATHSIG).
//!
//! At [`Level::Landlock`] (no user namespaces) there are no mounts: the
//! writable trees that hold a protected path are granted entry by entry,
//! skipping the protected ones (so the worktree's top level accepts no new
//! entry and no rename there — nor the temp dir's, when the worktree lies
//! in it); network off covers TCP only (Landlock ABI ≥ 4;
//! an older ABI with network off is an error; UDP from ABI 10); chmod,
//! utimes and xattrs on files the caller owns are *not* refused (as root:
//! every file); the processes left behind are killed by the shim, made a
//! child subreaper, after the command exits — but not if the shim itself is
//! SIGKILLed, nor a process that reaches another parent (a daemon started
//! over a unix socket).
//!
//! # Choices
//! - A protected path that does not exist yet is still protected. At the Full
//!   level: if the folder that would hold it exists inside the writable tree
//!   (`.claude/` for `.claude/settings.json`), that whole folder is bound
//!   read-only; if it would sit directly in a writable root (`.fararoni/` in
//!   the worktree), an empty directory is created there first and bound
//!   read-only, and removed after the command if still empty and no other
//!   run holds the worktree (each Full run holds a shared `flock` on it;
//!   removing a directory detaches the mounts on it in *every* namespace,
//!   so a run ending must not remove a placeholder a concurrent run uses —
//!   tested). A shim killed by SIGKILL leaves it; git shows no empty
//!   directory. So a
//!   protected *file* directly in the worktree root must exist or it would be
//!   created as a directory — callers pass only folders there. At the
//!   Landlock level nothing is created: what is not granted cannot be made.
//! - A protected path that is a symbolic link inside a writable tree is an
//!   error ([`SandboxError::ProtectedSymlink`]): its name could be replaced.
//! - A command that needs to write elsewhere (a build writing `/opt`) fails
//!   inside with EROFS (Full) or EACCES (Landlock); the caller names the
//!   setting `fararoni.sandbox.writable` in its hint. The sandbox never
//!   widens itself, and never runs a command uncontained: where nothing can
//!   be enforced [`command`] returns [`SandboxError::Unavailable`].
//! - Reads stay allowed everywhere (secrets in HOME are readable: with the
//!   network off they cannot leave).
//! - The temp dir is `$TMPDIR` of the command's environment, else `/tmp`,
//!   shared with the host (the worktree may live there); caches are only
//!   their cache folders, never a tool's config or `bin/`.
//!
//! # Attacks tried
//! Each row is a test in `tests/cli/test_sandbox.rs`, run at both levels on
//! Linux 6.18, Landlock ABI 7, as root (uid 0 mapped to itself), and the
//! main cases again as an unprivileged user (`nobody`). `$OUT` is a scratch
//! tree standing in for `/etc` and HOME.
//!
//! | attack | Full | Landlock only |
//! |---|---|---|
//! | `rm -rf $OUT`, python `shutil.rmtree`, `from shutil import rmtree as wipe`, `tar --remove-files`, `sh -c 'echo x > $OUT/f'`, `>> ~/.bashrc`, `mv $OUT/etc $WT/` | EROFS, unchanged | EACCES, unchanged |
//! | `chmod -R 000 $OUT`, `touch -d`, setxattr, `chmod 000 /dev/null`, `chmod .git/config` | EROFS, unchanged | **not refused** (Landlock has no metadata right) |
//! | write `.git/hooks/pre-commit`, `>> .git/config`, `git config core.hooksPath`, `.fararoni/x` | EROFS | EACCES |
//! | write or chmod below `.git` where a file system of its own is mounted (`.git/objects/extra`); through a bind of the outside tree into the temp dir | EROFS (protected binds read-only recursively; a writable root's mount showing an outside folder stays read-only) | below `.git`: EACCES; through the bind: **written** (Landlock judges the path; not tested) |
//! | `mv .git x`, `mv .fararoni x`, `rm -rf .git` | EBUSY (mount point), EROFS inside | EACCES |
//! | `mv .claude x && mkdir .claude && echo > .claude/settings.json`; renaming the worktree or a folder above it inside the temp dir | EBUSY (pinned) | EACCES (never granted) |
//! | missing `.fararoni/`, `.gemini/settings.json` then `mkdir -p` and write | EROFS (placeholder bound read-only) | EACCES |
//! | 150 runs back to back, each started on the previous one's answer | no placeholder left behind | (none made) |
//! | `ln -s $OUT x && echo > x/f` | EROFS: the resolved file is judged | EACCES |
//! | `.github` planted as a link out, then `rm .github && mkdir -p .github/hooks && echo > .github/hooks/h.json` | refused before anything runs (a link above a protected path), exit 125 | same |
//! | `TMPDIR=/` (or `$OUT/etc/..`, a link to `/`, the home folder or above it) given to `run` itself | not made writable: `$OUT` and `~/.bashrc` unchanged | same |
//! | `echo > /proc/self/root$OUT/f`, `/proc/1/root/…` | EROFS | EACCES |
//! | `ln .git/config cfg && echo >> cfg` | EXDEV (a link cannot cross the bind) | EXDEV (Landlock refuses linking to more rights) |
//! | `cd .git/.. && echo > f` (`..` through the bind) | writes the worktree's `f`, as intended | refused (new top-level entry) |
//! | `umount .git`, `mount -o remount,rw,bind .git`, `mount --bind`, `mount -t tmpfs` | EPERM (no capability; Landlock forbids mount changes) | EPERM |
//! | `unshare -Urm …` / `unshare -Um …` then umount | fails: writing uid_map is a write Landlock refuses; propagation change EPERM | same |
//! | raw `unshare(USER\|NS)` (succeeds), then `umount2(.git, MNT_DETACH)`, `mount` over it | EINVAL (locked copy), EPERM (Landlock), write EROFS | (no mount to remove) |
//! | `(sleep 1; write) &`, `setsid`, `nohup … &`, a grandchild of a child, then the command returns | killed with the PID namespace; no marker | killed by the subreaper; no marker |
//! | the shim SIGKILLed while a detached grandchild waits | killed (PDEATHSIG on pid 1) | **survives**, by construction (only the direct child has PDEATHSIG; not tested) |
//! | `LD_PRELOAD=evil.so` in the command's env | the library runs, contained: its write to `$OUT` fails | same |
//! | `su root -c …`, `sudo` | "cannot set groups: EPERM"; no-new-privs ignores the setuid bit, no capability left (`CapEff`, `CapPrm`, `CapAmb` 0 after an exec as root: `SECBIT_NOROOT`) | same |
//! | kill the shim, write `/proc/$PPID/mem` (orphan the command, run code outside) | the shim is outside the PID namespace (`getppid()` is 0) | refused: signal scope, and ptrace of a less restricted process |
//! | `kill -9` of a process outside | no such process (PID namespace) | EPERM (Landlock signal scope, ABI ≥ 6) |
//! | write `/dev/full`, `/dev/zero`, `/dev/loop0` | EACCES (not ENOSPC: never opened); `/dev/null`, `/dev/stderr` work | same |
//! | TCP to a loopback listener outside, network off | refused (own network namespace) | refused (Landlock TCP) |
//! | connect to a unix socket bound before the run (tmux, docker, session bus stand-in), network on or off | ECONNREFUSED (covered by `/dev/null`; with the network on, `SSH_AUTH_SOCK` is left reachable) | **reachable** (needs ABI 9) |
//!
//! Not closed: at the Landlock-only level, unix sockets stay reachable (a
//! tmux, docker or session-bus socket runs commands outside the sandbox;
//! Landlock ABI 9's `RESOLVE_UNIX`, requested here, closes those outside
//! the writable roots on kernels that have it); writable
//! caches can be poisoned for a later uncontained build; a process
//! *outside* that removes or renames over a protected path while a sandbox
//! runs detaches its read-only bind there (the kernel does so in every
//! namespace), after which the sandbox can create that path anew. `LD_PRELOAD` given
//! to the *shim* itself would run before any check, but `git-fararoni` is
//! linked statically where the C toolchain allows (see `build.rs`; it is
//! here), so no loader reads it; a dynamic build must be spawned with a
//! clean loader environment.
//!
//! macOS: [`macos::profile`] writes the same rules as a `sandbox-exec`
//! profile; it is untested here (no macOS machine).
#![allow(unsafe_code)]

use std::convert::Infallible;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

#[cfg(target_os = "linux")]
mod linux;
pub mod macos;
mod plan;
pub mod policy;
mod probe;

pub use probe::{probe, Probe};

/// The hidden subcommand word the CLI must route to [`run_shim`].
pub const SHIM_SUBCOMMAND: &str = "__sandbox-exec";

/// The shim's first argument, when given: set the sandbox up as far as it
/// can without the tree, then wait for one byte on stdin before planning
/// and starting the command (EOF first: nothing runs). A caller spawns the
/// shim this way before its snapshot, so the shim's start and the
/// namespaces happen beside it ([`start_here`] does the same in-process).
pub const AFTER_STDIN: &str = "--after-stdin";

/// What a contained command may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The worktree: writable, except the protected paths.
    pub worktree: PathBuf,
    /// Never writable: the git dir(s) (a linked worktree's own and its
    /// common dir), the effective hooks folder, `.fararoni/`, the agents'
    /// hook settings files, and the worktree's `.git` file when it is one.
    pub protected: Vec<PathBuf>,
    /// Extra writable folders (`fararoni.sandbox.writable`).
    pub writable: Vec<PathBuf>,
    /// Whether the command may reach the network (`fararoni.sandbox.network`).
    pub network: bool,
}

/// How strongly this kernel can contain a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Nothing can be enforced: running contained is an error.
    None,
    /// macOS `sandbox-exec` (untested): writes and network as at Full, but
    /// processes left behind are not killed here.
    SandboxExec,
    /// Landlock only: writes limited, protected paths granted around, TCP
    /// off when network is off (ABI ≥ 4), leftover processes killed by a
    /// subreaper.
    Landlock,
    /// User, mount, PID (and network) namespaces plus Landlock: every
    /// guarantee of the module docs.
    Full,
}

impl Level {
    /// Returns the level's name as the shim argument and `doctor` spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::SandboxExec => "sandbox-exec",
            Level::Landlock => "landlock",
            Level::Full => "full",
        }
    }

    /// Returns one sentence saying what the level guarantees.
    pub fn guarantees(self) -> &'static str {
        match self {
            Level::Full => "writes only in the worktree (minus the git dir, hooks, .fararoni/ and agent settings), temp and caches; no device writes; network only when allowed; every process ends with the command",
            Level::Landlock => "writes only in the worktree's existing entries (minus the protected ones), temp and caches; no device writes; TCP only when allowed; leftover processes killed unless they left the process tree",
            Level::SandboxExec => "writes only in the worktree (minus the protected paths), temp and caches; no device writes; network only when allowed; leftover processes are not killed (untested)",
            Level::None => "nothing can be enforced on this system",
        }
    }

    fn parse(s: &OsStr) -> Option<Level> {
        match s.to_str()? {
            "full" => Some(Level::Full),
            "landlock" => Some(Level::Landlock),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a command could not be run contained.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// This system gives no containment at all.
    #[error("no sandbox is available here ({reason}); refusing to run `{program}` uncontained")]
    Unavailable {
        /// What is missing.
        reason: String,
        /// The command that was not run.
        program: String,
    },
    /// Network off was asked for and this level cannot enforce it.
    #[error("the sandbox cannot turn the network off here (no network namespace, Landlock ABI {abi} < 4); set `fararoni.sandbox.network` to true to run `{program}` with network")]
    NetworkUnenforceable {
        /// The Landlock ABI found.
        abi: u32,
        /// The command that was not run.
        program: String,
    },
    /// The shim was asked for a level it could not set up.
    #[error("the sandbox could not set up level `{level}`: {what}")]
    Setup {
        /// The level asked for.
        level: Level,
        /// The step that failed, with the path it acted on if any.
        what: String,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// A path of the policy could not be resolved.
    #[error("cannot resolve the sandbox's {what} `{}`", path.display())]
    Resolve {
        /// Which path of the policy.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// A protected path inside a writable tree is a symbolic link.
    #[error("the protected path `{}` is a symbolic link; replace it by the directory it points to, or remove it", path.display())]
    ProtectedSymlink {
        /// The protected path.
        path: PathBuf,
    },
    /// A placeholder for a missing protected path could not be created.
    #[error("cannot create `{}` to protect it before running the command", path.display())]
    CreatePlaceholder {
        /// The placeholder.
        path: PathBuf,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// The shim's arguments were not what [`shim_args`] writes.
    #[error("bad `{SHIM_SUBCOMMAND}` arguments: {0}")]
    BadShimArgs(String),
    /// No command was given.
    #[error("no command to run in the sandbox")]
    NoCommand,
    /// The shim runs in a process with other threads.
    #[error("the sandbox must be entered from a single-threaded process (found {threads} threads); spawn it through `{SHIM_SUBCOMMAND}`")]
    MultiThreaded {
        /// Threads found.
        threads: usize,
    },
    /// The current executable could not be found to run the shim.
    #[error("cannot find the current executable to run the sandbox shim")]
    CurrentExe(#[source] io::Error),
    /// The contained command could not be executed.
    #[error("cannot run `{program}` in the sandbox")]
    Exec {
        /// The program.
        program: String,
        /// The system error (NotFound: not on PATH).
        #[source]
        source: io::Error,
    },
    /// The caller closed the shim's stdin instead of starting the command
    /// (see [`AFTER_STDIN`]).
    #[error("the command `{program}` was not started: its caller gave up before starting it")]
    NotStarted {
        /// The command that was not run.
        program: String,
    },
    /// This operating system has no sandbox implementation.
    #[error("no sandbox implementation for this operating system; refusing to run `{program}` uncontained")]
    Unsupported {
        /// The command that was not run.
        program: String,
    },
}

impl SandboxError {
    /// Returns the exit code a shim should end with for this error, as
    /// `env`, `chroot` and `timeout` do: 127 command not found, 126 found but
    /// not runnable, 125 the sandbox itself failed.
    pub fn exit_code(&self) -> u8 {
        match self {
            SandboxError::Exec { source, .. } if source.kind() == io::ErrorKind::NotFound => 127,
            SandboxError::Exec { .. } => 126,
            _ => 125,
        }
    }
}

/// Returns the arguments after [`SHIM_SUBCOMMAND`] that run `argv` under
/// `policy` at `level`: `--level L --worktree P [--protect P]… [--write P]…
/// --net|--no-net -- ARGV…` (paths as raw OS strings, never re-encoded).
pub fn shim_args(policy: &Policy, level: Level, argv: &[OsString]) -> Vec<OsString> {
    let mut a: Vec<OsString> = vec!["--level".into(), level.as_str().into()];
    a.push("--worktree".into());
    a.push(policy.worktree.clone().into_os_string());
    for p in &policy.protected {
        a.push("--protect".into());
        a.push(p.clone().into_os_string());
    }
    for p in &policy.writable {
        a.push("--write".into());
        a.push(p.clone().into_os_string());
    }
    a.push(if policy.network { "--net" } else { "--no-net" }.into());
    a.push("--".into());
    a.extend(argv.iter().cloned());
    a
}

/// Parses what [`shim_args`] wrote back into the level, policy and argv.
pub fn parse_shim_args(args: &[OsString]) -> Result<(Level, Policy, Vec<OsString>), SandboxError> {
    let bad = |m: &str| SandboxError::BadShimArgs(m.to_owned());
    let mut level = None;
    let mut policy = Policy {
        worktree: PathBuf::new(),
        protected: Vec::new(),
        writable: Vec::new(),
        network: false,
    };
    let mut network = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| bad("an option lacks its value"))
        };
        match a.to_str() {
            Some("--level") => {
                level = Some(Level::parse(&value()?).ok_or_else(|| bad("unknown level"))?)
            }
            Some("--worktree") => policy.worktree = PathBuf::from(value()?),
            Some("--protect") => policy.protected.push(PathBuf::from(value()?)),
            Some("--write") => policy.writable.push(PathBuf::from(value()?)),
            Some("--net") => network = Some(true),
            Some("--no-net") => network = Some(false),
            Some("--") => {
                let argv: Vec<OsString> = it.cloned().collect();
                let level = level.ok_or_else(|| bad("no --level"))?;
                policy.network = network.ok_or_else(|| bad("neither --net nor --no-net"))?;
                if policy.worktree.as_os_str().is_empty() {
                    return Err(bad("no --worktree"));
                }
                if argv.is_empty() {
                    return Err(SandboxError::NoCommand);
                }
                return Ok((level, policy, argv));
            }
            _ => return Err(bad(&format!("unexpected `{}`", a.to_string_lossy()))),
        }
    }
    Err(bad("no `--` before the command"))
}

fn program_name(argv: &[OsString]) -> String {
    argv.first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Checks that `level` can run `argv` under `policy`: an error when nothing
/// can be enforced, or when network off cannot be.
fn check_level(probe: &Probe, policy: &Policy, argv: &[OsString]) -> Result<(), SandboxError> {
    match probe.level {
        Level::None => Err(SandboxError::Unavailable {
            reason: probe.reason(),
            program: program_name(argv),
        }),
        Level::Landlock if !policy.network && probe.landlock_abi < 4 => {
            Err(SandboxError::NetworkUnenforceable {
                abi: probe.landlock_abi,
                program: program_name(argv),
            })
        }
        _ => Ok(()),
    }
}

/// Returns a command that runs `argv` contained under `policy`, through the
/// shim of the current executable, at the strongest level [`probe`] finds;
/// the caller sets stdio, env and current dir on it as on any command (the
/// env it sets is the command's, and decides the temp dir and caches).
pub fn command(policy: &Policy, argv: &[OsString]) -> Result<(Command, Level), SandboxError> {
    let exe = std::env::current_exe().map_err(SandboxError::CurrentExe)?;
    command_with_shim(&exe, &[OsString::from(SHIM_SUBCOMMAND)], policy, argv)
}

/// Returns a command like [`command`], with a given shim program and the
/// arguments that select the shim in it (for tests and benches, whose own
/// binary is the shim).
pub fn command_with_shim(
    shim: &Path,
    shim_prefix: &[OsString],
    policy: &Policy,
    argv: &[OsString],
) -> Result<(Command, Level), SandboxError> {
    if argv.is_empty() {
        return Err(SandboxError::NoCommand);
    }
    let probe = probe();
    #[cfg(target_os = "macos")]
    if probe.level == Level::SandboxExec {
        let _ = (shim, shim_prefix);
        return Ok((macos::command(policy, argv), Level::SandboxExec));
    }
    if !cfg!(target_os = "linux") {
        return Err(SandboxError::Unsupported {
            program: program_name(argv),
        });
    }
    check_level(&probe, policy, argv)?;
    let mut cmd = Command::new(shim);
    cmd.args(shim_prefix)
        .args(shim_args(policy, probe.level, argv));
    Ok((cmd, probe.level))
}

/// A command [`run_here`] ran: its exit code (128+N when signal N ended
/// it). Dropping it waits for the sandbox's helper, which finishes its
/// cleanup after answering, so it leaves no zombie.
#[derive(Debug)]
pub struct Finished {
    /// The command's exit code.
    pub code: i32,
    #[cfg(target_os = "linux")]
    _helper: linux::Helper,
}

/// Runs `argv` contained under `policy` from this process, when it can
/// host the sandbox itself — Linux at the Full level, this process
/// single-threaded — with `env` and `cwd`, stdio inherited: no shim to
/// start, which saves a process start and exit per command. `Ok(None)`
/// when it cannot (then spawn [`command`]'s shim instead); an error when
/// the sandbox could not be set up or the program not run (nothing ran).
pub fn run_here(
    policy: &Policy,
    argv: &[OsString],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Result<Option<Finished>, SandboxError> {
    match start_here(policy, argv, env, cwd)? {
        Some(ready) => ready.go(),
        None => Ok(None),
    }
}

/// A contained run started ahead by [`start_here`]: its helper enters
/// the namespaces while the caller goes on, and the command starts at
/// [`Ready::go`]. Dropped without `go`, the command never runs.
pub struct Ready {
    #[cfg(target_os = "linux")]
    inner: linux::Ready,
    #[cfg(not(target_os = "linux"))]
    inner: Infallible,
}

impl fmt::Debug for Ready {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Ready")
    }
}

impl Ready {
    /// Starts the command and returns once it has ended. `Ok(None)` when
    /// this system turned out to have no user namespaces (the set-up was
    /// tried before probing them): nothing ran, spawn [`command`]'s shim.
    pub fn go(self) -> Result<Option<Finished>, SandboxError> {
        #[cfg(target_os = "linux")]
        {
            match self.inner.go() {
                Ok((code, helper)) => Ok(Some(Finished {
                    code,
                    _helper: helper,
                })),
                Err(_) if probe().level != Level::Full => Ok(None),
                Err(e) => Err(e),
            }
        }
        #[cfg(not(target_os = "linux"))]
        match self.inner {}
    }
}

/// Starts running `argv` contained under `policy` from this process, as
/// [`run_here`] does, but returns as soon as the sandbox's helper is on
/// its way: it enters the namespaces (the network one included) and
/// covers the sockets while the caller does other work (`git fararoni
/// run` takes its snapshot); [`Ready::go`] then plans from the tree as it
/// is at that moment, and the helper makes the mounts and rules and starts
/// the command. `Ok(None)` when this process cannot host the sandbox
/// (spawn [`command`]'s shim instead); an error when it could not be set
/// up (nothing will run).
///
/// Where user namespaces were not probed yet, this does not probe them:
/// the helper entering them is the probe, and [`Ready::go`] reports a
/// system without them as `Ok(None)`.
pub fn start_here(
    policy: &Policy,
    argv: &[OsString],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Result<Option<Ready>, SandboxError> {
    if argv.is_empty() {
        return Err(SandboxError::NoCommand);
    }
    #[cfg(target_os = "linux")]
    {
        let full = Probe {
            level: Level::Full,
            landlock_abi: probe::landlock_abi(),
            user_namespaces: true,
        };
        let known = probe::known().unwrap_or(full);
        if known.level != Level::Full || full.landlock_abi == 0 || linux::thread_count() > 1 {
            return Ok(None);
        }
        check_level(&known, policy, argv)?;
        let inner = linux::start_contained(policy, argv, env, cwd)?;
        Ok(Some(Ready { inner }))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (policy, env, cwd);
        Ok(None)
    }
}

/// Runs the shim: parses the arguments after [`SHIM_SUBCOMMAND`] and calls
/// [`exec_contained`]. Returns only on error; the caller prints it and exits
/// with [`SandboxError::exit_code`].
pub fn run_shim(args: &[OsString]) -> Result<Infallible, SandboxError> {
    let (after_stdin, args) = match args.split_first() {
        Some((first, rest)) if first == AFTER_STDIN => (true, rest),
        _ => (false, args),
    };
    let (level, policy, argv) = parse_shim_args(args)?;
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    exec_in(&policy, level, &argv, &env, after_stdin)
}

/// Replaces this process by `argv` run contained under `policy` at `level`,
/// with this process's environment: on success it never returns, and the
/// process exits with the command's code (128+N when killed by signal N).
/// Must be called from a single-threaded process (the shim), else
/// [`SandboxError::MultiThreaded`].
pub fn exec_contained(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
) -> Result<Infallible, SandboxError> {
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    exec_contained_env(policy, level, argv, &env)
}

/// Does what [`exec_contained`] does with an explicit environment: the
/// command's, from which the temp dir, the caches and PATH are resolved.
/// Reads no process-global state, so a test may call it in a `pre_exec`
/// hook (in the forked child, which is single-threaded).
pub fn exec_contained_env(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
    env: &[(OsString, OsString)],
) -> Result<Infallible, SandboxError> {
    exec_in(policy, level, argv, env, false)
}

/// [`exec_contained_env`], waiting for a byte on stdin first when
/// `after_stdin` (see [`AFTER_STDIN`]).
fn exec_in(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
    env: &[(OsString, OsString)],
    after_stdin: bool,
) -> Result<Infallible, SandboxError> {
    if argv.is_empty() {
        return Err(SandboxError::NoCommand);
    }
    #[cfg(target_os = "linux")]
    {
        // No full probe here (it forks): the caller probed when it built
        // the shim's argv, and a level that cannot be set up fails below
        // with the step that failed. Only the cheap ABI check is repeated.
        if level < Level::Landlock {
            return Err(SandboxError::Unavailable {
                reason: format!("level `{level}` cannot contain anything"),
                program: program_name(argv),
            });
        }
        let abi = probe::landlock_abi();
        if level == Level::Landlock && !policy.network && abi < 4 {
            return Err(SandboxError::NetworkUnenforceable {
                abi,
                program: program_name(argv),
            });
        }
        linux::exec_contained(policy, level, argv, env, after_stdin)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (policy, level, env, after_stdin);
        Err(SandboxError::Unsupported {
            program: program_name(argv),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_shim_args_round_trip_raw_paths() {
        use std::os::unix::ffi::OsStrExt as _;
        let odd = OsStr::from_bytes(b"/tmp/\xff--no-net");
        let policy = Policy {
            worktree: PathBuf::from(odd),
            protected: vec![PathBuf::from("/w/.git"), PathBuf::from("--")],
            writable: vec![PathBuf::from("/opt/x")],
            network: true,
        };
        let argv: Vec<OsString> = vec!["sh".into(), "-c".into(), "--level".into()];
        let args = shim_args(&policy, Level::Full, &argv);
        let (level, back, argv_back) = parse_shim_args(&args).expect("parse");
        assert_eq!((level, &back, &argv_back), (Level::Full, &policy, &argv));
    }

    #[test]
    fn sandbox_shim_args_refuse_missing_parts() {
        let cases: &[&[&str]] = &[
            &["--level", "full", "--worktree", "/w", "--no-net"],
            &["--level", "full", "--worktree", "/w", "--", "true"],
            &["--level", "none", "--worktree", "/w", "--net", "--", "true"],
            &["--worktree", "/w", "--net", "--", "true"],
            &["--level", "full", "--worktree", "/w", "--net", "--"],
            &["--level", "full", "--bogus", "--", "true"],
        ];
        for c in cases {
            let args: Vec<OsString> = c.iter().map(OsString::from).collect();
            assert!(parse_shim_args(&args).is_err(), "{c:?} parsed");
        }
    }

    #[test]
    fn sandbox_exit_codes_follow_env_and_timeout() {
        let nf = SandboxError::Exec {
            program: "x".into(),
            source: io::Error::from(io::ErrorKind::NotFound),
        };
        let perm = SandboxError::Exec {
            program: "x".into(),
            source: io::Error::from(io::ErrorKind::PermissionDenied),
        };
        assert_eq!(
            (
                nf.exit_code(),
                perm.exit_code(),
                SandboxError::NoCommand.exit_code()
            ),
            (127, 126, 125)
        );
    }
}
