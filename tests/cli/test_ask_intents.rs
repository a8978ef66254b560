//! The level 1.5 intents end to end: real git in temporary repositories,
//! effects checked on disk — what is committed, staged, renamed, deleted,
//! and what is left exactly as it was when a request is refused.

use git_fararoni::router::{route, NoFacts, Verdict};

use crate::common::{Out, TestRepo};

fn assert_code(out: &Out, code: i32) {
    assert_eq!(out.code, code, "unexpected exit code:\n{out}");
    assert!(!out.stderr.contains("panicked"), "panic:\n{out}");
}

/// The paths the last commit changed.
fn last_commit_paths(repo: &TestRepo) -> Vec<String> {
    repo.git(&["show", "--name-only", "--format=", "HEAD"])
        .lines()
        .map(String::from)
        .collect()
}

fn staged(repo: &TestRepo) -> String {
    repo.git(&["diff", "--cached", "--name-only"])
}

#[test]
fn test_ask_intents_commit_only_the_given_paths() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.write("c.txt", "c\n");
    // Staged before: it must stay staged and out of the commit.
    repo.git(&["add", "c.txt"]);
    let out = repo.ask("commit only a.txt");
    assert_code(&out, 0);
    assert_eq!(last_commit_paths(&repo), ["a.txt"]);
    assert_eq!(repo.log()[0], "Update a.txt");
    assert_eq!(staged(&repo).trim(), "c.txt");
    assert!(repo.git(&["status", "--porcelain"]).contains("?? b.txt"));
    // "the README" is the one README file there is, with a message.
    repo.write("README.md", "# changed\n");
    let out = repo.ask("haz commit solo del README con el mensaje \"docs: readme\"");
    assert_code(&out, 0);
    assert_eq!(last_commit_paths(&repo), ["README.md"]);
    assert_eq!(repo.log()[0], "docs: readme");
}

#[test]
fn test_ask_intents_commit_paths_from_a_subdirectory_are_relative_to_it() {
    let repo = TestRepo::with_commit();
    repo.write("sub/x.txt", "x\n");
    repo.write("x.txt", "top\n");
    let out = repo.run_in(&repo.path().join("sub"), &["ask", "commit only x.txt"]);
    assert_code(&out, 0);
    assert_eq!(last_commit_paths(&repo), ["sub/x.txt"]);
}

#[test]
fn test_ask_intents_commit_everything_except_keeps_the_path_out() {
    let repo = TestRepo::with_commit();
    repo.write("app.rs", "fn main() {}\n");
    repo.write(".env", "SECRET=1\n");
    repo.write(".fararoni/journal.jsonl", "{}\n");
    // Even an .env someone staged earlier stays out of the commit.
    repo.git(&["add", ".env"]);
    let out = repo.ask("commit everything except the .env file");
    assert_code(&out, 0);
    let paths = last_commit_paths(&repo);
    assert_eq!(paths, ["app.rs"], "{out}");
    assert!(!repo.git(&["ls-files"]).contains(".fararoni"));
    assert_eq!(staged(&repo).trim(), ".env");
    assert_eq!(repo.read(".env"), "SECRET=1\n");
}

#[test]
fn test_ask_intents_stage_and_unstage_touch_only_the_index() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    assert_code(&repo.ask("stage a.txt"), 0);
    assert_eq!(staged(&repo).trim(), "a.txt");
    assert_code(&repo.ask("agrega todo al stage porfa"), 0);
    assert_eq!(staged(&repo).lines().count(), 2);
    assert_code(&repo.ask("unstage a.txt"), 0);
    assert_eq!(staged(&repo).trim(), "b.txt");
    assert_eq!(repo.read("a.txt"), "a\n");
    assert_code(&repo.ask("quita todo del stage"), 0);
    assert!(staged(&repo).is_empty());
    assert_eq!(repo.read("b.txt"), "b\n");
}

#[test]
fn test_ask_intents_amend_changes_only_the_message_of_an_unpublished_commit() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    repo.git(&["add", "a.txt"]);
    repo.git(&["commit", "-q", "-m", "wip"]);
    let parent = repo.git(&["rev-parse", "HEAD~1"]);
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    // Staged work is not folded into the amended commit.
    repo.write("b.txt", "b\n");
    repo.git(&["add", "b.txt"]);
    let out = repo.ask("amend the last commit message to say 'add a.txt'");
    assert_code(&out, 0);
    assert_eq!(repo.log()[0], "add a.txt");
    assert_eq!(repo.git(&["rev-parse", "HEAD~1"]), parent);
    assert_eq!(repo.git(&["rev-parse", "HEAD^{tree}"]), tree);
    assert_eq!(staged(&repo).trim(), "b.txt");
    let out = repo.ask("cambia el mensaje del último commit a «añade a.txt»");
    assert_code(&out, 0);
    assert_eq!(repo.log()[0], "añade a.txt");
}

