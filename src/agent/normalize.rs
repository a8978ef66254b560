//! Tool-name and argument-key normalization: the names models actually
//! use (`ReadFile`, `str_replace`, `Bash`, …) and their argument keys
//! (`file_path`, `old_string`, `cmd`, …) mapped onto the canonical tools,
//! as tables. Every change is reported as a [`Repair`] the loop logs.
//!
//! Names are compared "squashed": lowercase, without `_`, `-`, `.`, spaces,
//! and without namespace prefixes (`functions.`, `default_api.`), so
//! `read_file`, `ReadFile` and `read-file` are one entry. An unknown name is
//! matched by edit distance only when exactly one tool is close.

use serde_json::{Map, Value};

/// The canonical tools, in the order they are offered (one list:
/// [`super::tools::TOOL_NAMES`]).
pub const TOOLS: &[&str] = super::tools::TOOL_NAMES;

/// Other names for each tool (squashed), as models trained on other
/// agents write them.
const NAME_ALIASES: &[(&str, &[&str])] = &[
    (
        "fs_read",
        &[
            "read",
            "readfile",
            "fileread",
            "cat",
            "view",
            "viewfile",
            "openfile",
            "getfilecontents",
            "readfilecontents",
        ],
    ),
    (
        "fs_write",
        &[
            "write",
            "writefile",
            "filewrite",
            "createfile",
            "writetofile",
            "savefile",
            "create",
            "newfile",
        ],
    ),
    (
        "fs_patch",
        &[
            "edit",
            "editfile",
            "fileedit",
            "strreplace",
            "replace",
            "replaceinfile",
            "patch",
            "patchfile",
            "searchreplace",
            "searchandreplace",
            "modifyfile",
        ],
    ),
    (
        "fs_list",
        &[
            "ls",
            "list",
            "listfiles",
            "listdir",
            "listdirectory",
            "readdir",
            "dir",
        ],
    ),
    (
        "fs_search",
        &[
            "grep",
            "search",
            "filesearch",
            "searchfiles",
            "searchcode",
            "codesearch",
            "grepsearch",
            "rg",
            "ripgrep",
        ],
    ),
    (
        "fs_glob",
        &["glob", "findfiles", "filefind", "globfiles", "filefinder"],
    ),
    (
        "ShellCommand",
        &[
            "bash",
            "shell",
            "sh",
            "shellexecute",
            "executeshell",
            "runcommand",
            "executecommand",
            "runshellcommand",
            "runterminalcmd",
            "terminal",
            "exec",
            "execute",
            "command",
            "cmd",
            "run",
        ],
    ),
    ("GitAction", &["git", "gitcommand", "rungit", "gitexec"]),
];

/// Namespace prefixes some formats put before the name (Harmony and Kimi
/// `functions.NAME`, Gemini `default_api.NAME`).
const PREFIXES: &[&str] = &["functions.", "function.", "default_api.", "tools.", "tool."];

/// Argument keys (squashed) and the canonical key they mean, per tool
/// (`*`: every tool).
const ARG_ALIASES: &[(&str, &[(&str, &str)])] = &[
    (
        "*",
        &[
            ("filepath", "path"),
            ("file", "path"),
            ("filename", "path"),
            ("absolutepath", "path"),
            ("targetfile", "path"),
            ("relativepath", "path"),
        ],
    ),
    (
        "fs_read",
        &[
            ("startline", "start"),
            ("linestart", "start"),
            ("fromline", "start"),
            ("endline", "end"),
            ("lineend", "end"),
            ("toline", "end"),
        ],
    ),
    (
        "fs_write",
        &[
            ("contents", "content"),
            ("text", "content"),
            ("filetext", "content"),
            ("data", "content"),
            ("body", "content"),
            ("code", "content"),
            ("filecontent", "content"),
        ],
    ),
    (
        "fs_patch",
        &[
            ("oldstring", "search"),
            ("oldstr", "search"),
            ("old", "search"),
            ("oldtext", "search"),
            ("find", "search"),
            ("original", "search"),
            ("newstring", "replace"),
            ("newstr", "replace"),
            ("new", "replace"),
            ("newtext", "replace"),
            ("replacement", "replace"),
            ("with", "replace"),
        ],
    ),
    (
        "fs_list",
        &[
            ("directory", "path"),
            ("dir", "path"),
            ("dirpath", "path"),
            ("folder", "path"),
            ("directorypath", "path"),
        ],
    ),
    (
        "fs_search",
        &[
            ("regex", "pattern"),
            ("query", "pattern"),
            ("search", "pattern"),
            ("searchterm", "pattern"),
            ("q", "pattern"),
            ("directory", "path"),
            ("dir", "path"),
        ],
    ),
    (
        "fs_glob",
        &[
            ("glob", "pattern"),
            ("globpattern", "pattern"),
            ("filepattern", "pattern"),
            ("query", "pattern"),
        ],
    ),
    (
        "ShellCommand",
        &[
            ("cmd", "command"),
            ("script", "command"),
            ("commandline", "command"),
            ("shellcommand", "command"),
            ("code", "command"),
        ],
    ),
    (
        "GitAction",
        &[
            ("arguments", "args"),
            ("command", "args"),
            ("cmd", "args"),
            ("subcommand", "args"),
            ("gitargs", "args"),
        ],
    ),
];

