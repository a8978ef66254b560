//! Floors on protective settings: no `fararoni.guard.*` or
//! `fararoni.shadow.*` value, from git config (repository, global, `-c`) or
//! from a `FARARONI_*` variable, switches protection off. A weaker value is
//! refused with a warning and the floor used; a value that cannot be read
//! stops guarded writes.

use crate::common::{Out, TestRepo};
use crate::test_guard::{lines, version_files};

/// A gutting of a 20-line file: cut to 4 of its lines (volume 0.20), or
/// (`rewrite`) replaced by 20 other lines (Jaccard 0).
fn gut_with(repo: &TestRepo, env: &[(&str, &str)], rewrite: bool) -> Out {
    repo.write("f.txt", &lines(20, "l"));
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "write", "f.txt"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let new = if rewrite {
        lines(20, "other")
    } else {
        lines(4, "l")
    };
    crate::common::run_with_stdin(&mut cmd, new.as_bytes())
}

/// A gutting: 20 distinct lines cut to 4.
fn gut(repo: &TestRepo, env: &[(&str, &str)]) -> Out {
    gut_with(repo, env, false)
}

/// Asserts the gutting was blocked, the file kept, and a warning named
/// `name` and the floor.
fn assert_blocked_with_warning(repo: &TestRepo, out: &Out, name: &str, floor: &str) {
    assert_eq!(out.code, 3, "{out}");
    assert_eq!(repo.read("f.txt"), lines(20, "l"));
    assert!(
        out.stderr.contains(&format!("warning: `{name}` is `"))
            && out.stderr.contains(&format!("using {floor}")),
        "{out}"
    );
}

#[test]
fn test_floors_git_config_cannot_switch_the_kill_switch_off() {
    for (key, value, floor) in [
        ("fararoni.guard.jaccard", "0", "0.20"),
        ("fararoni.guard.volume", "0", "0.30"),
        ("fararoni.guard.volume", "0.1", "0.30"),
        ("fararoni.guard.minLines", "100000", "20"),
    ] {
        let repo = TestRepo::with_commit();
        repo.git(&["config", key, value]);
        if key.ends_with("volume") {
            // At its floor, legitimately: a cut to 4 of 20 lines has a
            // Jaccard index of 0.20, so only the volume can stop it.
            repo.git(&["config", "fararoni.guard.jaccard", "0.2"]);
        }
        // Jaccard is judged on a rewrite that keeps the volume.
        let out = gut_with(&repo, &[], key.ends_with("jaccard"));
        assert_blocked_with_warning(&repo, &out, key, floor);
    }
    // All at once.
    let repo = TestRepo::with_commit();
    repo.git(&["config", "fararoni.guard.jaccard", "0"]);
    repo.git(&["config", "fararoni.guard.volume", "0"]);
    repo.git(&["config", "fararoni.guard.minLines", "999"]);
    let out = gut_with(&repo, &[], true);
    assert_blocked_with_warning(&repo, &out, "fararoni.guard.jaccard", "0.20");
    assert_eq!(out.stderr.matches("warning:").count(), 3, "{out}");
}

#[test]
fn test_floors_global_and_command_line_config_are_held_to_the_floor() {
    let repo = TestRepo::with_commit();
    repo.git(&["config", "--global", "fararoni.guard.volume", "0"]);
    repo.git(&["config", "--global", "fararoni.guard.jaccard", "0.2"]);
    let out = gut(&repo, &[]);
    assert_blocked_with_warning(&repo, &out, "fararoni.guard.volume", "0.30");
    // `git -c` reaches a child process as GIT_CONFIG_*.
    let repo = TestRepo::with_commit();
    let out = gut(
        &repo,
        &[
            ("GIT_CONFIG_COUNT", "2"),
            ("GIT_CONFIG_KEY_0", "fararoni.guard.volume"),
            ("GIT_CONFIG_VALUE_0", "0"),
            ("GIT_CONFIG_KEY_1", "fararoni.guard.jaccard"),
            ("GIT_CONFIG_VALUE_1", "0.2"),
        ],
    );
    assert_blocked_with_warning(&repo, &out, "fararoni.guard.volume", "0.30");
}

