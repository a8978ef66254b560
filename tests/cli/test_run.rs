//! `git fararoni run -- CMD`: by effect. A scratch tree outside the temp
//! dir stands in for `/etc` and HOME; the repository's refs, hooks and
//! config are compared before and after.

use std::net::TcpListener;
use std::path::PathBuf;

use crate::common::TestRepo;

/// A scratch folder outside the temp dir (which a contained command may
/// write), filled with one file.
fn outside(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("run-outside-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("etc")).expect("mkdir outside");
    std::fs::write(dir.join("etc/passwd"), "root:x:0:0\n").expect("write outside");
    dir
}

fn run_sh(r: &TestRepo, script: &str) -> crate::common::Out {
    r.run(&["run", "--", "sh", "-c", script])
}

#[test]
fn test_run_nothing_outside_the_worktree_is_written() {
    let r = TestRepo::with_commit();
    let out = outside("rm");
    let o = out.display();
    for script in [
        format!("rm -rf {o}"),
        format!("python3 -c \"from shutil import rmtree as wipe; wipe('{o}')\""),
        format!("tar --remove-files -cf archive.tar {o}/etc"),
        format!("echo pwned >> {o}/etc/passwd"),
        format!("ln -s {o} link && echo x > link/etc/new"),
        format!("echo x > /proc/self/root{o}/etc/passwd"),
    ] {
        let res = run_sh(&r, &script);
        assert_ne!(res.code, 0, "{script}: {res}");
        assert_eq!(
            std::fs::read_to_string(out.join("etc/passwd"))
                .ok()
                .as_deref(),
            Some("root:x:0:0\n"),
            "{script} changed the outside tree: {res}"
        );
        assert!(!out.join("etc/new").exists(), "{script}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn test_run_the_git_dir_hooks_and_store_are_read_only() {
    let r = TestRepo::with_commit();
    let config = std::fs::read(r.path().join(".git/config")).expect("config");
    let head = r.git(&["rev-parse", "HEAD"]);
    for script in [
        "echo 'rm -rf .' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
        "echo '[core] hooksPath = /tmp' >> .git/config",
        "git config core.hooksPath /tmp",
        "mv .git .git-gone",
        "rm -rf .git",
        "mkdir -p .fararoni/shadow && echo x > .fararoni/shadow/planted",
        "mkdir -p .claude && echo '{\"disableAllHooks\":true}' > .claude/settings.json",
        "git update-ref refs/heads/main HEAD~0^{tree} 2>/dev/null || git commit --allow-empty -qm sneaky --no-verify",
    ] {
        let res = run_sh(&r, script);
        assert_ne!(res.code, 0, "{script}: {res}");
        assert!(!r.path().join(".git/hooks/pre-commit").exists(), "{script}");
        assert_eq!(
            std::fs::read(r.path().join(".git/config")).expect("config"),
            config,
            "{script}"
        );
        assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "{script}");
        assert!(!r.path().join(".fararoni/shadow/planted").exists(), "{script}");
        assert!(!r.path().join(".claude/settings.json").exists(), "{script}");
    }
}

#[test]
fn test_run_passes_the_exit_code_and_output_through() {
    let r = TestRepo::with_commit();
    let res = run_sh(&r, "echo out; echo err >&2; exit 7");
    assert_eq!(res.code, 7, "{res}");
    assert_eq!(res.stdout, "out\n");
    assert!(res.stderr.starts_with("err\n"), "{res}");
    // The command is pid 1 of its namespace, which a signal without a
    // handler does not end: a shell reports its child's death as 128+N.
    let res = run_sh(&r, "sh -c 'kill -TERM $$'");
    assert_eq!(res.code, 128 + 15, "{res}");
    let res = r.run(&["run", "--", "no-such-program-here"]);
    assert_eq!(res.code, 127, "{res}");
}

#[test]
fn test_run_work_in_the_tree_is_written_and_undone() {
    let r = TestRepo::with_commit();
    r.write("notes.txt", "mine\n");
    r.write("README.md", "# changed by me\n");
    let res = r.run(&[
        "run",
        "--session",
        "run-test-1",
        "--",
        "sh",
        "-c",
        "rm notes.txt; echo gutted > README.md; echo new > created.txt",
    ]);
    assert_eq!(res.code, 0, "{res}");
    assert_eq!(r.read("created.txt"), "new\n");
    assert!(res.stderr.contains("undo --session run-test-1"), "{res}");
    let undo = r.run(&["undo", "--session", "run-test-1"]);
    assert_eq!(undo.code, 0, "{undo}");
    assert_eq!(r.read("notes.txt"), "mine\n");
    assert_eq!(r.read("README.md"), "# changed by me\n");
    assert!(!r.path().join("created.txt").exists());
}

#[test]
fn test_run_no_process_outlives_the_command() {
    let r = TestRepo::with_commit();
    let res = run_sh(&r, "(sleep 1; echo late > late.txt) & setsid sh -c 'sleep 1; echo late > late2.txt' & echo started");
    assert_eq!(res.code, 0, "{res}");
    std::thread::sleep(std::time::Duration::from_millis(2500));
    assert!(!r.path().join("late.txt").exists());
    assert!(!r.path().join("late2.txt").exists());
}

#[test]
fn test_run_network_off_and_on() {
    let r = TestRepo::with_commit();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for s in listener.incoming().take(4) {
            drop(s);
        }
    });
    let connect =
        format!("python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 3)\"");
    let off = r.run(&["run", "--no-net", "--", "sh", "-c", &connect]);
    assert_ne!(
        off.code, 0,
        "reached the host's loopback with --no-net: {off}"
    );
    let on = r.run(&["run", "--net", "--", "sh", "-c", &connect]);
    assert_eq!(on.code, 0, "{on}");
}

