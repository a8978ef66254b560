//! What `git fararoni models` reports: the model files found or
//! configured, each read with [`super::validate`], and which level uses
//! which model. Reads only.

use serde::Serialize;

use crate::git::Repo;
use crate::settings::read::{model_settings, ModelLevel};

/// One model file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelRow {
    /// Where it was found (`config`, `ollama`, `huggingface`, `lmstudio`).
    pub store: &'static str,
    /// Its name in that store (the path for a configured file).
    pub name: String,
    /// The file.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// `general.architecture`, when readable.
    pub architecture: Option<String>,
    /// The quantization, when the file says.
    pub quantization: Option<String>,
    /// Why it cannot be used, if it cannot.
    pub problem: Option<String>,
}

/// Which model a level uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LevelUse {
    /// The level (2–5).
    pub level: u8,
    /// `file`, `server` or `none`.
    pub kind: &'static str,
    /// The file, or the server's model name and URL.
    pub model: Option<String>,
    /// How it was chosen.
    pub why: String,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Inventory {
    /// Whether this build runs GGUF files in process.
    pub engine: bool,
    /// Every file found or configured.
    pub models: Vec<ModelRow>,
    /// Levels 2–5.
    pub levels: Vec<LevelUse>,
}

/// The levels `models` reports, with their settings prefix.
const LEVELS: &[(u8, ModelLevel, &str)] = &[
    (2, ModelLevel::Chat, "chat"),
    (3, ModelLevel::Tools, "llm"),
    (4, ModelLevel::Thinking, "thinking"),
    (5, ModelLevel::Fallback, "fallback"),
];

fn row(store: &'static str, name: String, path: &std::path::Path, size: u64) -> ModelRow {
    let (architecture, quantization, problem, size) = match super::validate(path) {
        Ok(i) => (i.architecture, i.quantization, None, i.size),
        Err(e) => {
            let arch = super::gguf::read(path).ok().and_then(|i| i.architecture);
            (arch, None, Some(format!("{e} ({})", e.hint())), size)
        }
    };
    ModelRow {
        store,
        name,
        path: path.display().to_string(),
        size,
        architecture,
        quantization,
        problem,
    }
}

/// Builds the report for the repository at `repo` (or the user's settings).
pub fn inventory(repo: Option<&Repo>) -> Inventory {
    let found = super::discover::find();
    let mut models: Vec<ModelRow> = Vec::new();
    for (_, level, _) in LEVELS {
        if let Some(p) = crate::settings::read::gguf_path(crate::settings::of(repo), *level) {
            if !models.iter().any(|m| m.path == p.display().to_string()) {
                models.push(row("config", p.display().to_string(), &p, 0));
            }
        }
    }
    for f in &found {
        models.push(row(f.store, f.name.clone(), &f.path, f.size));
    }
    let levels = LEVELS
        .iter()
        .map(|(n, level, key)| {
            let settings = match model_settings(crate::settings::of(repo), *level) {
                Ok(s) => s,
                Err(e) => {
                    return LevelUse {
                        level: *n,
                        kind: "none",
                        model: None,
                        why: e.to_string(),
                    }
                }
            };
            match super::choose(repo, *level, &settings) {
                super::Source::File { path, configured } => LevelUse {
                    level: *n,
                    kind: "file",
                    model: Some(path.display().to_string()),
                    why: if configured {
                        let own = if *level == ModelLevel::Chat { "chat" } else { "llm" };
                        format!("set by fararoni.{own}.gguf (or fararoni.llm.gguf)")
                    } else if *level == ModelLevel::Chat {
                        "found on disk: the smallest usable model, for quick small talk".into()
                    } else {
                        "found on disk: the largest usable model that fits in memory".into()
                    },
                },
                super::Source::Server => LevelUse {
                    level: *n,
                    kind: "server",
                    model: Some(format!(
                        "{} at {}",
                        settings.model.unwrap_or_default(),
                        settings.base_url
                    )),
                    why: format!("fararoni.{key}.model (or fararoni.llm.model) is set"),
                },
                super::Source::Nothing => LevelUse {
                    level: *n,
                    kind: "none",
                    model: None,
                    why: match (*level, super::ENGINE_BUILT) {
                        (ModelLevel::Chat, _) => "no model: built-in replies".into(),
                        (_, true) => "no model configured or found".into(),
                        (_, false) => "no model configured (models found on disk are used only by a build with `--features local-llm`)".into(),
                    },
                },
            }
        })
        .collect();
    Inventory {
        engine: super::ENGINE_BUILT,
        models,
        levels,
    }
}
