//! Quoting for a POSIX shell: the one way every layer writes a word so
//! that a shell (or our own lexer) reads back exactly that word.

/// Characters that never need quoting.
const SAFE: &str = "-_./=:@%+,";

/// Returns `w` as a shell would need it typed: bare when it is made only
/// of ASCII letters, digits and [`SAFE`] punctuation, else in single quotes
/// (a quote inside written `'\''`).
pub fn word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || SAFE.contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// Returns an argv as one line a shell reads back as the same words.
pub fn words<S: AsRef<str>>(argv: &[S]) -> String {
    argv.iter()
        .map(|a| word(a.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(word("src/a-b_c.rs"), "src/a-b_c.rs");
        assert_eq!(word(""), "''");
        assert_eq!(word("a b"), "'a b'");
        assert_eq!(word("it's"), "'it'\\''s'");
        assert_eq!(word("$HOME"), "'$HOME'");
        assert_eq!(
            words(&["git", "commit", "-m", "fix it"]),
            "git commit -m 'fix it'"
        );
    }
}
