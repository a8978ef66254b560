//! Binary-free properties of `judge_shell`: it never panics, its reasons
//! fit, and no prefix an agent can write makes a later destructive
//! command pass.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::*;
use crate::policy::{Facts, Place};

/// Facts of a plain directory: globs and `cd` from the file system.
struct DirFacts {
    cwd: PathBuf,
}

impl Facts for DirFacts {
    fn cwd(&self) -> &Path {
        &self.cwd
    }
    fn home(&self) -> Option<String> {
        Some("/nonexistent-home".into())
    }
    fn git_alias(&self, _: &Place, _: &str) -> Option<String> {
        None
    }
    fn same_repository(&self, place: &Place) -> Option<bool> {
        Some(place.dir == self.cwd && place.git_dir.is_none() && place.work_tree.is_none())
    }
    fn is_revision(&self, _: &Place, _: &str) -> Option<bool> {
        Some(false)
    }
    fn is_path(&self, place: &Place, name: &str) -> Option<bool> {
        Some(place.dir.join(name).exists())
    }
    fn expand_glob(&self, dir: &Path, pattern: &str) -> Vec<String> {
        crate::text::glob::expand(pattern, dir)
    }
    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
        let d = dir.join(target);
        d.is_dir().then_some(d)
    }
    fn inside_worktree(&self, dir: &Path) -> Option<bool> {
        Some(dir.starts_with(&self.cwd))
    }
    fn lease_unseen(
        &self,
        _: &Place,
        _: Option<&str>,
        _: &[String],
    ) -> Vec<crate::git::lease::Unseen> {
        Vec::new()
    }
}

/// A repository where everything under `src/` has uncommitted work.
struct Dirty {
    top: PathBuf,
}

impl LossFacts for Dirty {
    fn worktree(&self) -> Option<PathBuf> {
        Some(self.top.clone())
    }
    fn git_dirs(&self) -> Vec<PathBuf> {
        vec![self.top.join(".git")]
    }
    fn hooks_dir(&self) -> Option<PathBuf> {
        Some(self.top.join(".git/hooks"))
    }
    fn loss(&self, paths: &[PathBuf]) -> Result<Loss, String> {
        let src = self.top.join("src");
        let mut l = Loss::default();
        for p in paths {
            if p.starts_with(&src) || src.starts_with(p) {
                l.modified.push(src.join("lib.rs"));
            }
        }
        Ok(l)
    }
}

struct Fixture {
    dir: tempfile::TempDir,
    top: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let top = dir.path().canonicalize().expect("canonical");
    std::fs::create_dir_all(top.join("src")).expect("src");
    std::fs::create_dir_all(top.join(".git/hooks")).expect("git");
    std::fs::write(top.join("src/lib.rs"), "x").expect("lib");
    Fixture { dir, top }
}

fn judge_in(f: &Fixture, line: &str) -> ShellVerdict {
    let facts = DirFacts { cwd: f.top.clone() };
    let loss = Dirty { top: f.top.clone() };
    let ctx = HookContext {
        cwd: &f.top,
        facts: &facts,
        loss: &loss,
        remote: RemotePosture::Allow,
        unknown_programs: UnknownPrograms::Allow,
    };
    let _ = f.dir.path();
    judge_shell(line, &ctx)
}

const PIECES: &[&str] = &[
    "rm", "-rf", "src", "'", "\"", "$(", ")", "`", "<<", "<<-", "EOF", "'EOF'", "\n", "|", "||",
    "&&", ";", "&", "{", "}", "(", "$", "${", "\\", "*", "~", "<", ">", ">>", "2>&1", "<<<", "for",
    "x", "in", "do", "done", "if", "then", "else", "fi", "case", "esac", ";;", "bash", "-c", "git",
    "reset", "--hard", "python3", "find", "-delete", "xargs", "eval", "=", "X=", " ", " ", " ",
    "$X", "echo", "cat", "alias", "function", "()", "[[", "]]", "!", "#", "$'\\x72'", "{a,b}",
    "..", "/", "-", "--", "sudo", "env", "timeout", "5", "cd", "IFS=",
];

fn line_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..24).prop_map(|v| v.concat())
}

thread_local! {
    static SHARED: Fixture = fixture();
}

fn judge_shared(line: &str) -> ShellVerdict {
    SHARED.with(|f| judge_in(f, line))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_and_reasons_fit(line in line_strategy()) {
        let v = judge_shared(&line);
        prop_assert!(v.reason.chars().count() <= MAX_REASON);
        prop_assert!(!v.veto || !v.reason.is_empty());
    }

    #[test]
    fn arbitrary_text_never_panics(line in "\\PC{0,80}") {
        let v = judge_shared(&line);
        prop_assert!(v.reason.chars().count() <= MAX_REASON);
    }

    #[test]
    fn no_prefix_unlocks_a_destructive_command(prefix in line_strategy()) {
        // A trailing backslash joins the lines: `\\<newline>rm` is `rm`
        // glued to the previous word, as in bash.
        prop_assume!(!prefix.ends_with('\\'));
        let line = format!("{prefix}\nrm -rf src");
        let v = judge_shared(&line);
        prop_assert!(v.veto, "allowed: {:?}", line);
    }
}

#[test]
fn heredocs_and_messages_are_data() {
    let f = fixture();
    for line in [
        "git commit -F - <<'EOF'\nrm -rf src\nEOF",
        "cat <<'EOF'\n$(rm -rf src)\nEOF",
        "echo 'rm -rf src'",
        "printf '%s\\n' \"rm -rf src\"",
        "grep -r 'rm -rf' .",
    ] {
        let v = judge_in(&f, line);
        assert!(!v.veto, "{line}: {}", v.reason);
    }
    let v = judge_in(&f, "cat <<EOF\n$(rm -rf src)\nEOF");
    assert!(v.veto, "an unquoted here-document runs its substitutions");
}

#[test]
fn aliases_and_functions_do_not_hide_programs() {
    let f = fixture();
    for line in [
        "alias rm=ls; rm -rf src",
        "rm() { :; }; command rm -rf src",
        "alias ls='rm -rf src'; ls",
        "f() { rm -rf \"$1\"; }; f src",
    ] {
        assert!(judge_in(&f, line).veto, "{line}");
    }
    let _ = Path::new("/");
}
