//! Every option each allowed program accepts, as the versions on
//! the reference system parse them (Debian 12: GNU coreutils 9.1, grep 3.8,
//! diffutils 3.8, findutils 4.9, file 5.44, tree 2.1.0, ripgrep 13.0.0,
//! util-linux 2.38, procps-ng 4.0, hostname 3.23), taken from `--help`, the
//! manuals and the programs' own option tables, hidden aliases included.
//! Options that write files, run other programs, change the system or
//! never end raise the class; anything not listed is refused.
//!
//! Programs whose parser is not getopt_long are noted at their table: the
//! canonical argv (long names, no clusters, a value as the next word) is
//! read the same way by them, which is what makes a GNU table sound there.

use super::{reads, Program};
use crate::policy::parse::{Parsed, Table};
use crate::policy::spec::{flag, opt, req, Arity, Opt};
use crate::policy::Risk::{self, UnsafeShell};

const NEVER_ENDS: &str = "follows the file and never ends";
const WRITES: &str = "writes to the file it is given";
const RUNS: &str = "runs the program it is given";

/// `--help` and `--version`, which every GNU program accepts.
pub(crate) const GNU: &[Opt] = &[flag('\0', "help"), flag('\0', "version")];

// Shell builtins, carried out by `ask` itself.

pub(crate) const PWD: &[Opt] = &[flag('L', "logical"), flag('P', "physical")];
pub(crate) const CD: &[Opt] = &[flag('L', ""), flag('P', "")];
pub(crate) const ECHO: &[Opt] = &[];

// Files and directories.

pub(crate) const LS: &[Opt] = &[
    flag('a', "all"),
    flag('A', "almost-all"),
    flag('\0', "author"),
    flag('b', "escape"),
    req('\0', "block-size"),
    flag('B', "ignore-backups"),
    flag('c', ""),
    flag('C', ""),
    opt('\0', "color"),
    flag('d', "directory"),
    flag('D', "dired"),
    flag('f', ""),
    // `-F` takes no value; `--classify[=WHEN]` does.
    flag('F', ""),
    opt('\0', "classify"),
    flag('\0', "file-type"),
    req('\0', "format"),
    flag('\0', "full-time"),
    flag('g', ""),
    flag('\0', "group-directories-first"),
    flag('G', "no-group"),
    flag('h', "human-readable"),
    flag('\0', "si"),
    flag('H', "dereference-command-line"),
    flag('\0', "dereference-command-line-symlink-to-dir"),
    req('\0', "hide"),
    opt('\0', "hyperlink"),
    req('\0', "indicator-style"),
    flag('i', "inode"),
    req('I', "ignore"),
    flag('k', "kibibytes"),
    flag('l', ""),
    flag('L', "dereference"),
    flag('m', ""),
    flag('n', "numeric-uid-gid"),
    flag('N', "literal"),
    flag('o', ""),
    flag('p', ""),
    flag('q', "hide-control-chars"),
    flag('\0', "show-control-chars"),
    flag('Q', "quote-name"),
    req('\0', "quoting-style"),
    flag('r', "reverse"),
    flag('R', "recursive"),
    flag('s', "size"),
    flag('S', ""),
    req('\0', "sort"),
    req('\0', "time"),
    req('\0', "time-style"),
    flag('t', ""),
    req('T', "tabsize"),
    flag('u', ""),
    flag('U', ""),
    flag('v', ""),
    req('w', "width"),
    flag('x', ""),
    flag('X', ""),
    flag('Z', "context"),
    flag('\0', "zero"),
    flag('1', ""),
];

/// tree 2.1.0 reads its own options: in a cluster, each value-taking
/// letter (`L P I H T o`) takes the *next word* and the rest of the
/// cluster is more letters (`-Iao x y` is `-I x -a -o y`); long options
/// are exact and take `--opt=v` or `--opt v`. The value letters are listed
/// as attached-only here so the canonical argv keeps tree's own form
/// (`-L 2`, never `-L2`, which tree 2.1.0 rejects); [`tree`] then judges
/// the words that run the way tree reads them.
pub(crate) const TREE: &[Opt] = &[
    flag('a', ""),
    flag('d', ""),
    flag('l', ""),
    flag('f', ""),
    flag('x', ""),
    opt('L', ""),
    flag('R', "").raise(
        UnsafeShell,
        "writes a `00Tree.html` into every directory at the `-L` depth",
    ),
    opt('P', ""),
    opt('I', ""),
    flag('\0', "gitignore"),
    req('\0', "gitfile"),
    flag('\0', "ignore-case"),
    flag('\0', "matchdirs"),
    flag('\0', "metafirst"),
    flag('\0', "prune"),
    flag('\0', "info"),
    req('\0', "infofile"),
    flag('\0', "noreport"),
    req('\0', "charset"),
    req('\0', "filelimit"),
    opt('o', "").raise(UnsafeShell, WRITES),
    flag('q', ""),
    flag('N', ""),
    flag('Q', ""),
    flag('p', ""),
    flag('u', ""),
    flag('g', ""),
    flag('s', ""),
    flag('h', ""),
    flag('\0', "si"),
    flag('\0', "du"),
    flag('D', ""),
    req('\0', "timefmt"),
    flag('F', ""),
    flag('\0', "inodes"),
    flag('\0', "device"),
    flag('v', ""),
    flag('t', ""),
    flag('c', ""),
    flag('U', ""),
    flag('r', ""),
    flag('\0', "dirsfirst"),
    flag('\0', "filesfirst"),
    req('\0', "sort"),
    flag('i', ""),
    flag('A', ""),
    flag('S', ""),
    flag('n', ""),
    flag('C', ""),
    flag('X', ""),
    flag('J', ""),
    opt('H', ""),
    opt('T', ""),
    flag('\0', "nolinks"),
    req('\0', "hintro"),
    req('\0', "houtro"),
    flag('\0', "fromfile"),
    flag('\0', "fflinks"),
    flag('\0', "help"),
    flag('\0', "version"),
];

pub(crate) const DU: &[Opt] = &[
    flag('0', "null"),
    flag('a', "all"),
    flag('\0', "apparent-size"),
    req('B', "block-size"),
    flag('b', "bytes"),
    flag('c', "total"),
    flag('D', "dereference-args"),
    flag('H', ""),
    req('d', "max-depth"),
    req('\0', "files0-from"),
    flag('h', "human-readable"),
    flag('\0', "inodes"),
    flag('k', ""),
    flag('L', "dereference"),
    flag('l', "count-links"),
    flag('m', ""),
    flag('P', "no-dereference"),
    flag('S', "separate-dirs"),
    flag('\0', "si"),
    flag('s', "summarize"),
    req('t', "threshold"),
    opt('\0', "time"),
    req('\0', "time-style"),
    req('X', "exclude-from"),
    req('\0', "exclude"),
    flag('x', "one-file-system"),
];

pub(crate) const DF: &[Opt] = &[
    flag('a', "all"),
    req('B', "block-size"),
    flag('h', "human-readable"),
    flag('H', "si"),
    flag('i', "inodes"),
    flag('k', ""),
    flag('l', "local"),
    flag('m', ""),
    flag('\0', "no-sync"),
    // The columns to show, not a file.
    opt('\0', "output"),
    flag('P', "portability"),
    // Flushes file system buffers before reading usage: changes no data.
    flag('\0', "sync"),
    flag('\0', "total"),
    req('t', "type"),
    req('F', ""),
    flag('T', "print-type"),
    flag('v', ""),
    req('x', "exclude-type"),
];

pub(crate) const STAT: &[Opt] = &[
    flag('L', "dereference"),
    flag('f', "file-system"),
    req('\0', "cached"),
    req('c', "format"),
    req('\0', "printf"),
    flag('t', "terse"),
];

