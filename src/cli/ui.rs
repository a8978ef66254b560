//! The one way the command line writes to the terminal: standard output
//! that remembers a failed write, colour only where it belongs, and
//! confirmations that never wait on a pipe.
//!
//! A write error on stdout (a full disk behind `> file`) makes the command
//! exit 1 with a message, whatever it was about to report; a closed pipe
//! (`| head`) is the reader's choice and stays quiet. Hand-rolled rather
//! than dialoguer/indicatif: see docs/decisions.md, "Terminal".

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// `--quiet`: no reports of what was done, only data, warnings and errors.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns `--quiet` on for the rest of the process.
pub(crate) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Writes a report of what was done (`installed …`, `restored …`) to
/// stdout, unless `--quiet`. Data (file contents, lists, JSON) goes
/// through [`out`] whatever the flag.
pub(crate) fn say(text: &str) {
    if !QUIET.load(Ordering::Relaxed) {
        out(text);
    }
}

/// The first write error on stdout, if any.
static STDOUT_ERROR: OnceLock<String> = OnceLock::new();

/// Writes `bytes` to stdout, remembering a failure other than a closed pipe.
pub(crate) fn out_bytes(bytes: &[u8]) {
    if STDOUT_ERROR.get().is_some() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let result = stdout.write_all(bytes).and_then(|()| stdout.flush());
    if let Err(e) = result {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = STDOUT_ERROR.set(e.to_string());
        }
    }
}

/// Writes `text` to stdout (see [`out_bytes`]).
pub(crate) fn out(text: &str) {
    out_bytes(text.as_bytes());
}

/// Returns why writing to stdout failed, if it did.
pub(crate) fn stdout_error() -> Option<&'static str> {
    STDOUT_ERROR.get().map(String::as_str)
}

/// Whether stderr may be coloured: a terminal, `NO_COLOR` unset or empty
/// (<https://no-color.org>), and not a dumb terminal.
pub(crate) fn colour_stderr() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// Wraps `text` in an ANSI colour when stderr may be coloured.
pub(crate) fn paint(text: &str, code: &str) -> String {
    if colour_stderr() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// What a confirmation decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Confirm {
    /// Go ahead (`--yes`, or the person answered yes).
    Yes,
    /// The person answered no.
    No,
    /// Nobody to ask (no terminal): the safe default, refuse.
    NoTerminal,
}

/// Asks `question` on the terminal before a risky action. `--yes` accepts;
/// without a terminal on stdin and stderr nothing is read and the answer
/// is the safe one, [`Confirm::NoTerminal`].
pub(crate) fn confirm(question: &str, yes: bool) -> Confirm {
    if yes {
        return Confirm::Yes;
    }
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Confirm::NoTerminal;
    }
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    if std::io::stdin().read_line(&mut answer).is_err() {
        return Confirm::No;
    }
    match answer.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Confirm::Yes,
        _ => Confirm::No,
    }
}

/// A spinner on stderr while a model has not answered yet: only on a
/// terminal that is not dumb, never with `--quiet`. Stopped (its line
/// cleared) by [`Spinner::stop`] or when dropped.
pub(crate) struct Spinner {
    stop: std::sync::Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Spinner {
    /// Starts a spinner labelled `label`, or a silent one when stderr is
    /// not an interactive terminal or `enabled` is false.
    pub(crate) fn start(label: &str, enabled: bool) -> Spinner {
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let interactive = enabled
            && !QUIET.load(Ordering::Relaxed)
            && std::io::stderr().is_terminal()
            && std::env::var("TERM").map_or(true, |t| t != "dumb");
        let thread = interactive.then(|| {
            let stop = stop.clone();
            let label = label.to_string();
            std::thread::spawn(move || {
                const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    eprint!("\r{} {label}", FRAMES[i % FRAMES.len()]);
                    i += 1;
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                // Clear the line for whatever is printed next.
                eprint!("\r\x1b[2K");
            })
        });
        Spinner { stop, thread }
    }

    /// Stops the spinner and clears its line (idempotent).
    pub(crate) fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A progress bar on stderr for work over many items (restoring files,
/// pruning versions, checking staged files): drawn only on an interactive
/// terminal, never with `--quiet` or `--json` (`enabled` false), and only
/// once the work has taken long enough to be worth a bar; its line is
/// cleared when dropped.
pub(crate) struct Progress {
    label: String,
    interactive: bool,
    started: std::time::Instant,
    drawn: Option<std::time::Instant>,
}

/// Work shorter than this shows no bar: a flash of one is noise.
const PROGRESS_AFTER: std::time::Duration = std::time::Duration::from_millis(250);

impl Progress {
    /// Starts a bar labelled `label` (silent unless stderr is an
    /// interactive terminal and `enabled`).
    pub(crate) fn start(label: &str, enabled: bool) -> Progress {
        Progress {
            label: label.to_string(),
            interactive: enabled
                && !QUIET.load(Ordering::Relaxed)
                && std::io::stderr().is_terminal()
                && std::env::var("TERM").map_or(true, |t| t != "dumb"),
            started: std::time::Instant::now(),
            drawn: None,
        }
    }

    /// Shows that `done` of `total` items are done (redrawn at most ten
    /// times a second).
    pub(crate) fn update(&mut self, done: usize, total: usize) {
        if !self.interactive || total == 0 || self.started.elapsed() < PROGRESS_AFTER {
            return;
        }
        let now = std::time::Instant::now();
        if self
            .drawn
            .is_some_and(|t| now - t < std::time::Duration::from_millis(100))
            && done < total
        {
            return;
        }
        self.drawn = Some(now);
        eprint!("\r{}", bar(&self.label, done, total));
        let _ = std::io::stderr().flush();
    }
}

/// One line of a progress bar: `label [#####-----] 5/10`.
fn bar(label: &str, done: usize, total: usize) -> String {
    const WIDTH: usize = 24;
    let done = done.min(total);
    let filled = done * WIDTH / total.max(1);
    format!(
        "{label} [{}{}] {done}/{total}",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled)
    )
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.drawn.is_some() {
            eprint!("\r\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_work() {
        assert_eq!(bar("x", 0, 4), format!("x [{}] 0/4", "-".repeat(24)));
        assert_eq!(
            bar("x", 2, 4),
            format!("x [{}{}] 2/4", "#".repeat(12), "-".repeat(12))
        );
        assert_eq!(bar("x", 9, 4), format!("x [{}] 4/4", "#".repeat(24)));
    }

    #[test]
    fn no_bar_without_a_terminal() {
        // Tests run with stderr captured or piped: never interactive.
        let mut p = Progress::start("work", true);
        p.started -= PROGRESS_AFTER * 2;
        p.update(1, 2);
        assert!(p.drawn.is_none() || std::io::stderr().is_terminal());
    }
}
