//! Man pages and completion scripts generated from the clap tree, so help,
//! man and completions never disagree.

use std::path::Path;

/// Writes `git-fararoni.1`, `git-fararoni-<sub>.1` for every visible
/// subcommand, and `git-fararoni-saga.1`/`git-fararoni-shadow.1` aliases
/// for the standalone binaries, into `dir`.
pub fn write_man_pages(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let root = super::command();
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
    if name == "git-fararoni" {
        buf.extend_from_slice(settings_sections().as_bytes());
    }
    std::fs::write(dir.join(format!("{name}.1")), buf)
}

/// Escapes text for roff: backslashes, and a leading `.` or `'` that would
/// read as a request.
fn roff(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// The CONFIGURATION, ENVIRONMENT and EXIT STATUS sections of
/// `git-fararoni(1)`, from the settings table and the exit codes.
fn settings_sections() -> String {
    use crate::cli::error::exit;
    use crate::settings::SETTINGS;
    let mut out = String::from(".SH CONFIGURATION\n");
    out.push_str(&roff(
        "Read from git config at every level git reads (system, global, repository, worktree, git -c, includes); the environment variable of each overrides it. `git fararoni config` shows each effective value and where it came from.",
    ));
    out.push('\n');
    let describe = |s: &crate::settings::Setting| {
        let mut d = s.doc.to_string();
        if let Some(v) = s.default {
            d.push_str(&format!(" Default: {v}."));
        }
        if let Some(b) = s.bound {
            d.push_str(&format!(
                " Never weaker than {}: {}.",
                b.display().replace('≥', "at least").replace('≤', "at most"),
                s.why
            ));
        }
        d
    };
    for s in SETTINGS.iter().filter(|s| s.key.is_some()) {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR ({})\n{}\n",
            roff(s.key.unwrap_or_default()),
            roff(s.env),
            roff(&describe(s))
        ));
    }
    out.push_str(".SH ENVIRONMENT\n");
    for s in SETTINGS {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff(s.env),
            roff(&describe(s))
        ));
    }
    for (var, doc) in ENVIRONMENT {
        out.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", roff(var), roff(doc)));
    }
    out.push_str(".SH \"EXIT STATUS\"\n");
    for (code, doc) in [
        (exit::OK, "success"),
        (exit::ERROR, "error: the request could not be carried out (not a repository, git failed, output could not be written)"),
        (exit::USAGE, "usage: the command line was wrong"),
        (exit::BLOCKED, "blocked by a guard or policy: nothing was changed"),
        (exit::MODEL_UNAVAILABLE, "the request needs a model and none is available"),
        (exit::INTERNAL, "a bug in git-fararoni"),
    ] {
        out.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff(doc)));
    }
    out
}

/// Variables git-fararoni reads or sets that are not settings.
const ENVIRONMENT: &[(&str, &str)] = &[
    ("FARARONI_SESSION", "the session a guarded write belongs to, for `git fararoni undo`"),
    ("FARARONI_ACTOR", "set by git-fararoni on the git it runs: `human` or `agent`, for hooks"),
    ("FARARONI_PARENT", "set by git-fararoni on every git it runs (its pid): a git-fararoni started by that git's hooks does not wait for the repository lock its ancestor holds"),
    ("NO_COLOR", "when set and not empty, no colour is used"),
];

/// The name the bash script is generated under (see [`completion_script`]).
const BASH_NAME: &str = "gitfararoni";

