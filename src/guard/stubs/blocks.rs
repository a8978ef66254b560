//! The block scanners: braces (C family, Rust, Go, Java, JS/TS, C#, PHP,
//! Kotlin, Swift), one-expression bodies, the indentation of a `def`
//! (Python) and a keyword header closed by `end` (Ruby, Lua, Elixir); and
//! how a function's name is read from its header.

use std::borrow::Cow;

use super::*;

/// The brace scanner.
pub(super) fn braces<'a>(src: &'a str, lang: &'a Lang) -> Scan<'a> {
    let mut b = join::Braces::new(src, lang);
    b.run(src.len(), &mut |_| false);
    b.finish()
}

/// Languages whose functions may have a one-expression body.
pub(super) const EXPRESSION_BODIES: &[&str] =
    &["kotlin", "scala", "c#", "javascript", "typescript", "dart"];

/// Finds functions whose body is one expression (`fun f(x: Int) = x * 2`,
/// `def total: Int = ???`, `public int F() => throw new
/// NotImplementedException();`, `const add = (a, b) => a + b;`), one per
/// line, so that a block body turned into `= TODO()` is seen for what it
/// is.
pub(super) fn expression_bodies<'a>(src: &'a str, lang: &Lang) -> Vec<Found<'a>> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in src.split('\n') {
        let start = at;
        at += line.len() + 1;
        let t = line.trim();
        if t.is_empty() || lang.line_comments.iter().any(|m| t.starts_with(m)) || t.starts_with('*')
        {
            continue;
        }
        let Some((split, width)) = expression_split(t) else {
            continue;
        };
        let (header, body) = (&t[..split], t[split + width..].trim());
        let body = body.trim_end_matches(';').trim_end();
        if body.is_empty() || body.starts_with('{') {
            continue;
        }
        let first = header
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty());
        let name = match first {
            Some("fun" | "def") => header
                .split_whitespace()
                .skip_while(|w| *w != "fun" && *w != "def")
                .nth(1)
                .map(|w| Cow::Borrowed(w.split(['(', ':', '[', '<']).next().unwrap_or(w)))
                .filter(|n| !n.is_empty()),
            Some(w)
                if CONTROL_WORDS.has(w)
                    && !matches!(w, "const" | "let" | "var" | "static" | "async") =>
            {
                None
            }
            _ if width == 2 && header.contains(" = ") => {
                arrow_name(&format!("{header}=>")).map(|n| Cow::Owned(n.into_owned()))
            }
            _ if header.contains('(') => named_parameter_list(header).map(Cow::Borrowed),
            _ => None,
        };
        let Some(name) = name else { continue };
        let offset = start
            + (line.len() - line.trim_start().len())
            + (body.as_ptr() as usize - t.as_ptr() as usize);
        out.push(Found {
            name,
            occurrence: 0,
            body: offset..offset + body.len(),
        });
    }
    out
}

/// Returns where a one-line function's expression body starts: the first
/// `=>` or `=` (not `==`, `<=`, `>=`, `!=`) outside brackets that follows a
/// parameter list or a `fun`/`def` header, with the marker's width.
pub(super) fn expression_split(t: &str) -> Option<(usize, usize)> {
    let bytes = t.as_bytes();
    let mut depth = 0i32;
    let mut params = false;
    let keyword = t.starts_with("fun ")
        || t.starts_with("def ")
        || t.contains(" fun ")
        || t.contains(" def ");
    let mut quote = None;
    for (k, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'"' | b'\'' | b'`' => quote = Some(b),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                params |= b == b')' && depth == 0;
            }
            b'=' if depth == 0 && (params || keyword) => {
                let prev = k.checked_sub(1).map(|p| bytes[p]);
                let next = bytes.get(k + 1).copied();
                if matches!(
                    prev,
                    Some(
                        b'=' | b'<' | b'>' | b'!' | b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'&'
                    )
                ) || next == Some(b'=')
                {
                    return None;
                }
                return Some((k, if next == Some(b'>') { 2 } else { 1 }));
            }
            _ => {}
        }
    }
    None
}

