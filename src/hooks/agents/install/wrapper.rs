//! The command `hooks install` writes for an agent's pre-tool hook: a POSIX
//! `sh -c '…'` around `git-fararoni guard hook` that turns every way the
//! guard can fail to answer — not on `PATH`, a crash (a panic's exit 101),
//! death by a signal, a hang — into a veto in that agent's own terms.
//! The agents themselves take all of those for "allow": Claude Code and
//! Codex CLI block only on exit 2, Gemini CLI only on exit 2 or a deny with
//! text, Copilot CLI only on a deny JSON, and every one of them runs the
//! tool when its own hook timeout fires. The guard's answers (exit 0 and,
//! where the agent reads it, exit 2) pass through byte for byte.
//!
//! One template, one row of data per agent ([`ROWS`]). The body holds no
//! single quote and no `\\`, so it is one word to every shell an agent may
//! hand it to (Codex CLI uses the user's login shell; fish would collapse
//! `\\` inside single quotes).

use super::super::spec::{Agent, Contract};

/// The environment variable bounding the guard's run, in whole seconds
/// (1 to [`MAX_TIMEOUT_S`]; anything else means [`DEFAULT_TIMEOUT_S`]).
/// The agents' own hook timeout is 30 s, and the guard must answer before
/// it fires, because a hook the agent times out is a hook that allowed.
pub const TIMEOUT_ENV: &str = "FARARONI_HOOK_TIMEOUT";

/// The wrapper's bound on the guard when [`TIMEOUT_ENV`] is unset.
pub const DEFAULT_TIMEOUT_S: u64 = 20;

/// The largest bound honoured: with the 2 s kill grace it stays below the
/// agents' 30 s.
pub const MAX_TIMEOUT_S: u64 = 25;

/// The wrapper's bound on the guard for a value of [`TIMEOUT_ENV`], parsed
/// exactly as the wrapper's shell does (digits only, 1 to [`MAX_TIMEOUT_S`]).
pub fn timeout_s(value: Option<&str>) -> u64 {
    value
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| (1..=MAX_TIMEOUT_S).contains(n))
        .unwrap_or(DEFAULT_TIMEOUT_S)
}

/// When the guard's own watchdog answers: three quarters of the wrapper's
/// bound, so the guard's veto (with its own words) comes before the
/// wrapper's `timeout` kills it, and both before the agent gives up.
pub fn watchdog_after(value: Option<&str>) -> std::time::Duration {
    std::time::Duration::from_millis(timeout_s(value) * 750)
}

/// How one agent is told "no" by the wrapper, and which of the guard's exit
/// codes are answers to pass through.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The agent.
    pub agent: Agent,
    /// The JSON written on stdout for a veto, `%s` standing for the
    /// message (`None`: nothing on stdout).
    pub deny_json: Option<&'static str>,
    /// Whether the message is also written on stderr.
    pub stderr: bool,
    /// The exit code of a veto.
    pub exit: u8,
    /// The guard's exit codes that are answers (its output passes through).
    pub pass: &'static [u8],
}

/// Claude Code and Codex CLI: the deny on stdout (the model reads only the
/// reason; with stderr alone Claude Code shows it the whole hook command),
/// the reason on stderr too (Codex blocks on exit 2 only with a non-empty
/// stderr), exit 2.
const HOOK_SPECIFIC_DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}"#;

/// Copilot CLI blocks on nothing but this, with exit 0.
const COPILOT_DENY: &str = r#"{"permissionDecision":"deny","permissionDecisionReason":"%s"}"#;

/// The agents whose pre-tool hook is wrapped. Cursor is not: its
/// `failClosed: true` already blocks on a failed hook. Cline is not: it
/// runs an executable file, and blocks when it cannot.
pub const ROWS: &[Row] = &[
    Row {
        agent: Agent::Claude,
        deny_json: Some(HOOK_SPECIFIC_DENY),
        stderr: true,
        exit: 2,
        pass: &[0, 2],
    },
    Row {
        agent: Agent::Codex,
        deny_json: Some(HOOK_SPECIFIC_DENY),
        stderr: true,
        exit: 2,
        pass: &[0, 2],
    },
    // JSON on stdout would be read first, and without a top-level
    // `decision` it lets the tool run: stderr only.
    Row {
        agent: Agent::Gemini,
        deny_json: None,
        stderr: true,
        exit: 2,
        pass: &[0, 2],
    },
    // Exit codes never block: anything but the guard's exit 0 is a veto.
    Row {
        agent: Agent::Copilot,
        deny_json: Some(COPILOT_DENY),
        stderr: false,
        exit: 0,
        pass: &[0],
    },
];

