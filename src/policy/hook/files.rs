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
            // `-s +N` and `-s >N` only ever grow a file (with zeros): like
            // an append, nothing is lost. Any other size can cut it.
            let grows = !p.mentions("reference")
                && p.values("size").count() > 0
                && p.values("size").all(|v| v.starts_with(['+', '>']));
            let effect = if grows {
                Effect::Append
            } else {
                Effect::Overwrite
            };
            ops(p.all_operands().cloned(), effect)
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
        "rsync" => rsync(args)?,
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
            ops(p.all_operands().filter(|w| *w != "-").cloned(), effect)
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

/// What a sed script does besides editing its stream (GNU sed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SedDoes {
    /// `w FILE`, `W FILE`, `s///w FILE`: writes (truncates) FILE.
    Writes(String),
    /// `e COMMAND`: runs COMMAND; `None` for `e` alone and `s///e`, which
    /// run the text being edited.
    Runs(Option<String>),
}

/// The writes and commands of `sed ARGS`' inline scripts (`-e`, or the
/// first operand); `--sandbox` refuses them, `-f FILE` is not read (the
/// judge counts sed as writing, so the dirty-set snapshot covers it).
pub fn sed_does(args: &[String]) -> Result<Vec<SedDoes>, String> {
    let p = gnu(args, &[SED, GNU])?;
    if p.has("sandbox") {
        return Ok(Vec::new());
    }
    let scripts: Vec<&str> = if p.mentions("expression") || p.mentions("file") {
        p.values("expression").collect()
    } else {
        p.all_operands().take(1).map(String::as_str).collect()
    };
    let mut out = Vec::new();
    for script in scripts {
        sed_script(script, &mut out);
    }
    Ok(out)
}

