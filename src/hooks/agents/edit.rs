//! Rebuilding the content an edit would leave, exactly as the agent applies
//! it — or learning that the agent would refuse it (text absent, or
//! repeated where one occurrence is required), in which case the file is
//! never touched and the call passes untouched.

use super::spec::Matching;

/// What an edit would do to a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebuilt {
    /// The file would hold this.
    Content(String),
    /// The agent would refuse the edit itself; the file stays as it is.
    Refused(&'static str),
}

/// One replacement of an edit tool.
#[derive(Debug, Clone)]
pub struct Replace<'a> {
    /// The text to find.
    pub old: &'a str,
    /// Its replacement.
    pub new: &'a str,
    /// Replace every occurrence.
    pub all: bool,
    /// How many occurrences must exist (Gemini's `expected_replacements`).
    pub count: Option<u64>,
}

/// Applies `edits` in order to `current` (`None`: the file does not exist)
/// the way an agent with `matching` does. An empty `old` on a missing file
/// creates it; on an existing file it is judged as a whole-file write (the
/// worst an agent could make of it).
pub fn apply_edits(current: Option<&str>, edits: &[Replace<'_>], matching: Matching) -> Rebuilt {
    // Borrowed until the first replacement: a 1 MB file is not copied
    // only to be rebuilt.
    let mut text: Option<std::borrow::Cow<'_, str>> = current.map(std::borrow::Cow::Borrowed);
    for e in edits {
        if e.old == e.new {
            return Rebuilt::Refused("the old and new text are the same");
        }
        let Some(cur) = text.as_deref() else {
            if e.old.is_empty() {
                text = Some(e.new.to_string().into());
                continue;
            }
            return Rebuilt::Refused("the file does not exist");
        };
        if e.old.is_empty() {
            text = Some(e.new.to_string().into());
            continue;
        }
        // SIMD search: the edit of a large file is judged on every call.
        let finder = memchr::memmem::Finder::new(e.old.as_bytes());
        let n = finder.find_iter(cur.as_bytes()).count() as u64;
        if n == 0 {
            return Rebuilt::Refused("the text to replace is not in the file");
        }
        let every = match matching {
            Matching::ExactCount => {
                if n != e.count.unwrap_or(1) {
                    return Rebuilt::Refused("the text occurs a different number of times");
                }
                true
            }
            _ => {
                if n > 1 && !e.all {
                    return Rebuilt::Refused("the text to replace is not unique");
                }
                e.all
            }
        };
        text = Some(replace(cur, &finder, e.new, every).into());
    }
    match text {
        Some(t) => Rebuilt::Content(t.into_owned()),
        None => Rebuilt::Refused("nothing to edit"),
    }
}

/// `cur` with the first (or `every`) non-overlapping match of `finder`'s
/// needle replaced by `new`, as `str::replacen`/`str::replace` do.
fn replace(cur: &str, finder: &memchr::memmem::Finder<'_>, new: &str, every: bool) -> String {
    let len = finder.needle().len();
    let mut out = String::with_capacity(cur.len() + new.len());
    let mut last = 0;
    for at in finder.find_iter(cur.as_bytes()) {
        // A match of a non-empty UTF-8 needle starts and ends on character
        // boundaries (no character's bytes begin inside another's).
        out.push_str(&cur[last..at]);
        out.push_str(new);
        last = at + len;
        if !every {
            break;
        }
    }
    out.push_str(&cur[last..]);
    out
}

/// A SEARCH/REPLACE block of Cline's `replace_in_file`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    search: String,
    replace: String,
}

/// Why a `replace_in_file` diff could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub &'static str);

fn is_marker(line: &str, chars: &[char], word: &str) -> bool {
    let t = line.trim_end();
    let lead = t.chars().take_while(|c| chars.contains(c)).count();
    if lead < 3 {
        return false;
    }
    let rest: String = t.chars().skip(lead).collect();
    let rest = rest.trim_start();
    rest == word || rest == format!("{word}>")
}

