//! Entering the sandbox on Linux: namespaces, read-only binds, Landlock,
//! then exec. Runs in the shim, a single-threaded process (checked), so the
//! code between `fork` and `exec` may allocate; the only raw `unsafe` is the
//! system calls std has no wrapper for, each with its safety argument.

use std::convert::Infallible;
use std::ffi::{CString, OsString};
use std::fs::OpenOptions;
use std::io::{self, Read as _};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use landlock::{
    Access as _, AccessFs, AccessNet, CompatLevel, Compatible as _, PathBeneath, Ruleset,
    RulesetAttr as _, RulesetCreated, RulesetCreatedAttr as _, RulesetStatus, Scope, ABI,
};

use super::plan::Plan;
use super::policy;
use super::{Level, Policy, SandboxError};

/// The device files a contained command may write (and `ioctl`, for ttys).
const DEVICES: &[&str] = &["/dev/null", "/dev/tty", "/dev/ptmx", "/dev/pts"];

/// Steps of the child that can fail, reported to the waiting parent.
#[derive(Clone, Copy, Debug)]
#[repr(u32)]
enum Stage {
    ParentGone = 1,
    Capabilities = 2,
    Landlock = 3,
    LandlockNotEnforced = 4,
    Exec = 5,
    Network = 6,
}

/// What is settled before the helper forks: the writable folders the
/// environment names, the worktree's shared lock, and the command as C
/// strings.
struct Prepared {
    extra: Vec<policy::Writable>,
    reachable_socket: Option<PathBuf>,
    worktree_lock: Option<std::fs::File>,
    program: CString,
    argv: Vec<CString>,
    env: Vec<CString>,
}

fn prepare(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
    env: &[(OsString, OsString)],
) -> Result<Prepared, SandboxError> {
    let threads = thread_count();
    if threads > 1 {
        return Err(SandboxError::MultiThreaded { threads });
    }
    let lookup = |k: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
    };
    let extra = policy::resolve(&lookup);
    // Found here, with the command's own PATH, so that "not found" is an
    // error of the caller rather than of a half-built sandbox.
    let program = find_program(&argv[0], lookup("PATH")).map_err(|source| SandboxError::Exec {
        program: argv[0].to_string_lossy().into_owned(),
        source,
    })?;
    // Every Full-level run in this worktree holds a shared lock on it for
    // its whole life, taken before it decides which placeholders to make;
    // a run removes its placeholders only when it can take the lock
    // exclusively. Removing a directory detaches the mounts on it in every
    // namespace, so without this a run ending could strip the read-only
    // bind from a concurrent run that reused its placeholder.
    let worktree_lock = match level {
        Level::Full => {
            Some(
                lock_shared(&policy.worktree).map_err(|source| SandboxError::Resolve {
                    what: "worktree (to lock it)",
                    path: policy.worktree.clone(),
                    source,
                })?,
            )
        }
        _ => None,
    };
    // With the network on, the command's ssh-agent stays reachable (a
    // fetch over ssh needs it; an agent runs nothing).
    let reachable_socket = policy
        .network
        .then(|| lookup("SSH_AUTH_SOCK"))
        .flatten()
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let cprogram = cpath(&program)
        .map_err(|_| SandboxError::BadShimArgs("the program holds a NUL byte".into()))?;
    let cargv = cstrings(argv)?;
    let cenv = cstrings(
        &env.iter()
            .map(|(k, v)| {
                let mut kv = k.clone();
                kv.push("=");
                kv.push(v);
                kv
            })
            .collect::<Vec<_>>(),
    )?;
    Ok(Prepared {
        extra,
        reachable_socket,
        worktree_lock,
        program: cprogram,
        argv: cargv,
        env: cenv,
    })
}

/// The helper of a Full-level run, seen from the process that forked it:
/// where its answer arrives, and the pipe whose closing tells it we died.
struct Forked {
    pid: libc::pid_t,
    status: OwnedFd,
    alive: OwnedFd,
    /// Where the plan goes ([`send_plan`]); the helper waits for it.
    plan: OwnedFd,
}

/// Builds the plan (making placeholders) for `prep`, with its reachable
/// socket.
fn plan(policy: &Policy, level: Level, prep: &Prepared) -> Result<Plan, SandboxError> {
    let mut plan = Plan::build(policy, level, &prep.extra)?;
    plan.reachable_socket.clone_from(&prep.reachable_socket);
    Ok(plan)
}

/// Forks the helper that enters the namespaces, runs the command as pid 1
/// and sends its outcome (see `supervise`); `cwd`, when given, is the
/// command's directory (else this process's).
///
/// The namespaces are entered by a helper child, not by the caller: the
/// last process to leave a mount or user namespace tears it down (an RCU
/// grace period, milliseconds on a busy machine). The helper sends the
/// command's status first and exits after, so the caller, which waits for
/// that message, does not wait for the teardown. The helper is forked
/// before the plan: it enters the namespaces (the network one alone takes
/// half a millisecond) while the caller plans and makes the placeholders,
/// then reads the plan from a pipe.
fn fork_helper(
    policy: &Policy,
    argv: &[OsString],
    prep: &mut Prepared,
    cwd: Option<&Path>,
) -> Result<Forked, SandboxError> {
    let level = Level::Full;
    let setup = |what: String, source: io::Error| SandboxError::Setup {
        level,
        what,
        source,
    };
    let (status_r, status_w) = pipe().map_err(|e| setup("pipe".into(), e))?;
    let (alive_r, alive_w) = pipe().map_err(|e| setup("pipe".into(), e))?;
    let (plan_r, plan_w) = pipe().map_err(|e| setup("pipe".into(), e))?;
    // SAFETY: single-threaded process (checked in `prepare`), so the child
    // may run arbitrary code.
    let helper = unsafe { libc::fork() };
    if helper < 0 {
        return Err(setup("fork".into(), io::Error::last_os_error()));
    }
    if helper == 0 {
        drop(status_r);
        drop(alive_w);
        drop(plan_w);
        if !parent_alive(&alive_r) {
            // SAFETY: ends the helper; the caller is gone.
            unsafe { libc::_exit(1) };
        }
        drop(alive_r);
        let mut sent = false;
        let keep = Some(status_w.as_raw_fd());
        let entered = match cwd.map(std::env::set_current_dir) {
            Some(Err(e)) => Err(setup(
                format!("enter `{}`", cwd.unwrap_or(Path::new("")).display()),
                e,
            )),
            _ => enter_namespaces(policy.network, prep.reachable_socket.as_deref()),
        };
        // The caller's plan, or nothing when it could not make one (it
        // reports that itself and reads no answer).
        let received = receive_plan(plan_r);
        let Some(mut plan) = received else {
            // SAFETY: ends the helper; nothing to report.
            unsafe { libc::_exit(0) };
        };
        let result = entered.and_then(|entered| {
            supervise(
                policy,
                level,
                argv,
                &mut plan,
                entered,
                prep.worktree_lock.take(),
                &prep.program,
                &prep.argv,
                &prep.env,
                keep,
                &mut |r| {
                    // The command is over: the caller may now exit without
                    // taking this helper along, which finishes the cleanup.
                    // SAFETY: prctl with integer arguments only.
                    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, 0, 0, 0, 0) };
                    send(&status_w, r);
                    sent = true;
                },
            )
        });
        if !sent {
            // Set-up failed before the command ran: the placeholders the
            // caller made go too, if no other run holds the worktree (our
            // own lock went with `supervise`).
            if let Ok(lock) = lock_shared(&policy.worktree) {
                // SAFETY: flock on a descriptor we own.
                if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                    remove_placeholders(&plan.created);
                }
            }
            send(&status_w, &result);
        }
        // SAFETY: ends the helper without running the caller's destructors.
        unsafe { libc::_exit(0) };
    }
    drop(status_w);
    drop(alive_r);
    drop(plan_r);
    Ok(Forked {
        pid: helper,
        status: status_r,
        alive: alive_w,
        plan: plan_w,
    })
}

