//! The relaxed state machine of seed 002 (§4–5): which tools are legal
//! after which, the PROTOCOL-MANDATE directive of each state, and the
//! rejection budget. Transitions, directives and allowed sets are tables.
//!
//! All tools are always sent to the model (filtering before generation
//! does not work: models call the tools of their training); the machine
//! judges each call after generation, and the directive — the last system
//! message before every call — steers the model towards a legal one.

use serde::Serialize;

/// A state of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum State {
    /// Nothing read or changed yet: any tool.
    Start,
    /// A file was read: the next step must change something.
    PostRead,
    /// A file was changed: change more, read, or build.
    PostPatch,
    /// A build failed: read, change, or build again.
    PostCompile,
}

impl State {
    /// The state's name as in the seed and the session log.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Start => "START",
            State::PostRead => "POST_READ",
            State::PostPatch => "POST_PATCH",
            State::PostCompile => "POST_COMPILE",
        }
    }
}

/// What a legal, executed call was, for the transition table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// `fs_read` succeeded.
    Read,
    /// `fs_patch` or `fs_write` changed a file.
    Changed,
    /// A build or test command failed.
    BuildFailed,
    /// A build or test command succeeded.
    BuildPassed,
    /// Anything else (listing, searching, a read-only command, a failed
    /// tool): the state does not move.
    Other,
}

/// The tools every state allows, as the seed's relaxed table has them.
/// START allows every tool.
pub const ALLOWED: &[(State, &[&str])] = &[
    (State::Start, super::tools::TOOL_NAMES),
    (State::PostRead, &["fs_patch", "fs_write"]),
    (
        State::PostPatch,
        &["ShellCommand", "fs_patch", "fs_write", "fs_read"],
    ),
    (
        State::PostCompile,
        &["fs_read", "fs_patch", "fs_write", "ShellCommand"],
    ),
];

/// Where each step leads, from any state; `None` keeps the state.
/// A passing build after a change ends the loop (see [`Machine::after`]).
pub const TRANSITIONS: &[(Step, Option<State>)] = &[
    (Step::Read, Some(State::PostRead)),
    (Step::Changed, Some(State::PostPatch)),
    (Step::BuildFailed, Some(State::PostCompile)),
    (Step::BuildPassed, None),
    (Step::Other, None),
];

/// The PROTOCOL-MANDATE directive of each state: byte-stable text, so a
/// server's prompt cache keeps hitting.
pub const DIRECTIVES: &[(State, &str)] = &[
    (
        State::Start,
        "PROTOCOL-MANDATE: Find what you need with fs_glob, fs_search or fs_read, then change files with fs_patch (or fs_write for a new or whole file). If no change is needed, answer in plain text.",
    ),
    (
        State::PostRead,
        "PROTOCOL-MANDATE: File analysis is complete. You MUST now apply the fix with fs_patch (or fs_write). Group all corrections into one call. Do NOT re-read the file. Do NOT build yet. If nothing needs to change, answer in plain text.",
    ),
    (
        State::PostPatch,
        "PROTOCOL-MANDATE: Your change was written to disk. If more needs fixing, use fs_patch again. If everything is fixed, verify with the project's build or tests via ShellCommand. Do NOT re-read a file you already patched.",
    ),
    (
        State::PostCompile,
        "PROTOCOL-MANDATE: The build failed. Read the distilled errors above. Open the file they name with fs_read, then fix it with fs_patch. Do NOT run the build again before fixing something.",
    ),
];

/// Rejections allowed at one depth; the next illegal call ends level 3.
pub const REJECTIONS_PER_DEPTH: u32 = 2;

/// The verdict on one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// Legal: execute it.
    Legal,
    /// Illegal: answer with this `role: tool` error and let the model retry.
    Rejected(String),
    /// Illegal, and the budget is spent: stop (the fallback).
    Exhausted(String),
}

/// The machine of one run.
#[derive(Debug, Clone)]
pub struct Machine {
    state: State,
    rejections: u32,
    changed: bool,
    done: bool,
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new()
    }
}