/// Returns the name of the function whose header is `header` (the code
/// between the previous `;`, `{` or `}` and a `{`), or `None` when the
/// block is not a function body.
///
/// Called for every block of a file, so it reads ASCII a byte at a time
/// (decoding only other characters) and borrows the name from the header.
pub(super) fn function_name(header: &str) -> Option<Cow<'_, str>> {
    // Attributes and decorators on their own lines stay in the header;
    // they do not change what follows.
    let h = trim(header);
    if h.is_empty() {
        return None;
    }
    let first_word = words(h).next().unwrap_or("");
    if CONTROL_WORDS.has(first_word)
        && !matches!(
            first_word,
            "async" | "static" | "const" | "get" | "set" | "let" | "var" | "val"
        )
    {
        return None;
    }
    let before_paren = &h[..h.bytes().position(|b| b == b'(').unwrap_or(h.len())];
    if words(before_paren).any(|w| CONTAINER_WORDS.has(w))
        && !words(before_paren).any(|w| matches!(w, "fn" | "func" | "function" | "fun" | "def"))
    {
        return None;
    }
    if h.ends_with("=>") || h.ends_with("->") {
        return arrow_name(h);
    }
    if matches!(first_word, "let" | "var" | "val" | "const") && !h.contains("function") {
        return arrow_name(h);
    }
    named_parameter_list(h).map(Cow::Borrowed).or_else(|| {
        (h.contains(" = function") || h.contains("=function"))
            .then(|| arrow_name(h))
            .flatten()
    })
}

/// Which ASCII bytes belong to a word of a header: a keyword or an
/// identifier, `@` for annotations.
pub(super) const WORD_BYTES: [bool; 128] = ascii_table(b"_@");

/// Which ASCII bytes belong to a (qualified) name: letters, digits, and
/// the marks names carry (`Foo::bar`, `$el`, `~Foo`, `save!`, `ok?`).
pub(super) const NAME_BYTES: [bool; 128] = ascii_table(b"_$.:~!?");

/// A table of the ASCII letters and digits and `extra`.
pub(super) const fn ascii_table(extra: &[u8]) -> [bool; 128] {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    let mut k = 0;
    while k < extra.len() {
        t[extra[k] as usize] = true;
        k += 1;
    }
    t
}

/// Returns whether the character at byte `i` of `s` (a character
/// boundary) belongs to a word of a header, and its length: ASCII by
/// table, other characters decoded (alphanumeric ones are word
/// characters).
#[inline(always)]
pub(super) fn word_char_at(s: &str, i: usize) -> (bool, usize) {
    match s.as_bytes().get(i) {
        Some(&b) if b < 128 => (WORD_BYTES[usize::from(b)], 1),
        _ => s
            .get(i..)
            .and_then(|r| r.chars().next())
            .map_or((false, 1), |c| (c.is_alphanumeric(), c.len_utf8())),
    }
}

/// The words of `s` (its longest runs of word characters, see
/// [`word_char_at`]) in order.
pub(super) fn words(s: &str) -> impl Iterator<Item = &str> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < s.len() {
            let (word, len) = word_char_at(s, i);
            if word {
                break;
            }
            i += len;
        }
        if i >= s.len() {
            return None;
        }
        let start = i;
        while i < s.len() {
            let (word, len) = word_char_at(s, i);
            if !word {
                break;
            }
            i += len;
        }
        Some(&s[start..i])
    })
}

/// Whether `b` is ASCII white space as Unicode counts it (`str::trim`
/// also removes the vertical tab, which `u8::is_ascii_whitespace` keeps).
pub(super) fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r')
}

/// `s.trim()`, ASCII white space a byte at a time.
pub(super) fn trim(s: &str) -> &str {
    let bytes = s.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !ascii_space(b))
        .unwrap_or(bytes.len());
    let t = trim_end(&s[start..]);
    match t.as_bytes().first() {
        Some(b) if !b.is_ascii() => t.trim_start(),
        _ => t,
    }
}

