//! Names in inline code bound to the calls [`super::scan`] looks for
//! under another spelling: aliases (`import shutil as s`, `from shutil
//! import rmtree as w`, `const {rmSync: r} = require('fs')`, `F =
//! FileUtils`, `*w = \&File::Path::rmtree`), star imports (`from os
//! import *`, `include FileUtils`), names given as string literals
//! (`__import__('shutil')`, `getattr(os, 'sys' + 'tem')`, `fs['rmSync']`,
//! `FileUtils.send(:rm_rf, …)`), Perl's and Ruby's calls without
//! parentheses and their quote operators (`system q{rm -rf src}`).
//!
//! [`normalize`] rewrites those into the canonical spelling, so the scan
//! finds `shutil.rmtree(` where the code wrote `w(`; whatever still reaches
//! a function or module by a name computed at run time (`getattr(os, x)`,
//! `exec(code)`, `require(name)`) is reported, and the caller vetoes it:
//! the guard cannot tell what it calls.
//!
//! This is a reading of the text, not a parser: every rule errs towards
//! seeing a call that is not there (a vetoed one-liner), never towards
//! missing one that is.

use std::collections::BTreeMap;

use crate::policy::hook::programs::Lang;

/// Modules whose functions delete, move or write files or run commands,
/// by language: the module's canonical name (as [`super::scan`] knows
/// it), the names a program imports it by, and the functions a star
/// import (`from os import *`, `include FileUtils`) brings in bare.
pub const MODULES: &[(Lang, &str, &[&str], &[&str])] = &[
    (
        Lang::Python,
        "os",
        &["os", "posix", "nt"],
        &[
            "remove",
            "unlink",
            "rmdir",
            "removedirs",
            "rename",
            "renames",
            "replace",
            "truncate",
            "system",
            "popen",
            "execv",
            "execve",
            "execvp",
            "execvpe",
            "execl",
            "execle",
            "execlp",
            "execlpe",
            "spawnl",
            "spawnv",
            "spawnvp",
            "spawnlp",
            "posix_spawn",
            "posix_spawnp",
        ],
    ),
    (Lang::Python, "shutil", &["shutil"], &["rmtree", "move"]),
    (
        Lang::Python,
        "subprocess",
        &["subprocess"],
        &[
            "run",
            "call",
            "check_call",
            "check_output",
            "Popen",
            "getoutput",
            "getstatusoutput",
        ],
    ),
    (Lang::Python, "pty", &["pty"], &["spawn"]),
    (Lang::Python, "pathlib", &["pathlib"], &[]),
    (
        Lang::Node,
        "fs",
        &["fs", "node:fs", "fs-extra", "graceful-fs"],
        &[
            "rm",
            "rmSync",
            "unlink",
            "unlinkSync",
            "rmdir",
            "rmdirSync",
            "rename",
            "renameSync",
            "truncate",
            "truncateSync",
            "writeFile",
            "writeFileSync",
            "appendFile",
            "appendFileSync",
            "createWriteStream",
        ],
    ),
    (
        Lang::Node,
        "fs.promises",
        &["fs/promises", "node:fs/promises"],
        &["rm", "unlink", "rmdir", "rename", "truncate", "writeFile"],
    ),
    (
        Lang::Node,
        "child_process",
        &["child_process", "node:child_process"],
        &[
            "exec",
            "execSync",
            "execFile",
            "execFileSync",
            "spawn",
            "spawnSync",
            "fork",
        ],
    ),
    (
        Lang::Ruby,
        "FileUtils",
        &["FileUtils"],
        &[
            "rm",
            "rm_r",
            "rm_rf",
            "rm_f",
            "rmtree",
            "rmdir",
            "remove",
            "remove_dir",
            "remove_entry",
            "remove_entry_secure",
            "remove_file",
            "mv",
            "move",
        ],
    ),
    (
        Lang::Perl,
        "File::Path",
        &["File::Path"],
        &["rmtree", "remove_tree"],
    ),
    (Lang::Perl, "File::Copy", &["File::Copy"], &["move", "mv"]),
];

