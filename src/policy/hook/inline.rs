//! Inline interpreter code (`python -c`, `node -e`, `perl -e`, a heredoc
//! fed to an interpreter): the file operations it visibly performs. The
//! patterns are data; code that hides its calls (`getattr(os, 'rem' +
//! 'ove')`) is not seen here, and is what the dirty-set snapshot and
//! `undo --session` are for.

pub mod names;

use super::programs::Lang;

/// Calls that delete, move or truncate files, with what they do.
pub const DESTROYS: &[(&str, &str)] = &[
    ("os.remove(", "deletes a file"),
    ("os.unlink(", "deletes a file"),
    ("os.rmdir(", "deletes a folder"),
    ("os.removedirs(", "deletes folders"),
    ("shutil.rmtree(", "deletes a folder tree"),
    ("rmtree(", "deletes a folder tree"),
    ("shutil.move(", "moves files"),
    ("os.rename(", "moves files"),
    ("os.renames(", "moves files"),
    ("os.replace(", "replaces a file"),
    (".unlink(", "deletes a file"),
    (".rmdir(", "deletes a folder"),
    ("os.truncate(", "truncates a file"),
    (".truncate(", "truncates a file"),
    ("fs.rmSync(", "deletes files"),
    ("fs.rm(", "deletes files"),
    ("rmSync(", "deletes files"),
    ("unlinkSync(", "deletes a file"),
    ("fs.unlink(", "deletes a file"),
    ("rmdirSync(", "deletes a folder"),
    ("fs.rmdir(", "deletes a folder"),
    ("renameSync(", "moves a file"),
    ("fs.rename(", "moves a file"),
    ("truncateSync(", "truncates a file"),
    ("fs.truncate(", "truncates a file"),
    ("promises.rm(", "deletes files"),
    ("rimraf", "deletes folder trees"),
    ("Deno.remove(", "deletes files"),
    ("Deno.removeSync(", "deletes files"),
    ("Deno.rename(", "moves a file"),
    ("Deno.renameSync(", "moves a file"),
    ("Deno.truncate(", "truncates a file"),
    ("Deno.truncateSync(", "truncates a file"),
    ("FileUtils.rm", "deletes files"),
    ("FileUtils.remove", "deletes files"),
    ("FileUtils.mv", "moves files"),
    ("File.delete(", "deletes a file"),
    ("File.unlink(", "deletes a file"),
    ("Dir.rmdir(", "deletes a folder"),
    ("Dir.delete(", "deletes a folder"),
    ("remove_tree(", "deletes a folder tree"),
    ("unlink(", "deletes a file"),
    ("unlink ", "deletes a file"),
    ("rename(", "moves a file"),
    ("truncate(", "truncates a file"),
];

/// Calls that write a file, replacing its content: the first string
/// literal of the call is the path (`open` is judged by its mode).
pub const WRITES: &[&str] = &[
    "open(",
    ".write_text(",
    ".write_bytes(",
    "writeFileSync(",
    "fs.writeFile(",
    "promises.writeFile(",
    "createWriteStream(",
    "Deno.writeTextFile(",
    "Deno.writeFile(",
    "Deno.writeTextFileSync(",
    "Deno.writeFileSync(",
    "Bun.write(",
    "File.write(",
    "File.open(",
    "IO.write(",
    "file_put_contents(",
    "fopen(",
    "appendFileSync(",
    "fs.appendFile(",
    "promises.appendFile(",
    ".open(",
];

/// Write calls whose path is the object they are called on
/// (`Path('f').write_text(…)`), not their first argument.
const ON_RECEIVER: &[&str] = &[".write_text(", ".write_bytes(", ".open("];

/// Write calls that append (what is there stays): judged only for where
/// they write (a dotfile, `~/.ssh`, the git dir), like `>>`.
const APPENDS: &[&str] = &["appendFileSync(", "fs.appendFile(", "promises.appendFile("];

/// Calls that run a shell command: their string literals are judged as
/// command lines.
pub const RUNS: &[&str] = &[
    "os.system(",
    "os.popen(",
    "subprocess.",
    "check_output(",
    "check_call(",
    "os.exec",
    "os.spawn",
    "child_process",
    "execSync(",
    "spawnSync(",
    "execFileSync(",
    "exec(",
    "spawn(",
    "system(",
    "popen(",
    "%x(",
    "Deno.Command(",
    "Deno.run(",
    "Bun.spawn",
    "shell_exec(",
    "passthru(",
    "proc_open(",
    "Open3",
    "IO.popen(",
    // Lua.
    "os.execute(",
    "io.popen(",
];

