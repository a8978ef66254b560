//! Layer 1 of the protection triad: the kill-switch that compares old and
//! new content before a write and blocks destructive rewrites. Pure
//! functions over bytes; never touches the disk.
//!
//! The ratios are the seed's: the Jaccard index of the sets of non-blank,
//! whitespace-trimmed lines, and the volume ratio of non-blank line counts
//! (new / old). They are taken a second time over *meaningful code lines*
//! ([`super::lines`]: Unicode spaces and invisible characters normalised,
//! lines of only punctuation or comment markers and whole-line comments
//! left out, repeated lines counted once), so padding cannot buy volume
//! back. Structured files (JSON, TOML, YAML) are compared by their entries
//! instead of their lines ([`super::structure`]) and must still parse.
//! First of all it judges what was removed and what stands in its place
//! ([`super::removal`]): a comment, a stub or nothing under a kept header
//! where a run of code was, whatever the words, with code moved within the
//! file or to the other files of the change ([`check_in_change`]) counted
//! as moved. Every write path (`guard check`, `guard write`, the agent's
//! file tools, the hook, the pre-commit check) comes through
//! [`check_file`] or [`check_in_change`].
//! Beyond that the kill-switch blocks elision placeholders beyond
//! those the old content had, counted ([`super::elision`]), functions whose
//! implemented bodies become stubs ([`super::stubs`]), emptying a file,
//! binary content, and changes of encoding (UTF-8 ↔ other bytes, a
//! byte-order mark added or removed) or of line endings (all CRLF ↔ all LF).
//!
//! Decisions (see the tests):
//! - A new file (no old content) passes, unless it is binary.
//! - A *tiny* old file (fewer than [`Thresholds::min_lines`] non-blank
//!   lines, 5 by default) may be rewritten freely: the ratios are reported
//!   but not applied; emptying it, elision, stubs, parsing, binary and
//!   encoding rules still apply.
//! - With no old lines the volume ratio divides by one and the Jaccard index
//!   of two empty sets is 1.
//! - A ratio below its threshold is reported once: the meaningful-line
//!   ratio only when the seed's ratio of the same kind passed.
//! - The language comes from the file name ([`check_file`]) or, without
//!   one, is sniffed from the old content ([`check`]).
//!
//! The cost is linear in the size of both inputs: one pass each that
//! hashes and classifies lines, a radix sort and a merge of the hashes, a
//! placeholder check of the lines whose count grew, and one pass each of the
//! stub scanner; from `PARALLEL_BYTES` on two or three threads. An edit that
//! leaves most of the file as it was is judged from its changed lines: the
//! new side's measurements are derived from the old side's
//! ([`super::measure`]) and its stub scan starts from the old side's
//! state before the change and joins it past the change
//! ([`super::stubs::scan_new`]) — the same report, for about the cost of
//! one side, wherever the edit is. An edit made in many small places all
//! through the file (every fortieth line) is cut into its changed parts
//! between stretches both sides share ([`super::measure::hunks`]): the new
//! side's measurements are derived from those parts, the removal
//! judgement classes the shared stretches once (the new side's lines
//! there are the old side's, not copies), and the new side's stub scan
//! replays the old side's braces over them and takes the names of the
//! headers there from the old side's — each the same as reading the new
//! side whole (the tests compare), because each depends only on bytes the
//! two sides share, entered in the same state.
//!
//! Its parts: this module weighs the evidence into a verdict; `reason`
//! says why, in words; `study` measures and scans the two sides;
//! `content` reads what the bytes are (binary, encoding, line endings,
//! cut off); `change` gathers the code a change adds to its other files.

use serde::Serialize;

use super::lang::{self, Format, Lang};
use super::lines::{lines, PassThrough};
use super::measure::{meaningful_common, measure, merge, Measured};
use super::{embedded, removal, structure, stubs};
use std::hash::BuildHasherDefault;