/// Plans the run (making placeholders) and sends the plan to the helper
/// `forked`, which then sets the sandbox up and starts the command; the
/// helper is reaped here if it gets none.
fn deliver(
    forked: Forked,
    policy: &Policy,
    prep: &mut Prepared,
) -> Result<(libc::pid_t, OwnedFd, OwnedFd), SandboxError> {
    let level = Level::Full;
    let Forked {
        pid,
        status,
        alive,
        plan: plan_w,
    } = forked;
    let sent = match plan(policy, level, prep) {
        Ok(p) => send_plan(plan_w, &p).map_err(|e| SandboxError::Setup {
            level,
            what: "send the plan to the helper".into(),
            source: e,
        }),
        Err(e) => {
            // Closed before waiting: the helper reads the plan to its end.
            drop(plan_w);
            Err(e)
        }
    };
    // The helper holds the lock now (the same open file, inherited).
    drop(prep.worktree_lock.take());
    if let Err(e) = sent {
        // The helper got no plan (the pipe is closed) and ends: reap it.
        drop(alive);
        wait(pid);
        return Err(e);
    }
    Ok((pid, status, alive))
}

/// Writes `plan` to the helper and closes the pipe.
fn send_plan(fd: OwnedFd, plan: &Plan) -> io::Result<()> {
    use std::io::Write as _;
    std::fs::File::from(fd).write_all(&plan.encode())
}

/// Reads the plan the caller sent; `None` when it sent none (it failed).
fn receive_plan(fd: OwnedFd) -> Option<Plan> {
    let mut bytes = Vec::new();
    std::fs::File::from(fd).read_to_end(&mut bytes).ok()?;
    Plan::decode(&bytes)
}

pub(super) fn exec_contained(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
    env: &[(OsString, OsString)],
    after_stdin: bool,
) -> Result<Infallible, SandboxError> {
    let mut prep = prepare(policy, level, argv, env)?;
    // Told to wait: the tree is read (the plan) only once the caller says
    // so, after its snapshot, which may change it (a planted store set
    // aside).
    let started = || {
        if after_stdin && !byte_on_stdin() {
            return Err(SandboxError::NotStarted {
                program: argv[0].to_string_lossy().into_owned(),
            });
        }
        Ok(())
    };
    if level == Level::Full {
        let forked = fork_helper(policy, argv, &mut prep, None)?;
        if let Err(e) = started() {
            // No plan: the helper ends without running anything.
            drop(forked);
            return Err(e);
        }
        let (_, status, alive) = deliver(forked, policy, &mut prep)?;
        let mut keep = vec![status.as_raw_fd(), alive.as_raw_fd()];
        keep.retain(|fd| *fd > 2);
        close_other_fds(&keep);
        let result = receive(status, level, argv);
        drop(alive);
        return match result {
            // SAFETY: ends the shim with the command's code; nothing to
            // flush. The helper, reparented, is reaped by init.
            Ok(code) => unsafe { libc::_exit(code) },
            Err(e) => Err(e),
        };
    }
    started()?;
    let mut plan = plan(policy, level, &prep)?;
    let result = supervise(
        policy,
        level,
        argv,
        &mut plan,
        Entered {
            shm: false,
            net: None,
        },
        prep.worktree_lock.take(),
        &prep.program,
        &prep.argv,
        &prep.env,
        None,
        &mut |_| {},
    );
    match result {
        // SAFETY: ends the shim with the command's code; nothing to flush,
        // and no atexit handler of a caller that forked us should run twice.
        Ok(code) => unsafe { libc::_exit(code) },
        Err(e) => Err(e),
    }
}

/// A Full-level helper still finishing its cleanup after answering; waited
/// for when dropped, so it leaves no zombie.
#[derive(Debug)]
pub struct Helper(libc::pid_t);

impl Drop for Helper {
    fn drop(&mut self) {
        wait(self.0);
    }
}

/// A Full-level run started from this process and waiting for its plan
/// ([`Ready::go`]): the helper is entering the namespaces meanwhile.
/// Dropped without `go`, the helper gets no plan, runs nothing and is
/// reaped.
pub struct Ready {
    forked: Option<Forked>,
    prep: Prepared,
    policy: Policy,
    argv: Vec<OsString>,
}

impl Ready {
    /// Plans the run, sends the plan, and returns the command's code once
    /// it has it, with the helper still finishing its cleanup.
    pub(super) fn go(mut self) -> Result<(i32, Helper), SandboxError> {
        let Some(forked) = self.forked.take() else {
            return Err(SandboxError::NoCommand);
        };
        let (pid, status, alive) = deliver(forked, &self.policy, &mut self.prep)?;
        let helper = Helper(pid);
        let result = receive(status, Level::Full, &self.argv);
        drop(alive);
        result.map(|code| (code, helper))
    }
}

impl Drop for Ready {
    fn drop(&mut self) {
        if let Some(forked) = self.forked.take() {
            // No plan: the helper runs nothing and ends.
            drop(forked.plan);
            drop(forked.alive);
            wait(forked.pid);
        }
    }
}