#[test]
fn test_ask_intents_amend_of_a_published_commit_is_refused() {
    let repo = TestRepo::with_commit();
    let head = repo.git(&["rev-parse", "HEAD"]);
    // A remote-tracking branch that has the commit, as after a push.
    repo.git(&["update-ref", "refs/remotes/origin/main", head.trim()]);
    let before = repo.snapshot();
    let out = repo.ask("change the last commit message to \"rewritten\"");
    assert_code(&out, 3);
    assert!(out.stderr.contains("origin/main"), "{out}");
    assert_eq!(repo.snapshot(), before);
    assert_eq!(repo.log()[0], "initial");
}

#[test]
fn test_ask_intents_read_only_views_show_what_git_shows() {
    let repo = TestRepo::with_commit();
    repo.write("README.md", "# demo\nmore\n");
    let out = repo.ask("show me the diff");
    assert_code(&out, 0);
    assert!(out.stdout.contains("+more"), "{out}");
    repo.git(&["add", "README.md"]);
    let out = repo.ask("¿qué tengo en el stage?");
    assert_code(&out, 0);
    assert!(out.stdout.contains("+more"), "{out}");
    let out = repo.ask("history of README.md");
    assert_code(&out, 0);
    assert!(out.stdout.contains("initial"), "{out}");
    let out = repo.ask("blame README.md");
    assert_code(&out, 0);
    assert!(out.stdout.contains("# demo"), "{out}");
    let out = repo.ask("¿en qué rama estoy?");
    assert_code(&out, 0);
    assert!(out.stdout.contains("main"), "{out}");
}

#[test]
fn test_ask_intents_branch_rename_and_delete() {
    let repo = TestRepo::with_commit();
    assert_code(&repo.ask("rename the current branch to trunk"), 0);
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "trunk");
    repo.git(&["branch", "merged"]);
    repo.git(&["switch", "-q", "-c", "unmerged"]);
    repo.write("u.txt", "u\n");
    repo.git(&["add", "u.txt"]);
    repo.git(&["commit", "-q", "-m", "unmerged work"]);
    repo.git(&["switch", "-q", "trunk"]);
    let branches = |repo: &TestRepo| -> Vec<String> {
        repo.git(&["branch", "--format=%(refname:short)"])
            .lines()
            .map(String::from)
            .collect()
    };
    assert_code(&repo.ask("borra la rama merged"), 0);
    assert_eq!(branches(&repo), ["trunk", "unmerged"]);
    // git refuses an unmerged branch; it stays.
    let out = repo.ask("delete the branch unmerged");
    assert_ne!(out.code, 0, "{out}");
    assert_eq!(branches(&repo), ["trunk", "unmerged"]);
    // Forcing is refused before anything runs.
    let before = repo.snapshot();
    let out = repo.ask("force delete the branch unmerged");
    assert_code(&out, 3);
    assert_eq!(repo.snapshot(), before);
}

#[test]
fn test_ask_intents_tags_and_stashes() {
    let repo = TestRepo::with_commit();
    assert_code(&repo.ask("tag this as v1.0"), 0);
    assert_eq!(repo.git(&["tag"]).trim(), "v1.0");
    let out = repo.ask("lista los tags");
    assert_code(&out, 0);
    assert!(out.stdout.contains("v1.0"), "{out}");
    repo.write("README.md", "# stashed\n");
    assert_code(&repo.ask("stash my changes"), 0);
    assert_eq!(repo.read("README.md"), "# demo\n");
    let out = repo.ask("what stashes do I have?");
    assert_code(&out, 0);
    assert!(out.stdout.contains("stash@{0}"), "{out}");
    assert_code(&repo.ask("aplica el último stash"), 0);
    assert_eq!(repo.read("README.md"), "# stashed\n");
    assert_eq!(repo.git(&["stash", "list"]).lines().count(), 1);
    repo.git(&["checkout", "--", "README.md"]);
    assert_code(&repo.ask("pop the stash"), 0);
    assert_eq!(repo.read("README.md"), "# stashed\n");
    assert!(repo.git(&["stash", "list"]).is_empty());
}

