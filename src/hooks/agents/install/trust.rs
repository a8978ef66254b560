//! Whether an agent will run the hook we installed. An installed hook is
//! not yet a running one: Codex CLI runs a hook only once the user trusted
//! that exact hook (and, for a project's `.codex/`, the project), and skips
//! it silently otherwise; Gemini CLI runs a project's hooks only in a
//! trusted folder; Copilot CLI's `-p` loads a repository's hooks only
//! where told to. Each check reads the agent's own files the way the
//! agent does, and says exactly what to run. Reads only.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::super::spec::Agent;
use super::json::{self, Node};
use super::{Scope, Status};

/// How a finding stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The agent runs the hook.
    Ok,
    /// Worth knowing; depends on how the agent is started.
    Info,
    /// The agent does not run the hook (or lets tools through when it breaks).
    Warn,
}

/// One thing to know about an installed hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The agent.
    pub agent: Agent,
    /// How it stands.
    pub level: Level,
    /// What was found.
    pub detail: String,
    /// What to run or do.
    pub fix: Option<String>,
}

/// The environment as the agent would see it (a lookup, so tests can give
/// their own).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process's own environment.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn finding(agent: Agent, level: Level, detail: impl Into<String>, fix: Option<String>) -> Finding {
    Finding {
        agent,
        level,
        detail: detail.into(),
        fix,
    }
}

/// The `hooks install` command line for `agent` in `scope`.
fn install_line(agent: Agent, scope: Scope) -> String {
    let scope = match scope {
        Scope::Project => "",
        Scope::User => " --scope user",
    };
    format!("git fararoni hooks install --agent {}{scope}", agent.name())
}

/// Everything to know about `agent`'s installed hook (`st`, from
/// [`super::status`]) beyond its being in the file: an older command that
/// fails open, and the agent's own trust. `tops`: the project's top as the
/// agent may name it (lexical and resolved; the first is shown).
pub fn findings(st: &Status, scope: Scope, tops: &[PathBuf], env: Env) -> Vec<Finding> {
    let agent = st.agent;
    let mut out = Vec::new();
    if st.installed.is_empty() {
        return out;
    }
    if !st.outdated.is_empty() {
        let fails_open = super::wrapper::row(agent).is_some();
        out.push(finding(
            agent,
            Level::Warn,
            format!(
                "{} runs an older command of ours{}",
                st.outdated.join(", "),
                if fails_open {
                    " that fails open: a missing, crashed or hung git-fararoni lets the tool run"
                } else {
                    ""
                }
            ),
            Some(install_line(agent, scope)),
        ));
    }
    match agent {
        Agent::Codex => out.extend(codex(st, scope, tops, env)),
        Agent::Gemini if scope == Scope::Project => {
            if let Some(top) = tops.first() {
                out.push(gemini(top, env));
            }
        }
        Agent::Copilot if scope == Scope::Project => out.push(copilot(env)),
        _ => {}
    }
    out
}

// ───────────────────────────── Codex ─────────────────────────────

/// Codex's verdict on one hook handler (its `hooks.state` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookTrust {
    /// `trusted_hash` is the handler's current hash: Codex runs it.
    Trusted,
    /// Trusted once, changed since: Codex asks for a review, skips it meanwhile.
    Modified,
    /// Never trusted: skipped (silently by `codex exec`).
    Untrusted,
    /// `enabled = false`: switched off by the user.
    Disabled,
}

