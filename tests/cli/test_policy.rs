//! The command policy through the real binary, judged by effects: what is
//! traced is what runs, `cd` moves where the rest of a chain is judged,
//! planted names stay file names, checkout asks the repository.

use crate::common::{Out, TestRepo};

fn assert_code(out: &Out, code: i32) {
    assert_eq!(out.code, code, "unexpected exit code:\n{out}");
    assert!(!out.stderr.contains("panicked"), "panic:\n{out}");
}

fn traced(out: &Out) -> Vec<String> {
    out.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("+ "))
        .map(String::from)
        .collect()
}

fn explained(repo: &TestRepo, line: &str) -> Vec<String> {
    let out = repo.run(&["ask", "--explain", "--json", line]);
    assert_code(&out, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    v["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .map(|c| {
            c.as_array()
                .expect("argv")
                .iter()
                .map(|w| w.as_str().expect("word").to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn test_policy_the_trace_shows_the_canonical_argv_that_runs() {
    let repo = TestRepo::with_commit();
    repo.write("notes.txt", "b\na\n");
    for (line, runs) in [
        ("git log --onel -1", None),
        ("git status --porc", Some("git status --porcelain")),
        (
            "git restore --st README.md",
            Some("git restore --staged README.md"),
        ),
        ("sort --rev notes.txt", Some("sort --reverse notes.txt")),
        ("git branch --sho", Some("git branch --show-current")),
        ("git status -sb", Some("git status -s -b")),
    ] {
        let out = repo.run(&["ask", "-v", line]);
        let Some(runs) = runs else {
            // `git log` matches options exactly, as git does: refused.
            assert_code(&out, 3);
            assert!(traced(&out).is_empty(), "{line}: nothing may run\n{out}");
            continue;
        };
        assert_code(&out, 0);
        assert_eq!(traced(&out), [runs], "{line}\n{out}");
        assert_eq!(explained(&repo, line), [runs], "{line}");
    }
}

#[test]
fn test_policy_a_composite_trace_shows_the_real_commands() {
    let repo = TestRepo::with_commit();
    repo.write("a.txt", "x\n");
    let out = repo.run(&["ask", "-v", "do the commit"]);
    assert_code(&out, 0);
    let trace = traced(&out);
    assert!(
        // The argv the policy judged, canonical: `-m`'s value attached.
        trace.iter().any(|l| l == "git commit '-mUpdate a.txt'"),
        "{out}"
    );
    assert!(!out.stderr.contains("<generated"), "{out}");
    assert_eq!(repo.log()[0], "Update a.txt");
}

#[test]
fn test_policy_cd_moves_where_the_chain_is_judged_and_run() {
    let repo = TestRepo::with_commit();
    repo.write("src/lib.rs", "x\n");
    let src = repo.path().join("src");
    let out = repo.run_in(&src, &["ask", "cd .. && ls"]);
    assert_code(&out, 0);
    assert!(out.stdout.contains("README.md"), "{out}");
    let out = repo.run_in(&src, &["ask", "cd ../src && cat lib.rs"]);
    assert_code(&out, 0);
    assert_eq!(out.stdout, "x\n");
    // Leaving the working tree to read loses nothing and runs.
    for line in ["cd ../.. && ls", "cd ~ && ls", "cd / && ls"] {
        let out = repo.run_in(&src, &["ask", line]);
        assert_code(&out, 0);
    }
    let top = repo
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let out = repo.run_in(
        &src,
        &["ask", &format!("cd ../.. && git -C {top} status --short")],
    );
    assert_code(&out, 0);
    assert!(out.stdout.contains("src/"), "{out}");
    // git on another repository (or none) stays refused, and so does a
    // write after leaving, even one aimed back at this repository.
    let out = repo.run_in(&src, &["ask", "cd ../.. && git status"]);
    assert_code(&out, 3);
    assert!(out.stderr.contains("rule git.place"), "{out}");
    let before = repo.log();
    let out = repo.run_in(
        &src,
        &[
            "ask",
            &format!("cd ../.. && git -C {top} commit --allow-empty -m x"),
        ],
    );
    assert_code(&out, 3);
    assert!(out.stderr.contains("rule cd"), "{out}");
    assert_eq!(repo.log(), before);
    // A directory that is not there stops the line before anything runs.
    let out = repo.ask("cd nowhere && ls");
    assert_code(&out, 3);
}

#[test]
fn test_policy_a_nested_repository_is_never_a_target() {
    let repo = TestRepo::with_commit();
    let nested = repo.path().join("vendor/evil");
    std::fs::create_dir_all(&nested).expect("mkdir");
    let marker = repo.home().join("PWNED");
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&nested)
        .status()
        .expect("git init");
    assert!(init.success());
    std::fs::write(
        nested.join(".git/config"),
        format!(
            "[core]\n\tfsmonitor = touch {}\n\tpager = touch {}\n",
            marker.display(),
            marker.display()
        ),
    )
    .expect("plant config");
    for line in [
        "cd vendor/evil && git status",
        "git -C vendor/evil status",
        "git --git-dir=vendor/evil/.git status",
        "GIT_DIR=vendor/evil/.git git log",
        "git --work-tree=vendor/evil status",
    ] {
        let out = repo.ask(line);
        assert_code(&out, 3);
        assert!(!marker.exists(), "{line} ran a planted program");
    }
    // The current repository itself, named explicitly, is fine.
    assert_code(&repo.ask("git -C . status"), 0);
    assert_code(&repo.ask("GIT_DIR=.git git log -1"), 0);
}

#[test]
fn test_policy_planted_option_names_are_refused_never_options() {
    let repo = TestRepo::with_commit();
    let plant = repo.path().join("plant");
    std::fs::create_dir(&plant).expect("mkdir");
    for name in ["-delete", "--output=README.md", "keep.txt"] {
        std::fs::write(plant.join(name), "planted\n").expect("plant");
    }
    let before = repo.snapshot();
    for line in ["find *", "sort *", "ls *", "git diff *", "cat *"] {
        let out = repo.run_in(&plant, &["ask", line]);
        assert_code(&out, 3);
        assert!(out.stderr.contains("rule glob"), "{line}: {out}");
    }
    // Written as the error suggests, the names are names.
    let out = repo.run_in(&plant, &["ask", "-v", "find ./*"]);
    assert_code(&out, 0);
    assert!(
        traced(&out)[0].starts_with("find ./--output=README.md ./-delete"),
        "{out}"
    );
    // After `--`, a name is a name.
    let out = repo.run_in(&plant, &["ask", "wc -c -- *"]);
    assert_code(&out, 0);
    assert!(out.stdout.contains("-delete"), "{out}");
    assert_eq!(repo.snapshot(), before, "nothing may change");
}

#[test]
fn test_policy_checkout_asks_the_repository_what_a_word_is() {
    let repo = TestRepo::with_commit();
    for name in ["cafe", "logo@2x.png", "v1~1"] {
        repo.write(name, "committed\n");
    }
    repo.git(&["add", "."]);
    repo.git(&["commit", "-q", "-m", "files"]);
    repo.git(&["branch", "feature"]);
    for name in ["cafe", "logo@2x.png", "v1~1"] {
        repo.write(name, "uncommitted edit\n");
        let out = repo.ask(&format!("git checkout {name}"));
        assert_code(&out, 3);
        assert_eq!(repo.read(name), "uncommitted edit\n", "{name}");
    }
    // A branch is a switch, which keeps uncommitted work.
    let out = repo.ask("git checkout feature");
    assert_code(&out, 0);
    assert_eq!(repo.read("cafe"), "uncommitted edit\n");
    // A word that is neither is a pathspec: refused rather than guessed.
    assert_code(&repo.ask("git checkout no-such-thing"), 3);
}

#[test]
fn test_policy_trailing_words_are_never_cut_from_a_command() {
    let repo = TestRepo::with_commit();
    let config = std::fs::read(repo.path().join(".git/config")).expect("config");
    let out = repo.ask("git config gc.pruneExpire now");
    assert_code(&out, 3);
    assert_eq!(
        std::fs::read(repo.path().join(".git/config")).expect("config"),
        config
    );
    // After a comma, politeness is politeness.
    assert_code(&repo.ask("git status, thanks"), 0);
}

#[test]
fn test_policy_git_config_lists_only_the_users_settings() {
    let repo = TestRepo::with_commit();
    let out = repo.ask("git config -l");
    assert_code(&out, 0);
    assert!(!out.stdout.contains("protocol.allow"), "{out}");
    assert_eq!(out.stdout, repo.git(&["config", "-l"]));
}

#[test]
fn test_policy_a_program_planted_on_a_relative_path_entry_never_runs() {
    let repo = TestRepo::with_commit();
    let marker = repo.home().join("PWNED");
    for dir in ["node_modules/.bin", "bin"] {
        let fake = repo.path().join(dir);
        std::fs::create_dir_all(&fake).expect("mkdir");
        for name in ["ls", "git", "cat"] {
            let script = fake.join(name);
            std::fs::write(&script, format!("#!/bin/sh\ntouch {}\n", marker.display()))
                .expect("plant");
            std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .expect("chmod");
        }
    }
    let path = std::env::var("PATH").unwrap_or_default();
    let abs_inside = repo.path().join("bin");
    for entries in [
        format!("node_modules/.bin:{path}"),
        format!(".:bin:{path}"),
        format!("{}:{path}", abs_inside.display()),
    ] {
        for line in ["ls", "git status", "cat README.md", "do the commit"] {
            let out = repo
                .cmd("git-fararoni")
                .args(["ask", line])
                .env("PATH", &entries)
                .output()
                .expect("run");
            assert!(
                !marker.exists(),
                "{line} with PATH={entries} ran a planted program"
            );
            assert!(out.status.code().is_some());
        }
    }
}

#[test]
fn test_policy_init_outside_the_working_tree_is_refused() {
    let repo = TestRepo::with_commit();
    for line in [
        "git init ../elsewhere",
        "git init /tmp/fararoni-init-test",
        "git init --template=t x",
    ] {
        assert_code(&repo.ask(line), 3);
    }
    assert!(!repo.path().join("../elsewhere").exists());
    assert_code(&repo.ask("git init sub"), 0);
}
