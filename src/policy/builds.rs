//! The `Agent` posture's one addition to the allow-list: builds and tests,
//! so a model can check its own change. A program's builds are in its
//! catalog row (`policy::catalog`); each names the subcommands (word
//! prefixes) it may run, options added to every run (offline: a build
//! must not reach the network), and options refused because they write
//! outside the working tree or load other settings.
//!
//! A build runs the repository's own code (build scripts, Makefiles,
//! package scripts, tests), which no table can judge; so the agent runs it
//! contained (`crate::contain`): it can write only the working tree (never
//! the git dir, the hooks or the store), reaches no network, and leaves no
//! process behind. That is why any Makefile target, `just` recipe or
//! package script may run, not a short list of names.
//!
//! Any argument that names an absolute path or climbs with `..` is refused
//! too (also after `=`), and no `NAME=value` prefix is accepted: a build
//! reads and writes inside the repository only. A build runs code the
//! repository holds (build scripts, tests); that is what a build is, and
//! why it runs with a timeout, with the worktree as working directory, and
//! with its file effects recorded in the shadow store by the agent.

use super::{catalog, Risk, Verdict};

/// One build or test our agent may run with a program (the program's
/// catalog row lists them, tried in order).
#[derive(Debug, Clone, Copy)]
pub struct Build {
    /// Allowed leading words after the program; `&[]` allows the bare program.
    pub commands: &'static [&'static [&'static str]],
    /// Options appended to every run.
    pub forced: &'static [&'static str],
    /// Options refused (also as `--opt=value` and as a prefix of a short
    /// option cluster such as `-ofile`).
    pub refused: &'static [&'static str],
    /// Whether words other than options may follow the subcommand (test
    /// filters, paths); `make` takes targets, so it may not.
    pub free: bool,
}

/// A build: commands, forced options, whether free words may follow,
/// refused options.
pub const fn build(
    commands: &'static [&'static [&'static str]],
    forced: &'static [&'static str],
    free: bool,
    refused: &'static [&'static str],
) -> Build {
    Build {
        commands,
        forced,
        refused,
        free,
    }
}

/// The builds of `program` (its catalog row's); empty for every program
/// our agent does not build with.
fn builds_of(program: &str) -> &'static [Build] {
    catalog::lookup(program).map_or(&[], |e| e.builds)
}

/// Returns the row of `argv` when it is a build the agent may run.
pub fn build_of(argv: &[String]) -> Option<&'static Build> {
    let program = argv.first()?;
    let args = &argv[1..];
    builds_of(program).iter().find(|b| {
        b.commands.iter().any(|c| {
            c.len() <= args.len()
                && c.iter().zip(args).all(|(w, a)| w == a)
                && (b.free || args[c.len()..].iter().all(|a| a.starts_with('-')))
        })
    })
}

/// Judges `argv` for the agent when its program is a build program;
/// `None` for every other program.
pub fn classify_build(argv: &[String], assignments: &[(String, String)]) -> Option<Verdict> {
    let program = argv.first()?;
    let rows = builds_of(program);
    if rows.is_empty() {
        return None;
    }
    let rule = format!("rule build {program}");
    if let Some((name, _)) = assignments.first() {
        return Some(Verdict::new(
            Risk::UnsafeShell,
            format!("{rule}: a build runs without `{name}=…` prefixes (they could change which tools it runs)"),
            argv.to_vec(),
        ));
    }
    let Some(row) = build_of(argv) else {
        let allowed: Vec<String> = rows
            .iter()
            .flat_map(|b| {
                b.commands.iter().map(|c| {
                    format!("`{} {}`", program, c.join(" "))
                        .replace(" `", "`")
                        .replace("  ", " ")
                })
            })
            .collect();
        return Some(Verdict::new(
            Risk::UnsafeShell,
            format!(
                "{rule}: only these builds and tests run: {}",
                allowed.join(", ")
            ),
            argv.to_vec(),
        ));
    };
    for a in &argv[1..] {
        let (name, value) = a.split_once('=').unwrap_or((a.as_str(), ""));
        let refused = row.refused.iter().find(|r| {
            name == **r
                || (r.len() == 2
                    && r.starts_with('-')
                    && !r.starts_with("--")
                    && a.starts_with(**r)
                    && !a.starts_with("--"))
        });
        if let Some(r) = refused {
            return Some(Verdict::new(
                Risk::Destructive,
                format!("{rule}: `{r}` could read or write outside the working tree"),
                argv.to_vec(),
            ));
        }
        for part in [name, value] {
            if escapes(part) {
                return Some(Verdict::new(
                    Risk::Destructive,
                    format!("{rule}: `{a}` names a place outside the working tree"),
                    argv.to_vec(),
                ));
            }
        }
    }
    // A forced switch the model wrote is taken out (with a `true`/`false`
    // after it, which some tools read as its value) and appended once, so
    // `--noEmit false` cannot turn it off.
    let mut canonical: Vec<String> = Vec::with_capacity(argv.len() + row.forced.len());
    let mut skip_value = false;
    for a in argv {
        if skip_value && (a == "true" || a == "false") {
            skip_value = false;
            continue;
        }
        skip_value = false;
        let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
        if row.forced.contains(&name) {
            skip_value = true;
            continue;
        }
        canonical.push(a.clone());
    }
    canonical.extend(row.forced.iter().map(|f| (*f).to_string()));
    Some(Verdict::new(
        Risk::LocalWrite,
        format!("{rule}: a build or test, run offline in the working tree with a timeout"),
        canonical,
    ))
}

