//! The stub scanner's data: statements that are stubs on their own, the
//! calls that only fail, log or return a trivial value, and the words that
//! are not function names. Tables a reviewer can read.

use crate::guard::lines::TextSet;
use std::sync::LazyLock;

/// A table of prefixes indexed by their first byte, so a line is compared
/// with the few that could match.
pub(super) struct Prefixes(Vec<Vec<&'static str>>);

impl Prefixes {
    pub(super) fn new(list: &[&'static str]) -> Prefixes {
        let mut by_first = vec![Vec::new(); 256];
        for p in list {
            if let Some(&b) = p.as_bytes().first() {
                by_first[usize::from(b)].push(*p);
            }
        }
        Prefixes(by_first)
    }

    pub(super) fn starts(&self, s: &str) -> bool {
        s.as_bytes()
            .first()
            .is_some_and(|&b| self.0[usize::from(b)].iter().any(|p| s.starts_with(p)))
    }
}

/// A table of words indexed by their first byte, so a word is compared
/// with the few that could be it (a function header is looked up in three
/// lists; comparing it with every entry cost more than the scan).
pub(super) struct Words(Vec<Vec<&'static str>>);

impl Words {
    pub(super) fn new(list: &[&'static str]) -> Words {
        let mut by_first = vec![Vec::new(); 256];
        for w in list {
            if let Some(&b) = w.as_bytes().first() {
                by_first[usize::from(b)].push(*w);
            }
        }
        Words(by_first)
    }

    pub(super) fn has(&self, w: &str) -> bool {
        w.as_bytes()
            .first()
            .is_some_and(|&b| self.0[usize::from(b)].contains(&w))
    }
}

pub(super) static CONTROL_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(CONTROL));
pub(super) static CONTAINER_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(CONTAINERS));
pub(super) static NOT_NAME_WORDS: LazyLock<Words> = LazyLock::new(|| Words::new(NOT_NAMES));
pub(super) static STUB_PREFIXES: LazyLock<Prefixes> =
    LazyLock::new(|| Prefixes::new(STUB_STATEMENTS));
pub(super) static FAILURE_PREFIXES: LazyLock<Prefixes> = LazyLock::new(|| Prefixes::new(FAILURES));
pub(super) static LOGGING_PREFIXES: LazyLock<Prefixes> = LazyLock::new(|| Prefixes::new(LOGGING));
pub(super) static TRIVIAL_SET: LazyLock<TextSet<&'static str>> =
    LazyLock::new(|| TRIVIAL.iter().copied().collect());

/// [`STUB_WORDS`] as one search: looking for each word in turn set up a
/// searcher per word and per comment, some thirty for every changed body.
static STUB_SEARCH: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
    let words: Vec<String> = STUB_WORDS.iter().map(|w| regex::escape(w)).collect();
    regex::Regex::new(&words.join("|")).ok()
});

/// Returns whether `text` holds one of [`STUB_WORDS`].
pub(super) fn has_stub_word(text: &str) -> bool {
    match &*STUB_SEARCH {
        Some(r) => r.is_match(text),
        None => STUB_WORDS.iter().any(|w| text.contains(w)),
    }
}

/// Bodies longer than this are implemented, whatever they hold.
pub(super) const MAX_BODY: usize = 16 * 1024;

