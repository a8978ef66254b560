//! The in-process model: a GGUF file run by llama.cpp inside
//! this process, as one more [`LlmClient`](super::client::LlmClient).
//!
//! Everything here but `engine` is plain Rust and in every build: reading a
//! GGUF header ([`gguf`]), checking a file before C code sees it
//! ([`validate`]), finding the models the user already has ([`discover`]),
//! and choosing, per level, between a configured file, a server and a
//! discovered file ([`choose`]). `engine` (llama.cpp through `llama-cpp-2`)
//! exists only with the cargo feature `local-llm`; without it a chosen file
//! is still validated, then refused with [`LocalError::NoEngine`].

pub mod archs;
pub mod cpu;
pub mod discover;
#[cfg(feature = "local-llm")]
pub mod engine;
pub mod gguf;
pub mod inventory;

use std::path::{Path, PathBuf};

use crate::git::Repo;
use crate::settings::read::{ModelLevel, ModelSettings};

pub use gguf::{GgufError, GgufInfo};

/// Whether this build carries the in-process engine.
pub const ENGINE_BUILT: bool = cfg!(feature = "local-llm");

/// Why an in-process model cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The file is missing, unreadable, not GGUF, truncated or damaged.
    #[error(transparent)]
    Gguf(#[from] GgufError),
    /// llama.cpp cannot chat with this architecture.
    #[error("`{path}` is a `{arch}` model, which the in-process engine cannot chat with")]
    Architecture {
        /// The file.
        path: PathBuf,
        /// Its `general.architecture` (`none` when missing).
        arch: String,
    },
    /// Loading it would not fit in the memory available now.
    #[error("`{path}` needs about {need} MB of memory but only {available} MB are available")]
    TooBig {
        /// The file.
        path: PathBuf,
        /// Its size in MB.
        need: u64,
        /// `MemAvailable` in MB.
        available: u64,
    },
    /// This build has no in-process engine.
    #[error(
        "`{path}` is set as a model file, but this build of git-fararoni has no in-process engine"
    )]
    NoEngine {
        /// The file.
        path: PathBuf,
    },
    /// This CPU lacks extensions the engine's ggml was compiled for.
    #[error(transparent)]
    Cpu(#[from] cpu::CpuError),
    /// `fararoni.local.threads` cannot be read.
    #[error(transparent)]
    Setting(#[from] crate::settings::read::ModelSettingError),
    /// llama.cpp refused the file or failed while generating.
    #[error("the in-process model `{path}` failed: {detail}")]
    Engine {
        /// The file.
        path: PathBuf,
        /// llama.cpp's reason.
        detail: String,
    },
}

impl LocalError {
    /// What the user should do, for the CLI's `hint:` line.
    pub fn hint(&self) -> String {
        match self {
            LocalError::Gguf(e) => e.hint().into(),
            LocalError::Architecture { .. } => "pick a chat model (an embedding model, vision projector or encoder cannot answer); `git fararoni models` shows each file's architecture".into(),
            LocalError::TooBig { .. } => "pick a smaller quantization or model, or close programs that hold memory".into(),
            LocalError::NoEngine { .. } => "install a build with the engine (`cargo install git-fararoni --features local-llm`; it needs cmake, libclang-dev and a C++ compiler), or unset `fararoni.chat.gguf`/`fararoni.llm.gguf` to use a server".into(),
            LocalError::Cpu(_) => cpu::PORTABLE_HINT.into(),
            LocalError::Setting(_) => "fix the value (`git fararoni config` shows where it is set)".into(),
            LocalError::Engine { .. } => "check the file with `git fararoni models`; a model made for a newer llama.cpp needs a newer git-fararoni".into(),
        }
    }
}

/// Checks the model file at `path` before llama.cpp is handed it: a
/// readable GGUF with all its tensor data, an architecture llama.cpp can
/// chat with, and a size that fits in the memory available now. Reads the
/// header only; writes nothing.
pub fn validate(path: &Path) -> Result<GgufInfo, LocalError> {
    let info = gguf::read(path)?;
    let arch = info.architecture.clone().unwrap_or_else(|| "none".into());
    if !archs::CHAT_ARCHITECTURES.contains(&arch.as_str()) {
        return Err(LocalError::Architecture {
            path: path.to_path_buf(),
            arch,
        });
    }
    if let Some(available) = mem_available() {
        if info.size > available {
            return Err(LocalError::TooBig {
                path: path.to_path_buf(),
                need: info.size.div_ceil(1 << 20),
                available: available >> 20,
            });
        }
    }
    Ok(info)
}

/// `MemAvailable` from `/proc/meminfo`, in bytes (`None` elsewhere).
pub fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The default number of generation threads: one per physical core that
/// the current load leaves free, at least one. Measured on a busy 2-core
/// machine, two threads were 2–30× slower than one: llama.cpp's threads
/// spin-wait on each other, so a thread that shares its core stalls all.
pub fn default_threads() -> u32 {
    let cores = physical_cores().unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get() as u32)
            .unwrap_or(1)
    });
    let busy = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map(|l| l.round().max(0.0) as u32)
        .unwrap_or(0);
    cores.saturating_sub(busy).max(1)
}