/// `s.trim_end()`, ASCII white space a byte at a time.
pub(super) fn trim_end(s: &str) -> &str {
    let bytes = s.as_bytes();
    let end = bytes
        .iter()
        .rposition(|&b| !ascii_space(b))
        .map_or(0, |p| p + 1);
    let t = &s[..end];
    match t.as_bytes().last() {
        Some(b) if !b.is_ascii() => t.trim_end(),
        _ => t,
    }
}

/// Returns the name before the first top-level parameter list whose
/// preceding word is a name, with everything after it plausible for a
/// signature (return types, `throws`, `const`, `where`…, but no `=` or `;`).
pub(super) fn named_parameter_list(h: &str) -> Option<&str> {
    let bytes = h.as_bytes();
    let mut from = 0;
    while let Some(k) = bytes[from..].iter().position(|&b| b == b'(') {
        let open = from + k;
        let close = matching_paren(bytes, open)?;
        let lead = trim_end(&h[..open]);
        match name_before(lead) {
            Some(n) if !NOT_NAME_WORDS.has(last_part(n)) => {
                // `new Runnable() {` opens an anonymous class.
                let at = n.as_ptr() as usize - lead.as_ptr() as usize;
                if trim_end(&lead[..at]).ends_with("new") {
                    return None;
                }
                // Scala's `def f(x: Int): Int = {` opens its body after an
                // `=`.
                let after = &h[close + 1..];
                let after = trim_end(after).strip_suffix('=').unwrap_or(after);
                // Removing `=>`, `->` and `==` leaves an `=` only where
                // there was one: most signatures have none and are never
                // copied.
                let (eq, semi) = after
                    .bytes()
                    .fold((false, false), |(e, s), b| (e || b == b'=', s || b == b';'));
                let assigns = eq
                    && after
                        .replace("=>", "")
                        .replace("->", "")
                        .replace("==", "")
                        .contains('=');
                if assigns || semi {
                    return None;
                }
                return Some(n);
            }
            _ => from = close + 1,
        }
    }
    None
}

/// The part of a qualified name after its last `.` or `:`.
pub(super) fn last_part(name: &str) -> &str {
    let at = name.bytes().rposition(|b| b == b'.' || b == b':');
    &name[at.map_or(0, |p| p + 1)..]
}

