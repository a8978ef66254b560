//! `find`'s expression language, read the way GNU findutils 4.9 reads it:
//! leading options (`-H`, `-L`, `-P`, `-D debugopts`, `-Olevel`, `--`),
//! then starting points up to the first word that looks like an
//! expression, then the expression, each primary from an allow-list with
//! the number of arguments find gives it. `-delete`, `-exec`, `-ok`,
//! `-fprint` and their kin change files or run programs and are refused
//! wherever they stand; anything unknown is refused too.

use crate::policy::parse::Parsed;

/// Why a `find` command line is refused.
#[derive(Debug)]
pub enum Refusal {
    /// A word that is not a known primary.
    Unknown(String),
    /// A primary that writes files or runs programs.
    Risky(String, &'static str),
}

/// Leading options without an argument (before the starting points).
const LEADING: &[&str] = &["-H", "-L", "-P"];

/// Primaries, operators and positional options that take no argument.
const NULLARY: &[&str] = &[
    // Positional and global options.
    "-d",
    "-daystart",
    "-depth",
    "-follow",
    "-ignore_readdir_race",
    "-mount",
    "-noignore_readdir_race",
    "-noleaf",
    "-nowarn",
    "-warn",
    "-xdev",
    "-help",
    "--help",
    "-version",
    "--version",
    // Tests.
    "-empty",
    "-executable",
    "-false",
    "-nogroup",
    "-nouser",
    "-readable",
    "-true",
    "-writable",
    // Actions that print to standard output or stop the walk.
    "-ls",
    "-print",
    "-print0",
    "-prune",
    "-quit",
    // Operators.
    "!",
    "-not",
    "-a",
    "-and",
    "-o",
    "-or",
    ",",
    "(",
    ")",
];

/// Primaries and options that take exactly one argument, which is never
/// itself read as a primary (`-name -delete` looks for files so named).
const UNARY: &[&str] = &[
    // Options.
    "-files0-from",
    "-maxdepth",
    "-mindepth",
    "-regextype",
    // Tests.
    "-amin",
    "-anewer",
    "-atime",
    "-cmin",
    "-cnewer",
    "-context",
    "-ctime",
    "-fstype",
    "-gid",
    "-group",
    "-ilname",
    "-iname",
    "-inum",
    "-ipath",
    "-iregex",
    "-iwholename",
    "-links",
    "-lname",
    "-mmin",
    "-mtime",
    "-name",
    "-newer",
    "-path",
    "-perm",
    "-regex",
    "-samefile",
    "-size",
    "-type",
    "-uid",
    "-used",
    "-user",
    "-wholename",
    "-xtype",
    // Prints to standard output with a format.
    "-printf",
];

/// Primaries that write files or run programs, with why.
const RISKY: &[(&str, &str)] = &[
    ("-delete", "deletes every file it matches"),
    ("-exec", "runs a program on the files it matches"),
    ("-execdir", "runs a program on the files it matches"),
    ("-ok", "runs a program on the files it matches"),
    ("-okdir", "runs a program on the files it matches"),
    ("-fls", "creates or truncates the file it is given"),
    ("-fprint", "creates or truncates the file it is given"),
    ("-fprint0", "creates or truncates the file it is given"),
    ("-fprintf", "creates or truncates the file it is given"),
];

/// `-newerXY`: X is the file's time (`a`, `B`, `c`, `m`), Y the
/// reference's (the same, or `t` for a date string).
fn is_newer_xy(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 8
        && word.starts_with("-newer")
        && b"aBcm".contains(&b[6])
        && b"aBcmt".contains(&b[7])
}

/// `-Olevel`: `-O` and a decimal number, in one word.
fn is_optimisation(word: &str) -> bool {
    word.strip_prefix("-O")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether find reads `word`, standing where a starting point may, as the
/// start of the expression: `-x…` (not `-` alone), `!` and `(`. A leading
/// `)` or `,` is a starting point.
fn starts_expression(word: &str) -> bool {
    (word.starts_with('-') && word.len() > 1) || word == "!" || word == "("
}

/// Parses `find ARGS`; the canonical argv is the words as given.
pub fn parse(args: &[String]) -> Result<Parsed, Refusal> {
    let mut p = Parsed {
        argv: args.to_vec(),
        ..Parsed::default()
    };
    let mut i = 0;
    while let Some(a) = args.get(i).map(String::as_str) {
        if LEADING.contains(&a) || is_optimisation(a) {
            i += 1;
        } else if a == "-D" {
            // Debug options only add diagnostics on standard error.
            if i + 1 >= args.len() {
                return Err(Refusal::Unknown("-D (missing its debug options)".into()));
            }
            i += 2;
        } else if a == "--" {
            i += 1;
            break;
        } else {
            break;
        }
    }
    while i < args.len() && !starts_expression(&args[i]) {
        p.operands.push(args[i].clone());
        i += 1;
    }
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if let Some((_, why)) = RISKY.iter().find(|(n, _)| *n == a) {
            return Err(Refusal::Risky(a.to_string(), why));
        }
        if NULLARY.contains(&a) {
            continue;
        }
        if UNARY.contains(&a) || is_newer_xy(a) {
            if i >= args.len() {
                return Err(Refusal::Unknown(format!("{a} (missing its argument)")));
            }
            i += 1;
            continue;
        }
        return Err(Refusal::Unknown(a.to_string()));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{classify_words, Risk};

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    fn read_only(line: &str) {
        let verdict = classify_words(line);
        assert!(!verdict.blocked(), "{line}: {}", verdict.reason);
        assert_eq!(verdict.risk, Risk::ReadOnly, "{line}: {}", verdict.reason);
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(verdict.argv, words, "{line}: the words run as given");
    }

    fn blocked(line: &str) {
        let verdict = classify_words(line);
        assert!(
            verdict.blocked(),
            "{line} must be refused: {}",
            verdict.reason
        );
    }

    #[test]
    fn everyday_find_lines_read_only() {
        for line in [
            "find",
            "find .",
            "find . -name *.rs",
            "find . -iname readme*",
            "find src -type f -name *.toml",
            "find . -type d -empty",
            "find . -maxdepth 2 -type f",
            "find . -mindepth 1 -maxdepth 1 -print",
            "find . -mtime -7 -type f",
            "find . -mmin -30",
            "find . -size +1M -ls",
            "find . -newer Cargo.toml",
            "find . -newermt 2024-01-01",
            "find . -neweraB x",
            "find . -path ./target -prune -o -name *.rs -print",
            "find . ( -name *.rs -o -name *.toml ) -print",
            "find . ! -name *.rs",
            "find . -not -path */.git/*",
            "find . -name *.md -print0",
            "find . -type f -printf %p\\n",
            "find . -regextype posix-extended -regex .*\\.(rs|md)",
            "find . -iregex .*readme.*",
            "find . -perm -644 -user root",
            "find . -links +1 -inum 12",
            "find . -samefile Cargo.toml",
            "find . -executable -type f",
            "find . -readable -writable",
            "find . -xtype l",
            "find . -depth -daystart -mtime 0",
            "find . -xdev -noleaf -ignore_readdir_race",
            "find . -nowarn -name x",
            "find . -name x -quit",
            "find . -name a , -name b",
            "find -L . -type l",
            "find -H src -name x",
            "find -P -O3 . -name x",
            "find -O1 .",
            "find -D tree . -name x",
            "find -- . -name x",
            "find - -maxdepth 0",
            "find ) -maxdepth 0",
            "find . -files0-from list",
            "find src tests -name *.rs",
            "find . -name -delete",
            "find . -path -exec",
            "find . -printf -fprint",
            "find . -newermt -delete",
            "find --help",
            "find -version",
            "find . -used 3 -amin -5 -cmin +2 -atime 1 -ctime 1 -anewer x -cnewer y",
            "find . -group staff -nogroup -nouser -uid 0 -gid 0 -fstype ext4",
            "find . -lname x -ilname y -ipath z -wholename w -iwholename v",
            "find . -context x",
            "find . -true -a -false -and -true -or -false",
        ] {
            read_only(line);
        }
    }

    #[test]
    fn writing_and_running_primaries_are_refused_anywhere() {
        for line in [
            "find . -delete",
            "find . -name *.tmp -delete",
            "find . -name x -o -delete",
            "find . ( -delete )",
            "find . ( -name x -o ( -delete ) )",
            "find . ! -delete",
            "find . -not -delete",
            "find . -name x , -delete",
            "find . -true -or -delete",
            "find -L . -delete",
            "find -D exec . -delete",
            "find -- . -delete",
            "find -delete",
            "find . -exec rm {} ;",
            "find . -exec rm {} +",
            "find . -name x -o -exec rm {} ;",
            "find . -execdir rm {} ;",
            "find . -ok rm {} ;",
            "find . -okdir rm {} ;",
            "find . -fprint out",
            "find . -fprint0 out",
            "find . -fprintf out %p",
            "find . -fls out",
            "find . -name -delete -delete",
            "find . -printf x -delete",
            "find . -newermt x -exec sh -c x ;",
        ] {
            let verdict = classify_words(line);
            assert!(verdict.blocked(), "{line}: {}", verdict.reason);
            assert_eq!(verdict.risk, Risk::UnsafeShell, "{line}");
            assert!(verdict.reason.contains("rule find"), "{}", verdict.reason);
        }
    }

    #[test]
    fn unknown_or_malformed_expressions_are_refused() {
        for line in [
            "find . -frobnicate",
            "find . --delete",
            "find . -Delete",
            "find . -name",
            "find . -newerta x",
            "find . -newertt x",
            "find . -newer",
            "find -D",
            "find -Dtree .",
            "find -O .",
            "find -Ox .",
            "find . -H",
            "find . -name x extra",
            "find . -exec",
            "find . -fprint",
        ] {
            blocked(line);
        }
    }

    #[test]
    fn starting_points_end_where_find_ends_them() {
        let p = parse(&v(&["-L", "a", "-", ")", ",", "b", "-name", "x"])).unwrap();
        assert_eq!(p.operands, ["a", "-", ")", ",", "b"]);
        let p = parse(&v(&["--", "a", "(", "-name", "x", ")"])).unwrap();
        assert_eq!(p.operands, ["a"]);
        let p = parse(&v(&["-D", "opt,rates", "-O2", "src"])).unwrap();
        assert_eq!(p.operands, ["src"]);
        // A starting point that looks like an option starts the expression.
        assert!(matches!(
            parse(&v(&["--", "-delete"])),
            Err(Refusal::Risky(..))
        ));
        assert!(matches!(
            parse(&v(&[".", "-frobnicate"])),
            Err(Refusal::Unknown(_))
        ));
    }
}
