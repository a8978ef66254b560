//! Man pages and completion scripts generated from the clap tree, so help,
//! man and completions never disagree.

use std::path::Path;

/// Writes `git-fararoni.1`, `git-fararoni-<sub>.1` for every visible
/// subcommand, and `git-fararoni-saga.1`/`git-fararoni-shadow.1` aliases
/// for the standalone binaries, into `dir`.
pub fn write_man_pages(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let root = crate::cli::command();
    render(&root, "git-fararoni", dir)?;
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("git-fararoni-{}", sub.get_name());
        render(sub, &name, dir)?;
        for nested in sub.get_subcommands().filter(|s| !s.is_hide_set()) {
            render(nested, &format!("{name}-{}", nested.get_name()), dir)?;
        }
    }
    Ok(())
}

fn render(cmd: &clap::Command, name: &str, dir: &Path) -> std::io::Result<()> {
    let cmd = cmd
        .clone()
        .name(name.to_string())
        .bin_name(name.replace('-', " "));
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf)?;
    std::fs::write(dir.join(format!("{name}.1")), buf)
}

/// Returns the completion script of `shell` for `git-fararoni`.
pub fn completion_script(shell: clap_complete::Shell) -> String {
    let mut cmd = crate::cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "git-fararoni", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}
