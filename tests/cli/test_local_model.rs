//! The in-process model's checks that need no engine (default build):
//! a model file that is missing, truncated, not GGUF, of an architecture
//! that cannot chat, or bigger than the memory available gives a clear
//! error naming the file; level 2 falls back to its built-in reply, levels
//! 3–5 exit 4 with a hint; nothing is written anywhere. And `models`
//! lists what the stores hold. The engine itself is tested by
//! `test_local_engine` (`--features local-llm`, scripts/local-llm-tier.sh).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{snapshot, Out, TestRepo};

/// Bytes of a small well-formed GGUF file: string metadata `kvs` and one
/// F32 tensor of `elements` (its data included).
pub fn tiny_gguf(kvs: &[(&str, &str)], elements: u64) -> Vec<u8> {
    let mut b = Vec::new();
    let s = |b: &mut Vec<u8>, t: &str| {
        b.extend_from_slice(&(t.len() as u64).to_le_bytes());
        b.extend_from_slice(t.as_bytes());
    };
    b.extend_from_slice(b"GGUF");
    b.extend_from_slice(&3u32.to_le_bytes());
    b.extend_from_slice(&1u64.to_le_bytes());
    b.extend_from_slice(&(kvs.len() as u64).to_le_bytes());
    for (k, v) in kvs {
        s(&mut b, k);
        b.extend_from_slice(&8u32.to_le_bytes());
        s(&mut b, v);
    }
    s(&mut b, "w");
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&elements.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&0u64.to_le_bytes());
    while b.len() % 32 != 0 {
        b.push(0);
    }
    b.extend(std::iter::repeat_n(0u8, (elements * 4) as usize));
    b
}

fn llama() -> Vec<u8> {
    tiny_gguf(&[("general.architecture", "llama")], 64)
}

/// Everything under the repository and the home directory, for "nothing
/// was written".
fn state(
    repo: &TestRepo,
) -> (
    std::collections::BTreeMap<PathBuf, Vec<u8>>,
    std::collections::BTreeMap<PathBuf, Vec<u8>>,
) {
    (snapshot(repo.path()), snapshot(repo.home()))
}

fn ask_chat(repo: &TestRepo, model: &Path) -> Out {
    repo.cmd("git-fararoni")
        .args(["ask", "hola"])
        .env("FARARONI_CHAT_GGUF", model)
        .output()
        .expect("runs")
        .into()
}

/// Each bad file: (name, bytes or None for absent, what the warning says).
fn bad_files() -> Vec<(&'static str, Option<Vec<u8>>, &'static str)> {
    let whole = llama();
    vec![
        ("absent.gguf", None, "cannot read"),
        (
            "cut.gguf",
            Some(whole[..whole.len() - 9].to_vec()),
            "is truncated",
        ),
        (
            "header-only.gguf",
            Some(whole[..20].to_vec()),
            "is truncated",
        ),
        (
            "model.safetensors",
            Some(b"{\"__metadata__\":{}}".to_vec()),
            "is not a GGUF model file",
        ),
        ("empty.gguf", Some(Vec::new()), "is not a GGUF model file"),
        (
            "embedder.gguf",
            Some(tiny_gguf(&[("general.architecture", "bert")], 8)),
            "`bert` model, which the in-process engine cannot chat with",
        ),
        (
            "projector.gguf",
            Some(tiny_gguf(&[("general.architecture", "clip")], 8)),
            "`clip` model",
        ),
        ("no-arch.gguf", Some(tiny_gguf(&[], 8)), "`none` model"),
    ]
}

#[test]
fn test_local_model_bad_files_fall_back_to_the_builtin_reply_and_write_nothing() {
    let repo = TestRepo::with_commit();
    let models = tempfile::tempdir().expect("tempdir");
    for (name, bytes, says) in bad_files() {
        let p = models.path().join(name);
        if let Some(b) = &bytes {
            std::fs::write(&p, b).expect("write model");
        }
        let before = state(&repo);
        let out = ask_chat(&repo, &p);
        assert_eq!(out.code, 0, "{name}: {out}");
        assert!(
            out.stdout.contains("Hola"),
            "{name}: the built-in reply: {out}"
        );
        assert!(
            out.stderr.contains("using the built-in reply") && out.stderr.contains(says),
            "{name}: {out}"
        );
        assert!(
            out.stderr.contains(name),
            "{name}: the file is named: {out}"
        );
        assert_eq!(state(&repo), before, "{name}: nothing is written");
    }
}

#[test]
fn test_local_model_bigger_than_memory_is_refused_before_loading() {
    let repo = TestRepo::with_commit();
    let models = tempfile::tempdir().expect("tempdir");
    // A sparse file of 4 TB whose one tensor fills it: a valid header,
    // no disk used, far more than any test machine's memory.
    let size: u64 = 4 << 40;
    let mut header = tiny_gguf(&[("general.architecture", "llama")], 1);
    header.truncate(header.len() - 4);
    let elements = (size - header.len() as u64) / 4;
    let pos = find_u64(&header, 1).expect("element count in header");
    header[pos..pos + 8].copy_from_slice(&elements.to_le_bytes());
    let p = models.path().join("huge.gguf");
    std::fs::write(&p, &header).expect("write");
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .expect("open");
    f.set_len(size).expect("sparse");
    drop(f);
    let before = state(&repo);
    let out = ask_chat(&repo, &p);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("needs about") && out.stderr.contains("huge.gguf"),
        "{out}"
    );
    assert!(
        out.stderr.contains("smaller quantization"),
        "the hint: {out}"
    );
    assert_eq!(state(&repo), before);
}

