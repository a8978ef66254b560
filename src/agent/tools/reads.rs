//! What a command reads, judged before it runs: every path a read-only
//! program, git or a build would open must stay inside the working tree
//! (the OS sandbox limits writes, not reads), and over a remote endpoint
//! no command may read a secret file, by name or by content, in any way
//! the redaction of its output cannot undo.
//!
//! The argv is the router's: quotes removed, `~` and globs expanded, so
//! `cat .e*` is judged as `cat .env` and `ls ~` as `ls /home/user`.

use std::path::{Component, Path, PathBuf};

use crate::agent::secrets;
use crate::router::{Cmd, CmdKind, Step};

/// Programs that take no file operands: their words are text.
const NOT_READERS: &[&str] = &[
    "echo", "printf", "true", "false", "expr", "seq", "date", "sleep", "basename", "dirname",
    "test", "[", "yes", "whoami", "id", "uname", "pwd", "which", "type", "env", "tr",
];

/// Programs whose first operand is a pattern, not a path (unless `-e` or
/// `-f` gave it).
const PATTERN_FIRST: &[&str] = &["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"];

/// Options whose next word is text, never a path, per program. Every
/// other option value is judged as a path: a number or a word taken for a
/// path stays inside the tree and is harmless, while a path taken for a
/// value would go unjudged.
const TEXT_OPTIONS: &[(&str, &[&str])] = &[
    ("grep", &["-e", "--regexp"]),
    ("egrep", &["-e", "--regexp"]),
    ("fgrep", &["-e", "--regexp"]),
    ("rg", &["-e", "--regexp"]),
    (
        "git",
        &[
            "-m",
            "--message",
            "--author",
            "--format",
            "--pretty",
            "--date",
            "--grep",
            "-b",
            "-B",
            "-S",
            "-G",
        ],
    ),
    ("cut", &["-d", "--delimiter"]),
    ("sort", &["-t", "--field-separator"]),
];

/// Programs whose output holds file contents line by line, as they are:
/// redacting their output removes what a secret file held. Any other
/// program that reads a file holding a credential (`rev`, `od`, `fold`,
/// `base64`, `cut`…) is refused over a remote endpoint.
const VERBATIM: &[&str] = &[
    "cat",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "nl",
    "less",
    "more",
    "sort",
    "uniq",
    "tac",
    "wc",
    "ls",
    "stat",
    "file",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "du",
    "find",
    "tree",
    "git",
    "diff",
    "cmp",
];

/// Recursive searches read every file under a folder; over a remote
/// endpoint they are refused where a secret file lies below.
fn recursive_search(cmd: &Cmd) -> bool {
    let prog = program(cmd);
    let argv = &cmd.argv;
    match prog {
        "rg" | "ag" | "ack" => true,
        "grep" | "egrep" | "fgrep" => argv.iter().skip(1).any(|a| {
            a == "--recursive"
                || a == "--dereference-recursive"
                || a.starts_with("--directories=recurse")
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && (a.contains('r') || a.contains('R')))
        }),
        "git" => {
            git_subcommand(cmd).is_some_and(|(_, s)| s == "grep")
                && argv.iter().any(|a| a == "--untracked" || a == "--no-index")
        }
        _ => false,
    }
}

fn program(cmd: &Cmd) -> &str {
    cmd.argv
        .first()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or("")
}

fn in_table(table: &[(&str, &[&str])], prog: &str, opt: &str) -> bool {
    table
        .iter()
        .filter(|(p, _)| *p == "*" || *p == prog)
        .any(|(_, opts)| opts.contains(&opt))
}

/// The words of `cmd` that name files or folders it may read.
#[cfg(test)]
fn read_operands(cmd: &Cmd) -> Vec<String> {
    read_operands_at(cmd).into_iter().map(|(_, w)| w).collect()
}

