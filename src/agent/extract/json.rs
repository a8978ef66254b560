//! Finding JSON values in free text: brace matching that respects strings
//! and escapes, in one pass with a bounded amount of rescanning, so a
//! megabyte reply costs linear time whatever it holds.

use std::ops::Range;

use serde_json::Value;

/// How many bytes the scanner may examine per byte of input before it stops
/// retrying unclosed openings (keeps pathological input linear).
const WORK_FACTOR: usize = 4;

/// Returns every top-level JSON object or array in `text` that parses, with
/// its byte range.
pub fn json_values(text: &str) -> Vec<(Range<usize>, Value)> {
    json_values_where(text, |_| true)
}

/// Like [`json_values`], parsing only the balanced spans `worth` accepts
/// (a cheap test that spares parsing JSON that cannot matter).
pub fn json_values_where(text: &str, worth: impl Fn(&str) -> bool) -> Vec<(Range<usize>, Value)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut budget = bytes.len().saturating_mul(WORK_FACTOR).max(1024);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'{' && bytes[i] != b'[' {
            i += 1;
            continue;
        }
        let (end, spent) = matching_end(bytes, i);
        budget = budget.saturating_sub(spent);
        match end {
            Some(end) => {
                let slice = &text[i..=end];
                if !worth(slice) {
                    i = end + 1;
                    continue;
                }
                match serde_json::from_str::<Value>(slice) {
                    Ok(v) => {
                        out.push((i..end + 1, v));
                        i = end + 1;
                    }
                    // Nested deeper than any call (and than serde_json's
                    // recursion limit): every opening inside it is as deep
                    // or fails the same way, so it is skipped whole; trying
                    // each would be quadratic.
                    Err(e) if e.to_string().contains("recursion limit") => i = end + 1,
                    // Balanced but not JSON (`{braces}` in prose, a JS
                    // object): a call may still sit inside it, while the
                    // budget lasts.
                    Err(_) if budget == 0 => i = end + 1,
                    Err(_) => i += 1,
                }
            }
            None if budget == 0 => break,
            None => i += 1,
        }
    }
    out
}

/// Returns the index of the bracket closing the one at `start` (strings
/// and escapes respected), and how many bytes were examined.
pub fn matching_end(bytes: &[u8], start: usize) -> (Option<usize>, usize) {
    let mut stack: Vec<u8> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for (n, &b) in bytes[start..].iter().enumerate() {
        let i = start + n;
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => stack.push(b'}'),
            b'[' => stack.push(b']'),
            b'}' | b']' => {
                if stack.pop() != Some(b) {
                    return (None, n + 1);
                }
                if stack.is_empty() {
                    return (Some(i), n + 1);
                }
            }
            _ => {}
        }
    }
    (None, bytes.len() - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_escapes_do_not_close_objects() {
        let t = r#"say {"a": "}{\"", "b": [1, {"c": "]"}]} done"#;
        let v = json_values(t);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].1["b"][1]["c"], "]");
        assert_eq!(&t[v[0].0.clone()], r#"{"a": "}{\"", "b": [1, {"c": "]"}]}"#);
    }

    #[test]
    fn prose_braces_do_not_hide_later_json() {
        let v = json_values(r#"use {braces} or { and then {"x": 1}"#);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].1["x"], 1);
    }

    #[test]
    fn deep_nesting_stays_linear() {
        let n = 130_000;
        let t = format!(
            "<tool_call>{{\"name\":\"fs_read\",\"arguments\":{}1{}}}",
            "{\"a\":".repeat(n),
            "}".repeat(n)
        );
        let started = std::time::Instant::now();
        let _ = json_values(&t);
        let arrays = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let _ = json_values(&arrays);
        let prose = format!("{}x{}", "{a ".repeat(n), "}".repeat(n));
        let _ = json_values(&prose);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn unclosed_openings_stay_linear() {
        let t = "{".repeat(200_000);
        let started = std::time::Instant::now();
        assert!(json_values(&t).is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
