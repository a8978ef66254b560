//! Files no agent's file tool may write, beyond what the store already
//! refuses (git dir, hooks folder, `.fararoni/`): the agents' own hook
//! settings — a model that can edit them can switch its guard off. Matched
//! by name at any depth, case-folded, as data.

/// A protected place: a sequence of path components (case-folded), where
/// the last one may be a prefix (`settings` matches `settings.local.json`).
struct Protected {
    /// Components, lowercase.
    parts: &'static [&'static str],
    /// Whether anything below the last component is protected too.
    subtree: bool,
    /// Whether the last component is matched as a prefix.
    prefix: bool,
    /// What it is, for the message.
    what: &'static str,
}

const PROTECTED: &[Protected] = &[
    Protected {
        parts: &[".claude", "settings"],
        subtree: false,
        prefix: true,
        what: "Claude Code's hook settings",
    },
    Protected {
        parts: &[".gemini", "settings.json"],
        subtree: false,
        prefix: false,
        what: "Gemini CLI's hook settings",
    },
    Protected {
        parts: &[".codex"],
        subtree: true,
        prefix: false,
        what: "Codex CLI's settings and hooks",
    },
    Protected {
        parts: &[".cursor", "hooks.json"],
        subtree: false,
        prefix: false,
        what: "Cursor's hook settings",
    },
    Protected {
        parts: &[".cursor", "hooks"],
        subtree: true,
        prefix: false,
        what: "Cursor's hook scripts",
    },
    Protected {
        parts: &[".clinerules", "hooks"],
        subtree: true,
        prefix: false,
        what: "Cline's hooks",
    },
    Protected {
        parts: &["cline", "rules", "hooks"],
        subtree: true,
        prefix: false,
        what: "Cline's global hooks",
    },
    Protected {
        parts: &["cline", "hooks"],
        subtree: true,
        prefix: false,
        what: "Cline's global hooks",
    },
    Protected {
        parts: &[".github", "hooks"],
        subtree: true,
        prefix: false,
        what: "Copilot's hook settings",
    },
    Protected {
        parts: &[".copilot", "hooks"],
        subtree: true,
        prefix: false,
        what: "Copilot's hook settings",
    },
    Protected {
        parts: &[".copilot", "config.json"],
        subtree: false,
        prefix: false,
        what: "Copilot's settings",
    },
];

/// Returns the folders, relative to a working tree's top, that hold some
/// agent's project hook settings (`.claude`, `.codex`, `.github/hooks`…):
/// what a contained command may not write even where the folder does not
/// exist yet. Derived from the same table.
pub fn settings_folders() -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    for p in PROTECTED.iter().filter(|p| p.parts[0].starts_with('.')) {
        // A folder of its own (`.claude`) is protected whole; a shared
        // one (`.github`) only down to the hooks' folder.
        let depth = if p.parts[0] == ".github" { 2 } else { 1 };
        let folder: std::path::PathBuf = p.parts[..depth.min(p.parts.len())].iter().collect();
        if !out.contains(&folder) {
            out.push(folder);
        }
    }
    out
}

/// Folds a name as a lenient file system compares it: lowercase, trailing
/// dots and spaces dropped.
fn fold(name: &str) -> String {
    name.to_lowercase().trim_end_matches(['.', ' ']).to_string()
}

/// Returns what `path` is when it is an agent's hook settings (any depth).
pub fn hook_settings(path: &std::path::Path) -> Option<&'static str> {
    let names: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(fold(&n.to_string_lossy())),
            _ => None,
        })
        .collect();
    for p in PROTECTED {
        let k = p.parts.len();
        for start in 0..names.len() {
            if start + k > names.len() {
                break;
            }
            let window = &names[start..start + k];
            let head_ok = window[..k - 1].iter().zip(p.parts).all(|(a, b)| a == b);
            let last = &window[k - 1];
            let last_ok = if p.prefix {
                last.starts_with(p.parts[k - 1])
            } else {
                last == p.parts[k - 1]
            };
            let ends = start + k == names.len();
            if head_ok && last_ok && (ends || p.subtree) {
                return Some(p.what);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn hook_settings_at_any_depth_and_case() {
        for p in [
            "/r/.claude/settings.json",
            "/r/.claude/settings.local.json",
            "/r/.CLAUDE/Settings.JSON",
            "/r/sub/.gemini/settings.json",
            "/r/.codex/hooks.json",
            "/r/.codex/config.toml",
            "/r/.cursor/hooks.json",
            "/r/.clinerules/hooks/PreToolUse",
            "/r/.github/hooks/fararoni.json",
            "/home/u/Documents/Cline/Rules/Hooks/PreToolUse",
            "/r/.claude/settings.json.",
        ] {
            assert!(hook_settings(Path::new(p)).is_some(), "{p}");
        }
        for p in [
            "/r/src/settings.json",
            "/r/.claude/commands/x.md",
            "/r/.github/workflows/ci.yml",
            "/r/.gemini/notes.md",
        ] {
            assert!(hook_settings(Path::new(p)).is_none(), "{p}");
        }
    }
}
