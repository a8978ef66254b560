#![allow(unsafe_code)] // pre_exec, to enter the sandbox in a forked child
//! The sandbox by effect: real commands run contained in temporary trees,
//! and the file system (and a loopback listener) checked afterwards.
//!
//! Each case runs at every level this machine gives (Full and Landlock
//! here), so the weaker level's promises are proven too. The shim is
//! entered through `exec_contained_env` in a `pre_exec` hook: the forked
//! child is single-threaded, and the explicit environment means nothing of
//! the test process's env is read after the fork. (The `__sandbox-exec`
//! argv protocol itself is unit-tested and exercised by `benches/sandbox.rs`.)

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use git_fararoni::sandbox::{self, Level, Policy};

/// The levels to test on this machine, strongest first.
fn levels() -> Vec<Level> {
    let p = sandbox::probe();
    match p.level {
        Level::Full => vec![Level::Full, Level::Landlock],
        Level::Landlock => vec![Level::Landlock],
        _ => Vec::new(),
    }
}

/// A scratch world: a git worktree, a folder standing in for `/etc` and
/// HOME outside it, and a temp dir.
struct World {
    _t: tempfile::TempDir,
    wt: PathBuf,
    out: PathBuf,
    home: PathBuf,
    tmp: PathBuf,
}

impl World {
    fn new() -> World {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path().canonicalize().expect("canonical");
        let wt = root.join("wt");
        let out = root.join("outside");
        let home = root.join("home");
        let tmp = root.join("tmp");
        for d in [&wt, &out.join("etc/ssh"), &home.join(".ssh"), &tmp] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::write(out.join("etc/passwd"), "root:x:0:0\n").expect("write");
        std::fs::write(out.join("etc/ssh/sshd_config"), "Port 22\n").expect("write");
        std::fs::write(home.join(".bashrc"), "# rc\n").expect("write");
        std::fs::write(home.join(".ssh/authorized_keys"), "ssh-ed25519 AAAA\n").expect("write");
        let git = Command::new("git")
            .args(["init", "-q", "-b", "main"])
            .current_dir(&wt)
            .status()
            .expect("git init");
        assert!(git.success());
        std::fs::write(wt.join("work.txt"), "work\n").expect("write");
        std::fs::create_dir(wt.join("src")).expect("mkdir");
        World {
            _t: t,
            wt,
            out,
            home,
            tmp,
        }
    }

    fn policy(&self, network: bool) -> Policy {
        Policy {
            worktree: self.wt.clone(),
            protected: vec![self.wt.join(".git"), self.wt.join(".fararoni")],
            writable: Vec::new(),
            network,
        }
    }

    fn env(&self) -> Vec<(OsString, OsString)> {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        vec![
            ("PATH".into(), path),
            ("HOME".into(), self.home.clone().into()),
            ("TMPDIR".into(), self.tmp.clone().into()),
            ("OUT".into(), self.out.clone().into()),
            ("WT".into(), self.wt.clone().into()),
            ("LC_ALL".into(), "C".into()),
        ]
    }

    /// Everything outside the worktree and temp dir: path → (mode, bytes).
    fn outside(&self) -> BTreeMap<PathBuf, (u32, Vec<u8>)> {
        let mut m = BTreeMap::new();
        for root in [&self.out, &self.home] {
            walk(root, &mut m);
        }
        m
    }

    fn git_dir(&self) -> BTreeMap<PathBuf, (u32, Vec<u8>)> {
        let mut m = BTreeMap::new();
        walk(&self.wt.join(".git"), &mut m);
        m
    }

    /// Runs `sh -c script` contained at `level` under `policy`.
    fn sh_with(&self, level: Level, policy: &Policy, script: &str) -> Output {
        contained(level, policy, &["sh", "-c", script], &self.env(), &self.wt)
    }

    fn sh(&self, level: Level, script: &str) -> Output {
        self.sh_with(level, &self.policy(false), script)
    }
}

fn walk(p: &Path, m: &mut BTreeMap<PathBuf, (u32, Vec<u8>)>) {
    let Ok(meta) = std::fs::symlink_metadata(p) else {
        return;
    };
    let bytes = if meta.is_file() {
        std::fs::read(p).unwrap_or_default()
    } else {
        Vec::new()
    };
    m.insert(p.to_owned(), (meta.permissions().mode(), bytes));
    if meta.is_dir() {
        for e in std::fs::read_dir(p).expect("read_dir").flatten() {
            walk(&e.path(), m);
        }
    }
}

