//! What the removal rule reads besides a file's own comment syntax: notes
//! written in a comment form the kind knows only followed by a space or
//! in another language's form ([`Lang::spaced_comments`]), prose lines
//! that send the reader back to an earlier version instead of the content
//! ([`super::elision::refers_back`]), and code embedded in another kind
//! (`<script>` and `<style>` bodies in markup, fenced code in prose),
//! read in its own language. Each is judged by the same structural rule
//! ([`super::removal`]): a note standing where code or text was removed.
//! Pure functions, no I/O.

use std::collections::HashSet;

use super::elision::refers_back;
use super::lang::{self, Lang, GENERIC};
use super::removal::{self, Finding, Others};

/// Returns the findings of replacing `old` with `new` in `lang` that its
/// own syntax does not show, none at a line `known` already reports.
pub(super) fn findings(
    old: &str,
    new: &str,
    lang: &Lang,
    others: Others<'_>,
    known: &[Finding],
) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let add = |f: Finding, out: &mut Vec<Finding>| push(f, known, out);
    if old == new {
        return out;
    }
    // What differs: only a note written there can stand for anything, so
    // the sides are rewritten only when it holds one (the rest is read
    // once, to find the ends both share).
    if lang.spaced_comments.is_empty() && !lang.prose && !markup(lang) {
        return out;
    }
    let (old_mid, new_mid) = middles(old, new);
    // Notes in a spaced or foreign comment form, and back references in
    // prose, rewritten as the kind's own notes.
    let spaced = lang::has_spaced_comment(new_mid, lang);
    let had: HashSet<&str> = if lang.prose {
        old_mid.lines().map(str::trim).collect()
    } else {
        HashSet::new()
    };
    let back = lang.prose
        && new_mid
            .lines()
            .any(|l| !had.contains(l.trim()) && back_candidate(l));
    if spaced || back {
        let o = spaced.then(|| lang::spaced_comments(old, lang)).flatten();
        let mut n = spaced.then(|| lang::spaced_comments(new, lang)).flatten();
        if back {
            // Where the middle is in `new` (the spaced rewrite keeps the
            // lines before it as they were).
            let from = new_mid.as_ptr().addr() - new.as_ptr().addr();
            let text = n.as_deref().unwrap_or(new);
            let skip = new[..from].lines().count();
            let upto = skip + new_mid.lines().count();
            if let Some(wrapped) = wrap_back_references(&had, text, skip..upto) {
                n = Some(wrapped);
            }
        }
        let (o2, n2) = (o.as_deref().unwrap_or(old), n.as_deref().unwrap_or(new));
        if (o2, n2) != (old, new) {
            for mut f in removal::findings(o2, n2, lang, others) {
                if let Some(t) = new.lines().nth(f.line.saturating_sub(1)) {
                    f.text = removal::shorten(t.trim());
                }
                add(f, &mut out);
            }
        }
    }
    // A region's note is a comment line of some language written in the
    // changed part; without one there is nothing to read region by region.
    let commented = |l: &str| {
        let t = l.trim_start();
        COMMENT_STARTS.iter().any(|m| t.starts_with(m))
    };
    if (lang.prose || markup(lang)) && new_mid.lines().any(commented) {
        return regional(old, new, lang, others, known, out);
    }
    out
}

/// How a whole-line comment begins in the common languages.
const COMMENT_STARTS: &[&str] = &[
    "#", "//", "/*", "*", "--", ";", "%", "<!--", "'", "\"", "{#", "{{!", "(*", "{-", "!", "REM ",
    "rem ", "::",
];

/// Whether `lang` is markup that may embed scripts and styles (the
/// generic row knows `<!--` too, but holds no pages).
fn markup(lang: &Lang) -> bool {
    !lang.prose
        && !std::ptr::eq(lang, &GENERIC)
        && lang.block_comments.iter().any(|(o, _)| *o == "<!--")
}