/// The largest edit distance at which an unknown name may still match:
/// 1 for names of up to [`SHORT_NAME`] characters (`push` is 2 from `bash`),
/// else 2.
const MAX_DISTANCE: usize = 2;
/// Names up to this long may differ by one edit only.
const SHORT_NAME: usize = 5;
/// Names shorter than this are never matched by distance (`ls`, `rg`…
/// are a distance of 2 from far too much).
const MIN_FUZZY_LEN: usize = 4;

/// What a repair changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepairKind {
    /// A tool name from the alias table.
    Name,
    /// A tool name matched by edit distance.
    NameByDistance,
    /// An argument key.
    ArgumentKey,
}

/// One change made to a model's call, for the session log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// What kind of change.
    pub kind: RepairKind,
    /// The tool concerned (canonical).
    pub tool: &'static str,
    /// What the model wrote.
    pub from: String,
    /// What it became.
    pub to: String,
}

impl std::fmt::Display for Repair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            RepairKind::Name => write!(f, "tool name `{}` → `{}`", self.from, self.to),
            RepairKind::NameByDistance => {
                write!(
                    f,
                    "tool name `{}` → `{}` (closest name)",
                    self.from, self.to
                )
            }
            RepairKind::ArgumentKey => {
                write!(
                    f,
                    "argument `{}` → `{}` of `{}`",
                    self.from, self.to, self.tool
                )
            }
        }
    }
}

/// A name that is no tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool `{name}`; the tools are: {}", TOOLS.join(", "))]
pub struct UnknownTool {
    /// The name the model used.
    pub name: String,
}

/// Lowercases and drops separators and namespace prefixes.
pub fn squash(name: &str) -> String {
    let mut n = name.trim();
    for p in PREFIXES {
        if n.len() > p.len()
            && n.get(..p.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(p))
        {
            n = &n[p.len()..];
        }
    }
    // Kimi numbers calls: `functions.fs_read:0`.
    let n = n.split(':').next().unwrap_or(n);
    n.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Returns the canonical tool of `name`, with the repair when it was not
/// already canonical.
pub fn normalize_name(name: &str) -> Result<(&'static str, Option<Repair>), UnknownTool> {
    if let Some(t) = TOOLS.iter().find(|t| **t == name) {
        return Ok((t, None));
    }
    let s = squash(name);
    let unknown = || UnknownTool {
        name: name.to_string(),
    };
    if s.is_empty() {
        return Err(unknown());
    }
    let repair = |tool: &'static str, kind| Repair {
        kind,
        tool,
        from: name.to_string(),
        to: tool.to_string(),
    };
    if let Some(t) = TOOLS.iter().find(|t| squash(t) == s) {
        return Ok((t, Some(repair(t, RepairKind::Name))));
    }
    if let Some((t, _)) = NAME_ALIASES
        .iter()
        .find(|(_, aliases)| aliases.contains(&s.as_str()))
    {
        let t = TOOLS.iter().find(|c| *c == t).ok_or_else(unknown)?;
        return Ok((t, Some(repair(t, RepairKind::Name))));
    }
    if s.chars().count() < MIN_FUZZY_LEN {
        return Err(unknown());
    }
    let reach = if s.chars().count() <= SHORT_NAME {
        1
    } else {
        MAX_DISTANCE
    };
    // Every tool within reach of the name, by its canonical name or an alias.
    let close: Vec<&'static str> = TOOLS
        .iter()
        .copied()
        .filter(|t| {
            let own = squash(t);
            let aliases = NAME_ALIASES
                .iter()
                .filter(|(c, _)| c == t)
                .flat_map(|(_, a)| a.iter().copied());
            std::iter::once(own.as_str())
                .chain(aliases)
                .filter(|cand| cand.chars().count() >= MIN_FUZZY_LEN)
                .any(|cand| strsim::levenshtein(cand, &s) <= reach)
        })
        .collect();
    match close.as_slice() {
        [t] => Ok((t, Some(repair(t, RepairKind::NameByDistance)))),
        _ => Err(unknown()),
    }
}

/// Renames argument keys of `tool` to its canonical ones. A key whose
/// canonical name is already present is left alone (the model said both).
pub fn normalize_arguments(tool: &'static str, args: Value) -> (Value, Vec<Repair>) {
    let Value::Object(map) = args else {
        return (args, Vec::new());
    };
    let table = |t: &'static str| {
        ARG_ALIASES
            .iter()
            .filter(move |(owner, _)| *owner == t)
            .flat_map(|(_, rows)| rows.iter())
    };
    let mut repairs = Vec::new();
    let mut out = Map::new();
    let keys: Vec<String> = map.keys().cloned().collect();
    for (k, v) in map {
        let s = squash(&k);
        let canonical = table(tool)
            .chain(table("*"))
            .find(|(alias, _)| *alias == s)
            .map(|(_, c)| *c);
        match canonical {
            Some(c) if c != k && !keys.iter().any(|o| o == c) && !out.contains_key(c) => {
                repairs.push(Repair {
                    kind: RepairKind::ArgumentKey,
                    tool,
                    from: k,
                    to: c.to_string(),
                });
                out.insert(c.to_string(), v);
            }
            _ => {
                out.insert(k, v);
            }
        }
    }
    (Value::Object(out), repairs)
}