/// Constructs that reach a function, a module or code by a value computed
/// at run time, by language, once every literal spelling of them has been
/// rewritten: what is left of them is a veto.
const DYNAMIC: &[(Lang, &str)] = &[
    (Lang::Python, "__import__("),
    (Lang::Python, "import_module("),
    (Lang::Python, "exec("),
    (Lang::Python, "eval("),
    (Lang::Python, "compile("),
    (Lang::Python, "__builtins__"),
    (Lang::Python, "builtins."),
    (Lang::Python, "sys.modules"),
    (Lang::Python, "globals()"),
    (Lang::Python, "locals()"),
    (Lang::Python, "__dict__"),
    (Lang::Python, "attrgetter("),
    (Lang::Python, "methodcaller("),
    (Lang::Python, "ctypes"),
    (Lang::Python, "marshal.loads"),
    (Lang::Python, "pickle.loads"),
    (Lang::Node, "eval("),
    (Lang::Node, "Function("),
    (Lang::Node, "process.binding"),
    (Lang::Node, "process.dlopen"),
    (Lang::Node, "process.mainModule"),
    (Lang::Node, "module.constructor"),
    (Lang::Node, "Reflect."),
    (Lang::Node, "globalThis["),
    (Lang::Node, "vm.run"),
    (Lang::Node, "runInNewContext"),
    (Lang::Node, "runInThisContext"),
    (Lang::Ruby, "send("),
    (Lang::Ruby, "send "),
    (Lang::Ruby, "method("),
    (Lang::Ruby, "const_get"),
    (Lang::Ruby, "eval("),
    (Lang::Ruby, "eval "),
    (Lang::Ruby, "instance_eval"),
    (Lang::Ruby, "class_eval"),
    (Lang::Ruby, "module_eval"),
    (Lang::Ruby, "instance_exec"),
    (Lang::Perl, "&{"),
    (Lang::Perl, "&$"),
    (Lang::Perl, "->can("),
    (Lang::Perl, "*{"),
    (Lang::Perl, "eval \""),
    (Lang::Perl, "eval '"),
    (Lang::Perl, "eval $"),
    (Lang::Perl, "eval("),
    (Lang::Php, "call_user_func"),
    (Lang::Php, "eval("),
    (Lang::Php, "$$"),
    (Lang::Php, "create_function"),
];

/// Perl's and Ruby's calls that may be written without parentheses
/// (`system "rm -rf src"`, `rm_rf 'src'`): given parentheses up to the
/// end of their statement, the scan reads their arguments.
const PARENLESS: &[&str] = &[
    "system",
    "exec",
    "spawn",
    "unlink",
    "rmtree",
    "remove_tree",
    "rm_rf",
    "rm_r",
    "rm_f",
    "rename",
    "truncate",
    "rmdir",
];

/// What [`normalize`] made of inline code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    /// The code with aliases, star imports and literal names rewritten to
    /// the spellings the scan knows.
    pub code: String,
    /// A construct that reaches a function, module or code by a value
    /// computed at run time, when one is left.
    pub dynamic: Option<&'static str>,
}

/// Rewrites `code` so that every call bound to a known function under
/// another name is spelled by its canonical name; reports what cannot be
/// resolved.
pub fn normalize(lang: Lang, code: &str) -> Normalized {
    let mut code = fold_concatenations(lang, &unquote_operators(lang, code));
    // Literal names first (`__import__('shutil')` is `shutil`), then the
    // aliases they make (`s = __import__('shutil')`), twice over so an
    // alias of an alias resolves.
    for _ in 0..3 {
        let before = code.clone();
        code = literal_access(lang, &code);
        let aliases = aliases(lang, &code);
        code = rewrite(lang, &code, &aliases);
        code = star_imports(lang, &code);
        if code == before {
            break;
        }
    }
    if matches!(lang, Lang::Perl | Lang::Ruby) {
        code = parenthesize(&code);
    }
    // `exec('…')` of a literal is that code: it is appended to be read.
    let mut evaluated = String::new();
    if matches!(lang, Lang::Python | Lang::Node | Lang::Ruby | Lang::Php) {
        for needle in ["exec(", "eval("] {
            for (_, lit) in calls_of_literal(&code, needle) {
                evaluated.push('\n');
                evaluated.push_str(&lit);
            }
        }
    }
    let stripped = remove_literal_calls(&code, &["exec(", "eval(", "compile("]);
    let dynamic = dynamic_left(lang, &stripped);
    if !evaluated.is_empty() {
        let inner = normalize(lang, &evaluated);
        code.push_str(&inner.code);
        return Normalized {
            code,
            dynamic: dynamic.or(inner.dynamic),
        };
    }
    Normalized { code, dynamic }
}

