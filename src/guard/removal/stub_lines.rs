//! A stub line standing where a run of code lines was removed, in any
//! language, with or without block syntax the stub scanner knows: the
//! new side of a hunk holds, besides comments and the removed
//! definition's own header (its parameters renamed, `_`-prefixed), only
//! stubs — a failure that says "not done" (`error "TODO"`,
//! `erlang:error(not_implemented)`), a stub statement, a do-nothing value
//! or statement (`undefined`, `discard`, `{noreply, S}` is not one), a
//! placeholder — or a one-line definition of the same name whose right
//! side is one (`f _ _ = error "TODO"`, `def f(_), do: raise("TODO")`,
//! `p(_, _) :- fail.`).

use super::*;

/// What separates a definition's head from its body on one line:
/// Haskell/ML/Nim `=`, Erlang/Elixir `->`, Prolog `:-`, Elixir `, do:`,
/// C#/Scala/Dart `=>`.
const DEFINES: &[&str] = &[" :- ", ", do:", " -> ", " = ", " => "];

/// Words that begin a definition without being its name.
const DEFINERS: &[&str] = &[
    "def",
    "defp",
    "defn",
    "defn-",
    "defun",
    "defmacro",
    "let",
    "rec",
    "fun",
    "fn",
    "function",
    "func",
    "proc",
    "method",
    "sub",
    "pub",
    "private",
    "public",
    "protected",
    "static",
    "async",
    "inline",
    "override",
    "member",
    "val",
    "var",
    "const",
    "procedure",
    "subroutine",
];

/// Words that begin a control statement: a line beginning with one names
/// nothing (`if b:` is not the header of a removed `if a:`).
const CONTROL: &[&str] = &[
    "if", "else", "elif", "elsif", "unless", "for", "foreach", "while", "loop", "do", "case",
    "when", "match", "switch", "try", "catch", "except", "cond", "return", "with", "begin",
];

/// Returns the name a line defines or calls first: its first identifier
/// that is not a definer ([`DEFINERS`]), not a parameter ignored with `_`;
/// none for a control statement ([`CONTROL`]).
fn defined(t: &str) -> Option<&str> {
    let name = t
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '?' | '!' | '\'')))
        .filter(|w| !w.is_empty() && !w.starts_with('_') && !w.starts_with('-'))
        .find(|w| !DEFINERS.contains(w))?;
    (!CONTROL.contains(&name)).then_some(name)
}

/// Returns the head and body of a one-line definition (`f x = body`),
/// split at its first separator ([`DEFINES`]).
fn split_definition(t: &str) -> Option<(&str, &str)> {
    DEFINES
        .iter()
        .filter_map(|s| t.find(s).map(|p| (p, s.len())))
        .min()
        .map(|(p, n)| (&t[..p], &t[p + n..]))
}

/// Returns whether a string or a parenthesised aside of the code line
/// `t` is a placeholder (`@doc "unchanged"`, `- name: Enable the site
/// (unchanged)`): a label kept over code left out.
pub(super) fn labels_a_placeholder(t: &str) -> bool {
    let mut parts = Vec::new();
    for (open, close) in [('"', '"'), ('\'', '\''), ('(', ')')] {
        let mut rest = t;
        while let Some(o) = rest.find(open) {
            let after = &rest[o + open.len_utf8()..];
            let Some(c) = after.find(close) else { break };
            parts.push(&after[..c]);
            rest = &after[c + close.len_utf8()..];
        }
    }
    parts.iter().any(|p| {
        p.chars().any(char::is_alphabetic)
            && super::super::elision::is_placeholder(&format!("// {p}"))
    })
}

/// Returns whether `t` (code) does nothing worth keeping and says so or
/// is trivial.
fn is_stub(t: &str, lang: &Lang) -> bool {
    let body = stubs::classify(t, lang);
    body.real == 0 && (body.trivial > 0 || body.marked)
}