/// Runs `argv` contained; the sandbox's own errors come back as exit 125-127
/// with the message on stderr.
fn contained(
    level: Level,
    policy: &Policy,
    argv: &[&str],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Output {
    contained_as(None, level, policy, argv, env, cwd)
}

/// Runs like [`contained`], first dropping to `uid` (gid the same) when given.
fn contained_as(
    uid: Option<u32>,
    level: Level,
    policy: &Policy,
    argv: &[&str],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Output {
    // Probe in the parent: the OnceLock must not be first filled in a fork.
    let _ = sandbox::probe();
    let policy = policy.clone();
    let argv: Vec<OsString> = argv.iter().map(OsString::from).collect();
    let env = env.to_vec();
    let mut cmd = Command::new("/nonexistent/never-executed");
    cmd.current_dir(cwd).stdin(Stdio::null());
    // SAFETY: the hook runs in the forked child, which is single-threaded;
    // exec_contained_env reads no lock-protected global (its env is given),
    // and it either execs the command or ends the child with _exit.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(uid) = uid {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(uid) != 0
                    || libc::setuid(uid) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                // The uid change made us non-dumpable (so /proc/self is
                // root's): a user's shim, started normally, is dumpable.
                libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
            }
            let err = match sandbox::exec_contained_env(&policy, level, &argv, &env) {
                Err(e) => e,
                Ok(never) => match never {},
            };
            let mut msg = format!("sandbox error: {err}\n");
            let mut cause = std::error::Error::source(&err);
            while let Some(c) = cause {
                msg.push_str(&format!("caused by: {c}\n"));
                cause = c.source();
            }
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::_exit(i32::from(err.exit_code()));
        });
    }
    cmd.output().expect("spawn the contained command")
}

/// Whether the command ran (rather than the sandbox failing to start).
fn ran(o: &Output) -> bool {
    !String::from_utf8_lossy(&o.stderr).contains("sandbox error:")
}

