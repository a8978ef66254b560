//! What the hook decided, and how each agent is told: allow is silence
//! (exit 0, nothing on stdout — an explicit allow would skip the user's own
//! permission prompt in Claude Code and Copilot CLI); a veto is one short
//! message for the model, in the agent's own terms ([`Contract`]).

use super::spec::Contract;

/// The longest message the model reads.
pub const MAX_MESSAGE: usize = 300;

/// The deliberate bypass, honoured only from the hook process's own
/// environment.
pub const BYPASS_ENV: &str = crate::settings::read::GUARD_ENV;

/// The closing words of every veto.
const CLOSING: &str = "Do not retry this; ask the user.";

/// What is said when the hook itself could not judge.
const BYPASS_NOTE: &str = " (The user may bypass with FARARONI_GUARD=off.)";

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A refusal, worded for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Veto {
    /// The whole message, at most [`MAX_MESSAGE`] characters.
    pub message: String,
    /// The hook could not judge (malformed payload, internal error, unreadable
    /// target): the message names the bypass.
    pub fail_closed: bool,
}

pub use crate::policy::hook::shorten;

impl Veto {
    /// A rule's refusal: what the rule is, what would be lost, what to do
    /// instead.
    pub fn rule(rule: &str, loss: &str, instead: &str) -> Veto {
        Veto::compose(rule, loss, instead, false)
    }

    /// A rule's refusal that the model can mend itself: `instead` says how,
    /// and the message does not close with "ask the user".
    pub fn redo(rule: &str, loss: &str, instead: &str) -> Veto {
        let mut v = Veto::compose(rule, loss, instead, false);
        if let Some(body) = v.message.strip_suffix(CLOSING) {
            v.message = body.trim_end().to_string();
        }
        v
    }

    /// A refusal because the hook could not judge the call.
    pub fn fail_closed(what: &str) -> Veto {
        Veto::compose(what, "", "nothing was run", true)
    }

    /// A message composed elsewhere (the shell judgement), kept within the
    /// limit: the text is shortened by [`shorten`], never the closing words.
    pub fn message(text: &str) -> Veto {
        let head = "fararoni guard: ";
        let text = text.trim().trim_start_matches(head);
        let text = text.strip_suffix(CLOSING).unwrap_or(text).trim_end();
        let room = MAX_MESSAGE - head.chars().count() - CLOSING.chars().count() - 1;
        Veto {
            message: format!("{head}{} {CLOSING}", shorten(text, room)),
            fail_closed: false,
        }
    }

    fn compose(rule: &str, loss: &str, instead: &str, fail_closed: bool) -> Veto {
        let head = "fararoni guard: ";
        let tail = if fail_closed {
            format!(" {CLOSING}{BYPASS_NOTE}")
        } else {
            format!(" {CLOSING}")
        };
        let room = MAX_MESSAGE - head.chars().count() - tail.chars().count();
        let parts: Vec<&str> = [rule, loss, instead]
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        // Each part gets an equal share of what is left, the unused rest
        // going to the later ones.
        let mut body = String::new();
        let mut left = room;
        for (i, p) in parts.iter().enumerate() {
            let share = left / (parts.len() - i);
            let p = capitalize(p.trim_end_matches('.'));
            let piece = shorten(&p, share.saturating_sub(2).max(8));
            let piece = format!("{piece}. ");
            left = left.saturating_sub(piece.chars().count());
            body.push_str(&piece);
        }
        let message = format!("{head}{}{tail}", body.trim_end());
        Veto {
            message,
            fail_closed,
        }
    }
}

/// The hook's decision on one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Let the call proceed under the user's own permission rules.
    Allow,
    /// Let it proceed changed to run contained: the agent's own answer
    /// (stdout, exit 0) that replaces the call's input.
    Contain(String),
    /// Refuse it.
    Veto(Veto),
}

/// What the hook process writes and how it exits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code.
    pub exit: u8,
}