mod change;
mod content;
mod reason;
mod study;
#[cfg(test)]
mod tests_derived;
#[cfg(test)]
mod tests_rules;

pub use change::{Change, ChangedFile, Elsewhere};
use content::truncation;
pub use content::{encoding, is_binary, line_endings};
pub use reason::{Encoding, LineEndings, Reason, Side};
use study::{all_through, both, one_edit, placeholders, study, Changed, PARALLEL_BYTES};

/// The limits under which a write is blocked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// The minimum Jaccard index (`fararoni.guard.jaccard`, default 0.40).
    pub jaccard: f64,
    /// The minimum volume ratio (`fararoni.guard.volume`, default 0.50).
    pub volume: f64,
    /// Old files with fewer non-blank lines are tiny: ratios are not applied
    /// (`fararoni.guard.minLines`, default 5).
    pub min_lines: usize,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            jaccard: 0.40,
            volume: 0.50,
            min_lines: 5,
        }
    }
}

/// Whether a write may go ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The write may go ahead.
    Pass,
    /// The write is blocked.
    Block,
}

/// The kill-switch's measurements and verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Pass or block.
    pub verdict: Verdict,
    /// Jaccard index of the sets of non-blank trimmed lines (of the
    /// multisets of entries, for a structured file).
    pub jaccard: f64,
    /// New non-blank line count over old non-blank line count (entries, for
    /// a structured file).
    pub volume: f64,
    /// Non-blank lines (entries) in the old content (0 for a new file).
    pub old_lines: usize,
    /// Non-blank lines (entries) in the new content.
    pub new_lines: usize,
    /// What the counts count: `lines`, or `JSON entries` and the like.
    pub unit: &'static str,
    /// The language the content was judged as.
    pub language: &'static str,
    /// There was no old content.
    pub new_file: bool,
    /// The old content was tiny, so the ratios were not applied.
    pub tiny: bool,
    /// Why the write is blocked; empty when it passes.
    pub reasons: Vec<Reason>,
}

impl Report {
    /// Returns whether the write is blocked.
    pub fn blocked(&self) -> bool {
        self.verdict == Verdict::Block
    }

    /// Returns whether the only reasons to block are bodies handed to
    /// functions written nowhere (what the first half of an extraction
    /// looks like until the function is written).
    pub fn hands_off_to_unwritten_code(&self) -> bool {
        self.blocked()
            && self.reasons.iter().all(
                |r| matches!(r, Reason::Removed(f) if f.kind == super::removal::Removal::GhostCall),
            )
    }

    /// Returns the report as the JSON object `guard check --json` prints.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "verdict": self.verdict,
            "jaccard": self.jaccard,
            "volume": self.volume,
            "reasons": self.reasons.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
            "old_lines": self.old_lines,
            "new_lines": self.new_lines,
            "new_file": self.new_file,
            "tiny": self.tiny,
            "unit": self.unit,
            "language": self.language,
        })
    }
}

/// At most this many removals are reported.
const MAX_REMOVALS: usize = 3;
/// From this share of its removed code lines added to the other files of
/// the change, a file was split, and the ratios do not apply.
const MOVED_AWAY: f64 = 0.8;

/// Compares `old` (`None` for a file that does not exist yet) with `new`
/// and returns the verdict with its measurements; the language is sniffed
/// from the content.
pub fn check(old: Option<&[u8]>, new: &[u8], t: &Thresholds) -> Report {
    let lang = lang::sniff(old.unwrap_or(new));
    check_as(lang, old, new, t)
}

/// Like [`check`], for the file at `path` (repository-relative or not):
/// its name says which language and format to judge it as.
pub fn check_file(path: &str, old: Option<&[u8]>, new: &[u8], t: &Thresholds) -> Report {
    check_in_change(path, old, new, t, &Elsewhere::default())
}

