//! Pythonic tool calls: `[fs_read(path='a.rs', start=1), ShellCommand(command="ls")]`
//! (vLLM's `pythonic`, Llama 4, OLMo 3). Either the whole text parses as
//! calls or nothing is taken: text mixed in means prose.

use serde_json::{Map, Number, Value};

/// Parses a list of calls, with or without the surrounding brackets, the
/// calls separated by commas or newlines.
pub fn parse_calls(text: &str) -> Option<Vec<(String, Value)>> {
    let mut p = Parser {
        s: text.trim().as_bytes(),
        i: 0,
        text: text.trim(),
    };
    let bracketed = p.eat(b'[');
    let mut calls = Vec::new();
    loop {
        p.ws();
        if p.done() || (bracketed && p.peek() == Some(b']')) {
            break;
        }
        calls.push(p.call()?);
        p.ws();
        if !p.eat(b',') && !bracketed && !p.done() {
            // Newline-separated calls (OLMo 3) need no comma.
            continue;
        }
    }
    if bracketed && !p.eat(b']') {
        return None;
    }
    p.ws();
    (p.done() && !calls.is_empty()).then_some(calls)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            self.i += 1;
        }
        let id = &self.text[start..self.i];
        (!id.is_empty() && !id.as_bytes()[0].is_ascii_digit()).then(|| id.to_string())
    }

    fn call(&mut self) -> Option<(String, Value)> {
        let name = self.ident()?;
        if !self.eat(b'(') {
            return None;
        }
        let mut args = Map::new();
        loop {
            if self.eat(b')') {
                break;
            }
            let key = self.ident()?;
            if !self.eat(b'=') {
                return None;
            }
            let v = self.literal()?;
            args.insert(key, v);
            if !self.eat(b',') {
                if !self.eat(b')') {
                    return None;
                }
                break;
            }
        }
        Some((name, Value::Object(args)))
    }

    fn literal(&mut self) -> Option<Value> {
        self.ws();
        match self.peek()? {
            q @ (b'\'' | b'"') => self.string(q).map(Value::String),
            b'[' | b'{' => {
                // A list or dict literal: JSON when it is JSON.
                let (end, _) = super::json::matching_end(self.s, self.i);
                let end = end?;
                let v = serde_json::from_str(&self.text[self.i..=end]).ok()?;
                self.i = end + 1;
                Some(v)
            }
            _ => {
                let start = self.i;
                while self.peek().is_some_and(|b| {
                    b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'+'
                }) {
                    self.i += 1;
                }
                match &self.text[start..self.i] {
                    "True" | "true" => Some(Value::Bool(true)),
                    "False" | "false" => Some(Value::Bool(false)),
                    "None" | "null" => Some(Value::Null),
                    n => n.parse::<i64>().map(Value::from).ok().or_else(|| {
                        n.parse::<f64>()
                            .ok()
                            .and_then(Number::from_f64)
                            .map(Value::Number)
                    }),
                }
            }
        }
    }

    fn string(&mut self, quote: u8) -> Option<String> {
        self.i += 1;
        let mut out = String::new();
        let mut chars = self.text[self.i..].char_indices();
        while let Some((off, c)) = chars.next() {
            match c {
                '\\' => {
                    let (_, e) = chars.next()?;
                    out.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        other => other,
                    });
                }
                c if c as u32 == quote as u32 => {
                    self.i += off + 1;
                    return Some(out);
                }
                c => out.push(c),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_of_calls_parse_and_prose_does_not() {
        let calls = parse_calls("[fs_read(path='a b.rs', start=3), ShellCommand(command=\"echo \\\"hi\\\"\", quiet=True)]")
            .expect("parses");
        assert_eq!(
            calls[0],
            ("fs_read".into(), json!({"path": "a b.rs", "start": 3}))
        );
        assert_eq!(calls[1].1, json!({"command": "echo \"hi\"", "quiet": true}));
        assert_eq!(
            parse_calls("fs_list(path='.')\nfs_glob(pattern='*.rs')").map(|c| c.len()),
            Some(2)
        );
        assert!(parse_calls("[1, 2, 3]").is_none());
        assert!(parse_calls("[see the docs](http://x)").is_none());
        assert!(parse_calls("[fs_read(path='a')] and then").is_none());
        assert!(parse_calls("[]").is_none());
    }
}