#[test]
fn test_run_devices_are_not_written() {
    let r = TestRepo::with_commit();
    assert_ne!(run_sh(&r, "echo x > /dev/full").code, 0);
    assert_eq!(run_sh(&r, "echo x > /dev/null").code, 0);
}

#[test]
fn test_run_never_runs_uncontained() {
    let r = TestRepo::with_commit();
    let res = r
        .cmd("git-fararoni")
        .env("FARARONI_SANDBOX", "none")
        .args(["run", "--", "sh", "-c", "echo ran > ran.txt"])
        .output()
        .expect("runs");
    let res: crate::common::Out = res.into();
    assert_ne!(res.code, 0, "{res}");
    assert!(res.stderr.contains("no sandbox is available"), "{res}");
    assert!(!r.path().join("ran.txt").exists(), "ran uncontained");
    let outside = TestRepo::empty_dir();
    let res = outside.run(&["run", "--", "true"]);
    assert_eq!(res.code, 2, "{res}");
    assert!(
        res.stderr.contains("not inside a git working tree"),
        "{res}"
    );
}

#[test]
fn test_run_an_environment_prefix_cannot_widen_its_own_sandbox() {
    let r = TestRepo::with_commit();
    let out = outside("env");
    let o = out.display().to_string();
    let res = r
        .cmd("git-fararoni")
        .env("FARARONI_SANDBOX_WRITABLE", &o)
        .args([
            "run",
            "--",
            "sh",
            "-c",
            &format!("echo pwned >> {o}/etc/passwd"),
        ])
        .output()
        .expect("runs");
    let res: crate::common::Out = res.into();
    assert_ne!(res.code, 0, "{res}");
    assert_eq!(
        std::fs::read_to_string(out.join("etc/passwd")).expect("read"),
        "root:x:0:0\n"
    );
    // The user's own git config does widen it.
    r.git(&["config", "fararoni.sandbox.writable", &o]);
    let res = run_sh(&r, &format!("echo mine >> {o}/etc/passwd"));
    assert_eq!(res.code, 0, "{res}");
    let _ = std::fs::remove_dir_all(&out);
}

