//! A small getopt-style reader for the arguments of one git subcommand.
//!
//! It only needs to be exact enough to find the flags that change a
//! command's risk, so it errs on the side of seeing a dangerous flag.

/// The options and operands of one subcommand invocation.
#[derive(Debug, Default, Clone)]
pub struct Opts {
    /// Short flags, one entry per letter (`-fd` gives `f` and `d`).
    pub shorts: Vec<char>,
    /// Long flags as written, without dashes and without `=value`.
    pub longs: Vec<String>,
    /// Values given to options that take one, keyed by the option as
    /// written (`m` for `-m`, `message` for `--message`).
    pub values: Vec<(String, String)>,
    /// Operands that are not options.
    pub operands: Vec<String>,
    /// Whether a `--` separator appeared.
    pub dashdash: bool,
    /// Operands that came after `--`.
    pub paths: Vec<String>,
}

impl Opts {
    /// Parses `args`; `short_values` lists the short options that take a
    /// value and `long_values` the long ones.
    pub fn parse(args: &[String], short_values: &str, long_values: &[&str]) -> Opts {
        let mut o = Opts::default();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            if o.dashdash {
                o.paths.push(a.clone());
                continue;
            }
            if a == "--" {
                o.dashdash = true;
                continue;
            }
            if let Some(long) = a.strip_prefix("--") {
                match long.split_once('=') {
                    Some((name, value)) => {
                        o.longs.push(name.to_string());
                        o.values.push((name.to_string(), value.to_string()));
                    }
                    None => {
                        o.longs.push(long.to_string());
                        let takes = long_values
                            .iter()
                            .any(|full| long.len() >= 3 && full.starts_with(long));
                        if takes && i < args.len() {
                            o.values.push((long.to_string(), args[i].clone()));
                            i += 1;
                        }
                    }
                }
                continue;
            }
            if a.len() > 1 && a.starts_with('-') && !is_number(&a[1..]) {
                let letters: Vec<char> = a[1..].chars().collect();
                for (k, &c) in letters.iter().enumerate() {
                    o.shorts.push(c);
                    if short_values.contains(c) {
                        let rest: String = letters[k + 1..].iter().collect();
                        if !rest.is_empty() {
                            o.values.push((c.to_string(), rest));
                        } else if i < args.len() {
                            o.values.push((c.to_string(), args[i].clone()));
                            i += 1;
                        }
                        break;
                    }
                }
                continue;
            }
            o.operands.push(a.clone());
        }
        o
    }

    /// True when short flag `c` was given.
    pub fn short(&self, c: char) -> bool {
        self.shorts.contains(&c)
    }

    /// True when a long flag abbreviating `full` was given (git accepts any
    /// unambiguous prefix of a long option).
    pub fn long(&self, full: &str) -> bool {
        self.longs
            .iter()
            .any(|l| l == full || (l.len() >= 3 && full.starts_with(l.as_str())))
    }

    /// True when either the short flag or the long flag was given.
    pub fn flag(&self, short: char, full: &str) -> bool {
        self.short(short) || self.long(full)
    }

    /// All values given to an option, in order.
    pub fn values_of<'a>(&'a self, names: &'a [&'a str]) -> impl Iterator<Item = &'a str> + 'a {
        self.values
            .iter()
            .filter(move |(k, _)| {
                names
                    .iter()
                    .any(|n| k == n || (k.len() >= 3 && n.len() > 1 && n.starts_with(k.as_str())))
            })
            .map(|(_, v)| v.as_str())
    }

    /// Operands before and after `--`, in order.
    pub fn all_operands(&self) -> impl Iterator<Item = &String> {
        self.operands.iter().chain(self.paths.iter())
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_clusters_values_and_abbreviations() {
        let o = Opts::parse(&v(&["-am", "msg", "--forc", "x", "--", "p"]), "m", &[]);
        assert!(o.short('a'));
        assert_eq!(o.values_of(&["m", "message"]).collect::<Vec<_>>(), ["msg"]);
        assert!(o.long("force"));
        assert_eq!(o.operands, ["x"]);
        assert_eq!(o.paths, ["p"]);
        let o = Opts::parse(&v(&["-mhello", "--message=two"]), "m", &["message"]);
        assert_eq!(
            o.values_of(&["m", "message"]).collect::<Vec<_>>(),
            ["hello", "two"]
        );
        let o = Opts::parse(&v(&["-5", "HEAD"]), "", &[]);
        assert_eq!(o.operands, v(&["-5", "HEAD"]));
    }
}