/// Whether the policy lets `line` run when typed (tables for `merge` and
/// `remote` arrive separately).
fn policy_runs(line: &str) -> bool {
    route(line, &NoFacts::new()).is_ok_and(|d| d.verdict == Verdict::Run)
}

#[test]
fn test_ask_intents_merge_only_a_local_branch_and_as_the_policy_says() {
    let repo = TestRepo::with_commit();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("f.txt", "f\n");
    repo.git(&["add", "f.txt"]);
    repo.git(&["commit", "-q", "-m", "feature work"]);
    repo.git(&["switch", "-q", "main"]);
    repo.git(&["update-ref", "refs/remotes/origin/other", "HEAD"]);
    let before = repo.snapshot();
    let out = repo.ask("merge feature");
    if policy_runs("git merge --no-edit feature") {
        assert_code(&out, 0);
        assert_eq!(repo.read("f.txt"), "f\n");
        let out = repo.ask("merge origin/other");
        assert_code(&out, 1);
        assert!(out.stderr.contains("no local branch"), "{out}");
    } else {
        // The sequence is refused exactly as `git merge` typed would be.
        assert_code(&out, 3);
        assert_eq!(repo.snapshot(), before);
    }
    let out = repo.ask("list remotes");
    assert_code(
        &out,
        if policy_runs("git remote --verbose") {
            0
        } else {
            3
        },
    );
}

#[test]
fn test_ask_intents_refused_intents_change_nothing() {
    let repo = TestRepo::with_commit();
    repo.write("README.md", "# edited\n");
    repo.write("new.txt", "new\n");
    let before = repo.snapshot();
    for request in [
        "bota mis cambios",
        "ship my branch to origin",
        "haz commit y súbelo",
        "force push",
        "deshaz el último commit y borra los cambios",
        "discard the changes to README.md",
        "run `git push`",
        "ejecuta 'git reset --hard'",
        "can you run `git clean -fd`?",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 3);
        assert_eq!(repo.snapshot(), before, "{request} changed something");
    }
}

#[test]
fn test_ask_intents_requests_for_the_model_change_nothing() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "a\n");
    std::fs::write(repo.path().join("../outside.txt"), "o\n").ok();
    let before = repo.snapshot();
    for request in [
        "commit only if the tests pass",
        "commit only ../outside.txt",
        "commit only /etc/passwd",
        "commit only .fararoni/journal.jsonl",
        "commit only --output=x.txt",
        "stage ':(top)'",
        "create a branch called --force",
        "haz commit -m 'x' --no-verify",
        "stage a.txt --force",
        "don't commit yet",
        "arregla el bug y haz commit",
        "¿cómo hago commit?",
        "add a README.md",
        "create a branch called \u{2010}D",
        "crea la rama \u{FF0D}f",
        "switch to m\u{0430}in",
        "delete the branch \u{2010}\u{2010}force",
        "commit only a\u{200B}.txt",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 4);
        assert_eq!(repo.snapshot(), before, "{request} changed something");
    }
    // A command line is level 1's, exactly as typed: `do'ne'` is the word
    // `done` to a shell too, and level 1.5 never reinterprets it as
    // "stage everything and commit" (nothing is staged, so git refuses).
    let head = repo.git(&["rev-parse", "HEAD"]);
    let out = repo.ask("git commit -m do'ne'");
    assert_code(&out, 1);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(staged(&repo).trim(), "");
}

#[test]
fn test_ask_intents_messages_are_data() {
    let repo = TestRepo::with_commit();
    let marker = repo.path().join("pwned");
    for (i, (request, message)) in [
        ("haz commit que diga `touch pwned`", "touch pwned"),
        ("commit with message fix (wip)", "fix (wip)"),
        ("commit everything with message -x --amend", "-x --amend"),
        (
            "commit with message '<generated from the staged files>'",
            "<generated from the staged files>",
        ),
        ("haz commit y ponle 'v1 lista'", "v1 lista"),
        ("commit, message should be \"add tests\"", "add tests"),
    ]
    .iter()
    .enumerate()
    {
        repo.write(&format!("m{i}.txt"), "x\n");
        let out = repo.ask(request);
        assert_code(&out, 0);
        assert_eq!(repo.log()[0], *message, "{request}");
    }
    assert!(!marker.exists());
    assert_eq!(repo.log().len(), 7);
    // A message a shell would read differently (a substitution, a
    // variable, a line break) is not committed literally, nor run: the
    // request goes to the model and nothing changes.
    repo.write("later.txt", "x\n");
    let before = repo.snapshot();
    for request in [
        "commit with message '$(touch pwned)'",
        "haz commit que diga $(touch pwned)",
        "commit with message \"fix ${HOME}\"",
        "commit with message $USER was here",
        "commit with message \"first line\nsecond line\"",
        "commit with message \"first line\rsecond\"",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 4);
        assert_eq!(repo.snapshot(), before, "{request:?} changed something");
    }
    assert!(!marker.exists());
}

