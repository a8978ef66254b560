//! What never reaches a model on another machine: files that look like
//! secrets (by name, as data) are not read for it, and tokens that look
//! like credentials are redacted from everything sent to it.
//!
//! A model on loopback runs on this machine and sees what the user sees;
//! `fararoni.llm.sendSecrets` lifts both rules for a remote one.

use std::sync::OnceLock;

use regex::Regex;

/// File names (lowercase) that hold secrets; `*` ends a prefix rule.
pub const SECRET_FILES: &[&str] = &[
    ".env*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.keystore",
    "*.jks",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "credentials*",
    ".htpasswd",
    "secrets.*",
    "*.tfvars",
    "service-account*.json",
    "*.env",
    ".pgpass",
    "*.kdbx",
];

/// One kind of credential the detector knows, gitleaks-style: a rule id,
/// a regex, and the capture group that is the secret (0: the whole match).
pub struct TokenRule {
    /// The rule's name (gitleaks' id where it has one), for the report.
    pub id: &'static str,
    /// The regex.
    pub pattern: &'static str,
    /// The group replaced by [`REDACTED`].
    pub group: usize,
}

const fn rule(id: &'static str, pattern: &'static str, group: usize) -> TokenRule {
    TokenRule { id, pattern, group }
}

/// Credential-looking tokens: known token shapes first, then values of
/// keys named like secrets, then credentials inside URLs and the lines of
/// credential files (`.pgpass`, `.netrc`). High-entropy strings that no
/// rule names are caught by [`high_entropy`].
pub const TOKEN_RULES: &[TokenRule] = &[
    rule(
        "private-key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)",
        0,
    ),
    rule(
        "aws-access-token",
        r"\b(AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[0-9A-Z]{16}\b",
        0,
    ),
    rule(
        "aws-secret-key",
        r#"(?i)aws.{0,24}?(secret|private|session).{0,24}?["']?\s*[:=]>?\s*["']?([A-Za-z0-9/+=]{40})\b"#,
        2,
    ),
    rule("github-pat", r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", 0),
    rule(
        "github-fine-grained-pat",
        r"\bgithub_pat_[A-Za-z0-9_]{40,}\b",
        0,
    ),
    rule(
        "gitlab-pat",
        r"\bgl(pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,}\b",
        0,
    ),
    rule("anthropic-api-key", r"\bsk-ant-[A-Za-z0-9_-]{20,}\b", 0),
    rule(
        "openai-api-key",
        r"\bsk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b",
        0,
    ),
    rule(
        "stripe-access-token",
        r"\b(sk|rk|pk)_(live|test|prod)_[0-9A-Za-z]{10,}\b",
        0,
    ),
    rule("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b", 0),
    rule(
        "slack-webhook",
        r"hooks\.slack\.com/(services|workflows)/[A-Za-z0-9+/]{20,}",
        0,
    ),
    rule("gcp-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b", 0),
    rule("npm-access-token", r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    rule(
        "pypi-upload-token",
        r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
        0,
    ),
    rule("huggingface-token", r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    rule(
        "sendgrid-api-token",
        r"\bSG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}\b",
        0,
    ),
    rule("twilio-api-key", r"\bSK[0-9a-fA-F]{32}\b", 0),
    rule(
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        0,
    ),
    rule(
        "azure-storage-key",
        r"(?i)AccountKey=([A-Za-z0-9+/=]{40,})",
        1,
    ),
    // `scheme://user:password@host`: the password only.
    rule(
        "url-credentials",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,128}:([^\s@/]{1,256})@",
        1,
    ),
    // `host:port:database:user:password` (`~/.pgpass`).
    rule(
        "pgpass-line",
        r"(?m)^[^\s:#]+:(\d+|\*):[^\s:]+:[^\s:]+:(\S+)$",
        2,
    ),
    // `machine h login u password p` (`~/.netrc`).
    rule(
        "netrc-password",
        r"(?i)\b(?:machine|login|default)\s+\S+[^\n]*?\bpassword\s+(\S{4,})",
        1,
    ),
    // `KEY=value`, `"key": "value"`, `key: value` where the key is named
    // like a secret (`AWS_SECRET_ACCESS_KEY`, `db_password`, `apiKey`…).
    rule(
        "generic-secret-assignment",
        r#"(?i)([\w.-]*(password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credential|client[_-]?id)[\w.-]*)["']?(\s*(?:==?|:=?|=>)\s*)["']?([^\s"',;`]{6,})"#,
        4,
    ),
];

/// The text that replaces a redacted token.
pub const REDACTED: &str = "[REDACTED]";

/// Whether the file at `rel` (repository-relative) looks like a secret.
pub fn is_secret_file(rel: &str) -> bool {
    let name = rel
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(rel)
        .to_lowercase();
    SECRET_FILES.iter().any(|p| {
        if let Some(suffix) = p.strip_prefix('*') {
            name.ends_with(suffix)
        } else if let Some(prefix) = p.strip_suffix('*') {
            name.starts_with(prefix)
        } else {
            name == *p
        }
    })
}

fn patterns() -> &'static [(usize, Regex)] {
    static RES: OnceLock<Vec<(usize, Regex)>> = OnceLock::new();
    RES.get_or_init(|| {
        TOKEN_RULES
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Regex::new(r.pattern).ok().map(|re| (i, re)))
            .collect()
    })
}

