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
//! one side, wherever the edit is.

use std::fmt;

use serde::Serialize;

use super::elision;
use super::lang::{self, Format, Lang};
use super::lines::{hash_line, lines, seed, Lines, PassThrough};
use super::measure::{meaningful_common, measure, merge, Delta, Measured};
use super::{removal, structure, stubs};
use std::hash::BuildHasherDefault;

/// How many leading bytes are searched for a NUL, as git does.
const BINARY_PROBE: usize = 8000;

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

impl Thresholds {}

/// Whether a write may go ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The write may go ahead.
    Pass,
    /// The write is blocked.
    Block,
}

/// Which side of the comparison a property belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The current content.
    Old,
    /// The proposed content.
    New,
}

/// How content is encoded, as far as the kill-switch cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Valid UTF-8 (ASCII included) without a byte-order mark.
    Utf8,
    /// Valid UTF-8 starting with a byte-order mark.
    Utf8Bom,
    /// Bytes that are not valid UTF-8 (Latin-1, Shift-JIS…).
    Other,
}

/// Which line endings content uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEndings {
    /// No line break at all.
    None,
    /// Only `\n`.
    Lf,
    /// Only `\r\n`.
    Crlf,
    /// Both.
    Mixed,
}

/// Why a write is blocked.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    /// The new content has no non-blank line where the old one had some.
    Emptied {
        /// Non-blank lines in the old content.
        old_lines: usize,
    },
    /// Too few lines in common.
    Jaccard {
        /// The measured index.
        value: f64,
        /// The threshold.
        min: f64,
    },
    /// Too much content removed.
    Volume {
        /// The measured ratio.
        value: f64,
        /// The threshold.
        min: f64,
        /// Non-blank lines before.
        old_lines: usize,
        /// Non-blank lines after.
        new_lines: usize,
    },
    /// Code removed with something else standing in its place (a
    /// comment, a stub), or a block's body removed while its header stays.
    Removed(removal::Finding),
    /// A placeholder that stands for code left out.
    Elision {
        /// The 1-based line number in the new content.
        line: usize,
        /// The trimmed line.
        text: String,
    },
    /// Too few meaningful code lines in common (padding, comments and
    /// punctuation do not count).
    MeaningfulJaccard {
        /// The measured index.
        value: f64,
        /// The threshold.
        min: f64,
    },
    /// Too many meaningful code lines removed, however many blank,
    /// repeated, punctuation or comment lines replace them.
    MeaningfulVolume {
        /// The measured ratio.
        value: f64,
        /// The threshold.
        min: f64,
        /// Distinct meaningful code lines before.
        old_lines: usize,
        /// Distinct meaningful code lines after.
        new_lines: usize,
    },
    /// The new content looks cut off: the old content's beginning, ending
    /// in the middle of a line or well short of it, or with blocks left
    /// open.
    Truncated {
        /// What gives it away.
        how: String,
    },
    /// Code was removed and the line count padded back with repeated lines,
    /// invisible characters or lone comment markers.
    Padding {
        /// Padding lines added.
        added: usize,
        /// Distinct meaningful code lines kept, over those before.
        kept: f64,
    },
    /// Implemented function bodies became stubs.
    Stubbed {
        /// The functions, as named in the new content.
        functions: Vec<String>,
    },
    /// A structured file that parsed no longer does.
    Unparsable {
        /// The format.
        format: Format,
        /// The parser's message.
        error: String,
    },
    /// Containers of a structured file were emptied.
    EmptiedContainers {
        /// The format.
        format: Format,
        /// Their paths (`services.db`, `dependencies`).
        paths: Vec<String>,
    },
    /// Binary content cannot be judged.
    Binary(Side),
    /// The encoding would change.
    Encoding {
        /// The old encoding.
        from: Encoding,
        /// The new encoding.
        to: Encoding,
    },
    /// Every line ending would change.
    LineEndings {
        /// The old line endings.
        from: LineEndings,
        /// The new line endings.
        to: LineEndings,
    },
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with a byte-order mark",
            Encoding::Other => "non-UTF-8 bytes",
        })
    }
}

impl fmt::Display for LineEndings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineEndings::None => "no line breaks",
            LineEndings::Lf => "LF",
            LineEndings::Crlf => "CRLF",
            LineEndings::Mixed => "mixed line endings",
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let f_ = &mut *f;
        match self {
            Reason::Emptied { old_lines } => write!(
                f,
                "the new content is empty: it would delete all {old_lines} non-blank lines"
            ),
            Reason::Jaccard { value, min } => write!(
                f,
                "jaccard {value:.2} is below {min:.2}: too few lines in common with the current content"
            ),
            Reason::Volume {
                value,
                min,
                old_lines,
                new_lines,
            } => write!(
                f,
                "volume {value:.2} is below {min:.2}: {new_lines} non-blank lines where there were {old_lines}"
            ),
            Reason::Removed(f) => removed(f, f_),
            Reason::Elision { line, text } => write!(
                f,
                "line {line} stands for code left out: `{text}`"
            ),
            Reason::MeaningfulJaccard { value, min } => write!(
                f,
                "jaccard {value:.2} over meaningful code lines is below {min:.2}: too little code in common once comments, punctuation and repeated lines are left out"
            ),
            Reason::MeaningfulVolume {
                value,
                min,
                old_lines,
                new_lines,
            } => write!(
                f,
                "volume {value:.2} over meaningful code lines is below {min:.2}: {new_lines} distinct code lines where there were {old_lines} (comments, punctuation and repeated lines do not count)"
            ),
            Reason::Truncated { how } => write!(f, "the new content looks truncated: {how}"),
            Reason::Padding { added, kept } => write!(
                f,
                "{added} padding lines (repeated lines, invisible characters, lone comment markers) stand in for removed code: only {:.0}% of the distinct code lines are kept",
                kept * 100.0
            ),
            Reason::Stubbed { functions } => {
                let shown: Vec<String> = functions.iter().take(8).map(|n| format!("`{n}`")).collect();
                let more = functions.len().saturating_sub(shown.len());
                write!(
                    f,
                    "{} implemented function bod{} would become stubs: {}{}",
                    functions.len(),
                    if functions.len() == 1 { "y" } else { "ies" },
                    shown.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                )
            }
            Reason::Unparsable { format, error } => write!(
                f,
                "the current content is valid {} but the new content is not: {error}",
                format.name()
            ),
            Reason::EmptiedContainers { format, paths } => write!(
                f,
                "{} entries would be emptied: {}",
                format.name(),
                paths.iter().take(8).map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
            ),
            Reason::Binary(Side::Old) => f.write_str("the current content is binary"),
            Reason::Binary(Side::New) => f.write_str("the new content is binary"),
            Reason::Encoding { from, to } => {
                write!(f, "the encoding would change from {from} to {to}")
            }
            Reason::LineEndings { from, to } => {
                write!(f, "every line ending would change from {from} to {to}")
            }
        }
    }
}