/// The first dynamic construct left in `code` (outside string literals).
fn dynamic_left(lang: Lang, code: &str) -> Option<&'static str> {
    let bare = outside_quotes(code);
    for (l, needle) in DYNAMIC {
        if *l != lang {
            continue;
        }
        let mut from = 0;
        while let Some(at) = bare[from..].find(needle) {
            let start = from + at;
            from = start + needle.len();
            let before = bare[..start].chars().next_back();
            // A longer name (`my_exec(`, `resend(`) is another function;
            // a method (`re.compile(`, `obj.eval(`) another object's,
            // except for the constructs that are methods themselves.
            let word_start = needle.starts_with(|c: char| c.is_alphanumeric() || c == '_');
            if word_start && before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            if matches!(*needle, "exec(" | "eval(" | "compile(" | "import_module(")
                && before == Some('.')
                && !bare[..start].ends_with("importlib.")
            {
                continue;
            }
            return Some(needle);
        }
    }
    // `getattr(X, name)` / `X[name]` / `require(name)` with a name not
    // written as a literal, on a module that deletes or runs.
    match lang {
        Lang::Python => {
            for (at, _) in bare.match_indices("getattr(") {
                if bare[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                let args = super::call_arguments(&code[at + "getattr(".len()..]);
                let receiver = args.first().map(|a| a.trim()).unwrap_or("");
                if module_named(lang, receiver) || receiver.is_empty() {
                    return Some("getattr(");
                }
            }
            None
        }
        Lang::Node => {
            for (at, _) in bare.match_indices("require(") {
                let rest = code[at + "require(".len()..].trim_start();
                if !rest.starts_with(['\'', '"', '`']) || rest.starts_with("`${") {
                    return Some("require(");
                }
            }
            for (at, _) in bare.match_indices("import(") {
                if bare[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                let rest = code[at + "import(".len()..].trim_start();
                if !rest.starts_with(['\'', '"']) {
                    return Some("import(");
                }
            }
            // A computed member of a module (`fs[name]`, `require('fs')[x]`).
            for (at, _) in bare.match_indices('[') {
                let head = bare[..at].trim_end();
                let receiver: String = head
                    .chars()
                    .rev()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$'))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let called_require = head.ends_with(')') && head.contains("require(");
                if module_named(lang, &receiver) || called_require || receiver == "process" {
                    return Some("a computed member of a module");
                }
            }
            None
        }
        _ => None,
    }
}

/// Whether `name` is (an import name of) a module of [`MODULES`].
fn module_named(lang: Lang, name: &str) -> bool {
    MODULES
        .iter()
        .any(|(l, canonical, names, _)| *l == lang && (*canonical == name || names.contains(&name)))
}

/// The canonical name of the module imported as `name`.
fn canonical_module(lang: Lang, name: &str) -> Option<&'static str> {
    MODULES
        .iter()
        .find(|(l, canonical, names, _)| {
            *l == lang && (*canonical == name || names.contains(&name))
        })
        .map(|(_, c, _, _)| *c)
}