/// Like [`check_file`], for one file of a change that writes several (a
/// patch, a commit, a multi-file edit): code added to the other files
/// (`elsewhere`) was moved there, not removed.
pub fn check_in_change(
    path: &str,
    old: Option<&[u8]>,
    new: &[u8],
    t: &Thresholds,
    elsewhere: &Elsewhere<'_>,
) -> Report {
    let lang = lang::of_file(path, old.unwrap_or(new));
    judge(lang, old, new, t, true, elsewhere)
}

fn ratio_of(common: usize, a: usize, b: usize) -> f64 {
    let union = a + b - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}

/// Like [`check_file`], with thresholds that may still be being read:
/// `t` is called at most once, when only the weighing of what was
/// measured is left (the command line reads them from git's
/// configuration, which can take a child process, beside the judgement).
pub fn check_file_awaiting(
    path: &str,
    old: Option<&[u8]>,
    new: &[u8],
    t: impl FnOnce() -> Thresholds,
) -> Report {
    let lang = lang::of_file(path, old.unwrap_or(new));
    judge_awaiting(lang, old, new, t, true, &Elsewhere::default())
}

/// Compares `old` with `new` as content written in `lang`.
pub fn check_as(lang: &'static Lang, old: Option<&[u8]>, new: &[u8], t: &Thresholds) -> Report {
    judge(lang, old, new, t, true, &Elsewhere::default())
}

/// [`check_as`]; `derive` lets an edit's new side be derived from the old
/// one (the tests compare both ways).
fn judge(
    lang: &'static Lang,
    old: Option<&[u8]>,
    new: &[u8],
    t: &Thresholds,
    derive: bool,
    elsewhere: &Elsewhere<'_>,
) -> Report {
    judge_awaiting(lang, old, new, || *t, derive, elsewhere)
}

/// Both sides together from this size on keep their large blocks.
const LARGE_SIDES: usize = 8 << 20;

/// [`judge`], the thresholds asked for only when they are needed.
fn judge_awaiting(
    lang: &'static Lang,
    old: Option<&[u8]>,
    new: &[u8],
    t: impl FnOnce() -> Thresholds,
    derive: bool,
    elsewhere: &Elsewhere<'_>,
) -> Report {
    // Large sides: the phases' buffers are reused rather than mapped
    // fresh each time (see `sys::alloc`); small ones are not worth it.
    if old.map_or(0, <[u8]>::len) + new.len() >= LARGE_SIDES {
        crate::sys::alloc::keep_large_blocks();
    }
    let mut reasons = Vec::new();
    let Some(old) = old else {
        let new_lines = lines(new).count();
        if is_binary(new) {
            reasons.push(Reason::Binary(Side::New));
        }
        return finish(1.0, 1.0, 0, new_lines, true, false, lang, "lines", reasons);
    };

    let old_binary = is_binary(old);
    let new_binary = is_binary(new);
    if old_binary {
        reasons.push(Reason::Binary(Side::Old));
    }
    if new_binary {
        reasons.push(Reason::Binary(Side::New));
    }
    // Each side is validated as UTF-8 once, for its encoding and its text.
    let (old_text, new_text) = (std::str::from_utf8(old).ok(), std::str::from_utf8(new).ok());
    let texts = match (old_text, new_text) {
        (Some(o), Some(n)) if !old_binary && !new_binary => Some((o, n)),
        _ => None,
    };
    if !old_binary && !new_binary {
        let of = |bytes: &[u8], text: Option<&str>| match text {
            Some(_) if bytes.starts_with(b"\xEF\xBB\xBF") => Encoding::Utf8Bom,
            Some(_) => Encoding::Utf8,
            None => Encoding::Other,
        };
        let (from, to) = (of(old, old_text), of(new, new_text));
        if from != to && !old.is_empty() && !new.is_empty() {
            reasons.push(Reason::Encoding { from, to });
        }
    }

    // What was removed and what stands in its place is judged on a thread
    // of its own beside the measurements, for a large pair.
    // The weighing of what the study found follows each piece on its
    // thread, beside the removals: the shared lines and placeholders as
    // soon as both sides are measured, the stubbed functions (for changes
    // all through) on the thread that scanned them.
    // Where the sides differ is worked out once, for both: an edit in one
    // place at once; changed parts all through on one core, the old side
    // being measured on the other meanwhile.
    let parallel = old.len() + new.len() >= PARALLEL_BYTES;
    let one = one_edit(old, new, derive);
    std::thread::scope(|scope| {
        let early = (one.is_none() && parallel)
            .then(|| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || measure(old, lang))
                    .ok()
            })
            .flatten();
        let old_measured = move || match early {
            // A panic there is the panic it would have been here.
            Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            None => measure(old, lang),
        };
        let changed = match one {
            Some(changed) => changed,
            None => all_through(old, new),
        };
        judged(
            lang,
            (old, new),
            texts,
            (old_binary, new_binary),
            t,
            elsewhere,
            &changed,
            old_measured,
            reasons,
        )
    })
}

