//! Finding the GGUF models the user already has, without downloading
//! anything: Ollama's store (manifests name blobs), the Hugging Face hub
//! cache, and LM Studio's folder. Read only; every walk is bounded.

use std::path::{Path, PathBuf};

use crate::settings::read::ModelLevel;

/// Where one store keeps its models: the environment variable that moves
/// it (with the sub-folder under that variable's value), and the default
/// under the home directory.
struct Store {
    /// The store's name, as `git fararoni models` shows it.
    name: &'static str,
    /// Environment variables naming the folder, first set wins, each with a
    /// sub-folder appended.
    env: &'static [(&'static str, &'static str)],
    /// Folders under `$HOME` tried when no variable is set.
    home: &'static [&'static str],
    /// How models are laid out there.
    layout: Layout,
}

#[derive(Clone, Copy)]
enum Layout {
    /// `manifests/<host>/<namespace>/<name>/<tag>` → `blobs/sha256-<hex>`.
    Ollama,
    /// `models--<org>--<name>/snapshots/<rev>/*.gguf` (links into `blobs`).
    HuggingFace,
    /// `<publisher>/<repo>/*.gguf`.
    LmStudio,
}

/// The stores, in the order `models` lists them.
const STORES: &[Store] = &[
    Store {
        name: "ollama",
        env: &[("OLLAMA_MODELS", "")],
        home: &[".ollama/models"],
        layout: Layout::Ollama,
    },
    Store {
        name: "huggingface",
        env: &[
            ("HF_HUB_CACHE", ""),
            ("HF_HOME", "hub"),
            ("XDG_CACHE_HOME", "huggingface/hub"),
        ],
        home: &[".cache/huggingface/hub"],
        layout: Layout::HuggingFace,
    },
    Store {
        name: "lmstudio",
        env: &[],
        home: &[".lmstudio/models", ".cache/lm-studio/models"],
        layout: Layout::LmStudio,
    },
];

/// Ollama's media type of a model's weights layer.
const OLLAMA_MODEL_LAYER: &str = "application/vnd.ollama.image.model";
/// The most files looked at in one store (a bound on a huge cache).
const MAX_FILES: usize = 10_000;

/// One model file found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Which store (`ollama`, `huggingface`, `lmstudio`).
    pub store: &'static str,
    /// The name the store gives it (`qwen2.5:0.5b`, `org/repo/file.gguf`).
    pub name: String,
    /// The file (a blob, for Ollama).
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
}

/// Returns every model found in every store, each store's in name order.
pub fn find() -> Vec<Found> {
    let home = crate::settings::read::home_os().map(PathBuf::from);
    let mut out = Vec::new();
    for store in STORES {
        let Some(root) = root_of(store, home.as_deref()) else {
            continue;
        };
        let mut found = match store.layout {
            Layout::Ollama => ollama(&root),
            Layout::HuggingFace => huggingface(&root),
            Layout::LmStudio => lmstudio(&root),
        };
        found.sort_by(|a, b| a.name.cmp(&b.name));
        for f in &mut found {
            f.store = store.name;
        }
        out.extend(found);
    }
    out
}

fn root_of(store: &Store, home: Option<&Path>) -> Option<PathBuf> {
    for (var, sub) in store.env {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let p = PathBuf::from(v).join(sub);
            return p.is_dir().then_some(p);
        }
    }
    let home = home?;
    store.home.iter().map(|h| home.join(h)).find(|p| p.is_dir())
}

/// Picks the model a level uses when none is configured: the smallest
/// usable one for level 2 (small talk must be quick), the largest usable
/// one for levels 3–5. Usable: it passes [`super::validate`].
pub fn pick(found: &[Found], level: ModelLevel) -> Option<Found> {
    let mut order: Vec<&Found> = found.iter().collect();
    order.sort_by_key(|f| f.size);
    if level != ModelLevel::Chat {
        order.reverse();
    }
    order
        .into_iter()
        .find(|f| super::validate(&f.path).is_ok())
        .cloned()
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    v
}

fn is_gguf_model(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    // Vision projectors are GGUF too but cannot chat; of a split model
    // only the first part is loaded (llama.cpp finds the rest).
    let later_part = name.contains("-of-") && !name.contains("-00001-of-");
    name.ends_with(".gguf") && !name.contains("mmproj") && !later_part
}

fn found(name: String, path: PathBuf) -> Option<Found> {
    // `metadata` follows links: the Hugging Face snapshot entries are links
    // into `blobs`.
    let meta = std::fs::metadata(&path).ok()?;
    meta.is_file().then_some(Found {
        store: "",
        name,
        path,
        size: meta.len(),
    })
}