/// Distinct (package, core) pairs of `/proc/cpuinfo`.
fn physical_cores() -> Option<u32> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let mut seen = std::collections::BTreeSet::new();
    let mut package = None;
    for line in text.lines() {
        let (k, v) = line.split_once(':').unwrap_or((line, ""));
        match k.trim() {
            "physical id" => package = Some(v.trim().to_string()),
            "core id" => {
                seen.insert((package.clone(), v.trim().to_string()));
            }
            _ => {}
        }
    }
    (!seen.is_empty()).then_some(seen.len() as u32)
}

/// Where a level's model comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A GGUF file run in process; `configured` is false for a discovered one.
    File {
        /// The file.
        path: PathBuf,
        /// Set by `fararoni.<level>.gguf` (else found by discovery).
        configured: bool,
    },
    /// An OpenAI-compatible server (`fararoni.*.model` is set).
    Server,
    /// Nothing: level 2 uses its built-in replies, levels 3–5 fail.
    Nothing,
}

/// Chooses a level's model: a configured GGUF file first, then a
/// configured server model, then (only when this build has the engine) a
/// model discovered on disk — the smallest for level 2's small talk, the
/// largest that fits in memory for levels 3–5.
pub fn choose(repo: Option<&Repo>, level: ModelLevel, settings: &ModelSettings) -> Source {
    if let Some(path) = crate::settings::read::gguf_path(crate::settings::of(repo), level) {
        return Source::File {
            path,
            configured: true,
        };
    }
    if settings.model.is_some() {
        return Source::Server;
    }
    if !ENGINE_BUILT {
        return Source::Nothing;
    }
    match discover::pick(&discover::find(), level) {
        Some(m) => Source::File {
            path: m.path,
            configured: false,
        },
        None => Source::Nothing,
    }
}

/// A level's model client and whether it runs in this process.
pub struct Chosen {
    /// The client.
    pub client: Box<dyn super::client::LlmClient>,
    /// True for a GGUF file run by the engine (no network at all).
    pub in_process: bool,
}

/// Returns the client of a level, or `None` when nothing is configured or
/// found. A model file is validated here (header only, nothing loaded: the
/// engine loads it on the first request).
pub fn client_for(
    repo: Option<&Repo>,
    level: ModelLevel,
    settings: ModelSettings,
) -> Result<Option<Chosen>, LocalError> {
    match choose(repo, level, &settings) {
        Source::Nothing => Ok(None),
        Source::Server => Ok(Some(Chosen {
            client: Box::new(super::http::HttpClient::new(settings)),
            in_process: false,
        })),
        Source::File { path, .. } => {
            let info = validate(&path)?;
            let client = engine_client(
                info,
                settings,
                crate::settings::read::local_threads(crate::settings::of(repo))?,
            )?;
            Ok(Some(Chosen {
                client,
                in_process: true,
            }))
        }
    }
}

#[cfg(feature = "local-llm")]
fn engine_client(
    info: GgufInfo,
    settings: ModelSettings,
    threads: Option<u32>,
) -> Result<Box<dyn super::client::LlmClient>, LocalError> {
    // Before anything of llama.cpp runs: its ggml-cpu code may use
    // extensions this CPU lacks (SIGILL), see `cpu`.
    cpu::check()?;
    Ok(Box::new(engine::LocalClient::new(
        info,
        settings,
        threads.unwrap_or_else(default_threads),
    )))
}

#[cfg(not(feature = "local-llm"))]
fn engine_client(
    info: GgufInfo,
    _settings: ModelSettings,
    _threads: Option<u32>,
) -> Result<Box<dyn super::client::LlmClient>, LocalError> {
    Err(LocalError::NoEngine { path: info.path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embedding_model_or_a_projector_is_refused() {
        for arch in ["bert", "clip", "nomic-bert", ""] {
            let kv: Vec<(&str, &str)> = if arch.is_empty() {
                vec![]
            } else {
                vec![("general.architecture", arch)]
            };
            let bytes = gguf::tests::tiny(&kv, 8);
            let dir = tempfile::tempdir().expect("tempdir");
            let p = dir.path().join("m.gguf");
            std::fs::write(&p, bytes).expect("write");
            assert!(
                matches!(validate(&p), Err(LocalError::Architecture { .. })),
                "{arch}"
            );
        }
    }

    #[test]
    fn a_chat_model_passes_and_threads_are_at_least_one() {
        let bytes = gguf::tests::tiny(&[("general.architecture", "qwen2")], 8);
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("m.gguf");
        std::fs::write(&p, bytes).expect("write");
        assert_eq!(
            validate(&p).expect("valid").architecture.as_deref(),
            Some("qwen2")
        );
        assert!(default_threads() >= 1);
    }
}
