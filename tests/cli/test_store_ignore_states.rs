//! The shadow store `.fararoni/` in each of the states a user's repository
//! can leave it in — excluded through `info/exclude` (what the store itself
//! writes), ignored by a committed `.gitignore`, or not ignored at all —
//! against each kind of uncommitted work: every verb of ours that stages
//! the user's work keeps the store out of every commit and stash, and
//! leaves the work where it was.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::{run_with_stdin, Out, TestRepo};
use crate::test_saga::{head_branch, saga, saga_ok, worktree_files};

/// How git sees `.fararoni/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StoreState {
    /// `/.fararoni/` in `.git/info/exclude`, as the shadow store writes it.
    InfoExclude,
    /// `.fararoni/` in a committed `.gitignore`, and nowhere else.
    GitIgnore,
    /// Nothing ignores it: it shows up as untracked.
    NotIgnored,
}

/// The uncommitted work in the repository when the saga starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    Clean,
    ModifiedTracked,
    Untracked,
    Staged,
}

/// How the saga ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// `saga finish --include-dirty`: the work lands in the squash.
    FinishIncludingDirty,
    /// `saga finish` around the stash its refusal suggests: the work stays
    /// uncommitted.
    FinishAroundStash,
    /// `saga abort`: back to the start, work included.
    Abort,
}

const IGNORES: [StoreState; 3] = [
    StoreState::InfoExclude,
    StoreState::GitIgnore,
    StoreState::NotIgnored,
];
const WORKS: [Work; 4] = [
    Work::Clean,
    Work::ModifiedTracked,
    Work::Untracked,
    Work::Staged,
];

/// Returns `n` numbered lines starting with `prefix`.
fn lines(n: usize, prefix: &str) -> String {
    (0..n).map(|i| format!("{prefix} {i}\n")).collect()
}

/// Creates a repository whose shadow store holds a backup (made by a real
/// guarded write), with nothing uncommitted, and `.fararoni/` as `ignore`
/// says.
fn repo_with_store(ignore: StoreState) -> TestRepo {
    let r = TestRepo::with_commit();
    if ignore == StoreState::GitIgnore {
        r.write(".gitignore", ".fararoni/\n");
    }
    r.write("notes.md", &lines(20, "note"));
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "notes"]);
    let out = run_with_stdin(
        r.cmd("git-fararoni").args(["guard", "write", "notes.md"]),
        lines(21, "note").as_bytes(),
    );
    assert_eq!(out.code, 0, "guard write failed:\n{out}");
    r.git(&["commit", "-q", "-am", "guarded edit"]);
    let exclude = r.path().join(".git/info/exclude");
    if ignore != StoreState::InfoExclude {
        let text = std::fs::read_to_string(&exclude).expect("info/exclude");
        let kept: String = text
            .lines()
            .filter(|l| !l.contains(".fararoni"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&exclude, kept).expect("rewrite info/exclude");
    }
    // The state is the one named, and the store has content.
    assert!(r.path().join(".fararoni/journal.jsonl").is_file());
    let ignored = r.git_out(&["check-ignore", "-q", ".fararoni/"]).code;
    assert_eq!(
        ignored,
        i32::from(ignore == StoreState::NotIgnored),
        "{ignore:?}"
    );
    let status = r.git(&["status", "--porcelain"]);
    let expected = if ignore == StoreState::NotIgnored {
        "?? .fararoni/\n"
    } else {
        ""
    };
    assert_eq!(status, expected, "{ignore:?}");
    r
}

/// Leaves `work` uncommitted, with names git has to quote.
fn make_work(r: &TestRepo, work: Work) {
    match work {
        Work::Clean => {}
        Work::ModifiedTracked => r.write("README.md", "# demo\nmine, not staged\n"),
        Work::Untracked => {
            r.write("new dir/untracked ñ.txt", "mine\n");
            // Look-alikes of the store that are the user's own files.
            r.write("sub/.fararoni/mine.txt", "mine too\n");
            r.write(".fararoni.txt", "mine as well\n");
        }
        Work::Staged => {
            r.write("staged ñ.txt", "staged\n");
            r.write("README.md", "# demo\nstaged edit\n");
            r.git(&["add", "--", "staged ñ.txt", "README.md"]);
        }
    }
}

/// What a user looks at to know their work is where it was.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    files: BTreeMap<PathBuf, Vec<u8>>,
    status: String,
}

fn seen(r: &TestRepo) -> Seen {
    Seen {
        files: worktree_files(r.path()),
        status: r.git(&["status", "--porcelain=v2", "--untracked-files=all"]),
    }
}

