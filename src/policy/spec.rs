//! The shape of the policy's tables: every option a program accepts, how
//! many values it takes, and what it does to the command's risk.
//!
//! Tables are `const` data built with the small constructors below, one line
//! per option, so a reviewer reads them as a list:
//!
//! ```text
//! flag('f', "force").raise(Destructive, "deletes untracked files for good"),
//! req('e', "exclude"),
//! opt('u', "untracked-files"),
//! ```

use super::Risk;

/// How an option takes its value, as its program parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    /// No value: `--all`, `-a`.
    Flag,
    /// A value, attached (`--opt=v`, `-ov`) or as the next word, whatever
    /// it looks like (`--opt v`, `-o v`, `-e -n`).
    Required,
    /// A value only when attached (`--opt=v`, `-ov`); the next word is
    /// never taken.
    Optional,
    /// Like `Required`, but the value may be left out when the option is
    /// the last word (git's `PARSE_OPT_LASTARG_DEFAULT`: `branch --merged`
    /// means `--merged HEAD`).
    LastDefault,
}

/// A check of an option's value: returns a risk and a reason when the
/// value makes the command riskier than its class.
pub type ValueCheck = fn(&str) -> Option<(Risk, &'static str)>;

/// What giving an option does to the command's risk.
#[derive(Debug, Clone, Copy)]
pub enum Effect {
    /// Nothing: the command's own class stands.
    Plain,
    /// Raises the class to at least this risk (when given, not negated).
    Raise(Risk, &'static str),
    /// Decided by the value (checked for every value given).
    Value(ValueCheck),
}

/// One option of a program or git subcommand.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// The long name without dashes; empty for a short-only option.
    pub long: &'static str,
    /// The short letter; `'\0'` for a long-only option.
    pub short: char,
    /// How it takes a value.
    pub arity: Arity,
    /// What it does to the risk.
    pub effect: Effect,
    /// Whether `--no-NAME` (and, for `no-` options, `--NAME`) negates it.
    pub negatable: bool,
}

/// A flag (no value); `short` may be `'\0'`, `long` may be empty.
pub const fn flag(short: char, long: &'static str) -> Opt {
    Opt {
        long,
        short,
        arity: Arity::Flag,
        effect: Effect::Plain,
        negatable: true,
    }
}

/// An option with a required value.
pub const fn req(short: char, long: &'static str) -> Opt {
    Opt {
        arity: Arity::Required,
        ..flag(short, long)
    }
}

/// An option whose value is required unless it is the last word.
pub const fn last(short: char, long: &'static str) -> Opt {
    Opt {
        arity: Arity::LastDefault,
        ..flag(short, long)
    }
}

/// An option whose value is optional and only ever attached.
pub const fn opt(short: char, long: &'static str) -> Opt {
    Opt {
        arity: Arity::Optional,
        ..flag(short, long)
    }
}

impl Opt {
    /// The same option, raising the class to `risk` when given.
    pub const fn raise(self, risk: Risk, why: &'static str) -> Opt {
        Opt {
            effect: Effect::Raise(risk, why),
            ..self
        }
    }

    /// The same option, judged by its value.
    pub const fn value(self, check: ValueCheck) -> Opt {
        Opt {
            effect: Effect::Value(check),
            ..self
        }
    }

    /// The same option, which `--no-` cannot negate.
    pub const fn noneg(self) -> Opt {
        Opt {
            negatable: false,
            ..self
        }
    }

    /// The name used in reasons and lookups: the long name, else `-x`.
    pub fn name(&self) -> String {
        if self.long.is_empty() {
            format!("-{}", self.short)
        } else {
            self.long.to_string()
        }
    }

    /// Whether `key` (a long name, or a one-letter short name) names it.
    pub fn is(&self, key: &str) -> bool {
        if self.long == key {
            return true;
        }
        let mut chars = key.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if self.short != '\0' && c == self.short)
    }
}

/// How a program reads its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// git's parse-options: unique prefixes of any length, `--no-` forms,
    /// optional values only when attached.
    Git {
        /// Whether unique prefixes of long options are accepted (git's
        /// revision and diff options are matched exactly).
        abbrev: bool,
    },
    /// GNU `getopt_long`: unique prefixes, `--opt=v`, permutation.
    Gnu,
}