/// Returns the new line that stands for the removed code when the new
/// lines `put` (of side `b`) are only stubs, comments and the removed
/// definition's header (see the module's documentation); `removed` are
/// the old lines (of side `a`). At least one of them must be a stub.
pub(super) fn stub_stands_in<'p>(
    a: &Side,
    b: &Side,
    removed: &[Line],
    put: &'p [Line],
    lang: &Lang,
) -> Option<&'p Line> {
    if lang.prose {
        return None;
    }
    // The names the removed lines define or begin with.
    let names: Vec<&str> = removed
        .iter()
        .filter(|l| l.class() == Class::Code && l.word())
        .filter_map(|l| {
            let t = l.text(a.text);
            defined(split_definition(t).map_or(t, |(head, _)| head))
        })
        .collect();
    let ours = |head: &str| defined(head).is_some_and(|n| names.contains(&n));
    let mut stub = None;
    for l in put {
        let t = l.text(b.text);
        match l.class() {
            Class::Blank => {}
            Class::Comment => {
                if stub.is_none() && stubs::classify(t, lang).marked {
                    stub = Some(l);
                }
            }
            Class::Code => {
                let code = &t[..t.len() - trailing_note(t, lang).map_or(0, str::len)];
                let opener = code
                    .trim_end()
                    .trim_end_matches(['{', ':', '=', '('])
                    .trim_end_matches("->")
                    .trim_end_matches(" do")
                    .trim_end();
                if !l.word() || (opener.len() < code.trim_end().len() && ours(opener)) {
                    // Punctuation, or the removed definition's header.
                    continue;
                }
                let stubbed = is_stub(t, lang)
                    || stubs::only_fails(code)
                    || super::super::elision::is_placeholder_in(t, lang)
                    || labels_a_placeholder(code)
                    || split_definition(code).is_some_and(|(head, body)| {
                        ours(head) && (is_stub(body, lang) || stubs::only_fails(body))
                    });
                if !stubbed {
                    return None;
                }
                stub.get_or_insert(l);
            }
        }
    }
    stub
}

#[cfg(test)]
mod tests {
    use crate::guard::{check_file, Thresholds};

    fn blocked(path: &str, old: &str, new: &str) -> Vec<String> {
        let r = check_file(
            path,
            Some(old.as_bytes()),
            new.as_bytes(),
            &Thresholds::default(),
        );
        r.reasons.iter().map(|x| x.to_string()).collect()
    }

    /// A module of several definitions whose second one's body is `body`.
    fn module(head: &str, body: &str, tail: &str) -> String {
        let mut s = String::from("-- prelude\nimport Data.List\n\nfirst xs = sum xs\n\n");
        s.push_str(head);
        s.push_str(body);
        s.push_str("\n\n");
        s.push_str(tail);
        s
    }

    #[test]
    fn a_stub_line_of_the_same_definition_stands_for_its_body() {
        let tail = "third ys = map (* 2) ys\nfourth = 4\nfifth = 5\n";
        let body = "\n  where\n    ordered = sortOn fst xs\n    total = foldl' (+) 0 ordered\n    scaled = map (* total) ordered";
        let old = module("second xs = scaled", body, tail);
        // Haskell: a one-line definition of the same name, `error "TODO"`
        // or `undefined`, where the body and its where clause were.
        for stub in ["second _ = error \"TODO: port\"", "second = undefined"] {
            let new = module(stub, "", tail);
            let why = blocked("Sched.hs", &old, &new);
            assert!(
                why.iter().any(|w| w.contains("stub on line 6")),
                "{stub}: {why:?}"
            );
        }
        // A one-line definition that does real work is a refactor.
        let new = module("second xs = map (* sum xs) (sortOn fst xs)", "", tail);
        assert_eq!(blocked("Sched.hs", &old, &new), Vec::<String>::new());
    }