/// The `_git_fararoni` function git's own bash completion calls for
/// `git fararoni <TAB>`: it hands clap's completion the words after
/// `fararoni`, as if `git-fararoni` had been typed.
const GIT_BASH_GLUE: &str = r#"
# `git fararoni <TAB>`: git's completion (git-completion.bash) calls
# _git_fararoni with words/cword/cur set; complete as `git-fararoni`.
_git_fararoni() {
    local i start=-1
    for ((i = 1; i < ${#words[@]}; i++)); do
        if [[ ${words[i]} == fararoni ]]; then
            start=$i
            break
        fi
    done
    ((start < 0)) && return
    local COMP_WORDS=(git-fararoni "${words[@]:start+1}")
    local COMP_CWORD=$((cword - start))
    _gitfararoni git-fararoni "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}
"#;

/// Where `install-docs` put each file.
#[derive(Debug, Clone, Default)]
pub struct Installed {
    /// The man pages' folder (`PREFIX/share/man/man1`).
    pub man_dir: std::path::PathBuf,
    /// Every file written.
    pub files: Vec<std::path::PathBuf>,
}

/// The completion files under a prefix, where bash-completion, zsh and
/// fish look for them.
pub const COMPLETION_PLACES: &[(clap_complete::Shell, &str)] = &[
    (
        clap_complete::Shell::Bash,
        "share/bash-completion/completions/git-fararoni",
    ),
    (
        clap_complete::Shell::Zsh,
        "share/zsh/site-functions/_git-fararoni",
    ),
    (
        clap_complete::Shell::Fish,
        "share/fish/vendor_completions.d/git-fararoni.fish",
    ),
];

/// Writes the man pages and completion scripts under `prefix`, where man
/// (and so `git help fararoni`, `git fararoni --help`) and the shells look,
/// and the bash script also into `bash_user_dir` when given (bash-completion
/// before 2.12 does not look beside the binary).
pub fn install_docs(prefix: &Path, bash_user_dir: Option<&Path>) -> std::io::Result<Installed> {
    let man_dir = prefix.join("share/man/man1");
    write_man_pages(&man_dir)?;
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&man_dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("git-fararoni"))
        })
        .collect();
    files.sort();
    for (shell, rel) in COMPLETION_PLACES {
        let path = prefix.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, completion_script(*shell))?;
        files.push(path);
    }
    if let Some(dir) = bash_user_dir {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("git-fararoni");
        std::fs::write(&path, completion_script(clap_complete::Shell::Bash))?;
        files.push(path);
    }
    Ok(Installed { man_dir, files })
}

/// Returns the folder bash-completion loads a user's completions from:
/// `$BASH_COMPLETION_USER_DIR/completions`, else
/// `${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions`.
pub fn bash_user_dir() -> Option<std::path::PathBuf> {
    let nonempty = |v: &str| std::env::var_os(v).filter(|x| !x.is_empty());
    let base = nonempty("BASH_COMPLETION_USER_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| nonempty("XDG_DATA_HOME").map(|d| Path::new(&d).join("bash-completion")))
        .or_else(|| nonempty("HOME").map(|h| Path::new(&h).join(".local/share/bash-completion")))?;
    Some(base.join("completions"))
}

/// Returns the prefix `install-docs` uses by default: the folder above the
/// running binary's `bin/` (`~/.cargo` after `cargo install`), where man
/// finds `share/man` through `PATH`; else `~/.local`.
pub fn default_prefix() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?;
    if bin.file_name().is_some_and(|n| n == "bin") {
        return bin.parent().map(Path::to_path_buf);
    }
    crate::settings::read::home_os().map(|h| std::path::PathBuf::from(h).join(".local"))
}

/// Returns the completion script of `shell` for `git-fararoni`.
pub fn completion_script(shell: clap_complete::Shell) -> String {
    let mut cmd = super::command();
    let mut buf = Vec::new();
    if shell != clap_complete::Shell::Bash {
        clap_complete::generate(shell, &mut cmd, "git-fararoni", &mut buf);
        return String::from_utf8_lossy(&buf).into_owned();
    }
    // clap_complete's bash script names its states inconsistently when the
    // program's name holds a `-` (`git__fararoni__subcmd__saga` is set,
    // `git__subcmd__fararoni__subcmd__saga` is handled), so no subcommand
    // ever completes its own subcommands. Generated under a name without
    // one and registered for the real name, it works.
    clap_complete::generate(shell, &mut cmd, BASH_NAME, &mut buf);
    let mut text =
        String::from_utf8_lossy(&buf).replace(&format!(" {BASH_NAME}\n"), " git-fararoni\n");
    text.push_str(GIT_BASH_GLUE);
    text
}