/// What inline code visibly does to files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// Deletes, moves or truncates files (`api` names the call).
    Destroys(&'static str, &'static str),
    /// Replaces a file's content: the path when it is a literal.
    Writes(&'static str, Option<String>),
    /// Appends to a file (or creates it): the path when it is a literal.
    Appends(&'static str, Option<String>),
    /// Runs this shell command line.
    Runs(String),
    /// Reaches a function, module or code by a name computed at run time
    /// (the construct), which the guard cannot follow.
    Dynamic(&'static str),
}

/// Scans `code` for file operations, under the names it wrote and under
/// the canonical names its aliases stand for ([`names::normalize`]).
pub fn scan(lang: Lang, code: &str) -> Vec<Finding> {
    let normal = names::normalize(lang, code);
    let mut out = Vec::new();
    if let Some(construct) = normal.dynamic {
        out.push(Finding::Dynamic(construct));
    }
    for f in scan_text(lang, code).into_iter().chain(
        (normal.code != code)
            .then(|| scan_text(lang, &normal.code))
            .into_iter()
            .flatten(),
    ) {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Scans `code` as written.
fn scan_text(lang: Lang, code: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for (needle, what) in DESTROYS {
        if contains_call(code, needle) || contains_reference(&names::outside_quotes(code), needle) {
            out.push(Finding::Destroys(needle, what));
            break;
        }
    }
    // A runner handed over uncalled (`map(os.system, cmds)`) runs what
    // the guard cannot see.
    let bare = names::outside_quotes(code);
    if RUNS.iter().any(|needle| contains_reference(&bare, needle)) {
        out.push(Finding::Runs(String::new()));
    }
    for needle in WRITES {
        let mut from = 0;
        while let Some(at) = code[from..].find(needle) {
            let start = from + at;
            from = start + needle.len();
            if !call_boundary(code, start, needle) {
                continue;
            }
            let lits = call_literals(code, from);
            let args = call_arguments(&code[from..]);
            let Some((path, append)) = write_target(needle, &lits, &args, lang) else {
                continue;
            };
            let path = if ON_RECEIVER.contains(needle) {
                receiver_literal(code, start)
            } else {
                path
            };
            // A literal the language fills in (`"$ENV{HOME}/x"`,
            // `f"{home}/x"`, `` `${dir}/x` ``, `"#{dir}/x"`) is computed.
            let path = path.filter(|p| !p.contains('$') && !p.contains('{'));
            out.push(if append || APPENDS.contains(needle) {
                Finding::Appends(needle, path)
            } else {
                Finding::Writes(needle, path)
            });
        }
    }
    let mut runs = false;
    for needle in RUNS {
        let mut from = 0;
        while let Some(at) = code[from..].find(needle) {
            let start = from + at;
            from = start + needle.len();
            if !call_boundary(code, start, needle) {
                continue;
            }
            runs = true;
            let lits = call_literals(code, from);
            out.extend(lits.iter().cloned().map(Finding::Runs));
            if lits.len() > 1 {
                out.push(Finding::Runs(lits.join(" ")));
            }
        }
    }
    // Perl and Ruby run backtick strings (`qx` too).
    if matches!(lang, Lang::Perl | Lang::Ruby | Lang::Php) {
        for lit in literals(code, true).into_iter().filter(|(q, _)| *q == '`') {
            out.push(Finding::Runs(lit.1));
        }
        if code.contains("qx") {
            runs = true;
        }
    }
    if runs && !out.iter().any(|f| matches!(f, Finding::Runs(_))) {
        // A command built at run time: nothing literal to judge.
        out.push(Finding::Runs(String::new()));
    }
    out
}

/// Whether `needle` occurs where a call can start (not inside a longer
/// name: `myunlink(` is not `unlink(`).
fn contains_call(code: &str, needle: &str) -> bool {
    let mut from = 0;
    while let Some(at) = code[from..].find(needle) {
        let start = from + at;
        if call_boundary(code, start, needle) {
            return true;
        }
        from = start + needle.len();
    }
    false
}

/// Whether a qualified function (`os.remove`, `shutil.rmtree`,
/// `File::Path::rmtree`) is named without being called here: handed to
/// `map`, `partial`, a callback, or bound to another name.
fn contains_reference(code: &str, needle: &str) -> bool {
    let Some(name) = needle.strip_suffix('(') else {
        return false;
    };
    let qualified = name.find(['.', ':']).is_some_and(|at| at > 0);
    if !qualified {
        return false;
    }
    let mut from = 0;
    while let Some(at) = code[from..].find(name) {
        let start = from + at;
        let end = start + name.len();
        from = end;
        let after = code[end..].trim_start().chars().next();
        let word_after = code[end..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !word_after && after != Some('(') && call_boundary(code, start, needle) {
            return true;
        }
    }
    false
}

fn call_boundary(code: &str, start: usize, needle: &str) -> bool {
    if needle.starts_with('.') {
        return true;
    }
    // A bare lower-case name (`unlink(`, `rename(`, `exec(`) is not a
    // method of something else (`df.rename(`, `re.exec(`).
    let bare = needle
        .chars()
        .all(|c| c.is_ascii_lowercase() || c == '(' || c == ' ' || c == '_')
        && needle != "open(";
    code[..start]
        .chars()
        .next_back()
        .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || (bare && c == '.')))
}

/// The string literals of the call whose arguments start at `from`, up to
/// its closing parenthesis.
fn call_literals(code: &str, from: usize) -> Vec<String> {
    let rest = &code[from..];
    let mut depth = 1i32;
    let mut end = rest.len();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    literals(&rest[..end], false)
        .into_iter()
        .map(|(_, s)| s)
        .collect()
}

/// The string literals in `code`: quote character and content.
fn literals(code: &str, backticks: bool) -> Vec<(char, String)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' || c == '"' || (backticks && c == '`') {
            let triple = i + 2 < chars.len() && chars[i + 1] == c && chars[i + 2] == c;
            let mut s = String::new();
            i += if triple { 3 } else { 1 };
            while i < chars.len() {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    match chars[i + 1] {
                        'n' => s.push('\n'),
                        't' => s.push('\t'),
                        other => s.push(other),
                    }
                    i += 2;
                    continue;
                }
                if chars[i] == c
                    && (!triple || (i + 2 < chars.len() && chars[i + 1] == c && chars[i + 2] == c))
                {
                    i += if triple { 3 } else { 1 };
                    break;
                }
                s.push(chars[i]);
                i += 1;
            }
            out.push((c, s));
            continue;
        }
        i += 1;
    }
    out
}

