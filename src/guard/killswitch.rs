//! Layer 1 of the protection triad: the kill-switch that compares old and
//! new content before a write and blocks destructive rewrites. Pure
//! functions over bytes; never touches the disk.
//!
//! The ratios are the seed's: the Jaccard index of the sets of non-blank,
//! whitespace-trimmed lines, and the volume ratio of non-blank line counts
//! (new / old). Beyond the ratios the kill-switch blocks elision
//! placeholders the old content did not have, emptying a file, binary
//! content, and changes of encoding (UTF-8 ↔ other bytes, a byte-order mark
//! added or removed) or of line endings (all CRLF ↔ all LF).
//!
//! Decisions (see the tests):
//! - A new file (no old content) passes, unless it is binary.
//! - A *tiny* old file (fewer than [`Thresholds::min_lines`] non-blank
//!   lines, 5 by default) may be rewritten freely: the ratios are reported
//!   but not applied; emptying it, elision, binary and encoding rules still
//!   apply.
//! - With no old lines the volume ratio divides by one and the Jaccard index
//!   of two empty sets is 1.
//!
//! The cost is linear in the size of both inputs: one pass each, with hash
//! sets of borrowed line slices.

use std::collections::HashSet;
use std::fmt;

use serde::Serialize;

use super::elision;
use super::lines::{hash_line, lines, seed, LineSet, Lines};
use super::GuardError;
use crate::git::Repo;

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

impl Thresholds {
    /// Returns the thresholds configured in `repo` (or the global git config
    /// when there is no repository), defaults for unset keys.
    pub fn from_config(repo: Option<&Repo>) -> Result<Thresholds, GuardError> {
        let get = |key: &str| match repo {
            Some(r) => r.config_string(key),
            None => crate::git::repo::global_config_string(key),
        };
        let mut t = Thresholds::default();
        for (key, slot) in [
            ("fararoni.guard.jaccard", &mut t.jaccard),
            ("fararoni.guard.volume", &mut t.volume),
        ] {
            if let Some(raw) = get(key) {
                *slot = raw
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| GuardError::Config {
                        key: key.to_string(),
                        value: raw.clone(),
                        expected: "a number between 0 and 1",
                    })?;
            }
        }
        if let Some(raw) = get("fararoni.guard.minLines") {
            t.min_lines = raw.trim().parse().map_err(|_| GuardError::Config {
                key: "fararoni.guard.minLines".into(),
                value: raw.clone(),
                expected: "a whole number",
            })?;
        }
        Ok(t)
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
    /// A placeholder that stands for code left out.
    Elision {
        /// The 1-based line number in the new content.
        line: usize,
        /// The trimmed line.
        text: String,
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
            Reason::Elision { line, text } => write!(
                f,
                "line {line} stands for code left out: `{text}`"
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

/// The kill-switch's measurements and verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Pass or block.
    pub verdict: Verdict,
    /// Jaccard index of the sets of non-blank trimmed lines.
    pub jaccard: f64,
    /// New non-blank line count over old non-blank line count.
    pub volume: f64,
    /// Non-blank lines in the old content (0 for a new file).
    pub old_lines: usize,
    /// Non-blank lines in the new content.
    pub new_lines: usize,
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

/// Compares `old` (`None` for a file that does not exist yet) with `new`
/// and returns the verdict with its measurements.
pub fn check(old: Option<&[u8]>, new: &[u8], t: &Thresholds) -> Report {
    let mut reasons = Vec::new();
    let Some(old) = old else {
        let new_lines = lines(new).count();
        if is_binary(new) {
            reasons.push(Reason::Binary(Side::New));
        }
        return finish(1.0, 1.0, 0, new_lines, true, false, reasons);
    };

    let old_binary = is_binary(old);
    let new_binary = is_binary(new);
    if old_binary {
        reasons.push(Reason::Binary(Side::Old));
    }
    if new_binary {
        reasons.push(Reason::Binary(Side::New));
    }
    if !old_binary && !new_binary {
        let (from, to) = (encoding(old), encoding(new));
        if from != to && !old.is_empty() && !new.is_empty() {
            reasons.push(Reason::Encoding { from, to });
        }
    }

    let seed = seed();
    let mut old_set: LineSet =
        HashSet::with_capacity_and_hasher(old.len() / 40 + 1, Default::default());
    let mut old_lines = 0usize;
    let mut old_iter = lines(old);
    for (_, l) in old_iter.by_ref() {
        old_lines += 1;
        old_set.insert(hash_line(seed, l));
    }
    let mut new_set: LineSet =
        HashSet::with_capacity_and_hasher(new.len() / 40 + 1, Default::default());
    let mut new_lines = 0usize;
    let mut common = 0usize;
    let mut elisions = Vec::new();
    let mut new_iter = lines(new);
    for (number, l) in new_iter.by_ref() {
        new_lines += 1;
        let hash = hash_line(seed, l);
        if !new_set.insert(hash) {
            continue;
        }
        if old_set.contains(&hash) {
            common += 1;
        } else if elisions.len() < MAX_ELISIONS && !new_binary {
            if let Ok(text) = std::str::from_utf8(l) {
                if elision::is_placeholder(text) {
                    elisions.push(Reason::Elision {
                        line: number,
                        text: text.to_string(),
                    });
                }
            }
        }
    }
    if !old_binary && !new_binary {
        let (from, to) = (old_iter.endings(), new_iter.endings());
        if matches!(
            (from, to),
            (LineEndings::Crlf, LineEndings::Lf) | (LineEndings::Lf, LineEndings::Crlf)
        ) {
            reasons.push(Reason::LineEndings { from, to });
        }
    }
    let union = old_set.len() + new_set.len() - common;
    let jaccard = if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    };
    let volume = new_lines as f64 / old_lines.max(1) as f64;
    let tiny = old_lines < t.min_lines;

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
    }
    reasons.extend(elisions);
    finish(jaccard, volume, old_lines, new_lines, false, tiny, reasons)
}

fn finish(
    jaccard: f64,
    volume: f64,
    old_lines: usize,
    new_lines: usize,
    new_file: bool,
    tiny: bool,
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
        new_file,
        tiny,
        reasons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lines::find_newline;

    fn run(old: &str, new: &str) -> Report {
        check(Some(old.as_bytes()), new.as_bytes(), &Thresholds::default())
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
        assert!(matches!(r.reasons[0], Reason::Volume { .. }), "{r:?}");
        assert!(r
            .reasons
            .iter()
            .any(|x| matches!(x, Reason::Elision { line: 19, .. })));
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
}
