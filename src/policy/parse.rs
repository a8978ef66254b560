//! Option parsing the way the programs themselves parse: git's
//! parse-options and GNU `getopt_long`. The result keeps every option
//! resolved to its table entry and the canonical argv — full long names,
//! no clusters — which is what is judged and what runs.

use std::fmt;

use super::spec::{Arity, Effect, Opt, Syntax};
use super::Risk;

/// A program's options, as groups shared between tables (git's diff
/// options serve `diff`, `log`, `show`, …).
pub type Table = &'static [&'static [Opt]];

fn all(table: Table) -> impl Iterator<Item = &'static Opt> + Clone {
    table.iter().flat_map(|g| g.iter())
}

/// One option occurrence, resolved to its table entry.
#[derive(Debug, Clone)]
pub struct Given {
    /// The table entry.
    pub opt: &'static Opt,
    /// Its value, when it took one.
    pub value: Option<String>,
    /// Whether it was negated (`--no-force`, or `--verify` for `no-verify`).
    pub negated: bool,
    /// The canonical words that stand for it in the argv.
    pub canonical: String,
}

/// What one program's arguments parse to.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// Options in order.
    pub given: Vec<Given>,
    /// Operands before `--`, in order.
    pub operands: Vec<String>,
    /// Operands after `--`.
    pub paths: Vec<String>,
    /// Whether `--` appeared.
    pub dashdash: bool,
    /// The canonical argv of the arguments (no program name).
    pub argv: Vec<String>,
}

impl Parsed {
    /// Whether the option named `key` (long name or short letter) is in
    /// force: given, and its last occurrence not negated.
    pub fn has(&self, key: &str) -> bool {
        self.given
            .iter()
            .rev()
            .find(|g| g.opt.is(key))
            .is_some_and(|g| !g.negated)
    }

    /// Whether the option was given at all, negated or not.
    pub fn mentions(&self, key: &str) -> bool {
        self.given.iter().any(|g| g.opt.is(key))
    }

    /// Every value given to the option, in order.
    pub fn values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.given
            .iter()
            .filter(move |g| g.opt.is(key) && !g.negated)
            .filter_map(|g| g.value.as_deref())
    }

    /// The option's occurrences since it was last negated (`--no-X`
    /// clears what came before, as git's list options do), each with its
    /// value if it had one.
    pub fn in_force<'a>(&'a self, key: &'a str) -> impl Iterator<Item = Option<&'a str>> + 'a {
        let mine: Vec<&Given> = self.given.iter().filter(|g| g.opt.is(key)).collect();
        let from = mine.iter().rposition(|g| g.negated).map_or(0, |i| i + 1);
        mine.into_iter().skip(from).map(|g| g.value.as_deref())
    }

    /// Operands before and after `--`, in order.
    pub fn all_operands(&self) -> impl Iterator<Item = &String> {
        self.operands.iter().chain(self.paths.iter())
    }

    /// The worst risk an option given (and not negated) raises the command
    /// to, by its table entry: the risk, why, and the option as it runs.
    pub fn raised(&self) -> Option<(Risk, &'static str, &str)> {
        let mut worst: Option<(Risk, &'static str, &str)> = None;
        for g in self.given.iter().filter(|g| !g.negated) {
            let raised = match g.opt.effect {
                Effect::Plain => None,
                Effect::Raise(r, why) => Some((r, why)),
                Effect::Value(check) => g.value.as_deref().and_then(check),
            };
            if let Some((r, why)) = raised {
                if worst.is_none_or(|(w, _, _)| r > w) {
                    worst = Some((r, why, g.canonical.as_str()));
                }
            }
        }
        worst
    }
}