/// [`read_operands`], each with the index of the argv word it comes from.
fn read_operands_at(cmd: &Cmd) -> Vec<(usize, String)> {
    let prog = program(cmd);
    if NOT_READERS.contains(&prog) {
        return Vec::new();
    }
    if cmd.kind == CmdKind::Cd {
        return cmd
            .argv
            .get(1)
            .cloned()
            .map(|w| (1, w))
            .into_iter()
            .collect();
    }
    let mut out = Vec::new();
    let git_sub = git_subcommand(cmd);
    let mut pattern_pending = PATTERN_FIRST.contains(&prog)
        || (prog == "git" && git_sub.is_some_and(|(_, s)| s == "grep"));
    let explicit_pattern = cmd
        .argv
        .iter()
        .any(|a| a == "-e" || a == "-f" || a.starts_with("--regexp") || a.starts_with("--file"));
    if explicit_pattern {
        pattern_pending = false;
    }
    let mut after_dashdash = false;
    let mut skip_next = false;
    let mut path_next = false;
    for (i, a) in cmd.argv.iter().enumerate().skip(1) {
        if skip_next {
            skip_next = false;
            continue;
        }
        if std::mem::take(&mut path_next) && !a.starts_with('-') {
            out.push((i, a.clone()));
            continue;
        }
        if !after_dashdash && a == "--" {
            after_dashdash = true;
            continue;
        }
        if !after_dashdash && a.starts_with('-') && a.len() > 1 {
            let (opt, value) = match a.split_once('=') {
                Some((o, v)) => (o, Some(v)),
                None => (a.as_str(), None),
            };
            let text = in_table(TEXT_OPTIONS, prog, opt);
            match value {
                Some(v) if !text => out.push((i, v.to_string())),
                Some(_) => {}
                None if text => skip_next = true,
                // The next word may be this option's value: judged as a
                // path, and not taken for the pattern.
                None => path_next = !pattern_pending,
            }
            continue;
        }
        // git's subcommand is no path.
        if prog == "git" && git_sub.is_some_and(|(at, _)| at == i) {
            continue;
        }
        if pattern_pending {
            pattern_pending = false;
            continue;
        }
        out.push((i, a.clone()));
        // `git show HEAD:.env`, `git show :.env`: the path after the colon.
        if prog == "git" {
            if let Some((_, path)) = a.split_once(':') {
                if !path.is_empty() {
                    out.push((
                        i,
                        path.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':')
                            .to_string(),
                    ));
                }
            }
        }
    }
    out
}

