//! `git fararoni guard hook --agent NAME`: reads one hook payload from
//! stdin (bounded), writes the agent's answer. A panic or any failure here
//! is still answered as a veto in the agent's own terms, and so is a
//! hang: a watchdog answers before the agent's own timeout would let the
//! tool run.

use std::io::{Read as _, Write as _};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;

use crate::hooks::agents::install::wrapper;
use crate::hooks::agents::{self, Agent, Answer, Veto};

/// Judge one tool call of another coding agent (its pre-tool hook)
///
/// Reads the agent's hook payload on stdin and answers in that agent's
/// terms: silence (exit 0) lets the call proceed under the user's own
/// permission rules; a veto carries one short message for the model.
/// Shell commands, file writes and edits are judged; a payload that
/// cannot be judged is vetoed. `FARARONI_GUARD=off` in the hook's own
/// environment switches the guard off. Installed by `git fararoni hooks
/// install --agent NAME`.
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    /// The agent whose payload and veto contract to use
    #[arg(long, value_enum)]
    agent: Agent,
}

/// Returns the agent of exactly `git-fararoni guard hook --agent NAME` (or
/// `--agent=NAME`), the line the installer writes.
pub(crate) fn fast_path(args: &[std::ffi::OsString]) -> Option<Agent> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let name = match words.as_slice() {
        ["guard", "hook", "--agent", name] => *name,
        ["guard", "hook", flag] => flag.strip_prefix("--agent=")?,
        _ => return None,
    };
    Agent::from_name(name)
}

pub(crate) fn run(args: HookArgs) -> ExitCode {
    run_for(args.agent)
}

/// The judging thread's stack: address space reserved, touched only as
/// deep as a command line nests.
const JUDGE_STACK: usize = 256 << 20;

/// Payloads up to this size are judged on the main thread: too short to
/// nest past its stack within the judge's bounds (tested with the debug
/// build's larger frames).
const INLINE_PAYLOAD: usize = 4 << 10;

/// Set by whoever answers first, the judgement or the watchdog: the agent
/// reads exactly one answer.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// The watchdog's stack: it only sleeps, then writes one answer.
const WATCHDOG_STACK: usize = 64 << 10;

/// Starts the thread that answers a veto and ends the process if the
/// judgement has not answered in time (a stdin the agent never closes, a
/// git call stuck on a lock or a network file system). Every agent lets
/// the tool run when its own hook timeout fires, and the installed
/// wrapper's `timeout` exists only where coreutils does (not on macOS),
/// so the guard bounds itself: at three quarters of the wrapper's bound
/// (`FARARONI_HOOK_TIMEOUT`, default 20 s: 15 s), both well below the
/// agents' 30 s.
fn start_watchdog(agent: Agent) {
    let after = wrapper::watchdog_after(std::env::var(wrapper::TIMEOUT_ENV).ok().as_deref());
    // Without a thread the judgement still runs; the wrapper's `timeout`
    // remains where it exists.
    let _ = std::thread::Builder::new()
        .stack_size(WATCHDOG_STACK)
        .spawn(move || {
            std::thread::sleep(after);
            if ANSWERED.swap(true, Ordering::SeqCst) {
                return;
            }
            let answer = agents::answer(
                agent.spec().contract,
                &agents::Decision::Veto(Veto::fail_closed(&format!(
                    "the guard did not answer within {} s",
                    after.as_secs_f32()
                ))),
            );
            write_answer(&answer);
            std::process::exit(i32::from(answer.exit));
        });
}

fn write_answer(answer: &Answer) {
    let _ = std::io::stdout().lock().write_all(answer.stdout.as_bytes());
    let _ = std::io::stderr().lock().write_all(answer.stderr.as_bytes());
}

/// Answers one hook call of `agent`.
pub(crate) fn run_for(agent: Agent) -> ExitCode {
    start_watchdog(agent);
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(agents::MAX_PAYLOAD as u64 + 1)
        .read_to_end(&mut input);
    let answer = match read {
        Err(e) => agents::answer(
            agent.spec().contract,
            &agents::Decision::Veto(Veto::fail_closed(&format!(
                "the hook payload could not be read ({})",
                e.kind()
            ))),
        ),
        Ok(_) => {
            let oversized = input.len() > agents::MAX_PAYLOAD;
            let judge =
                || std::panic::catch_unwind(|| agents::handle(agent, &input, oversized)).ok();
            // The judgement recurses over the command line's nesting
            // (bounded, but nested `bash -c` strings multiply the bounds):
            // a large payload is judged on a thread with a large stack,
            // reserved, not used, because a stack overflow is a crash, and
            // the agents take a crashed hook for one that allows. A small
            // one cannot nest that deep and is judged here (a thread costs
            // a tenth of a read-only call). Inline if no thread can be had.
            let judged = if input.len() <= INLINE_PAYLOAD {
                judge()
            } else {
                std::thread::scope(|s| {
                    match std::thread::Builder::new()
                        .stack_size(JUDGE_STACK)
                        .spawn_scoped(s, judge)
                    {
                        Ok(h) => h.join().ok().flatten(),
                        Err(_) => judge(),
                    }
                })
            };
            judged.unwrap_or_else(|| {
                agents::answer(
                    agent.spec().contract,
                    &agents::Decision::Veto(Veto::fail_closed("the hook failed internally")),
                )
            })
        }
    };
    if ANSWERED.swap(true, Ordering::SeqCst) {
        // The watchdog answered and is ending the process.
        loop {
            std::thread::park();
        }
    }
    write_answer(&answer);
    ExitCode::from(answer.exit)
}