/// Adds to `out` the findings in the embedded code regions of the two
/// sides, none at a line `known` or `out` already reports.
fn regional(
    old: &str,
    new: &str,
    lang: &Lang,
    others: Others<'_>,
    known: &[Finding],
    mut out: Vec<Finding>,
) -> Vec<Finding> {
    let add = |f: Finding, out: &mut Vec<Finding>| push(f, known, out);
    // Embedded code, region by region.
    let (before, after) = (regions(old, lang), regions(new, lang));
    let mut from = 0;
    for a in &before {
        let Some(j) = (from..after.len()).find(|&j| after[j].opener == a.opener) else {
            continue;
        };
        from = j + 1;
        let b = &after[j];
        if a.body == b.body {
            continue;
        }
        let inner = Others {
            prose: a.lang.prose,
            ..others
        };
        // In its language, and with the common forms: a `//` note in a
        // shell fence is no shell, but it is no command either.
        let generic = Others {
            prose: false,
            ..others
        };
        let found = removal::findings(a.body, b.body, a.lang, inner);
        let found = if found.is_empty() && !std::ptr::eq(a.lang, &GENERIC) {
            removal::findings(a.body, b.body, &GENERIC, generic)
        } else {
            found
        };
        for mut f in found {
            f.old_lines = (f.old_lines.0 + a.first, f.old_lines.1 + a.first);
            f.line += b.first;
            add(f, &mut out);
        }
    }
    out
}

/// Adds `f` to `out` unless a finding of `known` or `out` is at its line
/// or covers some of the same removed lines.
fn push(f: Finding, known: &[Finding], out: &mut Vec<Finding>) {
    let overlaps = |k: &Finding| {
        k.line == f.line || (k.old_lines.0 <= f.old_lines.1 && f.old_lines.0 <= k.old_lines.1)
    };
    if !known.iter().any(overlaps) && !out.iter().any(overlaps) {
        out.push(f);
    }
}

/// Returns the parts of `old` and `new` between the lines both begin
/// and end with.
fn middles<'a>(old: &'a str, new: &'a str) -> (&'a str, &'a str) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    // Compared a block at a time (a slice comparison is a `memcmp`), then
    // byte by byte in the first block that differs.
    const BLOCK: usize = 4096;
    let mut same = 0;
    while same + BLOCK <= o.len().min(n.len()) && o[same..same + BLOCK] == n[same..same + BLOCK] {
        same += BLOCK;
    }
    same += o[same..]
        .iter()
        .zip(&n[same..])
        .take_while(|(a, b)| a == b)
        .count();
    // Back to a line start.
    let pre = o[..same]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let most = o.len().min(n.len()) - pre;
    let mut tail = 0;
    while tail + BLOCK <= most
        && o[o.len() - tail - BLOCK..o.len() - tail] == n[n.len() - tail - BLOCK..n.len() - tail]
    {
        tail += BLOCK;
    }
    tail += o[..o.len() - tail]
        .iter()
        .rev()
        .zip(n[..n.len() - tail].iter().rev())
        .take(most - tail)
        .take_while(|(a, b)| a == b)
        .count();
    // Forward to a line end.
    let suf = o[o.len() - tail..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(0, |p| tail - p);
    let cut = |s: &'a str| s.get(pre..s.len() - suf).unwrap_or(s);
    (cut(old), cut(new))
}

/// A line that may refer back: not blank, not already a note.
fn back_candidate(l: &str) -> bool {
    let t = l.trim();
    let note = t.starts_with('(') && t.ends_with(')');
    !t.is_empty() && !note && refers_back(t)
}

/// Returns `new` with each of its `lines` (0-based) that refers back to
/// an earlier version ([`refers_back`]) and is not one of `had` wrapped
/// in parentheses, the form of a prose note; `None` when there is none.
fn wrap_back_references(
    had: &HashSet<&str>,
    new: &str,
    lines: std::ops::Range<usize>,
) -> Option<String> {
    let mut out = String::with_capacity(new.len() + 16);
    let mut changed = false;
    for (i, line) in new.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if lines.contains(&i) && !had.contains(t) && back_candidate(line) {
            let lead = &line[..line.len() - line.trim_start().len()];
            out.push_str(lead);
            out.push('(');
            // A link stays a pointer to the prose rule (`](`): read as
            // the note it is.
            out.push_str(
                &t.trim_start_matches(['>', '-', '*', ' '])
                    .replace("](", "] ("),
            );
            out.push(')');
            out.push_str(&line[lead.len() + line.trim_start().trim_end().len()..]);
            changed = true;
        } else {
            out.push_str(line);
        }
    }
    changed.then_some(out)
}

/// A stretch of one kind embedded in another.
struct Region<'a> {
    /// The trimmed line that opens it (the fence with its language, the
    /// `<script …>` tag): regions of the two sides with the same opener
    /// are compared, in order.
    opener: &'a str,
    /// Its language.
    lang: &'static Lang,
    /// Its lines, the opener and closer left out.
    body: &'a str,
    /// How many lines of the file come before its body.
    first: usize,
}