/// Returns the answer that tells an agent with `contract` the decision.
pub fn answer(contract: Contract, decision: &Decision) -> Answer {
    let v = match decision {
        Decision::Allow => return Answer::default(),
        Decision::Contain(stdout) => {
            return Answer {
                stdout: stdout.clone(),
                ..Answer::default()
            }
        }
        Decision::Veto(v) => v,
    };
    let m = v.message.as_str();
    match contract {
        Contract::Exit2Stderr => Answer {
            stdout: String::new(),
            stderr: format!("{m}\n"),
            exit: 2,
        },
        Contract::CodexJson => Answer {
            stdout: format!(
                "{}\n",
                serde_json::json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": m,
                }})
            ),
            stderr: format!("{m}\n"),
            exit: 2,
        },
        Contract::CursorJson => Answer {
            stdout: format!(
                "{}\n",
                serde_json::json!({"permission": "deny", "user_message": m, "agent_message": m})
            ),
            stderr: String::new(),
            exit: 0,
        },
        Contract::ClineJson => Answer {
            stdout: format!(
                "{}\n",
                serde_json::json!({"cancel": true, "errorMessage": m, "contextModification": m})
            ),
            stderr: String::new(),
            exit: 0,
        },
        Contract::CopilotJson => Answer {
            stdout: format!(
                "{}\n",
                serde_json::json!({"permissionDecision": "deny", "permissionDecisionReason": m})
            ),
            stderr: String::new(),
            exit: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_short_and_close_the_door() {
        let long = "x".repeat(1000);
        for v in [
            Veto::rule(&long, &long, &long),
            Veto::fail_closed(&long),
            Veto::message(&long),
            Veto::rule("r", "l", "i"),
        ] {
            assert!(v.message.chars().count() <= MAX_MESSAGE, "{}", v.message);
            assert!(v.message.starts_with("fararoni guard: "));
        }
        let v = Veto::fail_closed("the payload is not JSON");
        assert!(v.message.contains("FARARONI_GUARD=off"), "{}", v.message);
        assert!(v.message.contains("Do not retry this; ask the user."));
        let r = Veto::rule("the kill-switch blocked", "90% of lines", "use Edit");
        assert!(!r.message.contains("FARARONI_GUARD"));
    }

    #[test]
    fn shortening_keeps_whole_words_and_the_closing() {
        let reason = "the kill-switch blocked it: volume 0.03 is below the floor 0.50 and the similarity of the line sets is 0.12, below 0.40, so the new content would replace nearly all of the file, which looks like a truncated rewrite rather than an edit of the existing content; write the whole file with its current content kept and only the intended change made";
        for max in [1usize, 5, 17, 40, 99, 150, 299, 300, 1000] {
            let s = shorten(reason, max);
            assert!(s.chars().count() <= max, "{max}: {s}");
            if s.chars().count() < reason.chars().count() {
                let kept = s.trim_end_matches('…');
                assert!(reason.starts_with(kept), "{max}: {s}");
                let next = reason[kept.len()..].chars().next();
                assert!(
                    kept.is_empty() || next.is_some_and(|c| !c.is_alphanumeric() && c != '.'),
                    "{max}: cut inside a word: {s}"
                );
            }
        }
        assert_eq!(shorten("short", 300), "short");
        assert_eq!(shorten("one two three", 9), "one two…");
        assert_eq!(shorten("averyveryverylongword x", 5), "…");
        for text in [reason.repeat(3), format!("`{}`: {reason}", "a".repeat(400))] {
            for v in [
                Veto::message(&text),
                Veto::fail_closed(&text),
                Veto::rule(&text, &text, &text),
            ] {
                assert!(v.message.chars().count() <= MAX_MESSAGE, "{}", v.message);
                assert!(v.message.contains(CLOSING), "{}", v.message);
                assert!(!v.message.contains("bel…"), "{}", v.message);
            }
            assert!(Veto::fail_closed(&text)
                .message
                .ends_with(BYPASS_NOTE.trim_start()));
        }
    }

    #[test]
    fn allow_is_silence_for_everyone() {
        for c in [
            Contract::Exit2Stderr,
            Contract::CodexJson,
            Contract::CursorJson,
            Contract::ClineJson,
            Contract::CopilotJson,
        ] {
            assert_eq!(answer(c, &Decision::Allow), Answer::default());
            let a = answer(c, &Decision::Veto(Veto::rule("r", "l", "i")));
            assert!(!a.stdout.contains("allow"));
            assert!(a.exit == 2 || !a.stdout.is_empty());
        }
    }
}
