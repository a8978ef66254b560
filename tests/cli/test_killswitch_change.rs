//! The kill-switch over a change of several files, in every path that
//! writes several at once: a real `git commit` through the installed
//! pre-commit hook, and real hook payloads (a Codex patch of several
//! files, a Claude MultiEdit) through the binary. Code moved from one file
//! to another passes; code removed with a note in its place and no
//! equivalent anywhere else in the change is refused.

use std::time::Instant;

use serde_json::json;

use crate::common::TestRepo;
use crate::test_hook_agents::{assert_allowed, assert_vetoed, hook, payload, with_path};

/// A module of a few functions, `parse` among them (eight code lines).
const A_PY: &str = "import re\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef parse(text):\n    fields = {}\n    for line in text.splitlines():\n        if not line.strip() or line.startswith(\"#\"):\n            continue\n        key, _, value = line.partition(\"=\")\n        fields[key.strip()] = value.strip()\n    return fields\n\n\ndef save(path, fields):\n    with open(path, \"w\") as f:\n        for key, value in sorted(fields.items()):\n            f.write(f\"{key} = {value}\\n\")\n";

/// `parse`, as it stands in [`A_PY`].
const PARSE: &str = "def parse(text):\n    fields = {}\n    for line in text.splitlines():\n        if not line.strip() or line.startswith(\"#\"):\n            continue\n        key, _, value = line.partition(\"=\")\n        fields[key.strip()] = value.strip()\n    return fields\n";

/// Another module, which the moved function joins.
const B_PY: &str =
    "def render(fields):\n    return \"\\n\".join(f\"{k} = {v}\" for k, v in fields.items())\n";

/// `a.py` with `parse` replaced by a note saying where it went.
fn a_without_parse() -> String {
    A_PY.replace(PARSE, "# parse() now lives in b.py\n")
}

fn repo() -> TestRepo {
    let r = TestRepo::with_commit();
    let out = r.run(&["hooks", "install"]);
    assert_eq!(out.code, 0, "{out}");
    r.write("a.py", A_PY);
    r.write("b.py", B_PY);
    r.write("c.py", B_PY);
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "--no-verify", "-m", "modules"]);
    r
}

/// Commits what is staged through the hooks; returns whether a commit was
/// made, and git's output.
fn commit(r: &TestRepo, msg: &str) -> (bool, crate::common::Out) {
    let head = r.git(&["rev-parse", "HEAD"]);
    let out = r.git_out(&["commit", "-q", "-m", msg]);
    (r.git(&["rev-parse", "HEAD"]) != head, out)
}

/// Stages `a.py` without `parse` and `b.py` as given.
fn stage_move(r: &TestRepo, b: &str) {
    r.write("a.py", &a_without_parse());
    r.write("b.py", b);
    r.git(&["add", "a.py", "b.py"]);
}

#[test]
fn test_killswitch_pre_commit_passes_a_function_moved_to_another_file() {
    let r = repo();
    // Moved into an existing file.
    stage_move(&r, &format!("{B_PY}\n\n{PARSE}"));
    let (made, out) = commit(&r, "move parse to b.py");
    assert!(made, "a move must pass: {out}");
    assert!(r.git(&["show", "HEAD:b.py"]).contains("def parse(text):"));
    assert!(!r.git(&["show", "HEAD:a.py"]).contains("def parse(text):"));
    // Moved back out, into a new file, re-indented into a class: passes.
    r.git(&["reset", "-q", "--hard", "HEAD~1"]);
    r.write("a.py", &a_without_parse());
    let indented: String = PARSE.lines().map(|l| format!("    {l}\n")).collect();
    r.write(
        "parsing.py",
        &format!("class Parser:\n    @staticmethod\n{indented}"),
    );
    r.git(&["add", "a.py", "parsing.py"]);
    let (made, out) = commit(&r, "parse in a class of its own");
    assert!(made, "a move into a new file must pass: {out}");
    assert_eq!(r.log()[0], "parse in a class of its own");
}