/// Perl's `q{…}`/`qq{…}` and Ruby's `%q{…}`/`%Q{…}`/`%(…)` written as
/// double-quoted strings, so literals are read alike.
fn unquote_operators(lang: Lang, code: &str) -> String {
    let openers: &[&str] = match lang {
        Lang::Perl => &["qq", "q", "qx"],
        Lang::Ruby => &["%q", "%Q", "%x", "%"],
        _ => return code.to_string(),
    };
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    let mut quote: Option<char> = None;
    'outer: while i < chars.len() {
        let c = chars[i];
        if let Some(next) = copy_quoted(&chars, i, &mut quote, &mut out) {
            i = next;
            continue;
        }
        let prev_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if !prev_word {
            for op in openers {
                let op_chars: Vec<char> = op.chars().collect();
                let n = op_chars.len();
                if chars[i..].starts_with(&op_chars) && i + n < chars.len() {
                    let open = chars[i + n];
                    let close = match open {
                        '{' => '}',
                        '(' => ')',
                        '[' => ']',
                        '<' => '>',
                        '|' | '/' | '!' | '#' | '~' => open,
                        _ => continue,
                    };
                    // `%` alone only before a bracket (not `a % (b)`).
                    if *op == "%" && !matches!(open, '{' | '(' | '[') {
                        continue;
                    }
                    if *op == "%" && i > 0 && !chars[i - 1].is_whitespace() && chars[i - 1] != '(' {
                        continue;
                    }
                    let mut depth = 1;
                    let mut j = i + n + 1;
                    let mut body = String::new();
                    while j < chars.len() {
                        let d = chars[j];
                        if d == '\\' && j + 1 < chars.len() {
                            body.push(chars[j + 1]);
                            j += 2;
                            continue;
                        }
                        if d == close && open != close {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        } else if d == open && open != close {
                            depth += 1;
                        } else if d == close {
                            break;
                        }
                        body.push(d);
                        j += 1;
                    }
                    if j >= chars.len() {
                        continue;
                    }
                    let q = if op.ends_with('x') { '`' } else { '"' };
                    out.push(q);
                    out.push_str(&body.replace(q, &format!("\\{q}")));
                    out.push(q);
                    i = j + 1;
                    continue 'outer;
                }
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// `'sys' + 'tem'` (`.` in Perl) folded into `"system"`.
fn fold_concatenations(lang: Lang, code: &str) -> String {
    let op = if lang == Lang::Perl || lang == Lang::Php {
        '.'
    } else {
        '+'
    };
    let mut code = code.to_string();
    for _ in 0..64 {
        let Some(folded) = fold_once(&code, op) else {
            break;
        };
        code = folded;
    }
    code
}

fn fold_once(code: &str, op: char) -> Option<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' || c == '"' {
            let (end, body) = read_simple_literal(&chars, i)?;
            let Some(body) = body else {
                i = end;
                continue;
            };
            // After the literal: `op`, then another simple literal.
            let mut j = end;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if j < chars.len() && chars[j] == op {
                let mut k = j + 1;
                while k < chars.len() && chars[k].is_whitespace() {
                    k += 1;
                }
                if k < chars.len() && (chars[k] == '\'' || chars[k] == '"') {
                    if let Some((end2, Some(body2))) = read_simple_literal(&chars, k) {
                        let mut out: String = chars[..i].iter().collect();
                        out.push('"');
                        out.push_str(&body);
                        out.push_str(&body2);
                        out.push('"');
                        out.extend(&chars[end2..]);
                        return Some(out);
                    }
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    None
}

/// A quoted literal starting at `start`: where it ends (after the
/// quote) and its text when it has no escapes or other quotes inside (only
/// those are folded).
fn read_simple_literal(chars: &[char], start: usize) -> Option<(usize, Option<String>)> {
    let q = chars[start];
    let mut j = start + 1;
    let mut body = String::new();
    let mut simple = true;
    while j < chars.len() {
        let d = chars[j];
        if d == q {
            return Some((j + 1, simple.then_some(body)));
        }
        if d == '\\' {
            simple = false;
            j += 2;
            continue;
        }
        if d == '"' || d == '\'' {
            simple = false;
        }
        body.push(d);
        j += 1;
    }
    None
}

/// Names spelled as string literals rewritten as names.
fn literal_access(lang: Lang, code: &str) -> String {
    use regex::Regex;
    use std::sync::LazyLock;
    static PY_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:__import__|(?:importlib\s*\.\s*)?import_module)\(\s*['"]([\w.]+)['"]\s*(?:,[^()]*)?\)"#)
            .expect("regex")
    });
    static PY_GETATTR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\bgetattr\(\s*([\w.]+)\s*,\s*['"](\w+)['"]\s*(?:,[^()]*)?\)"#).expect("regex")
    });
    static PY_SUBSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:\bsys\s*\.\s*modules|\bglobals\(\)|\blocals\(\)|\bvars\(\s*\)|__builtins__(?:\s*\.\s*__dict__)?)\s*\[\s*['"]([\w.]+)['"]\s*\]"#)
            .expect("regex")
    });
    static PY_DICT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:\bvars\(\s*([\w.]+)\s*\)|\b([\w.]+)\s*\.\s*__dict__)\s*\[\s*['"](\w+)['"]\s*\]"#,
        )
        .expect("regex")
    });
    static JS_MEMBER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"\[\s*['"`](\w+)['"`]\s*\]"#).expect("regex"));
    static RB_SEND: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\.\s*(?:public_send|__send__|send|method)\s*\(?\s*(?::(\w+)|['"](\w+)['"])\s*(?:,\s*|\))?"#)
            .expect("regex")
    });
    static RB_CONST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(?:Object|Kernel)\s*\.\s*const_get\(\s*(?::(\w+)|['"]([\w:]+)['"])\s*\)"#)
            .expect("regex")
    });
    static PL_SYMREF: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"&\{\s*(?:\\&)?\s*['"]([\w:]+)['"]\s*\}"#).expect("regex"));
    static PL_CAN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"['"]?([\w:]+)['"]?\s*->\s*can\(\s*['"](\w+)['"]\s*\)\s*(?:->)?"#)
            .expect("regex")
    });
    let code = code.to_string();
    match lang {
        Lang::Python => {
            let code = PY_IMPORT.replace_all(&code, "$1").into_owned();
            let code = PY_SUBSCRIPT.replace_all(&code, "$1").into_owned();
            let code = PY_DICT.replace_all(&code, "$1$2.$3").into_owned();
            PY_GETATTR.replace_all(&code, "$1.$2").into_owned()
        }
        Lang::Node => JS_MEMBER.replace_all(&code, ".$1").into_owned(),
        Lang::Ruby => {
            let code = RB_SEND
                .replace_all(&code, |c: &regex::Captures<'_>| {
                    let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
                    let closes = c
                        .get(0)
                        .is_some_and(|m| m.as_str().trim_end().ends_with(')'));
                    if closes {
                        format!(".{name}()")
                    } else {
                        format!(".{name}(")
                    }
                })
                .into_owned();
            RB_CONST
                .replace_all(&code, |c: &regex::Captures<'_>| {
                    c.get(1)
                        .or_else(|| c.get(2))
                        .map_or("", |m| m.as_str())
                        .to_string()
                })
                .into_owned()
        }
        Lang::Perl => {
            let code = PL_SYMREF.replace_all(&code, "$1").into_owned();
            PL_CAN.replace_all(&code, "$1::$2").into_owned()
        }
        Lang::Php => code,
    }
}

