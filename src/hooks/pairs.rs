//! Which HEAD content a staged change replaces, beyond a file modified in
//! place: a file moved and rewritten (`git mv a b`, then gut `b`: git sees
//! a deletion and an addition, and its own rename detection misses exactly
//! the gutted ones, whose similarity is low), and a path whose content
//! reaches it through a symlink (a file replaced by a link, a link
//! retargeted). The pre-commit kill-switch judges each pair like an edit.

use std::collections::{HashMap, HashSet};

use crate::git::Repo;

/// A file of HEAD that a commit deletes.
pub struct Gone<'a> {
    /// Its path.
    pub path: &'a str,
    /// Its content at HEAD.
    pub data: Vec<u8>,
}

/// A file a commit adds.
pub struct Added<'a> {
    /// Its path.
    pub path: &'a str,
    /// Its staged content.
    pub data: Vec<u8>,
}

/// A deleted file and what the commit moved it to: every added file
/// derived from it, in path order (a file split in two is judged whole).
pub struct Moved<'a> {
    /// The deleted file's path.
    pub from: &'a str,
    /// The added files' paths.
    pub to: Vec<&'a str>,
    /// The deleted file's content.
    pub old: &'a [u8],
    /// The added files' contents, joined.
    pub new: Vec<u8>,
}

/// The least share of an added file's meaningful lines that must come from
/// a deleted file for the two to be one file moved: a new file of its own
/// shares a line or two (imports, braces) at most.
const DERIVED: f64 = 0.5;

/// Beyond this many deletion × addition pairs only same-name moves are
/// looked for (a tree reorganisation; the line comparison is quadratic).
const MAX_PAIRS: usize = 40_000;

