//! The CPU extensions the engine's ggml was compiled for, checked before
//! the engine's first call.
//!
//! ggml's CPU code is built for x86-64-v3 (AVX, AVX2, FMA, F16C, BMI2; see
//! `.cargo/config.toml`): without AVX2/FMA its Q4/Q8 kernels are 5–6× slower.
//! Only the `ggml-cpu` objects get those flags (ggml's CMake adds them
//! PRIVATE to that one target), and nothing of them runs before the engine
//! loads a model, so a CPU without them can still run every other command;
//! the engine refuses with [`CpuError`] instead of dying with SIGILL.
//! `scripts/local-llm-tier.sh` proves it under `qemu-x86_64 -cpu Nehalem`.
//!
//! What ggml was built with is read at compile time from the same `GGML_*`
//! variables llama-cpp-sys-2's build script hands to CMake (cargo sets them
//! from `.cargo/config.toml`'s `[env]`, or the environment overrides them),
//! so the check follows the build: the portable build
//! (`--config .cargo/portable-cpu.toml`) needs only SSE4.2.

/// One CPU extension ggml can be compiled to use.
#[derive(Debug, Clone, Copy)]
pub struct Extension {
    /// The CMake option that turns it on (`GGML_AVX2`).
    pub option: &'static str,
    /// Its value when this crate was compiled (`None`: not set).
    pub value: Option<&'static str>,
    /// Whether ggml turns it on when the option is not set (non-native).
    pub default_on: bool,
    /// The name `/proc/cpuinfo` and `is_x86_feature_detected!` use.
    pub name: &'static str,
    /// Whether the CPU running this process has it.
    pub detect: fn() -> bool,
}

impl Extension {
    /// Whether ggml was compiled to use it (CMake's truthy values).
    pub fn built(&self) -> bool {
        match self.value {
            None => self.default_on,
            Some(v) => cmake_true(v),
        }
    }
}

/// CMake's true constants: `1`, `ON`, `YES`, `TRUE`, `Y` or a non-zero number.
fn cmake_true(v: &str) -> bool {
    let v = v.trim();
    ["1", "ON", "YES", "TRUE", "Y"]
        .iter()
        .any(|t| v.eq_ignore_ascii_case(t))
        || v.parse::<f64>().is_ok_and(|n| n != 0.0)
}

/// The x86 extensions ggml's CMake knows, in the order of its
/// `ggml/src/ggml-cpu/CMakeLists.txt` (each option adds its `-m` flags).
#[cfg(target_arch = "x86_64")]
pub const EXTENSIONS: &[Extension] = &[
    Extension {
        option: "GGML_SSE42",
        value: option_env!("GGML_SSE42"),
        default_on: true,
        name: "sse4.2",
        detect: || std::is_x86_feature_detected!("sse4.2"),
    },
    Extension {
        option: "GGML_F16C",
        value: option_env!("GGML_F16C"),
        default_on: true,
        name: "f16c",
        detect: || std::is_x86_feature_detected!("f16c"),
    },
    Extension {
        option: "GGML_FMA",
        value: option_env!("GGML_FMA"),
        default_on: true,
        name: "fma",
        detect: || std::is_x86_feature_detected!("fma"),
    },
    Extension {
        option: "GGML_BMI2",
        value: option_env!("GGML_BMI2"),
        default_on: true,
        name: "bmi2",
        detect: || std::is_x86_feature_detected!("bmi2"),
    },
    Extension {
        option: "GGML_AVX",
        value: option_env!("GGML_AVX"),
        default_on: true,
        name: "avx",
        detect: || std::is_x86_feature_detected!("avx"),
    },
    Extension {
        option: "GGML_AVX2",
        value: option_env!("GGML_AVX2"),
        default_on: true,
        name: "avx2",
        detect: || std::is_x86_feature_detected!("avx2"),
    },
    Extension {
        option: "GGML_AVX_VNNI",
        value: option_env!("GGML_AVX_VNNI"),
        default_on: false,
        name: "avxvnni",
        detect: || std::is_x86_feature_detected!("avxvnni"),
    },
    // GGML_AVX512 adds -mavx512f, -mavx512cd, -mavx512vl, -mavx512dq and
    // -mavx512bw: one option, five extensions.
    Extension {
        option: "GGML_AVX512",
        value: option_env!("GGML_AVX512"),
        default_on: false,
        name: "avx512f",
        detect: || std::is_x86_feature_detected!("avx512f"),
    },
    Extension {
        option: "GGML_AVX512",
        value: option_env!("GGML_AVX512"),
        default_on: false,
        name: "avx512cd",
        detect: || std::is_x86_feature_detected!("avx512cd"),
    },
    Extension {
        option: "GGML_AVX512",
        value: option_env!("GGML_AVX512"),
        default_on: false,
        name: "avx512vl",
        detect: || std::is_x86_feature_detected!("avx512vl"),
    },
    Extension {
        option: "GGML_AVX512",
        value: option_env!("GGML_AVX512"),
        default_on: false,
        name: "avx512dq",
        detect: || std::is_x86_feature_detected!("avx512dq"),
    },
    Extension {
        option: "GGML_AVX512",
        value: option_env!("GGML_AVX512"),
        default_on: false,
        name: "avx512bw",
        detect: || std::is_x86_feature_detected!("avx512bw"),
    },
    Extension {
        option: "GGML_AVX512_VBMI",
        value: option_env!("GGML_AVX512_VBMI"),
        default_on: false,
        name: "avx512vbmi",
        detect: || std::is_x86_feature_detected!("avx512vbmi"),
    },
    Extension {
        option: "GGML_AVX512_VNNI",
        value: option_env!("GGML_AVX512_VNNI"),
        default_on: false,
        name: "avx512vnni",
        detect: || std::is_x86_feature_detected!("avx512vnni"),
    },
    Extension {
        option: "GGML_AVX512_BF16",
        value: option_env!("GGML_AVX512_BF16"),
        default_on: false,
        name: "avx512bf16",
        detect: || std::is_x86_feature_detected!("avx512bf16"),
    },
];

