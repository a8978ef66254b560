//! The committed man pages and completion scripts are generated from the
//! clap tree; this test fails when they are stale. `FARARONI_BLESS=1`
//! rewrites them.

use std::path::Path;

use git_fararoni::docs;

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
