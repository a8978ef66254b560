//! The committed man pages and completion scripts are generated from the
//! clap tree; this test fails when they are stale. `FARARONI_BLESS=1`
//! rewrites them.

use std::path::Path;

use git_fararoni::cli::render as docs;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn test_docs_generated_files_are_fresh() {
    let bless = std::env::var_os("FARARONI_BLESS").is_some();
    let fresh = tempfile::tempdir().expect("tempdir");
    docs::write_man_pages(fresh.path()).expect("man pages render");
    let mut stale = Vec::new();
    let man_dir = root().join("man");
    for entry in std::fs::read_dir(fresh.path()).expect("read fresh") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        let new = std::fs::read(entry.path()).expect("read new page");
        let committed = man_dir.join(&name);
        if std::fs::read(&committed).ok().as_deref() != Some(new.as_slice()) {
            if bless {
                std::fs::create_dir_all(&man_dir).expect("mkdir man");
                std::fs::write(&committed, &new).expect("bless man page");
            } else {
                stale.push(format!("man/{}", name.to_string_lossy()));
            }
        }
    }
    let comp_dir = root().join("completions");
    for (shell, file) in [
        (clap_complete::Shell::Bash, "git-fararoni.bash"),
        (clap_complete::Shell::Zsh, "_git-fararoni"),
        (clap_complete::Shell::Fish, "git-fararoni.fish"),
    ] {
        let new = docs::completion_script(shell);
        let committed = comp_dir.join(file);
        if std::fs::read_to_string(&committed).ok().as_deref() != Some(new.as_str()) {
            if bless {
                std::fs::create_dir_all(&comp_dir).expect("mkdir completions");
                std::fs::write(&committed, &new).expect("bless completion");
            } else {
                stale.push(format!("completions/{file}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run `FARARONI_BLESS=1 cargo test --test cli test_docs`): {stale:?}"
    );
    assert!(man_dir.join("git-fararoni.1").exists());
    assert!(man_dir.join("git-fararoni-ask.1").exists());
}

/// Runs `bash -c SCRIPT` in `r`'s hermetic environment with `path` as PATH.
fn bash(r: &crate::common::TestRepo, path: &std::ffi::OsStr, script: &str) -> crate::common::Out {
    let mut cmd = std::process::Command::new("bash");
    r.env(&mut cmd);
    cmd.env("PATH", path)
        .env_remove("MANPATH")
        .env_remove("BASH_COMPLETION_USER_DIR")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_DATA_DIRS")
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .args(["--norc", "--noprofile", "-c", script])
        .output()
        .expect("bash runs")
        .into()
}

/// PATH with the crate's binaries first, as the hermetic environment has it.
fn path_with_binaries() -> std::ffi::OsString {
    let bin_dir = crate::common::bin("git-fararoni")
        .parent()
        .expect("binary folder")
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&rest)))
        .expect("PATH")
}

fn have(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn test_docs_man_pages_render_and_document_settings_and_exit_codes() {
    let man_dir = root().join("man");
    let root_page = std::fs::read_to_string(man_dir.join("git-fararoni.1")).expect("read");
    for s in git_fararoni::settings::SETTINGS {
        assert!(root_page.contains(s.env), "{} undocumented", s.env);
        if let Some(k) = s.key {
            assert!(root_page.contains(k), "{k} undocumented");
        }
    }
    assert!(root_page.contains(".SH \"EXIT STATUS\""));
    let mut pages: Vec<_> = std::fs::read_dir(&man_dir)
        .expect("man/")
        .map(|e| e.expect("entry").path())
        .collect();
    pages.sort();
    assert!(pages.len() > 20, "{pages:?}");
    let (man, groff) = (have("man"), have("groff"));
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("read page");
        assert!(
            text.starts_with(".ie") || text.contains("\n.TH "),
            "{}",
            page.display()
        );
        assert!(text.contains(".SH NAME"), "{}", page.display());
        if man {
            let out: crate::common::Out = std::process::Command::new("man")
                .arg("-l")
                .arg(page)
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "80")
                .output()
                .expect("man runs")
                .into();
            assert_eq!(out.code, 0, "{}: {out}", page.display());
            assert!(out.stdout.contains("NAME"), "{}: {out}", page.display());
        }
        if groff {
            // -k: UTF-8 input; -ww: every warning; -z: no output.
            let out: crate::common::Out = std::process::Command::new("groff")
                .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
                .arg(page)
                .output()
                .expect("groff runs")
                .into();
            assert!(out.stderr.is_empty(), "{}: {out}", page.display());
        }
    }
    if !man && !groff {
        eprintln!("neither man nor groff: the pages were only parse-checked");
    }
}

