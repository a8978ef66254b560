//! The crate's layers, enforced: every `crate::` path in `src/` must point
//! to a module of a lower layer in `src/lib.rs` (where the layer list
//! lives, once). Modules of one layer never import each other, so the
//! order rustfmt gives them does not matter. Test modules are
//! exempt: a test may reach up to build its fixtures.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The top-level modules in `src/lib.rs` order, each with its layer.
fn layers(root: &Path) -> Vec<(String, usize)> {
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("read src/lib.rs");
    let mut layer = None;
    let mut out = Vec::new();
    for line in lib.lines() {
        if let Some(rest) = line.strip_prefix("// ── layer ") {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            layer = Some(n.parse::<usize>().expect("a layer number"));
        } else if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(';'))
        {
            let l = layer.unwrap_or_else(|| panic!("`{name}` is listed before any layer"));
            out.push((name.to_string(), l));
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The product code of a file: comments dropped, and everything from a
/// `#[cfg(test)]` item on (test modules come last in this crate).
fn product_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The top-level modules a piece of code names through `crate::`.
fn imports(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        if after.starts_with('{') {
            // `use crate::{a, b::c}`: every first segment inside the braces.
            let inner = &after[1..after.find('}').unwrap_or(after.len())];
            for part in inner.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
        rest = after;
    }
    out
}

#[test]
fn imports_point_only_down() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let order = layers(root);
    assert!(
        order.len() > 10,
        "src/lib.rs lists too few modules: {order:?}"
    );
    let rank: BTreeMap<&str, usize> = order.iter().map(|(m, l)| (m.as_str(), *l)).collect();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut upward = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(root.join("src")).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("a first component");
        if top == "bin" || top == "lib" || rel.ends_with("tests.rs") {
            continue;
        }
        let &layer = rank
            .get(top.as_str())
            .unwrap_or_else(|| panic!("src/{} is in no layer of src/lib.rs", rel.display()));
        let text = std::fs::read_to_string(file).expect("read a source file");
        for target in imports(&product_code(&text)) {
            checked += 1;
            if target == top {
                continue;
            }
            let Some(&tl) = rank.get(target.as_str()) else {
                upward.push(format!(
                    "src/{}: crate::{target} is no module",
                    rel.display()
                ));
                continue;
            };
            if tl >= layer {
                upward.push(format!(
                    "src/{} (layer {layer}) imports crate::{target} (layer {tl})",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        checked > 500,
        "only {checked} imports read: is the parser broken?"
    );
    upward.sort();
    upward.dedup();
    assert!(
        upward.is_empty(),
        "imports that point up:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_import_reader_reads_what_rust_writes() {
    let code = "use crate::{git::Repo, text};\nlet x = crate::policy::judge();\n";
    assert_eq!(imports(code), ["git", "text", "policy"]);
    let code = "// crate::cli\nfn f() {}\n#[cfg(test)]\nmod tests { use crate::cli; }\n";
    assert!(imports(&product_code(code)).is_empty());
}