#[test]
fn test_killswitch_pre_commit_refuses_a_function_replaced_by_a_note_and_found_nowhere() {
    let r = repo();
    let head = r.git(&["rev-parse", "HEAD"]);
    // Nowhere else in the commit.
    r.write("a.py", &a_without_parse());
    r.git(&["add", "a.py"]);
    let (made, out) = commit(&r, "lose parse");
    assert!(!made, "{out}");
    assert!(out.stderr.contains("a.py"), "{out}");
    assert!(out.stderr.contains("parse() now lives in b.py"), "{out}");
    // Another file changed in the same commit, without the function.
    stage_move(&r, &format!("{B_PY}\n\ndef extra():\n    return 1\n"));
    let (made, out) = commit(&r, "lose parse beside an edit");
    assert!(!made, "{out}");
    // Only partly moved: the header and two of its seven body lines.
    stage_move(
        &r,
        &format!("{B_PY}\n\ndef parse(text):\n    fields = {{}}\n    return fields\n"),
    );
    let (made, out) = commit(&r, "half a move");
    assert!(!made, "a partial move loses code: {out}");
    // Moved as a stub.
    stage_move(&r, &format!("{B_PY}\n\ndef parse(text):\n    pass\n"));
    let (made, out) = commit(&r, "stub move");
    assert!(!made, "{out}");
    // Pasted into the README: documentation keeps no code.
    r.git(&["reset", "-q", "--hard"]);
    r.write("a.py", &a_without_parse());
    r.write("README.md", &format!("# demo\n\n```python\n{PARSE}```\n"));
    r.git(&["add", "a.py", "README.md"]);
    let (made, out) = commit(&r, "move into the docs");
    assert!(!made, "{out}");
    // Moved into a file the same commit deletes: it is in no file.
    r.git(&["reset", "-q", "--hard"]);
    r.write("a.py", &a_without_parse());
    r.git(&["add", "a.py"]);
    r.git(&["rm", "-q", "b.py"]);
    let (made, out) = commit(&r, "move into a deleted file");
    assert!(!made, "{out}");
    r.git(&["reset", "-q", "--hard"]);
    // Copied with look-alike letters (every `e` a Cyrillic `е`): not the
    // same code, so not a move.
    let lookalike = PARSE.replace('e', "\u{435}");
    assert!(PARSE.lines().all(|l| l.contains('e')));
    stage_move(&r, &format!("{B_PY}\n\n{lookalike}"));
    let (made, out) = commit(&r, "look-alike move");
    assert!(!made, "{out}");
    // Invisible characters in every line: no more the same code.
    let invisible: String = PARSE.lines().map(|l| format!("{}\u{200b}\n", l)).collect();
    stage_move(&r, &format!("{B_PY}\n\n{invisible}"));
    let (made, out) = commit(&r, "invisible move");
    assert!(!made, "{out}");
    assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "no commit was made");
}

#[test]
fn test_killswitch_pre_commit_of_a_thousand_files_stays_fast() {
    let r = repo();
    // 1,000 files of 40 lines each, committed without the hook.
    let body = |i: usize, tag: &str| -> String {
        (0..40)
            .map(|n| format!("value_{i}_{n} = compute({i}, {n}, \"{tag}\")\n"))
            .collect()
    };
    for i in 0..1000 {
        r.write(&format!("pkg/m{i:04}.py"), &body(i, "v1"));
    }
    r.git(&["add", "pkg"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "a thousand modules"]);
    // Every file edited, and a function moved from a.py to b.py.
    for i in 0..1000 {
        let text = body(i, "v1").replacen("\"v1\"", "\"v2\"", 1);
        r.write(&format!("pkg/m{i:04}.py"), &text);
    }
    stage_move(&r, &format!("{B_PY}\n\n{PARSE}"));
    r.git(&["add", "-A"]);
    let start = Instant::now();
    let (made, out) = commit(&r, "a thousand edits and a move");
    let hooked = start.elapsed();
    assert!(made, "{out}");
    // The same kind of commit without the hook, as the yardstick.
    for i in 0..1000 {
        let text = body(i, "v1").replacen("\"v1\"", "\"v3\"", 1);
        r.write(&format!("pkg/m{i:04}.py"), &text);
    }
    r.git(&["add", "-A"]);
    let start = Instant::now();
    r.git(&[
        "commit",
        "-q",
        "--no-verify",
        "-m",
        "a thousand edits, no hook",
    ]);
    let bare = start.elapsed();
    println!("commit of 1,000 files: {hooked:?} through the hook, {bare:?} without");
    // Judging is linear in the change: a few seconds at most even for a
    // debug build on a busy machine (quadratic would be minutes).
    assert!(
        hooked.as_secs_f64() < 30.0 + 20.0 * bare.as_secs_f64(),
        "{hooked:?} vs {bare:?}"
    );
    // One of the thousand gutted among the other edits: refused, named.
    for i in 0..1000 {
        let text = body(i, "v3").replacen("\"v3\"", "\"v4\"", 1);
        r.write(&format!("pkg/m{i:04}.py"), &text);
    }
    r.write(
        "pkg/m0500.py",
        "value_500_0 = 1\n# ... the rest is unchanged\n",
    );
    r.git(&["add", "-A"]);
    let (made, out) = commit(&r, "gut one of a thousand");
    assert!(!made, "{out}");
    assert!(out.stderr.contains("pkg/m0500.py"), "{out}");
}