/// file 5.44. `-z` decompresses in process (zlib, bzip2, xz) or feeds the
/// data to `zstd`, `lzip`… on standard input: no file name reaches
/// another program, unlike `rg -z`.
pub(crate) const FILE: &[Opt] = &[
    flag('\0', "help"),
    flag('v', "version"),
    req('m', "magic-file"),
    flag('z', "uncompress"),
    flag('Z', "uncompress-noreport"),
    flag('b', "brief"),
    flag('c', "checking-printout"),
    req('e', "exclude"),
    req('\0', "exclude-quiet"),
    flag('E', ""),
    req('f', "files-from"),
    req('F', "separator"),
    flag('i', "mime"),
    flag('\0', "apple"),
    flag('\0', "extension"),
    flag('\0', "mime-type"),
    flag('\0', "mime-encoding"),
    flag('k', "keep-going"),
    flag('l', "list"),
    flag('L', "dereference"),
    flag('h', "no-dereference"),
    flag('n', "no-buffer"),
    flag('N', "no-pad"),
    flag('0', "print0"),
    // Puts back the access time reading changed; contents are untouched.
    flag('p', "preserve-date"),
    req('P', "parameter"),
    flag('r', "raw"),
    flag('s', "special-files"),
    flag('S', "no-sandbox").raise(
        UnsafeShell,
        "turns off the system-call sandbox around file's parsers of untrusted content",
    ),
    flag('C', "compile").raise(UnsafeShell, "writes a compiled magic file (`*.mgc`)"),
    flag('d', "debug"),
];

pub(crate) const REALPATH: &[Opt] = &[
    flag('e', "canonicalize-existing"),
    flag('m', "canonicalize-missing"),
    flag('L', "logical"),
    flag('P', "physical"),
    flag('q', "quiet"),
    req('\0', "relative-to"),
    req('\0', "relative-base"),
    flag('s', "strip"),
    flag('\0', "no-symlinks"),
    flag('z', "zero"),
];

pub(crate) const READLINK: &[Opt] = &[
    flag('f', "canonicalize"),
    flag('e', "canonicalize-existing"),
    flag('m', "canonicalize-missing"),
    flag('n', "no-newline"),
    flag('q', "quiet"),
    flag('s', "silent"),
    flag('v', "verbose"),
    flag('z', "zero"),
];

pub(crate) const BASENAME: &[Opt] = &[flag('a', "multiple"), req('s', "suffix"), flag('z', "zero")];

pub(crate) const DIRNAME: &[Opt] = &[flag('z', "zero")];

/// debianutils `which`, a shell script: `getopts a`, no long options.
pub(crate) const WHICH: &[Opt] = &[flag('a', "")];

// Reading files.

