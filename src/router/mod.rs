//! The deterministic cascade behind `git fararoni ask`: level 1 (bare
//! commands), level 1.5 (composite intents) and level 2 (small talk), and
//! the hand-off to the model levels for everything else.
//!
//! Routing is pure: it reads nothing but the input and what [`Facts`]
//! answers, writes nothing and runs nothing, so `--explain` and the
//! executor see exactly the same decision. Every command line is judged by
//! [`crate::policy`], on the argv that will run.

pub mod chat;
pub mod command;
mod hash;
pub mod intents;

use serde::Serialize;
use serde_json::json;

pub use crate::policy::{Facts, NoFacts, Risk};

pub use crate::shell::words::{InputError, Op, Word};
pub use chat::SmallTalk;
pub use intents::table::{Check, Run};
pub use intents::Intent;

use std::path::{Path, PathBuf};

use crate::policy::{self, Actor, Place};

/// The level of the cascade that decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Level 1: the input is a command line.
    Bare,
    /// Level 1.5: a natural-language git intent.
    Composite,
    /// Level 2: small talk.
    Chat,
    /// Levels 3–5: the model.
    Llm,
}

impl Level {
    /// Returns the level's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Bare => "bare",
            Level::Composite => "composite",
            Level::Chat => "chat",
            Level::Llm => "llm",
        }
    }
}

/// Whether the decision runs or blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Executed, or passed on to chat or the model.
    Run,
    /// Nothing is executed.
    Blocked,
}

impl Verdict {
    /// Returns the verdict's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Run => "run",
            Verdict::Blocked => "blocked",
        }
    }
}

/// How a command of a chain is carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmdKind {
    /// The `git` executable.
    Git,
    /// An allowlisted utility, run from `PATH`.
    Utility,
    /// `pwd`, answered in-process.
    Pwd,
    /// `cd`, which changes the directory for the rest of the chain.
    Cd,
}

/// One command of a chain, ready to run without a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cmd {
    /// How it runs.
    pub kind: CmdKind,
    /// The argv exactly as it runs, program first: quotes removed, `~` and
    /// globs expanded, aliases expanded, options canonicalised. For `cd`,
    /// the directory it enters.
    pub argv: Vec<String>,
    /// Environment assignments to apply.
    pub env: Vec<(String, String)>,
}

/// A pipeline and the operator that joins it to the next one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Commands connected by `|`.
    pub pipeline: Vec<Cmd>,
    /// `&&`, `||` or `;` before the next step; `None` for the last.
    pub next: Option<Op>,
}

/// A fixed sequence of level 1.5, as the policy judged it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompositePlan {
    /// The intent.
    pub intent: Intent,
    /// How the executor carries the steps out.
    pub run: Run,
    /// What must hold in the repository first.
    pub check: Check,
    /// The argvs as the policy returned them (canonical, program first),
    /// in order; a commit's message may be [`GENERATED_MESSAGE`], replaced
    /// at run time.
    pub steps: Vec<Vec<String>>,
    /// The branch the request names, for [`Check::LocalBranch`].
    pub name: Option<String>,
    /// The stated commit message; without one, the commit's
    /// [`GENERATED_MESSAGE`] is replaced at run time.
    pub message: Option<String>,
}

/// What to do with the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Run a chain of commands.
    Chain(Vec<Step>),
    /// Run a composite sequence.
    Composite(CompositePlan),
    /// Answer small talk.
    Chat(SmallTalk),
    /// Hand the input to the model levels.
    Model,
    /// Do nothing: the input was blocked.
    Blocked,
}

/// The router's decision for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The level that decided.
    pub level: Level,
    /// Run or blocked.
    pub verdict: Verdict,
    /// The risk of what would run.
    pub risk: Risk,
    /// The composite intent, for level 1.5.
    pub intent: Option<Intent>,
    /// The stated commit message, when the sequence commits.
    pub message: Option<String>,
    /// The argvs that would run, in order.
    pub commands: Vec<Vec<String>>,
    /// Why, in one sentence.
    pub reason: String,
    /// What to do.
    pub plan: Plan,
    /// The cascade's decision trail, level by level.
    pub trail: Vec<String>,
}

/// Placeholder shown in `commands` where the message is generated at run time.
pub const GENERATED_MESSAGE: &str = "<generated from the staged files>";