/// Normalizes a whole call: its name, then its argument keys.
pub fn normalize_call(
    name: &str,
    args: Value,
) -> Result<(&'static str, Value, Vec<Repair>), UnknownTool> {
    let (tool, repair) = normalize_name(name)?;
    let (args, mut repairs) = normalize_arguments(tool, args);
    if let Some(r) = repair {
        repairs.insert(0, r);
    }
    Ok((tool, args, repairs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_issue_name_table_maps_every_name() {
        let table = [
            ("ReadFile", "fs_read"),
            ("Read", "fs_read"),
            ("read_file", "fs_read"),
            ("cat", "fs_read"),
            ("WriteFile", "fs_write"),
            ("Write", "fs_write"),
            ("create_file", "fs_write"),
            ("Edit", "fs_patch"),
            ("str_replace", "fs_patch"),
            ("replace", "fs_patch"),
            ("Bash", "ShellCommand"),
            ("shell", "ShellCommand"),
            ("shell_execute", "ShellCommand"),
            ("run_command", "ShellCommand"),
            ("execute_command", "ShellCommand"),
            ("ListFiles", "fs_list"),
            ("LS", "fs_list"),
            ("list_dir", "fs_list"),
            ("Grep", "fs_search"),
            ("FileSearch", "fs_search"),
            ("search_files", "fs_search"),
            ("Glob", "fs_glob"),
            ("git", "GitAction"),
            ("functions.fs_read", "fs_read"),
            ("functions.ReadFile:0", "fs_read"),
            ("FS_READ", "fs_read"),
            ("shellcommand", "ShellCommand"),
            ("default_api.write_file", "fs_write"),
        ];
        for (raw, want) in table {
            let (got, repair) = normalize_name(raw).unwrap_or_else(|e| panic!("{raw}: {e}"));
            assert_eq!(got, want, "{raw}");
            assert_eq!(repair.map(|r| r.from), Some(raw.to_string()), "{raw}");
        }
        assert_eq!(normalize_name("fs_read"), Ok(("fs_read", None)));
    }

    #[test]
    fn distance_matches_only_one_close_tool() {
        let (t, r) = normalize_name("fs_raed").expect("close to fs_read only");
        assert_eq!(t, "fs_read");
        assert_eq!(r.map(|r| r.kind), Some(RepairKind::NameByDistance));
        assert_eq!(
            normalize_name("ShelCommand").map(|(t, _)| t),
            Ok("ShellCommand")
        );
        assert!(
            normalize_name("lsit").is_err(),
            "transposed: 2 edits from list"
        );
        assert!(normalize_name("fs_lst").is_ok());
        assert!(
            normalize_name("read_fil").is_err(),
            "close to read_file and readdir"
        );
        assert!(
            normalize_name("red_file").is_err(),
            "close to read_file and write_file"
        );
        assert_eq!(normalize_name("read_files").map(|(t, _)| t), Ok("fs_read"));
        assert!(normalize_name("delete_everything").is_err());
        assert!(normalize_name("rm").is_err());
        assert!(normalize_name("").is_err());
        // Found by proptest: a multi-byte character where a prefix would end.
        assert!(normalize_name("<｜tool▁call▁begin｜>").is_err());
        assert!(normalize_name("functio｜n.x").is_err());
        let e = normalize_name("push").expect_err("unknown");
        assert!(e.to_string().contains("fs_read, fs_write"), "{e}");
    }

    #[test]
    fn argument_keys_are_renamed_and_reported() {
        let (args, repairs) = normalize_arguments(
            "fs_patch",
            json!({"file_path": "a.rs", "old_string": "x", "newString": "y"}),
        );
        assert_eq!(args, json!({"path": "a.rs", "search": "x", "replace": "y"}));
        assert_eq!(repairs.len(), 3);
        assert_eq!(
            repairs[0].to_string(),
            "argument `file_path` → `path` of `fs_patch`"
        );
        let (args, _) = normalize_arguments("ShellCommand", json!({"cmd": "ls"}));
        assert_eq!(args, json!({"command": "ls"}));
        // Both spellings: the canonical one wins, the other stays as it is.
        let (args, repairs) =
            normalize_arguments("fs_read", json!({"path": "a", "file_path": "b"}));
        assert_eq!(args, json!({"path": "a", "file_path": "b"}));
        assert!(repairs.is_empty());
        // `search` means the pattern for fs_search but the old text for fs_patch.
        let (args, _) = normalize_arguments("fs_search", json!({"search": "fn main"}));
        assert_eq!(args, json!({"pattern": "fn main"}));
    }
}
