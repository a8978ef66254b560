//! The file tools: read, write, patch, list, search, glob. Reads go through
//! the same resolver as writes (so nothing reserved or outside is read);
//! writes go through the guard.

use std::fmt::Write as _;

use regex::RegexBuilder;
use serde_json::Value;

use super::{arg, arg_usize, ToolOutcome, Workspace, Wrote};
use crate::agent::protocol::Step;
use crate::guard::write::{WriteOptions, WriteOutcome};
use crate::guard::GuardError;

/// The most characters a read returns (the model asks for a range next).
const READ_CAP: usize = 16_000;
/// The most entries a listing or glob returns.
const LIST_CAP: usize = 300;
/// The most matching lines a search returns.
const SEARCH_CAP: usize = 100;
/// Files larger than this are not searched.
const SEARCH_FILE_CAP: u64 = 1 << 20;

pub(super) fn read(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(input) = arg(args, "path") else {
        return ToolOutcome::fail("", "error: no path", "fs_read needs `path`");
    };
    let p = match ws.resolve(input) {
        Ok(p) => p,
        Err(why) => return ToolOutcome::fail(input, "refused: path", why),
    };
    let rel = p.rel.to_string();
    if let Some(why) = ws.secret_refusal(&rel) {
        return ToolOutcome::fail(rel, "refused: secret", why);
    }
    let not_found = || {
        ToolOutcome::fail(
            rel.clone(),
            "error: not found",
            format!("`{rel}` does not exist; use fs_glob or fs_list to find files"),
        )
    };
    // A FIFO would block the run forever and a device never ends: only
    // regular files are opened.
    match std::fs::metadata(&p.abs) {
        Ok(m) if m.is_file() => {}
        Ok(_) => {
            return ToolOutcome::fail(
                rel.clone(),
                "refused: special file",
                format!("`{rel}` is not a regular file (a folder, FIFO, socket or device); fs_read reads files, fs_list lists folders"),
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return not_found(),
        Err(e) => {
            return ToolOutcome::fail(
                rel.clone(),
                "error: read",
                format!("could not read `{rel}`: {e}"),
            )
        }
    }
    let start = arg_usize(args, "start").unwrap_or(1).max(1);
    let end = arg_usize(args, "end").unwrap_or(usize::MAX);
    let range = match read_range(&p.abs, start, end) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return not_found(),
        Err(e) => {
            return ToolOutcome::fail(
                rel.clone(),
                "error: read",
                format!("could not read `{rel}`: {e}"),
            )
        }
    };
    if range.binary {
        return ToolOutcome::fail(
            rel.clone(),
            "error: binary",
            format!("`{rel}` is a binary file ({} bytes)", range.bytes),
        );
    }
    let total = range.total;
    let end = end.min(total);
    if total > 0 && start > total {
        return ToolOutcome::fail(
            rel.clone(),
            "error: range",
            format!("`{rel}` has {total} lines; start {start} is past the end"),
        );
    }
    let shown_end = range.shown_end.max(start.saturating_sub(1));
    let mut header = format!("{rel} (lines {start}-{shown_end} of {total})");
    if shown_end < end {
        let _ = write!(header, "; more: fs_read with start {}", shown_end + 1);
    }
    ToolOutcome::ok(rel, format!("{header}\n{}", range.body), Step::Read)
}

/// Lines `start..=end` of a file, read in one streaming pass: memory stays
/// bounded by [`READ_CAP`] whatever the file's size or line lengths.
struct Range {
    body: String,
    shown_end: usize,
    total: usize,
    bytes: u64,
    binary: bool,
}

fn read_range(path: &std::path::Path, start: usize, end: usize) -> std::io::Result<Range> {
    use std::io::BufRead as _;
    let file = std::fs::File::open(path)?;
    let mut r = std::io::BufReader::with_capacity(64 * 1024, file);
    let mut out = Range {
        body: String::new(),
        shown_end: 0,
        total: 0,
        bytes: 0,
        binary: false,
    };
    let mut line: Vec<u8> = Vec::new();
    let mut line_open = false;
    let mut full = false;
    let mut first = true;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        if first {
            first = false;
            if crate::guard::killswitch::is_binary(buf) {
                out.binary = true;
                out.bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                return Ok(out);
            }
        }
        let n = buf.len();
        let mut pos = 0;
        while pos < n {
            let stop = memchr::memchr(b'\n', &buf[pos..]).map(|i| pos + i);
            let piece_end = stop.unwrap_or(n);
            let number = out.total + 1;
            let wanted = !full && number >= start && number <= end;
            if wanted && line.len() <= READ_CAP {
                let room = READ_CAP + 1 - line.len();
                line.extend_from_slice(&buf[pos..piece_end.min(pos + room)]);
            }
            line_open = true;
            match stop {
                Some(i) => {
                    if wanted {
                        let mut text = String::from_utf8_lossy(&line).into_owned();
                        if text.ends_with('\r') {
                            text.pop();
                        }
                        if out.body.len() + text.len() > READ_CAP {
                            full = true;
                        } else {
                            out.body.push_str(&text);
                            out.body.push('\n');
                            out.shown_end = number;
                        }
                    }
                    line.clear();
                    line_open = false;
                    out.total += 1;
                    pos = i + 1;
                }
                None => pos = n,
            }
        }
        out.bytes += n as u64;
        r.consume(n);
    }
    if line_open {
        let number = out.total + 1;
        if !full && number >= start && number <= end {
            let text = String::from_utf8_lossy(&line).into_owned();
            if out.body.len() + text.len() <= READ_CAP {
                out.body.push_str(text.trim_end_matches('\r'));
                out.body.push('\n');
                out.shown_end = number;
            }
        }
        out.total += 1;
    }
    Ok(out)
}