/// A Codex `apply_patch` payload carrying `body`.
fn codex_patch(r: &TestRepo, body: &str) -> serde_json::Value {
    let mut v = payload(r, "codex", "apply_patch");
    v["tool_input"]["command"] = json!(format!("*** Begin Patch\n{body}*** End Patch\n"));
    v
}

/// `text` as the lines of a patch hunk, each behind `sign`.
fn signed(text: &str, sign: char) -> String {
    text.lines().map(|l| format!("{sign}{l}\n")).collect()
}

/// The hunk of `a.py` replacing `parse` with a note.
fn remove_parse_hunk() -> String {
    format!(
        "*** Update File: a.py\n@@\n{}+# parse() now lives in b.py\n",
        signed(PARSE, '-')
    )
}

#[test]
fn test_killswitch_hook_patch_of_several_files_passes_a_move_only() {
    let r = repo();
    // Moved into b.py by the same patch.
    let moved = format!(
        "{}*** Update File: b.py\n@@\n{}+\n+\n{}",
        remove_parse_hunk(),
        signed(B_PY.lines().last().unwrap_or_default(), ' '),
        signed(PARSE, '+')
    );
    assert_allowed("codex", &hook(&r, "codex", &codex_patch(&r, &moved)));
    // Into a new file of the patch.
    let added = format!(
        "{}*** Add File: parsing.py\n{}",
        remove_parse_hunk(),
        signed(PARSE, '+')
    );
    assert_allowed("codex", &hook(&r, "codex", &codex_patch(&r, &added)));
    // Alone: vetoed.
    let out = hook(&r, "codex", &codex_patch(&r, &remove_parse_hunk()));
    assert_vetoed("codex", &out, &["kill-switch", "a.py"]);
    // Added by the patch, then deleted by it: the function is nowhere.
    let gone = format!("{added}*** Delete File: parsing.py\n");
    let out = hook(&r, "codex", &codex_patch(&r, &gone));
    assert_vetoed("codex", &out, &["a.py"]);
    // Moved into a file the patch then moves away under another name: it
    // is still in the repository, so it passes.
    let moved_away = format!(
        "{}*** Update File: c.py\n*** Move to: d.py\n@@\n{}{}",
        remove_parse_hunk(),
        signed(B_PY.lines().last().unwrap_or_default(), ' '),
        signed(PARSE, '+')
    );
    assert_allowed("codex", &hook(&r, "codex", &codex_patch(&r, &moved_away)));
    // Moved out of the repository, into the temp dir: not kept.
    let scratch = tempfile::tempdir().expect("tempdir");
    let outside = scratch.path().join("parse.py");
    let away = format!(
        "{}*** Add File: {}\n{}",
        remove_parse_hunk(),
        outside.display(),
        signed(PARSE, '+')
    );
    let out = hook(&r, "codex", &codex_patch(&r, &away));
    assert_vetoed("codex", &out, &["a.py"]);
    // Moved with a variable renamed on three of its eight lines: most of
    // it is found in the other file, so it was moved (deleting it outright
    // would pass as well).
    let renamed = format!(
        "{}*** Add File: parsing.py\n{}",
        remove_parse_hunk(),
        signed(&PARSE.replace("fields", "result"), '+')
    );
    assert_allowed("codex", &hook(&r, "codex", &codex_patch(&r, &renamed)));
    // Moved as a stub, or with look-alike letters on every line: vetoed.
    for copy in [
        "def parse(text):\n    raise NotImplementedError\n".to_string(),
        PARSE.replace('e', "\u{435}"),
    ] {
        let body = format!(
            "{}*** Add File: parsing.py\n{}",
            remove_parse_hunk(),
            signed(&copy, '+')
        );
        let out = hook(&r, "codex", &codex_patch(&r, &body));
        assert_vetoed("codex", &out, &["a.py"]);
    }
    // The hook judges; it never writes the files.
    assert!(!outside.exists());
    assert_eq!((r.read("a.py"), r.read("b.py")), (A_PY.into(), B_PY.into()));
    assert!(!r.path().join("parsing.py").exists() && !r.path().join("d.py").exists());
}

