//! Utilities (`ls`, `cat`, `find`, …): an allow-list of programs (the
//! catalog's rows with a utility), each with every option it accepts in a
//! table parsed the way GNU `getopt_long` parses (unique prefixes,
//! `--opt=v`, permutation, `--`). A program not listed, or an option not
//! in its program's table, is refused.

mod find;
pub(crate) mod tables;

use super::parse::{self, Parsed, Table};
use super::spec::Syntax;
use super::{catalog, env, Actor, Risk, Verdict};

/// A check of a parsed command line: the risk it raises and why, if any.
pub type Check = fn(&Parsed) -> Option<(Risk, &'static str)>;

/// How a program is judged once its options are parsed.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Reads only.
    Reads,
    /// Decided from the parsed arguments (operands that name an output,
    /// a clock to set, …).
    Decide(Check),
}

/// How a program's arguments are read.
#[derive(Clone, Copy)]
pub enum Style {
    /// GNU `getopt_long`.
    Gnu,
    /// `find`'s own expression language.
    Find,
    /// `echo`: leading `-n`, `-e`, `-E` only; everything else is text.
    Echo,
}

/// How level 1 reads and judges one allowed program (its name is its
/// catalog row's).
#[derive(Clone, Copy)]
pub struct Program {
    /// Every option it accepts.
    pub opts: Table,
    /// How arguments are read.
    pub style: Style,
    /// Whether `-<n>` is an option (`head -5`).
    pub numeric: bool,
    /// How it is judged.
    pub rule: Rule,
    /// A check of the operands made before the rule (an option mistyped
    /// with a dash look-alike), if any.
    pub dashes: Option<Check>,
}

/// A GNU-style program that only reads.
pub const fn reads(opts: Table) -> Program {
    Program {
        opts,
        style: Style::Gnu,
        numeric: false,
        rule: Rule::Reads,
        dashes: None,
    }
}

impl Program {
    /// The same program, judged by `f`.
    pub const fn decide(self, f: Check) -> Program {
        Program {
            rule: Rule::Decide(f),
            ..self
        }
    }

    /// The same program, its operands checked by `f` before its rule.
    pub const fn dashes(self, f: Check) -> Program {
        Program {
            dashes: Some(f),
            ..self
        }
    }

    /// The same program, accepting `-<n>`.
    pub const fn numeric(self) -> Program {
        Program {
            numeric: true,
            ..self
        }
    }

    /// The same program, read with another style.
    pub const fn style(self, style: Style) -> Program {
        Program { style, ..self }
    }
}

/// The program `name`, if level 1 runs it (its catalog row's utility).
pub fn lookup(name: &str) -> Option<&'static Program> {
    catalog::lookup(name).and_then(|e| e.utility.as_ref())
}

/// Whether `program` is on the allow-list.
pub fn is_allowed(program: &str) -> bool {
    lookup(program).is_some()
}

/// Classifies `program ARGS` (not git).
pub fn classify(
    program: &str,
    args: &[String],
    assignments: &[(String, String)],
    _actor: Actor,
) -> Verdict {
    let mut argv = vec![program.to_string()];
    argv.extend(args.iter().cloned());
    let Some(spec) = lookup(program) else {
        return Verdict::new(
            Risk::UnsafeShell,
            format!("rule program: `{program}` is not on the allow-list of programs level 1 runs"),
            argv,
        );
    };
    for (name, value) in assignments {
        if let Some(why) = env::refusal(name, value, false) {
            return Verdict::new(Risk::UnsafeShell, why, argv);
        }
    }
    let rule = format!("rule {program}");
    let parsed = match spec.style {
        Style::Gnu => parse::parse(args, spec.opts, Syntax::Gnu, spec.numeric),
        Style::Find => match find::parse(args) {
            Ok(p) => Ok(p),
            Err(find::Refusal::Unknown(w)) => {
                return Verdict::unknown(
                    format!("{rule}: `{w}` is not a `find` expression the policy knows; run it yourself if you mean it"),
                    argv,
                )
            }
            Err(find::Refusal::Risky(w, why)) => {
                return Verdict::new(Risk::UnsafeShell, format!("{rule}: `{w}` {why}"), argv)
            }
        },
        Style::Echo => Ok(echo(args)),
    };
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => {
            return Verdict::unknown(
                format!("{rule}: {e}; nothing was run — run it yourself if you mean it"),
                argv,
            )
        }
    };
    let mut canonical = vec![program.to_string()];
    canonical.extend(parsed.argv.iter().cloned());
    let mut risk = Risk::ReadOnly;
    let mut reason = format!("{rule}: `{program}` only reads");
    if let Some((r, why, option)) = parsed.raised() {
        if r > risk {
            risk = r;
            reason = format!("{rule}: `{option}` {why}");
        }
    }
    let decide = match spec.rule {
        Rule::Decide(f) => Some(f),
        Rule::Reads => None,
    };
    for f in spec.dashes.into_iter().chain(decide) {
        if let Some((r, why)) = f(&parsed) {
            if r > risk {
                risk = r;
                reason = format!("{rule}: {why}");
            }
        }
    }
    let mut v = Verdict::new(risk, reason, canonical);
    v.env = assignments.to_vec();
    v
}

/// `echo` takes `-n`, `-e`, `-E` (and clusters of them) only before the
/// text; every other word is printed.
fn echo(args: &[String]) -> Parsed {
    let mut p = Parsed::default();
    let mut options = true;
    for a in args {
        let is_opt = options
            && a.len() > 1
            && a.starts_with('-')
            && a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'));
        if !is_opt {
            options = false;
            p.operands.push(a.clone());
        }
        p.argv.push(a.clone());
    }
    p
}
