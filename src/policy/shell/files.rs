//! Commands that delete, overwrite or change files: what each would do to
//! which path, read from its options the way GNU parses them (so `-rf`,
//! `-r -f`, `-fr`, `--rec`, `--recursive` are one thing). The judge then
//! asks the repository what that would lose.

use crate::policy::parse::{parse, Parsed, Table};
// One option table per utility: those the level-1 policy also reads live
// there (their raised risks do not matter to a parse).
use crate::policy::spec::{flag, opt, req, Opt, Syntax};
use crate::policy::utils::tables::{GNU, SORT};

/// What a command does to one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Removes it (and everything below when `recursive`).
    Delete {
        /// Directories with everything below.
        recursive: bool,
    },
    /// Replaces or truncates its content.
    Overwrite,
    /// Changes its content in place (`sed -i`).
    Edit,
    /// Appends to it, or creates it; loses nothing.
    Append,
    /// Changes metadata or creates it (`chmod`, `touch`, `mkdir`).
    Touch,
    /// Removes it from where it is, keeping its content elsewhere (the
    /// source of `mv`).
    MoveAway,
    /// Deletes files on another machine (`rsync --delete` to
    /// `host:path`), which no repository here can be asked about.
    Remote,
}

/// One path a command acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOp {
    /// The path as written.
    pub word: String,
    /// What happens to it.
    pub effect: Effect,
    /// For a copy or move into a directory: the name appended when the
    /// destination is an existing directory. For [`Effect::MoveAway`]: the
    /// destination word.
    pub into_dir: Option<String>,
}

