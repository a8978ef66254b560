//! What the bytes are, beyond their lines: binary or text, which
//! encoding, which line endings, and whether the new content is the old
//! one cut off.

use super::super::lines::Lines;
use super::{Encoding, LineEndings};

/// How many leading bytes are searched for a NUL, as git does.
const BINARY_PROBE: usize = 8000;

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

/// Returns how `new` looks cut off from `old`, if it does: the old
/// content's beginning ending inside a line that went on, or ending at a
/// line boundary while keeping little of it.
pub(super) fn truncation(old: &[u8], new: &[u8], volume: f64, min_volume: f64) -> Option<String> {
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