pub(crate) const CAT: &[Opt] = &[
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

/// `head -5` (the obsolete count) is read by `.numeric()`.
pub(crate) const HEAD: &[Opt] = &[
    req('c', "bytes"),
    req('n', "lines"),
    flag('q', "quiet"),
    flag('\0', "silent"),
    flag('v', "verbose"),
    flag('z', "zero-terminated"),
];

/// `tail -5` and `tail +5` (the obsolete forms) are operands here; the
/// ones that follow (`+5f`) are caught by [`tail`].
pub(crate) const TAIL: &[Opt] = &[
    req('c', "bytes"),
    flag('f', "").raise(UnsafeShell, NEVER_ENDS),
    flag('F', "").raise(UnsafeShell, NEVER_ENDS),
    opt('\0', "follow").raise(UnsafeShell, NEVER_ENDS),
    req('n', "lines"),
    // Only matter while following.
    req('\0', "max-unchanged-stats"),
    req('\0', "pid"),
    flag('\0', "retry"),
    req('s', "sleep-interval"),
    flag('q', "quiet"),
    flag('\0', "silent"),
    flag('v', "verbose"),
    flag('z', "zero-terminated"),
];

pub(crate) const NL: &[Opt] = &[
    req('b', "body-numbering"),
    req('d', "section-delimiter"),
    req('f', "footer-numbering"),
    req('h', "header-numbering"),
    req('i', "line-increment"),
    req('l', "join-blank-lines"),
    req('n', "number-format"),
    flag('p', "no-renumber"),
    req('s', "number-separator"),
    req('v', "starting-line-number"),
    req('w', "number-width"),
];

pub(crate) const WC: &[Opt] = &[
    flag('c', "bytes"),
    flag('m', "chars"),
    flag('l', "lines"),
    flag('\0', "debug"),
    req('\0', "files0-from"),
    flag('L', "max-line-length"),
    flag('w', "words"),
];

/// tac copies a pipe to a temporary file under `$TMPDIR` and removes it,
/// as `sort` does; nothing the user names is written.
pub(crate) const TAC: &[Opt] = &[
    flag('b', "before"),
    flag('r', "regex"),
    req('s', "separator"),
];

/// util-linux `rev`.
pub(crate) const REV: &[Opt] = &[flag('h', "help"), flag('V', "version")];

pub(crate) const OD: &[Opt] = &[
    req('A', "address-radix"),
    req('\0', "endian"),
    req('j', "skip-bytes"),
    req('N', "read-bytes"),
    // `-S BYTES` needs its value; `--strings[=BYTES]` does not.
    req('S', ""),
    opt('\0', "strings"),
    req('t', "format"),
    flag('v', "output-duplicates"),
    opt('w', "width"),
    flag('\0', "traditional"),
    flag('a', ""),
    flag('b', ""),
    flag('B', ""),
    flag('c', ""),
    flag('d', ""),
    flag('D', ""),
    flag('e', ""),
    flag('f', ""),
    flag('F', ""),
    flag('h', ""),
    flag('H', ""),
    flag('i', ""),
    flag('I', ""),
    flag('l', ""),
    flag('L', ""),
    flag('o', ""),
    flag('O', ""),
    flag('s', ""),
    flag('x', ""),
    flag('X', ""),
];

/// util-linux `hexdump`.
pub(crate) const HEXDUMP: &[Opt] = &[
    flag('b', "one-byte-octal"),
    flag('c', "one-byte-char"),
    flag('C', "canonical"),
    flag('d', "two-bytes-decimal"),
    flag('o', "two-bytes-octal"),
    flag('x', "two-bytes-hex"),
    opt('L', "color"),
    req('e', "format"),
    req('f', "format-file"),
    req('n', "length"),
    req('s', "skip"),
    flag('v', "no-squeezing"),
    flag('h', "help"),
    flag('V', "version"),
];

/// `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`,
/// `sha512sum`. `--check` reads the list and the files it names.
pub(crate) const SUMS: &[Opt] = &[
    flag('b', "binary"),
    flag('c', "check"),
    flag('\0', "tag"),
    flag('t', "text"),
    flag('z', "zero"),
    flag('\0', "ignore-missing"),
    flag('\0', "quiet"),
    flag('\0', "status"),
    flag('\0', "strict"),
    flag('w', "warn"),
];

pub(crate) const B2SUM: &[Opt] = &[req('l', "length")];

pub(crate) const CKSUM: &[Opt] = &[
    req('a', "algorithm"),
    flag('c', "check"),
    req('l', "length"),
    flag('\0', "tag"),
    flag('\0', "untagged"),
    flag('z', "zero"),
    flag('\0', "ignore-missing"),
    flag('\0', "quiet"),
    flag('\0', "status"),
    flag('\0', "strict"),
    flag('w', "warn"),
    flag('\0', "debug"),
];

// Searching and comparing.

/// `grep -5` (context) is read by `.numeric()`.
pub(crate) const GREP: &[Opt] = &[
    flag('E', "extended-regexp"),
    flag('F', "fixed-strings"),
    flag('\0', "fixed-regexp"),
    flag('G', "basic-regexp"),
    flag('P', "perl-regexp"),
    // Undocumented: the matcher by name (`grep`, `egrep`, `fgrep`, `perl`).
    req('X', ""),
    req('e', "regexp"),
    req('f', "file"),
    flag('i', "ignore-case"),
    flag('y', ""),
    flag('\0', "no-ignore-case"),
    flag('w', "word-regexp"),
    flag('x', "line-regexp"),
    flag('z', "null-data"),
    flag('s', "no-messages"),
    flag('v', "invert-match"),
    flag('V', "version"),
    flag('\0', "help"),
    req('m', "max-count"),
    flag('b', "byte-offset"),
    flag('n', "line-number"),
    flag('\0', "line-buffered"),
    flag('H', "with-filename"),
    flag('h', "no-filename"),
    req('\0', "label"),
    flag('o', "only-matching"),
    flag('q', "quiet"),
    flag('\0', "silent"),
    req('\0', "binary-files"),
    flag('a', "text"),
    flag('I', ""),
    req('d', "directories"),
    req('D', "devices"),
    flag('r', "recursive"),
    flag('R', "dereference-recursive"),
    req('\0', "include"),
    req('\0', "exclude"),
    req('\0', "exclude-from"),
    req('\0', "exclude-dir"),
    flag('L', "files-without-match"),
    flag('l', "files-with-matches"),
    flag('c', "count"),
    flag('T', "initial-tab"),
    flag('Z', "null"),
    req('B', "before-context"),
    req('A', "after-context"),
    req('C', "context"),
    req('\0', "group-separator"),
    flag('\0', "no-group-separator"),
    opt('\0', "color"),
    opt('\0', "colour"),
    flag('U', "binary"),
    flag('u', "unix-byte-offsets"),
];

/// ripgrep 13 parses with clap 2: exact long names only (no abbreviations),
/// `--opt=v` or `--opt v`, and every `--no-X` is an option of its own.
/// `--pre-glob` only narrows `--pre`, which is refused.
pub(crate) const RG: &[Opt] = &[
    req('A', "after-context"),
    flag('\0', "auto-hybrid-regex"),
    flag('\0', "no-auto-hybrid-regex"),
    req('B', "before-context"),
    flag('\0', "binary"),
    flag('\0', "no-binary"),
    flag('\0', "block-buffered"),
    flag('\0', "no-block-buffered"),
    flag('b', "byte-offset"),
    flag('s', "case-sensitive"),
    req('\0', "color"),
    req('\0', "colors"),
    flag('\0', "column"),
    flag('\0', "no-column"),
    req('C', "context"),
    req('\0', "context-separator"),
    flag('\0', "no-context-separator"),
    flag('c', "count"),
    flag('\0', "count-matches"),
    flag('\0', "crlf"),
    flag('\0', "no-crlf"),
    flag('\0', "debug"),
    flag('\0', "trace"),
    req('\0', "dfa-size-limit"),
    req('E', "encoding"),
    flag('\0', "no-encoding"),
    req('\0', "engine"),
    req('\0', "field-context-separator"),
    req('\0', "field-match-separator"),
    req('f', "file"),
    flag('\0', "files"),
    flag('l', "files-with-matches"),
    flag('\0', "files-without-match"),
    flag('F', "fixed-strings"),
    flag('\0', "no-fixed-strings"),
    flag('L', "follow"),
    flag('\0', "no-follow"),
    req('g', "glob"),
    flag('\0', "glob-case-insensitive"),
    flag('\0', "no-glob-case-insensitive"),
    flag('\0', "heading"),
    flag('\0', "no-heading"),
    flag('h', "help"),
    flag('.', "hidden"),
    flag('\0', "no-hidden"),
    req('\0', "iglob"),
    flag('i', "ignore-case"),
    req('\0', "ignore-file"),
    flag('\0', "ignore-file-case-insensitive"),
    flag('\0', "no-ignore-file-case-insensitive"),
    flag('\0', "include-zero"),
    flag('v', "invert-match"),
    flag('\0', "json"),
    flag('\0', "no-json"),
    flag('\0', "line-buffered"),
    flag('\0', "no-line-buffered"),
    flag('n', "line-number"),
    flag('N', "no-line-number"),
    flag('x', "line-regexp"),
    req('M', "max-columns"),
    flag('\0', "max-columns-preview"),
    flag('\0', "no-max-columns-preview"),
    req('m', "max-count"),
    req('\0', "max-depth"),
    req('\0', "maxdepth"),
    req('\0', "max-filesize"),
    flag('\0', "mmap"),
    flag('\0', "no-mmap"),
    flag('U', "multiline"),
    flag('\0', "no-multiline"),
    flag('\0', "multiline-dotall"),
    flag('\0', "no-multiline-dotall"),
    flag('\0', "no-config"),
    flag('\0', "no-ignore"),
    flag('\0', "ignore"),
    flag('\0', "no-ignore-dot"),
    flag('\0', "ignore-dot"),
    flag('\0', "no-ignore-exclude"),
    flag('\0', "ignore-exclude"),
    flag('\0', "no-ignore-files"),
    flag('\0', "ignore-files"),
    flag('\0', "no-ignore-global"),
    flag('\0', "ignore-global"),
    flag('\0', "no-ignore-messages"),
    flag('\0', "ignore-messages"),
    flag('\0', "no-ignore-parent"),
    flag('\0', "ignore-parent"),
    flag('\0', "no-ignore-vcs"),
    flag('\0', "ignore-vcs"),
    flag('\0', "no-messages"),
    flag('\0', "messages"),
    flag('\0', "no-pcre2-unicode"),
    flag('\0', "pcre2-unicode"),
    flag('\0', "no-require-git"),
    flag('\0', "require-git"),
    flag('\0', "no-unicode"),
    flag('\0', "unicode"),
    flag('0', "null"),
    flag('\0', "null-data"),
    flag('\0', "one-file-system"),
    flag('\0', "no-one-file-system"),
    flag('o', "only-matching"),
    req('\0', "path-separator"),
    flag('\0', "passthru"),
    flag('\0', "passthrough"),
    flag('P', "pcre2"),
    flag('\0', "no-pcre2"),
    flag('\0', "pcre2-version"),
    req('\0', "pre").raise(
        UnsafeShell,
        "runs the program it is given on every file searched",
    ),
    flag('\0', "no-pre"),
    req('\0', "pre-glob"),
    flag('p', "pretty"),
    flag('q', "quiet"),
    req('\0', "regex-size-limit"),
    req('e', "regexp"),
    // Prints the replacement; files are never changed.
    req('r', "replace"),
    // ripgrep hands each compressed file's name, unprotected by `--`, to
    // `gzip`/`xz`/`zstd`/`brotli`…: a planted `-o.zst` becomes their option.
    flag('z', "search-zip").raise(
        UnsafeShell,
        "hands file names to decompression programs, where a planted name becomes their option",
    ),
    flag('\0', "no-search-zip"),
    flag('S', "smart-case"),
    flag('\0', "sort-files"),
    flag('\0', "no-sort-files"),
    req('\0', "sort"),
    req('\0', "sortr"),
    flag('\0', "stats"),
    flag('\0', "no-stats"),
    flag('a', "text"),
    flag('\0', "no-text"),
    req('j', "threads"),
    flag('\0', "trim"),
    flag('\0', "no-trim"),
    req('t', "type"),
    req('\0', "type-add"),
    req('\0', "type-clear"),
    flag('\0', "type-list"),
    req('T', "type-not"),
    flag('u', "unrestricted"),
    flag('V', "version"),
    flag('\0', "vimgrep"),
    flag('H', "with-filename"),
    flag('I', "no-filename"),
    flag('w', "word-regexp"),
];

/// GNU diff has no output file. `-NUM` (context) is read by `.numeric()`.
pub(crate) const DIFF: &[Opt] = &[
    flag('\0', "normal"),
    flag('q', "brief"),
    flag('s', "report-identical-files"),
    flag('c', ""),
    req('C', ""),
    opt('\0', "context"),
    flag('u', ""),
    req('U', ""),
    opt('\0', "unified"),
    flag('e', "ed"),
    flag('f', "forward-ed"),
    flag('n', "rcs"),
    flag('y', "side-by-side"),
    req('W', "width"),
    flag('\0', "left-column"),
    flag('\0', "suppress-common-lines"),
    flag('p', "show-c-function"),
    req('F', "show-function-line"),
    req('L', "label"),
    flag('t', "expand-tabs"),
    flag('T', "initial-tab"),
    req('\0', "tabsize"),
    flag('\0', "suppress-blank-empty"),
    // Pipes the output through `/usr/bin/pr`, a fixed formatter.
    flag('l', "paginate"),
    flag('r', "recursive"),
    flag('\0', "no-dereference"),
    flag('N', "new-file"),
    flag('\0', "unidirectional-new-file"),
    flag('P', ""),
    flag('\0', "ignore-file-name-case"),
    flag('\0', "no-ignore-file-name-case"),
    req('x', "exclude"),
    req('X', "exclude-from"),
    req('S', "starting-file"),
    req('\0', "from-file"),
    req('\0', "to-file"),
    flag('i', "ignore-case"),
    flag('E', "ignore-tab-expansion"),
    flag('Z', "ignore-trailing-space"),
    flag('b', "ignore-space-change"),
    flag('w', "ignore-all-space"),
    flag('B', "ignore-blank-lines"),
    req('I', "ignore-matching-lines"),
    flag('a', "text"),
    flag('\0', "strip-trailing-cr"),
    req('D', "ifdef"),
    req('\0', "old-group-format"),
    req('\0', "new-group-format"),
    req('\0', "unchanged-group-format"),
    req('\0', "changed-group-format"),
    req('\0', "line-format"),
    req('\0', "old-line-format"),
    req('\0', "new-line-format"),
    req('\0', "unchanged-line-format"),
    flag('d', "minimal"),
    req('\0', "horizon-lines"),
    flag('H', "speed-large-files"),
    flag('\0', "inhibit-hunk-merge"),
    flag('\0', "sdiff-merge-assist"),
    flag('\0', "binary"),
    flag('h', ""),
    opt('\0', "color"),
    req('\0', "palette"),
    flag('\0', "help"),
    flag('v', "version"),
];

pub(crate) const CMP: &[Opt] = &[
    flag('b', "print-bytes"),
    flag('c', ""),
    flag('\0', "print-chars"),
    req('i', "ignore-initial"),
    flag('l', "verbose"),
    req('n', "bytes"),
    flag('s', "quiet"),
    flag('\0', "silent"),
    flag('\0', "help"),
    flag('v', "version"),
];

pub(crate) const COMM: &[Opt] = &[
    flag('1', ""),
    flag('2', ""),
    flag('3', ""),
    flag('\0', "check-order"),
    flag('\0', "nocheck-order"),
    req('\0', "output-delimiter"),
    flag('\0', "total"),
    flag('z', "zero-terminated"),
];

/// `-o` is the output *format* (`-o 1.1,2.3`), not a file.
pub(crate) const JOIN: &[Opt] = &[
    req('a', ""),
    req('e', ""),
    flag('i', "ignore-case"),
    req('j', ""),
    req('o', ""),
    req('t', ""),
    req('v', ""),
    req('1', ""),
    req('2', ""),
    flag('\0', "check-order"),
    flag('\0', "nocheck-order"),
    flag('\0', "header"),
    flag('z', "zero-terminated"),
];

// Text filters.

/// sort (also read by the shell judgement for `-o FILE`).
pub(crate) const SORT: &[Opt] = &[
    flag('b', "ignore-leading-blanks"),
    flag('d', "dictionary-order"),
    flag('f', "ignore-case"),
    flag('g', "general-numeric-sort"),
    flag('i', "ignore-nonprinting"),
    flag('M', "month-sort"),
    flag('h', "human-numeric-sort"),
    flag('n', "numeric-sort"),
    flag('R', "random-sort"),
    req('\0', "random-source"),
    flag('r', "reverse"),
    req('\0', "sort"),
    flag('V', "version-sort"),
    req('\0', "batch-size"),
    flag('c', ""),
    flag('C', ""),
    opt('\0', "check"),
    req('\0', "compress-program").raise(UnsafeShell, RUNS),
    flag('\0', "debug"),
    req('\0', "files0-from"),
    req('k', "key"),
    flag('m', "merge"),
    req('o', "output").raise(UnsafeShell, WRITES),
    flag('s', "stable"),
    req('S', "buffer-size"),
    req('t', "field-separator"),
    req('T', "temporary-directory").raise(
        UnsafeShell,
        "writes temporary files into the directory it is given",
    ),
    req('\0', "parallel"),
    flag('u', "unique"),
    flag('z', "zero-terminated"),
    // Ignored, for Solaris scripts (`-y0`).
    opt('y', ""),
];

/// `uniq -2` (skip fields) is read by `.numeric()`; `uniq +3` (skip
/// characters) and the OUTPUT operand by [`uniq`].
pub(crate) const UNIQ: &[Opt] = &[
    flag('c', "count"),
    flag('d', "repeated"),
    flag('D', ""),
    opt('\0', "all-repeated"),
    req('f', "skip-fields"),
    opt('\0', "group"),
    flag('i', "ignore-case"),
    req('s', "skip-chars"),
    flag('u', "unique"),
    req('w', "check-chars"),
    flag('z', "zero-terminated"),
];

pub(crate) const CUT: &[Opt] = &[
    req('b', "bytes"),
    req('c', "characters"),
    req('d', "delimiter"),
    req('f', "fields"),
    flag('n', ""),
    flag('\0', "complement"),
    flag('s', "only-delimited"),
    req('\0', "output-delimiter"),
    flag('z', "zero-terminated"),
];

/// tr reads standard input only; its operands are character sets.
pub(crate) const TR: &[Opt] = &[
    flag('c', "complement"),
    flag('C', ""),
    flag('d', "delete"),
    flag('s', "squeeze-repeats"),
    flag('t', "truncate-set1"),
    // Undocumented: work in the C locale.
    flag('A', ""),
];

/// util-linux `column`.
pub(crate) const COLUMN: &[Opt] = &[
    flag('t', "table"),
    req('n', "table-name"),
    req('O', "table-order"),
    req('N', "table-columns"),
    req('l', "table-columns-limit"),
    req('E', "table-noextreme"),
    flag('d', "table-noheadings"),
    flag('e', "table-header-repeat"),
    flag('\0', "table-empty-lines"),
    req('H', "table-hide"),
    req('R', "table-right"),
    req('T', "table-truncate"),
    req('W', "table-wrap"),
    flag('L', "keep-empty-lines"),
    flag('J', "json"),
    req('r', "tree"),
    req('i', "tree-id"),
    req('p', "tree-parent"),
    req('c', "output-width"),
    req('\0', "columns"),
    req('o', "output-separator"),
    req('s', "separator"),
    flag('x', "fillrows"),
    flag('h', "help"),
    flag('V', "version"),
];

pub(crate) const PASTE: &[Opt] = &[
    req('d', "delimiters"),
    flag('s', "serial"),
    flag('z', "zero-terminated"),
];

/// `fold -80` (the obsolete width) is read by `.numeric()`.
pub(crate) const FOLD: &[Opt] = &[flag('b', "bytes"), flag('s', "spaces"), req('w', "width")];

/// `fmt -72` (the obsolete width) is read by `.numeric()`.
pub(crate) const FMT: &[Opt] = &[
    flag('c', "crown-margin"),
    req('g', "goal"),
    req('p', "prefix"),
    flag('s', "split-only"),
    flag('t', "tagged-paragraph"),
    flag('u', "uniform-spacing"),
    req('w', "width"),
];

/// `expand -4` (the obsolete tab stop) is read by `.numeric()`.
pub(crate) const EXPAND: &[Opt] = &[flag('i', "initial"), req('t', "tabs")];

pub(crate) const UNEXPAND: &[Opt] = &[flag('a', "all"), flag('\0', "first-only"), req('t', "tabs")];

// System information.

pub(crate) const DATE: &[Opt] = &[
    req('d', "date"),
    flag('\0', "debug"),
    req('f', "file"),
    opt('I', "iso-8601"),
    flag('\0', "resolution"),
    flag('R', "rfc-email"),
    flag('\0', "rfc-822"),
    flag('\0', "rfc-2822"),
    req('\0', "rfc-3339"),
    req('r', "reference"),
    req('s', "set").raise(UnsafeShell, "sets the system clock"),
    flag('u', "utc"),
    flag('\0', "universal"),
    flag('\0', "uct"),
];

pub(crate) const WHOAMI: &[Opt] = &[];

pub(crate) const ID: &[Opt] = &[
    flag('a', ""),
    flag('Z', "context"),
    flag('g', "group"),
    flag('G', "groups"),
    flag('n', "name"),
    flag('r', "real"),
    flag('u', "user"),
    flag('z', "zero"),
];

pub(crate) const UNAME: &[Opt] = &[
    flag('a', "all"),
    flag('s', "kernel-name"),
    flag('\0', "sysname"),
    flag('n', "nodename"),
    flag('r', "kernel-release"),
    flag('\0', "release"),
    flag('v', "kernel-version"),
    flag('m', "machine"),
    flag('p', "processor"),
    flag('i', "hardware-platform"),
    flag('o', "operating-system"),
];

/// Debian `hostname` 3.23: prints, unless told a name (operand, `-F`).
pub(crate) const HOSTNAME: &[Opt] = &[
    flag('a', "alias"),
    flag('A', "all-fqdns"),
    flag('b', "boot").raise(UnsafeShell, "sets the host name"),
    flag('d', "domain"),
    flag('f', "fqdn"),
    flag('\0', "long"),
    req('F', "file").raise(UnsafeShell, "sets the host name from the file it is given"),
    flag('h', "help"),
    flag('?', ""),
    flag('i', "ip-address"),
    flag('I', "all-ip-addresses"),
    flag('s', "short"),
    flag('V', "version"),
    flag('y', "yp"),
    flag('\0', "nis"),
];

pub(crate) const NPROC: &[Opt] = &[flag('\0', "all"), req('\0', "ignore")];

/// procps `uptime`.
pub(crate) const UPTIME: &[Opt] = &[
    flag('p', "pretty"),
    flag('s', "since"),
    flag('h', "help"),
    flag('V', "version"),
];

/// procps `free`: `-s N` repeats until `-c` says how often.
pub(crate) const FREE: &[Opt] = &[
    flag('b', "bytes"),
    flag('\0', "kilo"),
    flag('\0', "mega"),
    flag('\0', "giga"),
    flag('\0', "tera"),
    flag('\0', "peta"),
    flag('k', "kibi"),
    flag('m', "mebi"),
    flag('g', "gibi"),
    flag('\0', "tebi"),
    flag('\0', "pebi"),
    flag('h', "human"),
    flag('\0', "si"),
    flag('l', "lohi"),
    flag('t', "total"),
    flag('v', "committed"),
    req('s', "seconds"),
    req('c', "count"),
    flag('w', "wide"),
    flag('\0', "help"),
    flag('V', "version"),
];

/// An operand that starts with a dash look-alike (`—follow`, `－o`, `−n`)
/// is an option mistyped or pasted from a web page: the program would take
/// it for a file name, so it is refused and the mistake is seen. After
/// `--` a word is a file name the user meant.
pub(crate) fn mistyped_dash(p: &Parsed) -> Option<(Risk, &'static str)> {
    p.operands
        .iter()
        .any(|o| o.starts_with(crate::text::lookalike::DASHES))
        .then_some((
            UnsafeShell,
            "a word starts with a dash look-alike (–, —, −, －, ‐): an option mistyped, which the program would read as a file name",
        ))
}

/// A program that only reads; an operand with a mistyped dash is refused
/// (before its own rule, if it has one).
pub(crate) const fn files(opts: Table) -> Program {
    reads(opts).dashes(mistyped_dash)
}

/// Whether `word` is a decimal number with a sign in front (`-2`, `+3`).
fn signed_number(word: &str, sign: char) -> bool {
    word.strip_prefix(sign)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `uniq [INPUT [OUTPUT]]` writes OUTPUT (unless `-`). Before `--`,
/// `-2` skips fields and `+3` skips characters (while the number fits;
/// else it is a file, as uniq reads it). Read on the canonical argv, in
/// order: with `POSIXLY_CORRECT` set, uniq takes *every* word after its
/// first file as OUTPUT (`uniq in -c` writes `-c`), so nothing but a last
/// `-` may follow the input, whichever way the environment reads it.
pub(crate) fn uniq_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    let skip_chars = |w: &str| signed_number(w, '+') && w[1..].parse::<u64>().is_ok();
    let takes_value = |w: &str| {
        let mut letters = w.chars().skip(1);
        matches!((letters.next(), letters.next()), (Some(c), None)
            if UNIQ.iter().any(|o| o.short == c && o.arity == Arity::Required))
    };
    let mut words = p.argv.iter();
    let mut options = true;
    while let Some(w) = words.next() {
        if options && w == "--" {
            options = false;
        } else if options && w.starts_with('-') && w.len() > 1 {
            if takes_value(w) {
                words.next();
            }
        } else if !(options && skip_chars(w)) {
            // `w` is the input; what follows it, if anything, is OUTPUT.
            let rest: Vec<&String> = words.collect();
            return match rest.as_slice() {
                [] => None,
                [stdout] if *stdout == "-" => None,
                _ => Some((
                    UnsafeShell,
                    "`uniq INPUT OUTPUT` writes its result to OUTPUT (any word after INPUT can be OUTPUT)",
                )),
            };
        }
    }
    None
}

/// Reads the words that run the way tree 2.1.0's `main` does: `-o`
/// (output file) and `-R` (`00Tree.html` in every directory) anywhere in a
/// cluster write files; `L P I H T o` each take the next word, even from
/// the middle of a cluster; `--` ends options; long options take their
/// value attached (`--charset=X`) or, for the value-taking ones, the next
/// word.
pub(crate) fn tree_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    const LONG_WITH_VALUE: &[&str] = &[
        "filelimit",
        "charset",
        "timefmt",
        "sort",
        "gitfile",
        "infofile",
        "hintro",
        "houtro",
    ];
    let mut words = p.argv.iter();
    while let Some(w) = words.next() {
        if w == "--" {
            return None;
        }
        let Some(body) = w.strip_prefix('-').filter(|b| !b.is_empty()) else {
            continue;
        };
        if let Some(long) = body.strip_prefix('-') {
            // tree matches these by prefix and takes the next word unless
            // `=` follows the name.
            let takes_next = LONG_WITH_VALUE
                .iter()
                .any(|n| long.strip_prefix(n).is_some_and(|r| !r.starts_with('=')));
            if takes_next {
                words.next();
            }
            continue;
        }
        for c in body.chars() {
            match c {
                'o' => {
                    return Some((
                        UnsafeShell,
                        "tree's `-o` writes its listing to the file it is given",
                    ))
                }
                'R' => {
                    return Some((
                        UnsafeShell,
                        "tree's `-R` writes a `00Tree.html` into every directory at the `-L` depth",
                    ))
                }
                'L' | 'P' | 'I' | 'H' | 'T' => {
                    words.next();
                }
                _ => {}
            }
        }
    }
    None
}

