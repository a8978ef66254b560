//! macOS: the same rules as a `sandbox-exec` (Seatbelt) profile.
//!
//! UNTESTED: this project has no macOS machine; the profile text is unit
//! tested for its shape only, and the command built from it has never run.
//! Known gaps against Linux's Full level: no PID namespace (processes left
//! behind are not killed by this module; the caller must kill the process
//! group), and `sandbox-exec` is deprecated by Apple though still shipped.
//!
//! The profile language takes the last matching rule, so the read-only
//! denials come after the writable allowances.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Policy;

/// Quotes a path as a Seatbelt string literal.
fn quote(p: &Path) -> String {
    let mut s = String::from("\"");
    for c in p.to_string_lossy().chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            _ => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Returns the `sandbox-exec -p` profile for `policy`, with `writable` the
/// canonical temp dir and caches (from [`super::policy::resolve`]).
pub fn profile(policy: &Policy, writable: &[PathBuf]) -> String {
    let mut p =
        String::from("(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n");
    for w in std::iter::once(&policy.worktree)
        .chain(writable)
        .chain(&policy.writable)
    {
        let _ = writeln!(p, "  (subpath {})", quote(w));
    }
    p.push_str("  (literal \"/dev/null\") (literal \"/dev/tty\") (literal \"/dev/ptmx\")\n");
    p.push_str("  (regex #\"^/dev/ttys[0-9]+$\"))\n");
    if !policy.protected.is_empty() {
        p.push_str("(deny file-write*\n");
        for r in &policy.protected {
            // `literal` denies writing the name (rename, unlink, create),
            // `subpath` everything beneath it.
            let _ = writeln!(p, "  (literal {0}) (subpath {0})", quote(r));
        }
        p.push_str(")\n");
    }
    if !policy.network {
        p.push_str("(deny network*)\n(allow network* (local ip \"localhost:*\") (remote ip \"localhost:*\"))\n");
    }
    p
}

/// Returns the `sandbox-exec` command running `argv` under `policy`.
#[cfg(target_os = "macos")]
pub fn command(policy: &Policy, argv: &[std::ffi::OsString]) -> std::process::Command {
    let writable: Vec<PathBuf> = super::policy::resolve(&|k| std::env::var_os(k))
        .into_iter()
        .filter_map(|w| w.path.canonicalize().ok())
        .collect();
    let mut c = std::process::Command::new("/usr/bin/sandbox-exec");
    c.arg("-p").arg(profile(policy, &writable)).args(argv);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_macos_profile_denies_protected_after_allowing_the_worktree() {
        let policy = Policy {
            worktree: PathBuf::from("/w/re\"po"),
            protected: vec![PathBuf::from("/w/re\"po/.git")],
            writable: vec![PathBuf::from("/opt/x")],
            network: false,
        };
        let p = profile(&policy, &[PathBuf::from("/private/tmp")]);
        let allow = p
            .find("(subpath \"/w/re\\\"po\")")
            .expect("worktree allowed, quote escaped");
        let deny = p
            .find("(literal \"/w/re\\\"po/.git\")")
            .expect("git dir denied");
        assert!(allow < deny, "the denial must come last:\n{p}");
        assert!(p.contains("(subpath \"/private/tmp\")") && p.contains("(subpath \"/opt/x\")"));
        assert!(p.contains("(deny network*)"), "{p}");
        let open = p.matches('(').count();
        assert_eq!(open, p.matches(')').count(), "balanced:\n{p}");
    }
}