impl Decision {
    /// Returns the decision as the JSON object of `ask --explain --json`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "level": self.level.as_str(),
            "verdict": self.verdict.as_str(),
            "risk": self.risk.as_str(),
            "intent": self.intent.map(Intent::as_str),
            "message": self.message,
            "commands": self.commands,
            "reason": self.reason,
        })
    }
}

struct Classified {
    cmd: Cmd,
    risk: Risk,
    unknown: bool,
    reason: String,
    message: Option<String>,
    text: String,
    /// A `cd` that leaves the working tree: what follows may only read.
    leaves: bool,
}

impl Classified {
    fn blocked(&self) -> bool {
        self.unknown || self.risk.is_blocked()
    }
}

fn blocked_line(
    kind: CmdKind,
    argv: Vec<String>,
    text: &str,
    risk: Risk,
    unknown: bool,
    reason: String,
) -> Classified {
    Classified {
        leaves: false,
        cmd: Cmd {
            kind,
            argv,
            env: Vec::new(),
        },
        risk,
        unknown,
        reason,
        message: None,
        text: text.to_string(),
    }
}

/// Expands `~` and unquoted globs relative to `dir`, as a shell would.
/// A match that starts with `-` before a `--` would be read as an option
/// (a planted `-delete` or `--output=x`): the line is refused, naming the
/// file.
fn expand_words(
    program: &str,
    words: &[Word],
    facts: &dyn Facts,
    dir: &Path,
) -> Result<Vec<String>, String> {
    let home = facts.home();
    let mut out = Vec::with_capacity(words.len());
    let mut after_dashdash = false;
    for w in words {
        let mut text = w.text.clone();
        if w.tilde && (text == "~" || text.starts_with("~/")) {
            if let Some(home) = &home {
                text = format!("{home}{}", &text[1..]);
            }
        }
        if w.glob {
            let pattern = if w.tilde {
                text.clone()
            } else {
                w.pattern.clone()
            };
            let found = facts.expand_glob(dir, &pattern);
            if let Some(m) = found.iter().find(|m| m.starts_with('-') && !after_dashdash) {
                return Err(format!(
                    "rule glob: `{}` matches the file `{m}`, which `{program}` would read as an option; name the files you mean, or write `./{}`",
                    w.text, w.text
                ));
            }
            if !found.is_empty() {
                out.extend(found);
                continue;
            }
        }
        after_dashdash |= text == "--";
        out.push(text);
    }
    Ok(out)
}

/// Whether a word starts with a character that renders like `-`: it
/// looks like an option to a person and is not one to the program.
fn looks_like_an_option(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(crate::text::lookalike::is_dash)
}

