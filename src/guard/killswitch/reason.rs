//! Why a write is blocked, and how it is said: the reasons the kill-switch
//! gives and their wording (one sentence each, the hook's 300 characters
//! at most for the first).

use std::fmt;

use super::super::lang::Format;
use super::super::removal;

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
        removal::Removal::Placeholders => write!(
            f,
            "the values of {lines} ({} line{}) were replaced by placeholders, as on line {}: `{}`",
            r.code_lines,
            if r.code_lines == 1 { "" } else { "s" },
            r.line,
            r.text
        ),
        removal::Removal::EmptiedBody => write!(
            f,
            "{lines} ({what}), the whole body of `{}`, were removed and its header kept on line {}",
            r.text, r.line
        ),
    }
}