const RM: &[Opt] = &[
    flag('f', "force"),
    flag('i', ""),
    flag('I', ""),
    opt('\0', "interactive"),
    flag('\0', "one-file-system"),
    flag('\0', "no-preserve-root"),
    opt('\0', "preserve-root"),
    flag('r', "recursive"),
    flag('R', ""),
    flag('d', "dir"),
    flag('v', "verbose"),
];
const RMDIR: &[Opt] = &[
    flag('\0', "ignore-fail-on-non-empty"),
    flag('p', "parents"),
    flag('v', "verbose"),
];
const TRUNCATE: &[Opt] = &[
    flag('c', "no-create"),
    flag('o', "io-blocks"),
    req('r', "reference"),
    req('s', "size"),
];
const SHRED: &[Opt] = &[
    flag('f', "force"),
    req('n', "iterations"),
    req('\0', "random-source"),
    req('s', "size"),
    opt('u', "remove"),
    flag('v', "verbose"),
    flag('x', "exact"),
    flag('z', "zero"),
];
const MV: &[Opt] = &[
    opt('\0', "backup"),
    flag('b', ""),
    flag('\0', "debug"),
    flag('\0', "exchange"),
    flag('f', "force"),
    flag('i', "interactive"),
    flag('n', "no-clobber"),
    flag('\0', "no-copy"),
    flag('\0', "strip-trailing-slashes"),
    req('S', "suffix"),
    req('t', "target-directory"),
    flag('T', "no-target-directory"),
    opt('\0', "update"),
    flag('u', ""),
    flag('v', "verbose"),
    flag('Z', "context"),
];
const CP: &[Opt] = &[
    flag('a', "archive"),
    flag('\0', "attributes-only"),
    opt('\0', "backup"),
    flag('b', ""),
    flag('\0', "copy-contents"),
    flag('d', ""),
    flag('\0', "debug"),
    flag('f', "force"),
    flag('i', "interactive"),
    flag('H', ""),
    flag('l', "link"),
    flag('L', "dereference"),
    flag('n', "no-clobber"),
    flag('P', "no-dereference"),
    flag('p', ""),
    opt('\0', "preserve"),
    req('\0', "no-preserve"),
    flag('\0', "parents"),
    flag('R', "recursive"),
    flag('r', ""),
    opt('\0', "reflink"),
    flag('\0', "remove-destination"),
    opt('\0', "sparse"),
    flag('\0', "strip-trailing-slashes"),
    flag('s', "symbolic-link"),
    req('S', "suffix"),
    req('t', "target-directory"),
    flag('T', "no-target-directory"),
    opt('\0', "update"),
    flag('u', ""),
    flag('v', "verbose"),
    flag('x', "one-file-system"),
    flag('Z', ""),
    opt('\0', "context"),
];
const LN: &[Opt] = &[
    opt('\0', "backup"),
    flag('b', ""),
    flag('d', "directory"),
    flag('F', ""),
    flag('f', "force"),
    flag('i', "interactive"),
    flag('L', "logical"),
    flag('n', "no-dereference"),
    flag('P', "physical"),
    flag('r', "relative"),
    flag('s', "symbolic"),
    req('S', "suffix"),
    req('t', "target-directory"),
    flag('T', "no-target-directory"),
    flag('v', "verbose"),
];
const INSTALL: &[Opt] = &[
    opt('\0', "backup"),
    flag('b', ""),
    flag('c', ""),
    flag('C', "compare"),
    flag('\0', "debug"),
    flag('d', "directory"),
    flag('D', ""),
    req('g', "group"),
    req('m', "mode"),
    req('o', "owner"),
    flag('p', "preserve-timestamps"),
    flag('s', "strip"),
    req('\0', "strip-program"),
    req('S', "suffix"),
    req('t', "target-directory"),
    flag('T', "no-target-directory"),
    flag('v', "verbose"),
    flag('\0', "preserve-context"),
    flag('Z', ""),
    opt('\0', "context"),
];
const SED: &[Opt] = &[
    flag('n', "quiet"),
    flag('\0', "silent"),
    flag('\0', "debug"),
    req('e', "expression"),
    req('f', "file"),
    flag('\0', "follow-symlinks"),
    opt('i', "in-place"),
    req('l', "line-length"),
    flag('\0', "posix"),
    flag('E', "regexp-extended"),
    flag('r', ""),
    flag('s', "separate"),
    flag('\0', "sandbox"),
    flag('u', "unbuffered"),
    flag('z', "null-data"),
];
const TEE: &[Opt] = &[
    flag('a', "append"),
    flag('i', "ignore-interrupts"),
    flag('p', ""),
    opt('\0', "output-error"),
];
const CHMOD: &[Opt] = &[
    flag('c', "changes"),
    flag('f', "silent"),
    flag('\0', "quiet"),
    flag('v', "verbose"),
    flag('\0', "no-preserve-root"),
    flag('\0', "preserve-root"),
    req('\0', "reference"),
    flag('R', "recursive"),
    flag('h', "no-dereference"),
    flag('\0', "dereference"),
    flag('H', ""),
    flag('L', ""),
    flag('P', ""),
    req('\0', "from"),
];
const TOUCH: &[Opt] = &[
    flag('a', ""),
    flag('c', "no-create"),
    req('d', "date"),
    flag('f', ""),
    flag('h', "no-dereference"),
    flag('m', ""),
    req('r', "reference"),
    req('t', ""),
    req('\0', "time"),
];
const MKDIR: &[Opt] = &[
    req('m', "mode"),
    flag('p', "parents"),
    flag('v', "verbose"),
    flag('Z', ""),
    opt('\0', "context"),
];

fn gnu(args: &[String], table: Table) -> Result<Parsed, String> {
    parse(args, table, Syntax::Gnu, false).map_err(|e| e.to_string())
}

fn ops(words: impl IntoIterator<Item = String>, effect: Effect) -> Vec<FileOp> {
    words
        .into_iter()
        .map(|word| FileOp {
            word,
            effect,
            into_dir: None,
        })
        .collect()
}