fn classify_command(
    line: command::CommandLine,
    text: &str,
    facts: &dyn Facts,
    dir: &Path,
    actor: Actor,
) -> Classified {
    let l = &line.lexed;
    let shell_reason = if l.substitution {
        Some("command substitution is never evaluated")
    } else if l.redirect {
        Some("redirections create or overwrite files")
    } else if l.expansion {
        Some("shell expansion (`$NAME`) is not evaluated; run it in your shell")
    } else if l.grouping {
        Some("shell grouping and function syntax is not run")
    } else {
        None
    };
    let kind = match line.program.as_str() {
        "git" => CmdKind::Git,
        "pwd" => CmdKind::Pwd,
        "cd" => CmdKind::Cd,
        _ => CmdKind::Utility,
    };
    let mut argv = vec![line.program.clone()];
    argv.extend(line.args.iter().map(|w| w.text.clone()));
    if let Some(reason) = shell_reason {
        return blocked_line(
            kind,
            argv,
            text,
            Risk::UnsafeShell,
            false,
            format!("rule shell: {reason}"),
        );
    }
    if l.unbalanced {
        return blocked_line(
            kind,
            argv,
            text,
            Risk::None,
            true,
            "the command has an unterminated quote".into(),
        );
    }
    let mut full = vec![line.program.clone()];
    match expand_words(&line.program, &line.args, facts, dir) {
        Ok(words) => full.extend(words),
        Err(why) => return blocked_line(kind, argv, text, Risk::UnsafeShell, false, why),
    }
    if let Some(w) = full
        .iter()
        .find(|w| w.chars().any(crate::text::lookalike::is_invisible))
    {
        return blocked_line(
            kind,
            argv.clone(),
            text,
            Risk::None,
            true,
            format!(
                "rule lookalike: `{}` holds an invisible character; type the command without it",
                w.escape_debug()
            ),
        );
    }
    if let Some(w) = full.iter().find(|w| looks_like_an_option(w)) {
        return blocked_line(
            kind,
            argv.clone(),
            text,
            Risk::None,
            true,
            format!("rule lookalike: `{w}` starts with a character that looks like `-` but is not; type the option with ASCII hyphens"),
        );
    }
    let verdict = policy::classify(&full, &line.assignments, actor, facts, dir);
    let mut argv = verdict.argv;
    let mut leaves = false;
    if kind == CmdKind::Cd && !verdict.unknown && !verdict.risk.is_blocked() {
        let target = match argv.iter().skip(1).find(|a| !a.starts_with('-')) {
            Some(t) => t.clone(),
            None => match facts.home() {
                Some(h) => h,
                None => {
                    return blocked_line(
                        kind,
                        argv,
                        text,
                        Risk::None,
                        true,
                        "rule cd: `cd` without a directory needs $HOME".into(),
                    )
                }
            },
        };
        if target == "-" {
            return blocked_line(
                kind,
                argv,
                text,
                Risk::None,
                true,
                "rule cd: `cd -` is not supported; name the directory".into(),
            );
        }
        match facts.enter_dir(dir, &target) {
            Some(next) => {
                let inside = facts.inside_worktree(&next).unwrap_or_else(|| {
                    Path::new(&target).components().all(|c| {
                        matches!(
                            c,
                            std::path::Component::Normal(_) | std::path::Component::CurDir
                        )
                    })
                });
                // Leaving is allowed: reading elsewhere loses nothing.
                // What follows in the line may only read there (see
                // `route_for`), and git still only runs on this repository.
                leaves = !inside;
                argv = vec!["cd".to_string(), next.to_string_lossy().into_owned()]
            }
            None => {
                return blocked_line(
                    kind,
                    argv,
                    text,
                    Risk::None,
                    true,
                    format!("rule cd: `{target}` is not a directory"),
                )
            }
        }
    }
    Classified {
        cmd: Cmd {
            kind,
            argv,
            env: verdict.env,
        },
        risk: verdict.risk,
        unknown: verdict.unknown,
        reason: verdict.reason,
        message: verdict.message,
        text: text.to_string(),
        leaves,
    }
}

/// Facts that remember whether a judgement asked anything the repository
/// could answer differently later (a path, a revision, a directory, a
/// glob, an alias), so a chain can tell which of its verdicts an earlier
/// write could change.
struct Recording<'a> {
    inner: &'a dyn Facts,
    asked: std::cell::Cell<bool>,
}

impl Recording<'_> {
    fn take(&self) -> bool {
        self.asked.replace(false)
    }
    fn ask<T>(&self, answer: T) -> T {
        self.asked.set(true);
        answer
    }
}

impl Facts for Recording<'_> {
    fn cwd(&self) -> &Path {
        self.inner.cwd()
    }
    fn home(&self) -> Option<String> {
        self.inner.home()
    }
    fn git_alias(&self, place: &policy::Place, name: &str) -> Option<String> {
        self.ask(self.inner.git_alias(place, name))
    }
    fn same_repository(&self, place: &policy::Place) -> Option<bool> {
        self.ask(self.inner.same_repository(place))
    }
    fn is_revision(&self, place: &policy::Place, name: &str) -> Option<bool> {
        self.ask(self.inner.is_revision(place, name))
    }
    fn is_path(&self, place: &policy::Place, name: &str) -> Option<bool> {
        self.ask(self.inner.is_path(place, name))
    }
    fn has_branch(&self, name: &str, remote: bool) -> Option<bool> {
        self.ask(self.inner.has_branch(name, remote))
    }
    fn expand_glob(&self, dir: &Path, pattern: &str) -> Vec<String> {
        self.ask(self.inner.expand_glob(dir, pattern))
    }
    fn enter_dir(&self, dir: &Path, target: &str) -> Option<PathBuf> {
        self.ask(self.inner.enter_dir(dir, target))
    }
    fn inside_worktree(&self, dir: &Path) -> Option<bool> {
        self.ask(self.inner.inside_worktree(dir))
    }
    fn lease_unseen(
        &self,
        place: &policy::Place,
        remote: Option<&str>,
        refspecs: &[String],
    ) -> Vec<crate::git::lease::Unseen> {
        self.ask(self.inner.lease_unseen(place, remote, refspecs))
    }
    fn brings_stash(&self, place: &policy::Place, rev: &str) -> Option<bool> {
        // Not a question an earlier write changes: a stash entry made
        // earlier in the line is reached only by words the policy refuses
        // on sight (`stash`, `refs/stash`) or by ones that search or walk
        // reflogs, which it asks about as paths and revisions elsewhere.
        let searches = rev.contains(":/") || rev.contains("^{/") || rev.contains("@{");
        let answer = self.inner.brings_stash(place, rev);
        if searches {
            self.ask(answer)
        } else {
            answer
        }
    }
    fn hooks_in_worktree(&self, place: &policy::Place) -> Option<PathBuf> {
        // Configuration, which no command level 1 runs can change.
        self.inner.hooks_in_worktree(place)
    }
    fn arrival(
        &self,
        place: &policy::Place,
        rev: &str,
        how: policy::Arrive,
    ) -> Option<policy::Arrival> {
        self.ask(self.inner.arrival(place, rev, how))
    }
}

