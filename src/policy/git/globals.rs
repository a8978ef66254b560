//! git's global options (`git [OPTIONS] SUBCOMMAND`), matched exactly as
//! git.c matches them: no abbreviations, values of `-C` and `-c` always the
//! next word.

use super::config;
use crate::policy::{Place, Risk, Verdict};

/// What the global options said.
#[derive(Debug, Default)]
pub struct Globals {
    /// How many words they took.
    pub consumed: usize,
    /// Their canonical words.
    pub canonical: Vec<String>,
    /// Aliases defined with `-c alias.NAME=VALUE`.
    pub aliases: Vec<(String, String)>,
    /// A risk raised by a `-c` key, kept while the subcommand is judged so
    /// its own class (and commit message) still shows.
    pub forced: Option<(Risk, String)>,
    /// A verdict reached without a subcommand (`git --version`).
    pub early: Option<Verdict>,
    /// `git --help ARGS`: where ARGS start (judged as `git help ARGS`).
    pub help_args: Option<usize>,
}

/// Options that take the next word (or `=value` for the long ones).
const WITH_VALUE: &[&str] = &["-C", "-c", "--git-dir", "--work-tree"];

/// Options that change nothing but output or pathspec syntax.
const HARMLESS: &[&str] = &[
    "-p",
    "--paginate",
    "-P",
    "--no-pager",
    "--no-replace-objects",
    "--literal-pathspecs",
    "--no-literal-pathspecs",
    "--glob-pathspecs",
    "--noglob-pathspecs",
    "--icase-pathspecs",
    "--no-optional-locks",
    "--no-lazy-fetch",
    "--no-advice",
];

/// Options that answer without a subcommand.
const INFO: &[&str] = &[
    "--version",
    "-v",
    "--help",
    "-h",
    "--html-path",
    "--man-path",
    "--info-path",
    "--exec-path",
];

/// Parses the global options at the start of `args`, moving `place`.
pub fn parse(args: &[String], place: &mut Place) -> Result<Globals, Verdict> {
    let mut g = Globals::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') {
            break;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        if WITH_VALUE.contains(&name) {
            let value = match inline {
                Some(v) if name.starts_with("--") => v,
                Some(_) => return Err(unknown(a)),
                None => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            return Err(Verdict::unknown(
                                format!("rule git.global: git's option `{name}` needs a value"),
                                Vec::new(),
                            ))
                        }
                    }
                }
            };
            match name {
                "-C" => {
                    if !value.is_empty() {
                        place.dir = place.dir.join(&value);
                    }
                    g.canonical.extend(["-C".to_string(), value]);
                }
                "--git-dir" => {
                    place.git_dir = Some(value.clone());
                    g.canonical.push(format!("--git-dir={value}"));
                }
                "--work-tree" => {
                    place.work_tree = Some(value.clone());
                    g.canonical.push(format!("--work-tree={value}"));
                }
                _ => {
                    // `-c key=value`; a bare `-c key` means true.
                    let (key, val) = value.split_once('=').unwrap_or((value.as_str(), "true"));
                    if let Some((risk, why)) = config::key_refusal(key, val) {
                        if g.forced.as_ref().is_none_or(|(r, _)| risk > *r) {
                            g.forced = Some((risk, why));
                        }
                    }
                    if let Some(alias) = key.to_ascii_lowercase().strip_prefix("alias.") {
                        g.aliases.push((alias.to_string(), val.to_string()));
                    }
                    g.canonical.extend(["-c".to_string(), value]);
                }
            }
            i += 1;
            continue;
        }
        if inline.is_some() {
            // `--exec-path=DIR` moves git's own programs; `--namespace=`,
            // `--super-prefix=`, `--config-env=`, `--attr-source=`,
            // `--list-cmds=` are not for people typing commands.
            return Err(Verdict::new(
                if name == "--exec-path" {
                    Risk::UnsafeShell
                } else {
                    Risk::Destructive
                },
                format!(
                    "rule git.global: `{a}` is not an option the policy allows before a subcommand"
                ),
                Vec::new(),
            ));
        }
        if HARMLESS.contains(&name) {
            g.canonical.push(name.to_string());
            i += 1;
            continue;
        }
        if (name == "--help" || name == "-h") && i + 1 < args.len() {
            // `git --help ARGS` is `git help ARGS`: judged as that.
            g.help_args = Some(i + 1);
            g.consumed = i;
            return Ok(g);
        }
        if INFO.contains(&name) {
            g.early = Some(Verdict::new(
                g.forced.take().map_or(Risk::ReadOnly, |(r, _)| r),
                "rule git.global: prints information about git",
                Vec::new(),
            ));
            g.consumed = i + 1;
            return Ok(g);
        }
        return Err(match name {
            "--bare" | "--namespace" | "--super-prefix" | "--config-env" | "--exec-path"
            | "--attr-source" | "--list-cmds" => Verdict::new(
                Risk::Destructive,
                format!("rule git.global: `{name}` is not an option the policy allows before a subcommand"),
                Vec::new(),
            ),
            _ => unknown(a),
        });
    }
    g.consumed = i;
    Ok(g)
}

fn unknown(a: &str) -> Verdict {
    Verdict::unknown(
        format!("rule git.global: git does not know the option `{a}`"),
        Vec::new(),
    )
}