/// Starts a Full-level run of `argv` from this process, without a shim:
/// forks the helper directly, which enters the namespaces while the caller
/// goes on (`git fararoni run` takes its snapshot meanwhile); the plan is
/// made from what the tree is at [`Ready::go`], which runs the command.
/// This process must be single-threaded; the command inherits its stdio
/// and runs in `cwd` with `env`.
pub(super) fn start_contained(
    policy: &Policy,
    argv: &[OsString],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Result<Ready, SandboxError> {
    let mut prep = prepare(policy, Level::Full, argv, env)?;
    let forked = fork_helper(policy, argv, &mut prep, Some(cwd))?;
    Ok(Ready {
        forked: Some(forked),
        prep,
        policy: policy.clone(),
        argv: argv.to_vec(),
    })
}

/// The Full level's first steps, which need no plan, run by the helper
/// while its caller plans: the user, mount and PID namespaces, private
/// mounts, the unix sockets bound outside covered, a private `/dev/shm`;
/// with the network off, a thread making the network namespace meanwhile
/// (half a millisecond of the kernel's).
fn enter_namespaces(network: bool, reachable: Option<&Path>) -> Result<Entered, SandboxError> {
    let setup = |what: &str, source: io::Error| SandboxError::Setup {
        level: Level::Full,
        what: what.to_owned(),
        source,
    };
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    // SAFETY: plain system call; the process is single-threaded (checked
    // before the fork), as a new user and mount namespace require.
    check(unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) })
        .map_err(|e| setup("unshare", e))?;
    write_file("/proc/self/setgroups", b"deny").map_err(|e| setup("deny setgroups", e))?;
    write_file("/proc/self/uid_map", format!("{uid} {uid} 1\n").as_bytes())
        .map_err(|e| setup("write uid_map", e))?;
    write_file("/proc/self/gid_map", format!("{gid} {gid} 1\n").as_bytes())
        .map_err(|e| setup("write gid_map", e))?;
    // Making a network namespace takes the kernel half a millisecond: a
    // thread makes it (namespaces are per thread; this one has the new
    // user namespace's capabilities) while this one does the mounts; pid
    // 1 enters it. Joined before pid 1 is forked, so the fork happens in a
    // single-threaded process again.
    let net = (!network).then(|| {
        std::thread::Builder::new()
            .name("netns".into())
            .spawn(new_network)
    });
    // After the thread: no thread can be made once the PID namespace for
    // children has changed (EINVAL).
    // SAFETY: plain system call.
    check(unsafe { libc::unshare(libc::CLONE_NEWPID) })
        .map_err(|e| setup("unshare the PID namespace", e))?;
    // This thread stays in the caller's network namespace, whose sockets
    // /proc/net/unix lists; read while the other one makes the new one.
    let mut sockets = unix_sockets();
    sockets.retain(|s| Some(s.as_path()) != reachable);
    mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )
    .map_err(|e| setup("make mounts private", e))?;
    cover_sockets(&sockets)?;
    // A private /dev/shm: POSIX shared memory and semaphores work without
    // touching the host's (shared with every process).
    let shm = Path::new(SHM).is_dir()
        && mount(
            Some(Path::new("tmpfs")),
            Path::new(SHM),
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some("mode=1777"),
        )
        .is_ok();
    Ok(Entered { shm, net })
}

/// Covers each unix socket in `sockets` with `/dev/null` (in this mount
/// namespace): connecting then fails with ECONNREFUSED.
///
/// A unix socket is a way out that no network namespace closes and the
/// network setting does not mean to open (a tmux or docker socket runs
/// commands outside, the user's session bus starts units); Landlock sees
/// `connect` to one only from ABI 9. So every socket bound before the
/// command started is covered. Sockets the command makes itself are not in
/// the list and work.
fn cover_sockets(sockets: &[PathBuf]) -> Result<(), SandboxError> {
    for sock in sockets {
        match mount(
            Some(Path::new("/dev/null")),
            sock,
            None,
            libc::MS_BIND,
            None,
        ) {
            // A path we cannot reach (another user's 0700 runtime dir, a
            // socket gone since) the command, with the same uid and no
            // capability, cannot reach either.
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EACCES | libc::ENOENT | libc::ENOTDIR | libc::ELOOP)
                ) => {}
            r => r.map_err(|e| SandboxError::Setup {
                level: Level::Full,
                what: format!("hide the unix socket `{}`", sock.display()),
                source: e,
            })?,
        }
    }
    Ok(())
}

/// The thread making the network namespace (see [`new_network`]).
type NetThread = std::thread::JoinHandle<Result<OwnedFd, (&'static str, io::Error)>>;

/// What [`enter_namespaces`] set up: whether `/dev/shm` is private, and
/// (network off) the thread making the network namespace pid 1 enters.
struct Entered {
    shm: bool,
    net: Option<io::Result<NetThread>>,
}

impl Entered {
    /// Waits for the network namespace, if one is being made.
    fn network(&mut self) -> Result<Option<OwnedFd>, SandboxError> {
        let setup = |what: &str, source: io::Error| SandboxError::Setup {
            level: Level::Full,
            what: what.to_owned(),
            source,
        };
        match self.net.take() {
            None => Ok(None),
            Some(spawned) => spawned
                .map_err(|e| setup("start the network namespace's thread", e))?
                .join()
                .map_err(|_| {
                    setup(
                        "make the network namespace",
                        io::Error::other("thread panicked"),
                    )
                })?
                .map(Some)
                .map_err(|(what, e)| setup(what, e)),
        }
    }
}

/// On its own thread: moves it into a new network namespace, brings its
/// loopback up, and returns the namespace.
fn new_network() -> Result<OwnedFd, (&'static str, io::Error)> {
    // SAFETY: plain system call; moves only this thread.
    check(unsafe { libc::unshare(libc::CLONE_NEWNET) }).map_err(|e| ("unshare the network", e))?;
    loopback_up().map_err(|e| ("bring up loopback", e))?;
    let ns = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_CLOEXEC)
        .open("/proc/thread-self/ns/net")
        .map_err(|e| ("open the network namespace", e))?;
    Ok(OwnedFd::from(ns))
}

/// Where POSIX shared memory lives; private to each sandbox.
const SHM: &str = "/dev/shm";