/// The offset of the tensor's element count: the u64 `value` right after
/// the tensor name `w` and its dimension count 1.
fn find_u64(b: &[u8], value: u64) -> Option<usize> {
    let mut needle = 1u64.to_le_bytes().to_vec();
    needle.push(b'w');
    needle.extend_from_slice(&1u32.to_le_bytes());
    needle.extend_from_slice(&value.to_le_bytes());
    b.windows(needle.len())
        .position(|w| w == needle.as_slice())
        .map(|i| i + needle.len() - 8)
}

#[test]
fn test_local_model_a_bad_file_for_the_agent_exits_4_with_a_hint() {
    let repo = TestRepo::with_commit();
    let models = tempfile::tempdir().expect("tempdir");
    let p = models.path().join("cut.gguf");
    let whole = llama();
    std::fs::write(&p, &whole[..whole.len() / 2]).expect("write");
    let before = state(&repo);
    let out: Out = repo
        .cmd("git-fararoni")
        .args([
            "ask",
            "--level",
            "3",
            "explain what the parser module does and how",
        ])
        .env("FARARONI_LLM_GGUF", &p)
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stderr.contains("cut.gguf") && out.stderr.contains("truncated"),
        "{out}"
    );
    assert!(out.stderr.contains("fetch it again"), "{out}");
    assert_eq!(state(&repo), before);
}

#[cfg(not(feature = "local-llm"))]
#[test]
fn test_local_model_a_good_file_in_a_build_without_the_engine_says_how_to_get_one() {
    let repo = TestRepo::with_commit();
    let models = tempfile::tempdir().expect("tempdir");
    let p = models.path().join("ok.gguf");
    std::fs::write(&p, llama()).expect("write");
    let out = ask_chat(&repo, &p);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains("no in-process engine") && out.stderr.contains("--features local-llm"),
        "{out}"
    );
}

/// Lays out an Ollama store and a Hugging Face cache under `home`.
fn stores(home: &Path) {
    let ollama = home.join(".ollama/models");
    let manifest = ollama.join("manifests/registry.ollama.ai/library/tiny/latest");
    std::fs::create_dir_all(manifest.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &manifest,
        r#"{"layers":[{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:00"},{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:ab12"}]}"#,
    )
    .expect("manifest");
    std::fs::create_dir_all(ollama.join("blobs")).expect("blobs");
    std::fs::write(ollama.join("blobs/sha256-ab12"), llama()).expect("blob");
    let hf = home.join(".cache/huggingface/hub/models--org--Small-GGUF");
    std::fs::create_dir_all(hf.join("blobs")).expect("mkdir");
    std::fs::create_dir_all(hf.join("snapshots/abc")).expect("mkdir");
    std::fs::write(
        hf.join("blobs/111"),
        tiny_gguf(&[("general.architecture", "qwen2")], 16),
    )
    .expect("blob");
    std::os::unix::fs::symlink(
        "../../blobs/111",
        hf.join("snapshots/abc/small-q4_k_m.gguf"),
    )
    .expect("link");
    std::fs::write(
        hf.join("snapshots/abc/mmproj-f16.gguf"),
        tiny_gguf(&[("general.architecture", "clip")], 4),
    )
    .expect("proj");
}

#[test]
fn test_local_model_models_lists_the_stores_and_which_level_uses_what() {
    let repo = TestRepo::with_commit();
    stores(repo.home());
    let bad = repo.home().join("cut.gguf");
    std::fs::write(&bad, &llama()[..40]).expect("write");
    let before = state(&repo);
    let out: Out = repo
        .cmd("git-fararoni")
        .args(["models", "--json"])
        .env("FARARONI_CHAT_GGUF", &bad)
        .output()
        .expect("runs")
        .into();
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).expect("json");
    let models = v["models"].as_array().expect("models");
    let names: Vec<&str> = models.iter().filter_map(|m| m["name"].as_str()).collect();
    assert!(names.contains(&"tiny:latest"), "{names:?}");
    assert!(
        names.contains(&"org/Small-GGUF/small-q4_k_m.gguf"),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.contains("mmproj")),
        "a projector is not a model: {names:?}"
    );
    let tiny = models
        .iter()
        .find(|m| m["name"] == "tiny:latest")
        .expect("tiny");
    assert_eq!(tiny["store"], "ollama");
    assert_eq!(tiny["architecture"], "llama");
    assert!(tiny["problem"].is_null(), "{tiny}");
    let cut = models
        .iter()
        .find(|m| m["store"] == "config")
        .expect("the configured file");
    assert!(
        cut["problem"]
            .as_str()
            .is_some_and(|p| p.contains("truncated")),
        "{cut}"
    );
    let levels = v["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 4);
    assert_eq!(levels[0]["level"], 2);
    assert_eq!(levels[0]["kind"], "file");
    assert!(levels[0]["model"]
        .as_str()
        .is_some_and(|m| m.ends_with("cut.gguf")));
    assert_eq!(v["engine"], cfg!(feature = "local-llm"));
    if !cfg!(feature = "local-llm") {
        // Without the engine, found models are listed but never chosen.
        assert_eq!(levels[1]["kind"], "none", "{v}");
    }
    let text: Out = repo
        .cmd("git-fararoni")
        .arg("models")
        .output()
        .expect("runs")
        .into();
    assert_eq!(text.code, 0, "{text}");
    assert!(
        text.stdout.contains("tiny:latest") && text.stdout.contains("level 3:"),
        "{text}"
    );
    assert_eq!(state(&repo), before, "models writes nothing");
}
