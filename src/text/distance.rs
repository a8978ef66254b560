//! Edit distance: one optimal-string-alignment implementation (insertions,
//! deletions, substitutions and adjacent transpositions, each costing one),
//! bounded so that the router's typo index can stop a comparison early.

/// Rows up to this length live on the stack; the typo index never needs
/// more, and longer inputs (a whole typed word) fall back to the heap.
const STACK: usize = 32;

/// The optimal-string-alignment distance between `a` and `b`, or `None`
/// when it exceeds `max` (stops as soon as a whole row does).
pub fn osa<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let m = b.len();
    if m < STACK {
        let mut rows = [[0usize; STACK]; 3];
        let [r0, r1, r2] = &mut rows;
        run(a, b, max, &mut r0[..=m], &mut r1[..=m], &mut r2[..=m])
    } else {
        let (mut r0, mut r1, mut r2) = (vec![0; m + 1], vec![0; m + 1], vec![0; m + 1]);
        run(a, b, max, &mut r0, &mut r1, &mut r2)
    }
}

/// The dynamic programme over three rolling rows of `b.len() + 1` cells.
fn run<'r, T: PartialEq>(
    a: &[T],
    b: &[T],
    max: usize,
    mut prev2: &'r mut [usize],
    mut prev: &'r mut [usize],
    mut cur: &'r mut [usize],
) -> Option<usize> {
    let m = b.len();
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[m]).filter(|d| *d <= max)
}

/// The distance between two strings, counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    osa(&a, &b, usize::MAX - 1).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_transpositions_once() {
        assert_eq!(edit_distance("teh", "the"), 1);
        assert_eq!(edit_distance("stauts", "status"), 1);
        assert_eq!(edit_distance("comit", "commit"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("push", "pull"), 2);
        assert_eq!(edit_distance("ñandú", "nandu"), 2);
    }

    #[test]
    fn stops_past_the_bound() {
        let c = |s: &'static str| s.as_bytes();
        assert_eq!(osa(c("commit"), c("comit"), 1), Some(1));
        assert_eq!(osa(c("comment"), c("commit"), 1), None);
        assert_eq!(osa(c("teh"), c("the"), 1), Some(1));
        let long = "a".repeat(40);
        assert_eq!(osa(long.as_bytes(), "a".repeat(41).as_bytes(), 1), Some(1));
    }

    #[test]
    fn bounded_agrees_with_unbounded() {
        let words = [
            "commit", "comit", "commti", "commits", "cmomit", "status", "stauts", "", "a", "ab",
            "ba", "abc",
        ];
        for a in words {
            for b in words {
                let d = edit_distance(a, b);
                for max in 0..4 {
                    let want = (d <= max).then_some(d);
                    assert_eq!(osa(a.as_bytes(), b.as_bytes(), max), want, "{a} {b} {max}");
                }
            }
        }
    }
}