/// Sets the sandbox up at `level` (at Full, in namespaces already entered:
/// the mounts, hiding `sockets`), runs the command as a child, and returns its exit code; `done` is told the
/// outcome as soon as it is known, before the placeholders are removed.
#[allow(clippy::too_many_arguments)]
fn supervise(
    policy: &Policy,
    level: Level,
    argv: &[OsString],
    plan: &mut Plan,
    mut entered: Entered,
    worktree_lock: Option<std::fs::File>,
    cprogram: &CString,
    cargv: &[CString],
    cenv: &[CString],
    also_keep: Option<RawFd>,
    done: &mut dyn FnMut(&Result<i32, SandboxError>),
) -> Result<i32, SandboxError> {
    let setup = |what: String, source: io::Error| SandboxError::Setup {
        level,
        what,
        source,
    };
    match level {
        Level::Full => {
            // The plan may come long after the namespaces were entered (a
            // caller that started us before its snapshot): a socket bound
            // outside meanwhile is covered too (one covered already reads
            // as `/dev/null` here, so it is not listed again; one bound
            // anew at a covered path, whose cover went with the old one,
            // is).
            let mut late = unix_sockets();
            late.retain(|s| Some(s.as_path()) != plan.reachable_socket.as_deref());
            cover_sockets(&late)?;
            // Every writable root becomes a mount of its own, then every
            // other mount is remounted read-only: that refuses what Landlock
            // (ABI <= 7) does not see — chmod, chown, utimes, xattrs — on
            // everything outside, and covers any other path to the same
            // files (a second mount of the worktree's file system).
            for w in &plan.writable {
                mount(Some(w), w, None, libc::MS_BIND | libc::MS_REC, None)
                    .map_err(|e| setup(format!("bind the writable `{}`", w.display()), e))?;
            }
            // The private /dev/shm (see `enter_namespaces`) is a mount of
            // its own already.
            if entered.shm {
                plan.writable.push(PathBuf::from(SHM));
            }
            remount_all_read_only(&plan.writable)
                .map_err(|e| setup("remount `/` read-only".into(), e))?;
            for pin in &plan.pins {
                mount(Some(pin), pin, None, libc::MS_BIND | libc::MS_REC, None)
                    .map_err(|e| setup(format!("pin `{}`", pin.display()), e))?;
            }
            for ro in &plan.read_only {
                bind_read_only(ro)
                    .map_err(|e| setup(format!("bind `{}` read-only", ro.display()), e))?;
            }
            // The current directory was entered before the binds: re-enter
            // it by name so that it is reached through them (else writes
            // relative to it would hit the read-only `/` mount, and a cwd
            // inside `.git` would bypass its read-only bind).
            let cwd = std::env::current_dir()
                .map_err(|e| setup("find the current directory".into(), e))?;
            std::env::set_current_dir(&cwd)
                .map_err(|e| setup(format!("re-enter `{}`", cwd.display()), e))?;
        }
        Level::Landlock => {
            // Orphans of the command are re-parented to us, so we can kill
            // them when it ends.
            // SAFETY: prctl with integer arguments only.
            check(unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
                .map_err(|e| setup("become a child subreaper".into(), e))?;
        }
        Level::None | Level::SandboxExec => {
            return Err(SandboxError::Unavailable {
                reason: format!("level `{level}` is not a Linux level"),
                program: argv[0].to_string_lossy().into_owned(),
            })
        }
    }

    let ruleset = ruleset(plan, level, policy.network)
        .map_err(|e| setup("build the Landlock ruleset".into(), e))?;
    // The process is single-threaded again from here (see
    // `enter_namespaces`), so pid 1 may allocate after the fork.
    let net = entered.network()?;
    let (report_r, report_w) = pipe().map_err(|e| setup("pipe".into(), e))?;
    let (alive_r, alive_w) = pipe().map_err(|e| setup("pipe".into(), e))?;

    // SAFETY: single-threaded process (checked), so the child may run
    // arbitrary code until exec.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(setup("fork".into(), io::Error::last_os_error()));
    }
    if pid == 0 {
        drop(report_r);
        drop(alive_w);
        let (stage, err) = child(
            level,
            ruleset,
            net.as_ref(),
            cprogram,
            cargv,
            cenv,
            &alive_r,
        );
        report(&report_w, stage, &err);
        // SAFETY: ends the child without running the parent's destructors.
        unsafe {
            libc::_exit(
                if matches!(stage, Stage::Exec) && err.kind() == io::ErrorKind::NotFound {
                    127
                } else {
                    126
                },
            )
        };
    }
    drop(report_w);
    drop(alive_r);
    drop(ruleset);
    // Closed here, not by `close_other_fds` below behind its owner's back.
    drop(net);
    if also_keep.is_some() {
        // The helper outlives the shim (see `exec_contained`): it must not
        // hold the caller's stdio, or a caller reading the command's output
        // to its end would wait for the helper's teardown after all.
        detach_stdio();
    }
    // The waiter keeps no descriptor of the caller's: a pipe the caller
    // reads to EOF (its stdout, or std's exec-error pipe when this runs in
    // a `pre_exec` hook) must close when the command's copies do.
    let mut keep = vec![report_r.as_raw_fd(), alive_w.as_raw_fd()];
    keep.extend(worktree_lock.as_ref().map(|f| f.as_raw_fd()));
    keep.extend(also_keep);
    close_other_fds(&keep);
    // The read returns at exec (close-on-exec) or at the child's report.
    let mut buf = [0u8; 8];
    let mut report_file = std::fs::File::from(report_r);
    let n = read_full(&mut report_file, &mut buf);
    let status = wait(pid);
    if level == Level::Landlock {
        kill_descendants();
    }
    let result = if n == buf.len() {
        let stage = u32::from_ne_bytes([buf[0], buf[1], buf[2], buf[3]]);
        let errno = i32::from_ne_bytes([buf[4], buf[5], buf[6], buf[7]]);
        let source = io::Error::from_raw_os_error(errno);
        Err(match stage {
            s if s == Stage::Exec as u32 => SandboxError::Exec {
                program: argv[0].to_string_lossy().into_owned(),
                source,
            },
            s if s == Stage::Capabilities as u32 => setup("drop capabilities".into(), source),
            s if s == Stage::Landlock as u32 => setup("apply Landlock".into(), source),
            s if s == Stage::Network as u32 => setup("enter the network namespace".into(), source),
            s if s == Stage::LandlockNotEnforced as u32 => {
                setup("enforce Landlock (not enforced)".into(), source)
            }
            _ => setup("wait for the shim (it died)".into(), source),
        })
    } else {
        Ok(status)
    };
    // pid 1 is gone, and with it every process of the sandbox: remove the
    // placeholders made for missing protected paths, so a run leaves no
    // empty `.claude/` behind — only when no other run holds the worktree
    // (see `worktree_lock`), unmounted first (in our namespace only), and
    // only if still empty (someone outside may have used it since). The
    // exclusive lock is taken before `done`: a run the caller starts once
    // it has its answer then waits for the removal, instead of reusing a
    // placeholder about to go (its shared lock would keep this run from
    // removing it, and it removes only what it made: left for good). The
    // removal itself, an unmount each (an RCU grace period), comes after
    // `done`, so the caller does not wait for it; the caller writes no
    // placeholder (its own `.fararoni/` exists before the run, see
    // `contain::command`).
    let alone = worktree_lock.as_ref().is_some_and(|f| {
        // SAFETY: flock on a descriptor we own; converts our shared lock.
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
    });
    done(&result);
    if alone {
        remove_placeholders(&plan.created);
    }
    drop(alive_w);
    result
}