/// The file operations of `program args` (all arguments known); `Err`
/// for arguments the guard cannot read (which the judge vetoes).
pub fn file_ops(program: &str, args: &[String]) -> Result<Vec<FileOp>, String> {
    let p;
    Ok(match program {
        "rm" => {
            p = gnu(args, &[RM, GNU])?;
            let recursive = p.has("recursive") || p.has("R");
            ops(p.all_operands().cloned(), Effect::Delete { recursive })
        }
        // rimraf (npm): `rm -rf` of every operand.
        "rimraf" => ops(
            args.iter().filter(|a| !a.starts_with('-')).cloned(),
            Effect::Delete { recursive: true },
        ),
        "rmdir" => {
            p = gnu(args, &[RMDIR, GNU])?;
            ops(p.all_operands().cloned(), Effect::Touch)
        }
        "unlink" => ops(
            args.iter().filter(|a| !a.starts_with("--")).cloned(),
            Effect::Delete { recursive: false },
        ),
        "truncate" => {
            p = gnu(args, &[TRUNCATE, GNU])?;
            ops(p.all_operands().cloned(), Effect::Overwrite)
        }
        "shred" => {
            p = gnu(args, &[SHRED, GNU])?;
            ops(p.all_operands().cloned(), Effect::Overwrite)
        }
        "dd" => ops(
            args.iter()
                .filter_map(|a| a.strip_prefix("of=").map(String::from)),
            Effect::Overwrite,
        ),
        "mv" | "cp" | "install" | "ln" => copy_like(program, args)?,
        "rsync" => rsync(args),
        "sed" => {
            p = gnu(args, &[SED, GNU])?;
            if !p.mentions("in-place") {
                return Ok(Vec::new());
            }
            // `-i.bak` keeps a backup: nothing is lost.
            if p.values("in-place").any(|s| !s.is_empty()) {
                return Ok(ops(
                    p.all_operands()
                        .skip(usize::from(
                            !(p.mentions("expression") || p.mentions("file")),
                        ))
                        .cloned(),
                    Effect::Append,
                ));
            }
            let script_is_operand = !(p.mentions("expression") || p.mentions("file"));
            ops(
                p.all_operands()
                    .skip(usize::from(script_is_operand))
                    .cloned(),
                Effect::Edit,
            )
        }
        "tee" => {
            p = gnu(args, &[TEE, GNU])?;
            let effect = if p.has("append") {
                Effect::Append
            } else {
                Effect::Overwrite
            };
            ops(
                p.all_operands()
                    .filter(|w| *w != "-" && !w.starts_with("/dev/"))
                    .cloned(),
                effect,
            )
        }
        "chmod" | "chown" | "chgrp" => {
            p = gnu(args, &[CHMOD, GNU])?;
            // The first operand is the mode or owner (unless --reference).
            let skip = usize::from(!p.mentions("reference"));
            ops(p.all_operands().skip(skip).cloned(), Effect::Touch)
        }
        "touch" => {
            p = gnu(args, &[TOUCH, GNU])?;
            ops(p.all_operands().cloned(), Effect::Touch)
        }
        "mkdir" => {
            p = gnu(args, &[MKDIR, GNU])?;
            ops(p.all_operands().cloned(), Effect::Touch)
        }
        "sort" => {
            p = gnu(args, &[SORT, GNU])?;
            ops(
                p.values("output").map(String::from).collect::<Vec<_>>(),
                Effect::Overwrite,
            )
        }
        _ => Vec::new(),
    })
}

/// `mv`, `cp`, `install`, `ln`: the destination is overwritten when it
/// exists (unless a backup or no-clobber is asked for); `mv` also takes
/// each source away from where it was.
fn copy_like(program: &str, args: &[String]) -> Result<Vec<FileOp>, String> {
    let table: Table = match program {
        "mv" => &[MV, GNU],
        "cp" => &[CP, GNU],
        "ln" => &[LN, GNU],
        _ => &[INSTALL, GNU],
    };
    let p = gnu(args, table)?;
    if program == "install" && p.has("directory") {
        return Ok(ops(p.all_operands().cloned(), Effect::Touch));
    }
    let mut operands: Vec<String> = p.all_operands().cloned().collect();
    let target_dir = p.values("target-directory").last().map(String::from);
    let dest = match &target_dir {
        Some(d) => d.clone(),
        None if operands.len() >= 2 => operands.pop().unwrap_or_default(),
        // `ln -s TARGET` links into the current directory.
        None if program == "ln" => ".".to_string(),
        None => return Ok(Vec::new()),
    };
    let safe = p.mentions("backup")
        || p.has("b")
        || p.has("no-clobber")
        || (program == "ln" && !(p.has("force") || p.has("remove-destination")));
    let effect = if safe {
        Effect::Touch
    } else {
        Effect::Overwrite
    };
    let mut out = Vec::new();
    let force_dir = target_dir.is_some();
    for src in &operands {
        let name = std::path::Path::new(src.trim_end_matches('/'))
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(FileOp {
            word: dest.clone(),
            effect,
            into_dir: (!p.has("no-target-directory")).then_some(name),
        });
        if program == "mv" {
            out.push(FileOp {
                word: src.clone(),
                effect: Effect::MoveAway,
                into_dir: Some(dest.clone()),
            });
        }
    }
    if force_dir && operands.is_empty() {
        return Ok(Vec::new());
    }
    Ok(out)
}