/// Every way to smuggle something through level 1.5, checked by its
/// effects: refused (3) or left to the model (4), nothing changed — not
/// the files, the index, the refs, nor a file outside the repository.
#[test]
fn test_ask_intents_attacks_change_nothing() {
    let repo = TestRepo::with_commit();
    repo.git(&["branch", "feature"]);
    repo.write("a.txt", "a\n");
    repo.write("src/lib.rs", "// lib\n");
    // Planted files named like options, and our store.
    repo.write("-f", "planted\n");
    repo.write("--output=x.txt", "planted\n");
    repo.write(".fararoni/journal.jsonl", "{}\n");
    std::fs::write(repo.path().join("../outside.txt"), "o\n").ok();
    let outside = repo.path().join("../outside.txt");
    let before = repo.snapshot();
    let refs = repo.git(&["for-each-ref"]);
    for (request, code) in [
        // Lead-ins before destructive commands: judged as typed alone.
        ("ejecuta rm -rf src", 3),
        ("dale: git reset --hard", 3),
        ("por favor git checkout -- .", 3),
        ("can you run `git clean -fdx`?", 3),
        ("lanza 'git status && rm -rf src'", 3),
        ("run this: git branch -D feature", 3),
        ("porfa git stash drop", 3),
        ("hazme un git push --force", 3),
        ("ok, git status; rm -rf src", 3),
        // Prose after a lead-in is for the model.
        ("run the tests and fix what fails", 4),
        ("ejecuta los tests y arregla lo que falle", 4),
        ("please run git status and then clean up the repo", 4),
        // Slots that are options, magic, outside, the store, git's dir.
        ("commit only -f", 4),
        ("commit only --output=x.txt", 4),
        ("stage -- -f", 4),
        ("haz commit solo de .fararoni/journal.jsonl", 4),
        ("stage .FARARONI/journal.jsonl", 4),
        ("stage src/../.fararoni/journal.jsonl", 4),
        ("commit only ../outside.txt", 4),
        ("commit only ../../etc/passwd", 4),
        ("stage .git/config", 4),
        ("unstage :(top)", 4),
        ("show me the diff of --output=owned.txt", 4),
        ("blame --output=owned.txt", 4),
        ("show the history of ~/.ssh/id_rsa", 4),
        // Names that are options or revisions.
        ("create a branch called -D", 4),
        ("crea la rama '-f'", 4),
        ("rename this branch to --force", 4),
        ("delete branch -D feature", 4),
        ("switch to -", 4),
        ("merge --no-ff feature", 4),
        ("create tag -f v1", 4),
        // Extra options after an intent.
        // Typed as `git commit …` without `git`: refused as that line.
        ("commit only 'a.txt' --no-verify", 3),
        ("stage a.txt --force", 4),
        ("commit with message 'x' --amend", 4),
        // Look-alike dashes and letters, invisible characters.
        ("delete the branch \u{2010}D feature", 4),
        ("delete the branch \u{2014}force feature", 4),
        ("create a branch called \u{FF0D}\u{FF0D}force", 4),
        ("stage a\u{200B}.txt", 4),
        ("c\u{043E}mmit everything", 4),
        ("switch to m\u{0430}in", 4),
        // Blocked intents stay blocked however they are said.
        ("delete the branch feature --force", 3),
        ("borra la rama feature aunque no esté mergeada", 3),
    ] {
        let out = repo.ask(request);
        assert_code(&out, code);
        assert_eq!(repo.snapshot(), before, "{request:?} changed something");
        assert_eq!(repo.git(&["for-each-ref"]), refs, "{request:?} moved a ref");
        assert_eq!(
            std::fs::read_to_string(&outside).ok().as_deref(),
            Some("o\n")
        );
        assert!(!repo.path().join("owned.txt").exists(), "{request:?}");
    }
}