/// Elsewhere ggml's own defaults for the target apply; nothing to check.
#[cfg(not(target_arch = "x86_64"))]
pub const EXTENSIONS: &[Extension] = &[];

/// The CPU lacks extensions the engine was compiled for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this CPU lacks {}, which the in-process engine was built to use",
    missing.join(", ")
)]
pub struct CpuError {
    /// The missing extensions, by their `/proc/cpuinfo` names.
    pub missing: Vec<&'static str>,
}

/// How to get a build that runs here, for the CLI's `hint:` line.
pub const PORTABLE_HINT: &str = "rebuild for the portable baseline (SSE4.2 only; slower on some quantizations): `cargo install --path . --features local-llm --config .cargo/portable-cpu.toml` in a checkout, or set GGML_AVX, GGML_AVX2, GGML_FMA, GGML_F16C and GGML_BMI2 to OFF when building; or use a model server (`fararoni.llm.model`)";

/// The extensions of `table` that were built in and that `has` says the
/// CPU lacks.
pub fn missing_from(table: &[Extension], has: impl Fn(&Extension) -> bool) -> Vec<&'static str> {
    table
        .iter()
        .filter(|e| e.built() && !has(e))
        .map(|e| e.name)
        .collect()
}

/// Checks this CPU against what the engine was compiled for. Cheap (CPUID
/// results are cached by std), so it runs before every engine is made.
/// Native builds (`-C target-cpu=native`) are not checked: the Rust code of
/// such a build already needs the build machine's CPU.
pub fn check() -> Result<(), CpuError> {
    let missing = missing_from(EXTENSIONS, |e| (e.detect)());
    if missing.is_empty() {
        Ok(())
    } else {
        Err(CpuError { missing })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(value: Option<&'static str>, default_on: bool, name: &'static str) -> Extension {
        Extension {
            option: "GGML_TEST",
            value,
            default_on,
            name,
            detect: || false,
        }
    }

    #[test]
    fn cmake_truthy_values_turn_an_option_on() {
        for v in ["ON", "on", "1", "YES", "true", "Y", " On ", "2"] {
            assert!(ext(Some(v), false, "x").built(), "{v}");
        }
        for v in [
            "OFF", "off", "0", "NO", "false", "N", "", "IGNORE", "NOTFOUND",
        ] {
            assert!(!ext(Some(v), true, "x").built(), "{v}");
        }
        assert!(ext(None, true, "x").built(), "unset: ggml's default");
        assert!(!ext(None, false, "x").built(), "unset: ggml's default");
    }

    #[test]
    fn only_built_and_absent_extensions_are_missing() {
        let table = [
            ext(Some("ON"), false, "avx2"),
            ext(Some("OFF"), true, "fma"),
            ext(None, true, "f16c"),
            ext(None, false, "avx512f"),
            ext(Some("ON"), false, "sse4.2"),
        ];
        assert_eq!(
            missing_from(&table, |e| e.name == "sse4.2"),
            vec!["avx2", "f16c"]
        );
        assert!(missing_from(&table, |_| true).is_empty());
    }

    #[test]
    fn the_error_names_what_is_missing_and_the_hint_the_switch() {
        let e = CpuError {
            missing: vec!["avx2", "fma"],
        };
        assert_eq!(
            e.to_string(),
            "this CPU lacks avx2, fma, which the in-process engine was built to use"
        );
        assert!(PORTABLE_HINT.contains(".cargo/portable-cpu.toml"));
        assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(".cargo/portable-cpu.toml")
            .is_file());
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_repository_builds_ggml_for_x86_64_v3() {
        // What this crate was compiled with is the repository's cargo
        // config unless the environment overrode a value (the portable
        // switch): then there is nothing to compare.
        let config = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".cargo/config.toml"),
        )
        .expect("cargo config");
        let configured = |option: &str| {
            config.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == option).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        if EXTENSIONS
            .iter()
            .any(|e| e.value.map(str::to_string) != configured(e.option))
        {
            eprintln!("GGML_* overridden by the environment: not the repository's build");
            return;
        }
        let built: Vec<_> = EXTENSIONS
            .iter()
            .filter(|e| e.built())
            .map(|e| e.name)
            .collect();
        assert_eq!(built, ["sse4.2", "f16c", "fma", "bmi2", "avx", "avx2"]);
    }
}