/// The text of the wrapper's own veto; `$1` says what went wrong. It is
/// printed raw into JSON, so it holds no `"` or `\`, and neither does any
/// `$1` (fixed words and a number).
const MESSAGE: &str =
    "fararoni guard: $1; this call was not checked. Do not retry this; ask the user.";

/// The wrapper, `{veto}`, `{agent}` and `{pass}` filled from a [`Row`].
/// In order: the veto function; no `git-fararoni` on PATH is a veto; the
/// bound read from the environment (digits only: the value is expanded
/// unquoted); the guard run under coreutils' `timeout` where there is one
/// (macOS has none: the guard's own watchdog answers there); its answers
/// passed through; every other status a veto.
const TEMPLATE: &str = concat!(
    "v(){ m=\"{message}\"; {veto} }; ",
    "command -v git-fararoni >/dev/null 2>&1 || v \"git-fararoni is not on PATH\"; ",
    "d=${{env}:-{default}}; case $d in \"\"|*[!0-9]*) d={default};; esac; ",
    "[ $d -ge 1 ] 2>/dev/null && [ $d -le {max} ] || d={default}; ",
    "t=; command -v timeout >/dev/null 2>&1 && t=\"timeout -k 2 $d\"; ",
    "out=$($t git-fararoni guard hook --agent {agent}); s=$?; ",
    "case $s in {pass}) [ -z \"$out\" ] || printf \"%s\\n\" \"$out\"; exit $s;; esac; ",
    "v \"git-fararoni failed with status $s\"",
);

/// The row of `agent`, if its pre-tool hook is wrapped.
pub fn row(agent: Agent) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.agent == agent)
}

/// The shell body of the wrapper for `row`.
pub fn body(row: &Row) -> String {
    let mut veto = String::new();
    if let Some(json) = row.deny_json {
        veto.push_str(&format!(
            "printf \"{}\\n\" \"$m\"; ",
            json.replace('"', "\\\"")
        ));
    }
    if row.stderr {
        veto.push_str("echo \"$m\" >&2; ");
    }
    veto.push_str(&format!("exit {};", row.exit));
    let pass: Vec<String> = row.pass.iter().map(u8::to_string).collect();
    TEMPLATE
        .replace("{message}", MESSAGE)
        .replace("{veto}", &veto)
        .replace("{agent}", row.agent.name())
        .replace("{pass}", &pass.join("|"))
        .replace("{env}", TIMEOUT_ENV)
        .replace("{default}", &DEFAULT_TIMEOUT_S.to_string())
        .replace("{max}", &MAX_TIMEOUT_S.to_string())
}

/// The whole hook command for `row`: `sh -c '<body>'`.
pub fn command(row: &Row) -> String {
    format!("sh -c '{}'", body(row))
}