#[test]
fn test_ask_intents_lead_ins_run_the_command_as_typed() {
    let repo = TestRepo::with_commit();
    let typed = repo.ask("git log --format=%s");
    for request in [
        "porfa: git log --format=%s",
        "can you run `git log --format=%s`?",
        "ejecuta git log --format=%s",
        "dale, git log --format=%s",
        "git log --format=%s, porfa",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 0);
        assert_eq!(out.stdout, typed.stdout, "{request}");
    }
    // A quoted chain is judged as a chain: one blocked part blocks it.
    let before = repo.snapshot();
    let out = repo.ask("ejecuta 'git status && rm -rf ~'");
    assert_code(&out, 3);
    assert_eq!(repo.snapshot(), before);
}

#[test]
fn test_ask_intents_small_talk_is_never_a_program() {
    let repo = TestRepo::with_commit();
    for request in [
        "nice!",
        "jajaja",
        "grax bro",
        "excelente trabajo",
        "órale",
        ":)",
        "👍👍",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 0);
        assert!(!out.stdout.trim().is_empty(), "{request}: {out}");
    }
}

/// Everything a request could change: the files and the index (the
/// snapshot), every ref (branches, tags, HEAD's branch) and HEAD itself.
fn state(
    repo: &TestRepo,
) -> (
    std::collections::BTreeMap<std::path::PathBuf, Vec<u8>>,
    String,
    String,
) {
    (
        repo.snapshot(),
        repo.git(&["for-each-ref", "--format=%(refname) %(objectname)"]),
        repo.git(&["symbolic-ref", "-q", "HEAD"]),
    )
}

/// The requests that were once run as something not asked — a condition
/// or a task swallowed into an unquoted message, an amend of content read
/// as a message, an adjective read as a branch, prose after a program's
/// name — and their variants: each goes to the model (exit 4) and nothing
/// is committed, switched, deleted, tagged or rewritten. The repository
/// has branches named like the adjectives' neighbours (`dark`, `mode`),
/// so a guess would have something to act on.
#[test]
fn test_ask_intents_guesses_are_never_run() {
    let repo = TestRepo::with_commit();
    repo.write("app.py", "print(1)\n");
    repo.git(&["add", "app.py"]);
    repo.git(&["commit", "-q", "-m", "add app"]);
    for b in ["old-feature", "dark", "mode", "develop"] {
        repo.git(&["branch", b]);
    }
    repo.write("app.py", "print(2)\n");
    repo.write("videos", "not a video\n");
    let before = state(&repo);
    for request in [
        // A condition, a negation, a question or a task in a message.
        "commit with message wip if tests pass",
        "haz commit con el mensaje wip si pasan los tests",
        "commit everything with message done unless ci fails",
        "commit with message wip and run the tests",
        "commit with message fix login when ci is green",
        "commit with message wip, should I push?",
        "commit with message release only after review",
        "haz commit que diga listo pero no lo subas a main todavía",
        "haz commit con mensaje ok cuando compile",
        // An amend of content, not of the message.
        "amend the last commit to include app.py",
        "amend my last commit to add the README",
        "corrige el último commit para incluir app.py",
        // Adjectives and nouns next to a name slot.
        "switch to dark mode",
        "switch to dark mood",
        "switch to mode dark",
        "commit with message wip as long as tests pass",
        "commit with message wip unles tests fail",
        "commit with message wip, run the tests",
        "ls -la lol",
        "find bugs lol",
        "switch to the dark theme",
        "delete the old branch",
        "delete the stale branch",
        "borra la rama vieja",
        "elimina la rama antigua",
        "cámbiate al modo oscuro",
        "create a dark branch",
        "crea la rama oscura",
        "merge the other branch",
        // Ordinals an undo or an amend cannot act on alone.
        "undo the previous commit",
        "undo the last commits",
        "amend the previous commit message to 'x'",
        // Prose that starts with a program's name.
        "cat videos lol",
        "diff algorithms: myers vs patience?",
        "ls colors look weird",
        "grep vs ripgrep?",
    ] {
        let out = repo.ask(request);
        assert_code(&out, 4);
        assert_eq!(state(&repo), before, "{request:?} changed something");
        assert!(
            !out.stdout.contains("not a video"),
            "{request:?} ran: {out}"
        );
    }
}