/// Returns the tools `state` allows.
pub fn allowed(state: State) -> &'static [&'static str] {
    ALLOWED
        .iter()
        .find(|(s, _)| *s == state)
        .map_or(&[], |(_, t)| t)
}

/// Returns the directive of `state`.
pub fn directive(state: State) -> &'static str {
    DIRECTIVES
        .iter()
        .find(|(s, _)| *s == state)
        .map_or("", |(_, d)| d)
}

impl Machine {
    /// A machine in START.
    pub fn new() -> Machine {
        Machine {
            state: State::Start,
            rejections: 0,
            changed: false,
            done: false,
        }
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Whether a passing build after a change ended the run.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Rejections at the current depth.
    pub fn rejections(&self) -> u32 {
        self.rejections
    }

    /// The directive to inject before the next model call.
    pub fn directive(&self) -> &'static str {
        directive(self.state)
    }

    /// Judges a call of `tool` (a canonical name) in the current state.
    pub fn judge(&mut self, tool: &str) -> Judgement {
        let legal = allowed(self.state);
        if legal.contains(&tool) {
            return Judgement::Legal;
        }
        self.rejections += 1;
        let why = format!(
            "ERROR: `{tool}` is not allowed in state {}; allowed now: {}. {}",
            self.state.as_str(),
            legal.join(", "),
            self.directive()
        );
        if self.rejections > REJECTIONS_PER_DEPTH {
            Judgement::Exhausted(why)
        } else {
            Judgement::Rejected(why)
        }
    }

    /// Moves after an executed legal call; resets the rejection budget
    /// (a new depth begins).
    pub fn after(&mut self, step: Step) {
        self.rejections = 0;
        if step == Step::Changed {
            self.changed = true;
        }
        if step == Step::BuildPassed && self.changed {
            self.done = true;
            return;
        }
        if let Some((_, Some(next))) = TRANSITIONS.iter().find(|(s, _)| *s == step) {
            self.state = *next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relaxed_cycle() {
        let mut m = Machine::new();
        assert_eq!(m.judge("fs_read"), Judgement::Legal);
        m.after(Step::Read);
        assert_eq!(m.state(), State::PostRead);
        assert!(matches!(m.judge("fs_read"), Judgement::Rejected(_)));
        assert!(matches!(m.judge("ShellCommand"), Judgement::Rejected(_)));
        assert!(matches!(m.judge("fs_read"), Judgement::Exhausted(_)));
        let mut m = Machine::new();
        m.after(Step::Read);
        assert_eq!(m.judge("fs_patch"), Judgement::Legal);
        m.after(Step::Changed);
        for t in ["fs_patch", "fs_write", "fs_read", "ShellCommand"] {
            assert_eq!(m.judge(t), Judgement::Legal, "{t}");
        }
        m.after(Step::BuildFailed);
        assert_eq!(m.state(), State::PostCompile);
        assert!(m.directive().contains("build failed"));
        m.after(Step::Changed);
        m.after(Step::BuildPassed);
        assert!(m.done());
    }

    #[test]
    fn a_passing_build_before_any_change_does_not_end() {
        let mut m = Machine::new();
        m.after(Step::BuildPassed);
        assert!(!m.done());
        assert_eq!(m.state(), State::Start);
    }

    #[test]
    fn every_state_has_a_directive_and_a_set() {
        for s in [
            State::Start,
            State::PostRead,
            State::PostPatch,
            State::PostCompile,
        ] {
            assert!(directive(s).starts_with("PROTOCOL-MANDATE: "));
            assert!(!allowed(s).is_empty());
        }
    }

    #[test]
    fn rejection_message_names_the_state_and_the_allowed_tools() {
        let mut m = Machine::new();
        m.after(Step::Read);
        let Judgement::Rejected(msg) = m.judge("GitAction") else {
            panic!("not rejected")
        };
        assert!(msg.contains("`GitAction` is not allowed in state POST_READ"));
        assert!(msg.contains("allowed now: fs_patch, fs_write"));
    }
}
