//! Codex's `apply_patch` envelope, read and applied the way
//! `codex-rs/apply-patch` does: `*** Begin Patch`, then `*** Add File: P`
//! (`+` lines), `*** Delete File: P`, `*** Update File: P` with an optional
//! `*** Move to: Q` and `@@` hunks, then `*** End Patch`. Hunk lines are
//! sought from where the previous hunk ended, exactly, then ignoring
//! trailing blanks, then ignoring surrounding blanks. A hunk that cannot be
//! placed makes Codex refuse the whole patch.

use super::edit::Rebuilt;

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchOp {
    /// Create (or overwrite) `path` with `content`.
    Add {
        /// The file, as written in the patch.
        path: String,
        /// Its content.
        content: String,
    },
    /// Delete `path`.
    Delete {
        /// The file.
        path: String,
    },
    /// Change `path` by `hunks`, then possibly rename it to `move_to`.
    Update {
        /// The file.
        path: String,
        /// The new name.
        move_to: Option<String>,
        /// The hunks, in order.
        hunks: Vec<Hunk>,
    },
}

/// One `@@` hunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// The line after `@@ `, sought first.
    pub context: Option<String>,
    /// Context and removed lines.
    pub old: Vec<String>,
    /// Context and added lines.
    pub new: Vec<String>,
    /// `*** End of File`: the old lines end the file.
    pub eof: bool,
}

/// Why a patch could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPatch(pub String);

/// Returns the envelope inside `text` (a bare patch, or a shell line such as
/// `apply_patch <<'EOF' … EOF` carrying one), if any.
pub fn envelope(text: &str) -> Option<&str> {
    let start = text.find("*** Begin Patch")?;
    let rest = &text[start..];
    let end = rest.find("*** End Patch")? + "*** End Patch".len();
    Some(&rest[..end])
}

/// Parses a patch envelope.
pub fn parse(text: &str) -> Result<Vec<PatchOp>, BadPatch> {
    let body =
        envelope(text).ok_or_else(|| BadPatch("no `*** Begin Patch … *** End Patch`".into()))?;
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut ops = Vec::new();
    let mut i = 1; // past Begin Patch
    while i < lines.len() {
        let line = lines[i].trim_end();
        if line == "*** End Patch" {
            return Ok(ops);
        }
        if let Some(p) = line.strip_prefix("*** Add File: ") {
            i += 1;
            let mut content = String::new();
            while i < lines.len() && !lines[i].starts_with("*** ") {
                let Some(l) = lines[i].strip_prefix('+') else {
                    return Err(BadPatch(format!(
                        "a line of added file `{p}` lacks its `+`"
                    )));
                };
                content.push_str(l);
                content.push('\n');
                i += 1;
            }
            ops.push(PatchOp::Add {
                path: p.trim().to_string(),
                content,
            });
        } else if let Some(p) = line.strip_prefix("*** Delete File: ") {
            ops.push(PatchOp::Delete {
                path: p.trim().to_string(),
            });
            i += 1;
        } else if let Some(p) = line.strip_prefix("*** Update File: ") {
            i += 1;
            let mut move_to = None;
            if let Some(m) = lines.get(i).and_then(|l| l.strip_prefix("*** Move to: ")) {
                move_to = Some(m.trim().to_string());
                i += 1;
            }
            let mut hunks: Vec<Hunk> = Vec::new();
            while i < lines.len() {
                let l = lines[i];
                if l.trim_end() == "*** End of File" {
                    if let Some(h) = hunks.last_mut() {
                        h.eof = true;
                    }
                    i += 1;
                    continue;
                }
                if l.starts_with("*** ") {
                    break;
                }
                if let Some(ctx) = l.strip_prefix("@@") {
                    let ctx = ctx.trim();
                    hunks.push(Hunk {
                        context: (!ctx.is_empty()).then(|| ctx.to_string()),
                        ..Hunk::default()
                    });
                    i += 1;
                    continue;
                }
                if hunks.is_empty() {
                    // Codex accepts a first hunk without its `@@` line.
                    hunks.push(Hunk::default());
                }
                let h = hunks.last_mut().expect("a hunk was just pushed");
                match l.chars().next() {
                    Some(' ') => {
                        h.old.push(l[1..].to_string());
                        h.new.push(l[1..].to_string());
                    }
                    None => {
                        h.old.push(String::new());
                        h.new.push(String::new());
                    }
                    Some('-') => h.old.push(l[1..].to_string()),
                    Some('+') => h.new.push(l[1..].to_string()),
                    _ => {
                        return Err(BadPatch(format!(
                            "unexpected line in the hunk of `{p}`: {l:.60}"
                        )))
                    }
                }
                i += 1;
            }
            if hunks.is_empty() && move_to.is_none() {
                return Err(BadPatch(format!("`{p}` is updated with no hunk")));
            }
            ops.push(PatchOp::Update {
                path: p.trim().to_string(),
                move_to,
                hunks,
            });
        } else if line.is_empty() {
            i += 1;
        } else {
            return Err(BadPatch(format!("unexpected line: {line:.60}")));
        }
    }
    Err(BadPatch("no `*** End Patch`".into()))
}