/// Openers of code regions in markup: (tag, its closer, the language
/// unless the tag's attributes say another).
const MARKUP_REGIONS: &[(&str, &str, &str)] = &[
    ("<script", "</script", "javascript"),
    ("<style", "</style", "css"),
];

/// Fence languages by their usual names in Markdown, RST, AsciiDoc and
/// Org; a name not here is tried as an extension (`x.rb`), and a fence
/// without one is read with the common comment forms.
const FENCE_LANGS: &[(&[&str], &str)] = &[
    (
        &[
            "bash",
            "sh",
            "shell",
            "zsh",
            "console",
            "shell-session",
            "shellsession",
            "sh-session",
            "fish",
            "ksh",
            "terminal",
        ],
        "shell",
    ),
    (&["js", "javascript", "node", "jsx", "mjs"], "javascript"),
    (&["ts", "typescript", "tsx"], "typescript"),
    (
        &["py", "python", "python3", "py3", "ipython", "pycon"],
        "python",
    ),
    (&["rb", "ruby"], "ruby"),
    (&["yml", "yaml"], "yaml"),
    (&["json"], "json"),
    (&["jsonc", "json5"], "jsonc"),
    (&["toml"], "toml"),
    (&["rs", "rust"], "rust"),
    (&["go", "golang"], "go"),
    (&["cpp", "c++", "cxx", "cc"], "c++"),
    (&["cs", "csharp", "c#"], "c#"),
    (&["kt", "kotlin"], "kotlin"),
    (
        &[
            "sql",
            "psql",
            "postgresql",
            "postgres",
            "mysql",
            "plpgsql",
            "tsql",
        ],
        "sql",
    ),
    (&["html", "xml", "svg", "xhtml"], "html"),
    (&["css", "scss", "sass", "less"], "css"),
    (&["dockerfile", "docker", "containerfile"], "dockerfile"),
    (&["make", "makefile"], "make"),
    (&["hcl", "terraform", "tf"], "terraform"),
    (&["ps1", "powershell", "pwsh"], "powershell"),
    (&["bat", "batch", "cmd"], "batch"),
    (&["ini", "cfg", "conf", "properties", "systemd"], "ini"),
    (&["r"], "r"),
];

/// Returns the language of a fence's info string (`bash`, `{r}`,
/// `{.python}`, `js title="x"`, `source,bash`).
fn fence_lang(info: &str) -> &'static Lang {
    let word = info
        .trim_start_matches(['{', '.', '['])
        .trim_start_matches("source")
        .trim_start_matches([',', ' '])
        .split([' ', ',', '}', ']', '='])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if word.is_empty() {
        return &GENERIC;
    }
    if let Some((_, name)) = FENCE_LANGS
        .iter()
        .find(|(names, _)| names.contains(&&*word))
    {
        if let Some(l) = lang::LANGS.iter().find(|l| l.name == *name) {
            return l;
        }
    }
    match lang::from_path(&format!("x.{word}")) {
        Some(l) if !l.prose => l,
        _ => &GENERIC,
    }
}

/// Returns the code regions of `text`, a file in `lang`: fenced or
/// delimited code in prose, `<script>` and `<style>` bodies in markup.
fn regions<'a>(text: &'a str, lang: &Lang) -> Vec<Region<'a>> {
    let markup = markup(lang);
    if !lang.prose && !markup {
        return Vec::new();
    }
    // Most files hold no region: one search of the whole text says so.
    let signs: &[&str] = if markup {
        &[
            "<script", "<SCRIPT", "<Script", "<style", "<STYLE", "<Style",
        ]
    } else {
        &[
            "```",
            "~~~",
            ".. code",
            ".. sourcecode",
            "[source",
            "#+begin_src",
            "#+BEGIN_SRC",
        ]
    };
    if !signs
        .iter()
        .any(|s| memchr::memmem::find(text.as_bytes(), s.as_bytes()).is_some())
    {
        return Vec::new();
    }
    // Line starts, to cut bodies by line numbers.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line = |i: usize| -> &'a str {
        let end = starts.get(i + 1).map_or(text.len(), |&e| e);
        text[starts[i]..end].trim_end_matches(['\n', '\r'])
    };
    let count = if text.ends_with('\n') {
        starts.len() - 1
    } else {
        starts.len()
    };
    let body = |from: usize, to: usize| -> &'a str {
        let a = starts.get(from).map_or(text.len(), |&s| s);
        let b = starts.get(to).map_or(text.len(), |&s| s);
        &text[a.min(b)..b]
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < count {
        let t = line(i).trim();
        let found = if markup {
            markup_opener(t)
        } else {
            prose_opener(t, i, &line, count)
        };
        let Some((region_lang, close)) = found else {
            i += 1;
            continue;
        };
        // The body's first line: after the opener, or for AsciiDoc's
        // `[source,x]` after its `----` delimiter too.
        let mut from = i + 1;
        if let Close::Delimiter(d) = close {
            if line(from).trim() == d {
                from += 1;
            }
        }
        let mut to = from;
        while to < count && !closes(line(to), close, line(i)) {
            to += 1;
        }
        out.push(Region {
            opener: t,
            lang: region_lang,
            body: body(from, to),
            first: from,
        });
        i = to + 1;
    }
    out
}

