//! Carrying out a routing decision: chains of commands run without a
//! shell, the composite git sequences, and small-talk replies.
//!
//! Never prints by itself: children either share the terminal or are
//! captured into a [`Report`], and status lines go through a callback.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use thiserror::Error;

use crate::git::{pathspec, GitCommand, GitError, Head, Repo, RepoError};
use crate::router::{Check, Cmd, CmdKind, CompositePlan, Op, Run, Step, GENERATED_MESSAGE};

/// A failure while carrying out a decision.
#[derive(Debug, Error)]
pub enum AskError {
    /// The sequence needs a repository and there is none.
    #[error("not a git repository (or any parent up to the filesystem root): `{}`", path.display())]
    NotARepo {
        /// Where the search started.
        path: PathBuf,
    },
    /// The repository has no working tree.
    #[error("`{}` is a bare repository; there is no working tree to commit from", path.display())]
    Bare {
        /// The git dir.
        path: PathBuf,
    },
    /// There is no commit to undo or amend.
    #[error("{0}")]
    NothingToUndo(String),
    /// The commit to amend is on a remote-tracking branch.
    #[error("the last commit is already on {}; amending it would rewrite history others have; nothing was run", quote(branches))]
    Published {
        /// The remote-tracking branches that contain it.
        branches: Vec<String>,
    },
    /// The branch to merge is not a local branch.
    #[error("there is no local branch `{name}` to merge; nothing was run")]
    NoSuchBranch {
        /// The name given.
        name: String,
    },
    /// Reading the repository failed.
    #[error(transparent)]
    Repo(#[from] RepoError),
    /// A command could not be contained, so it was not run.
    #[error("`{program}` could not be run contained, so it was not run: {why}")]
    Contain {
        /// The program.
        program: String,
        /// Why.
        why: String,
    },
    /// Running git failed to start.
    #[error(transparent)]
    Git(#[from] GitError),
    /// A program could not be started.
    #[error("could not run `{program}`")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `cd` could not enter a directory.
    #[error("cd: `{dir}` is not a directory")]
    Cd {
        /// The directory asked for.
        dir: String,
    },
    /// Files of our own store are staged; nothing was committed.
    #[error("{} of git-fararoni's own store `.fararoni/` {} staged, and the store never goes into a commit of ours: {}; nothing was committed", if paths.len() == 1 { "a file" } else { "files" }, if paths.len() == 1 { "is" } else { "are" }, quote(paths))]
    StoreStaged {
        /// The store's staged paths.
        paths: Vec<String>,
    },
    /// Writing `.gitignore` failed.
    #[error("could not write `{}`", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// Whether children share the terminal or are captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Io {
    /// Children read and write the terminal directly.
    Inherit,
    /// Output is captured into the [`Report`]; stdin is empty.
    Capture,
}

/// What running a decision produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// The exit code of the last command that ran (0 when nothing failed).
    pub exit_code: i32,
    /// Captured standard output (empty with [`Io::Inherit`]).
    pub stdout: Vec<u8>,
    /// Captured standard error (empty with [`Io::Inherit`]).
    pub stderr: Vec<u8>,
}

/// Builds the process for one command of a chain (not for builtins):
/// exactly its argv, with the policy's protections for git, and no
/// terminal input when there is no terminal (so nothing waits forever).
pub fn process_for(cmd: &Cmd, cwd: &Path) -> Command {
    let program = crate::which::resolve_program(&cmd.argv[0], cwd)
        .unwrap_or_else(|| PathBuf::from(&cmd.argv[0]));
    let mut c = Command::new(program);
    c.args(&cmd.argv[1..]).current_dir(cwd);
    if cmd.kind == CmdKind::Git {
        c.env("FARARONI_ACTOR", "human");
        crate::git::run::mark(&mut c);
        crate::git::run::protect(&mut c);
    }
    if cmd.kind == CmdKind::Utility {
        // GNU utilities change how they read their words under these
        // (`_POSIX2_VERSION=200112` makes `uniq +3 x` write `x`).
        c.env_remove("POSIXLY_CORRECT")
            .env_remove("_POSIX2_VERSION");
    }
    for (k, v) in &cmd.env {
        c.env(k, v);
    }
    if !std::io::stdin().is_terminal() {
        c.stdin(Stdio::null());
    }
    c
}

/// Returns the logical working directory, as the shell's `pwd` prints it.
pub fn logical_pwd(cwd: &Path) -> PathBuf {
    if let Ok(pwd) = std::env::var("PWD") {
        let p = PathBuf::from(&pwd);
        if p.is_absolute() && p.canonicalize().ok() == cwd.canonicalize().ok() {
            return p;
        }
    }
    cwd.to_path_buf()
}

/// What the executor reports while it works: each process it spawns
/// (exactly the argv, after every expansion), and notes for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<'a> {
    /// A process is about to start, with these `NAME=value` prefixes.
    Spawn(&'a [String], &'a [(String, String)]),
    /// A line for the user (a `cd` that failed, a step left out).
    Note(&'a str),
    /// Output of a step the executor answers itself (`pwd`), for stdout.
    Stdout(&'a str),
}

fn drain(mut r: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

fn spawn(mut command: Command, program: &str) -> Result<Child, AskError> {
    command.spawn().map_err(|source| AskError::Spawn {
        program: program.to_string(),
        source,
    })
}

/// Runs one pipeline; returns the exit code of its last command.
fn run_pipeline(
    pipeline: &[Cmd],
    cwd: &mut PathBuf,
    io: Io,
    report: &mut Report,
    on: &mut dyn FnMut(Event),
    wrap: Wrap,
) -> Result<i32, AskError> {
    if let [single] = pipeline {
        match single.kind {
            CmdKind::Pwd => {
                let physical = single.argv.iter().any(|a| a == "-P" || a == "--physical");
                let dir = if physical {
                    cwd.canonicalize().unwrap_or_else(|_| cwd.clone())
                } else {
                    logical_pwd(cwd)
                };
                let line = format!("{}\n", dir.display());
                match io {
                    Io::Inherit => on(Event::Stdout(&line)),
                    Io::Capture => report.stdout.extend_from_slice(line.as_bytes()),
                }
                return Ok(0);
            }
            CmdKind::Cd => {
                // The router resolved the directory; the chain was judged
                // for it.
                let target = single.argv.get(1).cloned().unwrap_or_default();
                let next = PathBuf::from(&target);
                if !next.is_dir() {
                    return Err(AskError::Cd { dir: target });
                }
                *cwd = next;
                return Ok(0);
            }
            _ => {}
        }
    }
    let mut children: Vec<(Child, String)> = Vec::new();
    let mut err_readers = Vec::new();
    let mut previous: Option<std::process::ChildStdout> = None;
    for (i, cmd) in pipeline.iter().enumerate() {
        let last = i + 1 == pipeline.len();
        // Builtins inside a pipeline behave like the external programs.
        let mut command = match cmd.kind {
            CmdKind::Pwd | CmdKind::Cd => {
                let mut c = Command::new(if cmd.kind == CmdKind::Pwd {
                    "pwd"
                } else {
                    "true"
                });
                c.current_dir(&*cwd);
                c
            }
            _ => {
                on(Event::Spawn(&cmd.argv, &cmd.env));
                wrap(cmd, process_for(cmd, cwd)).map_err(|why| AskError::Contain {
                    program: cmd.argv[0].clone(),
                    why,
                })?
            }
        };
        match previous.take() {
            Some(out) => {
                command.stdin(Stdio::from(out));
            }
            None if io == Io::Capture => {
                command.stdin(Stdio::null());
            }
            None => {}
        }
        if !last || io == Io::Capture {
            command.stdout(Stdio::piped());
        }
        if io == Io::Capture {
            command.stderr(Stdio::piped());
        }
        let mut child = spawn(command, &cmd.argv[0])?;
        if io == Io::Capture {
            if let Some(e) = child.stderr.take() {
                err_readers.push(drain(e));
            }
        }
        if !last {
            previous = child.stdout.take();
        }
        children.push((child, cmd.argv[0].clone()));
    }
    let out_reader = match io {
        Io::Capture => children
            .last_mut()
            .and_then(|(c, _)| c.stdout.take())
            .map(drain),
        Io::Inherit => None,
    };
    let mut code = 0;
    for (mut child, program) in children {
        let status = child
            .wait()
            .map_err(|source| AskError::Spawn { program, source })?;
        code = status.code().unwrap_or(128 + 9);
    }
    if let Some(r) = out_reader {
        report.stdout.extend(r.join().unwrap_or_default());
    }
    for r in err_readers {
        report.stderr.extend(r.join().unwrap_or_default());
    }
    Ok(code)
}

fn is_cd(step: &Step) -> bool {
    matches!(step.pipeline.as_slice(), [c] if c.kind == CmdKind::Cd)
}

/// Asked before every step after the first whether that step, judged
/// again against the repository as the earlier steps left it, is still the
/// same; `Some(reason)` stops the chain.
pub type Recheck<'a> = &'a mut dyn FnMut(usize, &Step) -> Option<String>;

/// Turns the process built for a command into the one that runs (the
/// agent wraps each of its commands in the sandbox); an error stops the
/// chain before that command, with nothing run.
pub type Wrap<'a> = &'a mut dyn FnMut(&Cmd, Command) -> Result<Command, String>;

/// Runs a chain with `&&`, `||` and `;` semantics, without a shell.
///
/// The router judged every command for the directory it would run in
/// after each `cd`; a `cd` that fails, or that `&&`/`||` would skip,
/// stops the chain, so nothing ever runs in a directory it was not judged
/// for. An earlier step can change what a later one was judged on (a
/// branch renamed into a path): `recheck` judges each later step again
/// just before it runs, and a step that would now be judged differently
/// stops the chain.
pub fn run_chain(
    steps: &[Step],
    cwd: &Path,
    io: Io,
    on: &mut dyn FnMut(Event),
    recheck: Recheck,
) -> Result<Report, AskError> {
    run_chain_with(steps, cwd, io, on, recheck, &mut |_, c| Ok(c))
}

/// [`run_chain`], with every spawned process passed through `wrap` first.
pub fn run_chain_with(
    steps: &[Step],
    cwd: &Path,
    io: Io,
    on: &mut dyn FnMut(Event),
    recheck: Recheck,
    wrap: Wrap,
) -> Result<Report, AskError> {
    let mut report = Report::default();
    let mut cwd = cwd.to_path_buf();
    let mut last_ok = true;
    for (i, step) in steps.iter().enumerate() {
        let run = i == 0
            || match steps[i - 1].next {
                Some(Op::And) => last_ok,
                Some(Op::Or) => !last_ok,
                _ => true,
            };
        if !run {
            if is_cd(step) {
                on(Event::Note(
                    "a `cd` was skipped, so the rest of the chain is not run",
                ));
                report.exit_code = 1;
                return Ok(report);
            }
            continue;
        }
        if i > 0 {
            if let Some(why) = recheck(i, step) {
                on(Event::Note(&why));
                report.exit_code = i32::from(crate::exit::BLOCKED);
                return Ok(report);
            }
        }
        let code = match run_pipeline(&step.pipeline, &mut cwd, io, &mut report, on, wrap) {
            Ok(code) => code,
            Err(e @ AskError::Cd { .. }) => {
                let line = format!("{e}; the rest of the chain is not run");
                on(Event::Note(&line));
                report.exit_code = 1;
                return Ok(report);
            }
            Err(e) => return Err(e),
        };
        report.exit_code = code;
        last_ok = code == 0;
    }
    Ok(report)
}

/// Parses `git diff --name-status -z --no-renames` into (status letter,
/// path) pairs.
fn parse_name_status(raw: &str) -> Vec<(char, String)> {
    let mut fields = raw.split('\0');
    let mut out = Vec::new();
    while let (Some(kind), Some(path)) = (fields.next(), fields.next()) {
        if let Some(letter) = kind.chars().next() {
            out.push((letter, path.to_string()));
        }
    }
    out
}

/// Returns the first few paths in backticks, then how many more there are.
fn quote(paths: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = paths.iter().take(SHOWN).map(|p| format!("`{p}`")).collect();
    if paths.len() > SHOWN {
        parts.push(format!("and {} more", paths.len() - SHOWN));
    }
    parts.join(", ")
}

/// Runs one git step of a sequence (program first) in `dir`. Our own
/// pathspecs (`:(top)…`) are read as written whatever the environment
/// says; paths the user typed are read as git would read them typed.
fn git_step(
    argv: &[String],
    dir: &Path,
    io: Io,
    report: &mut Report,
    on: &mut dyn FnMut(Event),
) -> Result<i32, AskError> {
    let mut git = GitCommand::new(argv.iter().skip(1)).dir(dir);
    if argv.iter().any(|a| a.starts_with(":(")) {
        git = git.pathspecs_as_written();
    }
    run_step(git, io, report, on)
}

/// Runs one git step of a sequence, with level 1's protections, and
/// returns its exit code.
fn run_step(
    git: GitCommand,
    io: Io,
    report: &mut Report,
    on: &mut dyn FnMut(Event),
) -> Result<i32, AskError> {
    let git = git.protected();
    let argv: Vec<String> = std::iter::once("git".to_string())
        .chain(git.args())
        .collect();
    on(Event::Spawn(&argv, &[]));
    match io {
        Io::Inherit => Ok(git.status()?.code().unwrap_or(1)),
        Io::Capture => {
            let out = git.output()?;
            report.stdout.extend_from_slice(&out.stdout);
            report.stderr.extend_from_slice(&out.stderr);
            Ok(out.status.code().unwrap_or(1))
        }
    }
}

/// Returns the commit message generated from the staged paths:
/// `Update pom.xml`, `Update 3 files: a.rs, b.rs, c.rs`.
pub fn generated_message(paths: &[String]) -> String {
    const LISTED: usize = 5;
    match paths {
        [] => "Update".to_string(),
        [one] => format!("Update {one}"),
        many => {
            let shown: Vec<&str> = many.iter().take(LISTED).map(String::as_str).collect();
            let more = many.len().saturating_sub(LISTED);
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!("Update {} files: {}{tail}", many.len(), shown.join(", "))
        }
    }
}

/// Runs a composite sequence in `cwd`; `on` receives what is spawned and
/// notes for the user. Every argv is the one the policy judged.
pub fn run_composite(
    plan: &CompositePlan,
    cwd: &Path,
    io: Io,
    on: &mut dyn FnMut(Event),
) -> Result<Report, AskError> {
    let mut report = Report::default();
    let mut steps = plan.steps.iter();
    let mut repo = Repo::discover(cwd)?;
    if let Run::Commit { init: true } = plan.run {
        let init = steps.next();
        match (&repo, init) {
            (Some(r), _) => on(Event::Note(&format!(
                "already a git repository at `{}`; skipping `git init`",
                r.workdir().unwrap_or(r.git_dir()).display()
            ))),
            (None, Some(init)) => {
                let code = git_step(init, cwd, io, &mut report, on)?;
                if code != 0 {
                    report.exit_code = code;
                    return Ok(report);
                }
                let ignore = cwd.join(".gitignore");
                if !ignore.exists() {
                    std::fs::write(&ignore, ".fararoni/\n").map_err(|source| AskError::Write {
                        path: ignore.clone(),
                        source,
                    })?;
                    on(Event::Note("created .gitignore with `.fararoni/`"));
                }
                repo = Repo::discover(cwd)?;
            }
            (None, None) => {}
        }
    }
    let repo = repo.ok_or_else(|| AskError::NotARepo {
        path: cwd.to_path_buf(),
    })?;
    check(plan, &repo, cwd)?;
    if let Run::Commit { .. } = plan.run {
        if repo.workdir().is_none() {
            return Err(AskError::Bare {
                path: repo.git_dir().to_path_buf(),
            });
        }
        let (Some(stage), Some(commit)) = (steps.next(), steps.next()) else {
            return Ok(report);
        };
        let code = git_step(stage, cwd, io, &mut report, on)?;
        if code != 0 {
            report.exit_code = code;
            return Ok(report);
        }
        // What the commit will take: the index, or the paths after `--`.
        let scope: Vec<&String> = commit.iter().skip_while(|a| *a != "--").collect();
        let staged = GitCommand::new(["diff", "--cached", "--no-renames", "--name-status", "-z"])
            .extend_args(scope.iter().map(|s| s.as_str()))
            .dir(cwd)
            .pathspecs_as_written()
            .read()?;
        let changes = parse_name_status(&staged);
        let paths: Vec<String> = changes.iter().map(|(_, p)| p.clone()).collect();
        // Taking the store out of git (a staged deletion) is welcome.
        let store: Vec<String> = changes
            .into_iter()
            .filter(|(kind, p)| *kind != 'D' && pathspec::in_store(p))
            .map(|(_, p)| p)
            .collect();
        if !store.is_empty() {
            return Err(AskError::StoreStaged { paths: store });
        }
        if paths.is_empty() {
            on(Event::Note(
                "nothing to commit: the working tree matches the last commit",
            ));
            return Ok(report);
        }
        let commit: Vec<String> = match &plan.message {
            Some(_) => commit.clone(),
            None => {
                let message = generated_message(&paths);
                commit
                    .iter()
                    .map(|a| a.replace(GENERATED_MESSAGE, &message))
                    .collect()
            }
        };
        let code = git_step(&commit, cwd, io, &mut report, on)?;
        report.exit_code = code;
        if code != 0 {
            return Ok(report);
        }
    }
    for argv in steps {
        let code = git_step(argv, cwd, io, &mut report, on)?;
        report.exit_code = code;
        if code != 0 {
            break;
        }
    }
    Ok(report)
}

/// Checks what must hold before a sequence runs.
fn check(plan: &CompositePlan, repo: &Repo, cwd: &Path) -> Result<(), AskError> {
    match plan.check {
        Check::None => Ok(()),
        Check::Undoable => check_undoable(repo),
        Check::Unpublished => {
            if let Head::Unborn { name } = repo.head()? {
                return Err(AskError::NothingToUndo(format!(
                    "the branch `{name}` has no commit yet; there is no message to change"
                )));
            }
            let listed = GitCommand::new([
                "for-each-ref",
                "--contains=HEAD",
                "--format=%(refname:short)",
                "refs/remotes/",
            ])
            .dir(cwd)
            .protected()
            .read()?;
            let branches: Vec<String> = listed
                .lines()
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect();
            if branches.is_empty() {
                Ok(())
            } else {
                Err(AskError::Published { branches })
            }
        }
        Check::LocalBranch => {
            let name = plan.name.clone().unwrap_or_default();
            let found = repo
                .gix()
                .try_find_reference(format!("refs/heads/{name}").as_str())
                .ok()
                .flatten()
                .is_some();
            if found {
                Ok(())
            } else {
                Err(AskError::NoSuchBranch { name })
            }
        }
    }
}

fn check_undoable(repo: &Repo) -> Result<(), AskError> {
    match repo.head()? {
        Head::Unborn { name } => Err(AskError::NothingToUndo(format!(
            "the branch `{name}` has no commit yet; there is nothing to undo"
        ))),
        Head::Branch { id, .. } | Head::Detached { id } => {
            let parents = gix::ObjectId::from_hex(id.as_bytes())
                .ok()
                .and_then(|oid| repo.gix().find_commit(oid).ok())
                .map(|c| c.parent_ids().count());
            if parents == Some(0) {
                Err(AskError::NothingToUndo(
                    "the last commit is the repository's first commit; a soft reset has no earlier commit to go back to".into(),
                ))
            } else {
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_messages_from_staged_paths() {
        assert_eq!(generated_message(&["pom.xml".into()]), "Update pom.xml");
        let three: Vec<String> = ["a.rs", "b.rs", "c.rs"].map(String::from).to_vec();
        assert_eq!(
            generated_message(&three),
            "Update 3 files: a.rs, b.rs, c.rs"
        );
        let seven: Vec<String> = (1..=7).map(|i| format!("f{i}")).collect();
        assert_eq!(
            generated_message(&seven),
            "Update 7 files: f1, f2, f3, f4, f5 and 2 more"
        );
    }

    #[test]
    fn reads_name_status_pairs() {
        let raw = "M\0a b.txt\0D\0.fararoni/journal.jsonl\0A\0ñ\nline\0";
        assert_eq!(
            parse_name_status(raw),
            [
                ('M', "a b.txt".to_string()),
                ('D', ".fararoni/journal.jsonl".to_string()),
                ('A', "ñ\nline".to_string()),
            ]
        );
        assert!(parse_name_status("").is_empty());
    }
}
