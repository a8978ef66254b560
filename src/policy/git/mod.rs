//! `git …` command lines: global options, `-c` keys, environment, aliases,
//! the place git runs in, then the subcommand against its table.
//!
//! A subcommand without a table, an option not in its table, a `-c` key or
//! an environment variable not on an allow-list: refused. Git is given
//! protections on every spawn ([`PROTECTIONS`]) that change no legitimate
//! result.

pub mod across;
mod config;
mod decide;
mod globals;
mod names;
mod saga_refs;
pub mod tables;

use std::path::{Component, Path};

use super::parse::{self, Parsed, Table};
use super::spec::Syntax;
use super::{env, Actor, Facts, Place, Risk, Verdict};

pub use config::key_refusal;
pub use names::BUILTINS;

pub use crate::git::protect::{subcommand, PROTECTED_CONFIG, PROTECTIONS};

/// How a subcommand is judged once its options are parsed.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Always this risk.
    Fixed(Risk, &'static str),
    /// Read-only with `-n`/`--dry-run` in force, else this risk.
    DryRun(Risk, &'static str),
    /// Decided from the parsed arguments and the repository.
    Decide(fn(&Parsed, &Ctx) -> Outcome),
    /// Sub-verbs (`stash list`, `remote add`): the first operand picks one;
    /// without one, `default` (or the parent's own class when `None`).
    Verbs(&'static [Command], Option<&'static str>, Risk, &'static str),
    /// Never run, whatever the options (remote contact, history rewriting).
    Refuse(Risk, &'static str),
}

/// One git subcommand's table.
#[derive(Clone, Copy)]
pub struct Command {
    /// The subcommand (or verb) name.
    pub name: &'static str,
    /// Every option it accepts.
    pub opts: Table,
    /// How it parses them.
    pub syntax: Syntax,
    /// Whether `-<n>` is an option (`log -5`).
    pub numeric: bool,
    /// How it is judged.
    pub rule: Rule,
}

/// A subcommand parsed with parse-options (unique prefixes accepted).
pub const fn cmd(name: &'static str, opts: Table, rule: Rule) -> Command {
    Command {
        name,
        opts,
        syntax: Syntax::Git { abbrev: true },
        numeric: false,
        rule,
    }
}

impl Command {
    /// The same command, matching long options exactly (git's revision and
    /// diff options do not take abbreviations).
    pub const fn exact(self) -> Command {
        Command {
            syntax: Syntax::Git { abbrev: false },
            ..self
        }
    }

    /// The same command, accepting `-<n>`.
    pub const fn numeric(self) -> Command {
        Command {
            numeric: true,
            ..self
        }
    }
}

/// A risk and its reason.
pub type Outcome = (Risk, String);

/// What a decision may consult.
pub struct Ctx<'a> {
    /// The repository facts.
    pub facts: &'a dyn Facts,
    /// Where git runs.
    pub place: &'a Place,
    /// Who asks.
    pub actor: Actor,
}

/// Classifies `git ARGS` typed in `dir` with `assignments` before it.
pub fn classify(
    assignments: &[(String, String)],
    args: &[String],
    actor: Actor,
    facts: &dyn Facts,
    dir: &Path,
) -> Verdict {
    let mut argv = vec!["git".to_string()];
    argv.extend(args.iter().cloned());
    let mut place = Place {
        dir: dir.to_path_buf(),
        ..Place::default()
    };
    for (name, value) in assignments {
        if let Some(why) = env::refusal(name, value, true) {
            return with_env(Verdict::new(Risk::UnsafeShell, why, argv), assignments);
        }
        match name.as_str() {
            "GIT_DIR" => place.git_dir = Some(value.clone()),
            "GIT_WORK_TREE" => place.work_tree = Some(value.clone()),
            "GIT_INDEX_FILE" => place.index_file = Some(value.clone()),
            _ => {}
        }
    }
    let v = classify_args(args, actor, facts, place, &mut Vec::new());
    with_env(v, assignments)
}

fn with_env(mut v: Verdict, assignments: &[(String, String)]) -> Verdict {
    v.env = assignments.to_vec();
    v
}

fn classify_args(
    args: &[String],
    actor: Actor,
    facts: &dyn Facts,
    mut place: Place,
    seen_aliases: &mut Vec<String>,
) -> Verdict {
    // The argv as typed, for verdicts that never reach a subcommand.
    let raw = || -> Vec<String> {
        std::iter::once("git".to_string())
            .chain(args.iter().cloned())
            .collect()
    };
    let start = place.clone();
    let g = match globals::parse(args, &mut place) {
        Ok(g) => g,
        Err(v) => return v.with_argv(raw()),
    };
    if let Some(v) = g.early {
        return v.with_argv(raw());
    }
    if let Some(at) = g.help_args {
        let mut as_help: Vec<String> = args[..g.consumed].to_vec();
        as_help.push("help".into());
        as_help.extend(args[at..].iter().cloned());
        return classify_args(&as_help, actor, facts, start, seen_aliases);
    }
    if let Some(why) = place_refusal(&place, facts) {
        return Verdict::new(Risk::Destructive, why, raw());
    }
    let Some(sub_raw) = args.get(g.consumed) else {
        return Verdict::new(Risk::ReadOnly, "`git` alone prints its usage", raw());
    };
    let sub = sub_raw.to_ascii_lowercase();
    let rest = &args[g.consumed + 1..];
    let mut canonical = vec!["git".to_string()];
    canonical.extend(g.canonical.iter().cloned());
    let Some(command) = tables::lookup(&sub) else {
        if BUILTINS.contains(&sub.as_str()) {
            return Verdict::unknown(
                format!("rule git.{sub}: `git {sub}` is not in the policy's tables; run it yourself if you mean it"),
                raw(),
            );
        }
        let alias = g
            .aliases
            .iter()
            .rev()
            .find(|(n, _)| *n == sub)
            .map(|(_, v)| v.clone())
            .or_else(|| facts.git_alias(&place, sub_raw));
        return match alias {
            Some(value) => expand_alias(
                args,
                g.consumed,
                sub_raw,
                &value,
                actor,
                facts,
                start,
                seen_aliases,
            ),
            None => Verdict::unknown(names::unknown_subcommand(sub_raw), raw()),
        };
    };
    canonical.push(sub.clone());
    let ctx = Ctx {
        facts,
        place: &place,
        actor,
    };
    // `git CMD -h` / `git CMD --help` alone shows help (git's own
    // handling, before the subcommand parses anything).
    if matches!(rest, [h] if h == "-h" || h == "--help") {
        canonical.extend(rest.iter().cloned());
        let mut v = Verdict::new(Risk::ReadOnly, "shows the subcommand's help", canonical);
        if let Some((risk, why)) = g.forced {
            v.risk = v.risk.max(risk);
            v.reason = why;
        }
        return v;
    }
    let at = canonical.len() - 1;
    let mut v = judge(command, rest, &ctx, &mut canonical, &sub);
    if actor == Actor::Agent && v.risk == Risk::LocalWrite && !v.blocked() {
        if let Some(why) = saga_refs::refusal(&sub, rest) {
            v = Verdict::new(
                Risk::Destructive,
                format!("rule git.{sub}: it {why}; a model's git writes stay in its saga (commits on the saga's own branch); ask the user to do this"),
                Vec::new(),
            );
        }
    }
    if sub == "gc" && !v.blocked() {
        // What runs is gc that keeps everything (see `GC_KEEPS`).
        let missing: Vec<&str> = tables::history::GC_KEEPS
            .iter()
            .filter(|k| !canonical[..at].iter().any(|w| w == *k))
            .copied()
            .collect();
        for (i, keep) in missing.into_iter().enumerate() {
            canonical.insert(at + 2 * i, "-c".into());
            canonical.insert(at + 2 * i + 1, keep.to_string());
        }
    }
    v.argv = canonical;
    if let Some((risk, why)) = g.forced {
        if risk > v.risk {
            v.risk = risk;
            v.reason = why;
        }
    }
    v
}

/// Parses `rest` against `command` (and its verbs) and judges it;
/// `canonical` receives the canonical words.
fn judge(
    command: &Command,
    rest: &[String],
    ctx: &Ctx,
    canonical: &mut Vec<String>,
    path: &str,
) -> Verdict {
    if let Rule::Refuse(risk, why) = command.rule {
        if ctx.actor == Actor::Hook && risk == Risk::Remote {
            // The Hook posture runs remote contact that loses nothing, so
            // it parses the options the other actors never look at.
            return match tables::hook_table(path) {
                Some(hook) => judge(hook, rest, ctx, canonical, path),
                None => {
                    canonical.extend(rest.iter().cloned());
                    Verdict::unknown(
                        format!("rule git.{path}: {why}; the guard has no option table for it, so it refuses it"),
                        Vec::new(),
                    )
                }
            };
        }
        canonical.extend(rest.iter().cloned());
        return Verdict::new(risk, format!("rule git.{path}: {why}"), Vec::new());
    }
    if let Rule::Verbs(verbs, default, risk, why) = command.rule {
        let default_verb = default.and_then(|d| verbs.iter().find(|v| v.name == d));
        // Like git: a verb-less command line that starts with an option
        // belongs to the default verb (`git stash -m x` is `stash push`).
        if let Some(verb) = default_verb {
            if rest.is_empty() || rest[0].starts_with('-') {
                return judge(verb, rest, ctx, canonical, &format!("{path}.{}", verb.name));
            }
        }
        let (parent, at) = match parse::parse_leading(rest, command.opts, command.syntax) {
            Ok(p) => p,
            Err(e) => return refused_option(path, e),
        };
        canonical.extend(parent.argv.iter().cloned());
        let Some(word) = rest.get(at) else {
            return apply_effects(&parent, (risk, format!("rule git.{path}: {why}")), path);
        };
        return match verbs.iter().find(|v| v.name == word) {
            Some(verb) => {
                canonical.push(verb.name.to_string());
                let mut v =
                    judge(verb, &rest[at + 1..], ctx, canonical, &format!("{path}.{}", verb.name));
                // The parent's own options count too (`notes --ref=… add`).
                let parent_v = apply_effects(&parent, (Risk::None, String::new()), path);
                if parent_v.risk > v.risk {
                    v.risk = parent_v.risk;
                    v.reason = parent_v.reason;
                }
                v
            }
            None => Verdict::unknown(
                format!("rule git.{path}: `{word}` is not a `git {path}` verb the policy knows; run it yourself if you mean it"),
                Vec::new(),
            ),
        };
    }
    let parsed = match parse::parse(rest, command.opts, command.syntax, command.numeric) {
        Ok(p) => p,
        Err(e) => return refused_option(path, e),
    };
    canonical.extend(parsed.argv.iter().cloned());
    let base = match command.rule {
        Rule::Fixed(risk, why) => (risk, format!("rule git.{path}: {why}")),
        Rule::DryRun(risk, why) => {
            if parsed.has("dry-run") {
                (
                    Risk::ReadOnly,
                    format!("rule git.{path}: a dry run changes nothing"),
                )
            } else {
                (risk, format!("rule git.{path}: {why}"))
            }
        }
        Rule::Decide(f) => {
            let (risk, why) = f(&parsed, ctx);
            (risk, format!("rule git.{path}: {why}"))
        }
        Rule::Verbs(..) | Rule::Refuse(..) => unreachable!("handled above"),
    };
    let mut v = apply_effects(&parsed, base, path);
    if let Some((risk, why)) = across::check(path, &parsed, ctx, v.risk) {
        v.risk = risk;
        v.reason = format!("rule git.{path}: {why}");
    }
    if path == "commit" {
        let msgs: Vec<&str> = parsed.values("message").collect();
        v.message = (!msgs.is_empty()).then(|| msgs.join("\n\n"));
    }
    v
}

fn refused_option(path: &str, e: parse::ParseError) -> Verdict {
    Verdict::unknown(
        format!("rule git.{path}: {e}; nothing was run — run it yourself if you mean it"),
        Vec::new(),
    )
}

/// Raises the base class by every option given (not negated) whose table
/// entry says so; the worst wins and names the option.
fn apply_effects(parsed: &Parsed, base: Outcome, path: &str) -> Verdict {
    let (mut risk, mut reason) = base;
    if let Some((r, why, option)) = parsed.raised() {
        if r > risk {
            risk = r;
            reason = format!("rule git.{path}: `{option}` {why}");
        }
    }
    Verdict::new(risk, reason, Vec::new())
}

impl Verdict {
    fn with_argv(mut self, argv: Vec<String>) -> Verdict {
        self.argv = argv;
        self
    }
}

/// Why git must not run at `place`: a directory, git dir, work tree or
/// index other than the current repository's.
fn place_refusal(place: &Place, facts: &dyn Facts) -> Option<String> {
    let moved = place.dir != facts.cwd()
        || place.git_dir.is_some()
        || place.work_tree.is_some()
        || place.index_file.is_some();
    if !moved {
        return None;
    }
    let same = facts.same_repository(place).unwrap_or_else(|| {
        // Without a repository to ask (the routing corpus), only a plain
        // relative directory below the current one passes.
        place.git_dir.is_none()
            && place.work_tree.is_none()
            && place.index_file.is_none()
            && place
                .dir
                .strip_prefix(facts.cwd())
                .is_ok_and(|rel| rel.components().all(|c| matches!(c, Component::Normal(_))))
    });
    (!same).then(|| {
        "rule git.place: `-C`, `cd`, `--git-dir`, `--work-tree`, GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE may only name the current repository; a nested, bare or other repository is never a target".to_string()
    })
}

#[allow(clippy::too_many_arguments)]
fn expand_alias(
    args: &[String],
    sub_index: usize,
    name: &str,
    value: &str,
    actor: Actor,
    facts: &dyn Facts,
    place: Place,
    seen: &mut Vec<String>,
) -> Verdict {
    let raw: Vec<String> = std::iter::once("git".to_string())
        .chain(args.iter().cloned())
        .collect();
    let value = value.trim();
    if value.starts_with('!') {
        return Verdict::new(
            Risk::UnsafeShell,
            format!("rule git.alias: `{name}` is a shell alias (`{value}`), which runs arbitrary commands"),
            raw,
        );
    }
    if seen.iter().any(|s| s == name) || seen.len() >= 16 {
        return Verdict::unknown(
            format!("rule git.alias: the alias `{name}` expands into itself"),
            raw,
        );
    }
    seen.push(name.to_string());
    let lexed = crate::shell::words::lex(value);
    if lexed.words.is_empty() {
        return Verdict::unknown(format!("rule git.alias: the alias `{name}` is empty"), raw);
    }
    if lexed.substitution || lexed.expansion || lexed.redirect || lexed.grouping || lexed.unbalanced
    {
        return Verdict::new(
            Risk::UnsafeShell,
            format!("rule git.alias: the alias `{name}` (`{value}`) uses shell syntax"),
            raw,
        );
    }
    let mut expanded: Vec<String> = args[..sub_index].to_vec();
    expanded.extend(lexed.words.into_iter().map(|w| w.text));
    expanded.extend(args[sub_index + 1..].iter().cloned());
    // `place` is where the request stood before the global options, which
    // the expansion carries again.
    let mut inner = classify_args(&expanded, actor, facts, place, seen);
    inner.reason = format!("alias `{name}` = `{value}`: {}", inner.reason);
    inner
}