/// The path a write call writes, when the call writes (`None` inside
/// `Some` when the path is not a literal), and whether it appends. `lits`
/// are all the call's literals, `args` its top-level arguments.
fn write_target(
    needle: &str,
    lits: &[String],
    args: &[String],
    lang: Lang,
) -> Option<(Option<String>, bool)> {
    match needle {
        "open(" if lang == Lang::Perl => {
            // open(FH, '>', 'f') / open(FH, '>f'); '>>' appends.
            for (k, l) in lits.iter().enumerate() {
                let t = l.trim_start();
                if let Some(p) = t.strip_prefix(">>") {
                    return Some(match p.trim() {
                        "" => (lits.get(k + 1).cloned(), true),
                        p => (Some(p.to_string()), true),
                    });
                }
                if t == ">" || t == "+<" || t == "+>" {
                    return Some((lits.get(k + 1).cloned(), false));
                }
                if let Some(p) = t.strip_prefix('>') {
                    return Some((Some(p.trim().to_string()), false));
                }
            }
            None
        }
        "open(" | "File.open(" | "fopen(" | ".open(" => {
            // `open(PATH, MODE)`; `Path(p).open(MODE)`. A mode that is not
            // a literal may be a write.
            let keyword = |a: &String| {
                a.split_once('=').is_some_and(|(k, _)| {
                    !k.trim().is_empty()
                        && k.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
                })
            };
            let positional = if needle == ".open(" {
                args.first()
            } else {
                args.get(1)
            };
            let mode = args
                .iter()
                .find(|a| a.split_once('=').is_some_and(|(k, _)| k.trim() == "mode"))
                .or(positional.filter(|a| !keyword(a)));
            let mode = match mode {
                None => "r".to_string(),
                Some(m) => literal_of(m).unwrap_or_else(|| "w".into()),
            };
            let path = args.first().and_then(|a| literal_of(a));
            if mode.contains('w') || mode.contains('+') || mode.contains('x') {
                Some((path, false))
            } else if mode.contains('a') {
                Some((path, true))
            } else {
                None
            }
        }
        _ => Some((args.first().and_then(|a| literal_of(a)), false)),
    }
}

