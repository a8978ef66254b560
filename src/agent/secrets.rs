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
];

/// Credential-looking tokens, each with what replaces it.
pub const TOKEN_PATTERNS: &[&str] = &[
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|\z)",
    r"\bAKIA[0-9A-Z]{16}\b",
    r"\bgh[pousr]_[A-Za-z0-9]{30,}\b",
    r"\bgithub_pat_[A-Za-z0-9_]{40,}\b",
    r"\bsk-(proj-|ant-)?[A-Za-z0-9_-]{20,}\b",
    r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b",
    r"\bglpat-[A-Za-z0-9_-]{20,}\b",
    r"\bAIza[0-9A-Za-z_-]{35}\b",
    r#"(?i)\b(password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\b(\s*[:=]\s*)["']?[^\s"']{6,}"#,
];

/// The text that replaces a redacted token.
pub const REDACTED: &str = "[REDACTED]";

/// Whether the file at `rel` (repository-relative) looks like a secret.
pub fn is_secret_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_lowercase();
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

fn patterns() -> &'static [Regex] {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    RES.get_or_init(|| {
        TOKEN_PATTERNS
            .iter()
            .filter_map(|p| Regex::new(p).ok())
            .collect()
    })
}

/// Replaces every credential-looking token of `text`.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out = std::borrow::Cow::Borrowed(text);
    for (i, re) in patterns().iter().enumerate() {
        if re.is_match(&out) {
            // The key=value rule keeps the key so the model still knows
            // a setting is there.
            let replaced = if i + 1 == TOKEN_PATTERNS.len() {
                re.replace_all(&out, format!("${{1}}${{2}}{REDACTED}").as_str())
                    .into_owned()
            } else {
                re.replace_all(&out, REDACTED).into_owned()
            };
            out = std::borrow::Cow::Owned(replaced);
        }
    }
    out
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