/// Why arguments could not be parsed; the command is not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No entry of the table has this option.
    Unknown(String),
    /// An abbreviation matches several options.
    Ambiguous(String, Vec<String>),
    /// A value-taking option is last.
    MissingValue(String),
    /// A flag was given `=value`.
    UnexpectedValue(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(o) => write!(f, "the option `{o}` is not one the policy knows"),
            ParseError::Ambiguous(o, c) => write!(
                f,
                "the option `{o}` is ambiguous (could be {})",
                c.iter()
                    .map(|c| format!("`--{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ParseError::MissingValue(o) => write!(f, "the option `{o}` needs a value"),
            ParseError::UnexpectedValue(o) => write!(f, "the option `{o}` takes no value"),
        }
    }
}

/// Parses `args` against `table`. `numeric` accepts `-<digits>` (as in
/// `git log -5`, `head -20`) as an operand-like option kept verbatim.
pub fn parse(
    args: &[String],
    table: Table,
    syntax: Syntax,
    numeric: bool,
) -> Result<Parsed, ParseError> {
    parse_from(args, table, syntax, numeric, false).map(|(p, _)| p)
}

/// Parses the options before the first operand (a sub-verb, as in
/// `git notes --ref=x list`); returns them and the operand's index.
pub fn parse_leading(
    args: &[String],
    table: Table,
    syntax: Syntax,
) -> Result<(Parsed, usize), ParseError> {
    parse_from(args, table, syntax, false, true)
}

fn parse_from(
    args: &[String],
    table: Table,
    syntax: Syntax,
    numeric: bool,
    stop_at_operand: bool,
) -> Result<(Parsed, usize), ParseError> {
    let mut p = Parsed::default();
    let mut i = 0;
    let mut end_of_options = false;
    while i < args.len() {
        let a = &args[i];
        if stop_at_operand && (a == "-" || !a.starts_with('-')) {
            return Ok((p, i));
        }
        i += 1;
        if p.dashdash {
            p.paths.push(a.clone());
            p.argv.push(a.clone());
            continue;
        }
        if a == "--" {
            p.dashdash = true;
            p.argv.push(a.clone());
            continue;
        }
        if end_of_options || a == "-" || !a.starts_with('-') {
            p.operands.push(a.clone());
            p.argv.push(a.clone());
            continue;
        }
        if a == "--end-of-options" && matches!(syntax, Syntax::Git { .. }) {
            end_of_options = true;
            p.argv.push(a.clone());
            continue;
        }
        if numeric && a.len() > 1 && a[1..].bytes().all(|b| b.is_ascii_digit()) {
            p.operands.push(a.clone());
            p.argv.push(a.clone());
            continue;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let (opt, negated) = find_long(name, table, syntax)?;
            let value = match (opt.arity, inline, negated) {
                (_, Some(_), true) | (Arity::Flag, Some(_), false) => {
                    return Err(ParseError::UnexpectedValue(a.clone()))
                }
                (Arity::Flag, None, _) | (_, None, true) => None,
                (Arity::Optional, v, false) => v,
                (Arity::Required | Arity::LastDefault, Some(v), false) => Some(v),
                (Arity::Required | Arity::LastDefault, None, false) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.clone())
                    }
                    None if opt.arity == Arity::LastDefault => None,
                    None => return Err(ParseError::MissingValue(a.clone())),
                },
            };
            let shown = if negated {
                match opt.long.strip_prefix("no-") {
                    Some(positive) => format!("--{positive}"),
                    None => format!("--no-{}", opt.long),
                }
            } else {
                format!("--{}", opt.long)
            };
            let canonical = match &value {
                Some(v) => format!("{shown}={v}"),
                None => shown,
            };
            p.argv.push(canonical.clone());
            p.given.push(Given {
                opt,
                value,
                negated,
                canonical,
            });
            continue;
        }
        // A cluster of short options: `-abc`, `-m msg`, `-mmsg`, `-uno`.
        let letters: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while k < letters.len() {
            let c = letters[k];
            k += 1;
            let opt = all(table)
                .find(|o| o.short == c)
                .ok_or_else(|| ParseError::Unknown(format!("-{c}")))?;
            let rest: String = letters[k..].iter().collect();
            let value = match opt.arity {
                Arity::Flag => None,
                Arity::Optional => {
                    k = letters.len();
                    (!rest.is_empty()).then_some(rest)
                }
                Arity::Required | Arity::LastDefault => {
                    k = letters.len();
                    if rest.is_empty() {
                        match args.get(i) {
                            Some(v) => {
                                i += 1;
                                Some(v.clone())
                            }
                            None if opt.arity == Arity::LastDefault => None,
                            None => return Err(ParseError::MissingValue(format!("-{c}"))),
                        }
                    } else {
                        Some(rest)
                    }
                }
            };
            let canonical = format!("-{c}");
            // A value is attached (`-e-n`), so a program that disagreed with
            // the table about the option's arity could never read the value
            // as an option of its own; an empty one cannot be attached.
            match &value {
                Some(v) if v.is_empty() => {
                    p.argv.push(canonical.clone());
                    p.argv.push(String::new());
                }
                Some(v) => p.argv.push(format!("-{c}{v}")),
                None => p.argv.push(canonical.clone()),
            }
            p.given.push(Given {
                opt,
                value,
                negated: false,
                canonical,
            });
        }
    }
    Ok((p, i))
}