/// The top-level arguments of a call whose text starts after its `(`,
/// up to its closing parenthesis, as written.
fn call_arguments(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut current = String::new();
    for c in rest.chars() {
        if let Some(q) = quote {
            current.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current).trim().to_string());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// An argument's text when it is one string literal and nothing else
/// (`mode='w'`, a keyword argument, counts as its literal).
fn literal_of(arg: &str) -> Option<String> {
    let arg = arg
        .split_once('=')
        .filter(|(k, _)| k.trim() == "mode")
        .map_or(arg, |(_, v)| v)
        .trim();
    if !arg.starts_with(['\'', '"', '`']) {
        return None;
    }
    match literals(arg, true).as_slice() {
        [(q, s)] if arg.ends_with(*q) => Some(s.clone()),
        _ => None,
    }
}

/// The first string literal of the call just before `start`
/// (`Path('src/app.py')` in `Path('src/app.py').write_text(…)`), when
/// the receiver is such a call.
fn receiver_literal(code: &str, start: usize) -> Option<String> {
    let before = code[..start].trim_end();
    if !before.ends_with(')') {
        return None;
    }
    let mut depth = 0i32;
    for (i, c) in before.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    // A call (`Path(…)`, not a bare `( … )`) of one literal
                    // and nothing else (`Path.home() / 'x'` is computed).
                    let inner = before[i + 1..before.len() - 1].trim();
                    let called = before[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    let lits = literals(inner, false);
                    let quoted = inner.starts_with(['\'', '"']) && inner.ends_with(['\'', '"']);
                    return match lits.as_slice() {
                        [(_, s)] if called && quoted => Some(s.clone()),
                        _ => None,
                    };
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_operations_are_found() {
        let f = scan(Lang::Python, "import shutil; shutil.rmtree('src')");
        assert!(matches!(f[0], Finding::Destroys(..)));
        let f = scan(Lang::Python, "open('a.txt', 'w').write('x')");
        assert_eq!(f, [Finding::Writes("open(", Some("a.txt".into()))]);
        assert!(scan(Lang::Python, "print(open('a.txt').read())").is_empty());
        let f = scan(Lang::Node, "require('fs').rmSync('src', {recursive: true})");
        assert!(matches!(f[0], Finding::Destroys(..)));
        let f = scan(Lang::Python, "import os; os.system('rm -rf src')");
        assert!(f.contains(&Finding::Runs("rm -rf src".into())));
        let f = scan(Lang::Perl, "open(my $f, '>', 'x.txt')");
        assert_eq!(f, [Finding::Writes("open(", Some("x.txt".into()))]);
        assert!(scan(Lang::Python, "print(sum([1,2]))").is_empty());
        assert!(scan(Lang::Python, "import json; print(json.dumps({'a': 1}))").is_empty());
        // Appends, receivers, and literals the language fills in.
        let f = scan(Lang::Python, "open('/h/.ssh/config', 'a').write('x')");
        assert_eq!(
            f,
            [Finding::Appends("open(", Some("/h/.ssh/config".into()))]
        );
        let f = scan(Lang::Perl, "open(F, '>>', 'x.txt')");
        assert_eq!(f, [Finding::Appends("open(", Some("x.txt".into()))]);
        let f = scan(Lang::Perl, "open(F, \">>$ENV{HOME}/.ssh/config\")");
        assert_eq!(f, [Finding::Appends("open(", None)]);
        let f = scan(
            Lang::Python,
            "from pathlib import Path; Path('src/app.py').write_text('hi')",
        );
        assert_eq!(
            f,
            [Finding::Writes(".write_text(", Some("src/app.py".into()))]
        );
        let f = scan(
            Lang::Python,
            "(Path.home() / '.ssh/config').write_text('x')",
        );
        assert_eq!(f, [Finding::Writes(".write_text(", None)]);
        let f = scan(Lang::Python, "open(f'{d}/x', 'w')");
        assert_eq!(f, [Finding::Writes("open(", None)]);
        let f = scan(
            Lang::Node,
            "require('fs').appendFileSync(require('os').homedir() + '/.bashrc', 'x')",
        );
        assert_eq!(f, [Finding::Appends("appendFileSync(", None)]);
        let f = scan(Lang::Python, "p = 'src/app.py'; open(p, 'w').write('')");
        assert_eq!(f, [Finding::Writes("open(", None)]);
        assert!(scan(
            Lang::Python,
            "print(open('a.txt', encoding='utf-8').read())"
        )
        .is_empty());
        let f = scan(Lang::Python, "open('a.txt', encoding='utf-8', mode='a')");
        assert_eq!(f, [Finding::Appends("open(", Some("a.txt".into()))]);
        let f = scan(Lang::Python, "Path('src/app.py').open('w')");
        assert_eq!(f, [Finding::Writes(".open(", Some("src/app.py".into()))]);
        let f = scan(
            Lang::Node,
            "require('fs').appendFileSync('/h/.bashrc', 'x')",
        );
        assert_eq!(
            f,
            [Finding::Appends(
                "appendFileSync(",
                Some("/h/.bashrc".into())
            )]
        );
    }
}