fn guarded(ws: &mut Workspace, rel_input: &str, new: &[u8]) -> ToolOutcome {
    let p = match ws.resolve(rel_input) {
        Ok(p) => p,
        Err(why) => return ToolOutcome::fail(rel_input, "refused: path", why),
    };
    let rel = p.rel.to_string();
    let opts = WriteOptions {
        force: false,
        session: Some(ws.session.clone()),
        thresholds: None,
    };
    match ws.guard.write(&p, new, &opts) {
        Ok(w) => {
            let (outcome, shadow) = match w.outcome {
                WriteOutcome::Created => ("created", None),
                WriteOutcome::Updated { backup } => ("updated", Some(backup)),
                WriteOutcome::Unchanged => ("unchanged", None),
            };
            let msg = match shadow {
                Some(v) => format!(
                    "{outcome} `{rel}` ({} bytes; previous content kept as shadow v{v})",
                    new.len()
                ),
                None => format!("{outcome} `{rel}` ({} bytes)", new.len()),
            };
            let step = if outcome == "unchanged" {
                Step::Other
            } else {
                Step::Changed
            };
            let mut o = ToolOutcome::ok(rel, msg, step);
            o.verdict = outcome.into();
            o.wrote = Some(Wrote {
                path: w.path,
                outcome,
                shadow,
            });
            o
        }
        Err(GuardError::Blocked {
            report, against, ..
        }) => {
            let reasons: Vec<String> = report.reasons.iter().map(|r| r.to_string()).collect();
            ToolOutcome::fail(
                rel.clone(),
                "blocked: kill-switch",
                format!(
                    "the write to `{rel}` was blocked by the kill-switch{against}: {}. Nothing was written. Send the complete file content (every line you keep, no placeholders such as `// ... rest of the code`), or use fs_patch for a small change.",
                    reasons.join("; ")
                ),
            )
        }
        Err(e) => ToolOutcome::fail(
            rel.clone(),
            "error: write",
            format!("could not write `{rel}`: {e}"),
        ),
    }
}

pub(super) fn write(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(path) = arg(args, "path") else {
        return ToolOutcome::fail("", "error: no path", "fs_write needs `path` and `content`");
    };
    let Some(content) = arg(args, "content") else {
        return ToolOutcome::fail(
            path,
            "error: no content",
            "fs_write needs `content`: the whole new file",
        );
    };
    guarded(ws, path, content.as_bytes())
}