/// `date MMDDhhmm…` sets the clock; `+FORMAT` only formats.
pub(crate) fn date_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    p.all_operands().any(|o| !o.starts_with('+')).then_some((
        UnsafeShell,
        "a `date` operand that is not `+FORMAT` sets the system clock",
    ))
}

/// `cd` takes one directory.
pub(crate) fn cd_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    (p.all_operands().count() > 1).then_some((UnsafeShell, "`cd` takes one directory"))
}

/// `hostname NAME` sets the host name.
pub(crate) fn hostname_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    (p.all_operands().count() > 0).then_some((UnsafeShell, "`hostname NAME` sets the host name"))
}

/// `free -s N` repeats forever unless `-c` bounds it.
pub(crate) fn free_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    (p.has("seconds") && !p.has("count")).then_some((
        UnsafeShell,
        "`free -s` without `-c` repeats forever and never ends",
    ))
}

/// tail's obsolete form, exactly as coreutils' `parse_obsolete_option`
/// reads the words that run: one option word, then at most one file (or
/// `--` and a file); `[+-][N][b|c|l][f]`, where `f` follows forever
/// (`tail +5f log`, `tail +f log`, `tail +5f --`).
fn obsolete_follows(args: &[String]) -> bool {
    let shape_fits = match args {
        [_] => true,
        [_, second] => !(second.starts_with('-') && second.len() > 1) || second == "--",
        [_, second, _] => second == "--",
        _ => false,
    };
    let Some(first) = args.first().filter(|_| shape_fits) else {
        return false;
    };
    let rest = match first.as_bytes() {
        [b'+', rest @ ..] => rest,
        // `-` alone is standard input and `-c` wants its value.
        [b'-', rest @ ..] if rest.get(usize::from(rest.first() == Some(&b'c'))).is_some() => rest,
        _ => return false,
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = &rest[digits..];
    let rest = match rest.first() {
        Some(b'b' | b'c' | b'l') => &rest[1..],
        _ => rest,
    };
    rest == b"f"
}

/// `tail -f`-like forms the option table cannot see: the obsolete
/// `tail +5f`, and `-c f`, whose canonical spelling `-cf` tail reads as
/// "follow" (tail itself rejects `-c f` as a count).
pub(crate) fn tail_rule(p: &Parsed) -> Option<(Risk, &'static str)> {
    (obsolete_follows(&p.argv) || p.values("bytes").any(|v| v == "f")).then_some((
        UnsafeShell,
        "`tail +Nf` (the obsolete form of `-f`) follows the file and never ends",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::catalog;
    use crate::policy::spec::Effect;
    use crate::policy::utils::Style;
    use crate::policy::{classify_words, Verdict};

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    /// `line` reads only and runs as `canonical`.
    fn runs_as(line: &str, canonical: &str) {
        let v = classify_words(line);
        assert!(!v.blocked(), "{line}: refused: {}", v.reason);
        assert_eq!(v.risk, Risk::ReadOnly, "{line}: {}", v.reason);
        assert_eq!(v.argv, words(canonical), "{line}: canonical argv");
    }

    fn refused(line: &str) -> Verdict {
        let v = classify_words(line);
        assert!(v.blocked(), "{line} must be refused: {}", v.reason);
        v
    }

    /// Refused for what it does (not merely as unknown), naming the rule.
    fn raised(line: &str) {
        let v = refused(line);
        assert!(!v.unknown, "{line}: refused only as unknown: {}", v.reason);
        assert_eq!(v.risk, UnsafeShell, "{line}: {}", v.reason);
        let program = line.split_whitespace().next().unwrap_or_default();
        assert!(
            v.reason.starts_with(&format!("rule {program}")),
            "{}",
            v.reason
        );
    }

    #[test]
    fn everyday_lines_read_only_and_run_canonical() {
        for (line, canonical) in [
            ("pwd", "pwd"),
            ("pwd -P", "pwd -P"),
            ("cd src", "cd src"),
            ("cd ..", "cd .."),
            ("cd", "cd"),
            ("ls", "ls"),
            ("ls -la", "ls -l -a"),
            ("ls -lah src", "ls -l -a -h src"),
            ("ls -1", "ls -1"),
            ("ls -ltr", "ls -l -t -r"),
            ("ls --col=auto", "ls --color=auto"),
            ("ls --color", "ls --color"),
            ("ls -I target", "ls -Itarget"),
            ("ls --sort=size -r", "ls --sort=size -r"),
            ("ls --group-dir", "ls --group-directories-first"),
            ("ls -w80", "ls -w80"),
            ("tree", "tree"),
            ("tree -L 2", "tree -L 2"),
            ("tree -aL 2", "tree -a -L 2"),
            ("tree -La 2", "tree -La 2"),
            ("tree -I ao README.md src", "tree -I ao README.md src"),
            ("tree -a -I target", "tree -a -I target"),
            ("tree -d -L 3 src", "tree -d -L 3 src"),
            (
                "tree --dirsfirst --gitignore",
                "tree --dirsfirst --gitignore",
            ),
            ("tree -J --noreport", "tree -J --noreport"),
            ("tree --charset ascii", "tree --charset=ascii"),
            ("du -sh .", "du -s -h ."),
            ("du -h --max-depth=1", "du -h --max-depth=1"),
            ("du -hd1", "du -h -d1"),
            ("df -h", "df -h"),
            ("df -hT .", "df -h -T ."),
            ("df --output=source,size .", "df --output=source,size ."),
            ("stat -c %s Cargo.toml", "stat -c%s Cargo.toml"),
            ("stat --format=%y x", "stat --format=%y x"),
            ("file README.md", "file README.md"),
            ("file -i x", "file -i x"),
            ("file --mime-t x", "file --mime-type x"),
            ("file -z x.gz", "file -z x.gz"),
            (
                "realpath --relative-to=. src",
                "realpath --relative-to=. src",
            ),
            ("readlink -f x", "readlink -f x"),
            ("basename src/main.rs .rs", "basename src/main.rs .rs"),
            ("dirname src/main.rs", "dirname src/main.rs"),
            ("which git", "which git"),
            ("which -a cargo", "which -a cargo"),
            ("cat -n src/lib.rs", "cat -n src/lib.rs"),
            ("cat -A x", "cat -A x"),
            ("cat", "cat"),
            ("head -5 README.md", "head -5 README.md"),
            ("head -n 20 x", "head -n20 x"),
            ("head -c100 x", "head -c100 x"),
            ("tail -n 20 log", "tail -n20 log"),
            ("tail -20 log", "tail -20 log"),
            ("tail +5 log", "tail +5 log"),
            ("tail -n +5 log", "tail -n+5 log"),
            ("tail --lines=3 log", "tail --lines=3 log"),
            ("tail -c 5 f", "tail -c5 f"),
            ("tail +foo", "tail +foo"),
            ("nl -ba x", "nl -ba x"),
            ("wc -l src/main.rs", "wc -l src/main.rs"),
            ("wc --li x", "wc --lines x"),
            ("tac log", "tac log"),
            ("rev x", "rev x"),
            ("od -c x", "od -c x"),
            ("od -An -tx1 x", "od -An -tx1 x"),
            ("hexdump -C x", "hexdump -C x"),
            ("md5sum x", "md5sum x"),
            ("sha256sum -c SUMS", "sha256sum -c SUMS"),
            ("b2sum -l 256 x", "b2sum -l256 x"),
            ("cksum -a sha256 x", "cksum -asha256 x"),
            ("grep -rn TODO src", "grep -r -n TODO src"),
            ("grep -i foo x", "grep -i foo x"),
            ("grep --inc=*.rs -r foo .", "grep --include=*.rs -r foo ."),
            ("grep -e -v x", "grep -e-v x"),
            ("grep -5 foo x", "grep -5 foo x"),
            ("grep -C3 foo x", "grep -C3 foo x"),
            ("grep --color=always foo x", "grep --color=always foo x"),
            ("grep -Eo [0-9]+ x", "grep -E -o [0-9]+ x"),
            ("grep -f patterns x", "grep -fpatterns x"),
            ("grep -d recurse foo .", "grep -drecurse foo ."),
            ("grep --null-data -z foo x", "grep --null-data -z foo x"),
            ("grep -m1 -q foo x", "grep -m1 -q foo x"),
            ("grep --label=stdin -H foo", "grep --label=stdin -H foo"),
            ("rg TODO", "rg TODO"),
            ("rg -n --hidden foo", "rg -n --hidden foo"),
            ("rg -tpy foo", "rg -tpy foo"),
            ("rg --type rust foo", "rg --type=rust foo"),
            ("rg -g *.rs foo", "rg -g*.rs foo"),
            ("rg --files", "rg --files"),
            ("rg --type-list", "rg --type-list"),
            ("rg -S foo", "rg -S foo"),
            ("rg --sort path foo", "rg --sort=path foo"),
            ("rg --json foo", "rg --json foo"),
            ("rg -uuu foo", "rg -u -u -u foo"),
            ("rg --no-ignore-vcs foo", "rg --no-ignore-vcs foo"),
            ("rg -r bar foo", "rg -rbar foo"),
            ("rg -r --pre=sh foo", "rg -r--pre=sh foo"),
            ("rg --pre-glob *.pdf foo", "rg --pre-glob=*.pdf foo"),
            (
                "rg --no-pre --no-search-zip foo",
                "rg --no-pre --no-search-zip foo",
            ),
            ("rg -. foo", "rg -. foo"),
            ("rg -A2 -B 1 foo", "rg -A2 -B1 foo"),
            ("diff -u a b", "diff -u a b"),
            ("diff -ru a b", "diff -r -u a b"),
            ("diff -U3 a b", "diff -U3 a b"),
            ("diff --unified=5 a b", "diff --unified=5 a b"),
            (
                "diff -y --suppress-common a b",
                "diff -y --suppress-common-lines a b",
            ),
            ("diff --brief a b", "diff --brief a b"),
            ("diff --color=always a b", "diff --color=always a b"),
            ("cmp a b", "cmp a b"),
            ("cmp -l a b", "cmp -l a b"),
            ("comm -12 a b", "comm -1 -2 a b"),
            ("join -t, a b", "join -t, a b"),
            ("join -o 1.1 a b", "join -o1.1 a b"),
            ("sort x", "sort x"),
            ("sort --rev x", "sort --reverse x"),
            ("sort -nr x", "sort -n -r x"),
            ("sort -t: -k3,3n x", "sort -t: -k3,3n x"),
            ("sort -u x", "sort -u x"),
            ("sort -h --key=2 x", "sort -h --key=2 x"),
            ("sort --check=quiet x", "sort --check=quiet x"),
            ("uniq x", "uniq x"),
            ("uniq -c x", "uniq -c x"),
            ("uniq -f 1 x", "uniq -f1 x"),
            ("uniq -2 x", "uniq -2 x"),
            ("uniq +3 x", "uniq +3 x"),
            ("uniq x -", "uniq x -"),
            (
                "uniq --all-repeated=separate x",
                "uniq --all-repeated=separate x",
            ),
            ("cut -d: -f1 /etc/passwd", "cut -d: -f1 /etc/passwd"),
            ("cut -c1-10 x", "cut -c1-10 x"),
            ("tr a-z A-Z", "tr a-z A-Z"),
            ("tr -d \\r", "tr -d \\r"),
            ("column -t x", "column -t x"),
            ("column -s, -t x", "column -s, -t x"),
            ("paste -sd, x", "paste -s -d, x"),
            ("fold -w 80 x", "fold -w80 x"),
            ("fold -80 x", "fold -80 x"),
            ("fmt -w 72 x", "fmt -w72 x"),
            ("expand -t 4 x", "expand -t4 x"),
            ("unexpand -a x", "unexpand -a x"),
            ("date", "date"),
            ("date +%Y-%m-%d", "date +%Y-%m-%d"),
            ("date -Iseconds", "date -Iseconds"),
            ("date --iso=ns", "date --iso-8601=ns"),
            ("date -u +%s", "date -u +%s"),
            ("date -d yesterday +%F", "date -dyesterday +%F"),
            ("date -r Cargo.toml", "date -rCargo.toml"),
            ("date -R", "date -R"),
            ("whoami", "whoami"),
            ("id -u", "id -u"),
            ("id -un", "id -u -n"),
            ("uname -a", "uname -a"),
            ("uname -sr", "uname -s -r"),
            ("hostname", "hostname"),
            ("hostname -I", "hostname -I"),
            ("hostname --fqdn", "hostname --fqdn"),
            ("nproc", "nproc"),
            ("nproc --all", "nproc --all"),
            ("uptime -p", "uptime -p"),
            ("free -h", "free -h"),
            ("free -s 1 -c 2", "free -s1 -c2"),
            ("ls --help", "ls --help"),
            ("sort --version", "sort --version"),
            ("sort -- in -o x", "sort -- in -o x"),
        ] {
            runs_as(line, canonical);
        }
    }

    #[test]
    fn echo_only_prints_whatever_it_is_given() {
        for line in [
            "echo hello",
            "echo -n hi",
            "echo -e \\x1b[31mred\\x1b[0m",
            "echo -e \\x1b]52;c;Zm9v\\x07",
            "echo -ne \\0101",
            "echo --output=x -o x",
            "echo -delete; rm -rf /",
            "echo $(rm -rf .)",
        ] {
            runs_as(line, line);
        }
    }

    #[test]
    fn writing_running_and_endless_forms_are_refused_in_every_spelling() {
        for line in [
            // sort writes where it is told, runs compressors, fills a dir.
            "sort -o out in",
            "sort --output=out in",
            "sort --output out in",
            "sort --o out in",
            "sort --ou=out in",
            "sort --outp=x in",
            "sort -ox in",
            "sort -uo x in",
            "sort -ruo x in",
            "sort -ro=x in",
            "sort in -o x",
            "sort --compress-program=sh in",
            "sort --compress-prog=sh in",
            "sort --co sh in",
            "sort -T /tmp in",
            "sort -T/tmp in",
            "sort -uT /tmp in",
            "sort --temporary-directory=/tmp in",
            "sort --te=/tmp in",
            // uniq writes its second file operand.
            "uniq in out",
            "uniq -c in out",
            "uniq -- in out",
            "uniq +3 in out",
            "uniq -2 in out",
            "uniq - out",
            "uniq -- +3 out",
            "uniq in out extra",
            "uniq +99999999999999999999999 out",
            "uniq in -c",
            "uniq in --",
            "uniq in - -c",
            "uniq -c in -f 1",
            // tail never ends when it follows.
            "tail -f log",
            "tail -F log",
            "tail --follow log",
            "tail --follow=name log",
            "tail --fo log",
            "tail --f log",
            "tail -qf log",
            "tail -n5 -f log",
            "tail -f --pid=1 log",
            "tail --retry -F log",
            "tail +5f log",
            "tail +f log",
            "tail +cf log",
            "tail +10lf",
            "tail +5f --",
            "tail +5f -- log",
            "tail -cf log",
            // Attached in the canonical argv, `-c f` runs as `-cf`: follow.
            "tail -c f log",
            "tail -c f",
            // date sets the clock.
            "date -s 2020-01-01",
            "date --set=2020-01-01",
            "date --set 2020-01-01",
            "date --se 2020",
            "date --s=x",
            "date -us x",
            "date -s@0",
            "date 010100002025",
            "date -u 0101",
            "date -- 0101",
            "date +%s 0101",
            // tree writes with -o and -R.
            "tree -o out",
            "tree -oout",
            "tree -ao out",
            "tree -R -L 2",
            "tree -RL 2",
            "tree -L 2 -R",
            "tree -Iao README.md victim",
            "tree -Lo 2 out",
            "tree -PIo a b out",
            "tree -HR base",
            "tree -I x -ao out",
            // ripgrep runs preprocessors and decompressors.
            "rg --pre sh x",
            "rg --pre=sh x",
            "rg --pre=./planted x",
            "rg -z x",
            "rg --search-zip x",
            "rg -iz x",
            // file compiles magic or drops its sandbox.
            "file -C",
            "file -C -m magic",
            "file --compile -m magic",
            "file --comp",
            "file -S x",
            "file --no-sandbox x",
            "file --no-s x",
            // hostname sets the name.
            "hostname evil",
            "hostname -- evil",
            "hostname -s evil",
            "hostname -F name.txt",
            "hostname --file=name.txt",
            "hostname --fi name.txt",
            "hostname -b",
            "hostname --boot",
            "hostname -bF x",
            // free repeats forever without a count.
            "free -s 1",
            "free --seconds=1",
            "free -hs1",
            // cd takes one directory.
            "cd a b",
        ] {
            raised(line);
        }
    }

    #[test]
    fn unknown_programs_options_and_ambiguities_are_refused() {
        for line in [
            "tail -5f log",
            "tail -5F log",
            "head -5c x",
            "ls --frobnicate",
            "ls -y",
            "grep --pre x",
            "sort --ver",
            "sort --ran x",
            "rg --hostname-bin x",
            "rg --pr x",
            "date --r x",
            "hostname --f x",
            "sort -o",
            "tail --follow=name=x --",
            "wc --total=never x",
            "cksum -b x",
            "tree ---o x",
            "which --all git",
            "env ls",
            "xargs rm",
            "less README.md",
            "more README.md",
            "printf %s x",
            "seq inf",
            "yes",
            "xxd in out",
            "tee out",
            "jq . x",
            "ps aux",
            "timeout 1 ls",
            "sh -c ls",
            "/bin/ls",
            "./ls",
            "LS",
        ] {
            refused(line);
        }
    }

    /// A dash look-alike is no option to the program (it reads a file of
    /// that name), but it is one to the person who typed it: refused.
    #[test]
    fn options_typed_with_a_dash_look_alike_are_refused() {
        for line in [
            "sort －o README.md lines.txt",
            "sort −o x in",
            "tail —follow README.md",
            "tail –f log",
            "ls ‐la",
            "cat —n x",
            "rg —pre=sh x",
            "uniq in −c",
            "date —s 0101",
            "pwd —P",
            "cd —",
            "find . —name x",
            "find —delete",
            "hostname —file x",
            "tree ‑o out",
        ] {
            raised(line);
        }
        runs_as("cat -- —notes.txt", "cat -- —notes.txt");
        runs_as("grep -e —x notes", "grep -e—x notes");
        runs_as("echo —hello –world", "echo —hello –world");
    }

    /// A glob in the repository expands to planted file names before the
    /// policy sees the words: they are judged as the options they become.
    #[test]
    fn planted_names_from_a_glob_are_judged_as_options() {
        for line in [
            "sort --output=README.md a b",
            "sort a -oREADME.md b",
            "sort a --compress-program=./x b",
            "uniq a b",
            "tail --follow a b",
            "tail a -F b",
            "tree -o README.md a",
            "tree a -R -L 1",
            "rg foo --pre=./x a",
            "rg foo -z a",
            "file --compile a",
            "hostname -Fa",
            "date a",
        ] {
            raised(line);
        }
        // `--` before the glob keeps every name an operand.
        runs_as(
            "sort -- --output=README.md a",
            "sort -- --output=README.md a",
        );
        runs_as("rg foo -- --pre=./x", "rg foo -- --pre=./x");
        runs_as("cat -- -n --show-all", "cat -- -n --show-all");
    }

    #[test]
    fn obsolete_tail_is_read_the_way_coreutils_reads_it() {
        let follows = |line: &str| obsolete_follows(&words(line));
        for yes in [
            "+5f",
            "+f",
            "+cf",
            "+bf",
            "+lf",
            "+5f log",
            "+5f --",
            "+5f -- log",
            "-f",
            "-cf",
            "-5f",
            "-5lf",
        ] {
            assert!(follows(yes), "{yes}");
        }
        for no in [
            "+5", "+5 log", "-5", "-", "-c", "+foo", "+5f a b", "+5f -n3", "-n f", "-c f", "log",
            "+5fx", "-- +5f", "+5c",
        ] {
            assert!(!follows(no), "{no}");
        }
    }

    /// Every option of every table resolves to itself in its full
    /// spelling, short and long: raised ones are refused, the rest read.
    #[test]
    fn every_table_entry_parses_as_itself() {
        for (name, program) in catalog::utilities().filter(|(_, p)| matches!(p.style, Style::Gnu)) {
            for o in all(program.opts) {
                let raised = matches!(o.effect, Effect::Raise(..));
                let mut spellings = Vec::new();
                if !o.long.is_empty() {
                    let (given, canonical) = match o.arity {
                        Arity::Required => (format!("--{} 1", o.long), format!("--{}=1", o.long)),
                        _ => (format!("--{}", o.long), format!("--{}", o.long)),
                    };
                    spellings.push((given, canonical));
                }
                if o.short != '\0' {
                    let (given, canonical) = match o.arity {
                        Arity::Required => (format!("-{} 1", o.short), format!("-{}1", o.short)),
                        _ => (format!("-{}", o.short), format!("-{}", o.short)),
                    };
                    spellings.push((given, canonical));
                }
                for (given, canonical) in spellings {
                    let line = format!("{} {given}", name);
                    // `free -s` is bounded by `-c` only.
                    let decided = name == "free" && o.long == "seconds";
                    if raised || decided {
                        raised_line(&line);
                    } else {
                        runs_as(&line, &format!("{} {canonical}", name));
                    }
                }
            }
        }
    }

    fn raised_line(line: &str) {
        let v = refused(line);
        assert_eq!(v.risk, UnsafeShell, "{line}: {}", v.reason);
    }

    /// Every prefix of a raising option's long name is either refused as
    /// ambiguous or unknown, or resolves to it and is refused for it.
    #[test]
    fn no_abbreviation_of_a_raising_option_slips_through() {
        for (program, spec) in catalog::utilities().filter(|(_, p)| matches!(p.style, Style::Gnu)) {
            for o in all(spec.opts).filter(|o| matches!(o.effect, Effect::Raise(..))) {
                for end in 1..=o.long.len() {
                    let name = &o.long[..end];
                    for line in [
                        format!("{program} --{name} x y"),
                        format!("{program} --{name}=x y"),
                        format!("{program} y --{name} x"),
                    ] {
                        refused(&line);
                    }
                }
            }
        }
    }

    #[test]
    fn tables_have_one_entry_per_name() {
        let mut seen_programs = Vec::new();
        for (name, program) in catalog::utilities() {
            assert!(!seen_programs.contains(&name), "{}", name);
            seen_programs.push(name);
            let mut longs = Vec::new();
            let mut shorts = Vec::new();
            for o in all(program.opts) {
                assert!(
                    o.long.is_empty() || !longs.contains(&o.long),
                    "{} --{}",
                    name,
                    o.long
                );
                assert!(
                    o.short == '\0' || !shorts.contains(&o.short),
                    "{} -{}",
                    name,
                    o.short
                );
                assert!(
                    !o.long.starts_with('-') && !o.long.contains('='),
                    "{}",
                    o.long
                );
                longs.push(o.long);
                shorts.push(o.short);
            }
        }
    }

    #[test]
    fn refusals_name_the_rule_and_the_option() {
        let v = classify_words("sort --outp=README.md README.md");
        assert_eq!(v.risk, UnsafeShell);
        assert!(
            v.reason.contains("rule sort") && v.reason.contains("`--output=README.md`"),
            "{}",
            v.reason
        );
        assert_eq!(v.argv, words("sort --output=README.md README.md"));
        let v = classify_words("tail +5f log");
        assert!(v.reason.contains("never ends"), "{}", v.reason);
        let v = classify_words("date 0101");
        assert!(v.reason.contains("system clock"), "{}", v.reason);
    }

    #[test]
    fn every_program_is_found_by_name_only() {
        for (name, _) in catalog::utilities() {
            assert!(super::super::lookup(name).is_some());
        }
        let lookup = super::super::lookup;
        assert!(lookup("Ls").is_none() && lookup("ls ").is_none() && lookup("").is_none());
    }

    fn all(table: Table) -> impl Iterator<Item = &'static Opt> {
        table.iter().flat_map(|g| g.iter())
    }
}