    #[test]
    fn a_kept_header_with_a_todo_or_a_failure_idiom_is_a_stub() {
        let old = "-module(m).\n\ninit(A) ->\n    {ok, A}.\n\nhandle_info(sweep, S = #state{w = W}) ->\n    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\nhandle_info(_Other, S) ->\n    {noreply, S}.\n\nstop(S) ->\n    {stop, normal, S}.\n";
        // The clause gone, the catch-all's header renamed, a TODO left.
        let new = old.replace(
            "handle_info(sweep, S = #state{w = W}) ->\n    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\nhandle_info(_Other, S) ->\n",
            "handle_info(_Msg, S) ->\n    %% TODO sweep\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        // The body replaced by the language's own "not done" failure.
        let new = old.replace(
            "    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\n",
            "    erlang:error(not_implemented);\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.iter().any(|w| w.contains("stub")), "{why:?}");
        // A failure alone where the whole body was, whatever its message
        // says ("pending", "later", or words that sound like a guard): the
        // body's logic is gone; a message is no sign of work kept.
        for message in ["the window must be positive", "pending", "later"] {
            let new = old.replace(
                "    Now = erlang:monotonic_time(millisecond),\n    Live = maps:filter(fun(_, T) -> Now - T < W end, S),\n    erlang:send_after(W, self(), sweep),\n    {noreply, Live};\n",
                &format!("    erlang:error(\"{message}\");\n"),
            );
            let why = blocked("rl.erl", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{message}: {why:?}");
        }
        // A guard added before the body's logic, which stays, is code.
        let new = old.replace(
            "    Now = erlang:monotonic_time(millisecond),\n",
            "    W > 0 orelse erlang:error(\"the window must be positive\"),\n    Now = erlang:monotonic_time(millisecond),\n",
        );
        let why = blocked("rl.erl", old, &new);
        assert!(why.is_empty(), "{why:?}");
    }

    #[test]
    fn each_languages_not_done_idiom_is_a_stub() {
        use crate::guard::lang::from_path;
        for (file, line) in [
            ("a.zig", "@panic(\"TODO\");"),
            ("a.zig", "unreachable; // TODO"),
            ("a.fs", "failwith \"not implemented\""),
            ("a.f90", "error stop 'not implemented'"),
            ("a.sol", "revert(\"TODO\");"),
            ("a.erl", "erlang:error(not_implemented)."),
            ("a.lisp", "(error \"not implemented\"))"),
            (
                "a.clj",
                "(throw (UnsupportedOperationException. \"TODO\")))",
            ),
            ("a.nim", "discard # TODO"),
            ("a.hs", "undefined"),
            ("a.elm", "Debug.todo \"view\""),
            ("a.cob", "CONTINUE."),
            ("a.cob", "EXIT PARAGRAPH."),
            ("a.sql", "RAISE EXCEPTION 'not implemented';"),
            ("a.yml", "ansible.builtin.meta: noop"),
            (
                "a.m",
                "@throw [NSException exceptionWithName:@\"TODO\" reason:nil userInfo:nil];",
            ),
            ("a.zig", "_ = self;\n@panic(\"TODO\");"),
            ("a.lisp", "(declare (ignore config))\n(error \"TODO\")"),
        ] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(super::is_stub(line, lang), "{file}: {line}");
        }
        // Real work, and failures that say why in their own words.
        for (file, line) in [
            ("a.zig", "_ = try self.flush();"),
            ("a.fs", "failwith \"the price is negative\""),
            ("a.sql", "RAISE EXCEPTION 'account % is closed', id;"),
            ("a.hs", "fromIntegral busy / fromIntegral horizon"),
            ("a.py", "admit_patient(record)"),
            ("a.py", "RAISE_LIMIT = 5"),
        ] {
            let lang = from_path(file).unwrap_or(&crate::guard::lang::GENERIC);
            assert!(!super::is_stub(line, lang), "{file}: {line}");
        }
    }

    #[test]
    fn failure_idioms_and_unused_names_are_stubs() {
        let old = "const std = @import(\"std\");\n\nfn a() void {}\n\npub fn push(self: *Ring, byte: u8) !void {\n    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n}\n\nfn b() void {}\n";
        let body = "    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n";
        for stub in [
            "    _ = self;\n    _ = byte;\n    @panic(\"TODO\");\n",
            "    _ = self;\n    unreachable; // TODO\n",
        ] {
            let new = old.replace(body, stub);
            let why = blocked("ring.zig", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{stub}: {why:?}");
        }
        // One line doing the real work is a rewrite.
        let new = old.replace(body, "    try self.pushChecked(byte);\n");
        let why = blocked("ring.zig", old, &new);
        assert!(!why.iter().any(|w| w.contains("stub")), "{why:?}");
    }

    #[test]
    fn a_failure_with_any_message_standing_for_a_body_is_a_stub() {
        // A one-line definition of the same name that only fails.
        let old = "module Sched where\n\nschedule :: Int -> [Int] -> [Int]\nschedule n xs =\n  let sorted = reverse (foldr insert [] xs)\n      kept = take n sorted\n  in map (* 2) kept\n\nother :: Int\nother = 1\n";
        for message in ["TODO", "pending", "later"] {
            let new = old.replace(
                "schedule n xs =\n  let sorted = reverse (foldr insert [] xs)\n      kept = take n sorted\n  in map (* 2) kept\n",
                &format!("schedule _ _ = error \"{message}\"\n"),
            );
            let why = blocked("Sched.hs", old, &new);
            assert!(why.iter().any(|w| w.contains("stub")), "{message}: {why:?}");
        }
        // A body left as one failure under its kept header, in braces.
        let old = "const std = @import(\"std\");\n\nfn a() void {}\n\npub fn push(self: *Ring, byte: u8) !void {\n    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n}\n\nfn b() void {}\n";
        let new = old.replace(
            "    if (self.len == self.buf.len) return error.Full;\n    const tail = (self.head + self.len) % self.buf.len;\n    self.buf[tail] = byte;\n    self.len += 1;\n",
            "    @panic(\"later\");\n",
        );
        assert!(!blocked("ring.zig", old, &new).is_empty());
    }
}
