//! `find`'s expression language: global options, tests and actions, each
//! from an allow-list. `-delete`, `-exec`, `-ok`, `-fprint` and their kin
//! change files or run programs and are refused; anything unknown too.

use crate::policy::parse::Parsed;

/// Why a `find` command line is refused.
#[derive(Debug)]
pub enum Refusal {
    /// A word that is not a known primary.
    Unknown(String),
    /// A primary that writes files or runs programs.
    Risky(String, &'static str),
}

/// Leading options (before the starting points).
const LEADING: &[&str] = &["-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"];

/// Primaries that take no argument.
const NULLARY: &[&str] = &[
    "-depth",
    "-d",
    "-ignore_readdir_race",
    "-noignore_readdir_race",
    "-mount",
    "-xdev",
    "-noleaf",
    "-daystart",
    "-follow",
    "-help",
    "--help",
    "-version",
    "--version",
    "-empty",
    "-executable",
    "-false",
    "-true",
    "-nogroup",
    "-nouser",
    "-readable",
    "-writable",
    "-print",
    "-print0",
    "-ls",
    "-prune",
    "-quit",
    "-not",
    "!",
    "-a",
    "-and",
    "-o",
    "-or",
    ",",
    "(",
    ")",
];

/// Primaries that take one argument.
const UNARY: &[&str] = &[
    "-maxdepth",
    "-mindepth",
    "-regextype",
    "-amin",
    "-anewer",
    "-atime",
    "-cmin",
    "-cnewer",
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
    "-context",
    "-printf",
    "-files0-from",
];

/// Primaries that write files or run programs.
const RISKY: &[(&str, &str)] = &[
    ("-delete", "deletes every file it matches"),
    ("-exec", "runs a program on every file it matches"),
    ("-execdir", "runs a program on every file it matches"),
    ("-ok", "runs a program on every file it matches"),
    ("-okdir", "runs a program on every file it matches"),
    ("-fprint", "writes its output to a file"),
    ("-fprint0", "writes its output to a file"),
    ("-fprintf", "writes its output to a file"),
    ("-fls", "writes its output to a file"),
];

/// Parses `find ARGS`; the canonical argv is the words as given.
pub fn parse(args: &[String]) -> Result<Parsed, Refusal> {
    let mut p = Parsed {
        argv: args.to_vec(),
        ..Parsed::default()
    };
    let mut i = 0;
    while i < args.len() && LEADING.contains(&args[i].as_str()) {
        i += 1;
    }
    // Starting points: words up to the first that starts an expression.
    while i < args.len() {
        let a = args[i].as_str();
        if a.starts_with('-') || a == "!" || a == "(" || a == ")" || a == "," {
            break;
        }
        p.operands.push(a.to_string());
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
        let newer_xy = a.len() == 8
            && a.starts_with("-newer")
            && a[6..].bytes().all(|b| b"aBcmt".contains(&b));
        if UNARY.contains(&a) || newer_xy {
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

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn writing_and_running_primaries_are_refused_anywhere() {
        assert!(parse(&v(&[".", "-name", "*.md"])).is_ok());
        assert!(parse(&v(&["-L", ".", "-type", "f", "-print0"])).is_ok());
        for bad in [
            &[".", "-delete"][..],
            &[".", "-name", "x", "-o", "-exec", "rm", "{}", ";"],
            &[".", "-fprint", "out"],
            &[".", "-name", "-delete", "-delete"],
        ] {
            assert!(matches!(parse(&v(bad)), Err(Refusal::Risky(..))), "{bad:?}");
        }
        // The argument of `-name` is never a primary.
        assert!(parse(&v(&[".", "-name", "-delete"])).is_ok());
        assert!(matches!(
            parse(&v(&[".", "-frobnicate"])),
            Err(Refusal::Unknown(_))
        ));
        assert!(matches!(
            parse(&v(&[".", "-name"])),
            Err(Refusal::Unknown(_))
        ));
    }
}