#[test]
fn test_docs_git_help_finds_the_pages_after_install_docs() {
    if !have("man") {
        crate::common::precondition_missing("`man`");
        return;
    }
    let r = crate::common::TestRepo::with_commit();
    // As after `cargo install`: the binary in a `bin/` on PATH, nothing else.
    let bin = r.home().join(".local/bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::os::unix::fs::symlink(crate::common::bin("git-fararoni"), bin.join("git-fararoni"))
        .expect("ln");
    let path = std::env::join_paths([bin.clone()].into_iter().chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let before = bash(&r, &path, "git fararoni --help");
    assert_ne!(before.code, 0, "no page yet: {before}");
    let out = bash(&r, &path, "git fararoni install-docs");
    assert_eq!(out.code, 0, "{out}");
    assert!(
        r.home()
            .join(".local/share/man/man1/git-fararoni.1")
            .exists(),
        "{out}"
    );
    let after = bash(&r, &path, "git fararoni --help");
    assert_eq!(after.code, 0, "{after}");
    assert!(after.stdout.contains("git-fararoni"), "{after}");
    assert!(after.stdout.contains("EXIT STATUS"), "{after}");
    let sub = bash(&r, &path, "man git-fararoni-hooks");
    assert!(sub.stdout.contains("pre-commit"), "{sub}");
}

const GIT_COMPLETION: &str = "/usr/share/bash-completion/completions/git";

/// A bash function that completes LINE as bash would on TAB, with the
/// function `complete -p` registered for its first word.
const COMPLETE_LINE: &str = r#"
complete_line() {
    local line="$1" fn
    read -ra COMP_WORDS <<< "$line"
    [[ "$line" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE="$line"; COMP_POINT=${#line}; COMPREPLY=()
    fn=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null | sed -E 's/.*-F ([^ ]+).*/\1/')
    [[ -n $fn ]] || { echo "[$line] => (no completion)"; return; }
    "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "[$line] => ${COMPREPLY[*]}"
}
"#;

#[test]
fn test_docs_bash_completion_works_through_gits_own_completion() {
    assert!(
        Path::new(GIT_COMPLETION).exists(),
        "git's bash completion ({GIT_COMPLETION}, shipped with git) is needed to test `git fararoni <TAB>`"
    );
    let r = crate::common::TestRepo::with_commit();
    let path = path_with_binaries();
    let ours = root().join("completions/git-fararoni.bash");
    let script = format!(
        "source {GIT_COMPLETION}\nsource '{}'\n{COMPLETE_LINE}\ncomplete_line 'git fararoni sa'\ncomplete_line 'git fararoni saga '\ncomplete_line 'git -C . fararoni hooks i'\ncomplete_line 'git-fararoni sa'\n",
        ours.display()
    );
    let out = bash(&r, &path, &script);
    assert!(out.stdout.contains("[git fararoni sa] => saga\n"), "{out}");
    let saga = out
        .stdout
        .lines()
        .find(|l| l.starts_with("[git fararoni saga ]"))
        .expect("line");
    for verb in ["start", "finish", "abort", "status", "list"] {
        assert!(saga.contains(verb), "{saga}");
    }
    assert!(
        out.stdout
            .contains("[git -C . fararoni hooks i] => install\n"),
        "{out}"
    );
    assert!(out.stdout.contains("[git-fararoni sa] => saga\n"), "{out}");
}

#[test]
fn test_docs_bash_completion_is_loaded_on_demand_after_install_docs() {
    let loader = "/usr/share/bash-completion/bash_completion";
    if !Path::new(loader).exists() {
        crate::common::precondition_missing(&format!("bash-completion ({loader})"));
        return;
    }
    let r = crate::common::TestRepo::with_commit();
    let path = path_with_binaries();
    let script = format!(
        "source {loader}\n_completion_loader git\n{COMPLETE_LINE}\ncomplete_line 'git fararoni sa'\n"
    );
    let before = bash(&r, &path, &script);
    assert!(
        !before.stdout.contains("=> saga"),
        "not installed yet: {before}"
    );
    let out = bash(&r, &path, "git fararoni install-docs");
    assert_eq!(out.code, 0, "{out}");
    let after = bash(&r, &path, &script);
    assert!(
        after.stdout.contains("[git fararoni sa] => saga"),
        "{after}"
    );
}