/// The lines that say something: trimmed, with a letter or digit.
fn meaningful(data: &[u8]) -> HashSet<&[u8]> {
    data.split(|b| *b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| l.iter().any(u8::is_ascii_alphanumeric))
        .collect()
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Pairs each added file with the deleted file it was moved from, if
/// any: the same file name (a move, whatever its new content), else the
/// deleted file most of its meaningful lines come from.
pub fn moves<'a>(gone: &'a [Gone<'a>], added: &'a [Added<'a>]) -> Vec<Moved<'a>> {
    if gone.is_empty() || added.is_empty() {
        return Vec::new();
    }
    let by_lines = gone.len().saturating_mul(added.len()) <= MAX_PAIRS;
    let gone_lines: Vec<HashSet<&[u8]>> = if by_lines {
        gone.iter().map(|g| meaningful(&g.data)).collect()
    } else {
        Vec::new()
    };
    let mut to: HashMap<usize, Vec<usize>> = HashMap::new();
    for (ai, a) in added.iter().enumerate() {
        let same_name: Vec<usize> = gone
            .iter()
            .enumerate()
            .filter(|(_, g)| file_name(g.path) == file_name(a.path))
            .map(|(i, _)| i)
            .collect();
        let from = match same_name.as_slice() {
            [one] => Some(*one),
            _ if by_lines => {
                let lines = meaningful(&a.data);
                gone_lines
                    .iter()
                    .enumerate()
                    .map(|(gi, g)| (gi, lines.iter().filter(|l| g.contains(*l)).count()))
                    .filter(|(_, shared)| {
                        *shared > 0 && *shared as f64 >= DERIVED * lines.len() as f64
                    })
                    .max_by_key(|(_, shared)| *shared)
                    .map(|(gi, _)| gi)
            }
            _ => None,
        };
        if let Some(gi) = from {
            to.entry(gi).or_default().push(ai);
        }
    }
    let mut out: Vec<Moved<'a>> = to
        .into_iter()
        .map(|(gi, ais)| {
            let mut new = Vec::new();
            for ai in &ais {
                new.extend_from_slice(&added[*ai].data);
                if !new.ends_with(b"\n") {
                    new.push(b'\n');
                }
            }
            Moved {
                from: gone[gi].path,
                to: ais.iter().map(|ai| added[*ai].path).collect(),
                old: &gone[gi].data,
                new,
            }
        })
        .collect();
    out.sort_by(|a, b| a.from.cmp(b.from));
    out
}

/// Where a symlink at `link` (repository-relative) pointing to `target`
/// leads inside the repository; `None` for an absolute target, one that
/// climbs out of the working tree, or one the file system could not
/// follow: every component the target names before a further one (`x` in
/// `x/../y` or `x/y`) must be a directory of `lookup`, as the kernel
/// resolves `x` before `..` (a missing `x`, or a file, leaves the link
/// dangling however `..` would read).
fn join(link: &str, target: &[u8], lookup: &Lookup<'_>) -> Option<String> {
    let target = std::str::from_utf8(target).ok()?;
    if target.starts_with('/') || target.is_empty() {
        return None;
    }
    let mut parts: Vec<&str> = link.split('/').collect();
    parts.pop();
    // The link's own directories exist; a component taken from the target
    // is checked once another component follows it.
    let mut known = parts.len();
    for c in target.split('/') {
        if parts.len() > known {
            if !matches!(lookup(&parts.join("/"))?, Node::Dir) {
                return None;
            }
            known = parts.len();
        }
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
                known = known.min(parts.len());
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

/// What a path of a tree or the index is.
pub enum Node {
    /// A directory (a tree, or a prefix of index entries).
    Dir,
    /// A regular file with its data.
    File(Vec<u8>),
    /// A symlink with its target.
    Link(Vec<u8>),
}

/// An entry of a tree or the index.
pub type Lookup<'r> = dyn Fn(&str) -> Option<Node> + 'r;

/// Returns the content a symlink at `link` with target `target` shows, as
/// `lookup` (HEAD's tree or the index) has it, following up to eight
/// links; `None` when it leads nowhere in the repository.
pub fn through_link(link: &str, target: &[u8], lookup: &Lookup<'_>) -> Option<Vec<u8>> {
    let mut at = join(link, target, lookup)?;
    for _ in 0..8 {
        match lookup(&at)? {
            Node::File(data) => return Some(data),
            Node::Dir => return None,
            Node::Link(data) => at = join(&at, &data, lookup)?,
        }
    }
    None
}

/// Looks a path up in HEAD's tree.
pub fn in_head(repo: &Repo) -> impl Fn(&str) -> Option<Node> + '_ {
    move |path: &str| {
        let tree = repo.gix().head_commit().ok()?.tree().ok()?;
        let entry = tree.lookup_entry_by_path(path).ok()??;
        let mode = entry.mode();
        if mode.is_tree() {
            return Some(Node::Dir);
        }
        if !(mode.is_blob() || mode.is_link()) {
            return None;
        }
        let data = entry.object().ok()?.data.clone();
        Some(if mode.is_link() {
            Node::Link(data)
        } else {
            Node::File(data)
        })
    }
}

/// Looks a path up in the index (what the commit will hold).
pub fn in_index(repo: &Repo) -> impl Fn(&str) -> Option<Node> + '_ {
    let index = repo.gix().index_or_empty().ok();
    move |path: &str| {
        let index = index.as_ref()?;
        let Some(entry) = index.entry_by_path(path.into()) else {
            let dir = format!("{path}/");
            let is_dir = index
                .entries()
                .iter()
                .any(|e| e.path(index).starts_with(dir.as_bytes()));
            return is_dir.then_some(Node::Dir);
        };
        let is_link = entry.mode == gix::index::entry::Mode::SYMLINK;
        if !is_link
            && entry.mode != gix::index::entry::Mode::FILE
            && entry.mode != gix::index::entry::Mode::FILE_EXECUTABLE
        {
            return None;
        }
        let data = repo.gix().find_object(entry.id).ok()?.data.clone();
        Some(if is_link {
            Node::Link(data)
        } else {
            Node::File(data)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_stay_inside_the_tree() {
        // `x` is a directory, `f` a file; nothing else exists.
        let tree = |p: &str| match p {
            "x" => Some(Node::Dir),
            "f" => Some(Node::File(Vec::new())),
            _ => None,
        };
        let join = |l: &str, t: &[u8]| join(l, t, &tree);
        assert_eq!(join("a/l", b"b.txt").as_deref(), Some("a/b.txt"));
        assert_eq!(join("a/l", b"../b.txt").as_deref(), Some("b.txt"));
        assert_eq!(join("l", b"./x/../y").as_deref(), Some("y"));
        assert_eq!(join("l", b"../outside"), None);
        assert_eq!(join("a/l", b"/etc/passwd"), None);
        // The kernel resolves `ghost` and `f` before `..`: the link dangles.
        assert_eq!(join("l", b"ghost/../y"), None);
        assert_eq!(join("l", b"f/../y"), None);
        assert_eq!(join("l", b"f/"), None);
        assert_eq!(join("a/b/l", b"../../x/../y").as_deref(), Some("y"));
    }

    #[test]
    fn a_move_is_found_by_name_or_by_lines_and_a_new_file_is_not() {
        let body: String = (0..20).map(|i| format!("let v{i} = f({i});\n")).collect();
        let gone = [Gone {
            path: "src/old.rs",
            data: body.clone().into_bytes(),
        }];
        let derived = "let v1 = f(1);\nlet v2 = f(2);\n// TODO\n".to_string();
        let added = [
            Added {
                path: "src/new.rs",
                data: derived.into_bytes(),
            },
            Added {
                path: "src/other.rs",
                data: b"fn main() {}\nuse std::io;\nlet v1 = f(1);\n".to_vec(),
            },
            Added {
                path: "lib/old.rs",
                data: b"// gone\n".to_vec(),
            },
        ];
        let m = moves(&gone, &added);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].to, vec!["src/new.rs", "lib/old.rs"]);
    }
}