/// Returns the paths of the files in `rev`'s tree, unquoted.
fn tree_paths(r: &TestRepo, rev: &str) -> Vec<String> {
    r.git(&["ls-tree", "-r", "-z", "--name-only", rev])
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

/// Returns every commit reachable from any ref or reflog (stash entries
/// included), with the first one holding anything named `.fararoni` at
/// its top, if any.
fn store_in_history(r: &TestRepo) -> (usize, Option<String>) {
    let mut revs = vec!["rev-list", "--all", "--reflog"];
    let stashes = r.git(&["stash", "list", "--format=%H"]);
    revs.extend(stashes.lines());
    let commits = r.git(&revs);
    let query: String = commits
        .lines()
        .map(|c| format!("{c}:.fararoni\n"))
        .collect();
    let mut cmd = std::process::Command::new("git");
    r.env(&mut cmd);
    cmd.args(["cat-file", "--batch-check"]);
    let out = run_with_stdin(&mut cmd, query.as_bytes());
    assert_eq!(out.code, 0, "{out}");
    let found = out
        .stdout
        .lines()
        .find(|l| !l.ends_with(" missing"))
        .map(String::from);
    (commits.lines().count(), found)
}

/// Fails unless no commit or stash entry holds the store.
fn assert_store_never_committed(r: &TestRepo, case: &str) {
    let (commits, found) = store_in_history(r);
    assert!(commits >= 3, "{case}: only {commits} commits seen");
    assert_eq!(found, None, "{case}: the store is in a commit");
}

/// Runs one combination end to end.
fn run_case(ignore: StoreState, work: Work, end: End) {
    let case = format!("{ignore:?} × {work:?} × {end:?}");
    let r = repo_with_store(ignore);
    make_work(&r, work);
    let before = seen(&r);

    let out = saga(&r, &["start"]);
    assert_eq!(out.code, 0, "{case}: saga start failed:\n{out}");
    assert!(head_branch(&r).starts_with("fararoni/wip-"), "{case}");
    assert_eq!(seen(&r), before, "{case}: saga start moved the work");

    // The agent's commit: its own file only, the user's work left as is.
    r.write("agent ñ.txt", "agent\n");
    r.git(&["add", "--", "agent ñ.txt"]);
    r.git(&["commit", "-q", "-m", "agent work", "--", "agent ñ.txt"]);
    let mut with_agent = before.files.clone();
    with_agent.insert(PathBuf::from("agent ñ.txt"), b"agent\n".to_vec());

    match end {
        End::FinishIncludingDirty => {
            let out = saga(&r, &["finish", "--include-dirty", "-m", "done"]);
            assert_eq!(out.code, 0, "{case}: saga finish failed:\n{out}");
            assert_eq!(head_branch(&r), "main", "{case}");
            assert_eq!(worktree_files(r.path()), with_agent, "{case}");
            // Everything git counts as the user's work is in the squash.
            let left = r.git(&["status", "--porcelain", "--untracked-files=all"]);
            assert!(
                left.lines().all(|l| l.starts_with("?? .fararoni/")),
                "{case}: left uncommitted:\n{left}"
            );
            assert!(r.log()[0].starts_with("[FARARONI] done"), "{case}");
        }
        End::FinishAroundStash => {
            if work != Work::Clean {
                let refused = saga(&r, &["finish"]);
                assert_eq!(refused.code, 3, "{case}:\n{refused}");
                let stash = stash_command(&refused);
                let out = sh(&r, &stash);
                assert_eq!(out.code, 0, "{case}: `{stash}` failed:\n{out}");
                assert_store_never_committed(&r, &case);
                assert!(r.path().join(".fararoni/journal.jsonl").is_file());
            }
            let out = saga(&r, &["finish"]);
            assert_eq!(out.code, 0, "{case}: saga finish failed:\n{out}");
            if work != Work::Clean {
                r.git(&["stash", "pop", "--index", "-q"]);
            }
            assert_eq!(head_branch(&r), "main", "{case}");
            assert_eq!(worktree_files(r.path()), with_agent, "{case}");
            assert_eq!(
                r.git(&["status", "--porcelain=v2", "--untracked-files=all"]),
                before.status,
                "{case}: the work is not as it was"
            );
        }
        End::Abort => {
            let out = saga(&r, &["abort"]);
            assert_eq!(out.code, 0, "{case}: saga abort failed:\n{out}");
            assert_eq!(head_branch(&r), "main", "{case}");
            assert_eq!(seen(&r), before, "{case}: the work is not as it was");
        }
    }
    assert_store_never_committed(&r, &case);
}

/// Returns the stash command a refused finish suggests.
fn stash_command(refused: &Out) -> String {
    let start = refused
        .stderr
        .find("`git stash push")
        .unwrap_or_else(|| panic!("no stash hint:\n{refused}"));
    let rest = &refused.stderr[start + 1..];
    let end = rest.find('`').expect("the hint's command ends");
    rest[..end].to_string()
}

/// Runs `script` with `sh -c` in the repository.
fn sh(r: &TestRepo, script: &str) -> Out {
    let mut cmd = std::process::Command::new("sh");
    r.env(&mut cmd);
    cmd.args(["-c", script]).output().expect("sh runs").into()
}

fn run_all(end: End) {
    for ignore in IGNORES {
        for work in WORKS {
            run_case(ignore, work, end);
        }
    }
}

#[test]
fn test_saga_finish_including_dirty_keeps_the_store_out_in_every_state() {
    run_all(End::FinishIncludingDirty);
}

#[test]
fn test_saga_finish_around_the_suggested_stash_keeps_the_store_out_in_every_state() {
    run_all(End::FinishAroundStash);
}

#[test]
fn test_saga_abort_keeps_the_store_out_in_every_state() {
    run_all(End::Abort);
}

#[test]
fn test_saga_ignores_pathspec_variables_in_the_environment() {
    // Each variable changes how git reads every pathspec; ours must mean
    // what they say anyway (a literal reading would not find `:(top)`, a
    // case-blind one would leave out `.FARARONI/`, which is the user's).
    for var in [
        "GIT_LITERAL_PATHSPECS",
        "GIT_GLOB_PATHSPECS",
        "GIT_NOGLOB_PATHSPECS",
        "GIT_ICASE_PATHSPECS",
    ] {
        let r = repo_with_store(StoreState::NotIgnored);
        r.write(".FARARONI/mine.txt", "mine\n");
        let run = |args: &[&str]| -> Out {
            r.cmd("git-fararoni")
                .env(var, "1")
                .args(args)
                .output()
                .expect("runs")
                .into()
        };
        let out = run(&["saga", "start"]);
        assert_eq!(out.code, 0, "{var}: {out}");
        let out = run(&["saga", "finish", "--yes", "--include-dirty", "-m", "mine"]);
        assert_eq!(out.code, 0, "{var}: {out}");
        assert_eq!(
            r.git(&["show", "HEAD:.FARARONI/mine.txt"]),
            "mine\n",
            "{var}"
        );
        assert_store_never_committed(&r, var);
    }
}

#[test]
fn test_saga_finish_refuses_a_squash_that_would_carry_the_store() {
    // Nothing ignores the store, and the agent commits everything.
    let r = repo_with_store(StoreState::NotIgnored);
    saga_ok(&r, &["start"]);
    let wip = head_branch(&r);
    r.write("agent.txt", "agent\n");
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "agent commits everything"]);
    assert!(
        tree_paths(&r, "HEAD").contains(&".fararoni/journal.jsonl".to_string()),
        "the setup must commit the store on the saga branch"
    );
    let main_before = r.git(&["rev-parse", "main"]);
    let files = worktree_files(r.path());
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("`.fararoni/journal.jsonl`"), "{out}");
    // Nothing changed.
    assert_eq!(r.git(&["rev-parse", "main"]), main_before);
    assert_eq!(head_branch(&r), wip);
    assert_eq!(worktree_files(r.path()), files);
    // The hint works; the squash then carries the agent's file only.
    follow_store_hint(&r, &out);
    saga_ok(&r, &["finish"]);
    let tree = tree_paths(&r, "main");
    assert!(tree.contains(&"agent.txt".to_string()), "{tree:?}");
    assert!(
        !tree.iter().any(|p| p.starts_with(".fararoni/")),
        "{tree:?}"
    );
    assert_eq!(
        worktree_files(r.path()),
        files,
        "the store is still on disk"
    );
}

