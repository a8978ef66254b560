//! Filename expansion for the unquoted glob words of allowlisted utilities
//! (`ls *.rs`), done here because no shell is ever involved.

use std::path::Path;

/// Returns whether `name` matches the shell pattern `pat` (`*`, `?`, `[…]`).
pub fn matches(pat: &str, name: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_from(&p, &n)
}

fn match_from(p: &[char], n: &[char]) -> bool {
    let (mut pi, mut ni) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while ni < n.len() {
        if pi < p.len() {
            match p[pi] {
                // A quoted metacharacter, escaped by the lexer: literal.
                '\\' if pi + 1 < p.len() && p[pi + 1] == n[ni] => {
                    pi += 2;
                    ni += 1;
                    continue;
                }
                '\\' if pi + 1 < p.len() => {}
                '*' => {
                    star = Some(pi);
                    mark = ni;
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                '[' => {
                    if let Some((ok, next)) = class(&p[pi..], n[ni]) {
                        if ok {
                            pi += next;
                            ni += 1;
                            continue;
                        }
                    } else if n[ni] == '[' {
                        pi += 1;
                        ni += 1;
                        continue;
                    }
                }
                c if c == n[ni] => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some(s) => {
                pi = s + 1;
                mark += 1;
                ni = mark;
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Matches `c` against the bracket expression at the start of `p`; returns
/// whether it matched and the expression's length, or `None` if unclosed.
fn class(p: &[char], c: char) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(p.get(1), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while i < p.len() {
        if p[i] == ']' && !first {
            return Some((matched != negate, i + 1));
        }
        // A POSIX class: `[:upper:]` inside the brackets.
        if p[i] == '[' && p.get(i + 1) == Some(&':') {
            let rest: String = p[i + 2..].iter().collect();
            if let Some(end) = rest.find(":]") {
                let test: Option<fn(&char) -> bool> = match &rest[..end] {
                    "alpha" => Some(|c| c.is_alphabetic()),
                    "digit" => Some(|c| c.is_ascii_digit()),
                    "alnum" => Some(|c| c.is_alphanumeric()),
                    "upper" => Some(|c| c.is_uppercase()),
                    "lower" => Some(|c| c.is_lowercase()),
                    "space" => Some(|c| c.is_whitespace()),
                    "punct" => Some(|c| c.is_ascii_punctuation()),
                    "xdigit" => Some(|c| c.is_ascii_hexdigit()),
                    _ => None,
                };
                if let Some(test) = test {
                    matched |= test(&c);
                    i += 2 + rest[..end].chars().count() + 2;
                    first = false;
                    continue;
                }
            }
        }
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            matched |= p[i] <= c && c <= p[i + 2];
            i += 3;
        } else {
            matched |= p[i] == c;
            i += 1;
        }
        first = false;
    }
    None
}

/// Whether `part` has a metacharacter that is not escaped.
pub fn has_glob(part: &str) -> bool {
    let mut escaped = false;
    for c in part.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '*' | '?' | '[' => return true,
            _ => {}
        }
    }
    false
}

/// Removes the lexer's escapes.
pub fn unescape(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut escaped = false;
    for c in part.chars() {
        if c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        escaped = false;
        out.push(c);
    }
    out
}

/// Expands `pattern` relative to `cwd`; returns the sorted matches, or an
/// empty list when nothing matches (the caller then keeps the word as is).
pub fn expand(pattern: &str, cwd: &Path) -> Vec<String> {
    let absolute = pattern.starts_with('/');
    let parts: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let mut found: Vec<String> = vec![if absolute {
        "/".to_string()
    } else {
        String::new()
    }];
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let mut next = Vec::new();
        for prefix in &found {
            if !has_glob(part) {
                let candidate = format!("{prefix}{}", unescape(part));
                let full = cwd.join(&candidate);
                if full.exists() || full.symlink_metadata().is_ok() {
                    next.push(if last {
                        candidate
                    } else {
                        format!("{candidate}/")
                    });
                }
                continue;
            }
            let dir = if prefix.is_empty() {
                cwd.to_path_buf()
            } else {
                cwd.join(prefix)
            };
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| !name.starts_with('.') || part.starts_with('.'))
                .filter(|name| matches(part, name))
                .collect();
            names.sort();
            for name in names {
                let candidate = format!("{prefix}{name}");
                if last {
                    next.push(candidate);
                } else if cwd.join(&candidate).is_dir() {
                    next.push(format!("{candidate}/"));
                }
            }
        }
        found = next;
    }
    found.retain(|f| !f.is_empty() && f != "/");
    // `*/` matches directories only, and keeps the slash.
    if pattern.ends_with('/') {
        found.retain(|f| cwd.join(f).is_dir());
        for f in &mut found {
            if !f.ends_with('/') {
                f.push('/');
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_shell_patterns() {
        assert!(matches("*.rs", "main.rs"));
        assert!(!matches("*.rs", "main.rsx"));
        assert!(matches("a?c", "abc"));
        assert!(matches("[a-c]x", "bx"));
        assert!(!matches("[!a-c]x", "bx"));
        assert!(matches("*", ""));
        assert!(matches("**.md", "README.md"));
        assert!(matches("a\\*", "a*"));
        assert!(matches("[[:upper:]]*", "README"));
        assert!(!matches("[[:upper:]]*", "src"));
        assert!(!matches("a\\*", "ab"));
    }

    #[test]
    fn expands_relative_to_a_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        for f in ["b.rs", "a.rs", "c.txt", ".hidden.rs"] {
            std::fs::write(dir.path().join(f), "").expect("write");
        }
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/x.rs"), "").expect("write");
        assert_eq!(expand("*.rs", dir.path()), ["a.rs", "b.rs"]);
        assert_eq!(expand("src/*.rs", dir.path()), ["src/x.rs"]);
        assert_eq!(expand("*/x.rs", dir.path()), ["src/x.rs"]);
        assert!(expand("*.zz", dir.path()).is_empty());
    }
}