/// Whether a word names an absolute path, a home directory or a `..` climb.
fn escapes(word: &str) -> bool {
    word.starts_with('/')
        || word.starts_with('~')
        || word.starts_with('\\')
        || word.get(1..3) == Some(":\\")
        || word.split(['/', '\\']).any(|c| c == "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Verdict {
        let argv: Vec<String> = s.split_whitespace().map(String::from).collect();
        classify_build(&argv, &[]).expect("a build program")
    }

    #[test]
    fn a_wrapper_runs_what_its_program_runs() {
        for (program, wrapper) in [
            ("mvn", "./mvnw"),
            ("gradle", "./gradlew"),
            ("python", "python3"),
        ] {
            for goal in [
                "test-compile",
                "compileJava",
                "-m pytest",
                "-m unittest",
                "test",
            ] {
                let p = classify_build(
                    &[program.to_string()]
                        .into_iter()
                        .chain(goal.split(' ').map(String::from))
                        .collect::<Vec<_>>(),
                    &[],
                );
                let w = classify_build(
                    &[wrapper.to_string()]
                        .into_iter()
                        .chain(goal.split(' ').map(String::from))
                        .collect::<Vec<_>>(),
                    &[],
                );
                assert_eq!(
                    p.map(|v| v.risk),
                    w.map(|v| v.risk),
                    "{program} / {wrapper} {goal}"
                );
            }
            for bad in ["-f", "--settings=x", "-p", "--init-script", "--rootdir"] {
                let p = classify_build(&[program, "test", bad].map(String::from), &[]);
                let w = classify_build(&[wrapper, "test", bad].map(String::from), &[]);
                assert_eq!(
                    p.map(|v| v.risk),
                    w.map(|v| v.risk),
                    "{program} / {wrapper} test {bad}"
                );
            }
        }
        assert_eq!(
            v("./mvnw test-compile").argv,
            ["./mvnw", "test-compile", "--offline"]
        );
    }

    #[test]
    fn builds_run_offline() {
        let x = v("cargo test");
        assert_eq!(x.risk, Risk::LocalWrite);
        assert_eq!(x.argv, ["cargo", "test", "--offline"]);
        assert_eq!(
            v("tsc -p .").argv.last().map(String::as_str),
            Some("--noEmit")
        );
        assert_eq!(v("make").risk, Risk::LocalWrite);
        assert_eq!(v("make test").risk, Risk::LocalWrite);
        assert_eq!(
            v("tsc --noEmit false -p .").argv,
            ["tsc", "-p", ".", "--noEmit"]
        );
        assert_eq!(v("tsc --noEmit=false").argv, ["tsc", "--noEmit"]);
        assert_eq!(
            v("cargo test --offline").argv,
            ["cargo", "test", "--offline"]
        );
        assert_eq!(v("python3 -m pytest -q").risk, Risk::LocalWrite);
    }

    #[test]
    fn outside_and_other_subcommands_are_refused() {
        for s in [
            "cargo publish",
            "cargo install ripgrep",
            "cargo build --target-dir /tmp/x",
            "cargo build --target-dir=/tmp/x",
            "cargo test --manifest-path ../other/Cargo.toml",
            "make -C /",
            "make -C/etc",
            "npm install",
            "npm publish",
            "pnpm add left-pad",
            "yarn add left-pad",
            "just --justfile /tmp/j x",
            "pytest --junitxml=/tmp/r.xml",
            "pytest ../elsewhere",
            "go build -o /usr/local/bin/x",
            "go install ./...",
            "mvn -s /tmp/settings.xml test",
            "dotnet build -o /tmp",
            "node -e 1",
            "node script.js",
            "tsc --outDir ../out",
            "python -c print(1)",
        ] {
            assert!(v(s).risk.is_blocked(), "{s}");
        }
        let argv = vec!["cargo".to_string(), "build".to_string()];
        assert!(
            classify_build(&argv, &[("RUSTC_WRAPPER".into(), "/tmp/evil".into())])
                .is_some_and(|v| v.risk.is_blocked())
        );
        assert!(classify_build(&["ls".to_string()], &[]).is_none());
    }

    #[test]
    fn what_people_run_to_check_their_work_is_allowed() {
        for s in [
            "make install",
            "make lint typecheck",
            "just",
            "just test unit",
            "npm run deploy",
            "npm run-script e2e",
            "pnpm run build",
            "pnpm test",
            "yarn run lint",
            "yarn test",
            "python3 -m unittest discover -p test_*.py",
            "python -m py_compile app.py",
            "python3 -m pytest -x",
            "node --check src/index.js",
            "tsc -p .",
            "cargo run --bin tool",
            "cargo clippy --all-targets",
            "go run .",
            "go vet ./...",
            "ruff check .",
            "eslint src",
            "mypy src",
            "mvn verify",
            "./gradlew integrationTest",
            "dotnet test",
        ] {
            assert_eq!(v(s).risk, Risk::LocalWrite, "{s}");
        }
    }
}