/// A value of a secret-named key that is code, not a secret: an
/// identifier or a call (`token = next_token()`, `password: String`).
fn looks_like_code(value: &str) -> bool {
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    value.contains(['(', ')', '{', '}', '[', ']', '<', '>', '$'])
        || (!has_digit
            && value
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':'))
        || matches!(
            value.to_ascii_lowercase().as_str(),
            "redacted"
                | "changeme"
                | "xxxxxx"
                | "********"
                | "required"
                | "optional"
                | "string"
                | "null"
                | "none"
                | "true"
                | "false"
        )
}

/// Shannon entropy of `s` in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 128];
    let mut n = 0u32;
    for b in s.bytes().filter(u8::is_ascii) {
        counts[usize::from(b)] += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = f64::from(n);
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = f64::from(*c) / n;
            -p * p.log2()
        })
        .sum()
}

/// The shortest string [`high_entropy`] considers.
pub const ENTROPY_MIN_LEN: usize = 32;
/// The bits per character above which such a string is a key.
pub const ENTROPY_BITS: f64 = 4.2;

/// Whether `token` reads as a random key: long, mixing upper and lower
/// case and digits, and of high entropy. Hex strings (git ids, checksums)
/// are never keys: the agent needs them.
pub fn high_entropy(token: &str) -> bool {
    token.len() >= ENTROPY_MIN_LEN
        && token.chars().any(|c| c.is_ascii_uppercase())
        && token.chars().any(|c| c.is_ascii_lowercase())
        && token.chars().any(|c| c.is_ascii_digit())
        && !token.chars().all(|c| c.is_ascii_hexdigit())
        // A path or an identifier path has separators between words.
        && token.split(['/', '.', '_', '-']).all(|part| part.len() >= 4 || part.is_empty())
        && entropy(token) >= ENTROPY_BITS
}

fn entropy_re() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"[A-Za-z0-9+/=_-]{32,}").ok())
        .as_ref()
}

/// What was redacted from a text: how many tokens per rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redactions {
    /// `(rule id, count)`, in the order of [`TOKEN_RULES`], then `entropy`.
    pub by_rule: Vec<(&'static str, usize)>,
}

impl Redactions {
    /// Whether nothing was redacted.
    pub fn is_empty(&self) -> bool {
        self.by_rule.is_empty()
    }

    /// Tokens redacted.
    pub fn total(&self) -> usize {
        self.by_rule.iter().map(|(_, n)| n).sum()
    }

    fn add(&mut self, id: &'static str, n: usize) {
        if n == 0 {
            return;
        }
        match self.by_rule.iter_mut().find(|(r, _)| *r == id) {
            Some((_, c)) => *c += n,
            None => self.by_rule.push((id, n)),
        }
    }
}

/// Replaces every credential-looking token of `text`.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    redact_counted(text).0
}

/// Replaces every credential-looking token of `text`, and says what.
pub fn redact_counted(text: &str) -> (std::borrow::Cow<'_, str>, Redactions) {
    let mut out = std::borrow::Cow::Borrowed(text);
    let mut report = Redactions::default();
    for (i, re) in patterns() {
        let Some(rule) = TOKEN_RULES.get(*i) else {
            continue;
        };
        if !re.is_match(&out) {
            continue;
        }
        let mut n = 0;
        let replaced = re
            .replace_all(&out, |c: &regex::Captures<'_>| {
                let whole = c.get(0).map_or("", |m| m.as_str());
                let Some(secret) = c.get(rule.group) else {
                    return whole.to_string();
                };
                if rule.group != 0
                    && looks_like_code(secret.as_str())
                    && !high_entropy(secret.as_str())
                    && rule.id == "generic-secret-assignment"
                {
                    return whole.to_string();
                }
                if secret.as_str() == REDACTED {
                    return whole.to_string();
                }
                n += 1;
                let start = secret.start() - c.get(0).map_or(0, |m| m.start());
                let end = start + secret.len();
                format!("{}{REDACTED}{}", &whole[..start], &whole[end..])
            })
            .into_owned();
        report.add(rule.id, n);
        if n > 0 {
            out = std::borrow::Cow::Owned(replaced);
        }
    }
    if let Some(re) = entropy_re() {
        if re.find_iter(&out).any(|m| high_entropy(m.as_str())) {
            let mut n = 0;
            let replaced = re
                .replace_all(&out, |c: &regex::Captures<'_>| {
                    let t = c.get(0).map_or("", |m| m.as_str());
                    if high_entropy(t) {
                        n += 1;
                        REDACTED.to_string()
                    } else {
                        t.to_string()
                    }
                })
                .into_owned();
            report.add("high-entropy", n);
            out = std::borrow::Cow::Owned(replaced);
        }
    }
    (out, report)
}