/// Removes the empty placeholder folders a plan made, deepest first, each
/// unmounted first (in this namespace only); one a process outside has
/// used since is not empty and stays. The caller holds the worktree alone
/// (see `worktree_lock`).
fn remove_placeholders(created: &[PathBuf]) {
    for p in created.iter().rev() {
        if let Ok(c) = cpath(p) {
            // SAFETY: c is a NUL-terminated path alive for the call.
            unsafe { libc::umount2(c.as_ptr(), libc::MNT_DETACH) };
        }
        let _ = std::fs::remove_dir(p);
    }
}

/// Points stdin, stdout and stderr at /dev/null.
fn detach_stdio() {
    if let Ok(null) = OpenOptions::new().read(true).write(true).open("/dev/null") {
        for fd in 0..=2 {
            // SAFETY: dup2 onto the standard descriptors, from one we own.
            unsafe { libc::dup2(null.as_raw_fd(), fd) };
        }
    }
}

/// Returns whether the process that forked us still holds its end of
/// `alive` (checked after setting PDEATHSIG, which a parent that died
/// before would never send).
fn parent_alive(alive: &OwnedFd) -> bool {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    let mut pfd = libc::pollfd {
        fd: alive.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, zero timeout.
    unsafe { libc::poll(&mut pfd, 1, 0) == 0 }
}

/// Sends the helper's outcome to the shim: `0` and the code, or `1` and
/// the errno and step of a setup error, or `2` and the errno of an exec
/// error.
fn send(fd: &OwnedFd, result: &Result<i32, SandboxError>) {
    let mut msg: Vec<u8> = Vec::new();
    match result {
        Ok(code) => {
            msg.push(0);
            msg.extend(code.to_ne_bytes());
        }
        Err(SandboxError::Exec { source, .. }) => {
            msg.push(2);
            msg.extend(source.raw_os_error().unwrap_or(libc::EIO).to_ne_bytes());
        }
        Err(SandboxError::Setup { what, source, .. }) => {
            msg.push(1);
            msg.extend(source.raw_os_error().unwrap_or(libc::EIO).to_ne_bytes());
            msg.extend(what.as_bytes());
        }
        Err(other) => {
            msg.push(1);
            msg.extend(libc::EIO.to_ne_bytes());
            msg.extend(other.to_string().as_bytes());
        }
    }
    // One write of at most PIPE_BUF bytes arrives whole, so the shim reads
    // it with one read and need not wait for the pipe's end (see `receive`).
    msg.truncate(libc::PIPE_BUF);
    // SAFETY: writes our buffer to a pipe we own.
    unsafe { libc::write(fd.as_raw_fd(), msg.as_ptr().cast(), msg.len()) };
}

/// Reads what [`send`] wrote; the helper dying first is a setup error.
///
/// One read, not to the pipe's end: the helper closes its end only when it
/// exits, after the namespaces' teardown and the placeholders' removal,
/// which the caller (waiting for the shim) must not wait for.
fn receive(fd: OwnedFd, level: Level, argv: &[OsString]) -> Result<i32, SandboxError> {
    let mut buf = [0u8; libc::PIPE_BUF];
    let mut file = std::fs::File::from(fd);
    let n = loop {
        match file.read(&mut buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => break r.unwrap_or(0),
        }
    };
    let msg = &buf[..n];
    let errno = |m: &[u8]| {
        m.get(1..5)
            .map_or(libc::EIO, |b| i32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    };
    match msg.first() {
        Some(0) => Ok(errno(msg)),
        Some(2) => Err(SandboxError::Exec {
            program: argv[0].to_string_lossy().into_owned(),
            source: io::Error::from_raw_os_error(errno(msg)),
        }),
        Some(_) => Err(SandboxError::Setup {
            level,
            what: String::from_utf8_lossy(msg.get(5..).unwrap_or_default()).into_owned(),
            source: io::Error::from_raw_os_error(errno(msg)),
        }),
        None => Err(SandboxError::Setup {
            level,
            what: "run the sandbox's helper (it died)".into(),
            source: io::Error::from_raw_os_error(libc::ECHILD),
        }),
    }
}

/// The child: pid 1 of the new PID namespace at the Full level. Returns only
/// on failure, with the stage and error to report.
fn child(
    level: Level,
    ruleset: RulesetCreated,
    net: Option<&OwnedFd>,
    program: &CString,
    argv: &[CString],
    env: &[CString],
    alive: &OwnedFd,
) -> (Stage, io::Error) {
    // If the shim dies, so does the command (and, as pid 1, its namespace).
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    // The command starts with default signals, as a spawn gives them: our
    // binary ignores SIGPIPE (kept across exec), and a caller hosting the
    // sandbox itself may have blocked some.
    // SAFETY: resets one disposition and empties the mask; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
    // The shim may have died before PDEATHSIG was set: its end of `alive`
    // is then closed, which poll sees as a hang-up.
    let mut pfd = libc::pollfd {
        fd: alive.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, zero timeout.
    if unsafe { libc::poll(&mut pfd, 1, 0) } != 0 {
        return (Stage::ParentGone, io::Error::from_raw_os_error(libc::ESRCH));
    }
    if let Some(ns) = net {
        // SAFETY: setns on a namespace descriptor we hold.
        if let Err(e) = check(unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) }) {
            return (Stage::Network, e);
        }
    }
    if level == Level::Full {
        // A /proc of the new PID namespace: `ps` sees only the sandbox, and
        // /proc/<pid> of outside processes is gone. If the kernel refuses
        // (a /proc partly hidden by another mount), the old one stays:
        // read-only to us (Landlock) and its processes unreachable (PID ns).
        let _ = mount(
            Some(Path::new("proc")),
            Path::new("/proc"),
            Some("proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            None,
        );
    }
    if let Err(e) = drop_capabilities() {
        return (Stage::Capabilities, e);
    }
    match ruleset.restrict_self() {
        Ok(status) if status.ruleset == RulesetStatus::NotEnforced => {
            return (
                Stage::LandlockNotEnforced,
                io::Error::from_raw_os_error(libc::ENOSYS),
            );
        }
        Ok(_) => {}
        Err(e) => {
            let errno = std::error::Error::source(&e)
                .and_then(|s| s.downcast_ref::<io::Error>())
                .and_then(io::Error::raw_os_error)
                .unwrap_or(libc::EPERM);
            return (Stage::Landlock, io::Error::from_raw_os_error(errno));
        }
    }
    let mut args: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    args.push(std::ptr::null());
    let mut envp: Vec<*const libc::c_char> = env.iter().map(|a| a.as_ptr()).collect();
    envp.push(std::ptr::null());
    // SAFETY: program and every pointer are NUL-terminated strings kept
    // alive by the caller's vectors, and both arrays end with a null.
    unsafe { libc::execve(program.as_ptr(), args.as_ptr(), envp.as_ptr()) };
    let err = io::Error::last_os_error();
    if err.raw_os_error() == Some(libc::ENOEXEC) {
        // A script without `#!`: run it with /bin/sh, as execvp does.
        let mut sh_args: Vec<*const libc::c_char> = vec![c"sh".as_ptr(), program.as_ptr()];
        sh_args.extend(argv.iter().skip(1).map(|a| a.as_ptr()));
        sh_args.push(std::ptr::null());
        // SAFETY: as above; the literals are static NUL-terminated strings.
        unsafe { libc::execve(c"/bin/sh".as_ptr(), sh_args.as_ptr(), envp.as_ptr()) };
    }
    (Stage::Exec, err)
}

/// Builds the ruleset: every write right is handled (reads are not, so they
/// stay allowed everywhere) and granted only beneath the writable roots (or,
/// at the Landlock level, the grants around protected paths) and on the
/// device files; signals and abstract unix sockets are scoped to the
/// sandbox; at the Landlock level with network off, TCP (and UDP where the
/// kernel has it) is handled with no rule, so refused.
fn ruleset(plan: &Plan, level: Level, network: bool) -> io::Result<RulesetCreated> {
    // The newest ABI this crate knows; best effort keeps what the kernel has.
    let abi = ABI::V10;
    let write = AccessFs::from_write(abi);
    let to_io = |e: landlock::RulesetError| io::Error::other(e);
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(write)
        .map_err(to_io)?
        .scope(Scope::from_all(abi))
        .map_err(to_io)?;
    if level == Level::Landlock && !network {
        rs = rs.handle_access(AccessNet::from_all(abi)).map_err(to_io)?;
    }
    let mut created = rs.create().map_err(to_io)?;
    // At the Landlock level the grants avoid every protected path; at the
    // Full level the read-only binds do that, so whole roots are granted.
    let roots = if level == Level::Full {
        &plan.writable
    } else {
        &plan.grants
    };
    for root in roots {
        let fd = open_path(root)?;
        created = created
            .add_rule(PathBeneath::new(fd, write))
            .map_err(to_io)?;
    }
    // Files get only file rights (the kernel refuses directory rights on a
    // file): write, truncate and ioctl; /dev/pts is a directory of ttys.
    let dev = AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    for d in DEVICES {
        if let Ok(fd) = open_path(Path::new(d)) {
            created = created.add_rule(PathBeneath::new(fd, dev)).map_err(to_io)?;
        }
    }
    Ok(created)
}

/// Opens `p` as an `O_PATH` handle without following a final symlink (a
/// rule on a link pointing out would grant its target).
fn open_path(p: &Path) -> io::Result<std::fs::File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(p)
}

/// Returns the pathname unix sockets bound in this network namespace that
/// exist as sockets in this mount namespace.
fn unix_sockets() -> Vec<PathBuf> {
    use std::os::unix::fs::FileTypeExt as _;
    let Ok(table) = std::fs::read("/proc/self/net/unix") else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = Vec::new();
    for line in table.split(|b| *b == b'\n').skip(1) {
        // Num RefCount Protocol Flags Type St Inode Path: the path is what
        // follows the seventh field.
        let mut rest = line;
        for _ in 0..7 {
            let start = rest.iter().position(|b| *b != b' ').unwrap_or(rest.len());
            rest = &rest[start..];
            let end = rest.iter().position(|b| *b == b' ').unwrap_or(rest.len());
            rest = &rest[end..];
        }
        let path = rest.strip_prefix(b" ").unwrap_or(rest);
        if !path.starts_with(b"/") {
            continue; // abstract (`@…`) or unnamed
        }
        let path = PathBuf::from(OsString::from_vec(path.to_vec()));
        let is_socket = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_socket());
        if is_socket && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// Remounts read-only every mount whose mount point is not in a writable
/// root; the mounts inside the writable roots keep what they were. A
/// failure on `/` is an error; on another mount it is skipped (Landlock
/// still refuses writes there; only metadata changes would pass).
fn remount_all_read_only(writable: &[std::path::PathBuf]) -> io::Result<()> {
    let info = std::fs::read("/proc/self/mountinfo")?;
    let mounts = mounts(&info);
    let inside = |p: &Path| writable.iter().any(|w| p.starts_with(w));
    // A mount in a writable root stays writable only if what it shows is
    // not outside them: a bind of `/etc` at `/tmp/x` is reached by a path
    // Landlock allows, so its own read-only flag is all that guards `/etc`.
    // What it shows is outside when another mount of the same file system,
    // itself outside the writable roots, shows it at a path outside them
    // too (and nowhere inside); a file system mounted only in the
    // writable roots (a tmpfs) is theirs. A writable root's own bind is
    // writable whatever else shows its folder (the host's disk mounted
    // whole at `/host` shows the worktree too): the policy names it.
    let writable_mount = |m: &Mount<'_>| {
        if !inside(&m.point) {
            return false;
        }
        if writable.contains(&m.point) {
            return true;
        }
        let mut views = mounts
            .iter()
            .filter(|o| o.dev == m.dev && !inside(&o.point))
            .filter_map(|o| m.root.strip_prefix(&o.root).ok().map(|r| o.point.join(r)))
            .peekable();
        views.peek().is_none() || views.any(|v| inside(&v))
    };
    // One recursive call (Linux 5.12) instead of a remount per mount (a
    // tenth of a millisecond on a laptop's twenty mounts): everything
    // read-only, then the writable roots' mounts that were writable back.
    if mount_setattr(Path::new("/"), true, MOUNT_ATTR_RDONLY, 0).is_ok() {
        for m in mounts.iter().filter(|m| writable_mount(m)) {
            if m.opts.split(|b| *b == b',').any(|o| o == b"rw") {
                mount_setattr(&m.point, false, 0, MOUNT_ATTR_RDONLY)?;
            }
        }
        return Ok(());
    }
    let mut done: Vec<&Path> = Vec::new();
    for m in &mounts {
        if writable_mount(m) || done.contains(&m.point.as_path()) {
            continue;
        }
        let r = remount_read_only(&m.point, m.opts);
        if r.is_err() && m.point == Path::new("/") {
            return r;
        }
        done.push(&m.point);
    }
    Ok(())
}

/// One line of /proc/self/mountinfo.
struct Mount<'a> {
    /// `major:minor` of its file system.
    dev: &'a [u8],
    /// The folder of that file system it shows.
    root: PathBuf,
    /// Where it is mounted.
    point: PathBuf,
    /// Its per-mount options (`rw,nosuid,…`).
    opts: &'a [u8],
}