fn ollama(root: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    let manifests = root.join("manifests");
    // manifests/<host>/<namespace>/<name>/<tag>
    for host in entries(&manifests) {
        for ns in entries(&host) {
            for name in entries(&ns) {
                for tag in entries(&name) {
                    if out.len() >= MAX_FILES {
                        return out;
                    }
                    let Some(blob) = ollama_blob(root, &tag) else {
                        continue;
                    };
                    let file = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
                    let (Some(n), Some(t), Some(nsn)) = (file(&name), file(&tag), file(&ns)) else {
                        continue;
                    };
                    let label = if nsn == "library" {
                        format!("{n}:{t}")
                    } else {
                        format!("{nsn}/{n}:{t}")
                    };
                    out.extend(found(label, blob));
                }
            }
        }
    }
    out
}

/// The weights blob a manifest names, if it is there.
fn ollama_blob(root: &Path, manifest: &Path) -> Option<PathBuf> {
    let meta = std::fs::metadata(manifest).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(manifest).ok()?).ok()?;
    let digest = v["layers"]
        .as_array()?
        .iter()
        .find(|l| l["mediaType"] == OLLAMA_MODEL_LAYER)?["digest"]
        .as_str()?;
    let hex = digest.strip_prefix("sha256:")?;
    // A digest is hex: anything else could walk out of `blobs`.
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(root.join("blobs").join(format!("sha256-{hex}")))
}

fn huggingface(root: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    for repo in entries(root) {
        let Some(dir) = repo.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        let Some(id) = dir.strip_prefix("models--") else {
            continue;
        };
        let id = id.replacen("--", "/", 1);
        for rev in entries(&repo.join("snapshots")) {
            walk(&rev, 3, &mut |p| {
                if out.len() < MAX_FILES && is_gguf_model(p) {
                    let rel = p.strip_prefix(&rev).unwrap_or(p).to_string_lossy();
                    out.extend(found(format!("{id}/{rel}"), p.to_path_buf()));
                }
            });
        }
    }
    out.dedup_by(|a, b| a.name == b.name);
    out
}

fn lmstudio(root: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    walk(root, 4, &mut |p| {
        if out.len() < MAX_FILES && is_gguf_model(p) {
            let rel = p.strip_prefix(root).unwrap_or(p).to_string_lossy();
            out.extend(found(rel.into_owned(), p.to_path_buf()));
        }
    });
    out
}

/// Calls `f` on every entry under `dir` down to `depth` levels, never
/// descending through a symbolic link to a directory.
fn walk(dir: &Path, depth: u32, f: &mut dyn FnMut(&Path)) {
    for p in entries(dir) {
        let is_dir = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
        if is_dir {
            if depth > 1 {
                walk(&p, depth - 1, f);
            }
        } else {
            f(&p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ollama_manifest_names_its_blob_and_a_bad_digest_is_ignored() {
        let d = tempfile::tempdir().expect("tempdir");
        let m = d
            .path()
            .join("manifests/registry.ollama.ai/library/qwen/0.5b");
        std::fs::create_dir_all(m.parent().expect("parent")).expect("mkdir");
        std::fs::write(&m, r#"{"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:abc123"}]}"#).expect("write");
        std::fs::create_dir_all(d.path().join("blobs")).expect("mkdir");
        std::fs::write(d.path().join("blobs/sha256-abc123"), b"GGUF").expect("write");
        let evil = d
            .path()
            .join("manifests/registry.ollama.ai/library/evil/latest");
        std::fs::create_dir_all(evil.parent().expect("parent")).expect("mkdir");
        std::fs::write(&evil, r#"{"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:../../../etc/passwd"}]}"#).expect("write");
        let f = ollama(d.path());
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "qwen:0.5b");
        assert!(f[0].path.ends_with("blobs/sha256-abc123"));
    }

    #[test]
    fn projectors_and_later_split_parts_are_not_models() {
        assert!(is_gguf_model(Path::new("a/Model-Q4_K_M.gguf")));
        assert!(!is_gguf_model(Path::new("a/mmproj-model-f16.gguf")));
        assert!(is_gguf_model(Path::new("m-00001-of-00002.gguf")));
        assert!(!is_gguf_model(Path::new("m-00002-of-00002.gguf")));
        assert!(!is_gguf_model(Path::new("m.safetensors")));
    }
}