/// Whether `agent`'s veto contract, as the guard answers it, is what the
/// wrapper answers (the same stdout form, stderr and exit code).
pub fn matches_contract(row: &Row) -> bool {
    let (json, stderr, exit) = match row.agent.spec().contract {
        Contract::Exit2Stderr => (None, true, 2),
        Contract::CodexJson => (Some(HOOK_SPECIFIC_DENY), true, 2),
        Contract::CopilotJson => (Some(COPILOT_DENY), false, 0),
        Contract::CursorJson | Contract::ClineJson => return false,
    };
    row.deny_json == json && row.stderr == stderr && row.exit == exit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::agents::{answer, Decision, Veto};

    #[test]
    fn the_body_is_one_word_to_every_shell() {
        for row in ROWS {
            let b = body(row);
            assert!(!b.contains('\''), "{b}");
            assert!(
                !b.contains("\\\\"),
                "fish collapses a doubled backslash: {b}"
            );
            for hole in [
                "{agent}",
                "{veto}",
                "{pass}",
                "{env}",
                "{default}",
                "{max}",
                "{message}",
            ] {
                assert!(!b.contains(hole), "{b}");
            }
            // Gemini replaces these textually before running the command.
            for var in ["$GEMINI_", "$CLAUDE_"] {
                assert!(!b.contains(var), "{b}");
            }
            let c = command(row);
            assert!(c.starts_with("sh -c '") && c.ends_with('\''));
            assert!(
                c.contains(&format!(
                    "git-fararoni guard hook --agent {}",
                    row.agent.name()
                )),
                "{c}"
            );
        }
    }

    #[test]
    fn each_row_writes_the_strings_its_agent_reads() {
        let claude = command(row(Agent::Claude).expect("claude"));
        assert_eq!(
            claude,
            concat!(
                r#"sh -c 'v(){ m="fararoni guard: $1; this call was not checked. Do not retry this; ask the user."; "#,
                r#"printf "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"%s\"}}\n" "$m"; "#,
                r#"echo "$m" >&2; exit 2; }; "#,
                r#"command -v git-fararoni >/dev/null 2>&1 || v "git-fararoni is not on PATH"; "#,
                r#"d=${FARARONI_HOOK_TIMEOUT:-20}; case $d in ""|*[!0-9]*) d=20;; esac; "#,
                r#"[ $d -ge 1 ] 2>/dev/null && [ $d -le 25 ] || d=20; "#,
                r#"t=; command -v timeout >/dev/null 2>&1 && t="timeout -k 2 $d"; "#,
                r#"out=$($t git-fararoni guard hook --agent claude); s=$?; "#,
                r#"case $s in 0|2) [ -z "$out" ] || printf "%s\n" "$out"; exit $s;; esac; "#,
                r#"v "git-fararoni failed with status $s"'"#,
            )
        );
        let codex = command(row(Agent::Codex).expect("codex"));
        assert_eq!(codex, claude.replace("--agent claude", "--agent codex"));
        let gemini = command(row(Agent::Gemini).expect("gemini"));
        assert!(
            gemini.contains(r#"ask the user."; echo "$m" >&2; exit 2; };"#),
            "{gemini}"
        );
        assert!(
            !gemini.contains("printf \"{"),
            "no JSON for Gemini: {gemini}"
        );
        assert!(gemini.contains("case $s in 0|2)"), "{gemini}");
        let copilot = command(row(Agent::Copilot).expect("copilot"));
        assert!(copilot.contains(r#"printf "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"%s\"}\n" "$m"; exit 0; };"#), "{copilot}");
        assert!(!copilot.contains(">&2; exit"), "{copilot}");
        assert!(copilot.contains("case $s in 0)"), "{copilot}");
        assert!(row(Agent::Cursor).is_none() && row(Agent::Cline).is_none());
    }

    #[test]
    fn the_wrapper_vetoes_exactly_as_the_guard_does() {
        for row in ROWS {
            assert!(matches_contract(row), "{:?}", row.agent);
            // The guard's own veto with the message `%s` is the row's
            // printf format.
            let a = answer(
                row.agent.spec().contract,
                &Decision::Veto(Veto {
                    message: "%s".into(),
                    fail_closed: true,
                }),
            );
            let want = row.deny_json.map(|j| format!("{j}\n")).unwrap_or_default();
            assert_eq!(a.stdout, want, "{:?}", row.agent);
            assert_eq!(a.stderr.is_empty(), !row.stderr, "{:?}", row.agent);
            assert_eq!(a.exit, row.exit, "{:?}", row.agent);
        }
    }

    #[test]
    fn the_bound_is_read_as_the_shell_reads_it() {
        assert_eq!(timeout_s(None), 20);
        assert_eq!(timeout_s(Some("3")), 3);
        assert_eq!(timeout_s(Some("25")), 25);
        for bad in [
            "",
            "0",
            "26",
            "1.5",
            "-3",
            "3 ; rm",
            "999999999999999999999",
            "+4",
        ] {
            assert_eq!(timeout_s(Some(bad)), 20, "{bad:?}");
        }
        assert_eq!(watchdog_after(None).as_millis(), 15_000);
        assert_eq!(watchdog_after(Some("2")).as_millis(), 1_500);
    }
}