/// The mounts listed in `info` (the text of /proc/self/mountinfo), in its
/// order.
fn mounts(info: &[u8]) -> Vec<Mount<'_>> {
    let mut out = Vec::new();
    for line in info.split(|b| *b == b'\n') {
        let fields: Vec<&[u8]> = line.split(|b| *b == b' ').collect();
        if let [_, _, dev, root, point, opts, ..] = fields[..] {
            let path = |f: &[u8]| PathBuf::from(OsString::from_vec(unescape(f)));
            out.push(Mount {
                dev,
                root: path(root),
                point: path(point),
                opts,
            });
        }
    }
    out
}

/// Remounts the mount at `point` read-only, keeping the flags of `opts`
/// (its mountinfo options) that the kernel locks in a user namespace.
fn remount_read_only(point: &Path, opts: &[u8]) -> io::Result<()> {
    let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY;
    for o in opts.split(|b| *b == b',') {
        flags |= match o {
            b"nosuid" => libc::MS_NOSUID,
            b"nodev" => libc::MS_NODEV,
            b"noexec" => libc::MS_NOEXEC,
            b"noatime" => libc::MS_NOATIME,
            b"nodiratime" => libc::MS_NODIRATIME,
            b"relatime" => libc::MS_RELATIME,
            _ => 0,
        };
    }
    mount(None, point, None, flags, None)
}