fn show(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn test_sandbox_destroyers_leave_outside_unchanged() {
    for level in levels() {
        let w = World::new();
        let before = w.outside();
        let scripts = [
            r#"rm -rf "$OUT" "$HOME""#,
            r#"python3 -c "import shutil,os; shutil.rmtree(os.environ['OUT'])""#,
            r#"python3 -c "from shutil import rmtree as wipe; wipe('$HOME/.ssh')""#,
            r#"tar --remove-files -cf "$WT/out.tar" "$OUT""#,
            r#"echo x > "$OUT/f""#,
            r#"echo pwned >> "$HOME/.bashrc"; echo key >> "$HOME/.ssh/authorized_keys""#,
            r#"truncate -s0 "$OUT/etc/passwd""#,
            r#"mv "$OUT/etc" "$WT/stolen""#,
            r#"ln -s "$OUT" "$WT/x" && echo pwned > "$WT/x/f""#,
            r#"echo pwned > "/proc/self/root$OUT/f""#,
            r#"cd "$WT/.git/.." && echo ok > dotdot && echo pwned > "../outside/f""#,
        ];
        for s in scripts {
            let o = w.sh(level, s);
            assert!(ran(&o), "{level}: `{s}` did not run:\n{}", show(&o));
            assert_eq!(
                w.outside(),
                before,
                "{level}: `{s}` changed the outside:\n{}",
                show(&o)
            );
        }
        // `..` out of the bind lands in the worktree, as it should (a new
        // top-level entry: only the Full level can allow it).
        if level == Level::Full {
            assert_eq!(
                std::fs::read_to_string(w.wt.join("dotdot")).ok().as_deref(),
                Some("ok\n"),
                "{level}"
            );
        }
    }
}

#[test]
fn test_sandbox_metadata_outside_unchanged_at_full_level() {
    // Landlock (ABI <= 7) has no right for chmod, chown, utimes or xattrs;
    // the Full level remounts everything outside read-only, which refuses
    // them (EROFS). At the Landlock level they pass: see the module docs.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let before = w.outside();
    let git_before = w.git_dir();
    for s in [
        r#"chmod -R 000 "$OUT"; chmod 777 "$HOME/.ssh""#,
        r#"touch -d 2000-01-01 "$OUT/etc/passwd""#,
        r#"setfattr -n user.x -v 1 "$OUT/etc/passwd" 2>/dev/null; python3 -c "import os; os.setxattr('$OUT/etc/passwd', 'user.x', b'1')""#,
        r#"chmod 000 /dev/null; chmod 000 /usr/bin/env"#,
        r#"chmod 000 "$WT/.git/config" "$WT/.git/hooks""#,
    ] {
        let o = w.sh(Level::Full, s);
        assert!(ran(&o), "`{s}` did not run:\n{}", show(&o));
        assert_eq!(
            w.outside(),
            before,
            "`{s}` changed the outside:\n{}",
            show(&o)
        );
        assert_eq!(w.git_dir(), git_before, "`{s}` changed .git:\n{}", show(&o));
    }
    let mode = |p: &str| std::fs::metadata(p).expect("stat").permissions().mode() & 0o7777;
    assert_eq!(mode("/dev/null"), 0o666);
    assert_eq!(mode("/usr/bin/env"), 0o755);
}

#[test]
fn test_sandbox_protected_paths_stay_unwritable() {
    for level in levels() {
        let w = World::new();
        let git_before = w.git_dir();
        let scripts = [
            r#"printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit"#,
            r#"echo '[core] hooksPath = /tmp' >> .git/config"#,
            r#"git config core.hooksPath /tmp/evil"#,
            r#"mkdir -p .fararoni && echo x > .fararoni/journal"#,
            r#"mv .git moved"#,
            r#"mv .fararoni x"#,
            r#"rm -rf .git"#,
            r#"rm -rf .fararoni"#,
            r#"ln .git/config cfg && echo pwned >> cfg"#,
            r#"umount .git; echo pwned >> .git/config"#,
            r#"mount -o remount,rw,bind .git; echo pwned >> .git/config"#,
            r#"mount --bind "$TMPDIR" .git; echo pwned >> .git/config"#,
            r#"unshare -Urm sh -c 'umount "$WT/.git"; echo pwned >> "$WT/.git/config"'"#,
            r#"unshare -Um sh -c 'umount -l "$WT/.git"; echo pwned >> "$WT/.git/config"'"#,
            // unshare(2) itself succeeds; umount2 and mount then fail.
            r#"python3 -c "
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.unshare(0x10000000 | 0x00020000)
libc.umount2(b'.git', 2)
libc.mount(b'none', b'.git', b'tmpfs', 0, None)
open('.git/config', 'a').write('pwned')
""#,
        ];
        for s in scripts {
            let o = w.sh(level, s);
            assert!(ran(&o), "{level}: `{s}` did not run:\n{}", show(&o));
            assert_eq!(
                w.git_dir(),
                git_before,
                "{level}: `{s}` changed .git:\n{}",
                show(&o)
            );
            // The placeholder made to protect the missing .fararoni/ is
            // gone afterwards (the shim's helper removes it just after the
            // shim answers), as is anything the command tried there.
            assert!(
                eventually(|| !w.wt.join(".fararoni").exists()),
                "{level}: `{s}` left .fararoni/:\n{}",
                show(&o)
            );
            assert!(
                !w.wt.join("moved").exists() && !w.wt.join("x").exists(),
                "{level}: `{s}`"
            );
        }
    }
}

#[test]
fn test_sandbox_worktree_temp_and_dev_null_stay_writable() {
    for level in levels() {
        let w = World::new();
        // The Landlock level grants the worktree's existing entries only.
        let new_top = if level == Level::Full {
            "echo new > new.txt;"
        } else {
            ""
        };
        let o = w.sh(
            level,
            &format!(r#"set -e; {new_top} echo more >> work.txt; mkdir -p src/a; echo x > src/a/b.rs;
               echo t > "$TMPDIR/t"; mktemp >/dev/null; echo gone > /dev/null; echo err > /dev/stderr;
               rm src/a/b.rs; echo ok"#),
        );
        assert_eq!(o.status.code(), Some(0), "{level}:\n{}", show(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "ok\n", "{level}");
        assert_eq!(
            std::fs::read_to_string(w.wt.join("work.txt")).expect("read"),
            "work\nmore\n"
        );
        assert_eq!(
            std::fs::read_to_string(w.tmp.join("t")).expect("read"),
            "t\n"
        );
        if level == Level::Full {
            // New entries at the top of the worktree need the Full level
            // (Landlock alone cannot grant the root without its .git).
            assert_eq!(
                std::fs::read_to_string(w.wt.join("new.txt")).expect("read"),
                "new\n"
            );
        }
    }
}

#[test]
fn test_sandbox_devices_refused_but_dev_null() {
    for level in levels() {
        let w = World::new();
        let o = w.sh(
            level,
            r#"python3 -c "
import errno
for dev in ['/dev/full', '/dev/loop0', '/dev/zero']:
    try:
        open(dev, 'wb').close(); print(dev, 'opened')
    except OSError as e:
        print(dev, errno.errorcode[e.errno])
open('/dev/null', 'wb').write(b'x'); print('/dev/null ok')
""#,
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("/dev/full EACCES"),
            "{level}: not EACCES (ENOSPC would mean it opened):\n{}",
            show(&o)
        );
        assert!(out.contains("/dev/zero EACCES"), "{level}:\n{}", show(&o));
        assert!(!out.contains("opened"), "{level}:\n{}", show(&o));
        assert!(out.contains("/dev/null ok"), "{level}:\n{}", show(&o));
    }
}

#[test]
fn test_sandbox_network_follows_the_policy() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let script = format!(
        r#"python3 -c "
import socket
s = socket.socket(); s.settimeout(2)
try:
    s.connect(('127.0.0.1', {port})); print('connected')
except OSError as e:
    print('refused', e)
""#
    );
    for level in levels() {
        let w = World::new();
        let off = w.sh_with(level, &w.policy(false), &script);
        assert!(
            String::from_utf8_lossy(&off.stdout).starts_with("refused"),
            "{level} off:\n{}",
            show(&off)
        );
        let on = w.sh_with(level, &w.policy(true), &script);
        assert_eq!(
            String::from_utf8_lossy(&on.stdout),
            "connected\n",
            "{level} on:\n{}",
            show(&on)
        );
        // A server inside the sandbox still works on its own loopback.
        if level == Level::Full {
            let o = w.sh(
                level,
                r#"python3 -c "
import socket
a = socket.socket(); a.bind(('127.0.0.1', 0)); a.listen()
b = socket.socket(); b.connect(a.getsockname()); print('inner ok')
""#,
            );
            assert_eq!(
                String::from_utf8_lossy(&o.stdout),
                "inner ok\n",
                "{level}:\n{}",
                show(&o)
            );
        }
    }
}

#[test]
fn test_sandbox_unix_sockets_bound_before_the_run_are_hidden_whatever_the_network() {
    // A listening unix socket outside (standing in for docker or the
    // session bus), one inside the temp dir (tmux's place), and the
    // ssh-agent's, named by `SSH_AUTH_SOCK`.
    let w = World::new();
    let outside = w.out.join("daemon.sock");
    let in_tmp = w.tmp.join("tmux.sock");
    let agent = w.tmp.join("agent.sock");
    let _l1 = std::os::unix::net::UnixListener::bind(&outside).expect("bind");
    let _l2 = std::os::unix::net::UnixListener::bind(&in_tmp).expect("bind");
    let _l3 = std::os::unix::net::UnixListener::bind(&agent).expect("bind");
    let script = format!(
        r#"python3 -c "
import os, socket, time
for p in ['{}', '{}', os.environ['SSH_AUTH_SOCK']]:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(p); print('connected')
    except OSError as e:
        print('refused')
own = '$TMPDIR/own-%d.sock' % time.time_ns()
a = socket.socket(socket.AF_UNIX); a.bind(own); a.listen()
b = socket.socket(socket.AF_UNIX); b.connect(own); print('own ok')
""#,
        outside.display(),
        in_tmp.display()
    );
    if levels().contains(&Level::Full) {
        let mut env = w.env();
        env.push(("SSH_AUTH_SOCK".into(), agent.clone().into()));
        let run = |network: bool| {
            contained(
                Level::Full,
                &w.policy(network),
                &["sh", "-c", &script],
                &env,
                &w.wt,
            )
        };
        let off = run(false);
        assert_eq!(
            String::from_utf8_lossy(&off.stdout),
            "refused\nrefused\nrefused\nown ok\n",
            "{}",
            show(&off)
        );
        let on = run(true);
        assert_eq!(
            String::from_utf8_lossy(&on.stdout),
            "refused\nrefused\nconnected\nown ok\n",
            "{}",
            show(&on)
        );
    }
}

#[test]
fn test_sandbox_processes_end_with_the_command() {
    let script = r#"
        (sleep 1; echo x > "$WT/m1") &
        setsid sh -c 'sleep 1; echo y > "$WT/m2"' &
        nohup sh -c 'sleep 1; echo z > "$WT/m3"' >/dev/null 2>&1 &
        sh -c '(sleep 1; echo w > "$WT/m4") &' &
        exit 0"#;
    // Proof that the script leaves writers behind when not contained.
    let w = World::new();
    let plain = Command::new("sh")
        .args(["-c", script])
        .env("WT", &w.wt)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("sh");
    assert!(plain.success());
    std::thread::sleep(Duration::from_millis(2000));
    assert!(
        (1..=4).all(|i| w.wt.join(format!("m{i}")).exists()),
        "uncontained, the markers appear"
    );
    for level in levels() {
        let w = World::new();
        let o = w.sh(level, script);
        assert_eq!(o.status.code(), Some(0), "{level}:\n{}", show(&o));
        std::thread::sleep(Duration::from_millis(2000));
        let left: Vec<_> = (1..=4)
            .filter(|i| w.wt.join(format!("m{i}")).exists())
            .collect();
        assert!(
            left.is_empty(),
            "{level}: markers {left:?} were written after the command returned"
        );
    }
}

#[test]
fn test_sandbox_killing_the_shim_kills_the_command() {
    // The agent's timeout kills the process it spawned (the shim): with a
    // PID namespace, pid 1 gets PDEATHSIG and the kernel ends the rest.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let policy = w.policy(false);
    let env = w.env();
    let _ = sandbox::probe();
    // A sleep length no other process has, to find the survivors by.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tag = format!("30.{nanos:09}");
    let script = format!(
        r#"(sleep {tag}; echo x > "$WT/late") & setsid sh -c 'sleep {tag}; echo y > "$WT/late2"' & touch "$WT/started"; wait"#
    );
    let argv: Vec<OsString> = vec!["sh".into(), "-c".into(), script.into()];
    let mut cmd = Command::new("/nonexistent/never-executed");
    cmd.current_dir(&w.wt).stdin(Stdio::null());
    // SAFETY: as in `contained`.
    unsafe {
        cmd.pre_exec(move || {
            let Err(e) = sandbox::exec_contained_env(&policy, Level::Full, &argv, &env);
            libc::_exit(i32::from(e.exit_code()))
        });
    }
    let mut child = cmd.spawn().expect("spawn");
    // Kill once the command runs (a loaded machine may take a while).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !w.wt.join("started").exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    while with_arg(&tag).len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = with_arg(&tag).len();
    child.kill().expect("kill the shim");
    child.wait().expect("wait");
    assert_eq!(before, 2, "both sleeps ran before the kill");
    // The kernel kills a PID namespace's processes asynchronously.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !with_arg(&tag).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        with_arg(&tag),
        Vec::<u32>::new(),
        "processes outlived their killed shim"
    );
}

/// Returns the pids whose command line has the argument `arg`.
fn with_arg(arg: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if cmdline.split(|b| *b == 0).any(|a| a == arg.as_bytes()) {
            out.push(pid);
        }
    }
    out
}