/// Statements that are a stub on their own, matched as prefixes of a code
/// line with whitespace removed.
pub(super) const STUB_STATEMENTS: &[&str] = &[
    "todo!(",
    "unimplemented!(",
    "std::unimplemented!(",
    "core::unimplemented!(",
    "TODO()",
    "TODO(\"",
    "raiseNotImplementedError",
    "raiseNotImplemented",
    "throwNotImplementedError",
    "thrownewUnsupportedOperationException",
    "thrownewjava.lang.UnsupportedOperationException",
    "thrownewNotImplementedException",
    "thrownewSystem.NotImplementedException",
    "thrownewNotSupportedException",
    "thrownewNotImplementedError",
    "thrownewsys.NotImplementedException",
    "throwUnsupportedOperationException",
    "throwNotImplementedException",
    "fatalError(",
    "preconditionFailure(",
    "notImplemented(",
    "NotImplemented",
    "assert(false",
    "assert(0",
    "assertfalse",
    "abort()",
    "std::abort()",
    "???",
    "throwUnimplementedError",
    "thrownewUnimplementedError",
    "ThrowNewNotImplementedException",
    "ThrowNewNotSupportedException",
    // Erlang, Clojure, F#: the languages' own "not done" failures.
    "erlang:error(not_implemented",
    "erlang:error(notimplemented",
    "error(not_implemented",
    "exit(not_implemented",
    "erlang:nif_error(",
    "(throw(UnsupportedOperationException.",
    "(throw(java.lang.UnsupportedOperationException.",
    "raise(NotImplementedException",
    "notImplementedYet",
    // Elm, PureScript, Gleam, Lean/Coq, Elixir/Erlang tuples.
    "Debug.todo",
    "unsafeCrashWith",
    "todoas\"",
    "Admitted.",
    "{:error,:not_implemented}",
    "{error,not_implemented}",
    // Smalltalk, Agda, Idris, Isabelle.
    "selfnotYetImplemented",
    "^selfnotYetImplemented",
    "selfshouldBeImplemented",
    "^selfshouldBeImplemented",
    "{!!}",
];

/// Statements that fail on purpose; a stub when the line also says why in
/// stub words ("not implemented", "TODO"), otherwise real code.
pub(super) const FAILURES: &[&str] = &[
    "throw",
    "Throw",
    "die'",
    "die\"",
    "error\"",
    "error'",
    "croak",
    "stop(",
    "Err.Raise",
    "raise",
    "panic",
    "panic!",
    "die(",
    "fail(",
    "error(",
    "exit(",
    "abort(",
    "log.Fatal",
    "os.Exit",
    "process.exit",
    // Zig, F#/OCaml, Fortran, Solidity, Erlang, Lisp/Clojure, Nim.
    "@panic(",
    "failwith",
    "invalidOp",
    "invalidArg",
    "invalid_arg",
    "errorstop",
    "stop'",
    "stop\"",
    "revert(",
    "revert\"",
    "erlang:error(",
    "erlang:exit(",
    "(error",
    "(throw",
    "(signal",
    "(raise",
    // SQL, Objective-C, Ansible, Nim.
    "RAISEEXCEPTION",
    "RAISE_APPLICATION_ERROR(",
    "RAISERROR(",
    "SIGNALSQLSTATE",
    "@throw",
    "[NSExceptionraise:",
    "ansible.builtin.fail:",
    "fail:",
    "quit(",
    // Nushell, SystemVerilog, Emacs Lisp, Smalltalk, ABAP, Forth, Tcl,
    // Julia, D, Ada, Pascal.
    "errormake",
    "$fatal",
    "$error(",
    "(user-error",
    "(cl-assert",
    "selferror:",
    "^selferror:",
    "RAISEEXCEPTIONTYPE",
    "abort\"",
    "return-codeerror",
    "throw(ErrorException(",
    "throw(ArgumentError(",
    "throw(DomainError(",
    "assert(false,",
    "raiseProgram_Error",
    "raiseConstraint_Error",
    "raiseENotImplemented",
    "raiseENotSupported",
];

/// Words that mark a stub in a comment, a string or a log line of a body.
pub(super) const STUB_WORDS: &[&str] = &[
    "todo",
    "fixme",
    "xxx",
    "tbd",
    "not implemented",
    "unimplemented",
    "not yet implemented",
    "implement me",
    "implement this",
    "implement later",
    "to be implemented",
    "to implement",
    "needs implementation",
    "needs implementing",
    "stub",
    "placeholder",
    "your code here",
    "implementation here",
    "implementation goes here",
    "code goes here",
    "no-op for now",
    "noop for now",
    "not supported yet",
    "coming soon",
    "no implementado",
    "por implementar",
    "implementar",
    "sin implementar",
    "non implemente",
    "a implementer",
    "nicht implementiert",
    "noch nicht implementiert",
    "non implementato",
    "da implementare",
    "nao implementado",
    "a implementar",
    "未实现",
    "待实现",
    "未実装",
    "実装予定",
    "todo:",
];