/// Name → what it stands for, from import and assignment statements.
fn aliases(lang: Lang, code: &str) -> BTreeMap<String, String> {
    use regex::Regex;
    use std::sync::LazyLock;
    static PY_IMPORT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)(?:^|;)\s*import\s+([^;\n]+)").expect("regex"));
    static PY_FROM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)(?:^|;)\s*from\s+([\w.]+)\s+import\s+\(?([^;\n)]+)\)?").expect("regex")
    });
    static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[;\n{(,]|\b(?:const|let|var|my|our|local)\s)\s*\$?([A-Za-z_]\w*)\s*=\s*\\?&?\s*([A-Za-z_][\w.:]*)(?:\s*\.\s*bind\([^()]*\))?\s*(?:[;\n,)]|$)")
            .expect("regex")
    });
    static PL_GLOB: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\*([A-Za-z_][\w:]*)\s*=\s*\\&\s*([A-Za-z_][\w:]*)").expect("regex")
    });
    static JS_REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:require|import)\(\s*['"`]([^'"`]+)['"`]\s*\)((?:\s*\.\s*[A-Za-z_$][\w$]*)*)"#)
            .expect("regex")
    });
    static JS_DESTRUCTURE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\{([^{}]*)\}\s*=\s*(?:await\s+)?(?:require\(\s*['"`]([^'"`]+)['"`]\s*\)|import\(\s*['"`]([^'"`]+)['"`]\s*\)|([A-Za-z_$][\w$.]*))"#)
            .expect("regex")
    });
    static JS_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\bimport\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*))?\s*,?\s*(?:\{([^{}]*)\})?\s*from\s*['"]([^'"]+)['"]"#)
            .expect("regex")
    });
    let mut out = BTreeMap::new();
    let module = |name: &str| canonical_module(lang, name).map(String::from);
    match lang {
        Lang::Python => {
            for c in PY_IMPORT.captures_iter(code) {
                for item in c[1].split(',') {
                    let mut w = item.split_whitespace();
                    if let (Some(m), Some("as"), Some(b)) = (w.next(), w.next(), w.next()) {
                        out.insert(b.to_string(), m.to_string());
                    }
                }
            }
            for c in PY_FROM.captures_iter(code) {
                let m = c[1].to_string();
                for item in c[2].split(',') {
                    let mut w = item.split_whitespace();
                    match (w.next(), w.next(), w.next()) {
                        (Some(n), Some("as"), Some(b)) => {
                            out.insert(b.to_string(), format!("{m}.{n}"));
                        }
                        (Some(n), None, None) if n != "*" => {
                            out.insert(n.to_string(), format!("{m}.{n}"));
                        }
                        _ => {}
                    }
                }
            }
        }
        Lang::Node => {
            for c in JS_REQUIRE.captures_iter(code) {
                let m = module(&c[2]).unwrap_or_else(|| c[2].to_string());
                let tail: String = c[3].chars().filter(|c| !c.is_whitespace()).collect();
                out.insert(c[1].to_string(), format!("{m}{tail}"));
            }
            for c in JS_DESTRUCTURE.captures_iter(code) {
                let from = c
                    .get(2)
                    .or_else(|| c.get(3))
                    .map(|m| module(m.as_str()).unwrap_or_else(|| m.as_str().to_string()))
                    .or_else(|| c.get(4).map(|m| m.as_str().to_string()))
                    .unwrap_or_default();
                for item in c[1].split(',') {
                    let item = item.split('=').next().unwrap_or("").trim();
                    let (n, b) = match item.split_once(':') {
                        Some((n, b)) => (n.trim(), b.trim()),
                        None => (item, item),
                    };
                    if !n.is_empty() && !b.is_empty() {
                        out.insert(b.to_string(), format!("{from}.{n}"));
                    }
                }
            }
            for c in JS_IMPORT.captures_iter(code) {
                let m = module(&c[4]).unwrap_or_else(|| c[4].to_string());
                if let Some(b) = c.get(1).or_else(|| c.get(2)) {
                    out.insert(b.as_str().to_string(), m.clone());
                }
                if let Some(list) = c.get(3) {
                    for item in list.as_str().split(',') {
                        let mut w = item.split_whitespace();
                        match (w.next(), w.next(), w.next()) {
                            (Some(n), Some("as"), Some(b)) => {
                                out.insert(b.to_string(), format!("{m}.{n}"));
                            }
                            (Some(n), None, None) => {
                                out.insert(n.to_string(), format!("{m}.{n}"));
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        Lang::Perl => {
            for c in PL_GLOB.captures_iter(code) {
                out.insert(c[1].to_string(), c[2].to_string());
            }
        }
        Lang::Ruby | Lang::Php => {}
    }
    // `w = shutil.rmtree`, `F = FileUtils`, `my $w = \&File::Path::rmtree`,
    // `const r = fs.rmSync.bind(fs)`: a name for a dotted name.
    for c in ASSIGN.captures_iter(code) {
        let (b, target) = (&c[1], &c[2]);
        let root = target.split(['.', ':']).next().unwrap_or(target);
        // Only names of something the scan knows matter; `x = y` of plain
        // variables is left alone.
        let known = module_named(lang, root)
            || out.contains_key(root)
            || target.contains('.')
            || target.contains("::");
        if known
            && b != target
            && !matches!(
                target,
                "True" | "False" | "None" | "null" | "true" | "false"
            )
        {
            out.entry(b.to_string())
                .or_insert_with(|| target.to_string());
        }
    }
    out
}

/// Copies the character at `i` to `out` when it is inside a string
/// literal or opens one (`'`, `"`, `` ` ``; a backslash takes the next
/// character along), tracking the open quote in `quote`; returns where to
/// go on, or `None` for a character outside any string.
fn copy_quoted(
    chars: &[char],
    i: usize,
    quote: &mut Option<char>,
    out: &mut String,
) -> Option<usize> {
    let c = chars[i];
    if let Some(q) = *quote {
        out.push(c);
        if c == '\\' && i + 1 < chars.len() {
            out.push(chars[i + 1]);
            return Some(i + 2);
        }
        if c == q {
            *quote = None;
        }
        return Some(i + 1);
    }
    if matches!(c, '\'' | '"' | '`') {
        *quote = Some(c);
        out.push(c);
        return Some(i + 1);
    }
    None
}

/// Every use of an alias outside string literals (`w(`, `s.rmtree`,
/// `$w->(`) replaced by what it stands for.
fn rewrite(lang: Lang, code: &str, aliases: &BTreeMap<String, String>) -> String {
    if aliases.is_empty() {
        return code.to_string();
    }
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(next) = copy_quoted(&chars, i, &mut quote, &mut out) {
            i = next;
            continue;
        }
        let word_char =
            |c: char| c.is_alphanumeric() || c == '_' || (lang == Lang::Node && c == '$');
        let starts_word = (word_char(c) || (c == '$' && lang == Lang::Perl))
            && !(i > 0 && (word_char(chars[i - 1]) || chars[i - 1] == '.' || chars[i - 1] == ':'));
        if starts_word {
            let mut j = i + 1;
            while j < chars.len() && word_char(chars[j]) {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let name = word.trim_start_matches('$');
            if let Some(target) = aliases.get(name) {
                // Perl's `$w->(…)` and `&$w(…)` call the referenced sub.
                let rest: String = chars[j..].iter().take(3).collect();
                if lang == Lang::Perl && rest.starts_with("->(") {
                    out.push_str(target);
                    out.push('(');
                    i = j + 3;
                    continue;
                }
                // A definition's left side stays (`s = shutil`): only the
                // uses matter, and rewriting both is harmless.
                out.push_str(target);
                i = j;
                continue;
            }
            out.push_str(&word);
            i = j;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Bare calls of a star-imported module's functions (`from os import *;
/// remove(…)`, `include FileUtils; rm_rf …`) qualified with the module.
fn star_imports(lang: Lang, code: &str) -> String {
    let bare = outside_quotes(code);
    let mut stars: Vec<&'static str> = Vec::new();
    for (l, canonical, names, _) in MODULES {
        if *l != lang {
            continue;
        }
        let imported = names
            .iter()
            .chain(std::iter::once(canonical))
            .any(|n| match lang {
                Lang::Python => bare.contains(&format!("from {n} import *")),
                Lang::Ruby => {
                    bare.contains(&format!("include {n}")) || bare.contains(&format!("extend {n}"))
                }
                // `use File::Path;` exports its functions by default.
                Lang::Perl => bare.contains(&format!("use {n}")),
                _ => false,
            });
        if imported {
            stars.push(canonical);
        }
    }
    if stars.is_empty() {
        return code.to_string();
    }
    let mut aliases = BTreeMap::new();
    for (l, canonical, _, functions) in MODULES {
        if *l == lang && stars.contains(canonical) {
            let sep = if lang == Lang::Perl { "::" } else { "." };
            for f in *functions {
                aliases.insert((*f).to_string(), format!("{canonical}{sep}{f}"));
            }
        }
    }
    rewrite(lang, code, &aliases)
}

/// Perl's and Ruby's parenthesis-less calls of [`PARENLESS`] given
/// parentheses up to the end of their statement.
fn parenthesize(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len() + 8);
    let mut quote: Option<char> = None;
    let mut open = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(next) = copy_quoted(&chars, i, &mut quote, &mut out) {
            i = next;
            continue;
        }
        if matches!(c, ';' | '\n' | '}') && open > 0 {
            for _ in 0..open {
                out.push(')');
            }
            open = 0;
        }
        let boundary = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if boundary && c.is_alphabetic() {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_alphanumeric() || matches!(chars[j], '_' | ':' | '.'))
            {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let last = word.rsplit(['.', ':']).next().unwrap_or(&word);
            let mut k = j;
            while k < chars.len() && chars[k] == ' ' {
                k += 1;
            }
            if PARENLESS.contains(&last)
                && k > j
                && k < chars.len()
                && !matches!(chars[k], '(' | '=' | ';' | '\n' | '{' | ',' | ')')
            {
                out.push_str(&word);
                out.push('(');
                open += 1;
                i = k;
                continue;
            }
            out.push_str(&word);
            i = j;
            continue;
        }
        out.push(c);
        i += 1;
    }
    for _ in 0..open {
        out.push(')');
    }
    out
}

/// `code` with the contents of its string literals blanked (same length
/// in bytes), so needles are found only in code.
pub(super) fn outside_quotes(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in code.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
                out.push(c);
                continue;
            }
            for _ in 0..c.len_utf8() {
                out.push(' ');
            }
            continue;
        }
        if matches!(c, '\'' | '"' | '`') {
            quote = Some(c);
        }
        out.push(c);
    }
    out
}

/// `needle(` calls whose single argument is one string literal: where,
/// and the literal.
fn calls_of_literal(code: &str, needle: &str) -> Vec<(usize, String)> {
    let bare = outside_quotes(code);
    let mut out = Vec::new();
    for (at, _) in bare.match_indices(needle) {
        if bare[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let args = super::call_arguments(&code[at + needle.len()..]);
        if let Some(lit) = args.first().and_then(|a| super::literal_of(a)) {
            out.push((at, lit));
        }
    }
    out
}

/// `code` with the `needle(` calls of one literal taken out (their code is
/// read on its own), so only computed ones count as dynamic.
fn remove_literal_calls(code: &str, needles: &[&str]) -> String {
    let mut code = code.to_string();
    for needle in needles {
        for (at, _) in calls_of_literal(&code, needle) {
            // Same length: the other offsets stay valid.
            code.replace_range(at..at + needle.len() - 1, &" ".repeat(needle.len() - 1));
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(lang: Lang, code: &str) -> Normalized {
        normalize(lang, code)
    }

    #[test]
    fn aliases_resolve_to_canonical_names() {
        // (language, code, the canonical call its normalized form holds)
        for (lang, code, canonical) in [
            (
                Lang::Python,
                "from shutil import rmtree as w; w('src')",
                "shutil.rmtree('src')",
            ),
            (
                Lang::Python,
                "import shutil as s; s.rmtree('src')",
                "shutil.rmtree('src')",
            ),
            (
                Lang::Python,
                "__import__('shutil').rmtree('src')",
                "shutil.rmtree('src')",
            ),
            (
                Lang::Python,
                "import os; getattr(os, 'sys' + 'tem')('rm -rf src')",
                "os.system('rm -rf src')",
            ),
            (
                Lang::Python,
                "from os import *; remove('a')",
                "os.remove('a')",
            ),
            (
                Lang::Node,
                "const {rmSync: r} = require('fs'); r('src')",
                "fs.rmSync('src')",
            ),
            (
                Lang::Node,
                "const f = require('node:fs'); f.rm('src')",
                "fs.rm('src')",
            ),
            (
                Lang::Ruby,
                "F = FileUtils; F.rm_rf 'src'",
                "FileUtils.rm_rf",
            ),
            (
                Lang::Ruby,
                "include FileUtils; rm_rf 'src'",
                "FileUtils.rm_rf",
            ),
            (Lang::Perl, "system q{rm -rf src}", "system(\"rm -rf src\")"),
            (
                Lang::Perl,
                "my $w = \\&File::Path::rmtree; $w->('src')",
                "File::Path::rmtree('src')",
            ),
        ] {
            let got = n(lang, code).code;
            assert!(got.contains(canonical), "{code} → {got}, not {canonical}");
        }
    }

    #[test]
    fn names_computed_at_run_time_are_reported() {
        assert!(
            n(Lang::Python, "import os; n = input(); getattr(os, n)('x')")
                .dynamic
                .is_some()
        );
        assert!(n(Lang::Python, "__import__(chr(115) + 'hutil')")
            .dynamic
            .is_some());
        assert!(n(
            Lang::Python,
            "import base64; exec(base64.b64decode('aW1wb3J0IG9z'))"
        )
        .dynamic
        .is_some());
        assert!(n(Lang::Node, "const m = 'f' + x; require(m).rmSync('src')")
            .dynamic
            .is_some());
        assert!(n(Lang::Node, "const fs = require('fs'); fs[k]('src')")
            .dynamic
            .is_some());
        assert!(n(Lang::Ruby, "FileUtils.send(name, 'src')")
            .dynamic
            .is_some());
        // Ordinary code is not.
        assert_eq!(
            n(Lang::Python, "import json; print(json.dumps({'a': 1}))").dynamic,
            None
        );
        assert_eq!(
            n(Lang::Python, "import re; print(re.compile('a').match('a'))").dynamic,
            None
        );
        assert_eq!(
            n(
                Lang::Node,
                "const d = JSON.parse('{}'); console.log(d['k'], d[k])"
            )
            .dynamic,
            None
        );
        assert_eq!(n(Lang::Python, "print(eval('1+2'))").dynamic, None);
        assert_eq!(n(Lang::Perl, "eval { 1 }; print 1").dynamic, None);
    }
}