/// Routes one request through levels 1, 1.5 and 2, or hands it on.
pub fn route(input: &str, facts: &dyn Facts) -> Result<Decision, InputError> {
    route_for(input, facts, Actor::Human)
}

/// Routes one request with the policy's posture for `actor`: the agent's
/// ShellCommand goes through exactly the parsing and judging a person's
/// command line does, with [`Actor::Agent`]'s stricter rules.
pub fn route_for(input: &str, facts: &dyn Facts, actor: Actor) -> Result<Decision, InputError> {
    let text = crate::shell::words::normalize(input)?;
    // "ejecuta 'git status && git log'": the quoted command is judged
    // exactly as if it had been typed alone, chain and all.
    if let Some(command) = command::quoted_command(&text) {
        if command != text {
            let mut d = route(command, facts)?;
            d.trail.insert(
                0,
                format!("L1: `{command}` in quotes after a lead-in, judged as typed alone"),
            );
            return Ok(d);
        }
    }
    let mut trail = Vec::new();
    let mut segments = crate::shell::words::split_chain(&text);
    while segments.len() > 1
        && segments.last().is_some_and(|s| s.text.is_empty())
        && matches!(segments[segments.len() - 2].op, Some(Op::Seq))
    {
        segments.pop();
        if let Some(last) = segments.last_mut() {
            last.op = None;
        }
    }
    let malformed = segments.len() > 1 && segments.iter().any(|s| s.text.is_empty());
    let background = segments.iter().any(|s| s.op == Some(Op::Background));

    let mut parts: Vec<Option<Classified>> = Vec::new();
    // `cd` moves where the rest of the chain is judged (and run); one in a
    // pipeline runs in a subshell and moves nothing.
    let mut dir: PathBuf = facts.cwd().to_path_buf();
    let recording = Recording {
        inner: facts,
        asked: std::cell::Cell::new(false),
    };
    let mut wrote_before = false;
    let mut outside = false;
    for (i, seg) in segments.iter().enumerate() {
        let piped = seg.op == Some(Op::Pipe) || (i > 0 && segments[i - 1].op == Some(Op::Pipe));
        // What is judged (and named in a refusal) is the command without
        // the lead-ins around it, exactly as if typed alone. A model's line
        // is always a command (no prose reading, no lead-ins).
        let line = match actor {
            Actor::Agent => command::parse_agent_command(seg.text),
            _ => command::parse_command(seg.text),
        };
        // "cat videos lol": prose that starts with a program's name. A line
        // the policy refuses stays refused; only one it would run is read
        // again as prose.
        let prose = line
            .as_ref()
            .is_some_and(|l| command::prose_operands(l, facts, &dir));
        let mut c = line.map(|line| {
            let typed = line.text.clone();
            classify_command(line, &typed, &recording, &dir, actor)
        });
        if prose && c.as_ref().is_some_and(|c| !c.blocked()) {
            trail.push(format!(
                "L1: `{}` starts with a program's name, but its words are not that program's operands",
                seg.text
            ));
            c = None;
        }
        let asked = recording.take();
        if let Some(c) = &mut c {
            // A verdict that rests on what the repository holds (is this a
            // path? where does this cd lead?) could be changed by a write
            // earlier in the same line: refuse rather than guess.
            if wrote_before && asked && !c.blocked() {
                c.risk = Risk::UnsafeShell;
                c.reason = "rule chain: an earlier command in the line writes to the repository, and this one's verdict depends on what the repository holds (paths, revisions, directories, globs); run them one at a time".into();
            }
            wrote_before |= c.risk == Risk::LocalWrite;
            if outside && !c.blocked() && c.risk > Risk::ReadOnly {
                c.risk = Risk::Destructive;
                c.reason = "rule cd: an earlier `cd` left the working tree (or entered a nested repository); there only reading runs".into();
            }
        }
        if let Some(c) = &c {
            if c.cmd.kind == CmdKind::Cd && !piped && !c.blocked() {
                if let Some(next) = c.cmd.argv.get(1) {
                    dir = PathBuf::from(next);
                    // A later `cd` back into the tree does not make the
                    // line's writes safe: it stays read-only to the end.
                    outside |= c.leaves;
                }
            }
        }
        match &c {
            Some(c) => trail.push(format!(
                "L1: `{}` is a command: {} ({})",
                seg.text,
                if c.unknown {
                    "unrecognised"
                } else {
                    c.risk.as_str()
                },
                c.reason
            )),
            None if segments.len() > 1 => trail.push(format!("L1: `{}` is prose", seg.text)),
            None => trail.push("L1: not a command line".to_string()),
        }
        parts.push(c);
    }
    let any_command = parts.iter().any(Option::is_some);
    if any_command {
        // A pipe may only connect read-only commands.
        for (i, seg) in segments.iter().enumerate() {
            let piped = seg.op == Some(Op::Pipe) || (i > 0 && segments[i - 1].op == Some(Op::Pipe));
            if let Some(Some(c)) = parts.get_mut(i) {
                if background {
                    c.risk = Risk::UnsafeShell;
                    c.reason = "background jobs (`&`) are not run".into();
                } else if piped && c.risk == Risk::LocalWrite {
                    c.risk = Risk::UnsafeShell;
                    c.reason = "a pipe may only connect read-only commands".into();
                }
            }
        }
        if malformed {
            trail.push("L1: a chain operator has nothing on one side".into());
        }
    }
    let message = parts.iter().flatten().find_map(|c| c.message.clone());
    let blocked: Vec<&Classified> = parts.iter().flatten().filter(|c| c.blocked()).collect();
    if !blocked.is_empty() || (any_command && malformed) {
        let worst = blocked.iter().max_by_key(|c| c.risk).copied();
        let (risk, reason) = match worst {
            Some(c) if c.unknown => (Risk::None, format!("`{}` is not run: {}", c.text, c.reason)),
            Some(c) => (
                c.risk,
                format!(
                    "`{}` is {}: {}; nothing was run{}",
                    c.text,
                    c.risk.as_str(),
                    c.reason,
                    advice(c)
                ),
            ),
            None => (
                Risk::None,
                "a chain operator has nothing on one side; nothing was run".into(),
            ),
        };
        trail.push("L1: blocked".into());
        return Ok(Decision {
            level: Level::Bare,
            verdict: Verdict::Blocked,
            risk,
            intent: None,
            message,
            commands: Vec::new(),
            reason,
            plan: Plan::Blocked,
            trail,
        });
    }
    if any_command && parts.iter().all(Option::is_some) {
        let classified: Vec<Classified> = parts.into_iter().flatten().collect();
        let risk = classified
            .iter()
            .map(|c| c.risk)
            .max()
            .unwrap_or(Risk::ReadOnly);
        let commands = classified.iter().map(|c| c.cmd.argv.clone()).collect();
        let mut steps: Vec<Step> = Vec::new();
        let mut pipeline = Vec::new();
        for (c, seg) in classified.into_iter().zip(&segments) {
            pipeline.push(c.cmd);
            if seg.op != Some(Op::Pipe) {
                steps.push(Step {
                    pipeline: std::mem::take(&mut pipeline),
                    next: seg.op,
                });
            }
        }
        trail.push(format!("L1: run ({})", risk.as_str()));
        return Ok(Decision {
            level: Level::Bare,
            verdict: Verdict::Run,
            risk,
            intent: None,
            message,
            commands,
            reason: if steps.len() > 1 || steps[0].pipeline.len() > 1 {
                format!(
                    "every command of the chain is allowed; the chain is {}",
                    risk.as_str()
                )
            } else {
                format!("a {} command", risk.as_str())
            },
            plan: Plan::Chain(steps),
            trail,
        });
    }
    // "commit & push": `&` between words of prose is "and", not a
    // background job; the words are read as level 1.5 reads any request.
    let ampersands = segments.len() > 1
        && !any_command
        && !malformed
        && segments[..segments.len() - 1]
            .iter()
            .all(|s| s.op == Some(Op::Background));
    if ampersands {
        let joined = segments
            .iter()
            .map(|s| s.text)
            .collect::<Vec<_>>()
            .join(" and ");
        if let Some(m) = intents::match_intent(&joined) {
            trail.push(format!(
                "L1.5: `&` read as \"and\": intent {}",
                m.intent().as_str()
            ));
            return Ok(composite_decision(m, facts, trail));
        }
    }
    if segments.len() > 1 {
        trail
            .push("L1.5: prose mixed with commands or chain operators is left to the model".into());
        return Ok(model(trail, "the request mixes prose with chain operators"));
    }

    // "please reset --hard": a git command line without `git` is refused
    // exactly as the command would be; one the policy would run is left
    // to the model (never run as a guess at what was meant).
    if let Some(line) = command::git_line_without_git(&text) {
        let d = route(&line, facts)?;
        if d.level == Level::Bare && d.verdict == Verdict::Blocked && d.risk != Risk::None {
            let mut d = d;
            d.trail.insert(
                0,
                format!("L1: `{text}` reads as `{line}` without `git`, judged as that command"),
            );
            return Ok(d);
        }
    }
    // Levels 1.5 and 2 read the words the same way: tokenised once.
    let read = intents::normalize::Read::new(&text);
    if let Some(m) = intents::match_read(&read) {
        trail.push(format!("L1.5: intent {}", m.intent().as_str()));
        return Ok(composite_decision(m, facts, trail));
    }
    trail.push("L1.5: no composite intent matches the whole request".into());
    if let Some(talk) = chat::small_talk_read(&read) {
        trail.push("L2: small talk".into());
        return Ok(Decision {
            level: Level::Chat,
            verdict: Verdict::Run,
            risk: Risk::None,
            intent: None,
            message: None,
            commands: Vec::new(),
            reason: "short small talk with no task".into(),
            plan: Plan::Chat(talk),
            trail,
        });
    }
    trail.push("L2: not small talk".into());
    Ok(model(
        trail,
        "no deterministic level claims the request; it needs the model",
    ))
}