/// Statements that do nothing worth keeping: trivial returns and values,
/// matched on the whole code line with whitespace removed and a trailing
/// `;` dropped.
pub(super) const TRIVIAL: &[&str] = &[
    "pass",
    // R, Julia, Haskell, shell, VB: a value or statement that does nothing.
    "NULL",
    "invisible(NULL)",
    "nothing",
    "undefined",
    "Nothing",
    "ReturnNothing",
    "...",
    "return",
    "returnnil",
    "returnnull",
    "returnNone",
    "return0",
    "return0.0",
    "returnfalse",
    "returnFalse",
    "returntrue",
    "returnTrue",
    "return\"\"",
    "return''",
    "return[]",
    "return{}",
    "return-1",
    "returnOk(())",
    "returnundefined",
    "returndefault",
    "returnDefault::default()",
    "returnself",
    "returnthis",
    "returnnullptr",
    "returnNULL",
    "returnstring.Empty",
    "returnString.Empty",
    "returnemptyList()",
    "returnnil,nil",
    "returnnil,err",
    "return0,nil",
    "return\"\",nil",
    "returnfalse,nil",
    "Ok(())",
    "None",
    "nil",
    "null",
    "0",
    "false",
    "true",
    "Default::default()",
    "{}",
    "[]",
    "()",
    "break",
    "continue",
    "returnvoid0",
    "returnOptional.empty()",
    "returnCollections.emptyList()",
    "returnList.of()",
    "returnMap.of()",
    "returnnewArrayList<>()",
    "returnVec::new()",
    "returnString::new()",
    "Vec::new()",
    "String::new()",
    "returnpd.DataFrame()",
    "returnPromise.resolve()",
    "returnawaitPromise.resolve()",
    "yield",
    "end",
    "nothing",
    "returnHashMap::new()",
    "returnOk(Vec::new())",
    "returnOk(None)",
    "returnOk(vec![])",
    "Ok(Vec::new())",
    "Ok(vec![])",
    "Ok(None)",
    "vec![]",
    "returnvec![]",
    "HashMap::new()",
    "Ok(Default::default())",
    "returnOk(Default::default())",
    "returnstd::ptr::null_mut()",
    "returnemptyMap()",
    "returnemptyArray()",
    "returnarrayOf()",
    "returnlistOf()",
    "returnmapOf()",
    "returnarray()",
    "returnnil,false",
    "returnfalse,err",
    "Unit",
    // Zig, Nim, COBOL, Prolog, Elixir/Erlang, Ansible: each language's
    // statement or value that does nothing.
    "unreachable",
    "discard",
    "CONTINUE",
    "CONTINUE.",
    "continue.",
    "fail",
    "fail.",
    "true.",
    ":ok",
    "ok",
    "ok.",
    "{:ok,nil}",
    "nil)",
    "nil))",
    "nil)))",
    // Racket/Scheme: the value of nothing.
    "(void)",
    "(void))",
    "(values)",
    "(values))",
    "ansible.builtin.meta:noop",
    "meta:noop",
    // Gleam, Lean/Coq, shell, Haskell, COBOL.
    "todo",
    "sorry",
    "admit",
    "admit.",
    "return1",
    "exit1",
    "return()",
    "pure()",
    "mempty",
    "EXIT.",
    "EXITPARAGRAPH.",
    "NEXTSENTENCE.",
    "GOBACK.",
];

/// Returns whether a squeezed line returns a new, empty value
/// (`return new ArrayList<>()`, `return Vec::new()`).
pub(super) fn empty_construction(squeezed: &str) -> bool {
    let Some(value) = squeezed.strip_prefix("return") else {
        return false;
    };
    let constructed = value.strip_prefix("new");
    let value = constructed.unwrap_or(value);
    value.len() > 2
        && value.ends_with("()")
        && value[..value.len() - 2]
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '<' | '>' | '.' | ','))
        && (constructed.is_some()
            || [
                "::new()",
                "::default()",
                ".empty()",
                "Empty()",
                "emptyList()",
                "emptyMap()",
            ]
            .iter()
            .any(|e| value.ends_with(e)))
}