/// Refusals phrased as requests are refused with the command's reason,
/// and change nothing.
#[test]
fn test_ask_intents_refusals_phrased_as_requests() {
    let repo = TestRepo::with_commit();
    repo.git(&["switch", "-q", "-c", "old-feature"]);
    repo.write("f.txt", "f\n");
    repo.git(&["add", "f.txt"]);
    repo.git(&["commit", "-q", "-m", "unmerged"]);
    repo.git(&["switch", "-q", "main"]);
    repo.write("README.md", "# edited\n");
    let before = state(&repo);
    for (request, reason) in [
        ("force delete old-feature", "-D"),
        ("please force delete old-feature", "-D"),
        ("please reset --hard", "--hard"),
        ("reset --hard HEAD, please", "--hard"),
        ("push --force please", "--force"),
        ("clean -fd", "clean"),
    ] {
        let out = repo.ask(request);
        assert_code(&out, 3);
        assert!(out.stderr.contains(reason), "{request:?}: {out}");
        assert_eq!(state(&repo), before, "{request:?} changed something");
    }
    // The same refusal as the command typed.
    let typed = repo.ask("git reset --hard");
    let asked = repo.ask("please reset --hard");
    assert_eq!(typed.stderr, asked.stderr);
}

/// What the words around a slot mean is what runs: the previous commit is
/// `HEAD~1`, a count goes back that many, a rename names both branches, a
/// start point is where the new branch starts; a plain branch name runs
/// only when the repository has that branch.
#[test]
fn test_ask_intents_qualifiers_run_exactly_what_they_say() {
    let repo = TestRepo::with_commit();
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        repo.write(&format!("{name}.txt"), &format!("{i}\n"));
        repo.git(&["add", "."]);
        repo.git(&["commit", "-q", "-m", name]);
    }
    let rev = |r: &str| repo.git(&["rev-parse", r]).trim().to_string();
    let previous = rev("HEAD~1");
    assert_code(&repo.ask("tag the previous commit as v0.9"), 0);
    assert_eq!(rev("v0.9^{commit}"), previous);
    assert_code(&repo.ask("etiqueta el commit anterior como v0.8"), 0);
    assert_eq!(rev("v0.8^{commit}"), previous);
    let head = rev("HEAD");
    assert_code(&repo.ask("tag this as v1.0"), 0);
    assert_eq!(rev("v1.0^{commit}"), head);

    let two_back = rev("HEAD~2");
    assert_code(&repo.ask("undo the last 2 commits"), 0);
    assert_eq!(rev("HEAD"), two_back);
    assert_eq!(
        staged(&repo).lines().collect::<Vec<_>>(),
        ["b.txt", "c.txt"]
    );
    assert_eq!(repo.read("c.txt"), "2\n");
    repo.git(&["commit", "-q", "-m", "b and c"]);
    let one_back = rev("HEAD~1");
    assert_code(&repo.ask("quita el último commit pero deja los cambios"), 0);
    assert_eq!(rev("HEAD"), one_back);
    assert_eq!(
        staged(&repo).lines().collect::<Vec<_>>(),
        ["b.txt", "c.txt"]
    );
    repo.git(&["commit", "-q", "-m", "b and c again"]);

    repo.git(&["branch", "old-feature"]);
    repo.git(&["branch", "develop", "HEAD~1"]);
    assert_code(&repo.ask("rename branch old-feature to legacy"), 0);
    let branches = repo.git(&["branch", "--format=%(refname:short)"]);
    assert!(branches.lines().any(|b| b == "legacy"), "{branches}");
    assert!(!branches.lines().any(|b| b == "old-feature"), "{branches}");
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "main");

    assert_code(
        &repo.ask("create a branch from develop called feature/x"),
        0,
    );
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "feature/x");
    assert_eq!(rev("HEAD"), rev("develop"));

    // A plain name the repository has runs; one it lacks goes to the model.
    assert_code(&repo.ask("switch to develop"), 0);
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "develop");
    let before = state(&repo);
    let out = repo.ask("switch to staging");
    assert_code(&out, 4);
    assert_eq!(state(&repo), before);
    // A new name must be marked as one.
    let out = repo.ask("crea la rama login");
    assert_code(&out, 4);
    assert_eq!(state(&repo), before);
    assert_code(&repo.ask("crea la rama llamada login"), 0);
    assert_eq!(repo.git(&["branch", "--show-current"]).trim(), "login");
}

/// "initialize the repo and make the first commit" in a directory that
/// is not a repository yet.
#[test]
fn test_ask_intents_init_and_first_commit() {
    let dir = TestRepo::empty_dir();
    dir.write("main.py", "print('hi')\n");
    let out = dir.ask("initialize the repo and make the first commit");
    assert_code(&out, 0);
    assert_eq!(dir.log().len(), 1, "{out}");
    assert!(dir.git(&["ls-files"]).contains("main.py"));
}