/// Writes `v` as canonical JSON: keys sorted (by bytes) at every level,
/// no spaces, strings escaped as serde_json escapes them — what Codex
/// hashes (serde_json over a `BTreeMap`-backed value), independent of
/// whether this crate's serde_json keeps insertion order.
fn canonical(v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::Object(m) => {
            let sorted: BTreeMap<&String, &serde_json::Value> = m.iter().collect();
            out.push('{');
            for (i, (k, v)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(k.clone()).to_string());
                out.push(':');
                canonical(v, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// One command handler of a Codex hooks file, as Codex normalises it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexHandler {
    /// The command line.
    pub command: String,
    /// Seconds (absent: 600; at least 1).
    pub timeout: Option<u64>,
    /// Whether it runs without waiting.
    pub is_async: bool,
    /// The status line shown while it runs.
    pub status_message: Option<String>,
}

/// The hash Codex compares with `trusted_hash`: `sha256:` and the hex
/// SHA-256 of the canonical JSON of `{event_name, hooks: [handler],
/// matcher?}` (codex-rs/hooks, engine/discovery.rs; `commandWindows` is not
/// part of it).
pub fn codex_hash(event_snake: &str, matcher: Option<&str>, h: &CodexHandler) -> String {
    use sha2::Digest as _;
    let mut handler = serde_json::json!({
        "type": "command",
        "command": h.command,
        "timeout": h.timeout.unwrap_or(600).max(1),
        "async": h.is_async,
    });
    if let Some(s) = &h.status_message {
        handler["statusMessage"] = serde_json::Value::String(s.clone());
    }
    let mut identity = serde_json::json!({ "event_name": event_snake, "hooks": [handler] });
    if let Some(m) = matcher {
        identity["matcher"] = serde_json::Value::String(m.to_string());
    }
    let mut text = String::new();
    canonical(&identity, &mut text);
    let digest = sha2::Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `PreToolUse` → `pre_tool_use`, as Codex names events in its keys.
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// One of our handlers in a Codex hooks file, with what Codex knows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexHook {
    /// The key of its `hooks.state` entry (with the first spelling of the file's path).
    pub key: String,
    /// The hash Codex expects in `trusted_hash`.
    pub hash: String,
    /// Codex's verdict.
    pub trust: HookTrust,
}

/// Codex's trust of our handlers in `file` (a `hooks.json`), read from
/// `config` (its `config.toml`). `files`: the spellings of the file's path
/// Codex may have used in its keys (it does not resolve symlinks).
pub fn codex_hooks(files: &[PathBuf], text: &str, config: &toml::Table) -> Vec<CodexHook> {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let state = config
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(toml::Value::as_table);
    let mut out = Vec::new();
    let Some(events) = doc.get("hooks").and_then(serde_json::Value::as_object) else {
        return out;
    };
    for (event, groups) in events {
        let ev = snake(event);
        for (gi, group) in groups.as_array().into_iter().flatten().enumerate() {
            let matcher = group.get("matcher").and_then(serde_json::Value::as_str);
            let handlers = group.get("hooks").and_then(serde_json::Value::as_array);
            for (hi, h) in handlers.into_iter().flatten().enumerate() {
                let Some(command) = h.get("command").and_then(serde_json::Value::as_str) else {
                    continue;
                };
                if !super::is_ours(command) {
                    continue;
                }
                let handler = CodexHandler {
                    command: command.to_string(),
                    timeout: h
                        .get("timeout")
                        .or_else(|| h.get("timeoutSec"))
                        .and_then(serde_json::Value::as_u64),
                    is_async: h
                        .get("async")
                        .and_then(serde_json::Value::as_bool)
                        .unwrap_or(false),
                    status_message: h
                        .get("statusMessage")
                        .and_then(serde_json::Value::as_str)
                        .map(str::to_string),
                };
                let hash = codex_hash(&ev, matcher, &handler);
                let keys: Vec<String> = files
                    .iter()
                    .map(|f| format!("{}:{ev}:{gi}:{hi}", f.display()))
                    .collect();
                let entries: Vec<&toml::Value> = keys
                    .iter()
                    .filter_map(|k| state.and_then(|s| s.get(k)))
                    .collect();
                let trust = if entries
                    .iter()
                    .any(|e| e.get("enabled").and_then(toml::Value::as_bool) == Some(false))
                {
                    HookTrust::Disabled
                } else if entries
                    .iter()
                    .any(|e| e.get("trusted_hash").and_then(toml::Value::as_str) == Some(&hash))
                {
                    HookTrust::Trusted
                } else if entries.iter().any(|e| e.get("trusted_hash").is_some()) {
                    HookTrust::Modified
                } else {
                    HookTrust::Untrusted
                };
                out.push(CodexHook {
                    key: keys.first().cloned().unwrap_or_default(),
                    hash,
                    trust,
                });
            }
        }
    }
    out
}

/// Whether `config` trusts a project at any of `tops`.
pub fn codex_project_trusted(config: &toml::Table, tops: &[PathBuf]) -> bool {
    let Some(projects) = config.get("projects").and_then(toml::Value::as_table) else {
        return false;
    };
    tops.iter().any(|t| {
        projects
            .get(&t.to_string_lossy().into_owned())
            .and_then(|p| p.get("trust_level"))
            .and_then(toml::Value::as_str)
            == Some("trusted")
    })
}

/// Codex's home: `CODEX_HOME`, else `~/.codex`.
fn codex_home(env: Env) -> Option<PathBuf> {
    env("CODEX_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| Path::new(&h).join(".codex")))
}

const CODEX_TRUST_FIX: &str = "start `codex` in this repository and choose \"Trust all and continue\" under \"Hooks need review\" (or run `/hooks` and trust `git-fararoni guard hook`); in scripts, `codex exec --dangerously-bypass-hook-trust`";

fn codex(st: &Status, scope: Scope, tops: &[PathBuf], env: Env) -> Vec<Finding> {
    let a = Agent::Codex;
    let Some(home) = codex_home(env) else {
        return vec![finding(
            a,
            Level::Warn,
            "cannot tell whether Codex trusts the hook (no CODEX_HOME or HOME)",
            None,
        )];
    };
    let config_path = home.join("config.toml");
    let config = match std::fs::read_to_string(&config_path) {
        Ok(t) => match toml::from_str::<toml::Table>(&t) {
            Ok(c) => c,
            Err(e) => {
                return vec![finding(
                    a,
                    Level::Warn,
                    format!(
                        "`{}` is not valid TOML ({})",
                        config_path.display(),
                        e.message()
                    ),
                    Some("fix the file; Codex cannot read it either".into()),
                )]
            }
        },
        Err(_) => toml::Table::new(),
    };
    let Ok(text) = std::fs::read_to_string(&st.path) else {
        return Vec::new();
    };
    // The spellings of the hooks file's path Codex may use.
    let mut files: Vec<PathBuf> = match scope {
        Scope::Project => tops
            .iter()
            .map(|t| t.join(".codex").join("hooks.json"))
            .collect(),
        Scope::User => vec![st.path.clone()],
    };
    if let Ok(real) = std::fs::canonicalize(&st.path) {
        files.push(real);
    }
    files.dedup();
    let hooks = codex_hooks(&files, &text, &config);
    let mut out = Vec::new();
    if hooks.is_empty() {
        out.push(finding(
            a,
            Level::Warn,
            format!("`{}` is not JSON Codex can read", st.path.display()),
            Some(install_line(a, scope)),
        ));
        return out;
    }
    let worst = |t: HookTrust| hooks.iter().filter(|h| h.trust == t).count();
    let where_ = format!("`{}`", config_path.display());
    if worst(HookTrust::Disabled) > 0 {
        out.push(finding(
            a,
            Level::Warn,
            format!("the guard hook is switched off in Codex (`enabled = false` in {where_})"),
            Some("run `/hooks` in `codex` and enable `git-fararoni guard hook`".into()),
        ));
    } else if worst(HookTrust::Modified) > 0 {
        out.push(finding(
            a,
            Level::Warn,
            "Codex will not run the guard: the hook changed since it was trusted (Codex shows it as modified and skips it)",
            Some(format!("re-trust it: {CODEX_TRUST_FIX}")),
        ));
    } else if worst(HookTrust::Untrusted) > 0 {
        out.push(finding(
            a,
            Level::Warn,
            "Codex will not run the guard until you trust the hook (`codex exec` skips it without a word)",
            Some(CODEX_TRUST_FIX.to_string()),
        ));
    } else {
        out.push(finding(
            a,
            Level::Ok,
            format!("Codex trusts the guard hook ({where_})"),
            None,
        ));
    }
    if scope == Scope::Project && !codex_project_trusted(&config, tops) {
        let top = tops
            .first()
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        out.push(finding(
            a,
            Level::Warn,
            "Codex does not trust this project, so it reads none of its `.codex/` (the guard hook included)",
            Some(format!(
                "trust the project: answer Codex's trust prompt in `codex`, or `codex exec --trust`, or add `[projects.\"{top}\"]` `trust_level = \"trusted\"` to {where_}"
            )),
        ));
    }
    out
}

// ───────────────────────────── Gemini ─────────────────────────────

/// Gemini CLI's verdict on a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderTrust {
    /// Trusted, and why.
    Trusted(String),
    /// Not trusted, and why.
    Untrusted(String),
    /// No rule covers it: Gemini asks interactively, refuses `-p` (exit 55).
    Unknown,
    /// A file Gemini must read is broken: it refuses to start.
    Invalid(String),
}

/// Reads a JSON file Gemini reads (comments allowed); `Ok(None)` when absent.
fn read_jsonc(path: &Path) -> Result<Option<Node>, String> {
    match std::fs::read_to_string(path) {
        Ok(t) => json::parse(&t)
            .map(Some)
            .map_err(|e| format!("`{}` is not valid JSON ({e})", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "`{}` cannot be read ({})",
            path.display(),
            e.kind()
        )),
    }
}

/// `security.folderTrust.enabled` of a settings file, when set.
fn folder_trust_setting(path: &Path) -> Option<bool> {
    let node = read_jsonc(path).ok()??;
    let v = node.get("security")?.get("folderTrust")?.get("enabled")?;
    let (s, e) = v.span();
    let text = std::fs::read_to_string(path).ok()?;
    match text.get(s..e)? {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Gemini's home folder: `GEMINI_CLI_HOME`, else `HOME`.
fn gemini_home(env: Env) -> Option<PathBuf> {
    env("GEMINI_CLI_HOME")
        .filter(|h| !h.is_empty())
        .or_else(|| env("HOME"))
        .map(PathBuf::from)
}

/// The system settings file Gemini reads.
fn gemini_system_settings(env: Env) -> PathBuf {
    if let Some(p) = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    if cfg!(target_os = "macos") {
        PathBuf::from("/Library/Application Support/GeminiCli/settings.json")
    } else {
        PathBuf::from("/etc/gemini-cli/settings.json")
    }
}

fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Gemini CLI's trust of `folder` (its `checkPathTrust`, in order): the
/// environment; folder trust switched off in the settings; the rules of
/// `trustedFolders.json`, the longest rule path covering the folder
/// winning (`TRUST_PARENT` covers its parent's tree).
pub fn gemini_folder(folder: &Path, env: Env) -> FolderTrust {
    if env("GEMINI_RESTRICTED_MODE").as_deref() == Some("true") {
        return FolderTrust::Untrusted("GEMINI_RESTRICTED_MODE=true is set".into());
    }
    match env("GEMINI_CLI_TRUST_WORKSPACE").as_deref() {
        Some("false") => {
            return FolderTrust::Untrusted("GEMINI_CLI_TRUST_WORKSPACE=false is set".into())
        }
        Some("true") => return FolderTrust::Trusted("GEMINI_CLI_TRUST_WORKSPACE=true".into()),
        _ => {}
    }
    let home = gemini_home(env);
    let user_settings = home
        .as_ref()
        .map(|h| h.join(".gemini").join("settings.json"));
    let system = folder_trust_setting(&gemini_system_settings(env));
    let user = user_settings.as_deref().and_then(folder_trust_setting);
    if system.or(user) == Some(false) {
        return FolderTrust::Trusted("folder trust is switched off in Gemini's settings".into());
    }
    let file = match env("GEMINI_CLI_TRUSTED_FOLDERS_PATH").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => match &home {
            Some(h) => h.join(".gemini").join("trustedFolders.json"),
            None => return FolderTrust::Unknown,
        },
    };
    let rules = match read_jsonc(&file) {
        Ok(Some(Node::Object { members, .. })) => members,
        Ok(Some(_)) => {
            return FolderTrust::Invalid(format!("`{}` is not a JSON object", file.display()))
        }
        Ok(None) => return FolderTrust::Unknown,
        Err(e) => return FolderTrust::Invalid(e),
    };
    let here = real(folder);
    let mut best: Option<(usize, &str, &str)> = None;
    for m in &rules {
        let Some(level) = m.value.as_str() else {
            continue;
        };
        let rule = Path::new(&m.key);
        let covered = match level {
            "TRUST_FOLDER" | "DO_NOT_TRUST" => rule,
            "TRUST_PARENT" => rule.parent().unwrap_or(rule),
            _ => continue,
        };
        let len = m.key.encode_utf16().count();
        if here.starts_with(real(covered)) && best.is_none_or(|(l, _, _)| len > l) {
            best = Some((len, m.key.as_str(), level));
        }
    }
    match best {
        Some((_, rule, "DO_NOT_TRUST")) => {
            FolderTrust::Untrusted(format!("`{rule}` is DO_NOT_TRUST in `{}`", file.display()))
        }
        Some((_, rule, level)) => {
            FolderTrust::Trusted(format!("`{rule}` is {level} in `{}`", file.display()))
        }
        None => FolderTrust::Unknown,
    }
}

const GEMINI_TRUST_FIX: &str = "open `gemini` here and accept the trust dialog (it writes ~/.gemini/trustedFolders.json), or set GEMINI_CLI_TRUST_WORKSPACE=true; not `--skip-trust`: with it Gemini loads none of the project's settings, the guard hook included, without a word";

fn gemini(top: &Path, env: Env) -> Finding {
    let a = Agent::Gemini;
    match gemini_folder(top, env) {
        FolderTrust::Trusted(why) => finding(a, Level::Ok, format!("Gemini trusts this folder ({why})"), None),
        FolderTrust::Untrusted(why) => finding(
            a,
            Level::Warn,
            format!("Gemini does not trust this folder ({why}), so it runs none of the project's hooks"),
            Some(GEMINI_TRUST_FIX.into()),
        ),
        FolderTrust::Unknown => finding(
            a,
            Level::Warn,
            "Gemini has not been told to trust this folder: it runs the project's hooks only in a trusted folder (`gemini -p` refuses to start)",
            Some(GEMINI_TRUST_FIX.into()),
        ),
        FolderTrust::Invalid(why) => finding(
            a,
            Level::Warn,
            format!("{why}: Gemini refuses to start"),
            Some("fix the file".into()),
        ),
    }
}

// ───────────────────────────── Copilot ─────────────────────────────

/// The variables that make Copilot CLI's `-p` load a repository's hooks.
const COPILOT_REPO_HOOKS: &[(&str, &str)] = &[
    ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"),
    ("COPILOT_ALLOW_ALL", ""),
];

fn copilot(env: Env) -> Finding {
    let a = Agent::Copilot;
    let set = COPILOT_REPO_HOOKS
        .iter()
        .find(|(k, want)| env(k).is_some_and(|v| !v.is_empty() && (want.is_empty() || v == *want)));
    match set {
        Some((k, _)) => finding(a, Level::Ok, format!("{k} is set: `copilot -p` loads this repository's hooks"), None),
        None => finding(
            a,
            Level::Info,
            "`copilot -p` loads a repository's hooks only in a folder you trusted in Copilot",
            Some("trust the folder when `copilot` asks, or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true for `-p` runs".into()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handler(command: &str) -> CodexHandler {
        CodexHandler {
            command: command.into(),
            timeout: Some(30),
            is_async: false,
            status_message: None,
        }
    }

    #[test]
    fn codex_hash_matches_what_codex_writes() {
        // Test vectors: the identity of the plain command, hashed by Codex
        // 0.171.0's own "Trust all".
        let m = Some("Bash|shell|local_shell|exec_command|unified_exec|apply_patch");
        let h = handler("git fararoni guard hook --agent codex");
        assert_eq!(
            codex_hash("pre_tool_use", m, &h),
            "sha256:1ae97ff954ffa7fb29f9aa0d9c74f7b80b76c1ad4d8d557c3476e535a1d4adcd"
        );
        assert_eq!(
            codex_hash("post_tool_use", m, &h),
            "sha256:8b8244f0e006eceed2a01328ce6388edfc64c1390d581d4b762e0661180939f2"
        );
        // The fail-closed wrapper as installed now: what Codex 0.171.0's
        // own "Trust all" wrote for it. A change to the wrapper changes
        // this, and every Codex user must trust the hook again.
        let wrapped = handler(&super::super::pre_command(Agent::Codex));
        assert_eq!(
            codex_hash("pre_tool_use", m, &wrapped),
            "sha256:46d13bb396417f3c15d0b20e687d8c156c1420d288455cd1495f07bb7a55cd29"
        );
        // The canonical text itself.
        let mut text = String::new();
        canonical(
            &serde_json::json!({"matcher": "x", "event_name": "e", "hooks": [{"type": "command", "async": false, "command": "a\"b\\c", "timeout": 1}]}),
            &mut text,
        );
        assert_eq!(
            text,
            r#"{"event_name":"e","hooks":[{"async":false,"command":"a\"b\\c","timeout":1,"type":"command"}],"matcher":"x"}"#
        );
        // Absent timeout is 600, a zero one 1, no matcher no key.
        let mut h0 = handler("c");
        h0.timeout = None;
        let mut h600 = handler("c");
        h600.timeout = Some(600);
        assert_eq!(codex_hash("e", None, &h0), codex_hash("e", None, &h600));
        let mut z = handler("c");
        z.timeout = Some(0);
        let mut one = handler("c");
        one.timeout = Some(1);
        assert_eq!(codex_hash("e", None, &z), codex_hash("e", None, &one));
        assert_ne!(codex_hash("e", None, &one), codex_hash("e", Some(""), &one));
        assert_eq!(snake("PreToolUse"), "pre_tool_use");
    }

    #[test]
    fn codex_trust_states_from_the_config() {
        let file = PathBuf::from("/r/.codex/hooks.json");
        let hooks = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}],
            "PreToolUse":[{"matcher":"M","hooks":[{"type":"command","command":"x"},{"type":"command","command":"git fararoni guard hook --agent codex","timeout":30}]}]}}"#;
        let hash = codex_hash(
            "pre_tool_use",
            Some("M"),
            &handler("git fararoni guard hook --agent codex"),
        );
        let key = "/r/.codex/hooks.json:pre_tool_use:0:1";
        let cfg = |extra: &str| -> toml::Table {
            toml::from_str(&format!(
                "[projects.\"/r\"]\ntrust_level = \"trusted\"\n{extra}"
            ))
            .expect("toml")
        };
        let trust = |c: &toml::Table| {
            let h = codex_hooks(std::slice::from_ref(&file), hooks, c);
            assert_eq!(h.len(), 1, "only ours: {h:?}");
            assert_eq!(h[0].key, key);
            h[0].trust
        };
        assert_eq!(trust(&cfg("")), HookTrust::Untrusted);
        let c = cfg(&format!(
            "[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"
        ));
        assert_eq!(trust(&c), HookTrust::Trusted);
        let c = cfg(&format!(
            "[hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:00\"\n"
        ));
        assert_eq!(trust(&c), HookTrust::Modified);
        let c = cfg(&format!(
            "[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\nenabled = false\n"
        ));
        assert_eq!(trust(&c), HookTrust::Disabled);
        // The entry of another index is not ours.
        let c = cfg(&format!(
            "[hooks.state.\"/r/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"{hash}\"\n"
        ));
        assert_eq!(trust(&c), HookTrust::Untrusted);
        assert!(codex_project_trusted(&cfg(""), &[PathBuf::from("/r")]));
        assert!(!codex_project_trusted(&cfg(""), &[PathBuf::from("/r/sub")]));
        let c: toml::Table =
            toml::from_str("[projects.\"/r\"]\ntrust_level = \"untrusted\"\n").expect("toml");
        assert!(!codex_project_trusted(&c, &[PathBuf::from("/r")]));
    }

    #[test]
    fn gemini_folder_trust_follows_the_longest_rule() {
        let tmp = tempfile::tempdir().expect("tmp");
        let home = tmp.path().join("home");
        let repo = tmp.path().join("work").join("repo");
        std::fs::create_dir_all(home.join(".gemini")).expect("mkdir");
        std::fs::create_dir_all(&repo).expect("mkdir");
        let vars: std::cell::RefCell<BTreeMap<String, String>> = Default::default();
        vars.borrow_mut()
            .insert("HOME".into(), home.display().to_string());
        vars.borrow_mut().insert(
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH".into(),
            tmp.path().join("none.json").display().to_string(),
        );
        let env = |k: &str| vars.borrow().get(k).cloned();
        let rules = |text: &str| {
            std::fs::write(home.join(".gemini/trustedFolders.json"), text).expect("write")
        };
        assert_eq!(gemini_folder(&repo, &env), FolderTrust::Unknown);
        let work = tmp.path().join("work");
        rules(&format!("{{\"{}\": \"TRUST_FOLDER\"}}", repo.display()));
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Trusted(_)
        ));
        // The longer rule wins, in either order.
        rules(&format!(
            "{{\n // mine\n \"{}\": \"TRUST_FOLDER\",\n \"{}\": \"DO_NOT_TRUST\"}}",
            work.display(),
            repo.display()
        ));
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Untrusted(_)
        ));
        rules(&format!(
            "{{\"{}\": \"DO_NOT_TRUST\", \"{}\": \"TRUST_FOLDER\"}}",
            work.display(),
            repo.display()
        ));
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Trusted(_)
        ));
        // TRUST_PARENT covers the parent's tree; a sibling's rule nothing.
        rules(&format!(
            "{{\"{}\": \"TRUST_PARENT\"}}",
            work.join("other").display()
        ));
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Trusted(_)
        ));
        rules(&format!(
            "{{\"{}\": \"TRUST_FOLDER\"}}",
            work.join("repo2").display()
        ));
        assert_eq!(gemini_folder(&repo, &env), FolderTrust::Unknown);
        rules("{ not json");
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Invalid(_)
        ));
        // Settings and environment come first.
        std::fs::write(
            home.join(".gemini/settings.json"),
            "{\"security\": {\"folderTrust\": {\"enabled\": false}}}",
        )
        .expect("write");
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Trusted(_)
        ));
        vars.borrow_mut()
            .insert("GEMINI_CLI_TRUST_WORKSPACE".into(), "false".into());
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Untrusted(_)
        ));
        vars.borrow_mut()
            .insert("GEMINI_CLI_TRUST_WORKSPACE".into(), "true".into());
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Trusted(_)
        ));
        vars.borrow_mut()
            .insert("GEMINI_RESTRICTED_MODE".into(), "true".into());
        assert!(matches!(
            gemini_folder(&repo, &env),
            FolderTrust::Untrusted(_)
        ));
    }
}
