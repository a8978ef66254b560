//! Shared helpers for the integration tests: hermetic temporary
//! repositories driven by the real `git` and the real binaries.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

/// Returns the path of one of the crate's binaries, built by cargo for tests.
pub fn bin(name: &str) -> PathBuf {
    match name {
        "git-fararoni" => PathBuf::from(env!("CARGO_BIN_EXE_git-fararoni")),
        "git-fararoni-saga" => PathBuf::from(env!("CARGO_BIN_EXE_git-fararoni-saga")),
        "git-fararoni-shadow" => PathBuf::from(env!("CARGO_BIN_EXE_git-fararoni-shadow")),
        other => panic!("unknown binary {other}"),
    }
}

/// What a finished command printed, and its exit code.
#[derive(Debug, Clone)]
pub struct Out {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

impl From<Output> for Out {
    fn from(o: Output) -> Out {
        Out {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl std::fmt::Display for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}------- stderr -------\n{}[exit status: {}]",
            self.stdout, self.stderr, self.code
        )
    }
}

/// A temporary directory with a hermetic git environment (own HOME and
/// global config, fixed identity and dates, no system config).
pub struct TestRepo {
    dir: TempDir,
    home: TempDir,
}

impl TestRepo {
    /// Creates a repository with `git init -b main` and no commits.
    pub fn new() -> TestRepo {
        let r = TestRepo::empty_dir();
        r.git(&["init", "-q", "-b", "main"]);
        r
    }

    /// Creates a repository with one commit of `README.md`.
    pub fn with_commit() -> TestRepo {
        let r = TestRepo::new();
        r.write("README.md", "# demo\n");
        r.git(&["add", "README.md"]);
        r.git(&["commit", "-q", "-m", "initial"]);
        r
    }

    /// Creates an empty directory (no repository) with the hermetic env.
    pub fn empty_dir() -> TestRepo {
        let dir = tempfile::Builder::new()
            .prefix("fararoni-test")
            .tempdir()
            .expect("tempdir");
        let home = tempfile::tempdir().expect("home tempdir");
        std::fs::write(
            home.path().join(".gitconfig"),
            "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
        )
        .expect("write global config");
        TestRepo { dir, home }
    }

    /// Returns the repository's top directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Every agent session log of the repository (`.git/fararoni/sessions`),
    /// as (session name, text), sorted by name; none before the first.
    pub fn session_logs(&self) -> Vec<(String, String)> {
        let dir = self.path().join(".git/fararoni/sessions");
        let mut logs: Vec<(String, String)> = std::fs::read_dir(&dir)
            .map(|d| {
                d.map(|e| {
                    let path = e.expect("entry").path();
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().trim_end_matches(".jsonl").to_string())
                        .unwrap_or_default();
                    (
                        name,
                        std::fs::read_to_string(&path).expect("read session log"),
                    )
                })
                .collect()
            })
            .unwrap_or_default();
        logs.sort();
        logs
    }

    /// Every event of every session log, each line parsed as JSON.
    pub fn session_events(&self) -> Vec<serde_json::Value> {
        self.session_logs()
            .iter()
            .flat_map(|(_, text)| {
                text.lines()
                    .map(|l| serde_json::from_str(l).expect("a JSON line"))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Returns the hermetic HOME.
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Applies the hermetic environment to `cmd`.
    pub fn env(&self, cmd: &mut Command) {
        for (k, _) in std::env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            if k.starts_with("GIT_") || k.starts_with("FARARONI_") {
                cmd.env_remove(&k);
            }
        }
        let bin_dir = bin("git-fararoni")
            .parent()
            .expect("binary has a directory")
            .to_path_buf();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![bin_dir];
        paths.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(paths).expect("PATH joins"))
            .env("HOME", self.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home().join(".gitconfig"))
            .env("GIT_AUTHOR_NAME", "Test User")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test User")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .env("TZ", "UTC")
            .env("LC_ALL", "C")
            .env("GIT_EDITOR", ":")
            .env("GIT_PAGER", "cat")
            .env("PAGER", "cat")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("PWD", self.path())
            .current_dir(self.path())
            .stdin(Stdio::null());
    }

    /// Runs `git ARGS` in the repository; panics unless it succeeds.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_out(args);
        assert_eq!(out.code, 0, "git {args:?} failed:\n{out}");
        out.stdout
    }

    /// Runs `git ARGS` in the repository and returns what happened.
    pub fn git_out(&self, args: &[&str]) -> Out {
        let mut cmd = Command::new("git");
        cmd.args(args);
        self.env(&mut cmd);
        cmd.output().expect("git runs").into()
    }

    /// Returns a command for one of the crate's binaries, in the repository.
    pub fn cmd(&self, binary: &str) -> Command {
        let mut cmd = Command::new(bin(binary));
        self.env(&mut cmd);
        cmd
    }

    /// Runs `git-fararoni ARGS` in the repository.
    pub fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Out {
        self.cmd("git-fararoni")
            .args(args)
            .output()
            .expect("git-fararoni runs")
            .into()
    }

    /// Runs `git-fararoni ARGS` in `dir` (e.g. a subdirectory).
    pub fn run_in<S: AsRef<OsStr>>(&self, dir: &Path, args: &[S]) -> Out {
        self.cmd("git-fararoni")
            .current_dir(dir)
            .env("PWD", dir)
            .args(args)
            .output()
            .expect("git-fararoni runs")
            .into()
    }

    /// Runs `git fararoni ask REQUEST`.
    pub fn ask(&self, request: &str) -> Out {
        self.run(&["ask", request])
    }

    /// Writes a file (creating directories) relative to the repository.
    pub fn write(&self, rel: &str, content: &str) {
        let p = self.path().join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(p, content).expect("write file");
    }

    /// Reads a file relative to the repository.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).expect("read file")
    }

    /// Returns the subject lines of `git log`, newest first.
    pub fn log(&self) -> Vec<String> {
        let out = self.git_out(&["log", "--format=%s"]);
        out.stdout.lines().map(String::from).collect()
    }

    /// Returns every file under the directory (`.git` included) with its bytes,
    /// for byte-identical comparisons.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        snapshot(self.path())
    }
}

/// Returns every file under `root` with its bytes.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let ft = entry.file_type().expect("file type");
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file() {
                let rel = path.strip_prefix(root).expect("under root").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

/// Runs `cmd` with `input` on its standard input and returns what it printed.
pub fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Out {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    // A writer thread, so a child that exits early cannot block us.
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait").into();
    let _ = writer.join();
    out
}

/// A small deterministic generator (xorshift64*) for the crash tests.
pub struct Rng(pub u64);

impl Rng {
    /// Returns the seed of a crash test: `FARARONI_CRASH_SEED` when set (to
    /// replay a run), else one from the clock.
    pub fn seed() -> u64 {
        std::env::var("FARARONI_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
                    | 1
            })
    }

    /// Returns the next pseudo-random number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Returns a number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// `cmd` run by `unshare --user` as an unmapped user: root outside, nobody
/// inside, so file modes apply to it (a test that needs them enforced
/// while the suite runs as root, as CI does).
pub fn in_user_namespace(cmd: &Command) -> Command {
    let mut u = Command::new("unshare");
    u.arg("--user")
        .arg("--")
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => u.env(k, v),
            None => u.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        u.current_dir(dir);
    }
    u
}

/// A precondition this machine lacks: a visible skip on a developer's
/// machine, a failure in CI (`CI` set), whose script installs it.
pub fn precondition_missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must provide {what} (see .ci/run)"
    );
    eprintln!("skipped: {what} is missing here");
}