/// Walks one sed script: addresses, `!`, then each command and what it
/// takes (text, a label, a file name, `s` and `y` parts and flags).
fn sed_script(script: &str, out: &mut Vec<SedDoes>) {
    let c: Vec<char> = script.chars().collect();
    let mut i = 0;
    let rest_of_line = |i: &mut usize| -> String {
        let start = *i;
        while *i < c.len() && c[*i] != '\n' {
            *i += 1;
        }
        c[start..*i].iter().collect::<String>().trim().to_string()
    };
    // A delimited part (`/re/`, `s|a|b|`): skips to after the closing
    // delimiter, honouring backslash escapes.
    let delimited = |i: &mut usize, d: char| {
        while *i < c.len() && c[*i] != d {
            if c[*i] == '\\' {
                *i += 1;
            }
            *i += 1;
        }
        *i += 1;
    };
    while i < c.len() {
        // Separators and addresses.
        while i < c.len() && (c[i].is_whitespace() || c[i] == ';' || c[i] == '}') {
            i += 1;
        }
        loop {
            while i < c.len()
                && (c[i].is_ascii_digit() || matches!(c[i], '$' | ',' | '~' | '+' | '!' | ' '))
            {
                i += 1;
            }
            if i < c.len() && c[i] == '/' {
                i += 1;
                delimited(&mut i, '/');
            } else if i + 1 < c.len() && c[i] == '\\' {
                let d = c[i + 1];
                i += 2;
                delimited(&mut i, d);
            } else {
                break;
            }
            // Regex address flags (`I`, `M`).
            while i < c.len() && matches!(c[i], 'I' | 'M') {
                i += 1;
            }
        }
        let Some(&cmd) = c.get(i) else {
            break;
        };
        i += 1;
        match cmd {
            '{' => {}
            '#' | ':' | 'a' | 'i' | 'c' | 'r' | 'R' => {
                rest_of_line(&mut i);
            }
            'b' | 't' | 'T' | 'v' => {
                while i < c.len() && !matches!(c[i], ';' | '\n' | '}') {
                    i += 1;
                }
            }
            'w' | 'W' => out.push(SedDoes::Writes(rest_of_line(&mut i))),
            'e' => {
                let line = rest_of_line(&mut i);
                out.push(SedDoes::Runs((!line.is_empty()).then_some(line)));
            }
            's' | 'y' => {
                let Some(&d) = c.get(i) else {
                    break;
                };
                i += 1;
                delimited(&mut i, d);
                delimited(&mut i, d);
                if cmd == 's' {
                    while i < c.len() && !matches!(c[i], ';' | '\n' | '}') {
                        match c[i] {
                            'w' => {
                                i += 1;
                                out.push(SedDoes::Writes(rest_of_line(&mut i)));
                                break;
                            }
                            'e' => out.push(SedDoes::Runs(None)),
                            _ => {}
                        }
                        i += 1;
                    }
                }
            }
            _ => {}
        }
    }
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

/// rsync 3.x's options (`rsync --help` of 3.5.0 and the aliases its
/// option table still accepts). rsync's popt takes no abbreviations; the
/// GNU reading here takes unique prefixes, which only ever reads a word
/// rsync rejects (and then runs nothing) as one it knows. A short option
/// with a value ends a cluster (`-ae CMD`, `-f'- x'`), and a value is the
/// next word whatever it looks like (`--log-file-format -n` is no dry run:
/// confirmed by effect).
const RSYNC: &[Opt] = &[
    flag('v', "verbose"),
    req('\0', "info"),
    req('\0', "debug"),
    req('\0', "stderr"),
    flag('\0', "msgs2stderr"),
    flag('q', "quiet"),
    flag('\0', "no-motd"),
    flag('c', "checksum"),
    flag('a', "archive"),
    flag('r', "recursive"),
    flag('\0', "inc-recursive"),
    flag('\0', "i-r"),
    flag('\0', "no-inc-recursive"),
    flag('\0', "no-i-r"),
    flag('R', "relative"),
    flag('\0', "no-implied-dirs"),
    flag('b', "backup"),
    req('\0', "backup-dir"),
    req('\0', "suffix"),
    flag('u', "update"),
    flag('\0', "inplace"),
    flag('\0', "append"),
    flag('\0', "append-verify"),
    flag('d', "dirs"),
    flag('\0', "old-dirs"),
    flag('\0', "old-d"),
    flag('\0', "mkpath"),
    flag('l', "links"),
    flag('L', "copy-links"),
    flag('\0', "copy-unsafe-links"),
    flag('\0', "safe-links"),
    flag('\0', "insecure-links"),
    req('\0', "confine-root"),
    flag('\0', "munge-links"),
    flag('k', "copy-dirlinks"),
    flag('K', "keep-dirlinks"),
    flag('H', "hard-links"),
    flag('p', "perms"),
    flag('E', "executability"),
    req('\0', "chmod"),
    flag('A', "acls"),
    flag('X', "xattrs"),
    flag('o', "owner"),
    flag('g', "group"),
    flag('\0', "devices"),
    flag('\0', "copy-devices"),
    flag('\0', "write-devices"),
    flag('\0', "specials"),
    flag('D', ""),
    flag('\0', "drop-D"),
    flag('t', "times"),
    flag('U', "atimes"),
    flag('\0', "open-noatime"),
    flag('N', "crtimes"),
    flag('O', "omit-dir-times"),
    flag('J', "omit-link-times"),
    flag('\0', "super"),
    flag('\0', "fake-super"),
    flag('S', "sparse"),
    flag('\0', "preallocate"),
    flag('n', "dry-run"),
    flag('W', "whole-file"),
    flag('\0', "no-whole-file"),
    flag('\0', "no-W"),
    req('\0', "checksum-choice"),
    req('\0', "cc"),
    flag('x', "one-file-system"),
    req('B', "block-size"),
    req('e', "rsh"),
    req('\0', "rsync-path"),
    flag('\0', "existing"),
    flag('\0', "ignore-non-existing"),
    flag('\0', "ignore-existing"),
    flag('\0', "remove-source-files"),
    flag('\0', "remove-sent-files"),
    flag('\0', "del"),
    flag('\0', "delete"),
    flag('\0', "delete-before"),
    flag('\0', "delete-during"),
    flag('\0', "delete-delay"),
    flag('\0', "delete-after"),
    flag('\0', "delete-excluded"),
    flag('\0', "ignore-missing-args"),
    flag('\0', "delete-missing-args"),
    flag('\0', "ignore-errors"),
    flag('\0', "force"),
    req('\0', "max-delete"),
    req('\0', "max-size"),
    req('\0', "min-size"),
    req('\0', "max-alloc"),
    flag('\0', "partial"),
    req('\0', "partial-dir"),
    flag('\0', "delay-updates"),
    flag('m', "prune-empty-dirs"),
    flag('\0', "numeric-ids"),
    req('\0', "usermap"),
    req('\0', "groupmap"),
    req('\0', "chown"),
    req('\0', "timeout"),
    req('\0', "contimeout"),
    flag('I', "ignore-times"),
    flag('\0', "size-only"),
    req('@', "modify-window"),
    req('T', "temp-dir"),
    flag('y', "fuzzy"),
    req('\0', "compare-dest"),
    req('\0', "copy-dest"),
    req('\0', "link-dest"),
    flag('z', "compress"),
    req('\0', "compress-choice"),
    req('\0', "zc"),
    req('\0', "compress-level"),
    req('\0', "zl"),
    req('\0', "compress-threads"),
    req('\0', "skip-compress"),
    flag('C', "cvs-exclude"),
    req('f', "filter"),
    flag('F', ""),
    req('\0', "exclude"),
    req('\0', "exclude-from"),
    req('\0', "include"),
    req('\0', "include-from"),
    req('\0', "files-from"),
    flag('0', "from0"),
    flag('\0', "old-args"),
    flag('s', "secluded-args"),
    flag('\0', "protect-args"),
    flag('\0', "trust-sender"),
    req('\0', "copy-as"),
    req('\0', "address"),
    req('\0', "port"),
    req('\0', "sockopts"),
    flag('\0', "blocking-io"),
    req('\0', "outbuf"),
    flag('\0', "stats"),
    flag('8', "8-bit-output"),
    flag('h', "human-readable"),
    flag('\0', "progress"),
    flag('P', ""),
    flag('i', "itemize-changes"),
    req('M', "remote-option"),
    req('\0', "out-format"),
    req('\0', "log-format"),
    req('\0', "log-file"),
    req('\0', "log-file-format"),
    req('\0', "password-file"),
    req('\0', "early-input"),
    flag('\0', "list-only"),
    req('\0', "bwlimit"),
    req('\0', "stop-after"),
    req('\0', "time-limit"),
    req('\0', "stop-at"),
    flag('\0', "fsync"),
    req('\0', "write-batch"),
    req('\0', "only-write-batch"),
    req('\0', "read-batch"),
    req('\0', "protocol"),
    req('\0', "iconv"),
    req('\0', "checksum-seed"),
    flag('4', "ipv4"),
    flag('6', "ipv6"),
    flag('V', "version"),
    flag('\0', "help"),
];

/// Options `--no-` cannot turn off in rsync: a `--no-` form of these is
/// left for the parse to refuse rather than read as lowering the risk.
const RSYNC_NOT_NEGATED: &[&str] = &["dry-run", "n", "list-only"];

/// What rsync runs besides copying: remote-shell command lines run here
/// (`-e`, `--rsh`), and `--rsync-path` lines run on the remote host
/// through that shell (with `localhost`, here: confirmed by effect).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RsyncRuns {
    /// Command lines run on this machine.
    pub here: Vec<String>,
    /// `(host, command line)` run on another machine.
    pub there: Vec<(String, String)>,
}