pub(super) fn patch(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let (Some(path), Some(search), Some(replace)) =
        (arg(args, "path"), arg(args, "search"), arg(args, "replace"))
    else {
        return ToolOutcome::fail(
            arg(args, "path").unwrap_or(""),
            "error: arguments",
            "fs_patch needs `path`, `search` (exact text now in the file) and `replace`",
        );
    };
    if search.is_empty() {
        return ToolOutcome::fail(path, "error: empty search", "`search` is empty; copy the exact lines to replace from fs_read's output (use fs_write for a new file)");
    }
    let p = match ws.resolve(path) {
        Ok(p) => p,
        Err(why) => return ToolOutcome::fail(path, "refused: path", why),
    };
    let rel = p.rel.to_string();
    let current = match std::fs::read(&p.abs) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(_) => {
            return ToolOutcome::fail(
                rel.clone(),
                "error: not found",
                format!("`{rel}` does not exist; create it with fs_write"),
            )
        }
    };
    // Models often send LF where the file has CRLF: match on the file's
    // own line endings.
    let crlf = current.contains("\r\n");
    let fix = |s: &str| {
        if crlf && !s.contains("\r\n") {
            s.replace('\n', "\r\n")
        } else {
            s.to_string()
        }
    };
    let (search, replace) = (fix(search), fix(replace));
    let starts: Vec<usize> = current
        .match_indices(search.as_str())
        .map(|(i, _)| i)
        .collect();
    match starts.len() {
        0 => {
            let hint = if current.contains(search.trim()) && !search.trim().is_empty() {
                " (it occurs with different leading or trailing whitespace: copy it exactly)"
            } else {
                ""
            };
            ToolOutcome::fail(rel.clone(), "error: search not found", format!("the search text does not occur in `{rel}`{hint}; fs_read the file and copy the exact lines"))
        }
        1 => {
            let new = format!(
                "{}{}{}",
                &current[..starts[0]],
                replace,
                &current[starts[0] + search.len()..]
            );
            guarded(ws, &rel, new.as_bytes())
        }
        n => {
            let lines: Vec<String> = starts
                .iter()
                .take(5)
                .map(|i| (current[..*i].matches('\n').count() + 1).to_string())
                .collect();
            ToolOutcome::fail(rel.clone(), "error: ambiguous search", format!("the search text occurs {n} times in `{rel}` (lines {}); include more surrounding lines so it occurs once", lines.join(", ")))
        }
    }
}

/// Every file of the working tree git would show: tracked and
/// untracked-not-ignored, never anything reserved.
fn files(ws: &Workspace) -> Result<Vec<String>, String> {
    let out = crate::git::GitCommand::new([
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ])
    .dir(&ws.root)
    .protected()
    .read()
    .map_err(|e| format!("could not list the files: {e}"))?;
    let mut v: Vec<String> = out
        .split('\0')
        .filter(|p| !p.is_empty() && !reserved_name(p))
        .filter(|p| ws.root.join(p).symlink_metadata().is_ok())
        .map(String::from)
        .collect();
    v.sort();
    v.dedup();
    Ok(v)
}

/// A path with a component git or the store reserves, in any case.
fn reserved_name(rel: &str) -> bool {
    rel.split('/').any(|c| {
        let c = c.to_lowercase();
        c == ".git" || c.starts_with(".fararoni") || c == "git~1"
    })
}

fn dir_prefix(ws: &Workspace, input: Option<&str>) -> Result<String, String> {
    let input = input.map(str::trim).unwrap_or("");
    if input.is_empty() || input == "." || input == "./" {
        return Ok(String::new());
    }
    match ws
        .guard
        .shadow()
        .resolve(&ws.root, std::path::Path::new(input))
    {
        Ok(p) => Ok(format!("{}/", p.rel)),
        Err(e) => Err(super::path_refusal(input, &e)),
    }
}

pub(super) fn list(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let input = arg(args, "path");
    let prefix = match dir_prefix(ws, input) {
        Ok(p) => p,
        Err(why) => return ToolOutcome::fail(input.unwrap_or("."), "refused: path", why),
    };
    let all = match files(ws) {
        Ok(f) => f,
        Err(why) => return ToolOutcome::fail(input.unwrap_or("."), "error: list", why),
    };
    let mut entries: Vec<String> = all
        .iter()
        .filter_map(|f| f.strip_prefix(prefix.as_str()))
        .map(|rest| match rest.split_once('/') {
            Some((d, _)) => format!("{d}/"),
            None => rest.to_string(),
        })
        .collect();
    entries.dedup();
    let target = if prefix.is_empty() {
        ".".to_string()
    } else {
        prefix.trim_end_matches('/').to_string()
    };
    if entries.is_empty() {
        return ToolOutcome::fail(
            target.clone(),
            "error: empty",
            format!("`{target}` holds no files git would show"),
        );
    }
    let n = entries.len();
    entries.truncate(LIST_CAP);
    let mut body = entries.join("\n");
    if n > LIST_CAP {
        let _ = write!(body, "\n… {} more", n - LIST_CAP);
    }
    ToolOutcome::ok(target, body, Step::Other)
}

/// Turns a glob into an anchored regex: `**` crosses directories, `*` and
/// `?` do not, `{a,b}` alternates.
fn glob_regex(pattern: &str) -> Option<regex::Regex> {
    let mut re = String::from("^");
    let chars: Vec<char> = pattern.trim_start_matches("./").chars().collect();
    let mut i = 0;
    let mut depth = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                if chars.get(i + 2) == Some(&'/') {
                    re.push_str("(?:.*/)?");
                    i += 1;
                } else {
                    re.push_str(".*");
                }
                i += 1;
            }
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str("[^/]"),
            '{' => {
                depth += 1;
                re.push_str("(?:");
            }
            '}' if depth > 0 => {
                depth -= 1;
                re.push(')');
            }
            ',' if depth > 0 => re.push('|'),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    if depth > 0 {
        return None;
    }
    re.push('$');
    regex::Regex::new(&re).ok()
}