pub(super) fn matching_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &b) in bytes[open..].iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Returns the (qualified) identifier ending `s`, skipping generic
/// arguments (`foo<T>`): a part of `s`.
pub(super) fn name_before(s: &str) -> Option<&str> {
    let mut s = trim_end(s);
    if s.ends_with('>') {
        let mut depth = 0i32;
        for (k, c) in s.char_indices().rev() {
            match c {
                '>' => depth += 1,
                '<' => {
                    depth -= 1;
                    if depth == 0 {
                        s = trim_end(&s[..k]);
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    // The longest ending of identifier characters, ASCII a byte at a time.
    let mut start = s.len();
    while let Some(&b) = s.as_bytes()[..start].last() {
        if b < 128 {
            if !NAME_BYTES[usize::from(b)] {
                break;
            }
            start -= 1;
        } else {
            match s[..start].chars().next_back() {
                Some(c) if c.is_alphanumeric() => start -= c.len_utf8(),
                _ => break,
            }
        }
    }
    let name = s[start..].trim_start_matches([':', '.']);
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

/// Returns the name of an arrow function or lambda: the variable or
/// property it is assigned to, or the call it is passed to with its first
/// string argument (`it(works)`).
pub(super) fn arrow_name(h: &str) -> Option<Cow<'_, str>> {
    let bytes = h.as_bytes();
    let mut depth = 0usize;
    for (k, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            b'=' | b':' if depth == 0 => {
                let next = bytes.get(k + 1).copied();
                let prev = k.checked_sub(1).map(|p| bytes[p]);
                if next == Some(b'>')
                    || next == Some(b'=')
                    || prev == Some(b'=')
                    || next == Some(b':')
                    || prev == Some(b':')
                {
                    continue;
                }
                return name_before(&h[..k])
                    .map(|n| Cow::Borrowed(n.rsplit(' ').next().unwrap_or(n)));
            }
            _ => {}
        }
    }
    let open = bytes.iter().position(|&b| b == b'(')?;
    let callee = name_before(&h[..open])?;
    let arg = h[open + 1..]
        .trim_start()
        .strip_prefix(['"', '\'', '`'])
        .and_then(|rest| rest.split(['"', '\'', '`']).next())
        .unwrap_or("");
    Some(Cow::Owned(format!("{callee}({arg})")))
}

/// The indentation scanner (Python, Ruby, Lua, Elixir).
pub(super) fn indented<'a>(src: &'a str, lang: &Lang) -> Vec<Found<'a>> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        starts.push(at);
        at += l.len() + 1;
    }
    starts.push(src.len());
    let end_of = |k: usize| (starts[k] + lines[k].len()).min(src.len());
    let in_string = string_lines(&lines, lang);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    let mut classes: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() || in_string[i] {
            i += 1;
            continue;
        }
        let ind = indent(line);
        while classes.last().is_some_and(|(ci, _)| *ci >= ind) {
            classes.pop();
        }
        if let Some(name) = t
            .strip_prefix("class ")
            .or_else(|| t.strip_prefix("module "))
        {
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let name = name.trim_end_matches(':').to_string();
            classes.push((ind, name));
            i += 1;
            continue;
        }
        let Some(name) = header_name(t, lang) else {
            i += 1;
            continue;
        };
        // Python headers may span lines until the `:` that ends them.
        let mut end = i;
        if lang.blocks == Blocks::Indent {
            let mut depth = 0i32;
            'header: for (k, l) in lines.iter().enumerate().skip(i) {
                for c in l.split('#').next().unwrap_or("").chars() {
                    match c {
                        '(' | '[' => depth += 1,
                        ')' | ']' => depth -= 1,
                        _ => {}
                    }
                }
                end = k;
                if depth <= 0 {
                    break 'header;
                }
            }
        }
        // A one-line body after the header's colon: `def f(): return 1`.
        let mut body_start = starts[end + 1].min(src.len());
        if lang.blocks == Blocks::Indent {
            if let Some(after) = after_header_colon(lines[end]) {
                body_start = after.as_ptr() as usize - src.as_ptr() as usize;
            }
        }
        // Ruby's `def f; end` and `def f(x) = …`-free one-liners: the body
        // is what stands between the header and its `end`.
        if lang.blocks == Blocks::End {
            let code = lines[end].trim_end();
            if let Some(inner) = code.strip_suffix("end").filter(|c| c.ends_with([';', ' '])) {
                // An empty body is the empty end of `inner`: a slice of
                // `src`, so its offset can be taken.
                let body = inner
                    .split_once(';')
                    .map_or(&inner[inner.len()..], |(_, b)| b);
                let at = body.as_ptr() as usize - src.as_ptr() as usize;
                let qualified = match classes.last() {
                    Some((_, c)) => format!("{c}.{name}"),
                    None => name,
                };
                out.push(Found {
                    name: Cow::Owned(qualified),
                    occurrence: 0,
                    body: at..at + body.len(),
                });
                i = end + 1;
                continue;
            }
        }
        let by_keywords = match lang.blocks {
            Blocks::End => end_of_block(&lines[end + 1..]),
            _ => None,
        };
        let last = match by_keywords {
            Some(len) => end + len,
            None => {
                let mut j = end + 1;
                while j < lines.len() {
                    let l = lines[j];
                    if !l.trim().is_empty() && !in_string[j] && indent(l) <= ind {
                        break;
                    }
                    j += 1;
                }
                j - 1
            }
        };
        let body_end = if last > end {
            end_of(last)
        } else {
            body_start.max(end_of(end))
        };
        let qualified = match classes.last() {
            Some((_, c)) => format!("{c}.{name}"),
            None => name,
        };
        out.push(Found {
            name: Cow::Owned(qualified),
            occurrence: 0,
            body: body_start..body_end.max(body_start),
        });
        // Nested functions are found too: continue inside the body.
        i = end + 1;
    }
    out
}