fn model(mut trail: Vec<String>, reason: &str) -> Decision {
    trail.push("L3: handed to the model levels".into());
    Decision {
        level: Level::Llm,
        verdict: Verdict::Run,
        risk: Risk::None,
        intent: None,
        message: None,
        commands: Vec::new(),
        reason: reason.into(),
        plan: Plan::Model,
        trail,
    }
}

fn advice(c: &Classified) -> String {
    match c.risk {
        Risk::Remote => format!("; run `{}` yourself if you mean it", c.text),
        Risk::Destructive => "; if you really mean it, run it yourself".into(),
        _ => String::new(),
    }
}

/// Writes a bare file name people say without its extension ("the
/// README") as the one file the directory has by that name, when it has
/// no file of exactly that name.
fn resolve_path(path: &str, facts: &dyn Facts, dir: &Path) -> String {
    if !intents::parse::known_file(path) || path.contains(['.', '/']) {
        return path.to_string();
    }
    let place = Place {
        dir: dir.to_path_buf(),
        ..Place::default()
    };
    if facts.is_path(&place, path) == Some(true) {
        return path.to_string();
    }
    let pattern: String = path
        .chars()
        .map(|c| format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase()))
        .chain(std::iter::once(".*".to_string()))
        .collect();
    match facts.expand_glob(dir, &pattern).as_slice() {
        [one] => one.clone(),
        _ => path.to_string(),
    }
}