/// Where `word` leads when a process whose working directory is `base`
/// opens it: component by component, as the kernel walks it, so a link
/// is followed before a `..` after it climbs (`link/../x` is next to the
/// link's target, not next to the link). Once a component does not exist
/// the rest is taken as written: the kernel would stop there.
fn resolve(base: &Path, word: &str) -> PathBuf {
    let p = Path::new(word);
    let mut cur = if p.is_absolute() {
        PathBuf::from("/")
    } else {
        base.canonicalize().unwrap_or_else(|_| base.to_path_buf())
    };
    let mut exists = true;
    for c in p.components() {
        match c {
            Component::ParentDir => {
                cur.pop();
            }
            Component::Normal(name) => {
                cur.push(name);
                if exists {
                    match cur.canonicalize() {
                        Ok(real) => cur = real,
                        Err(_) => exists = false,
                    }
                }
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    cur
}

/// Whether `word`, as a path from `root`, stays inside `root` (through
/// symbolic links too).
#[cfg(test)]
fn stays_inside(root: &Path, word: &str) -> bool {
    stays_inside_from(root, root, word)
}

/// Whether `word`, opened by a process working in `base`, stays inside
/// `root` (canonical), through symbolic links and `..` alike.
fn stays_inside_from(root: &Path, base: &Path, word: &str) -> bool {
    if word == "/dev/null" || word.is_empty() {
        return true;
    }
    resolve(base, word).starts_with(root)
}

/// The most files looked at below a folder for secret files.
const WALK_LIMIT: usize = 20_000;

/// A secret file below `dir` (inside `root`), skipping the git dir.
fn secret_below(dir: &Path, root: &Path) -> Option<String> {
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = 0;
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > WALK_LIMIT {
                return None;
            }
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name == ".git" {
                continue;
            }
            let path = e.path();
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            if secrets::is_secret_file(&rel) {
                return Some(rel);
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            }
        }
    }
    None
}

/// How much of a file is looked at for credentials.
const SNIFF_BYTES: u64 = 256 * 1024;

fn holds_credential(path: &Path) -> bool {
    use std::io::Read as _;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut buf = Vec::new();
    if f.take(SNIFF_BYTES).read_to_end(&mut buf).is_err() {
        return false;
    }
    secrets::holds_secret(&String::from_utf8_lossy(&buf))
}

/// Why the chain `steps` may not run (the rule, in one sentence), or
/// `None`. Each command's paths are judged from the folder it runs in: a
/// `cd` alone in its step moves the rest of the chain, as the executor
/// runs it (one inside a pipeline moves nothing; a skipped or failed one
/// stops the chain). `guard_secrets`: the endpoint is remote and secrets
/// are not allowed.
pub(super) fn refusal(root: &Path, steps: &[Step], guard_secrets: bool) -> Option<String> {
    let mut dir = root.to_path_buf();
    for step in steps {
        for cmd in &step.pipeline {
            if let Some(why) = refusal_in(root, &dir, cmd, guard_secrets) {
                return Some(why);
            }
        }
        if let [cd] = step.pipeline.as_slice() {
            if cd.kind == CmdKind::Cd {
                if let Some(next) = cd.argv.get(1) {
                    dir = dir.join(next);
                }
            }
        }
    }
    None
}

/// git's global options that take the next word as their value.
const GIT_VALUE_OPTIONS: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--super-prefix",
    "--config-env",
    "--list-cmds",
];

/// A word of the argv and its index.
type At<'a> = (usize, &'a str);

/// git's global options before its subcommand: the index of each word
/// that is an option's value (with the option), and where the subcommand
/// is (`git -C sub grep …` greps).
fn git_globals(cmd: &Cmd) -> (Vec<At<'_>>, Option<At<'_>>) {
    let mut values = Vec::new();
    if program(cmd) != "git" {
        return (values, None);
    }
    let mut i = 1;
    while let Some(a) = cmd.argv.get(i) {
        if GIT_VALUE_OPTIONS.contains(&a.as_str()) {
            values.push((i + 1, a.as_str()));
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return (values, Some((i, a.as_str())));
        }
    }
    (values, None)
}

/// git's subcommand and its index, after the global options.
fn git_subcommand(cmd: &Cmd) -> Option<At<'_>> {
    git_globals(cmd).1
}

/// `git -C DIR…`: the indices of the `-C` values before git's
/// subcommand; each moves where git works from the folder before it.
fn git_c_values(cmd: &Cmd) -> Vec<usize> {
    git_globals(cmd)
        .0
        .into_iter()
        .filter(|(_, opt)| *opt == "-C")
        .map(|(i, _)| i)
        .collect()
}

fn outside(prog: &str, w: &str) -> String {
    format!(
        "`{prog}` would read `{w}`, outside the repository's working tree; commands read only inside it (home folders, absolute paths and `..` that leave the tree are refused)"
    )
}

