//! The allowed programs and every option each accepts, from their GNU
//! `--help` and manuals. Options that write files, run other programs or
//! never end raise the class; anything not listed is refused.

use super::{reads, Program, Style};
use crate::policy::parse::Parsed;
use crate::policy::spec::{flag, opt, req, Opt};
use crate::policy::Risk::{self, UnsafeShell};

const NEVER_ENDS: &str = "follows the file and never ends";
const WRITES: &str = "writes a file";
const RUNS: &str = "runs another program";

const PWD: &[Opt] = &[flag('L', "logical"), flag('P', "physical")];
const CD: &[Opt] = &[flag('L', ""), flag('P', "")];
const ECHO: &[Opt] = &[];

const LS: &[Opt] = &[
    flag('a', "all"),
    flag('A', "almost-all"),
    flag('l', ""),
    flag('h', "human-readable"),
    flag('R', "recursive"),
    flag('t', ""),
    flag('r', "reverse"),
    flag('S', ""),
    flag('1', ""),
    flag('d', "directory"),
    opt('\0', "color"),
];

const CAT: &[Opt] = &[
    flag('A', "show-all"),
    flag('b', "number-nonblank"),
    flag('e', ""),
    flag('E', "show-ends"),
    flag('n', "number"),
    flag('s', "squeeze-blank"),
    flag('t', ""),
    flag('T', "show-tabs"),
    flag('u', ""),
    flag('v', "show-nonprinting"),
];

const HEAD: &[Opt] = &[
    req('c', "bytes"),
    req('n', "lines"),
    flag('q', "quiet"),
    flag('v', "verbose"),
    flag('z', "zero-terminated"),
];

const TAIL: &[Opt] = &[
    req('c', "bytes"),
    opt('\0', "follow").raise(UnsafeShell, NEVER_ENDS),
    flag('f', "").raise(UnsafeShell, NEVER_ENDS),
    flag('F', "").raise(UnsafeShell, NEVER_ENDS),
    req('n', "lines"),
    req('\0', "max-unchanged-stats"),
    req('\0', "pid"),
    flag('q', "quiet"),
    flag('\0', "retry"),
    req('s', "sleep-interval"),
    flag('v', "verbose"),
    flag('z', "zero-terminated"),
];

const WC: &[Opt] = &[
    flag('c', "bytes"),
    flag('m', "chars"),
    flag('l', "lines"),
    req('\0', "files0-from"),
    flag('L', "max-line-length"),
    flag('w', "words"),
    opt('\0', "total"),
];

const SORT: &[Opt] = &[
    flag('b', "ignore-leading-blanks"),
    flag('d', "dictionary-order"),
    flag('f', "ignore-case"),
    flag('g', "general-numeric-sort"),
    flag('i', "ignore-nonprinting"),
    flag('M', "month-sort"),
    flag('h', "human-numeric-sort"),
    flag('n', "numeric-sort"),
    flag('R', "random-sort"),
    flag('r', "reverse"),
    flag('V', "version-sort"),
    req('k', "key"),
    req('t', "field-separator"),
    flag('u', "unique"),
    flag('s', "stable"),
    req('o', "output").raise(UnsafeShell, WRITES),
    req('\0', "compress-program").raise(UnsafeShell, RUNS),
    req('T', "temporary-directory").raise(UnsafeShell, WRITES),
    flag('z', "zero-terminated"),
    flag('c', ""),
    flag('C', ""),
];

const UNIQ: &[Opt] = &[
    flag('c', "count"),
    flag('d', "repeated"),
    flag('D', ""),
    req('f', "skip-fields"),
    flag('i', "ignore-case"),
    req('s', "skip-chars"),
    flag('u', "unique"),
    req('w', "check-chars"),
    flag('z', "zero-terminated"),
];

const DATE: &[Opt] = &[
    req('d', "date"),
    req('f', "file"),
    opt('I', "iso-8601"),
    req('r', "reference"),
    opt('\0', "rfc-3339"),
    flag('R', "rfc-email"),
    req('s', "set").raise(UnsafeShell, "sets the system clock"),
    flag('u', "utc"),
    flag('\0', "debug"),
];

const GREP: &[Opt] = &[
    flag('i', "ignore-case"),
    flag('n', "line-number"),
    flag('r', "recursive"),
    flag('R', "dereference-recursive"),
    flag('l', "files-with-matches"),
    flag('c', "count"),
    flag('v', "invert-match"),
    flag('w', "word-regexp"),
    flag('E', "extended-regexp"),
    flag('F', "fixed-strings"),
    req('e', "regexp"),
    req('\0', "include"),
    req('\0', "exclude"),
    req('\0', "exclude-dir"),
];

/// `uniq INPUT OUTPUT` writes OUTPUT.
fn uniq(p: &Parsed) -> Option<(Risk, &'static str)> {
    (p.all_operands().count() >= 2).then_some((UnsafeShell, "`uniq INPUT OUTPUT` writes OUTPUT"))
}

/// `date MMDDhhmm…` sets the clock; `+FORMAT` only formats.
fn date(p: &Parsed) -> Option<(Risk, &'static str)> {
    p.all_operands().any(|o| !o.starts_with('+')).then_some((
        UnsafeShell,
        "an operand that is not `+FORMAT` sets the system clock",
    ))
}

/// `cd` takes one directory.
fn cd(p: &Parsed) -> Option<(Risk, &'static str)> {
    (p.all_operands().count() > 1).then_some((UnsafeShell, "`cd` takes one directory"))
}

/// `tail -5f` (the obsolete form) follows like `-f`.
fn tail(p: &Parsed) -> Option<(Risk, &'static str)> {
    p.operands
        .iter()
        .any(|o| {
            (o.starts_with('-') || o.starts_with('+'))
                && o.len() > 1
                && o[1..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .contains('f')
        })
        .then_some((UnsafeShell, NEVER_ENDS))
}

/// The allow-list.
pub const PROGRAMS: &[Program] = &[
    reads("pwd", &[PWD]),
    reads("cd", &[CD]).decide(cd),
    reads("echo", &[ECHO]).style(Style::Echo),
    reads("ls", &[LS]),
    reads("cat", &[CAT]),
    reads("head", &[HEAD]).numeric(),
    reads("tail", &[TAIL]).numeric().decide(tail),
    reads("wc", &[WC]),
    reads("sort", &[SORT]),
    reads("uniq", &[UNIQ]).decide(uniq),
    reads("date", &[DATE]).decide(date),
    reads("grep", &[GREP]),
    reads("find", &[]).style(Style::Find),
];

/// The program `name`, if it is allowed.
pub fn lookup(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().find(|p| p.name == name)
}