pub(super) fn glob(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(pattern) = arg(args, "pattern") else {
        return ToolOutcome::fail("", "error: no pattern", "fs_glob needs `pattern`");
    };
    let Some(re) = glob_regex(pattern) else {
        return ToolOutcome::fail(
            pattern,
            "error: pattern",
            format!("`{pattern}` is not a glob this tool reads"),
        );
    };
    let all = match files(ws) {
        Ok(f) => f,
        Err(why) => return ToolOutcome::fail(pattern, "error: list", why),
    };
    // A pattern without `/` matches names at any depth, as models expect.
    let by_name = !pattern.contains('/');
    let found: Vec<&String> = all
        .iter()
        .filter(|f| re.is_match(f) || (by_name && re.is_match(f.rsplit('/').next().unwrap_or(f))))
        .collect();
    if found.is_empty() {
        return ToolOutcome::ok(pattern, format!("no file matches `{pattern}`"), Step::Other);
    }
    let n = found.len();
    let mut body = found
        .iter()
        .take(LIST_CAP)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if n > LIST_CAP {
        let _ = write!(body, "\n… {} more", n - LIST_CAP);
    }
    ToolOutcome::ok(pattern, body, Step::Other)
}

pub(super) fn search(ws: &mut Workspace, args: &Value) -> ToolOutcome {
    let Some(pattern) = arg(args, "pattern") else {
        return ToolOutcome::fail(
            "",
            "error: no pattern",
            "fs_search needs `pattern` (a regex)",
        );
    };
    let re = match RegexBuilder::new(pattern).size_limit(1 << 20).build() {
        Ok(r) => r,
        Err(_) => match RegexBuilder::new(&regex::escape(pattern)).build() {
            Ok(r) => r,
            Err(e) => {
                return ToolOutcome::fail(
                    pattern,
                    "error: pattern",
                    format!("`{pattern}` is not a regex: {e}"),
                )
            }
        },
    };
    let input = arg(args, "path");
    let prefix = match dir_prefix(ws, input) {
        Ok(p) => p,
        Err(why) => return ToolOutcome::fail(input.unwrap_or("."), "refused: path", why),
    };
    let all = match files(ws) {
        Ok(f) => f,
        Err(why) => return ToolOutcome::fail(pattern, "error: list", why),
    };
    // A path argument may name one file as well as a directory.
    let single = prefix.trim_end_matches('/').to_string();
    let mut hits = Vec::new();
    let mut total = 0usize;
    for f in all
        .iter()
        .filter(|f| prefix.is_empty() || f.starts_with(&prefix) || **f == single)
    {
        if ws.secret_refusal(f).is_some() {
            continue;
        }
        let abs = ws.root.join(f);
        match abs.symlink_metadata() {
            Ok(m) if m.is_file() && m.len() <= SEARCH_FILE_CAP => {}
            _ => continue,
        }
        let Ok(bytes) = std::fs::read(&abs) else {
            continue;
        };
        if crate::guard::killswitch::is_binary(&bytes) {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            if re.is_match(line) {
                total += 1;
                if hits.len() < SEARCH_CAP {
                    let shown: String = line.chars().take(200).collect();
                    hits.push(format!("{f}:{}: {}", i + 1, shown.trim_end()));
                }
            }
        }
    }
    if hits.is_empty() {
        return ToolOutcome::ok(pattern, format!("no line matches `{pattern}`"), Step::Other);
    }
    let mut body = hits.join("\n");
    if total > hits.len() {
        let _ = write!(body, "\n… {} more matches", total - hits.len());
    }
    ToolOutcome::ok(pattern, body, Step::Other)
}

#[cfg(test)]
mod tests {
    use super::glob_regex;

    #[test]
    fn globs() {
        let m = |p: &str, f: &str| glob_regex(p).is_some_and(|r| r.is_match(f));
        assert!(m("src/**/*.rs", "src/a/b/c.rs"));
        assert!(m("src/**/*.rs", "src/c.rs"));
        assert!(!m("src/*.rs", "src/a/c.rs"));
        assert!(m("*.{rs,toml}", "Cargo.toml"));
        assert!(!m("a.rs", "a_rs"));
        assert!(glob_regex("{a,b").is_none());
    }
}