/// `MOUNT_ATTR_RDONLY` of `mount_setattr(2)`.
const MOUNT_ATTR_RDONLY: u64 = 1;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Sets and clears mount attributes on the mount at `path` (and every
/// mount below it when `recursive`).
fn mount_setattr(path: &Path, recursive: bool, set: u64, clear: u64) -> io::Result<()> {
    let c = cpath(path)?;
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    // SAFETY: c and attr are alive for the call, and the size passed is
    // that of the struct the kernel reads.
    let r = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c.as_ptr(),
            flags as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Decodes mountinfo's octal escapes (`\040` for a space).
fn unescape(field: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(field.len());
    let mut i = 0;
    while i < field.len() {
        if field[i] == b'\\'
            && i + 3 < field.len()
            && (b'0'..=b'3').contains(&field[i + 1])
            && field[i + 2..i + 4]
                .iter()
                .all(|d| (b'0'..=b'7').contains(d))
        {
            out.push(
                (field[i + 1] - b'0') * 64 + (field[i + 2] - b'0') * 8 + (field[i + 3] - b'0'),
            );
            i += 4;
        } else {
            out.push(field[i]);
            i += 1;
        }
    }
    out
}

/// Binds `p` over itself, then remounts the bind (and every mount below
/// it) read-only, keeping the flags the kernel locks in a user namespace
/// (nosuid, nodev, noexec, atime) or the remount is refused with EPERM.
fn bind_read_only(p: &Path) -> io::Result<()> {
    mount(Some(p), p, None, libc::MS_BIND | libc::MS_REC, None)?;
    // The recursive bind copied the mounts below `p` as they were (set
    // writable again when they lie in a writable root): a `.git/objects`
    // or hooks folder on a file system of its own must turn read-only too.
    if mount_setattr(p, true, MOUNT_ATTR_RDONLY, 0).is_ok() {
        return Ok(());
    }
    // Before Linux 5.12: a remount per mount, the bind (listed last at
    // `p`) and every mount below it.
    let info = std::fs::read("/proc/self/mountinfo")?;
    for m in mounts(&info) {
        if m.point.starts_with(p) {
            remount_read_only(&m.point, m.opts)?;
        }
    }
    Ok(())
}

fn mount(
    src: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> io::Result<()> {
    let src = src.map(cpath).transpose()?;
    let target = cpath(target)?;
    let fstype = fstype
        .map(CString::new)
        .transpose()
        .map_err(io::Error::other)?;
    let data = data
        .map(CString::new)
        .transpose()
        .map_err(io::Error::other)?;
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: every pointer is null or a NUL-terminated string alive for the call.
    check(unsafe {
        libc::mount(
            ptr(&src),
            target.as_ptr(),
            ptr(&fstype),
            flags,
            ptr(&data).cast(),
        )
    })
}

/// Sets `lo` up in the new network namespace, so loopback servers started
/// inside (tests) work while nothing outside is reachable.
fn loopback_up() -> io::Result<()> {
    // SAFETY: socket returns a new fd or -1.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    check(fd)?;
    // SAFETY: fd is a new socket we own from here.
    let sock = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: ifreq is plain data; zeroed is a valid value.
    let mut ifr: libc::ifreq = unsafe { std::mem::zeroed() };
    for (d, s) in ifr.ifr_name.iter_mut().zip(b"lo\0") {
        *d = *s as libc::c_char;
    }
    // SAFETY: the ioctls read and write the ifreq we own.
    unsafe {
        check(libc::ioctl(sock.as_raw_fd(), libc::SIOCGIFFLAGS, &mut ifr))?;
        ifr.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        check(libc::ioctl(sock.as_raw_fd(), libc::SIOCSIFFLAGS, &ifr))?;
    }
    Ok(())
}

/// `SECBIT_NOROOT`, `SECBIT_KEEP_CAPS` off, `SECBIT_NO_CAP_AMBIENT_RAISE`,
/// each locked (linux/securebits.h).
const SECURE_NO_ROOT: libc::c_ulong = (1 << 0) | (1 << 1) | (1 << 5) | (1 << 6) | (1 << 7);

/// Drops every capability: ambient, effective, permitted and inheritable,
/// and (as root) root's right to regain them at exec. Root in the user
/// namespace (the caller was root) would otherwise keep CAP_SYS_ADMIN
/// there after exec and could unmount the read-only binds (Landlock
/// forbids that too: two locks).
fn drop_capabilities() -> io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        check(libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        ))?;
        // Root (uid 0 here: the user is root outside) would get every
        // capability back at the next exec; SECBIT_NOROOT, locked, stops
        // that. One call where emptying the bounding set took one per
        // capability, each a new set of credentials (a sixth of a contained
        // spawn): with nothing permitted, no ambient set, no new
        // privileges (setuid bits and file capabilities ignored) and no
        // root rule, no exec can raise a capability, so the bounding set,
        // which only caps what an exec grants, has nothing left to cap.
        // Any other uid has no root rule to stop.
        if libc::geteuid() == 0 {
            check(libc::prctl(
                libc::PR_SET_SECUREBITS,
                SECURE_NO_ROOT,
                0,
                0,
                0,
            ))?;
        }
    }
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let data = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: capset reads the header and two data structs (version 3 layout).
    check(unsafe { libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) } as libc::c_int)
}

