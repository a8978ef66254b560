//! Text helpers shared by every layer: accent folding, edit distance,
//! look-alike characters, shell quoting and glob patterns. A leaf layer:
//! pure functions, no I/O, no `crate::` imports.

pub mod chain;
pub mod distance;
pub mod glob;
pub mod lookalike;
pub mod quote;

pub use distance::edit_distance;

/// Returns `s` in lowercase with Latin accents removed (`Cámbiate` → `cambiate`).
pub fn fold(s: &str) -> String {
    // Plain ASCII (nearly every word routed) only changes case; a
    // backtick is the one ASCII character folded to another.
    if s.is_ascii() && !s.contains('`') {
        return s.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let base = match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'Á' | 'À' | 'Â' | 'Ä' | 'Ã' => 'a',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            'ç' | 'Ç' => 'c',
            '’' | '‘' | '`' => '\'',
            _ => {
                out.extend(c.to_lowercase());
                continue;
            }
        };
        out.push(base);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_accents_and_case() {
        assert_eq!(fold("¿Qué CAMBIÓ?"), "¿que cambio?");
        assert_eq!(fold("Cámbiate a la rama"), "cambiate a la rama");
        assert_eq!(fold("don’t"), "don't");
    }
}
