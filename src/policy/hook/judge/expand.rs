//! Word expansion as the shell would do it, where it can be known before
//! running: quoting, parameters, command substitutions of known output,
//! brace expansion and sequences.

use super::*;

impl Judge<'_> {
    /// Expands a word, judging its substitutions (which run).
    pub(super) fn word(&mut self, w: &Word) -> Vec<Arg> {
        // `${NAME:=WORD}` and `${NAME=WORD}` assign NAME.
        for p in &w.parts {
            if let Part::Param { name, .. } = p {
                if let Some((n, _)) = name.split_once(":=").or_else(|| name.split_once('=')) {
                    self.assigned(n, None);
                }
            }
        }
        let mut subs = Vec::new();
        if let Err(e) = parser::collect_parts(&w.parts, &self.bodies, &mut subs) {
            self.deny(format!(
                "The guard could not read a command substitution ({e}); it refuses what it cannot read"
            ));
            return Vec::new();
        }
        for s in &subs {
            // A substitution runs in a subshell: its `cd` stays inside.
            let cwd = self.cwd.clone();
            self.script(s);
            self.cwd = cwd;
        }
        self.peek_word(w)
    }

    /// Expands a word without judging (for what a stage prints): known
    /// parameters, `~`, brace expansion, then globs from the cwd.
    pub(super) fn peek_word(&self, w: &Word) -> Vec<Arg> {
        // `pattern` keeps quoted characters escaped with `\`, so brace
        // expansion and globbing see only what the shell would expand.
        let mut pattern = String::new();
        let mut special = false;
        let mut unknown = false;
        let mut prefix = String::new();
        let escape = |t: &str, out: &mut String| {
            for c in t.chars() {
                if matches!(c, '*' | '?' | '[' | ']' | '\\' | '{' | '}' | ',') {
                    out.push('\\');
                }
                out.push(c);
            }
        };
        for (k, p) in w.parts.iter().enumerate() {
            match p {
                Part::Lit { text: t, quoted } => {
                    let mut t = t.clone();
                    if k == 0 && !quoted && (t == "~" || t.starts_with("~/")) {
                        if let Some(h) = &self.home {
                            t = format!("{h}{}", &t[1..]);
                            escape(h, &mut pattern);
                            t = t[h.len()..].to_string();
                        }
                    }
                    if *quoted {
                        escape(&t, &mut pattern);
                    } else {
                        special |= t.contains(['*', '?', '[', '{']);
                        pattern.push_str(&t);
                    }
                }
                Part::Param { name, quoted } => match self.param(name) {
                    // Unquoted, a value is split on IFS: with IFS changed,
                    // or a value with blanks, the words are not known.
                    Some(v)
                        if !quoted
                            && (self.vars.contains_key("IFS")
                                || v.contains(char::is_whitespace)
                                || v.is_empty()) =>
                    {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                    Some(v) if *quoted => escape(&v, &mut pattern),
                    Some(v) => {
                        // An unquoted value is globbed, never brace-expanded.
                        for c in v.chars() {
                            if matches!(c, '\\' | '{' | '}' | ',') {
                                pattern.push('\\');
                            }
                            pattern.push(c);
                        }
                        special |= v.contains(['*', '?', '[']);
                    }
                    None => {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                },
                Part::Subst { quoted, .. } => match self.echoed(p) {
                    // `$(echo WORDS)` prints what it is given: known text.
                    Some(v) if *quoted => escape(&v, &mut pattern),
                    Some(v)
                        if !v.is_empty()
                            && !v.contains(char::is_whitespace)
                            && !v.contains(['*', '?', '[']) =>
                    {
                        escape(&v, &mut pattern)
                    }
                    _ => {
                        if !unknown {
                            prefix = crate::text::glob::unescape(&pattern);
                        }
                        unknown = true;
                    }
                },
                _ => {
                    if !unknown {
                        prefix = crate::text::glob::unescape(&pattern);
                    }
                    unknown = true;
                }
            }
        }
        if unknown {
            return vec![Arg::Unknown {
                prefix,
                shown: w.display(),
            }];
        }
        if !special {
            return vec![Arg::Lit(crate::text::glob::unescape(&pattern))];
        }
        let Some(candidates) = brace_expand(&pattern, 0) else {
            return vec![Arg::Unknown {
                prefix: String::new(),
                shown: w.display(),
            }];
        };
        let mut out = Vec::new();
        for c in candidates {
            if crate::text::glob::has_glob(&c) {
                let Some(cwd) = &self.cwd else {
                    return vec![Arg::Unknown {
                        prefix: String::new(),
                        shown: w.display(),
                    }];
                };
                let found = self.ctx.facts.expand_glob(cwd, &c);
                if found.is_empty() {
                    out.push(Arg::Lit(crate::text::glob::unescape(&c)));
                } else {
                    out.extend(found.into_iter().map(Arg::Lit));
                }
            } else {
                out.push(Arg::Lit(crate::text::glob::unescape(&c)));
            }
        }
        out
    }

    /// What a command substitution prints when it is a plain `echo` of
    /// literal words (no options, escapes, globs or redirections): the
    /// words joined by spaces. `$(echo rm) -rf src` is then judged as the
    /// `rm` it runs, and `$(echo hello)` as the program `hello`.
    pub(super) fn echoed(&self, part: &Part) -> Option<String> {
        let mut subs = Vec::new();
        parser::collect_parts(std::slice::from_ref(part), &self.bodies, &mut subs).ok()?;
        let [script] = subs.as_slice() else {
            return None;
        };
        let [item] = script.items.as_slice() else {
            return None;
        };
        let [pipeline] = item.pipelines.as_slice() else {
            return None;
        };
        let [Command::Simple(simple)] = pipeline.cmds.as_slice() else {
            return None;
        };
        if !simple.assigns.is_empty() || !simple.redirs.is_empty() {
            return None;
        }
        // Literal words only: no nested substitution (no recursion) and no
        // parameter whose value the guard would have to trust.
        if !simple
            .words
            .iter()
            .all(|w| w.parts.iter().all(|p| matches!(p, Part::Lit { .. })))
        {
            return None;
        }
        let mut words = Vec::new();
        for w in &simple.words {
            let v = self.peek_word(w);
            let [Arg::Lit(t)] = v.as_slice() else {
                return None;
            };
            words.push(t.clone());
        }
        let (program, rest) = words.split_first()?;
        if program != "echo" || rest.iter().any(|t| t.starts_with('-') || t.contains('\\')) {
            return None;
        }
        Some(rest.join(" "))
    }

    /// The value of `$name` when it is known on this line.
    pub(super) fn param(&self, name: &str) -> Option<String> {
        // `${NAME:-WORD}`, `${NAME-WORD}` with a plain WORD.
        for sep in [":-", "-"] {
            if let Some((n, word)) = name.split_once(sep) {
                let plain = |c: char| c.is_ascii_alphanumeric() || "/._-~+@%,".contains(c);
                if !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    || !word.chars().all(plain)
                {
                    return None;
                }
                return match (self.param(n), sep) {
                    (Some(v), ":-") if !v.is_empty() => Some(v),
                    (Some(_), ":-") => Some(word.to_string()),
                    (Some(v), _) => Some(v),
                    (None, _) => None,
                };
            }
        }
        match name {
            "HOME" => self.home.clone(),
            "PWD" => self.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
            _ if self.vars.contains_key(name) => self.vars.get(name).cloned().flatten(),
            // The agent's shell has the environment the hook was started
            // with; unset, `$TMPDIR/x` is `/x`.
            "TMPDIR" => Some(std::env::var("TMPDIR").unwrap_or_default()),
            _ => None,
        }
    }
}

/// A here-document's text when it is known now.
pub(super) fn body_text(b: &HereBody) -> Option<String> {
    if b.quoted {
        return Some(b.text.clone());
    }
    let mut s = String::new();
    for p in &b.parts {
        match p {
            Part::Lit { text, .. } => s.push_str(text),
            _ => return None,
        }
    }
    Some(s)
}

/// What a command prints, when it is known now: `cat` of its known stdin,
/// `echo` or `printf` of literal text.
pub(super) fn known_output(args: &[Arg], stdin: Stdin) -> Option<String> {
    let program = args.first()?.lit()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    let lits: Option<Vec<&str>> = args[1..].iter().map(|a| a.lit()).collect();
    let lits = lits?;
    match name {
        "cat" if lits.iter().all(|a| *a == "-") => match stdin {
            Stdin::Known(t) => Some(t),
            _ => None,
        },
        "echo" => {
            let mut newline = true;
            let mut k = 0;
            while k < lits.len()
                && lits[k].starts_with('-')
                && lits[k].len() > 1
                && lits[k][1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'))
            {
                if lits[k].contains('e') {
                    return None;
                }
                newline &= !lits[k].contains('n');
                k += 1;
            }
            let mut s = lits[k..].join(" ");
            if s.contains('\\') {
                return None;
            }
            if newline {
                s.push('\n');
            }
            Some(s)
        }
        "printf" => match lits.as_slice() {
            [fmt] if !fmt.contains('%') => {
                let mut out = String::new();
                let mut chars = fmt.chars();
                while let Some(c) = chars.next() {
                    if c == '\\' {
                        match chars.next() {
                            Some('n') => out.push('\n'),
                            Some('t') => out.push('\t'),
                            Some('\\') => out.push('\\'),
                            _ => return None,
                        }
                    } else {
                        out.push(c);
                    }
                }
                Some(out)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Most words one brace expansion may produce; more is refused.
pub(super) const MAX_BRACE_WORDS: usize = 256;

/// Brace expansion of an escaped pattern, as bash does it: `a{b,c}d`,
/// nested, and `{1..3}` / `{a..c}` sequences. `None` past
/// [`MAX_BRACE_WORDS`].
pub(super) fn brace_expand(s: &str, depth: usize) -> Option<Vec<String>> {
    if depth > 8 {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '{' => {
                // Find the matching close and the top-level commas.
                let mut level = 0;
                let mut j = i;
                let mut commas = Vec::new();
                let mut close = None;
                while j < chars.len() {
                    match chars[j] {
                        '\\' => j += 1,
                        '{' => level += 1,
                        '}' => {
                            level -= 1;
                            if level == 0 {
                                close = Some(j);
                                break;
                            }
                        }
                        ',' if level == 1 => commas.push(j),
                        _ => {}
                    }
                    j += 1;
                }
                let Some(close) = close else {
                    return Some(vec![s.to_string()]);
                };
                let head: String = chars[..i].iter().collect();
                let tail: String = chars[close + 1..].iter().collect();
                let inner: String = chars[i + 1..close].iter().collect();
                let alternatives: Vec<String> = if commas.is_empty() {
                    match sequence(&inner) {
                        Some(seq) => seq,
                        None => {
                            // Not an expansion: keep `{`…`}` literally and
                            // expand what follows.
                            let rest: String = chars[i + 1..].iter().collect();
                            let rest = brace_expand(&rest, depth + 1)?;
                            return Some(
                                rest.into_iter().map(|r| format!("{head}\\{{{r}")).collect(),
                            );
                        }
                    }
                } else {
                    let mut parts = Vec::new();
                    let mut from = i + 1;
                    for c in commas.iter().copied().chain(std::iter::once(close)) {
                        parts.push(chars[from..c].iter().collect());
                        from = c + 1;
                    }
                    parts
                };
                let mut out = Vec::new();
                for alt in alternatives {
                    for e in brace_expand(&format!("{head}{alt}{tail}"), depth + 1)? {
                        out.push(e);
                        if out.len() > MAX_BRACE_WORDS {
                            return None;
                        }
                    }
                }
                return Some(out);
            }
            _ => i += 1,
        }
    }
    Some(vec![s.to_string()])
}

/// `1..5`, `a..e`, `1..10..2`: the words, or `None` when not a sequence.
pub(super) fn sequence(inner: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse::<i64>().ok()?.abs().max(1),
        None => 1,
    };
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        if (a - b).abs() / step > MAX_BRACE_WORDS as i64 {
            return None;
        }
        let mut v = Vec::new();
        let mut x = a;
        while (a <= b && x <= b) || (a > b && x >= b) {
            v.push(x.to_string());
            x += if a <= b { step } else { -step };
        }
        return Some(v);
    }
    let (a, b) = (parts[0], parts[1]);
    if a.chars().count() == 1 && b.chars().count() == 1 {
        let (a, b) = (a.chars().next()? as u32, b.chars().next()? as u32);
        let (lo, hi) = (a.min(b), a.max(b));
        let mut v: Vec<String> = (lo..=hi)
            .step_by(step as usize)
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
        if a > b {
            v.reverse();
        }
        return Some(v);
    }
    None
}
