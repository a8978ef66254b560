//! Small text helpers shared by the router levels: accent folding and edit
//! distance. Pure functions, no I/O.

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

/// Returns the optimal-string-alignment distance between `a` and `b`
/// (insertions, deletions, substitutions and adjacent transpositions).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 {
        return n.max(m);
    }
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// Returns whether `a` and `b` are at most one edit apart (insertion,
/// deletion, substitution or adjacent transposition), without allocating.
pub fn within_one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if prefix == a.len() && prefix == b.len() {
        return true;
    }
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match ra.len().cmp(&rb.len()) {
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        std::cmp::Ordering::Greater => ra[1..] == *rb,
        std::cmp::Ordering::Less => *ra == rb[1..],
    }
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

    #[test]
    fn within_one_edit_agrees_with_edit_distance() {
        let words = [
            "commit", "comit", "commti", "commits", "cmomit", "status", "stauts", "", "a", "ab",
            "ba", "abc",
        ];
        for a in words {
            for b in words {
                assert_eq!(within_one_edit(a, b), edit_distance(a, b) <= 1, "{a} {b}");
            }
        }
    }

    #[test]
    fn edit_distance_counts_transpositions_once() {
        assert_eq!(edit_distance("teh", "the"), 1);
        assert_eq!(edit_distance("stauts", "status"), 1);
        assert_eq!(edit_distance("comit", "commit"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("push", "pull"), 2);
    }
}
