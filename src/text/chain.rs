//! An error and its causes on one line, the way the library reports a
//! failure inside a larger message (`error sending request: connection
//! refused`). The command line renders causes on lines of their own.

/// Returns `e` and every cause after it, joined with `: `; a cause whose
/// text the line already holds (libraries that repeat their source in
/// their own message) is left out.
pub fn one_line(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(c) = source {
        let text = c.to_string();
        if !s.contains(&text) {
            s.push_str(": ");
            s.push_str(&text);
        }
        source = c.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct E(&'static str, Option<Box<E>>);
    impl std::fmt::Display for E {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }
    impl std::error::Error for E {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    #[test]
    fn joins_causes_once() {
        let e = E(
            "sending: refused",
            Some(Box::new(E(
                "refused",
                Some(Box::new(E("os error 111", None))),
            ))),
        );
        assert_eq!(one_line(&e), "sending: refused: os error 111");
    }
}