fn seek(lines: &[String], pattern: &[String], from: usize, eof: bool) -> Option<usize> {
    if pattern.is_empty() {
        return Some(from);
    }
    if pattern.len() > lines.len() {
        return None;
    }
    let last = lines.len() - pattern.len();
    let start = if eof { last } else { from };
    let tries: [fn(&str, &str) -> bool; 3] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
    ];
    for eq in tries {
        for i in start.min(last + 1)..=last {
            if pattern.iter().zip(&lines[i..]).all(|(p, l)| eq(l, p)) {
                return Some(i);
            }
        }
    }
    None
}

/// Applies `hunks` to `current` as Codex would; the result always ends
/// with a newline.
pub fn apply_hunks(current: &str, hunks: &[Hunk]) -> Rebuilt {
    let mut lines: Vec<String> = current.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut at = 0usize;
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    for h in hunks {
        if let Some(ctx) = &h.context {
            match seek(&lines, std::slice::from_ref(ctx), at, false) {
                Some(i) => at = i + 1,
                None => return Rebuilt::Refused("a hunk's `@@` context is not in the file"),
            }
        }
        if h.old.is_empty() {
            replacements.push((lines.len(), 0, h.new.clone()));
            continue;
        }
        let mut old = h.old.clone();
        let mut new = h.new.clone();
        let mut found = seek(&lines, &old, at, h.eof);
        if found.is_none() && old.last().is_some_and(String::is_empty) {
            old.pop();
            if new.last().is_some_and(String::is_empty) {
                new.pop();
            }
            found = seek(&lines, &old, at, h.eof);
        }
        let Some(i) = found else {
            return Rebuilt::Refused("a hunk's lines are not in the file");
        };
        replacements.push((i, old.len(), new));
        at = i + old.len();
    }
    replacements.sort_by_key(|r| r.0);
    for (start, len, new) in replacements.into_iter().rev() {
        if start + len > lines.len() {
            return Rebuilt::Refused("hunks overlap");
        }
        lines.splice(start..start + len, new);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Rebuilt::Content(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_operation() {
        let p = "*** Begin Patch\n*** Add File: new.txt\n+hello\n+world\n*** Delete File: old.txt\n*** Update File: src/a.rs\n*** Move to: src/b.rs\n@@ fn main() {\n-    one();\n+    two();\n }\n*** End Patch\n";
        let ops = parse(p).expect("parse");
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0],
            PatchOp::Add {
                path: "new.txt".into(),
                content: "hello\nworld\n".into()
            }
        );
        assert_eq!(
            ops[1],
            PatchOp::Delete {
                path: "old.txt".into()
            }
        );
        let PatchOp::Update { move_to, hunks, .. } = &ops[2] else {
            panic!("update expected");
        };
        assert_eq!(move_to.as_deref(), Some("src/b.rs"));
        assert_eq!(hunks[0].context.as_deref(), Some("fn main() {"));
        let cur = "use x;\nfn main() {\n    one();\n}\n";
        assert_eq!(
            apply_hunks(cur, hunks),
            Rebuilt::Content("use x;\nfn main() {\n    two();\n}\n".into())
        );
        assert!(matches!(
            apply_hunks("nothing\n", hunks),
            Rebuilt::Refused(_)
        ));
        assert!(parse("*** Begin Patch\n*** Frobnicate: x\n*** End Patch").is_err());
        assert!(parse("*** Begin Patch\n*** Add File: x\n+a\n").is_err());
    }

    #[test]
    fn finds_the_envelope_in_a_shell_line() {
        let line = "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF";
        assert_eq!(
            parse(line).expect("parse"),
            vec![PatchOp::Delete { path: "a".into() }]
        );
    }
}