fn report(fd: &OwnedFd, stage: Stage, err: &io::Error) {
    let mut buf = [0u8; 8];
    buf[..4].copy_from_slice(&(stage as u32).to_ne_bytes());
    buf[4..].copy_from_slice(&err.raw_os_error().unwrap_or(libc::EIO).to_ne_bytes());
    // SAFETY: writes our 8-byte buffer to a pipe we own; a short write
    // (impossible for 8 bytes on a pipe) would be reported as no error.
    unsafe { libc::write(fd.as_raw_fd(), buf.as_ptr().cast(), buf.len()) };
}

fn read_full(f: &mut std::fs::File, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    n
}

/// Waits for `pid` and returns the exit code to pass on: its code, or
/// 128+N when signal N killed it.
fn wait(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child, writing into `status`.
        if unsafe { libc::waitpid(pid, &mut status, 0) } >= 0 {
            break;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return 125;
        }
    }
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        125
    }
}

/// Landlock level: kills every process re-parented to us (we are a
/// subreaper) until none is left; each killed process's own children come
/// to us next.
fn kill_descendants() {
    loop {
        for pid in children() {
            // SAFETY: signals a child of ours.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let mut status = 0;
        // SAFETY: reaps any child of ours.
        let r = unsafe { libc::waitpid(-1, &mut status, 0) };
        if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break; // ECHILD: none left.
        }
    }
}

/// Returns our children's pids (from /proc/self/task/*/children).
fn children() -> Vec<libc::pid_t> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for t in tasks.flatten() {
        if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(
                s.split_whitespace()
                    .filter_map(|p| p.parse::<libc::pid_t>().ok()),
            );
        }
    }
    out
}

/// Finds `name` as execvp would, but in the command's own PATH (execvp
/// searches the shim's).
fn find_program(name: &OsString, path: Option<OsString>) -> io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    if name.as_bytes().contains(&b'/') {
        return Ok(PathBuf::from(name));
    }
    if name.is_empty() {
        return Err(io::Error::from(io::ErrorKind::NotFound));
    }
    let path = path.unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    let mut denied = None;
    for dir in std::env::split_paths(&path) {
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let candidate = dir.join(name);
        match std::fs::metadata(&candidate) {
            Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => return Ok(candidate),
            Ok(m) if m.is_file() => denied = Some(io::Error::from(io::ErrorKind::PermissionDenied)),
            _ => {}
        }
    }
    Err(denied.unwrap_or_else(|| io::Error::from(io::ErrorKind::NotFound)))
}

/// Opens `dir` and takes a shared `flock` on it (waiting while another
/// run removes its placeholders under the exclusive lock).
fn lock_shared(dir: &Path) -> io::Result<std::fs::File> {
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
        .open(dir)?;
    loop {
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_SH) } == 0 {
            return Ok(f);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Closes every descriptor above stderr except `keep`.
fn close_other_fds(keep: &[RawFd]) {
    // close_range (Linux 5.9) closes the gaps between the kept descriptors
    // in a few calls; listing /proc/self/fd costs more than the rest of a
    // spawn's bookkeeping together.
    let mut kept: Vec<RawFd> = keep.iter().copied().filter(|fd| *fd > 2).collect();
    kept.sort_unstable();
    kept.dedup();
    let mut first: libc::c_uint = 3;
    let mut ranged = true;
    for fd in kept
        .iter()
        .map(|fd| fd.unsigned_abs())
        .chain([libc::c_uint::MAX])
    {
        if fd > first {
            // SAFETY: plain system call on descriptor numbers; nothing in
            // this process uses the closed ones after this point.
            ranged &= unsafe { libc::syscall(libc::SYS_close_range, first, fd - 1, 0) } == 0;
        }
        first = fd.saturating_add(1);
    }
    if ranged {
        return;
    }
    let fds: Vec<RawFd> = std::fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    for fd in fds.into_iter().filter(|fd| *fd > 2 && !keep.contains(fd)) {
        // SAFETY: closing a descriptor nothing in this process uses after
        // this point (the read_dir handle is already dropped; a stale
        // number only yields EBADF).
        unsafe { libc::close(fd) };
    }
}

pub(super) fn thread_count() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|d| d.count())
        .unwrap_or(1)
}

/// Reads one byte from stdin: whether the caller wrote one before closing
/// it (see `AFTER_STDIN`).
fn byte_on_stdin() -> bool {
    let mut byte = [0u8; 1];
    loop {
        // SAFETY: reads one byte into our buffer from fd 0.
        let n = unsafe { libc::read(0, byte.as_mut_ptr().cast(), 1) };
        if n >= 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return n == 1;
        }
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds: [RawFd; 2] = [-1, -1];
    // SAFETY: pipe2 writes two fds into our array.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both fds are new and owned by us from here.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn write_file(path: &str, data: &[u8]) -> io::Result<()> {
    std::fs::write(path, data)
}

fn cpath(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other)
}

fn cstrings(argv: &[OsString]) -> Result<Vec<CString>, SandboxError> {
    argv.iter()
        .map(|a| CString::new(a.as_bytes()))
        .collect::<Result<_, _>>()
        .map_err(|_| SandboxError::BadShimArgs("an argument holds a NUL byte".into()))
}

fn check(r: libc::c_int) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}