/// Words that open a block closed by `end` (Ruby, Lua, Elixir) when they
/// start a line.
pub(super) const END_OPENERS: &[&str] = &[
    "if",
    "unless",
    "while",
    "until",
    "for",
    "case",
    "begin",
    "def",
    "defp",
    "class",
    "module",
    "function",
    "local function",
    "repeat",
    "do",
    "fn",
];

/// Returns how many lines of `lines` (the lines after a header) form the
/// body, counting the keywords that open and close blocks; `None` when the
/// count never closes.
pub(super) fn end_of_block(lines: &[&str]) -> Option<usize> {
    let mut depth = 1i32;
    for (k, line) in lines.iter().enumerate() {
        let code = line.split(" #").next().unwrap_or(line);
        let code = code.split(" --").next().unwrap_or(code).trim();
        if code.starts_with('#') || code.starts_with("--") {
            continue;
        }
        let words: Vec<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if let Some(first) = words.first() {
            if END_OPENERS.contains(first) && *first != "do" {
                depth += 1;
            }
        }
        // `... do`, `... do |x|`, Lua's `for … do`/`while … do` and
        // anonymous `function(...)` open blocks mid-line.
        let first = words.first().copied().unwrap_or("");
        for (w, word) in words.iter().enumerate() {
            if *word == "do" && !matches!(first, "for" | "while" | "until") {
                depth += 1;
            }
            if (*word == "function" || *word == "fn") && w > 0 {
                depth += 1;
            }
            if *word == "then"
                && first != "if"
                && first != "elseif"
                && w > 0
                && words[..w].contains(&"if")
            {
                depth += 1;
            }
            if *word == "end" || (*word == "until" && w == 0 && first == "until") {
                depth -= 1;
            }
        }
        if depth == 0 {
            return Some(k);
        }
    }
    None
}

/// Returns the function name of a header line, if it is one.
pub(super) fn header_name(t: &str, lang: &Lang) -> Option<String> {
    let rest = lang
        .fn_keywords
        .iter()
        .filter_map(|k| t.strip_prefix(k).filter(|r| r.starts_with(' ')))
        .next()?
        .trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '?' | '!' | '='))
        .collect();
    let name = name.trim_end_matches('=').to_string();
    // Ruby's endless `def x = expr` and Elixir's `def x, do: expr` have no
    // body to stub.
    let tail = rest[name.len()..].trim_start();
    if (lang.blocks == Blocks::End && (tail.starts_with('=') || tail.contains(", do:")))
        || name.is_empty()
    {
        return None;
    }
    Some(name)
}

/// Returns the code after the colon that ends a one-line Python header.
pub(super) fn after_header_colon(line: &str) -> Option<&str> {
    let code = line.split('#').next().unwrap_or("");
    let mut depth = 0i32;
    for (k, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ':' if depth == 0 => {
                let after = code[k + 1..].trim();
                return (!after.is_empty() && !after.starts_with('#')).then_some(after);
            }
            _ => {}
        }
    }
    None
}

/// Marks the lines that start inside a multi-line string (Python's
/// triple-quoted strings, Ruby heredocs are not tracked).
pub(super) fn string_lines(lines: &[&str], lang: &Lang) -> Vec<bool> {
    let mut out = vec![false; lines.len()];
    if lang.name != "python" && lang.name != "python-stubs" {
        return out;
    }
    let mut open: Option<&str> = None;
    for (k, line) in lines.iter().enumerate() {
        out[k] = open.is_some();
        let mut rest: &str = line;
        loop {
            match open {
                Some(q) => match rest.find(q) {
                    Some(p) => {
                        rest = &rest[p + 3..];
                        open = None;
                    }
                    None => break,
                },
                None => {
                    let code = rest.split('#').next().unwrap_or("");
                    let next = ["\"\"\"", "'''"]
                        .iter()
                        .filter_map(|q| code.find(q).map(|p| (p, *q)))
                        .min();
                    match next {
                        Some((p, q)) => {
                            rest = &rest[p + 3..];
                            open = Some(q);
                        }
                        None => break,
                    }
                }
            }
        }
    }
    out
}