fn parse_blocks(diff: &str) -> Result<Vec<Block>, Malformed> {
    #[derive(PartialEq)]
    enum St {
        Out,
        Search,
        Replace,
    }
    let mut st = St::Out;
    let mut blocks = Vec::new();
    let (mut s, mut r) = (String::new(), String::new());
    for line in diff.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if is_marker(line, &['-', '<'], "SEARCH") {
            if st != St::Out {
                return Err(Malformed("a SEARCH marker inside a block"));
            }
            st = St::Search;
            s.clear();
            r.clear();
        } else if st == St::Search && line.len() >= 3 && line.trim_end().chars().all(|c| c == '=') {
            st = St::Replace;
        } else if is_marker(line, &['+', '>'], "REPLACE") {
            if st != St::Replace {
                return Err(Malformed("a REPLACE marker without its SEARCH part"));
            }
            blocks.push(Block {
                search: std::mem::take(&mut s),
                replace: std::mem::take(&mut r),
            });
            st = St::Out;
        } else {
            match st {
                St::Search => {
                    s.push_str(line);
                    s.push('\n');
                }
                St::Replace => {
                    r.push_str(line);
                    r.push('\n');
                }
                St::Out => {}
            }
        }
    }
    if st != St::Out {
        return Err(Malformed("a block is not closed"));
    }
    if blocks.is_empty() {
        return Err(Malformed("no SEARCH/REPLACE block"));
    }
    Ok(blocks)
}

/// Byte offsets of the start of each line of `text` (plus its end).
fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            v.push(i + 1);
        }
    }
    if *v.last().unwrap_or(&0) != text.len() {
        v.push(text.len());
    }
    v
}

/// Cline's second strategy: the search lines equal file lines once trimmed.
fn trimmed_match(text: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let want: Vec<&str> = search.trim_end_matches('\n').split('\n').collect();
    let starts = line_starts(text);
    let lines: Vec<&str> = text.split('\n').collect();
    for i in 0..lines.len() {
        if starts.get(i).copied().unwrap_or(usize::MAX) < from || i + want.len() > lines.len() {
            continue;
        }
        if want
            .iter()
            .zip(&lines[i..])
            .all(|(w, l)| w.trim() == l.trim())
        {
            let end = starts.get(i + want.len()).copied().unwrap_or(text.len());
            return Some((starts[i], end));
        }
    }
    None
}

/// Cline's third strategy: blocks of three or more lines whose first and
/// last lines match once trimmed.
fn anchor_match(text: &str, search: &str, from: usize) -> Option<(usize, usize)> {
    let want: Vec<&str> = search.trim_end_matches('\n').split('\n').collect();
    if want.len() < 3 {
        return None;
    }
    let starts = line_starts(text);
    let lines: Vec<&str> = text.split('\n').collect();
    let (first, last) = (want[0].trim(), want[want.len() - 1].trim());
    for i in 0..lines.len() {
        if starts.get(i).copied().unwrap_or(usize::MAX) < from || i + want.len() > lines.len() {
            continue;
        }
        if lines[i].trim() == first && lines[i + want.len() - 1].trim() == last {
            let end = starts.get(i + want.len()).copied().unwrap_or(text.len());
            return Some((starts[i], end));
        }
    }
    None
}