#[test]
fn test_sandbox_exit_codes_pass_through() {
    for level in levels() {
        let w = World::new();
        assert_eq!(w.sh(level, "exit 7").status.code(), Some(7), "{level}");
        // A fault is forced even on pid 1 of a PID namespace.
        let segv = w.sh(level, r#"python3 -c "import ctypes; ctypes.string_at(0)""#);
        assert_eq!(
            segv.status.code(),
            Some(128 + 11),
            "{level}:\n{}",
            show(&segv)
        );
        let nf = contained(
            level,
            &w.policy(false),
            &["no-such-program-xyz"],
            &w.env(),
            &w.wt,
        );
        assert_eq!(nf.status.code(), Some(127), "{level}:\n{}", show(&nf));
        assert!(
            String::from_utf8_lossy(&nf.stderr).contains("cannot run `no-such-program-xyz`"),
            "{}",
            show(&nf)
        );
    }
    // A script without `#!` runs with /bin/sh, as execvp would run it.
    for level in levels() {
        let w = World::new();
        let script = w.wt.join("src/noshebang");
        std::fs::write(&script, "echo \"ran $1\"\nexit 4\n").expect("write");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let o = contained(
            level,
            &w.policy(false),
            &["./src/noshebang", "it"],
            &w.env(),
            &w.wt,
        );
        assert_eq!(
            (o.status.code(), String::from_utf8_lossy(&o.stdout).as_ref()),
            (Some(4), "ran it\n"),
            "{level}:\n{}",
            show(&o)
        );
    }
    // Without a PID namespace a signal can reach the command itself.
    let w = World::new();
    let killed = w.sh(Level::Landlock, "kill -9 $$");
    assert_eq!(killed.status.code(), Some(128 + 9), "{}", show(&killed));
}

#[test]
fn test_sandbox_no_privilege_inside() {
    for level in levels() {
        let w = World::new();
        let o = w.sh(
            level,
            r#"grep -E '^(NoNewPrivs|CapEff|CapPrm|CapBnd|CapAmb):' /proc/self/status"#,
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(out.contains("NoNewPrivs:\t1"), "{level}:\n{}", show(&o));
        // `grep` is an exec of an exec: as root (uid 0 inside when the
        // tests run as root) it would get every capability back but for
        // SECBIT_NOROOT.
        for cap in ["CapEff", "CapPrm", "CapAmb"] {
            assert!(
                out.contains(&format!("{cap}:\t0000000000000000")),
                "{level} {cap}:\n{out}"
            );
        }
        // A setuid helper gains nothing: writes outside still fail.
        let before = w.outside();
        for s in [
            r#"su root -c 'echo x > "$OUT/f"'"#,
            r#"sudo sh -c 'echo x > "$OUT/f"'"#,
        ] {
            let o = w.sh(level, s);
            assert_eq!(w.outside(), before, "{level}: `{s}`:\n{}", show(&o));
        }
    }
}

#[test]
fn test_sandbox_cannot_signal_outside() {
    for level in levels() {
        let w = World::new();
        let mut victim = Command::new("sleep").arg("30").spawn().expect("sleep");
        let o = w.sh(level, &format!("kill -9 {}", victim.id()));
        assert_ne!(o.status.code(), Some(0), "{level}:\n{}", show(&o));
        // Full: the PID namespace has no such process; Landlock: its
        // signal scope (ABI >= 6) refuses.
        let why = if level == Level::Full {
            "No such process"
        } else {
            "not permitted"
        };
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(why),
            "{level}:\n{}",
            show(&o)
        );
        assert!(
            victim.try_wait().expect("try_wait").is_none(),
            "{level}: the outside process was killed"
        );
        victim.kill().expect("kill");
        victim.wait().expect("wait");
    }
}

#[test]
fn test_sandbox_cannot_reach_the_shim() {
    // Killing or writing the memory of the shim would orphan the command
    // (no one left to end its processes) or run code outside. At the Full
    // level the shim is outside the PID namespace (getppid() is 0); at the
    // Landlock level it is visible but outside the Landlock domain.
    for level in levels() {
        let w = World::new();
        let o = w.sh(
            level,
            r#"exec python3 -c "
import os, signal
pp = os.getppid()
print('ppid', 'outside' if pp == 0 else 'visible')
if pp:
    for what, act in [('kill', lambda: os.kill(pp, signal.SIGKILL)),
                      ('mem', lambda: open('/proc/%d/mem' % pp, 'wb'))]:
        try:
            act(); print(what, 'DONE')
        except OSError as e:
            print(what, 'refused')
""#,
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let want = if level == Level::Full {
            "ppid outside\n"
        } else {
            "ppid visible\nkill refused\nmem refused\n"
        };
        assert_eq!(out, want, "{level}:\n{}", show(&o));
        assert_eq!(o.status.code(), Some(0), "{level}:\n{}", show(&o));
    }
}

#[test]
fn test_sandbox_ld_preload_runs_only_contained() {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("skipped: no C compiler");
        return;
    }
    for level in levels() {
        let w = World::new();
        let src = w.tmp.join("evil.c");
        std::fs::write(
            &src,
            format!(
                "#include <stdio.h>\n__attribute__((constructor)) static void evil(void) {{\n  FILE *f = fopen(\"{}/preloaded\", \"w\"); if (f) fclose(f);\n}}\n",
                w.out.display()
            ),
        )
        .expect("write");
        let so = w.tmp.join("evil.so");
        let cc = Command::new("cc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(&so)
            .arg(&src)
            .status()
            .expect("cc");
        assert!(cc.success());
        let mut env = w.env();
        env.push(("LD_PRELOAD".into(), so.clone().into()));
        let o = contained(
            level,
            &w.policy(false),
            &["sh", "-c", "echo ran"],
            &env,
            &w.wt,
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "ran\n",
            "{level}:\n{}",
            show(&o)
        );
        assert!(
            !w.out.join("preloaded").exists(),
            "{level}: the preloaded code wrote outside"
        );
    }
}

#[test]
fn test_sandbox_protected_ancestors_cannot_be_moved() {
    // The worktree inside the temp dir, and a protected file two levels
    // down: renaming any folder on the way would let a new one replace it.
    for level in levels() {
        let w = World::new();
        let wt = w.tmp.join("nest/repo");
        std::fs::create_dir_all(wt.join(".claude")).expect("mkdir");
        std::fs::write(wt.join(".claude/settings.json"), "{}").expect("write");
        std::fs::create_dir_all(wt.join(".git")).expect("mkdir");
        let policy = Policy {
            worktree: wt.clone(),
            protected: vec![
                wt.join(".git"),
                wt.join(".claude/settings.json"),
                wt.join(".gemini/settings.json"),
            ],
            writable: Vec::new(),
            network: false,
        };
        let scripts = [
            r#"mv .claude .c2; mkdir .claude; echo pwned > .claude/settings.json"#,
            r#"echo pwned > .claude/settings.json"#,
            r#"mv "$TMPDIR/nest" "$TMPDIR/n2"; mkdir -p "$TMPDIR/nest/repo/.git"; echo pwned > "$TMPDIR/nest/repo/.git/config""#,
            r#"mv "$TMPDIR/nest/repo" "$TMPDIR/r2""#,
            r#"mkdir -p .gemini && echo pwned > .gemini/settings.json"#,
        ];
        for s in scripts {
            let o = contained(level, &policy, &["sh", "-c", s], &w.env(), &wt);
            assert!(ran(&o), "{level}: `{s}` did not run:\n{}", show(&o));
            let settings = std::fs::read_to_string(wt.join(".claude/settings.json"));
            assert_eq!(settings.ok().as_deref(), Some("{}"), "{level}: `{s}`");
            assert!(
                !wt.join(".git/config").exists(),
                "{level}: `{s}`:\n{}",
                show(&o)
            );
            assert!(
                !wt.join(".gemini/settings.json").exists(),
                "{level}: `{s}`:\n{}",
                show(&o)
            );
            assert!(
                w.tmp.join("nest/repo").is_dir() && !w.tmp.join("n2").exists(),
                "{level}: `{s}`"
            );
        }
    }
}

#[test]
fn test_sandbox_as_an_unprivileged_user() {
    // Most users are not root: the user namespace then maps a plain uid,
    // and mounting /proc, the binds and the read-only remounts must still
    // work. Run only where the test itself is root (to drop to nobody).
    // SAFETY: getuid cannot fail.
    if unsafe { libc::getuid() } != 0 || !levels().contains(&Level::Full) {
        return;
    }
    const NOBODY: u32 = 65534;
    let w = World::new();
    let root = w.wt.parent().expect("root").to_owned();
    for entry in walk_paths(&root) {
        std::os::unix::fs::lchown(&entry, Some(NOBODY), Some(NOBODY)).expect("chown");
    }
    let before = w.outside();
    let git_before = w.git_dir();
    for level in levels() {
        let script = r#"id -u; echo more >> work.txt; echo t > "$TMPDIR/t";
            rm -rf "$OUT" "$HOME" 2>/dev/null; chmod -R 000 "$OUT" 2>/dev/null;
            echo x >> .git/config 2>/dev/null; mv .git g 2>/dev/null;
            (sleep 1; echo late > "$WT/late") & exit 0"#;
        let o = contained_as(
            Some(NOBODY),
            level,
            &w.policy(false),
            &["sh", "-c", script],
            &w.env(),
            &w.wt,
        );
        assert_eq!(o.status.code(), Some(0), "{level}:\n{}", show(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "65534\n", "{level}");
        let outside = w.outside();
        if level == Level::Full {
            assert_eq!(outside, before, "{level}: the outside changed");
        } else {
            // Landlock alone lets an owner chmod its own files.
            let contents = |m: &BTreeMap<PathBuf, (u32, Vec<u8>)>| {
                m.iter()
                    .map(|(p, (_, b))| (p.clone(), b.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                contents(&outside),
                contents(&before),
                "{level}: the outside changed"
            );
            Command::new("chmod")
                .args(["-R", "u+rwx"])
                .arg(&w.out)
                .status()
                .expect("chmod");
        }
        assert_eq!(w.git_dir(), git_before, "{level}: .git changed");
        std::thread::sleep(Duration::from_millis(1500));
        assert!(
            !w.wt.join("late").exists(),
            "{level}: a process outlived the command"
        );
    }
    assert_eq!(
        std::fs::read_to_string(w.wt.join("work.txt")).expect("read"),
        "work\nmore\nmore\n"
    );
}

fn walk_paths(p: &Path) -> Vec<PathBuf> {
    let mut out = vec![p.to_owned()];
    if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
        for e in std::fs::read_dir(p).expect("read_dir").flatten() {
            out.extend(walk_paths(&e.path()));
        }
    }
    out
}

#[test]
fn test_sandbox_concurrent_runs_keep_a_shared_placeholder_protected() {
    // Run A makes the placeholder for the missing .fararoni/; run B, started
    // while A runs, finds it and binds it read-only. When A ends it must not
    // remove it: removing a directory detaches the mounts on it in every
    // namespace, which would let B create .fararoni/ anew and write it.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let policy = w.policy(false);
    let env = w.env();
    std::thread::scope(|s| {
        let a = s.spawn(|| contained(Level::Full, &policy, &["sh", "-c", "sleep 1"], &env, &w.wt));
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !w.wt.join(".fararoni").exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let b = s.spawn(|| {
            contained(
                Level::Full,
                &policy,
                &[
                    "sh",
                    "-c",
                    "sleep 2; mkdir -p .fararoni; echo pwned > .fararoni/x",
                ],
                &env,
                &w.wt,
            )
        });
        let a = a.join().expect("run a");
        assert_eq!(a.status.code(), Some(0), "{}", show(&a));
        let b = b.join().expect("run b");
        assert!(ran(&b), "{}", show(&b));
    });
    assert!(
        !w.wt.join(".fararoni/x").exists(),
        "run B wrote .fararoni/ after run A ended"
    );
    // Alone again, a run removes the placeholder it made.
    let _ = std::fs::remove_dir(w.wt.join(".fararoni"));
    let o = w.sh(Level::Full, "test -d .fararoni");
    assert_eq!(
        o.status.code(),
        Some(0),
        "the placeholder exists during the run"
    );
    assert!(
        eventually(|| !w.wt.join(".fararoni").exists()),
        "the placeholder is gone after the run"
    );
}

/// Returns whether `cond` holds within 10 s (polled).
fn eventually(cond: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !cond() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[test]
fn test_sandbox_refuses_a_symlinked_protected_path() {
    let w = World::new();
    std::fs::create_dir(w.wt.join("real")).expect("mkdir");
    std::os::unix::fs::symlink(w.wt.join("real"), w.wt.join(".fararoni")).expect("symlink");
    for level in levels() {
        let o = w.sh(level, "echo should-not-run");
        assert_eq!(o.status.code(), Some(125), "{level}:\n{}", show(&o));
        assert!(
            o.stdout.is_empty(),
            "{level}: ran uncontained:\n{}",
            show(&o)
        );
    }
}

#[test]
fn test_sandbox_back_to_back_runs_leave_no_placeholder_behind() {
    // Each run answers before it removes its placeholders. A run started
    // the moment the previous one answered must not find a placeholder
    // still there, reuse it (its shared lock then keeps the previous run
    // from removing it) and leave it for good: it removes only what it
    // made itself.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let mut policy = w.policy(false);
    for d in [".claude", ".gemini", ".codex"] {
        policy.protected.push(w.wt.join(d));
    }
    let env = w.env();
    let entries = || {
        let mut v: Vec<String> = std::fs::read_dir(&w.wt)
            .expect("ls")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = entries();
    for _ in 0..150 {
        let o = contained(Level::Full, &policy, &["true"], &env, &w.wt);
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    }
    assert!(
        eventually(|| entries() == before),
        "placeholders left behind: {:?}",
        entries()
    );
}

/// A tmpfs mounted at `path` for the life of the value (needs root).
struct TmpfsMount(PathBuf);

impl TmpfsMount {
    fn at(path: &Path) -> Option<TmpfsMount> {
        std::fs::create_dir_all(path).expect("mkdir");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "tmpfs"])
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| TmpfsMount(path.to_owned()))
    }
}

impl Drop for TmpfsMount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[test]
fn test_sandbox_a_mount_below_a_protected_path_is_read_only_too() {
    // `.git/objects/extra` (or a hooks folder) on a file system of its
    // own: binding `.git` read-only copies the mounts below it as they
    // were, writable, unless the read-only bind is recursive.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let Some(_m) = TmpfsMount::at(&w.wt.join(".git/objects/extra")) else {
        crate::common::precondition_missing("root (to mount a tmpfs below .git)");
        return;
    };
    let o = w.sh(
        Level::Full,
        "echo pwned > .git/objects/extra/x; mkdir .git/objects/extra/d; \
         chmod 000 .git/objects/extra; true",
    );
    assert!(ran(&o), "{}", show(&o));
    assert!(
        !w.wt.join(".git/objects/extra/x").exists(),
        "wrote below .git through a nested mount: {}",
        show(&o)
    );
    assert!(!w.wt.join(".git/objects/extra/d").exists(), "{}", show(&o));
    let mode = std::fs::metadata(w.wt.join(".git/objects/extra"))
        .expect("stat")
        .permissions()
        .mode();
    assert_ne!(mode & 0o777, 0, "chmod went through: {}", show(&o));
}

#[test]
fn test_sandbox_a_bind_of_outside_into_the_temp_dir_stays_read_only() {
    // A folder from outside bound into a writable root (`/tmp/x` showing
    // `/etc`): Landlock sees the path under the temp dir and allows the
    // write, so the mount must stay read-only. A file system of its own
    // mounted there (a tmpfs) stays writable.
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let bound = w.tmp.join("etc-view");
    std::fs::create_dir_all(&bound).expect("mkdir");
    let ok = Command::new("mount")
        .arg("--bind")
        .arg(w.out.join("etc"))
        .arg(&bound)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        crate::common::precondition_missing("root (to bind a folder into the temp dir)");
        return;
    }
    let _bound = TmpfsMount(bound.clone());
    let Some(_scratch) = TmpfsMount::at(&w.tmp.join("scratch")) else {
        crate::common::precondition_missing("root (to mount a tmpfs)");
        return;
    };
    let before = w.outside();
    let o = w.sh(
        Level::Full,
        "echo pwned >> $TMPDIR/etc-view/passwd; chmod 000 $TMPDIR/etc-view/passwd; \
         echo ok > $TMPDIR/scratch/f && echo ok > $TMPDIR/f",
    );
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(
        w.outside(),
        before,
        "wrote outside through a bind: {}",
        show(&o)
    );
    assert!(w.tmp.join("scratch/f").exists(), "{}", show(&o));
}

/// The shim spawned ahead (`--after-stdin`, as our agent spawns a command
/// before its snapshot): nothing runs until a byte arrives on its stdin;
/// closed without one, nothing runs at all (exit 125) and no placeholder is
/// left; and the tree is read when the byte arrives, not at the spawn, so a
/// link planted at a protected path in between is refused, not followed.
#[test]
fn test_sandbox_a_shim_spawned_ahead_reads_the_tree_when_started() {
    use std::io::Write as _;
    for level in levels() {
        let w = World::new();
        let mut policy = w.policy(false);
        policy.protected.push(w.wt.join(".claude"));
        let spawn = |script: &str| {
            let argv: Vec<OsString> = ["sh", "-c", script].iter().map(OsString::from).collect();
            let mut c = Command::new(env!("CARGO_BIN_EXE_git-fararoni"));
            c.arg(sandbox::SHIM_SUBCOMMAND)
                .arg(sandbox::AFTER_STDIN)
                .args(sandbox::shim_args(&policy, level, &argv))
                .env_clear()
                .envs(w.env())
                .current_dir(&w.wt)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c.spawn().expect("spawn the shim")
        };
        let start = |mut shim: std::process::Child| {
            let mut gate = shim.stdin.take().expect("stdin");
            gate.write_all(&[1]).expect("start");
            drop(gate);
            shim.wait_with_output().expect("wait")
        };
        // Closed without a byte: nothing runs.
        // (Into `src/`: at the Landlock level the top of a tree holding a
        // protected path is granted entry by entry.)
        let mut shim = spawn("echo ran > src/ran.txt");
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !w.wt.join("src/ran.txt").exists(),
            "{level}: ran before the byte"
        );
        drop(shim.stdin.take());
        let o = shim.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(125), "{level}: {}", show(&o));
        assert!(
            !w.wt.join("src/ran.txt").exists(),
            "{level}: ran without the byte"
        );
        assert!(!w.wt.join(".claude").exists(), "{level}: placeholder left");
        // Started: runs, with a stdin that reads nothing.
        let shim = spawn("cat > src/in.txt; echo ran > src/ran.txt");
        let o = start(shim);
        assert!(o.status.success(), "{level}: {}", show(&o));
        assert_eq!(
            std::fs::read(w.wt.join("src/in.txt")).expect("in.txt"),
            b"",
            "{level}"
        );
        assert!(w.wt.join("src/ran.txt").exists(), "{level}");
        // A link planted at a protected path after the spawn: refused.
        let shim = spawn("echo pwned > .claude/passwd; echo ran > src/ran2.txt");
        std::thread::sleep(Duration::from_millis(200));
        std::os::unix::fs::symlink(w.out.join("etc"), w.wt.join(".claude")).expect("plant");
        let o = start(shim);
        assert_eq!(o.status.code(), Some(125), "{level}: {}", show(&o));
        assert!(!w.wt.join("src/ran2.txt").exists(), "{level}: ran");
        assert_eq!(
            std::fs::read_to_string(w.out.join("etc/passwd")).expect("passwd"),
            "root:x:0:0\n",
            "{level}"
        );
    }
}