/// The remote shells `rsync -e CMD` / `--rsh=CMD` names: rsync runs CMD
/// here (then `HOST rsync --server …`), so CMD is a local command line.
pub fn rsync_remote_shells(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        if a == "-e" || a == "--rsh" {
            if let Some(v) = args.get(i) {
                out.push(v.clone());
            }
            i += 1;
        } else if let Some(v) = a.strip_prefix("--rsh=") {
            out.push(v.to_string());
        } else if a.starts_with('-') && !a.starts_with("--") {
            // Bundled short flags: `-ae CMD`, `-e'CMD'`.
            // The first short option that takes a value ends the bundle.
            if let Some(at) = a
                .find(['e', 'f', 'T', 'M', 'B'])
                .filter(|&at| &a[at..=at] == "e")
            {
                let rest = &a[at + 1..];
                if rest.is_empty() {
                    if let Some(v) = args.get(i) {
                        out.push(v.clone());
                    }
                    i += 1;
                } else {
                    out.push(rest.to_string());
                }
            }
        }
    }
    out
}

/// `rsync SRC… DEST`: files in DEST are overwritten; `--delete*` deletes
/// in DEST (on another machine: [`Effect::Remote`]);
/// `--remove-source-files` deletes the local sources; `-n`,
/// `--dry-run`, `--list-only` change nothing.
fn rsync(args: &[String]) -> Vec<FileOp> {
    const WITH_VALUE: &[&str] = &[
        "-e",
        "--rsh",
        "-f",
        "--filter",
        "--exclude",
        "--include",
        "--exclude-from",
        "--include-from",
        "--files-from",
        "-T",
        "--temp-dir",
        "--partial-dir",
        "--log-file",
        "--backup-dir",
        "--suffix",
        "--chmod",
        "--chown",
        "-M",
        "--remote-option",
        "--compare-dest",
        "--copy-dest",
        "--link-dest",
        "--out-format",
        "--password-file",
        "--port",
        "--bwlimit",
        "--timeout",
        "--contimeout",
        "--max-size",
        "--min-size",
        "--max-delete",
        "--modify-window",
        "--iconv",
        "--usermap",
        "--groupmap",
        "--info",
        "--debug",
        "--skip-compress",
        "-B",
        "--block-size",
    ];
    // Short options with a value end a cluster (`-ae ssh`).
    const SHORT_WITH_VALUE: &str = "efTMB";
    let mut operands = Vec::new();
    let mut delete = false;
    let mut remove_sources = false;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            operands.extend(args[i..].iter().cloned());
            break;
        }
        if matches!(a.as_str(), "--dry-run" | "--list-only") {
            return Vec::new();
        }
        if a.starts_with("--delete") || a == "--del" {
            delete = true;
        } else if a == "--remove-source-files" || a == "--remove-sent-files" {
            remove_sources = true;
        } else if WITH_VALUE.contains(&a.as_str()) {
            i += 1;
        } else if let Some(cluster) = a.strip_prefix('-').filter(|c| !c.starts_with('-')) {
            for c in cluster.chars() {
                if c == 'n' {
                    return Vec::new();
                }
                if SHORT_WITH_VALUE.contains(c) {
                    // The value is attached, or the next word.
                    if cluster.ends_with(c) {
                        i += 1;
                    }
                    break;
                }
            }
        } else if !a.starts_with('-') {
            operands.push(a.clone());
        }
    }
    let Some(dest) = operands.pop() else {
        return Vec::new();
    };
    let remote = |w: &str| {
        w.split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
    };
    let mut out: Vec<FileOp> = Vec::new();
    if remove_sources {
        out.extend(operands.iter().filter(|s| !remote(s)).map(|s| FileOp {
            word: s.clone(),
            effect: Effect::Delete { recursive: true },
            into_dir: None,
        }));
    }
    let effect = match (remote(&dest), delete) {
        // Files copied to another machine lose nothing here.
        (true, false) => return out,
        (true, true) => Effect::Remote,
        (false, true) => Effect::Delete { recursive: true },
        (false, false) => Effect::Overwrite,
    };
    out.push(FileOp {
        word: dest,
        effect,
        into_dir: None,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn rm_spellings_are_one_thing() {
        for a in [
            "-rf x",
            "-r -f x",
            "-fr x",
            "--rec x",
            "--recursive --force x",
            "-R x",
            "x -rf",
        ] {
            let o = file_ops("rm", &v(a)).unwrap();
            assert_eq!(o[0].effect, Effect::Delete { recursive: true }, "{a}");
            assert_eq!(o[0].word, "x");
        }
        let o = file_ops("rm", &v("-- -rf")).unwrap();
        assert_eq!(o[0].word, "-rf");
        assert_eq!(o[0].effect, Effect::Delete { recursive: false });
        assert!(file_ops("rm", &v("--bogus x")).is_err());
    }

    #[test]
    fn rsync_reads_dry_runs_sources_and_remote_deletions() {
        for a in [
            "-n -a src/ d/",
            "-avzn src/ d/",
            "--dry-run --delete src/ d/",
            "--list-only src/ d/",
        ] {
            assert!(file_ops("rsync", &v(a)).unwrap().is_empty(), "{a}");
        }
        // `-e` ends a cluster: its value is not a dry run.
        let o = file_ops("rsync", &v("-ae nsh src/ d/")).unwrap();
        assert_eq!(o[0].effect, Effect::Overwrite);
        let o = file_ops("rsync", &v("-a --remove-source-files src/ host:/x/")).unwrap();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].word, "src/");
        assert_eq!(o[0].effect, Effect::Delete { recursive: true });
        let o = file_ops("rsync", &v("-a --delete-after src/ host:/x/")).unwrap();
        assert_eq!(o[0].effect, Effect::Remote);
        assert!(file_ops("rsync", &v("-a src/ host:/x/"))
            .unwrap()
            .is_empty());
        let o = file_ops("rsync", &v("-a --delete src/ ./d:x/")).unwrap();
        assert_eq!(o[0].effect, Effect::Delete { recursive: true });
    }

    #[test]
    fn copies_overwrite_the_destination() {
        let o = file_ops("mv", &v("a b")).unwrap();
        assert_eq!(o[0].word, "b");
        assert_eq!(o[0].effect, Effect::Overwrite);
        assert_eq!(o[1].effect, Effect::MoveAway);
        let o = file_ops("cp", &v("-n a b")).unwrap();
        assert_eq!(o[0].effect, Effect::Touch);
        let o = file_ops("ln", &v("-sf a b")).unwrap();
        assert_eq!(o[0].effect, Effect::Overwrite);
        let o = file_ops("ln", &v("-s a b")).unwrap();
        assert_eq!(o[0].effect, Effect::Touch);
        let o = file_ops("sed", &v("-i s/a/b/ f")).unwrap();
        assert_eq!(o[0].word, "f");
        assert_eq!(o[0].effect, Effect::Edit);
        let o = file_ops("sed", &v("-i.bak s/a/b/ f")).unwrap();
        assert_eq!(o[0].effect, Effect::Append);
        assert!(file_ops("sed", &v("s/a/b/ f")).unwrap().is_empty());
    }
}
