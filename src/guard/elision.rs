//! Recognises the placeholder lines a model writes instead of code it did not
//! reproduce (`// ... rest of the code`, `# ... existing code ...`,
//! `/* unchanged */`, `<!-- rest omitted -->`, "(rest of file unchanged)",
//! "resto del código"…). Pure functions, no I/O.
//!
//! A line is a placeholder only when it is *framed* — a whole-line comment,
//! a trailing comment, a bracketed note, or a line starting with an ellipsis
//! — and the framed text is either an ellipsis alone or a short sentence
//! with an elision phrase. Ordinary code and long explanatory comments are
//! never placeholders.

use std::sync::LazyLock;

use regex::Regex;

use crate::text::fold;

/// Lines longer than this are never placeholders.
const MAX_LEN: usize = 160;

/// Phrases that say code was left out, matched on folded, punctuation-free
/// text; a sentence of up to [`STRONG_WORDS`] words with one is a placeholder.
static STRONG: LazyLock<Regex> = LazyLock::new(|| {
    let noun = "code|codebase|file|class|classes|method|methods|function|functions|implementation|implementations|module|component|components|body|content|contents|logic|lines|struct|structs|impl|test|tests|script|page|document|config|configuration|properties|fields|imports|program|source|template|markup|html|css|styles|xml|json|yaml|dependencies|elements|members|sections|cases|handlers|routes|definitions|declarations|setup|data|query|queries|text|section|stuff";
    let es_noun = "codigo|archivo|fichero|metodo|metodos|clase|clases|funcion|funciones|contenido|programa|implementacion|modulo|componente|script|documento|configuracion|campos|propiedades|pruebas|lineas";
    let pattern = format!(
        r"\b(?:(?:the\s+)?(?:rest|remainder)\s+(?:of\s+)?(?:the\s+|this\s+|your\s+|my\s+)?(?:{noun})\b|(?:rest|remainder)\s+(?:omitted|unchanged|elided|remains|stays|is\s+the\s+same|as\s+before|of\s+file)|(?:existing|remaining|previous|original|other|unchanged|omitted|same)\s+(?:{noun})\b|(?:{noun}|everything\s+else)\s+(?:remains?|stays?|is|are|kept|left|goes)?\s*(?:unchanged|the\s+same|as\s+before|as\s+is|omitted|elided|here|intact)\b|(?:same|as)\s+(?:as\s+)?(?:before|above|original|previously)\b|keep\s+(?:the\s+)?(?:existing|rest|remaining|original)\b|no\s+(?:other\s+)?changes\b|(?:resto|restante)\s+(?:del?\s+|de\s+la\s+)?(?:{es_noun})\b|el\s+resto\b|(?:{es_noun})\s+(?:existente|existentes|anterior|anteriores|original|originales|restante|restantes|sin\s+cambios|igual|omitido|omitida|omitidos)\b|sin\s+cambios\b|sin\s+modificar\b|igual\s+que\s+(?:antes|el\s+original)\b|(?:se\s+)?mantienen?\s+igual\b|(?:demas|otros|otras)\s+(?:{es_noun})\b|no\s+cambia\b)"
    );
    Regex::new(&pattern).expect("the elision phrases are a valid regex")
});

/// Single words that mark an elision only in a very short note.
static WEAK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:unchanged|omitted|elided|truncated|snip|snipped|etc|omitido|omitida|igual)\b")
        .expect("the weak elision words are a valid regex")
});

/// The longest sentence an elision phrase may sit in.
const STRONG_WORDS: usize = 10;
/// The longest note a weak word may sit in.
const WEAK_WORDS: usize = 4;

const LEADING: &[&str] = &[
    "{/*", "<!--", "///", "//!", "/**", "//", "/*", "--", ";;", "#", "*", ";", "%", "'''", "\"\"\"",
];
const TRAILING: &[&str] = &["*/}", "*/", "-->", "'''", "\"\"\""];