/// Started ahead, the sandbox covers the unix sockets found when it starts
/// the command, not only those found when it was spawned: one bound
/// outside in between (a daemon that came up during the snapshot), or
/// bound anew where a covered one was, is refused too.
#[test]
fn test_sandbox_a_socket_bound_while_the_shim_waits_is_hidden() {
    use std::io::Write as _;
    if !levels().contains(&Level::Full) {
        return;
    }
    let w = World::new();
    let early = w.out.join("early.sock");
    let late = w.out.join("late.sock");
    let first = std::os::unix::net::UnixListener::bind(&early).expect("bind");
    let script = format!(
        r#"python3 -c "
import socket
for p in ['{}', '{}']:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(p); print('connected')
    except OSError as e:
        print('refused')
""#,
        early.display(),
        late.display()
    );
    let argv: Vec<OsString> = ["sh", "-c", &script].iter().map(OsString::from).collect();
    let mut shim = Command::new(env!("CARGO_BIN_EXE_git-fararoni"))
        .arg(sandbox::SHIM_SUBCOMMAND)
        .arg(sandbox::AFTER_STDIN)
        .args(sandbox::shim_args(&w.policy(true), Level::Full, &argv))
        .env_clear()
        .envs(w.env())
        .current_dir(&w.wt)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the shim");
    std::thread::sleep(Duration::from_millis(300));
    // The early socket goes and comes back; a late one appears.
    drop(first);
    std::fs::remove_file(&early).expect("unlink");
    let _again = std::os::unix::net::UnixListener::bind(&early).expect("bind again");
    let _late = std::os::unix::net::UnixListener::bind(&late).expect("bind late");
    let mut gate = shim.stdin.take().expect("stdin");
    gate.write_all(&[1]).expect("start");
    drop(gate);
    let o = shim.wait_with_output().expect("wait");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "refused\nrefused\n",
        "{}",
        show(&o)
    );
}