/// Writes where code was removed and what stands in its place, in at
/// most about 160 characters (the quoted line is shortened at a word).
fn removed(r: &removal::Finding, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let (a, b) = r.old_lines;
    let lines = if a == b {
        format!("line {a}")
    } else {
        format!("lines {a}\u{2013}{b}")
    };
    let what = if r.blocks > 0 {
        let unit = match r.unit.strip_suffix("ies") {
            Some(stem) if r.blocks == 1 => format!("{stem}y"),
            _ if r.blocks == 1 => r.unit.strip_suffix('s').unwrap_or(r.unit).to_string(),
            _ => r.unit.to_string(),
        };
        format!("{} {unit}", r.blocks)
    } else {
        let plural = if r.code_lines == 1 { "" } else { "s" };
        if r.unit == "sections" {
            format!("{} line{plural} of text", r.code_lines)
        } else {
            format!("{} code line{plural}", r.code_lines)
        }
    };
    let note = if r.unit == "sections" {
        "note"
    } else {
        "comment"
    };
    match r.kind {
        removal::Removal::StandIn => write!(
            f,
            "{lines} ({what}) were replaced by the {note} on line {}: `{}`",
            r.line, r.text
        ),
        removal::Removal::Stub => write!(
            f,
            "{lines} ({what}) were replaced by the stub on line {}: `{}`",
            r.line, r.text
        ),
        removal::Removal::EmptiedBody => write!(
            f,
            "{lines} ({what}), the whole body of `{}`, were removed and its header kept on line {}",
            r.text, r.line
        ),
    }
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

/// Returns whether `bytes` look binary (a NUL among the first 8000 bytes).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_PROBE)].contains(&0)
}

/// Returns the encoding of `bytes`.
pub fn encoding(bytes: &[u8]) -> Encoding {
    match std::str::from_utf8(bytes) {
        Ok(_) if bytes.starts_with(b"\xEF\xBB\xBF") => Encoding::Utf8Bom,
        Ok(_) => Encoding::Utf8,
        Err(_) => Encoding::Other,
    }
}

/// Returns the line endings of `bytes`.
pub fn line_endings(bytes: &[u8]) -> LineEndings {
    let mut it = Lines::new(bytes);
    for _ in it.by_ref() {}
    it.endings()
}

/// At most this many placeholder lines are reported.
const MAX_ELISIONS: usize = 3;
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
    elsewhere: &Elsewhere,
) -> Report {
    let lang = lang::from_path(path).unwrap_or_else(|| lang::sniff(old.unwrap_or(new)));
    judge(lang, old, new, t, true, elsewhere)
}

/// One file of a change: its path, its content before (none for a new
/// file) and after.
pub type ChangedFile<'a> = (&'a str, Option<&'a [u8]>, &'a [u8]);

/// The code lines a change adds to its files, so that code moved from one
/// file to another is not taken for code removed.
#[derive(Default)]
pub struct Elsewhere(removal::Keys);

impl Elsewhere {
    /// Notes what the change does to the file at `path`: the code lines of
    /// `new` that `old` did not have.
    pub fn add(&mut self, path: &str, old: Option<&[u8]>, new: &[u8]) {
        let lang = lang::from_path(path).unwrap_or_else(|| lang::sniff(old.unwrap_or(new)));
        if let Ok(n) = std::str::from_utf8(new) {
            let o = old.and_then(|o| std::str::from_utf8(o).ok()).unwrap_or("");
            removal::added_keys(o, n, lang, &mut self.0);
        }
    }