/// Applies Cline's SEARCH/REPLACE `diff` to `current` (`None`: no file).
pub fn apply_cline(current: Option<&str>, diff: &str) -> Result<Rebuilt, Malformed> {
    let blocks = parse_blocks(diff)?;
    let mut text = current.unwrap_or("").to_string();
    let mut from = 0usize;
    for b in &blocks {
        if b.search.is_empty() {
            // An empty SEARCH inserts into an empty file or replaces the
            // whole file: either way the result is the REPLACE text.
            text = b.replace.clone();
            from = text.len();
            continue;
        }
        let found = text
            .get(from..)
            .and_then(|t| t.find(&b.search))
            .map(|i| (from + i, from + i + b.search.len()))
            .or_else(|| trimmed_match(&text, &b.search, from))
            .or_else(|| anchor_match(&text, &b.search, from));
        let Some((start, end)) = found else {
            return Ok(Rebuilt::Refused("a SEARCH block is not in the file"));
        };
        text = format!("{}{}{}", &text[..start], b.replace, &text[end..]);
        from = start + b.replace.len();
    }
    Ok(Rebuilt::Content(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r<'a>(old: &'a str, new: &'a str) -> Replace<'a> {
        Replace {
            old,
            new,
            all: false,
            count: None,
        }
    }

    #[test]
    fn exact_edits_follow_the_agent() {
        let cur = "a\nb\na\n";
        assert_eq!(
            apply_edits(Some(cur), &[r("b", "c")], Matching::Exact),
            Rebuilt::Content("a\nc\na\n".into())
        );
        assert!(matches!(
            apply_edits(Some(cur), &[r("a", "z")], Matching::Exact),
            Rebuilt::Refused(_)
        ));
        assert!(matches!(
            apply_edits(Some(cur), &[r("q", "z")], Matching::Exact),
            Rebuilt::Refused(_)
        ));
        let mut all = r("a", "z");
        all.all = true;
        assert_eq!(
            apply_edits(Some(cur), &[all], Matching::Exact),
            Rebuilt::Content("z\nb\nz\n".into())
        );
        // Matches are counted and replaced without overlapping, as
        // `str::replace` does (what the agents' own code calls).
        for (cur, old, all, want) in [
            ("aaa", "aa", true, Some("za".to_string())),
            ("aaaa", "aa", false, None),
            ("aaaa", "aa", true, Some("zz".to_string())),
            ("é€é€x", "é€", true, Some("zzx".to_string())),
            ("xé€y", "€y", false, Some("xéz".to_string())),
        ] {
            let mut e = r(old, "z");
            e.all = all;
            let got = apply_edits(Some(cur), &[e], Matching::Exact);
            match want {
                Some(w) => {
                    assert_eq!(w, cur.replace(old, "z"));
                    assert_eq!(got, Rebuilt::Content(w), "{cur} {old}");
                }
                None => assert!(matches!(got, Rebuilt::Refused(_)), "{cur} {old}"),
            }
        }
        let mut two = r("a", "z");
        two.count = Some(2);
        assert_eq!(
            apply_edits(Some(cur), &[two.clone()], Matching::ExactCount),
            Rebuilt::Content("z\nb\nz\n".into())
        );
        two.count = None;
        assert!(matches!(
            apply_edits(Some(cur), &[two], Matching::ExactCount),
            Rebuilt::Refused(_)
        ));
        assert_eq!(
            apply_edits(None, &[r("", "new")], Matching::Exact),
            Rebuilt::Content("new".into())
        );
        // A later edit sees what the earlier ones left.
        assert_eq!(
            apply_edits(Some(cur), &[r("b", "q"), r("q", "w")], Matching::Exact),
            Rebuilt::Content("a\nw\na\n".into())
        );
    }

    #[test]
    fn cline_blocks_in_both_marker_styles() {
        let cur = "fn a() {\n    one();\n}\nfn b() {\n    two();\n}\n";
        let diff = "------- SEARCH\nfn b() {\n    two();\n}\n=======\nfn b() {\n    three();\n}\n+++++++ REPLACE\n";
        assert_eq!(
            apply_cline(Some(cur), diff),
            Ok(Rebuilt::Content(
                "fn a() {\n    one();\n}\nfn b() {\n    three();\n}\n".into()
            ))
        );
        let old_style = "<<<<<<< SEARCH\n  one();\n=======\n  uno();\n>>>>>>> REPLACE";
        assert_eq!(
            apply_cline(Some(cur), old_style),
            Ok(Rebuilt::Content(
                // Found by exact search inside the indented line, as Cline's
                // `indexOf` does.
                "fn a() {\n    uno();\n}\nfn b() {\n    two();\n}\n".into()
            ))
        );
        assert!(matches!(
            apply_cline(
                Some(cur),
                "------- SEARCH\nnothing\n=======\nx\n+++++++ REPLACE"
            ),
            Ok(Rebuilt::Refused(_))
        ));
        assert!(apply_cline(Some(cur), "------- SEARCH\nfn a\n=======\n").is_err());
        assert_eq!(
            apply_cline(
                Some(cur),
                "------- SEARCH\n=======\n// gone\n+++++++ REPLACE"
            ),
            Ok(Rebuilt::Content("// gone\n".into()))
        );
    }
}