/// Returns whether the (trimmed) line is an elision placeholder.
pub fn is_placeholder(line: &str) -> bool {
    let line = line.trim();
    if line.is_empty() || line.len() > MAX_LEN {
        return false;
    }
    if let Some(inner) = framed(line) {
        if placeholder_text(inner) {
            return true;
        }
    }
    // A trailing comment after code: `foo() { // ... rest of the class`.
    for marker in [" //", " #", " /*", "{/*", "{//", ";//", "; //"] {
        if let Some(pos) = line.find(marker) {
            let comment = &line[pos + marker.len()..];
            if comment.contains("...") || comment.contains('…') {
                if placeholder_text(strip_trailing(comment)) {
                    return true;
                }
            } else if let Some(inner) = framed(comment.trim_start()) {
                if placeholder_text(inner) && comment.split_whitespace().count() <= 6 {
                    return true;
                }
            }
        }
    }
    false
}

/// Returns the text inside a whole-line frame (comment, brackets, or a
/// leading ellipsis), or `None` when the line is not framed.
fn framed(line: &str) -> Option<&str> {
    for m in LEADING {
        if let Some(rest) = line.strip_prefix(m) {
            return Some(strip_trailing(rest));
        }
    }
    for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
        if line.starts_with(open) && line.ends_with(close) && line.len() >= 2 {
            return Some(&line[1..line.len() - 1]);
        }
    }
    // A leading ellipsis frames the words after it; alone it is code
    // (Python's `...`, a spread) rather than a placeholder.
    line.strip_prefix("...").or_else(|| line.strip_prefix('…'))
}

fn strip_trailing(s: &str) -> &str {
    let s = s.trim();
    for m in TRAILING {
        if let Some(rest) = s.strip_suffix(m) {
            return rest.trim();
        }
    }
    s
}

/// Returns whether the framed text is an ellipsis alone or a short elision
/// sentence.
fn placeholder_text(inner: &str) -> bool {
    let ellipsis = inner.contains("...") || inner.contains('…');
    let folded = fold(inner);
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return ellipsis;
    }
    let text = words.join(" ");
    (words.len() <= STRONG_WORDS && STRONG.is_match(&text))
        || (words.len() <= WEAK_WORDS && WEAK.is_match(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_common_placeholders() {
        for line in [
            "// ... rest of the code",
            "// ...rest of the code...",
            "# ... existing code ...",
            "/* unchanged */",
            "<!-- rest omitted -->",
            "(rest of file unchanged)",
            "[rest of the class]",
            "// ...",
            "# …",
            "/* ... */",
            "{/* ... */}",
            "// Rest of the implementation remains the same",
            "// existing methods",
            "// other methods unchanged",
            "// ... (keep existing)",
            "// code unchanged",
            "// remaining implementation unchanged",
            "    // ... existing imports",
            "-- rest of the query unchanged",
            "; same as before",
            "... rest of the file",
            "// ... resto del código",
            "# código existente",
            "// sin cambios",
            "/* el resto se mantiene igual */",
            "<!-- resto del archivo sin cambios -->",
            "// ... demás métodos",
            "}  // ... rest of the class",
            "fn helper() { /* ... */ }",
            "x = compute()  # ...",
        ] {
            assert!(is_placeholder(line), "{line:?} should be a placeholder");
        }
    }

    #[test]
    fn leaves_code_and_real_comments_alone() {
        for line in [
            "...",
            "let rest = &code[..];",
            "println!(\"rest of the code\");",
            "fetch(\"https://example.com/...\")",
            "// Returns the number of lines read so far, or zero",
            "// TODO: the rest of the parser keeps unchanged tokens, see issue 12 for details",
            "# Install dependencies",
            "/* Copyright 2026 */",
            "<!-- navigation -->",
            "(define (rest x) (cdr x))",
            "[dependencies]",
            "{",
            "}",
            "* Parses the header and the body",
            "private BigDecimal monto;",
        ] {
            assert!(
                !is_placeholder(line),
                "{line:?} should not be a placeholder"
            );
        }
    }
}