/// Why a plain word the match took as a branch cannot stand ("switch to
/// dark mode", "delete the old branch", "borra la rama vieja"): a name the
/// request did not mark (quotes, "called", a name's shape) must be a
/// branch the repository has, and a new name must always be marked.
fn unmarked_name(m: &intents::Match, facts: &dyn Facts) -> Option<String> {
    let f = &m.filled;
    let exists = |name: &str, remote: bool| facts.has_branch(name, remote) == Some(true);
    if let Some(name) = f.name.as_deref().filter(|_| f.bare_name) {
        let ok = match m.intent() {
            // A refused sequence runs nothing whatever the name.
            Intent::Push => true,
            // A new name: quoted, "called", or shaped like a name.
            Intent::BranchCreate | Intent::TagCreate | Intent::BranchRename => false,
            Intent::BranchSwitch => exists(name, true),
            _ => exists(name, false),
        };
        if !ok {
            return Some(format!(
                "`{name}` is not marked as a name (quotes, \"called\", a name's shape) and no branch of the repository is called so"
            ));
        }
    }
    if let Some(from) = f.from.as_deref().filter(|_| f.bare_from) {
        let remote = m.intent() != Intent::BranchRename;
        if !exists(from, remote) {
            return Some(format!(
                "`{from}` is not marked as a name and no branch of the repository is called so"
            ));
        }
    }
    None
}