/// Why `cmd`, run in `dir`, may not run.
fn refusal_in(root: &Path, dir: &Path, cmd: &Cmd, guard_secrets: bool) -> Option<String> {
    {
        let prog = program(cmd);
        let at_operands = read_operands_at(cmd);
        // `git -C sub show ../x`: `sub` is judged from `dir`, what follows
        // from where git then works (several `-C` add up).
        let c_values = git_c_values(cmd);
        let mut base = dir.to_path_buf();
        for &i in &c_values {
            let Some(w) = cmd.argv.get(i) else { break };
            if !stays_inside_from(root, &base, w) {
                return Some(outside(prog, w));
            }
            base = base.join(w);
        }
        let operands: Vec<String> = at_operands
            .into_iter()
            .filter(|(i, _)| !c_values.contains(i))
            .map(|(_, w)| w)
            .collect();
        let at = |w: &String| base.join(w);
        for w in &operands {
            if !stays_inside_from(root, &base, w) {
                return Some(outside(prog, w));
            }
        }
        if !guard_secrets {
            return None;
        }
        for w in &operands {
            if secrets::is_secret_file(w) {
                return Some(format!(
                    "`{w}` looks like a secret and the model's endpoint is not on this machine; no command reads it for you (the user can allow it with `git config fararoni.llm.sendSecrets true`)"
                ));
            }
        }
        if recursive_search(cmd) {
            let dirs: Vec<PathBuf> = {
                let d: Vec<PathBuf> = operands.iter().map(at).filter(|p| p.is_dir()).collect();
                if d.is_empty() && !operands.iter().any(|w| at(w).is_file()) {
                    vec![base.clone()]
                } else {
                    d
                }
            };
            if let Some(s) = dirs.iter().find_map(|d| secret_below(d, root)) {
                return Some(format!(
                    "a recursive search would read `{s}`, which looks like a secret, and the model's endpoint is not on this machine; use fs_search, which skips secret files"
                ));
            }
        }
        if !VERBATIM.contains(&prog) {
            for w in &operands {
                if holds_credential(&at(w)) {
                    return Some(format!(
                        "`{w}` holds what looks like a credential and `{prog}` would print it in a form that cannot be redacted; read it with fs_read, which redacts credentials"
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(words: &[&str]) -> Cmd {
        Cmd {
            kind: if words.first() == Some(&"git") {
                CmdKind::Git
            } else {
                CmdKind::Utility
            },
            argv: words.iter().map(|w| w.to_string()).collect(),
            env: Vec::new(),
        }
    }

    #[test]
    fn operands_are_the_words_that_name_files() {
        assert_eq!(read_operands(&cmd(&["cat", "a", "b"])), ["a", "b"]);
        assert_eq!(
            read_operands(&cmd(&["grep", "-rn", "KEY", "/home/u"])),
            ["/home/u"]
        );
        assert_eq!(read_operands(&cmd(&["grep", "-e", "/etc", "x"])), ["x"]);
        assert_eq!(
            read_operands(&cmd(&["grep", "-f", "/etc/pats", "x"])),
            ["/etc/pats", "x"]
        );
        assert_eq!(read_operands(&cmd(&["cat", "-n", ".env"])), [".env"]);
        assert_eq!(
            read_operands(&cmd(&["git", "commit", "-m", "/etc is .env"])),
            Vec::<String>::new()
        );
        assert_eq!(
            read_operands(&cmd(&["head", "-n", "5", "/etc/passwd"])),
            ["5", "/etc/passwd"]
        );
        assert_eq!(
            read_operands(&cmd(&["git", "show", ":.env"])),
            [":.env", ".env"]
        );
        assert_eq!(
            read_operands(&cmd(&["git", "show", "HEAD:conf/.env.prod"])),
            ["HEAD:conf/.env.prod", "conf/.env.prod"]
        );
        assert!(
            read_operands(&cmd(&["git", "-C", "/tmp/x", "status"])).contains(&"/tmp/x".to_string())
        );
        assert_eq!(
            read_operands(&cmd(&["git", "diff", "--no-index", "a", "/etc/hosts"])),
            ["a", "/etc/hosts"]
        );
        assert_eq!(
            read_operands(&cmd(&["cargo", "test", "--manifest-path=../x/Cargo.toml"])),
            ["test", "../x/Cargo.toml"]
        );
        assert!(read_operands(&cmd(&["echo", "/etc/passwd"])).is_empty());
    }

    #[test]
    fn paths_that_leave_the_tree_are_seen() {
        let dir = std::env::temp_dir().join(format!("reads-{}", std::process::id()));
        let root = dir.join("repo");
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        let root = root.canonicalize().expect("canonical");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc", root.join("etc-link")).expect("symlink");
        for w in [
            "src",
            "src/../README",
            "./x",
            "",
            "/dev/null",
            &root.join("src").to_string_lossy(),
        ] {
            assert!(stays_inside(&root, w), "{w}");
        }
        for w in [
            "../outside/x",
            "/etc/passwd",
            "src/../../x",
            "/",
            "etc-link/passwd",
            "etc-link",
        ] {
            assert!(!stays_inside(&root, w), "{w}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[cfg(test)]
mod attacks {
    use super::*;
    use crate::facts::RepoEnv;
    use crate::policy::Actor;
    use crate::router::{self, Plan};

    /// Makes `root` a repository; returns its canonical path.
    fn git_init(root: &std::path::Path) -> std::path::PathBuf {
        let ok = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(root)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git init");
        root.canonicalize().expect("canonical")
    }

    /// Every way of reading `.env` or a file outside the tree that the
    /// router lets through must be refused here.
    #[test]
    fn spellings_of_a_secret_read_are_all_refused() {
        let dir = std::env::temp_dir().join(format!("reads-attacks-{}", std::process::id()));
        let root = dir.join("repo");
        std::fs::create_dir_all(root.join("sub")).expect("mkdir");
        let root = git_init(&root);
        std::fs::write(
            root.join(".env"),
            "STRIPE=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n",
        )
        .expect("env");
        std::fs::write(
            root.join("notes.bak"),
            "STRIPE=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n",
        )
        .expect("bak");
        let env = RepoEnv::new(root.clone());
        let mut passed = Vec::new();
        let mut judged = Vec::new();
        for line in [
            "cat .env",
            "cat ./.env",
            "cat sub/../.env",
            "cat .ENV",
            "cat '.env'",
            "cat .en?",
            "cat .e*",
            "cat -- .env",
            "cat -n .env",
            "head -c 100 .env",
            "tail -n +1 .env",
            "rev .env",
            "od -c .env",
            "fold -w 3 .env",
            "hexdump -C .env",
            "xxd .env",
            "base64 .env",
            "cut -c1-5 .env",
            "strings .env",
            "grep -r STRIPE .",
            "grep -R STRIPE",
            "grep -rn STRIPE sub/..",
            "rg STRIPE",
            "git grep --untracked STRIPE",
            "git grep --no-index STRIPE",
            "git show :.env",
            "git show :0:.env",
            "cat < .env",
            "sort .env",
            "rev notes.bak",
            "od -c notes.bak",
            "find . -name .env -exec cat {} ;",
            "diff .env /dev/null",
            "cat /etc/passwd",
            "cat ../x",
            "ls ~",
            "ls -a ~/",
            "cat $HOME/.bashrc",
            "head /etc/hostname",
            "git diff --no-index .env /etc/hostname",
            "git -C .. status",
            "cd .. && ls",
            "grep -r KEY ~",
            "wc -c .env",
            "md5sum .env",
            "nl .env",
            "tac .env",
            "less .env",
            "column -t .env",
            "paste .env",
            "awk 1 .env",
            "sed -n p .env",
            "python3 -c 'print(open(\".env\").read())'",
            "xargs cat < list",
            "cp .env x",
            "git log -p -- .env",
            "git blame .env",
            "cd sub && cat ../.env",
            "cd sub && rev ../notes.bak",
            "cd sub && grep -r STRIPE ..",
            "git -C sub show :../.env",
            "git -C sub grep --untracked STRIPE ..",
            "git -C . grep --untracked STRIPE",
            "git -c color.ui=never grep --no-index STRIPE",
            "git --no-pager grep --untracked STRIPE",
        ] {
            let Ok(d) = router::route_for(line, &env, Actor::Agent) else {
                continue;
            };
            let Plan::Chain(steps) = d.plan else {
                continue;
            };
            judged.push(line);
            if refusal(&root, &steps, true).is_none() {
                passed.push(line);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(passed.is_empty(), "not refused: {passed:?}");
        println!("judged here (the rest the policy blocks first): {judged:?}");
        assert!(
            judged.len() >= 30,
            "the policy lets most reads through to this check: {judged:?}"
        );
    }

    /// Paths are judged from the folder each command runs in: reading a
    /// file of the tree from a subfolder runs, leaving the tree from one
    /// (by `..`, by a link, by `git -C`) does not.
    #[test]
    fn paths_are_judged_from_where_the_command_runs() {
        let dir = std::env::temp_dir().join(format!("reads-cd-{}", std::process::id()));
        let root = dir.join("repo");
        std::fs::create_dir_all(root.join("sub/deeper")).expect("mkdir");
        std::fs::create_dir_all(dir.join("outside")).expect("mkdir");
        let root = git_init(&root);
        std::fs::write(root.join("x"), "x\n").expect("x");
        std::fs::write(root.join("sub/y"), "y\n").expect("y");
        std::fs::write(dir.join("outside/secret"), "s\n").expect("outside");
        std::fs::write(dir.join("sibling"), "s\n").expect("sibling");
        #[cfg(unix)]
        {
            // A link to a folder outside: `out/../sibling` is next to
            // the target, outside; a link to a folder inside is fine.
            std::os::unix::fs::symlink(dir.join("outside"), root.join("sub/out")).expect("symlink");
            std::os::unix::fs::symlink(root.join("sub/deeper"), root.join("in")).expect("symlink");
        }
        let env = RepoEnv::new(root.clone());
        let judge = |line: &str| -> Option<Option<String>> {
            let d = router::route_for(line, &env, Actor::Agent).ok()?;
            let Plan::Chain(steps) = d.plan else {
                return None;
            };
            Some(refusal(&root, &steps, false))
        };
        let mut wrong = Vec::new();
        let mut refused_here = 0;
        for line in [
            "cd sub && cat ../x",
            "cd sub; cat ../x",
            "cd sub && cat ../x y ../sub/y",
            "cd sub/deeper && cat ../../x",
            "cd sub && cd deeper && cat ../y",
            "cd sub && ls ..",
            "cd sub && grep -n x ../x",
            "cd sub && git show HEAD:x",
            "cd sub && git diff --no-index ../x y",
            "git -C sub diff --no-index ../x y",
            "cat in/../deeper/../y",
            "cat sub/../x",
        ] {
            match judge(line) {
                Some(None) => {}
                Some(Some(why)) => wrong.push(format!("refused `{line}`: {why}")),
                None => wrong.push(format!("the router did not pass `{line}`")),
            }
        }
        for line in [
            "cd sub && cat ../../outside/secret",
            "cd sub && cat ../../sibling",
            "cd sub/deeper && cat ../../../sibling",
            "cd sub && ls ../..",
            "cd sub && cat out/secret",
            "cd sub && cat out/../sibling",
            "cat sub/out/../sibling",
            "cat sub/out/secret",
            "cd sub && grep -rn s ../..",
            "git -C sub diff --no-index ../../sibling y",
            "git -C sub -C .. diff --no-index ../sibling y",
            "cd sub && git -C .. diff --no-index ../sibling x",
            "cd sub && cd .. && cat ../sibling",
            "cd sub | cat ../x",
        ] {
            match judge(line) {
                Some(None) => wrong.push(format!("let through `{line}`")),
                Some(Some(_)) => refused_here += 1,
                None => {}
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(
            refused_here >= 12,
            "the router passes these lines to this check: {refused_here}"
        );
    }
}