#[test]
fn test_ask_commit_keeps_the_store_out_in_every_state() {
    for ignore in IGNORES {
        let r = repo_with_store(ignore);
        for work in WORKS {
            make_work(&r, work);
        }
        let files = worktree_files(r.path());
        let out = r.ask("do the commit");
        assert_eq!(out.code, 0, "{ignore:?}: {out}");
        let tree = tree_paths(&r, "HEAD");
        for path in ["staged ñ.txt", "new dir/untracked ñ.txt", ".fararoni.txt"] {
            assert!(
                tree.iter().any(|p| p == path),
                "{ignore:?}: {path} missing from {tree:?}"
            );
        }
        assert_eq!(worktree_files(r.path()), files, "{ignore:?}");
        let left = r.git(&["status", "--porcelain", "--untracked-files=all"]);
        assert!(
            left.lines().all(|l| l.starts_with("?? .fararoni/")),
            "{ignore:?}: left uncommitted:\n{left}"
        );
        assert_store_never_committed(&r, &format!("{ignore:?}"));
    }
}

#[test]
fn test_ask_commit_refuses_a_store_file_the_user_staged() {
    let r = repo_with_store(StoreState::InfoExclude);
    r.write("mine.txt", "mine\n");
    r.git(&["add", "-f", "--", ".fararoni/journal.jsonl"]);
    let head = r.git(&["rev-parse", "HEAD"]);
    let out = r.ask("do the commit");
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("`.fararoni/journal.jsonl`"), "{out}");
    assert!(
        out.stderr.contains("git restore --staged -- .fararoni"),
        "{out}"
    );
    assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "nothing was committed");
    r.git(&["restore", "--staged", "--", ".fararoni"]);
    assert_eq!(r.ask("do the commit").code, 0);
    assert_store_never_committed(&r, "after unstaging");
}