/// Statements that only tell the compiler a name goes unused (Zig's and
/// Go's `_ = x;`, Lisp's `(declare (ignore x))`, C's `(void)x;`): they
/// keep a stub company, as a stub's parameters are unused. Prefixes of a
/// squeezed line, followed by nothing but names.
const IGNORES: &[&str] = &[
    "_=",
    "(declare(ignore",
    "(declare(ignorable",
    "(void)",
    "#pragmaunused(",
    "let_=",
];

/// Returns whether a squeezed code line only marks names unused
/// ([`IGNORES`]).
pub(super) fn ignores(squeezed: &str) -> bool {
    // Most lines begin with none of the prefixes' first bytes.
    if !matches!(squeezed.as_bytes().first(), Some(b'_' | b'(' | b'#' | b'l')) {
        return false;
    }
    IGNORES.iter().any(|p| {
        squeezed.strip_prefix(p).is_some_and(|rest| {
            let rest = rest.trim_end_matches([')', ';']);
            !rest.is_empty()
                && rest
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '&' | '*'))
        })
    })
}

/// Calls that only log or print; they keep a stub company without making it
/// an implementation. Prefixes of a code line with whitespace removed.
pub(super) const LOGGING: &[&str] = &[
    "console.",
    "print(",
    "println(",
    "printf(",
    "fprintf(",
    "puts(",
    "puts\"",
    "puts'",
    "print\"",
    "echo",
    "println!(",
    "eprintln!(",
    "print!(",
    "eprint!(",
    "dbg!(",
    "log.",
    "log::",
    "logger.",
    "logging.",
    "LOG.",
    "Log.",
    "LOGGER.",
    "self.log",
    "self.logger.",
    "this.log",
    "this.logger.",
    "_logger.",
    "_log.",
    "tracing::",
    "trace!(",
    "debug!(",
    "info!(",
    "warn!(",
    "error!(",
    "fmt.Print",
    "fmt.Fprint",
    "System.out.",
    "System.err.",
    "Console.Write",
    "Debug.Log",
    "Debug.Write",
    "Trace.Write",
    "NSLog(",
    "error_log(",
    "var_dump(",
    "Rails.logger.",
    "warn(",
    "warnings.warn(",
    "syslog(",
    "std::cout",
    "std::cerr",
    "cout<<",
    "cerr<<",
    "Timber.",
    "Logger.",
    // Ansible: a task that only prints.
    "ansible.builtin.debug:",
    "debug:",
    "msg:",
    // Fortran, make.
    "print*,",
    "write(*,*)",
    "@echo",
];

/// Words that begin a control block, not a function (`if (x) {`).
pub(super) const CONTROL: &[&str] = &[
    "if",
    "else",
    "for",
    "foreach",
    "while",
    "do",
    "switch",
    "match",
    "try",
    "catch",
    "finally",
    "with",
    "using",
    "lock",
    "unsafe",
    "loop",
    "select",
    "synchronized",
    "defer",
    "go",
    "return",
    "case",
    "default",
    "when",
    "guard",
    "repeat",
    "elif",
    "except",
    "checked",
    "unchecked",
    "fixed",
    "async",
    "await",
    "yield",
    "throw",
    "new",
    "static",
    "init",
    "get",
    "set",
    "where",
    "move",
    "const",
    "let",
    "var",
    "val",
];

/// Words that open a container of functions, not a function.
pub(super) const CONTAINERS: &[&str] = &[
    "class",
    "struct",
    "enum",
    "interface",
    "trait",
    "impl",
    "namespace",
    "module",
    "mod",
    "object",
    "record",
    "union",
    "extension",
    "protocol",
    "package",
    "extern",
    "actor",
    "companion",
    "@interface",
    "type",
];

/// Words that may stand right before a parameter list without being its
/// function's name.
pub(super) const NOT_NAMES: &[&str] = &[
    "fn",
    "func",
    "function",
    "fun",
    "def",
    "sub",
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "await",
    "sizeof",
    "typeof",
    "match",
    "when",
    "foreach",
    "using",
    "lock",
    "synchronized",
    "async",
    "operator",
];