/// Judges every step of a matched intent with the policy, exactly as if
/// it had been typed, and decides: it runs only if every step may.
fn composite_decision(
    mut m: intents::Match,
    facts: &dyn Facts,
    mut trail: Vec<String>,
) -> Decision {
    if let Some(why) = unmarked_name(&m, facts) {
        trail.push(format!("L1.5: {why}"));
        return model(
            trail,
            "a word taken as a branch name is not marked as one and names no branch of the repository",
        );
    }
    let dir = facts.cwd().to_path_buf();
    for p in &mut m.filled.paths {
        *p = resolve_path(p, facts, &dir);
    }
    let row = m.row;
    let commits = matches!(row.run, Run::Commit { .. }) || row.intent == Intent::AmendMessage;
    let message = if commits { m.message.clone() } else { None };
    let mut steps = Vec::new();
    let mut worst: Option<(policy::Verdict, String)> = None;
    let mut risk = Risk::ReadOnly;
    for argv in m.sequence(GENERATED_MESSAGE) {
        let v = policy::classify(&argv, &[], Actor::Human, facts, &dir);
        let joined = argv.join(" ");
        // Looked for only where it may be: a search for the placeholder
        // costs more than the rest of the line.
        let typed = if joined.contains('<') {
            joined.replace(GENERATED_MESSAGE, "MESSAGE")
        } else {
            joined
        };
        let judged = if v.unknown {
            "unrecognised"
        } else {
            v.risk.as_str()
        };
        let mut line = String::with_capacity(typed.len() + judged.len() + v.reason.len() + 16);
        for part in ["L1.5: `", &typed, "`: ", judged, " (", &v.reason, ")"] {
            line.push_str(part);
        }
        trail.push(line);
        risk = risk.max(v.risk);
        if v.blocked() && worst.as_ref().is_none_or(|(w, _)| v.risk > w.risk) {
            worst = Some((v.clone(), typed));
        }
        steps.push(v.argv);
    }
    if let Some((v, typed)) = worst {
        let not_even = if matches!(row.run, Run::Commit { .. }) && row.intent == Intent::Push {
            ", not even the commit"
        } else {
            ""
        };
        let what = if v.unknown {
            "not run".to_string()
        } else {
            v.risk.as_str().to_string()
        };
        let advice = if row.advice.is_empty() {
            String::new()
        } else {
            format!(". {}", row.advice)
        };
        let reason = format!(
            "{}: `{typed}` is {what}: {}; nothing was run{not_even}{advice}",
            row.does, v.reason,
        );
        trail.push("L1.5: blocked".into());
        return Decision {
            level: Level::Composite,
            verdict: Verdict::Blocked,
            risk: if v.unknown { Risk::None } else { v.risk },
            intent: Some(row.intent),
            message,
            commands: Vec::new(),
            reason,
            plan: Plan::Blocked,
            trail,
        };
    }
    let name = m.filled.name.clone();
    let reason = match &name {
        Some(n) => format!("{} (`{n}`)", row.does),
        None => row.does.to_string(),
    };
    Decision {
        level: Level::Composite,
        verdict: Verdict::Run,
        risk,
        intent: Some(row.intent),
        message,
        commands: steps.clone(),
        reason,
        plan: Plan::Composite(CompositePlan {
            intent: row.intent,
            run: row.run,
            check: row.check,
            steps,
            name,
            message: m.message.clone(),
        }),
        trail,
    }
}