/// Creates a repository where the user committed the store themselves
/// (nothing ignored it), then let the shadow store write again.
fn repo_with_tracked_store() -> TestRepo {
    let r = repo_with_store(StoreState::NotIgnored);
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "the user commits everything"]);
    assert!(tree_paths(&r, "HEAD").contains(&".fararoni/journal.jsonl".to_string()));
    r
}

#[test]
fn test_ask_commit_lets_the_user_untrack_the_store() {
    // Taking the store out of git is the one store change a commit of ours
    // may carry.
    let r = repo_with_tracked_store();
    r.git(&["rm", "-r", "-q", "--cached", "--", ".fararoni"]);
    let files = worktree_files(r.path());
    let out = r.ask("do the commit");
    assert_eq!(out.code, 0, "{out}");
    let tree = tree_paths(&r, "HEAD");
    assert!(
        !tree.iter().any(|p| p.starts_with(".fararoni/")),
        "{tree:?}"
    );
    assert_eq!(
        worktree_files(r.path()),
        files,
        "the store is still on disk"
    );
}

/// Runs the `git restore` a `StoreInSquash` refusal suggests, and commits.
fn follow_store_hint(r: &TestRepo, refused: &Out) {
    let start = refused
        .stderr
        .find("`git restore --staged --source=")
        .unwrap_or_else(|| panic!("no restore hint:\n{refused}"));
    let rest = &refused.stderr[start + 1..];
    let command = &rest[..rest.find('`').expect("the hint's command ends")];
    let out = sh(r, command);
    assert_eq!(out.code, 0, "`{command}` failed:\n{out}");
    r.git(&["commit", "-q", "-m", "take the store out of the saga"]);
}

#[test]
fn test_saga_finish_refuses_store_changes_where_the_original_branch_tracks_it() {
    // The user committed the store; the agent's `git add --all` then takes
    // the store's newer journal. The squash must not carry it.
    let r = repo_with_tracked_store();
    let tracked = r.git(&["rev-parse", "main:.fararoni/journal.jsonl"]);
    saga_ok(&r, &["start"]);
    let out = run_with_stdin(
        r.cmd("git-fararoni").args(["guard", "write", "notes.md"]),
        lines(22, "note").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    r.git(&["add", "--all"]);
    r.git(&["commit", "-q", "-m", "agent commits everything"]);
    let out = saga(&r, &["finish"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(out.stderr.contains("`.fararoni/journal.jsonl`"), "{out}");
    follow_store_hint(&r, &out);
    let journal = std::fs::read(r.path().join(".fararoni/journal.jsonl")).expect("journal");
    saga_ok(&r, &["finish"]);
    assert_eq!(
        r.git(&["rev-parse", "main:.fararoni/journal.jsonl"]),
        tracked
    );
    assert_eq!(
        r.git(&["show", "main:notes.md"]),
        lines(22, "note"),
        "the agent's work landed"
    );
    assert_eq!(
        std::fs::read(r.path().join(".fararoni/journal.jsonl")).expect("journal"),
        journal,
        "the store on disk is untouched"
    );
}