#[test]
fn test_killswitch_hook_multiedit_moving_a_function_within_the_file() {
    let r = repo();
    let mut v = payload(&r, "claude", "multiedit");
    with_path(&r, "claude", "multiedit", &mut v, "a.py");
    let tail = "            f.write(f\"{key} = {value}\\n\")\n";
    // `parse` taken out (a note in its place) and put back at the end.
    let moved = json!([
        {"old_string": PARSE, "new_string": "# parse() is at the end of the file\n", "replace_all": false},
        {"old_string": tail, "new_string": format!("{tail}\n\n{PARSE}"), "replace_all": false},
    ]);
    v["tool_input"]["edits"] = moved;
    assert_allowed("claude", &hook(&r, "claude", &v));
    // Put back as a stub: vetoed.
    let stubbed = json!([
        {"old_string": PARSE, "new_string": "# parse() is at the end of the file\n", "replace_all": false},
        {"old_string": tail, "new_string": format!("{tail}\n\ndef parse(text):\n    ...\n"), "replace_all": false},
    ]);
    v["tool_input"]["edits"] = stubbed;
    assert_vetoed("claude", &hook(&r, "claude", &v), &["kill-switch", "a.py"]);
    assert_eq!(r.read("a.py"), A_PY, "the hook never writes");
}

/// An extraction done in two edits, the call first: the first edit is
/// refused with a message that says how to mend it (write the function
/// first, or in the same edit) and does not send the model to the user;
/// once the function is written, the same edit passes, and the file ends
/// with its logic kept.
#[test]
fn test_killswitch_hook_extraction_call_first_says_write_the_function_first() {
    let r = TestRepo::with_commit();
    let cart = "class Cart:\n    def __init__(self, items):\n        self.items = items\n\n    def total(self):\n        subtotal = 0\n        for item in self.items:\n            subtotal += item.price * item.qty\n        tax = subtotal * 0.2\n        return subtotal + tax\n\n    def count(self):\n        return len(self.items)\n";
    let body = "        subtotal = 0\n        for item in self.items:\n            subtotal += item.price * item.qty\n        tax = subtotal * 0.2\n        return subtotal + tax\n";
    r.write("cart.py", cart);
    r.git(&["add", "cart.py"]);
    r.git(&["commit", "-q", "-m", "cart"]);
    let edit = |old: &str, new: &str| {
        let mut v = payload(&r, "claude", "edit");
        with_path(&r, "claude", "edit", &mut v, "cart.py");
        v["tool_input"]["old_string"] = json!(old);
        v["tool_input"]["new_string"] = json!(new);
        hook(&r, "claude", &v)
    };
    let call = "        return self._total_with_tax()\n";
    let msg = assert_vetoed("claude", &edit(body, call), &["_total_with_tax", "first"]);
    assert!(!msg.contains("ask the user"), "{msg}");
    assert_eq!(r.read("cart.py"), cart);
    // The function written first (the agent's edit applied), then the call.
    let helper = format!("    def _total_with_tax(self):\n{body}\n    def count(self):\n");
    let out = edit("    def count(self):\n", &helper);
    assert_allowed("claude", &out);
    let with_helper = cart.replace("    def count(self):\n", &helper);
    r.write("cart.py", &with_helper);
    assert_allowed("claude", &edit(body, call));
    // The way around it: a helper that does nothing written first (or in
    // the same write), then the body handed to it. Refused both ways, and
    // the file keeps its logic.
    let stub_helper = "    def _total_with_tax(self):\n        pass\n\n    def count(self):\n";
    r.write("cart.py", cart);
    assert_allowed("claude", &edit("    def count(self):\n", stub_helper));
    let with_stub = cart.replace("    def count(self):\n", stub_helper);
    r.write("cart.py", &with_stub);
    let msg = assert_vetoed("claude", &edit(body, call), &["stub"]);
    assert!(msg.contains("ask the user"), "{msg}");
    assert!(r.read("cart.py").contains("tax = subtotal * 0.2"));
    r.write("cart.py", cart);
    let mut v = payload(&r, "claude", "write");
    with_path(&r, "claude", "write", &mut v, "cart.py");
    v["tool_input"]["content"] = json!(with_stub.replace(body, call));
    assert_vetoed("claude", &hook(&r, "claude", &v), &["stub"]);
    assert_eq!(r.read("cart.py"), cart);
    // A body replaced by a comment is refused as before, closing with the
    // user.
    r.write("cart.py", cart);
    let msg = assert_vetoed(
        "claude",
        &edit(body, "        # same as before\n"),
        &["ask the user"],
    );
    assert!(msg.contains("comment"), "{msg}");
}