/// [`judge`] once the sides' text and encodings are known and where they
/// differ (`changed`); `old_measured` measures the old side; `t` gives
/// the thresholds, asked for once the sides are measured and scanned.
#[allow(clippy::too_many_arguments)]
fn judged(
    lang: &'static Lang,
    (old, new): (&[u8], &[u8]),
    texts: Option<(&str, &str)>,
    (old_binary, new_binary): (bool, bool),
    t: impl FnOnce() -> Thresholds,
    elsewhere: &Elsewhere<'_>,
    changed: &Changed,
    old_measured: impl FnOnce() -> super::measure::Measured,
    mut reasons: Vec<Reason>,
) -> Report {
    let (found, (old_side, new_side, scans, common, elisions)) = both(
        old.len() + new.len() >= PARALLEL_BYTES,
        || {
            texts.map(|(o, n)| {
                let others = elsewhere.others(lang.prose);
                let mut found = match changed {
                    Changed::Hunks(parts) => removal::findings_parted(o, n, lang, others, parts),
                    _ => removal::findings(o, n, lang, others),
                };
                let more = embedded::findings(o, n, lang, others, &found);
                found.extend(more);
                found
            })
        },
        || {
            // Weighed as soon as both sides are measured, beside the scans.
            let weigh = |old_side: &Measured, new_side: &Measured| {
                // Lines `new` has more often than `old` are the only ones
                // that can add a placeholder; they are judged in a second
                // pass, once each.
                let mut surplus: std::collections::HashMap<
                    u64,
                    usize,
                    BuildHasherDefault<PassThrough>,
                > = std::collections::HashMap::default();
                let common = merge(&old_side.hashes, &new_side.hashes, |h, n| {
                    surplus.insert(h, n);
                });
                let elisions = if new_binary {
                    Vec::new()
                } else {
                    placeholders(new, old_side, surplus, changed, lang)
                };
                (common, elisions)
            };
            let ((old_side, new_side, old_scan, new_scan, same, stubbed), (common, elisions)) =
                study(old, new, texts, lang, changed, old_measured, weigh);
            let scans = match (texts, old_scan, new_scan) {
                (Some((o, n)), Some(before), Some(after)) => {
                    let stubbed = stubbed.unwrap_or_else(|| {
                        stubs::stubbed_between_known(&before, o, &after, n, lang, &same)
                    });
                    Some((before.balanced(), after.open_blocks, stubbed))
                }
                _ => None,
            };
            (old_side, new_side, scans, common, elisions)
        },
    );
    let t = &t();
    if !old_binary && !new_binary {
        let (from, to) = (old_side.endings(), new_side.endings());
        if matches!(
            (from, to),
            (LineEndings::Crlf, LineEndings::Lf) | (LineEndings::Lf, LineEndings::Crlf)
        ) {
            reasons.push(Reason::LineEndings { from, to });
        }
    }
    let mut jaccard = ratio_of(common, old_side.distinct, new_side.distinct);
    let mut volume = new_side.lines as f64 / old_side.lines.max(1) as f64;
    let (mut old_lines, mut new_lines) = (old_side.lines, new_side.lines);
    let mut tiny = old_lines < t.min_lines;
    let mut unit = "lines";
    let (mo, mn) = (old_side.meaningful(), new_side.meaningful());

    // Structured files: entries instead of lines.
    let mut structured = false;
    if let (Some(format), Some((o, n))) = (lang.format, texts) {
        if let Ok(old_doc) = structure::parse(o.as_bytes(), format) {
            structured = true;
            unit = match format {
                Format::Json | Format::Jsonc => "JSON entries",
                Format::Toml => "TOML entries",
                Format::Yaml => "YAML entries",
            };
            match structure::parse(n.as_bytes(), format) {
                Err(e) => reasons.push(Reason::Unparsable { format, error: e.0 }),
                Ok(new_doc) => {
                    let c = structure::compare(&old_doc, &new_doc, EMPTIED_MIN);
                    (jaccard, volume, old_lines, new_lines) =
                        (c.jaccard, c.volume, c.old_entries, c.new_entries);
                    tiny = old_lines < t.min_lines;
                    if !c.emptied.is_empty() && new_lines > 0 {
                        reasons.push(Reason::EmptiedContainers {
                            format,
                            paths: c.emptied,
                        });
                    }
                }
            }
        }
    }

    // Prose re-wrapped and tables with a column added or dropped change
    // every line and keep what they hold: judged by that instead.
    let mut reflowed = false;
    if let (false, true, Some((o, n))) = (structured, jaccard < t.jaccard, texts) {
        let kind = match (lang.prose, lang.name) {
            (true, _) => super::reflow::Kind::Prose,
            (false, "generic") => super::reflow::Kind::Unknown,
            _ => super::reflow::Kind::Code,
        };
        if let Some(j) = super::reflow::jaccard(o, n, kind).filter(|&j| j > jaccard) {
            (jaccard, reflowed) = (j, true);
        }
    }

    if new_lines == 0 && old_lines > 0 {
        reasons.push(Reason::Emptied { old_lines });
    } else if !tiny {
        if jaccard < t.jaccard {
            reasons.push(Reason::Jaccard {
                value: jaccard,
                min: t.jaccard,
            });
        }
        if volume < t.volume {
            reasons.push(Reason::Volume {
                value: volume,
                min: t.volume,
                old_lines,
                new_lines,
            });
        }
        if !structured && mo >= t.min_lines {
            let mc = meaningful_common(&old_side, &new_side, common);
            let mj = ratio_of(mc, mo, mn);
            let mv = mn as f64 / mo as f64;
            if mj < t.jaccard && jaccard >= t.jaccard && !reflowed {
                reasons.push(Reason::MeaningfulJaccard {
                    value: mj,
                    min: t.jaccard,
                });
            }
            if mv < t.volume && volume >= t.volume {
                reasons.push(Reason::MeaningfulVolume {
                    value: mv,
                    min: t.volume,
                    old_lines: mo,
                    new_lines: mn,
                });
            }
        }
    }

    // Padding: distinct code lost while filler lines were added.
    if !structured && mo >= t.min_lines {
        let kept = mn as f64 / mo as f64;
        let (old_junk, new_junk) = (old_side.junk(), new_side.junk());
        let added = new_junk.saturating_sub(old_junk);
        let share = |junk: usize, lines: usize| junk as f64 / lines.max(1) as f64;
        if kept < PADDED_KEPT
            && added >= PADDING_LINES
            && share(new_junk, new_side.lines) - share(old_junk, old_side.lines) > PADDING_SHARE
        {
            reasons.push(Reason::Padding { added, kept });
        }
    }

    // A cut at a line boundary is judged by volume only in structured
    // files; in code, open blocks and stubbed bodies show a cut, and
    // deleting the last functions of a file is an ordinary edit.
    let prefix_volume = if structured {
        t.volume + PREFIX_MARGIN
    } else {
        0.0
    };
    if let Some(how) = truncation(old, new, volume, prefix_volume) {
        reasons.push(Reason::Truncated { how });
    }
    if let Some((balanced, open_blocks, functions)) = scans {
        if balanced && open_blocks > 0 && !new.is_empty() {
            reasons.push(Reason::Truncated {
                how: format!(
                    "{} block{} opened but never closed",
                    open_blocks,
                    if open_blocks == 1 { " is" } else { "s are" }
                ),
            });
        }
        if !functions.is_empty() {
            reasons.push(Reason::Stubbed { functions });
        }
    }

    // What was removed and what stands in its place comes first: it says
    // where, and a placeholder on the same line says it again.
    let mut elisions = elisions;
    if let Some((o, n)) = texts {
        // A file split, its code moved to the other files of the change:
        // the ratios measure a move, not a loss.
        // (Only weighed when a ratio blocks: most files of a change keep
        // their lines, and the weighing reads both sides whole.)
        let ratio = |r: &Reason| {
            matches!(
                r,
                Reason::Jaccard { .. }
                    | Reason::Volume { .. }
                    | Reason::MeaningfulJaccard { .. }
                    | Reason::MeaningfulVolume { .. }
                    | Reason::Padding { .. }
                    | Reason::Truncated { .. }
            )
        };
        let others = elsewhere.others(lang.prose);
        if !others.is_empty()
            && reasons.iter().any(ratio)
            && removal::moved_away(o, n, lang, others) >= MOVED_AWAY
        {
            reasons.retain(|r| !ratio(r));
        }
        let mut found = found.unwrap_or_default();
        // A notebook's code cells are code: a cell cut to a note or a stub
        // is judged as in a script of the kernel's language.
        // So are a Markdown file's fenced blocks and a page's inline
        // scripts and styles.
        let old_code = lang::embedded_code(o, lang);
        if !old_code.is_empty() {
            let new_code = lang::embedded_code(n, lang);
            for (l, oc) in &old_code {
                let nc = new_code
                    .iter()
                    .find(|(x, _)| std::ptr::eq(*x, *l))
                    .map_or("", |(_, c)| c.as_str());
                found.extend(removal::findings(oc, nc, l, elsewhere.others(false)));
            }
        }
        elisions.retain(
            |e| !matches!(e, Reason::Elision { line, .. } if found.iter().any(|f| f.line == *line)),
        );
        let first: Vec<Reason> = found
            .into_iter()
            .take(MAX_REMOVALS)
            .map(Reason::Removed)
            .collect();
        reasons.splice(0..0, first);
    }
    reasons.extend(elisions);
    finish(
        jaccard, volume, old_lines, new_lines, false, tiny, lang, unit, reasons,
    )
}

/// A container of a structured file holding at least this many entries
/// may not be emptied (a key truncated mid-way, `environment: {}`).
const EMPTIED_MIN: usize = 3;
/// Padding is judged only when fewer than this share of the distinct code
/// lines is kept.
const PADDED_KEPT: f64 = 0.8;
/// At least this many filler lines must have been added…
const PADDING_LINES: usize = 10;
/// …raising their share of the file by more than this.
const PADDING_SHARE: f64 = 0.2;
/// A structured file that is the old one's beginning, cut at a line
/// boundary, is a truncation when its volume is under the threshold plus
/// this margin.
const PREFIX_MARGIN: f64 = 0.1;

#[allow(clippy::too_many_arguments)]
fn finish(
    jaccard: f64,
    volume: f64,
    old_lines: usize,
    new_lines: usize,
    new_file: bool,
    tiny: bool,
    lang: &Lang,
    unit: &'static str,
    reasons: Vec<Reason>,
) -> Report {
    Report {
        verdict: if reasons.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Block
        },
        jaccard,
        volume,
        old_lines,
        new_lines,
        unit,
        language: lang.name,
        new_file,
        tiny,
        reasons,
    }
}