/// How a region ends.
#[derive(Clone, Copy)]
enum Close {
    /// A line holding this closing tag.
    Tag(&'static str),
    /// A fence of the opener's character, at least as long.
    Fence,
    /// A line that is exactly this.
    Delimiter(&'static str),
    /// A line that is exactly this, in either case.
    Keyword(&'static str),
    /// The first non-blank line indented no deeper than the opener.
    Dedent,
}

fn closes(l: &str, close: Close, opener: &str) -> bool {
    let t = l.trim();
    match close {
        Close::Tag(tag) => t.to_ascii_lowercase().contains(tag),
        Close::Fence => {
            let o = opener.trim_start();
            let c = o.chars().next().unwrap_or('`');
            let run = o.chars().take_while(|&x| x == c).count();
            t.chars().take_while(|&x| x == c).count() >= run && t.trim_start_matches(c).is_empty()
        }
        Close::Delimiter(d) => t == d,
        Close::Keyword(k) => t.eq_ignore_ascii_case(k),
        Close::Dedent => !t.is_empty() && indent(l) <= indent(opener),
    }
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// A `<script>` or `<style>` line that opens a body on the next lines.
fn markup_opener(t: &str) -> Option<(&'static Lang, Close)> {
    if !t.starts_with('<') {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    let &(tag, close, default) = MARKUP_REGIONS.iter().find(|(tag, ..)| {
        lower.starts_with(tag)
            && lower[tag.len()..].starts_with([' ', '>', '\t'])
            && lower.ends_with('>')
    })?;
    if lower.contains(close) || lower.contains(" src=") {
        return None;
    }
    let attr = &lower[tag.len()..];
    let name = if attr.contains("json") {
        "json"
    } else if attr.contains("typescript") || attr.contains("lang=\"ts\"") {
        "typescript"
    } else if attr.contains("template") || attr.contains("text/html") || attr.contains("x-") {
        return None;
    } else {
        default
    };
    let l = lang::LANGS.iter().find(|l| l.name == name)?;
    Some((l, Close::Tag(close)))
}

/// A line that opens code in prose: a Markdown fence, Org's
/// `#+BEGIN_SRC`, RST's `.. code-block::`, AsciiDoc's `[source,x]`.
fn prose_opener<'a>(
    t: &str,
    i: usize,
    line: &impl Fn(usize) -> &'a str,
    count: usize,
) -> Option<(&'static Lang, Close)> {
    for fence in ["```", "~~~"] {
        if let Some(info) = t.strip_prefix(fence) {
            let info = info.trim_start_matches(fence.as_bytes()[0] as char).trim();
            return Some((fence_lang(info), Close::Fence));
        }
    }
    let lower = t.to_ascii_lowercase();
    if let Some(info) = lower.strip_prefix("#+begin_src") {
        return Some((fence_lang(info.trim()), Close::Keyword("#+END_SRC")));
    }
    for directive in [".. code-block::", ".. code::", ".. sourcecode::"] {
        if let Some(info) = lower.strip_prefix(directive) {
            return Some((fence_lang(info.trim()), Close::Dedent));
        }
    }
    if lower.starts_with("[source") && lower.ends_with(']') && i + 1 < count {
        let d = line(i + 1).trim();
        if d == "----" || d == "...." {
            let info = lower.trim_start_matches("[source");
            return Some((
                fence_lang(info),
                Close::Delimiter(if d == "----" { "----" } else { "...." }),
            ));
        }
    }
    None
}

#[cfg(test)]
pub(in crate::guard) mod tests;