/// Reads rsync's arguments: rsync's own `--no-OPTION` forms of flags
/// dropped (they only take away), then the GNU parse of [`RSYNC`].
fn rsync_parse(args: &[String]) -> Result<Parsed, String> {
    let kept: Vec<String> = args
        .iter()
        .take_while(|a| *a != "--")
        .filter(|a| {
            let Some(name) = a.strip_prefix("--no-") else {
                return true;
            };
            let negates_flag = RSYNC.iter().any(|o| {
                o.arity == crate::policy::spec::Arity::Flag
                    && (o.long == name || (name.len() == 1 && name.starts_with(o.short)))
            });
            !negates_flag || RSYNC_NOT_NEGATED.contains(&name)
        })
        .chain(args.iter().skip_while(|a| *a != "--"))
        .cloned()
        .collect();
    gnu(&kept, &[RSYNC])
}

/// Whether an rsync operand names another machine (`host:path`,
/// `user@host:path`, `rsync://`); `./a:b` is a local path.
fn rsync_remote(w: &str) -> bool {
    w.starts_with("rsync://")
        || w.split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// The commands `rsync ARGS` runs besides copying ([`RsyncRuns`]).
pub fn rsync_runs(args: &[String]) -> Result<RsyncRuns, String> {
    let p = rsync_parse(args)?;
    let mut runs = RsyncRuns {
        here: p.values("rsh").map(String::from).collect(),
        there: Vec::new(),
    };
    let host = p
        .all_operands()
        .find(|o| rsync_remote(o) && !o.starts_with("rsync://"))
        .map(|o| o.split_once(':').map(|(h, _)| h).unwrap_or(o).to_string());
    if let Some(host) = host {
        for path in p.values("rsync-path") {
            runs.there.push((host.clone(), path.to_string()));
        }
    }
    Ok(runs)
}

/// `rsync SRC… DEST`: files in DEST are overwritten; `--delete*` deletes
/// in DEST (on another machine: [`Effect::Remote`]);
/// `--remove-source-files` deletes the local sources; `-n`,
/// `--dry-run`, `--list-only` change nothing; `--log-file` and the batch
/// files are written.
fn rsync(args: &[String]) -> Result<Vec<FileOp>, String> {
    let p = rsync_parse(args)?;
    if p.has("dry-run") || p.has("list-only") {
        return Ok(Vec::new());
    }
    let mut out: Vec<FileOp> = ops(
        ["log-file", "write-batch", "only-write-batch"]
            .iter()
            .flat_map(|k| p.values(k).map(String::from).collect::<Vec<_>>()),
        Effect::Overwrite,
    );
    let delete = p.given.iter().any(|g| {
        g.opt.long == "del" || g.opt.long.starts_with("delete") || g.opt.long == "read-batch"
    });
    let remove_sources = p.has("remove-source-files") || p.has("remove-sent-files");
    let mut operands: Vec<String> = p.all_operands().cloned().collect();
    let Some(dest) = operands.pop() else {
        return Ok(out);
    };
    if remove_sources {
        out.extend(
            operands
                .iter()
                .filter(|s| !rsync_remote(s))
                .map(|s| FileOp {
                    word: s.clone(),
                    effect: Effect::Delete { recursive: true },
                    into_dir: None,
                }),
        );
    }
    let effect = match (rsync_remote(&dest), delete) {
        // Files copied to another machine lose nothing here.
        (true, false) => return Ok(out),
        (true, true) => Effect::Remote,
        (false, true) => Effect::Delete { recursive: true },
        (false, false) => Effect::Overwrite,
    };
    out.push(FileOp {
        word: dest,
        effect,
        into_dir: None,
    });
    Ok(out)
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
        // A value is the next word, whatever it looks like: no dry run.
        for a in [
            "-a --delete --log-file-format -n e/ d/",
            "-a --delete --stop-after -n e/ d/",
            "-a --delete -@ -n e/ d/",
            "-a --delete --info -n e/ d/",
            "-a --no-o --delete e/ d/",
        ] {
            let o = file_ops("rsync", &v(a)).unwrap();
            assert_eq!(o[0].effect, Effect::Delete { recursive: true }, "{a}");
        }
        // rsync has no `--no-dry-run`: not read as lifting `-n`.
        assert!(file_ops("rsync", &v("-n --no-dry-run --delete e/ d/")).is_err());
        let o = file_ops("rsync", &v("--log-file=src/app.py a b/")).unwrap();
        assert_eq!(o[0].word, "src/app.py");
        let r = rsync_runs(&v("-rave x a host:b --rsync-path=y")).unwrap();
        assert_eq!(r.here, ["x"]);
        assert_eq!(r.there, [("host".to_string(), "y".to_string())]);
        // Locally, --rsync-path runs nothing.
        assert!(rsync_runs(&v("--rsync-path=y a b"))
            .unwrap()
            .there
            .is_empty());
    }

    #[test]
    fn sed_scripts_that_write_or_run_are_read() {
        let d =
            |a: &[&str]| sed_does(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        assert_eq!(
            d(&["-n", "w out.txt", "f"]),
            [SedDoes::Writes("out.txt".into())]
        );
        assert_eq!(d(&["1W a b", "f"]), [SedDoes::Writes("a b".into())]);
        assert_eq!(d(&["s/a/b/gw x", "f"]), [SedDoes::Writes("x".into())]);
        assert_eq!(
            d(&["-e", "s|w|e|", "-e", "1e rm -rf src", "f"]),
            [SedDoes::Runs(Some("rm -rf src".into()))]
        );
        assert_eq!(d(&["s/.*/ls/e", "f"]), [SedDoes::Runs(None)]);
        assert_eq!(
            d(&["/x/,/y/ { /z/!w o\n}", "f"]),
            [SedDoes::Writes("o".into())]
        );
        // Words in patterns, replacements, text and labels are no commands.
        for s in [
            "s/hello world/bye/g",
            "/we/d",
            "s/e/w/",
            "1i\\ write me",
            "y/ew/we/",
            ":w\nb w",
            "$!N;s/\\n/ /",
            "\\,w,d",
        ] {
            assert!(d(&[s, "f"]).is_empty(), "{s}");
        }
        assert!(d(&["--sandbox", "w x", "f"]).is_empty());
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