/// Whether `text` holds anything [`redact`] would replace.
pub fn holds_secret(text: &str) -> bool {
    !redact_counted(text).1.is_empty()
}

/// Whether `base_url` points at this machine.
pub fn is_loopback(base_url: &str) -> bool {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let host_port = rest.split('/').next().unwrap_or("");
    let host = if let Some(h) = host_port.strip_prefix('[') {
        h.split(']').next().unwrap_or("")
    } else {
        host_port.rsplit_once(':').map_or(host_port, |(h, _)| h)
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_files() {
        for s in [
            ".env",
            ".env.local",
            "conf/.ENV.production",
            "id_rsa",
            "k/server.pem",
            ".netrc",
            "credentials.json",
        ] {
            assert!(is_secret_file(s), "{s}");
        }
        for s in ["src/env.rs", "README.md", "keys.rs", "environment.ts"] {
            assert!(!is_secret_file(s), "{s}");
        }
    }

    #[test]
    fn tokens_are_redacted() {
        let t = "aws AKIAABCDEFGHIJKLMNOP and ghp_abcdefghijklmnopqrstuvwxyz0123456789 password = hunter2secret\n-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----";
        let r = redact(t);
        for leaked in ["AKIAABCD", "ghp_abc", "hunter2", "abc\n"] {
            assert!(!r.contains(leaked), "{leaked}: {r}");
        }
        assert!(r.contains("password = [REDACTED]"), "{r}");
        assert_eq!(redact("fn main() {}"), "fn main() {}");
    }

    #[test]
    fn the_shapes_that_leaked_are_redacted() {
        let leaks = [
            (
                "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "wJalrXUtnFEMI",
            ),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "wJalrXUtnFEMI",
            ),
            (
                "const KEY: &str = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\";",
                "wJalrXUtnFEMI",
            ),
            (
                "let k = \"Zx9fQ2mV7pL4sT8wR1nB6yH3cK5jD0gA\";",
                "Zx9fQ2mV7pL4",
            ),
            ("stripe: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWD"),
            (
                "DATABASE_URL=postgres://app:s3cr3tPass@db.example.com:5432/app",
                "s3cr3tPass",
            ),
            ("db.example.com:5432:app:alice:Tr0ub4dor&3", "Tr0ub4dor"),
            (
                "machine api.example.com login bob password hunter22",
                "hunter22",
            ),
            (
                "    assert api_token == \"tok_9f8e7d6c5b4a\"",
                "tok_9f8e7d6c5b4a",
            ),
            (
                "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                "ghp_abc",
            ),
            ("\"apiKey\": \"AbC123xYz789QwE456\"", "AbC123xYz789"),
        ];
        for (text, secret) in leaks {
            let r = redact(text);
            assert!(!r.contains(secret), "{text} → {r}");
            assert!(r.contains(REDACTED), "{text} → {r}");
        }
        let (_, report) =
            redact_counted("sk_live_4eC39HqLyjWDarjtT1zdp7dc and AKIAABCDEFGHIJKLMNOP");
        assert_eq!(report.total(), 2, "{report:?}");
    }

    #[test]
    fn code_and_git_ids_are_left_alone() {
        for text in [
            "let token = next_token();",
            "password: String,",
            "fn secret_key(&self) -> &str { &self.secret }",
            "commit 3f2d851c8e0b6f1d2a4c5e6f7a8b9c0d1e2f3a4b",
            "checksum = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"",
            "src/agent/tools/shell_commands_and_more/mod.rs",
            "let access_token = config.access_token.clone();",
            "TOKEN_PATTERNS.iter().enumerate()",
            "https://github.com/rust-lang/rust/blob/master/README.md",
            "// check the password length before hashing",
        ] {
            assert_eq!(redact(text), text, "{text}");
        }
    }

    #[test]
    fn loopback() {
        for u in [
            "http://127.0.0.1:11434/v1",
            "http://localhost:8080",
            "http://[::1]:8080/v1",
            "http://127.8.0.1",
        ] {
            assert!(is_loopback(u), "{u}");
        }
        for u in [
            "https://api.openai.com/v1",
            "http://10.0.0.2:8080",
            "http://localhost.evil.com/v1",
            "http://127.0.0.1.nip.io/v1",
        ] {
            assert!(!is_loopback(u), "{u}");
        }
    }
}