/// Resolves a long option name (without dashes) to its entry and whether
/// it is negated, as the program would: exact names first, then (where the
/// syntax allows) unique prefixes, counting `--no-` forms.
fn find_long(name: &str, table: Table, syntax: Syntax) -> Result<(&'static Opt, bool), ParseError> {
    let git = matches!(syntax, Syntax::Git { .. });
    let abbrev = match syntax {
        Syntax::Git { abbrev } => abbrev,
        Syntax::Gnu => true,
    };
    let longs = all(table).filter(|o| !o.long.is_empty());
    // Exact spellings: the name itself, `no-NAME`, and `NAME` for an
    // option whose own name starts with `no-`.
    if let Some(o) = longs.clone().find(|o| o.long == name) {
        return Ok((o, false));
    }
    for o in longs.clone() {
        if git && o.negatable {
            if name.strip_prefix("no-") == Some(o.long) {
                return Ok((o, true));
            }
            if o.long.strip_prefix("no-") == Some(name) {
                return Ok((o, true));
            }
        }
    }
    if !abbrev || name.is_empty() {
        return Err(ParseError::Unknown(format!("--{name}")));
    }
    let mut found: Vec<(&'static Opt, bool)> = Vec::new();
    let mut push = |o: &'static Opt, neg: bool| {
        if !found.iter().any(|(f, n)| std::ptr::eq(*f, o) && *n == neg) {
            found.push((o, neg));
        }
    };
    for o in longs {
        if o.long.starts_with(name) {
            push(o, false);
        }
        if git && o.negatable {
            if format!("no-{}", o.long).starts_with(name) {
                push(o, true);
            }
            if o.long
                .strip_prefix("no-")
                .is_some_and(|p| p.starts_with(name))
            {
                push(o, true);
            }
        }
    }
    match found.as_slice() {
        [] => Err(ParseError::Unknown(format!("--{name}"))),
        [one] => Ok(*one),
        many => {
            // getopt_long: several names for one option are no ambiguity.
            if !git && many.iter().all(|(o, _)| std::ptr::eq(*o, many[0].0)) {
                return Ok(many[0]);
            }
            Err(ParseError::Ambiguous(
                format!("--{name}"),
                many.iter()
                    .map(|(o, neg)| {
                        if *neg {
                            match o.long.strip_prefix("no-") {
                                Some(p) => p.to_string(),
                                None => format!("no-{}", o.long),
                            }
                        } else {
                            o.long.to_string()
                        }
                    })
                    .collect(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::spec::{flag, opt, req};

    static T0: &[Opt] = &[
        flag('n', "dry-run"),
        flag('f', "force"),
        req('e', "exclude"),
        opt('u', "untracked-files"),
        flag('v', "verbose"),
        flag('\0', "no-verify"),
        req('m', "message"),
    ];
    static T: Table = &[T0];
    const GIT: Syntax = Syntax::Git { abbrev: true };

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_required_value_is_taken_whatever_it_looks_like() {
        let p = parse(&v(&["-e", "-n", "-f"]), T, GIT, false).unwrap();
        assert!(p.has("force"));
        assert!(!p.has("dry-run"));
        assert_eq!(p.values("exclude").collect::<Vec<_>>(), ["-n"]);
        assert_eq!(p.argv, v(&["-e-n", "-f"]));
    }

    #[test]
    fn an_optional_value_is_never_the_next_word() {
        let p = parse(&v(&["-u", "-n"]), T, GIT, false).unwrap();
        assert!(p.has("dry-run"));
        let p = parse(&v(&["--untracked-files", "no"]), T, GIT, false).unwrap();
        assert_eq!(p.operands, ["no"]);
        let p = parse(&v(&["-uno"]), T, GIT, false).unwrap();
        assert_eq!(p.values("u").collect::<Vec<_>>(), ["no"]);
        assert_eq!(p.argv, ["-uno"]);
    }

    #[test]
    fn prefixes_of_any_length_are_canonicalised() {
        let p = parse(&v(&["--f", "--dry", "--unt=all"]), T, GIT, false).unwrap();
        assert!(p.has("force") && p.has("dry-run"));
        assert_eq!(p.argv, ["--force", "--dry-run", "--untracked-files=all"]);
        assert!(matches!(
            parse(&v(&["--no-v"]), T, GIT, false),
            Err(ParseError::Ambiguous(..))
        ));
        let p = parse(&v(&["--no-ver"]), T, GIT, false).unwrap_err();
        assert!(matches!(p, ParseError::Ambiguous(..)), "{p}");
        let p = parse(&v(&["--no-veri"]), T, GIT, false).unwrap();
        assert!(p.has("no-verify"));
        let p = parse(&v(&["--verify"]), T, GIT, false).unwrap();
        assert!(!p.has("no-verify") && p.mentions("no-verify"));
        assert!(matches!(
            parse(&v(&["--f"]), T, Syntax::Git { abbrev: false }, false),
            Err(ParseError::Unknown(_))
        ));
    }

    #[test]
    fn clusters_split_and_values_attach() {
        let p = parse(&v(&["-fnmhello", "x"]), T, GIT, false).unwrap();
        assert!(p.has("force") && p.has("dry-run"));
        assert_eq!(p.values("message").collect::<Vec<_>>(), ["hello"]);
        assert_eq!(p.argv, ["-f", "-n", "-mhello", "x"]);
        assert!(matches!(
            parse(&v(&["-x"]), T, GIT, false),
            Err(ParseError::Unknown(_))
        ));
        assert!(matches!(
            parse(&v(&["-m"]), T, GIT, false),
            Err(ParseError::MissingValue(_))
        ));
    }

    #[test]
    fn separators_end_options() {
        let p = parse(&v(&["--end-of-options", "-f", "--", "-n"]), T, GIT, false).unwrap();
        assert!(!p.has("force"));
        assert_eq!(p.operands, ["-f"]);
        assert_eq!(p.paths, ["-n"]);
        let p = parse(&v(&["--force", "--no-force"]), T, GIT, false).unwrap();
        assert!(!p.has("force"));
        assert_eq!(p.argv, ["--force", "--no-force"]);
    }
}