    /// Returns an [`Elsewhere`] of the other files of a change: every
    /// `(path, old, new)` but the one at `skip`.
    pub fn of_others(files: &[ChangedFile<'_>], skip: usize) -> Elsewhere {
        let mut e = Elsewhere::default();
        for (i, (p, o, n)) in files.iter().enumerate() {
            if i != skip {
                e.add(p, *o, n);
            }
        }
        e
    }
}

fn ratio_of(common: usize, a: usize, b: usize) -> f64 {
    let union = a + b - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
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
    elsewhere: &Elsewhere,
) -> Report {
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
    let (found, (old_side, new_side, old_scan, new_scan, delta, same)) = both(
        old.len() + new.len() >= PARALLEL_BYTES,
        || texts.map(|(o, n)| removal::findings(o, n, lang, &elsewhere.0)),
        || study(old, new, texts, lang, derive),
    );
    // Lines `new` has more often than `old` are the only ones that can add
    // a placeholder; they are judged in a second pass, once each.
    let mut surplus: std::collections::HashMap<u64, usize, BuildHasherDefault<PassThrough>> =
        std::collections::HashMap::default();
    let common = merge(&old_side.hashes, &new_side.hashes, |h, n| {
        surplus.insert(h, n);
    });
    let elisions = if new_binary {
        Vec::new()
    } else {
        placeholders(new, &old_side, surplus, delta, lang)
    };
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
                Format::Json => "JSON entries",
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
            if mj < t.jaccard && jaccard >= t.jaccard {
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
    if let (Some((o, n)), Some(before), Some(after)) = (texts, old_scan, new_scan) {
        if before.balanced() && after.open_blocks > 0 && !new.is_empty() {
            reasons.push(Reason::Truncated {
                how: format!(
                    "{} block{} opened but never closed",
                    after.open_blocks,
                    if after.open_blocks == 1 {
                        " is"
                    } else {
                        "s are"
                    }
                ),
            });
        }
        let functions = stubs::stubbed_between_known(&before, o, &after, n, lang, &same);
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
        if !elsewhere.0.is_empty() && removal::moved_away(o, n, lang, &elsewhere.0) >= MOVED_AWAY {
            reasons.retain(|r| {
                !matches!(
                    r,
                    Reason::Jaccard { .. }
                        | Reason::Volume { .. }
                        | Reason::MeaningfulJaccard { .. }
                        | Reason::MeaningfulVolume { .. }
                        | Reason::Padding { .. }
                        | Reason::Truncated { .. }
                )
            });
        }
        let found = found.unwrap_or_default();
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

/// What is known of each side: its measured lines and, for text, its
/// functions and blocks; the edit's shared beginning and end, if it was
/// judged from its changed lines; and the functions known unchanged
/// (pairs of indices in the new and old scans).
type Studied<'a> = (
    Measured,
    Measured,
    Option<stubs::Scan<'a>>,
    Option<stubs::Scan<'a>>,
    Option<Delta>,
    Vec<(usize, usize)>,
);

/// Measures and scans both sides. An edit that leaves most of the file as
/// it was has its new side derived from the old one ([`Delta`]) and its
/// scan joined to the old one's. For a large pair, the pieces of work
/// (measuring; scanning each side for stubs) run on three threads, or on
/// two for an edit (the new side's scan is then short, and follows the
/// old side's).
fn study<'a>(
    old: &[u8],
    new: &[u8],
    texts: Option<(&'a str, &'a str)>,
    lang: &'static Lang,
    derive: bool,
) -> Studied<'a> {
    let parallel = old.len() + new.len() >= PARALLEL_BYTES;
    let delta = Some(Delta::of(old, new)).filter(|d| derive && d.worth_it(old.len(), new.len()));
    let measured = || {
        let old_side = measure(old, lang);
        let new_side = match delta {
            Some(d) => old_side.derive(old, new, d, lang),
            None => measure(new, lang),
        };
        (old_side, new_side)
    };
    // Only the brace scanner can start and stop mid-text: the other
    // scanners read each side whole, on a thread each.
    let Some(d) = delta.filter(|_| lang.blocks == lang::Blocks::Braces) else {
        let scan = |text: Option<&'a str>| text.map(|t| stubs::scan(t, lang));
        let ((old_scan, new_scan), (old_side, new_side)) = both(
            parallel,
            || {
                both(
                    parallel,
                    || scan(texts.map(|t| t.0)),
                    || scan(texts.map(|t| t.1)),
                )
            },
            measured,
        );
        return (old_side, new_side, old_scan, new_scan, delta, Vec::new());
    };
    // The new side's scan starts where the old one was just before the
    // changed lines and joins it past them: one thread scans the old side
    // and then the new side's changed part, while the other measures.
    let (old_tail, new_tail) = (old.len() - d.tail, new.len() - d.tail);
    let shift = new.len() as isize - old.len() as isize;
    let (scans, (old_side, new_side)) = both(
        parallel,
        || {
            texts.map(|(o, n)| {
                let old_scan = stubs::scan_old(o, lang, d.head, old_tail);
                let joined = stubs::scan_new(n, lang, &old_scan, d.head, new_tail, shift);
                (old_scan, joined)
            })
        },
        measured,
    );
    let (old_scan, new_scan, same) = match scans {
        Some((o, j)) => (Some(o), Some(j.scan), j.same),
        None => (None, None, Vec::new()),
    };
    let old_scan = old_scan.map(|o| o.scan);
    (old_side, new_side, old_scan, new_scan, delta, same)
}

/// Returns the placeholder lines among those `new` has more often than
/// `old` (`surplus`, by hash), at most [`MAX_ELISIONS`], each at its first
/// line. With a `delta`, a surplus line is in the shared beginning (then
/// `old` has it too) or in `new`'s changed part, so only the beginning is
/// read for the lines `old` has and then the changed part; the lines after
/// it never are.
fn placeholders(
    new: &[u8],
    old_side: &Measured,
    mut surplus: std::collections::HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
    delta: Option<Delta>,
    lang: &Lang,
) -> Vec<Reason> {
    let seed = seed();
    let mut found = Vec::new();
    let judge = |number: usize, l: &[u8], found: &mut Vec<Reason>| {
        if let Ok(text) = std::str::from_utf8(l) {
            if elision::is_placeholder_in(text, lang) {
                found.push(Reason::Elision {
                    line: number,
                    text: text.to_string(),
                });
            }
        }
    };
    let Some(delta) = delta else {
        for (number, l) in lines(new) {
            if found.len() >= MAX_ELISIONS || surplus.is_empty() {
                break;
            }
            if surplus.remove(&hash_line(seed, l)).is_some() {
                judge(number, l, &mut found);
            }
        }
        return found;
    };
    // Lines of the shared beginning are lines of `old`.
    let mut in_head = surplus.keys().filter(|h| old_side.contains(**h)).count();
    let head = &new[..delta.head];
    let mut it = lines(head);
    while in_head > 0 && found.len() < MAX_ELISIONS && !surplus.is_empty() {
        let Some((number, l)) = it.next() else { break };
        if surplus.remove(&hash_line(seed, l)).is_some() {
            in_head -= 1;
            judge(number, l, &mut found);
        }
    }
    if found.len() >= MAX_ELISIONS || surplus.is_empty() {
        return found;
    }
    // The changed part starts on the line after the beginning's last `\n`.
    let before = head.iter().filter(|&&b| b == b'\n').count();
    for (number, l) in lines(&new[delta.mid(new.len())]) {
        if found.len() >= MAX_ELISIONS || surplus.is_empty() {
            break;
        }
        if surplus.remove(&hash_line(seed, l)).is_some() {
            judge(before + number, l, &mut found);
        }
    }
    found
}

/// From this many bytes (both sides together) the sides are studied on two
/// threads: below it a thread costs more than it saves.
const PARALLEL_BYTES: usize = 256 * 1024;

/// Returns what `a` and `b` return, running `a` on a second thread when
/// `parallel` (or here, when no thread can be had).
fn both<A: Send, B>(parallel: bool, a: impl Fn() -> A + Sync, b: impl FnOnce() -> B) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    std::thread::scope(|s| match std::thread::Builder::new().spawn_scoped(s, &a) {
        Ok(handle) => {
            let y = b();
            // A panic on the thread is the panic it would have been here.
            let x = handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (x, y)
        }
        Err(_) => (a(), b()),
    })
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

/// Returns how `new` looks cut off from `old`, if it does: the old
/// content's beginning ending inside a line that went on, or ending at a
/// line boundary while keeping little of it.
fn truncation(old: &[u8], new: &[u8], volume: f64, min_volume: f64) -> Option<String> {
    let cut = new.trim_ascii_end();
    if cut.is_empty() || cut.len() >= old.trim_ascii_end().len() || !old.starts_with(cut) {
        return None;
    }
    let rest = &old[cut.len()..];
    let line = cut.iter().filter(|&&b| b == b'\n').count() + 1;
    let mid_line =
        !matches!(rest.first(), Some(b'\n' | b'\r' | b' ' | b'\t')) && rest.contains(&b'\n');
    if mid_line {
        Some(format!(
            "it is the current content cut off in the middle of line {line}"
        ))
    } else if volume < min_volume {
        Some(format!(
            "it is the current content cut off after line {line}, keeping {:.0}% of it",
            volume * 100.0
        ))
    } else {
        None
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lines::{self as text_lines, find_newline};
    use std::collections::HashSet;

    fn run(old: &str, new: &str) -> Report {
        check(Some(old.as_bytes()), new.as_bytes(), &Thresholds::default())
    }

    /// A file of `n` small Rust functions, the one numbered `stub` gutted.
    fn functions(n: usize, stub: Option<usize>) -> String {
        (0..n)
            .map(|i| match stub {
                Some(s) if s == i => format!("fn f{i}(x: u64) -> u64 {{\n    todo!()\n}}\n"),
                _ => format!("fn f{i}(x: u64) -> u64 {{\n    x * {i} + {}\n}}\n", i % 97),
            })
            .collect()
    }

    #[test]
    fn edits_judged_from_their_changed_lines_judge_as_whole_files() {
        // The new side derived from the old one (an edit that leaves most
        // of the file) must give the report of measuring it whole: the
        // ratios, the counts and every reason, placeholders at their lines.
        let t = Thresholds::default();
        let old = functions(60, None);
        let crlf = old.replace('\n', "\r\n");
        let mut pairs: Vec<(String, String)> = vec![
            (old.clone(), old.replacen("x * 7 + 7", "x * 7 + 8", 1)),
            (
                old.clone(),
                old.replacen("    x * 7 + 7\n", "    // ... existing code ...\n", 1),
            ),
            (
                old.clone(),
                old.replacen("    x * 50 + 50\n", "    // ... existing code ...\n", 1),
            ),
            (old.clone(), old.replacen("}\n", "}\n}\n// ...\n", 1)),
            (old.clone(), format!("{old}// ... rest of the code\n")),
            (old.clone(), format!("// ... rest of the code\n{old}")),
            (
                old.clone(),
                old.replacen("fn f30", "// rest unchanged\nfn f30", 1),
            ),
            (old.clone(), functions(60, Some(30))),
            (
                old.clone(),
                old.replacen("x * 3 + 3\n}\n", "x * 3 + 3\n", 1),
            ),
            (
                old.clone(),
                old.replacen("x * 3 + 3", "x\u{a0}*\u{200b} 3 + 3", 1),
            ),
            (
                old.clone(),
                old.replacen("    x * 9 + 9\n", "    \u{200b}\n    //\n", 1),
            ),
            (old.clone(), old[..old.len() - 10].to_string()),
            (old.clone(), old.replacen('\n', "\r\n", 1)),
            (crlf.clone(), crlf.replacen("x * 4 + 4", "x * 4 + 5", 1)),
            (
                crlf.clone(),
                crlf.replacen("x * 4 + 4\r\n", "x * 4 + 4\n", 1),
            ),
            (
                format!("{old}// ... rest of the code\n"),
                format!("{old}// ... rest of the code\nlet y = 1;\n"),
            ),
        ];
        let dup = format!("{old}{old}");
        pairs.push((dup.clone(), dup.replacen("x * 5 + 5", "x * 5 + 6", 2)));
        pairs.push((
            old.clone(),
            format!("{}{}", &old[..old.len() / 2], &old[old.len() / 2 + 200..]),
        ));
        for (name, (a, b)) in ["lib.rs", "a.py", "a.json", "notes.txt", "A.java", "a.js"]
            .iter()
            .flat_map(|n| pairs.iter().map(move |p| (*n, p)))
        {
            let lang = lang::from_path(name).expect("a language");
            for (x, y) in [(a, b), (b, a)] {
                let none = Elsewhere::default();
                let whole = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, false, &none);
                let derived = judge(lang, Some(x.as_bytes()), y.as_bytes(), &t, true, &none);
                assert_eq!(derived, whole, "{name}: {x:?} -> {y:?}");
            }
        }
    }

    /// Tokens that change how code is read (quotes, comment markers,
    /// braces, a regex, raw and verbatim strings, stub statements,
    /// placeholders, invisible and wide characters), for random edits.
    const TOKENS: &[&str] = &[
        "",
        "}",
        "{",
        ";",
        "\"",
        "'",
        "`",
        "/",
        "/*",
        "*/",
        "//",
        "#",
        "\n",
        "\r\n",
        "todo!()",
        "pass",
        "raise NotImplementedError",
        "throw new UnsupportedOperationException();",
        "// ... existing code ...",
        "# rest unchanged",
        "end",
        "def f():\n",
        "fn g() {\n",
        "\u{a0}",
        "x = 1 / 2; }\n",
        "return /}/;\n",
        "'}'",
        "r#\"{\"#",
        "@\"}\"\"\"",
        " ",
        "  ",
        "\t",
        "def ",
        "fn ",
        "function ",
        "class ",
        "=>",
        "->",
        "=",
        ":",
        "(",
        ")",
        "<",
        ">",
        "é",
        "日",
        "r#\"",
        "@\"",
        "\"\"\"",
        "'''",
        "do",
        "if ",
        "x",
        "return",
        "[",
        "]",
        ",",
        "$",
        "\\",
        "<!--",
        "-->",
        "--",
        "#[",
        "//!",
        "`${",
        "}`",
        "\u{200b}",
        "\u{feff}",
        "\r",
        "::",
        ".",
        "?",
        "!",
    ];

    /// A seeded xorshift: `next(n)` is below `n`; `FARARONI_TEST_SEED`
    /// replaces the seed.
    fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut seed = std::env::var("FARARONI_TEST_SEED")
            .ok()
            .and_then(|e| e.parse().ok())
            .unwrap_or(seed);
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        }
    }

    /// `i`, moved back to a character boundary of `s`.
    fn floor(s: &str, mut i: usize) -> usize {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    /// Random edits of every file of the corpus — a range replaced by a
    /// token that changes how code is read (quotes, comment markers,
    /// braces, a regex, stub statements, placeholders) or by a piece of the
    /// same case's new file — judged from their changed lines and whole:
    /// the same report, both ways (`FARARONI_TEST_EDITS` per file, 6;
    /// `FARARONI_TEST_SEED`).
    #[test]
    fn random_edits_of_the_corpus_judge_as_whole_files() {
        let t = Thresholds::default();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/guard/corpus");
        let mut next = rng(0x2545_F491_4F6C_DD1D);
        let mut judged = 0;
        let mut files: Vec<_> = std::fs::read_dir(&root)
            .expect("corpus")
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().contains(".old."))
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (Ok(old), Ok(other)) = (
                std::fs::read_to_string(&path),
                std::fs::read_to_string(path.to_string_lossy().replace(".old.", ".new.")),
            ) else {
                continue;
            };
            let lang = lang::from_path(&name).unwrap_or_else(|| lang::sniff(old.as_bytes()));
            for _ in 0..std::env::var("FARARONI_TEST_EDITS")
                .ok()
                .and_then(|e| e.parse().ok())
                .unwrap_or(6)
            {
                let a = floor(&old, next(old.len() + 1));
                let b = floor(&old, (a + next(200)).min(old.len())).max(a);
                let piece = match next(2) {
                    0 => TOKENS[next(TOKENS.len())].to_string(),
                    _ => {
                        let c = floor(&other, next(other.len() + 1));
                        other[c..floor(&other, (c + next(200)).min(other.len()))].to_string()
                    }
                };
                let new = format!("{}{piece}{}", &old[..a], &old[b..]);
                for (x, y) in [(&old, &new), (&new, &old)] {
                    let whole = judge(
                        lang,
                        Some(x.as_bytes()),
                        y.as_bytes(),
                        &t,
                        false,
                        &Elsewhere::default(),
                    );
                    let derived = judge(
                        lang,
                        Some(x.as_bytes()),
                        y.as_bytes(),
                        &t,
                        true,
                        &Elsewhere::default(),
                    );
                    assert_eq!(derived, whole, "{name}: {x:?} -> {y:?}");
                    judged += 1;
                }
            }
        }
        assert!(judged > 5_000, "{judged}");
    }

    /// Text made of tokens that change how code is read, edited at random
    /// in every language: never a panic, and the same report judged from
    /// the changed lines as whole (`FARARONI_TEST_EDITS`, 100 texts;
    /// `FARARONI_TEST_SEED`).
    #[test]
    fn random_token_soup_judges_as_whole_files_in_every_language() {
        let t = Thresholds::default();
        let mut next = rng(99);
        let names = [
            "a.rs", "a.py", "a.rb", "a.lua", "a.ex", "A.java", "a.js", "a.ts", "A.cs", "a.go",
            "a.kt", "a.scala", "a.php", "a.swift", "a.c", "a.json", "a.toml", "a.yaml", "a.txt",
            "a.dart", "a.cpp",
        ];
        let n: usize = std::env::var("FARARONI_TEST_EDITS")
            .ok()
            .and_then(|e| e.parse().ok())
            .unwrap_or(100);
        for _ in 0..n {
            let len = next(400);
            let old: String = (0..len).map(|_| TOKENS[next(TOKENS.len())]).collect();
            let mut new = old.clone();
            for _ in 0..1 + next(3) {
                let a = floor(&new, next(new.len() + 1));
                let b = floor(&new, (a + next(30)).min(new.len())).max(a);
                let ins: String = (0..next(6)).map(|_| TOKENS[next(TOKENS.len())]).collect();
                new = format!("{}{ins}{}", &new[..a], &new[b..]);
            }
            for name in names {
                let Some(lang) = lang::from_path(name) else {
                    continue;
                };
                let w = judge(
                    lang,
                    Some(old.as_bytes()),
                    new.as_bytes(),
                    &t,
                    false,
                    &Elsewhere::default(),
                );
                let d = judge(
                    lang,
                    Some(old.as_bytes()),
                    new.as_bytes(),
                    &t,
                    true,
                    &Elsewhere::default(),
                );
                assert_eq!(w, d, "{name}: {old:?} -> {new:?}");
            }
        }
    }

    #[test]
    fn large_pairs_studied_on_two_threads_judge_as_small_ones() {
        // Past the threshold, each side is measured and scanned on its own
        // thread: the verdicts must be those of the one-thread path.
        let t = Thresholds::default();
        for n in [40, 20_000] {
            let old = functions(n, None);
            assert_eq!(old.len() >= PARALLEL_BYTES, n > 40, "{n}");
            let stubbed = functions(n, Some(n / 2));
            let r = check_file("lib.rs", Some(old.as_bytes()), stubbed.as_bytes(), &t);
            assert!(r.blocked(), "{n}: {:?}", r.reasons);
            assert!(
                r.reasons.iter().any(|x| matches!(x, Reason::Stubbed { functions } if functions == &[format!("f{}", n / 2)])),
                "{n}: {:?}",
                r.reasons
            );
            let edited = old.replacen("x * 7 + 7", "x * 7 + 8", 1);
            assert_ne!(edited, old);
            let r = check_file("lib.rs", Some(old.as_bytes()), edited.as_bytes(), &t);
            assert!(!r.blocked(), "{n}: {:?}", r.reasons);
            let cut = &old[..old.len() / 3];
            let r = check_file("lib.rs", Some(old.as_bytes()), cut.as_bytes(), &t);
            assert!(r.blocked(), "{n}: a third left");
            let elided = old.replacen("    x * 7 + 7\n", "    // ... existing code ...\n", 1);
            let r = check_file("lib.rs", Some(old.as_bytes()), elided.as_bytes(), &t);
            assert!(r.blocked(), "{n}: placeholder: {:?}", r.reasons);
        }
    }

    /// The seed's worked example: a 45-line class (43 distinct lines) cut to
    /// 20 lines, one of them `// ... rest of the code`.
    fn seed_pair() -> (&'static str, &'static str) {
        (
            include_str!("../../fixtures/guard/seed-old.java"),
            include_str!("../../fixtures/guard/seed-new.java"),
        )
    }

    #[test]
    fn seed_example_is_blocked_for_volume() {
        let (old, new) = seed_pair();
        let r = run(old, new);
        assert_eq!((r.old_lines, r.new_lines), (45, 20));
        assert_eq!(format!("{:.2}", r.jaccard), "0.43");
        assert_eq!(format!("{:.2}", r.volume), "0.44");
        assert!(r.blocked());
        // What was removed and what stands in its place comes first; the
        // placeholder's line is the one that reason names.
        assert!(
            matches!(&r.reasons[0], Reason::Removed(f) if f.line == 19),
            "{r:?}"
        );
        assert!(r.reasons.iter().any(|x| matches!(x, Reason::Volume { .. })));
        assert!(!r
            .reasons
            .iter()
            .any(|x| matches!(x, Reason::Jaccard { .. })));
    }

    #[test]
    fn pom_version_bump_passes() {
        let mut lines = vec![
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<project>",
            "  <modelVersion>4.0.0</modelVersion>",
            "  <groupId>edu.demo</groupId>",
            "  <artifactId>creditos</artifactId>",
            "  <version>1.0.0</version>",
            "  <properties>",
            "    <maven.compiler.source>17</maven.compiler.source>",
            "    <maven.compiler.target>17</maven.compiler.target>",
            "    <java.version>17</java.version>",
            "  </properties>",
            "  <dependencies>",
            "    <dependency>",
            "      <groupId>junit</groupId>",
            "      <artifactId>junit</artifactId>",
            "    </dependency>",
            "  </dependencies>",
            "</project>",
        ];
        let old = lines.join("\n");
        for l in lines.iter_mut() {
            if l.contains(">17<") {
                *l = match *l {
                    s if s.contains("source") => {
                        "    <maven.compiler.source>25</maven.compiler.source>"
                    }
                    s if s.contains("target") => {
                        "    <maven.compiler.target>25</maven.compiler.target>"
                    }
                    _ => "    <java.version>25</java.version>",
                };
            }
        }
        let r = run(&old, &lines.join("\n"));
        assert_eq!(r.verdict, Verdict::Pass, "{r:?}");
        assert!(r.jaccard > 0.6 && (r.volume - 1.0).abs() < 1e-9);
    }

    #[test]
    fn jaccard_below_threshold_blocks_a_rewrite() {
        let old: String = (0..20).map(|i| format!("old line {i}\n")).collect();
        let new: String = (0..20).map(|i| format!("new line {i}\n")).collect();
        let r = run(&old, &new);
        assert!(r.blocked());
        assert_eq!(r.jaccard, 0.0);
        assert!(matches!(r.reasons[..], [Reason::Jaccard { .. }]));
    }

    #[test]
    fn elision_blocks_only_when_the_old_content_lacked_it() {
        let body: String = (0..10).map(|i| format!("let x{i} = {i};\n")).collect();
        let with = format!("{body}// ... rest of the code\n");
        assert!(run(&body, &with).blocked());
        // The same placeholder already present is not new.
        assert_eq!(
            run(&with, &format!("{with}let y = 1;\n")).verdict,
            Verdict::Pass
        );
        // Spanish.
        assert!(run(&body, &format!("{body}# resto del código sin cambios\n")).blocked());
    }

    #[test]
    fn emptying_a_file_blocks_even_a_tiny_one() {
        let r = run("a\nb\n", "  \n\n");
        assert!(r.blocked());
        assert!(matches!(r.reasons[..], [Reason::Emptied { old_lines: 2 }]));
        assert_eq!(run("", "").verdict, Verdict::Pass);
    }

    #[test]
    fn tiny_files_may_be_rewritten() {
        let r = run("a\nb\nc\n", "x\n");
        assert_eq!(r.verdict, Verdict::Pass);
        assert!(r.tiny);
        assert_eq!(r.jaccard, 0.0);
        // But not with a placeholder.
        assert!(run("a\nb\nc\n", "x\n// ...\n").blocked());
    }

    #[test]
    fn new_files_pass_unless_binary() {
        let r = check(
            None,
            b"fn main() {}\n// ... rest of the code\n",
            &Thresholds::default(),
        );
        assert_eq!(r.verdict, Verdict::Pass);
        assert!(r.new_file);
        assert_eq!((r.jaccard, r.volume), (1.0, 1.0));
        let r = check(None, b"\x00\x01\x02", &Thresholds::default());
        assert_eq!(r.reasons, vec![Reason::Binary(Side::New)]);
    }

    #[test]
    fn binary_and_encoding_changes_block() {
        let text: String = (0..10).map(|i| format!("line {i}\n")).collect();
        let mut bin = text.clone().into_bytes();
        bin[3] = 0;
        let r = check(Some(&bin), text.as_bytes(), &Thresholds::default());
        assert_eq!(r.reasons, vec![Reason::Binary(Side::Old)]);

        let latin1: Vec<u8> = text
            .replace("line", "l\u{ed}nea")
            .chars()
            .map(|c| c as u8)
            .collect();
        let utf8 = text.replace("line", "l\u{ed}nea");
        let r = check(Some(&latin1), utf8.as_bytes(), &Thresholds::default());
        assert!(
            matches!(
                r.reasons[..],
                [
                    Reason::Encoding {
                        from: Encoding::Other,
                        to: Encoding::Utf8
                    },
                    ..
                ]
            ),
            "{r:?}"
        );

        let bom = format!("\u{feff}{text}");
        let r = run(&bom, &text);
        assert!(
            matches!(
                r.reasons[..],
                [
                    Reason::Encoding {
                        from: Encoding::Utf8Bom,
                        to: Encoding::Utf8
                    },
                    ..
                ]
            ),
            "{r:?}"
        );
    }

    #[test]
    fn crlf_files_keep_their_line_endings() {
        let crlf: String = (0..10).map(|i| format!("line {i}\r\n")).collect();
        let edited = crlf.replace("line 3", "line three");
        assert_eq!(run(&crlf, &edited).verdict, Verdict::Pass);
        let lf = crlf.replace("\r\n", "\n");
        let r = run(&crlf, &lf);
        assert!(matches!(
            r.reasons[..],
            [Reason::LineEndings {
                from: LineEndings::Crlf,
                to: LineEndings::Lf
            }]
        ));
        // Line contents are compared without their `\r`.
        assert_eq!(r.jaccard, 1.0);
    }

    #[test]
    fn lines_split_like_the_naive_way() {
        for text in [
            "",
            "a",
            "a\n",
            "\n\n  \n",
            "0123456\n01234567\n012345678\r\n\tx  \n",
            "line one\r\nline two\nlast without newline",
        ] {
            let naive: Vec<(usize, &[u8])> = text
                .as_bytes()
                .split(|&b| b == b'\n')
                .enumerate()
                .map(|(i, l)| (i + 1, l.trim_ascii()))
                .filter(|(_, l)| !l.is_empty())
                .collect();
            assert_eq!(
                lines(text.as_bytes()).collect::<Vec<_>>(),
                naive,
                "{text:?}"
            );
        }
        assert_eq!(line_endings(b"a\r\nb\r\n"), LineEndings::Crlf);
        assert_eq!(line_endings(b"a\nb\r\n"), LineEndings::Mixed);
        assert_eq!(line_endings(b"ab"), LineEndings::None);
        for i in 0..20 {
            let mut v = vec![b'x'; 20];
            v[i] = b'\n';
            assert_eq!(find_newline(&v), Some(i));
        }
        assert_eq!(find_newline(b"no newline here at all"), None);
    }

    #[test]
    fn thresholds_are_respected() {
        let old: String = (0..10).map(|i| format!("l{i}\n")).collect();
        let new: String = (0..4).map(|i| format!("l{i}\n")).collect();
        let lax = Thresholds {
            jaccard: 0.3,
            volume: 0.3,
            min_lines: 5,
        };
        assert_eq!(
            check(Some(old.as_bytes()), new.as_bytes(), &lax).verdict,
            Verdict::Pass
        );
        assert!(run(&old, &new).blocked());
    }

    fn file(name: &str, old: &str, new: &str) -> Report {
        check_file(
            name,
            Some(old.as_bytes()),
            new.as_bytes(),
            &Thresholds::default(),
        )
    }

    fn has(r: &Report, p: impl Fn(&Reason) -> bool) -> bool {
        r.reasons.iter().any(p)
    }

    const PY: &str = "import os\n\n\ndef load(path):\n    with open(path) as f:\n        data = f.read()\n    return data.split()\n\n\ndef save(path, words):\n    text = \" \".join(words)\n    with open(path, \"w\") as f:\n        f.write(text)\n    return len(text)\n\n\ndef count(words):\n    seen = {}\n    for w in words:\n        seen[w] = seen.get(w, 0) + 1\n    return seen\n";

    #[test]
    fn a_placeholder_the_old_file_had_excuses_nothing_new() {
        let old = format!("{PY}# ... rest of the code\n");
        let new = PY.replace(
            "def count(words):",
            "# ... rest of the code\n\n\ndef count(words):",
        );
        let new = format!("{new}# ... rest of the code\n");
        let r = file("a.py", &old, &new);
        assert!(has(&r, |x| matches!(x, Reason::Elision { .. })), "{r:?}");
        assert_eq!(
            file("a.py", &old, &format!("{old}\n")).verdict,
            Verdict::Pass
        );
    }

    #[test]
    fn stubbed_bodies_are_named() {
        let new = PY
            .replace("    with open(path) as f:\n        data = f.read()\n    return data.split()", "    raise NotImplementedError")
            .replace("    text = \" \".join(words)\n    with open(path, \"w\") as f:\n        f.write(text)\n    return len(text)", "    pass");
        let r = file("a.py", PY, &new);
        assert!(
            has(
                &r,
                |x| matches!(x, Reason::Stubbed { functions } if functions == &["load", "save"])
            ),
            "{r:?}"
        );
        // The same stubs in a type stub file are declarations.
        assert!(!has(&file("a.pyi", PY, &new), |x| matches!(
            x,
            Reason::Stubbed { .. }
        )));
    }

    #[test]
    fn padding_does_not_buy_volume_back() {
        let old: String = (0..20)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        let kept: String = (0..9)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        let pad = "\u{a0}\u{a0}\n\u{200b}\n//\n".repeat(6);
        let r = file("a.rs", &old, &format!("{kept}{pad}"));
        assert!(r.volume >= 0.5, "the seed's volume is fooled: {r:?}");
        assert!(
            has(&r, |x| matches!(x, Reason::MeaningfulVolume { .. }))
                && has(&r, |x| matches!(x, Reason::Padding { .. })),
            "{r:?}"
        );
        // Repeating kept lines is padding too.
        let repeated = format!("{kept}{kept}{kept}");
        assert!(file("a.rs", &old, &repeated).blocked());
    }

    #[test]
    fn truncation_is_recognised() {
        let old: String = (0..20)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        let cut = &old[..old.len() * 6 / 10 + 3];
        let r = file("a.rs", &old, cut);
        assert!(has(&r, |x| matches!(x, Reason::Truncated { .. })), "{r:?}");
        let open = "fn a() {\n    let x = 1;\n    if x > 0 {\n        b();\n    }\n    c();\n}\n";
        let r = file(
            "a.rs",
            &format!("{open}{open}"),
            &format!("{open}fn a() {{\n    let x = 1;\n"),
        );
        assert!(has(&r, |x| matches!(x, Reason::Truncated { .. })), "{r:?}");
        // Deleting the last part of a file, keeping most of it, is an edit.
        let most: String = (0..16)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        assert_eq!(file("a.rs", &old, &most).verdict, Verdict::Pass);
    }

    #[test]
    fn structured_files_are_judged_by_their_entries() {
        let big = format!(
            "{{{}}}",
            (0..60)
                .map(|i| format!("\"key{i}\":{{\"v\":{i}}}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let r = file("data.json", &big, "{}");
        assert!(r.blocked());
        assert_eq!((r.unit, r.old_lines, r.new_lines), ("JSON entries", 120, 0));
        // Pretty-printing the same document changes every line, no entry.
        let pretty = serde_json::to_string_pretty(
            &serde_json::from_str::<serde_json::Value>(&big).expect("valid JSON"),
        )
        .expect("serialises");
        assert_eq!(file("data.json", &big, &pretty).verdict, Verdict::Pass);
        let r = file(
            "Cargo.toml",
            "[package]\nname = \"x\"\nversion = \"1\"\n",
            "[package]\nname = \"x",
        );
        assert!(
            has(&r, |x| matches!(
                x,
                Reason::Unparsable {
                    format: Format::Toml,
                    ..
                }
            )),
            "{r:?}"
        );
        // Unparsable before: judged by lines like any text.
        let r = file("bad.json", "{ not json\n", "{ still not json\n");
        assert_eq!(r.unit, "lines");
    }

    #[test]
    fn meaningful_counts_match_a_plain_set_computation() {
        let lang = lang::from_path("a.rs").expect("rust");
        let naive = |text: &str| -> HashSet<Vec<u8>> {
            let mut scratch = Vec::new();
            lines(text.as_bytes())
                .filter_map(|(_, l)| text_lines::meaningful(l, &mut scratch).map(<[u8]>::to_vec))
                .filter(|k| !text_lines::is_comment(k, lang))
                .collect()
        };
        let samples = [
            "let x = 1;\nlet  x = 1;\n}\n// note\nlet y = 2;\nlet y = 2;\n",
            "let x = 1;\nlet\u{a0}x = 1;\nz\u{200b}\nz\n// note\n\u{a0}\n",
            "let  y = 2;\nlet q = 3;\n#\n{\n}\nlet\tq = 3;\n",
            "a\nb\nc\n",
            "",
        ];
        for old in samples {
            for new in samples {
                let o = measure(old.as_bytes(), lang);
                let n = measure(new.as_bytes(), lang);
                let common = merge(&o.hashes, &n.hashes, |_, _| {});
                let (no, nn) = (naive(old), naive(new));
                assert_eq!(o.meaningful(), no.len(), "{old:?}");
                assert_eq!(
                    meaningful_common(&o, &n, common),
                    no.intersection(&nn).count(),
                    "{old:?} -> {new:?}"
                );
            }
        }
    }
}