/// A protected path planted as a symbolic link pointing out (an agent's
/// settings folder, the hooks folder) is refused with an error naming it:
/// nothing runs, nothing is written through the link, and the message does
/// not claim the command ran.
#[test]
fn test_run_a_planted_symlink_at_a_protected_path_is_refused_before_anything_runs() {
    for planted in [".claude", ".gemini", ".codex", ".github/hooks"] {
        let r = TestRepo::with_commit();
        let out = outside(&planted.replace(['.', '/'], "_"));
        if let Some(parent) = std::path::Path::new(planted).parent() {
            std::fs::create_dir_all(r.path().join(parent)).expect("mkdir");
        }
        std::os::unix::fs::symlink(out.join("etc"), r.path().join(planted)).expect("symlink");
        let script = format!("echo pwned > {planted}/passwd; echo ran > ran.txt");
        let res = run_sh(&r, &script);
        assert_eq!(res.code, 125, "{planted}: {res}");
        assert!(
            res.stderr.contains(planted) && res.stderr.contains("symbolic link"),
            "{planted}: {res}"
        );
        assert!(!res.stderr.contains("ran contained"), "{planted}: {res}");
        assert!(!r.path().join("ran.txt").exists(), "{planted}: it ran");
        assert_eq!(
            std::fs::read_to_string(out.join("etc/passwd"))
                .ok()
                .as_deref(),
            Some("root:x:0:0\n"),
            "{planted}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// `.fararoni/` planted before a run — a link out of the tree, a dangling
/// link, a file — never becomes a way out: the store sets the planted
/// thing aside (into the git dir) and makes its own folder, the command
/// cannot write there, and nothing outside changes, whatever the run
/// itself makes of it.
#[test]
fn test_run_a_planted_store_is_no_way_out() {
    for planted in ["link out", "dangling link", "file"] {
        let r = TestRepo::with_commit();
        let out = outside(&planted.replace(' ', "_"));
        let store = r.path().join(".fararoni");
        match planted {
            "link out" => std::os::unix::fs::symlink(out.join("etc"), &store),
            "dangling link" => std::os::unix::fs::symlink(out.join("nowhere"), &store),
            _ => std::fs::write(&store, "planted\n"),
        }
        .expect("plant");
        r.write("README.md", "# mine, uncommitted\n");
        let res = run_sh(
            &r,
            "echo pwned > .fararoni/passwd; mkdir -p .fararoni/etc && echo pwned > .fararoni/etc/passwd; echo ran > ran.txt",
        );
        assert_eq!(
            std::fs::read_to_string(out.join("etc/passwd"))
                .ok()
                .as_deref(),
            Some("root:x:0:0\n"),
            "{planted}: {res}"
        );
        assert!(!out.join("nowhere").exists(), "{planted}: {res}");
        assert!(
            !store.join("passwd").exists() && !store.join("etc").exists(),
            "{planted}: the command wrote the store: {res}"
        );
        if res.code == 0 {
            assert_eq!(r.read("ran.txt"), "ran\n", "{res}");
            assert!(store.is_dir() && !store.is_symlink(), "{planted}: {res}");
        } else {
            assert_eq!(res.code, 125, "{planted}: {res}");
            assert!(!r.path().join("ran.txt").exists(), "{planted}: {res}");
        }
        assert_eq!(r.read("README.md"), "# mine, uncommitted\n");
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn test_run_the_command_starts_with_default_signals() {
    // `git-fararoni` ignores SIGPIPE (its own output may be cut short), and
    // `run` sets the sandbox up in its own process: the command must not
    // inherit that, or `yes | head` ends in "Broken pipe" errors.
    let r = TestRepo::with_commit();
    let res = run_sh(&r, "yes | head -n 2");
    assert_eq!(res.code, 0, "{res}");
    assert_eq!(res.stdout, "y\ny\n", "{res}");
    assert!(!res.stderr.contains("Broken pipe"), "{res}");
    let res = r.run(&["run", "--", "grep", "^SigIgn:", "/proc/self/status"]);
    assert_eq!(res.code, 0, "{res}");
    let ignored = res
        .stdout
        .trim()
        .rsplit('\t')
        .next()
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .expect("a SigIgn mask");
    assert_eq!(ignored & (1 << (libc::SIGPIPE - 1)), 0, "{res}");
}

#[test]
fn test_run_a_linked_folder_above_a_protected_path_is_refused() {
    // `.github` planted as a link out: the command could replace the link
    // with a folder of its own and write Copilot's hooks there.
    let r = TestRepo::with_commit();
    let out = outside("gh");
    std::os::unix::fs::symlink(out.join("etc"), r.path().join(".github")).expect("symlink");
    let res = run_sh(
        &r,
        "rm .github && mkdir -p .github/hooks && echo '{}' > .github/hooks/h.json",
    );
    assert_eq!(res.code, 125, "{res}");
    assert!(res.stderr.contains(".github"), "{res}");
    assert!(r.path().join(".github").is_symlink(), "{res}");
    assert!(!out.join("etc/hooks").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn test_run_a_temp_dir_of_root_or_home_widens_nothing() {
    let r = TestRepo::with_commit();
    let out = outside("tmpdir");
    let o = out.display().to_string();
    let home = out.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let link = out.join("to-root");
    std::os::unix::fs::symlink("/", &link).expect("symlink");
    for tmp in [
        "/".to_owned(),
        format!("{o}/etc/.."),
        link.display().to_string(),
        out.display().to_string(),
        home.display().to_string(),
    ] {
        let res = r
            .cmd("git-fararoni")
            .env("TMPDIR", &tmp)
            .env("HOME", &home)
            .args([
                "run",
                "--",
                "sh",
                "-c",
                &format!("echo pwned >> {o}/etc/passwd; echo x > {o}/home/.bashrc"),
            ])
            .output()
            .expect("runs");
        let res: crate::common::Out = res.into();
        assert_ne!(res.code, 0, "TMPDIR={tmp}: {res}");
        assert_eq!(
            std::fs::read_to_string(out.join("etc/passwd")).expect("read"),
            "root:x:0:0\n",
            "TMPDIR={tmp}"
        );
        assert!(!home.join(".bashrc").exists(), "TMPDIR={tmp}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The processes whose current directory is `dir`.
fn processes_in(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| std::fs::read_link(e.path().join("cwd")).is_ok_and(|c| c == dir))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// The sandbox's helper is started before the snapshot: when the snapshot
/// then fails (the repository's lock held elsewhere), the command never
/// runs, no placeholder is made, and the helper does not outlive `run`.
#[test]
fn test_run_a_failed_snapshot_runs_nothing_and_leaves_no_helper() {
    let r = TestRepo::with_commit();
    let lock = r.path().join(".git/fararoni/lock");
    std::fs::create_dir_all(lock.parent().expect("parent")).expect("mkdir");
    std::fs::write(&lock, "").expect("lock file");
    let mut holder = std::process::Command::new("flock")
        .arg("-x")
        .arg(&lock)
        .args(["sleep", "8"])
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .spawn()
        .expect("flock");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let res = run_sh(&r, "echo ran > ran.txt");
    let _ = holder.kill();
    let _ = holder.wait();
    assert_ne!(res.code, 0, "{res}");
    assert!(!r.path().join("ran.txt").exists(), "it ran: {res}");
    for placeholder in [".claude", ".gemini", ".codex", ".github"] {
        assert!(!r.path().join(placeholder).exists(), "{placeholder}: {res}");
    }
    let top = r.path().canonicalize().expect("canonical");
    assert_eq!(processes_in(&top), Vec::<String>::new(), "{res}");
}

/// Where user namespaces are refused (here: none may be made inside a
/// user namespace whose `max_user_namespaces` is 0), `run` — which starts
/// its helper before knowing — falls back to the Landlock level through
/// the shim: the command runs there, contained, never uncontained.
#[test]
fn test_run_falls_back_to_landlock_where_user_namespaces_are_refused() {
    let r = TestRepo::with_commit();
    let out = outside("nouserns");
    std::fs::create_dir_all(r.path().join("src")).expect("mkdir");
    let script = format!(
        "echo 0 > /proc/sys/user/max_user_namespaces || exit 99; exec git-fararoni run -- sh -c 'echo work > src/made.txt; echo pwned > {}/etc/passwd'",
        out.display()
    );
    let mut cmd = std::process::Command::new("unshare");
    r.env(&mut cmd);
    let res: crate::common::Out = cmd
        .args(["-U", "-r", "sh", "-c", &script])
        .current_dir(r.path())
        .output()
        .expect("unshare")
        .into();
    if res.code == 99 || res.stderr.contains("unshare failed") {
        // No user namespace to lower the limit in: nothing to show here.
        return;
    }
    assert!(res.stderr.contains("(landlock)"), "{res}");
    assert_eq!(
        std::fs::read_to_string(r.path().join("src/made.txt"))
            .ok()
            .as_deref(),
        Some("work\n"),
        "{res}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("etc/passwd"))
            .ok()
            .as_deref(),
        Some("root:x:0:0\n"),
        "{res}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