#[test]
fn test_floors_environment_variables_cannot_switch_the_kill_switch_off() {
    for (var, value, floor) in [
        ("FARARONI_GUARD_JACCARD", "0.0", "0.20"),
        ("FARARONI_GUARD_VOLUME", "0", "0.30"),
        ("FARARONI_GUARD_MIN_LINES", "4294967296", "20"),
    ] {
        let repo = TestRepo::with_commit();
        let mut env = vec![(var, value)];
        if var.ends_with("VOLUME") {
            env.push(("FARARONI_GUARD_JACCARD", "0.2"));
        }
        let out = gut_with(&repo, &env, var.ends_with("JACCARD"));
        assert_blocked_with_warning(&repo, &out, var, floor);
        assert!(out.stderr.contains("in the environment"), "{out}");
    }
    // The environment wins over git config, floors included.
    let repo = TestRepo::with_commit();
    repo.git(&["config", "fararoni.guard.volume", "0.5"]);
    let out = gut(
        &repo,
        &[
            ("FARARONI_GUARD_VOLUME", "0.0"),
            ("FARARONI_GUARD_JACCARD", "0.2"),
        ],
    );
    assert_blocked_with_warning(&repo, &out, "FARARONI_GUARD_VOLUME", "0.30");
    // `guard check` holds the same floors.
    let repo = TestRepo::with_commit();
    repo.write("old", &lines(20, "l"));
    repo.write("new", &lines(4, "l"));
    let mut cmd = repo.cmd("git-fararoni");
    cmd.args(["guard", "check", "old", "new"])
        .env("FARARONI_GUARD_JACCARD", "0")
        .env("FARARONI_GUARD_VOLUME", "0");
    let out: Out = cmd.output().expect("runs").into();
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains("(min 0.20)") && out.stdout.contains("(min 0.30)"),
        "{out}"
    );
    assert_eq!(out.stderr.matches("warning:").count(), 2, "{out}");
}

#[test]
fn test_floors_values_within_the_floor_take_effect_without_a_word() {
    let repo = TestRepo::with_commit();
    repo.git(&["config", "fararoni.guard.volume", "0.3"]);
    repo.git(&["config", "fararoni.guard.jaccard", "0.2"]);
    repo.write("f.txt", &lines(10, "l"));
    let out = crate::common::run_with_stdin(
        repo.cmd("git-fararoni").args(["guard", "write", "f.txt"]),
        lines(4, "l").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(!out.stderr.contains("warning"), "{out}");
}

#[test]
fn test_floors_unreadable_values_stop_guarded_writes() {
    for (key, value) in [
        ("fararoni.guard.jaccard", "-1"),
        ("fararoni.guard.volume", "NaN"),
        ("fararoni.guard.volume", "1.5"),
        ("fararoni.guard.minLines", "-3"),
        ("fararoni.shadow.maxVersions", "lots"),
        ("fararoni.shadow.maxSize", "-1m"),
    ] {
        let repo = TestRepo::with_commit();
        repo.git(&["config", key, value]);
        repo.write("f.txt", "a\n");
        let out = crate::common::run_with_stdin(
            repo.cmd("git-fararoni").args(["guard", "write", "f.txt"]),
            b"b\n",
        );
        assert_eq!(out.code, 1, "{key}={value}: {out}");
        assert!(out.stderr.contains(key), "{out}");
        assert!(
            out.stderr.contains("hint: fix it with `git config"),
            "{out}"
        );
        assert_eq!(repo.read("f.txt"), "a\n");
    }
}

#[test]
fn test_floors_retention_cannot_be_shrunk_below_its_floor() {
    // maxVersions 1 (git config) and 0 (environment): 10 are kept.
    for env in [None, Some(("FARARONI_SHADOW_MAX_VERSIONS", "0"))] {
        let repo = TestRepo::with_commit();
        repo.git(&["config", "fararoni.shadow.maxVersions", "1"]);
        repo.write("f.txt", "0\n");
        let mut last = None;
        for i in 1..=13 {
            let mut cmd = repo.cmd("git-fararoni");
            cmd.args(["guard", "write", "f.txt", "--force"]);
            if let Some((k, v)) = env {
                cmd.env(k, v);
            }
            let out = crate::common::run_with_stdin(&mut cmd, format!("{i}\n").as_bytes());
            assert_eq!(out.code, 0, "{out}");
            last = Some(out);
        }
        let out = last.expect("ran");
        assert!(out.stderr.contains("using 10"), "{out}");
        assert_eq!(version_files(&repo, "f.txt").len(), 10, "{env:?}");
    }
    // maxSize 1k: the floor of 16 MiB keeps every 100 KB version.
    let repo = TestRepo::with_commit();
    repo.git(&["config", "fararoni.shadow.maxSize", "1k"]);
    let big = |n: usize| format!("{n}\n").repeat(25_000);
    repo.write("big.txt", &big(0));
    for i in 1..=8 {
        let out = crate::common::run_with_stdin(
            repo.cmd("git-fararoni")
                .args(["guard", "write", "big.txt", "--force"]),
            big(i).as_bytes(),
        );
        assert_eq!(out.code, 0, "{out}");
        assert!(out.stderr.contains("using 16m"), "{out}");
    }
    assert_eq!(version_files(&repo, "big.txt").len(), 8);
    // `shadow` commands say so too.
    let out = repo.run(&["shadow", "list"]);
    assert!(
        out.stderr.contains("`fararoni.shadow.maxSize` is `1k`"),
        "{out}"
    );
}
