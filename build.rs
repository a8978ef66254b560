//! Links the binaries to start fast on Linux with glibc, where process start
//! is most of what `git fararoni ask "git status"` adds to `git status`:
//!
//! - `-no-pie`: a position-independent executable makes the dynamic loader
//!   apply ~13,000 relocations and copy every page of `.data.rel.ro` at each
//!   start; a fixed-address one has them resolved at link time (measured:
//!   95 page faults instead of 159, ~0.3 ms per process). The code is still
//!   compiled position-independent; only the final link changes.
//! - libgcc's unwinder linked in (`libgcc_eh.a`, as Rust's own static
//!   builds do) instead of loading `libgcc_s.so.1`, whose start-up
//!   constructor probes the CPU with `cpuid`, a trap under virtualisation
//!   (measured: ~0.2 ms per process in a VM). Only when the C compiler says
//!   where `libgcc_eh.a` is; otherwise the usual shared library is used.
//!
//! - glibc linked in (`-static`), when the C toolchain has its static
//!   archives (`libc.a`, Debian's libc6-dev, which gcc needs anyway): no
//!   dynamic loader runs at all — it was most of what is left between
//!   `ask "git status"` and `env git status` (measured: 1.014x against
//!   1.088x `env git status`). rustc asks for `-lc`, `-lm`, … after
//!   `-Bdynamic`; linker scripts of those names, on a search path given to
//!   the binaries only, hand the linker the archives instead (Rust's own
//!   `crt-static` would do the same but cannot build proc-macros without an
//!   explicit `--target`, which moves every output path). Host names still
//!   resolve: glibc 2.34+ keeps its `files` and `dns` lookups inside libc;
//!   other NSS modules are loaded from the system's glibc, which is the one
//!   linked when the binary is built where it runs (`cargo install`). Not
//!   with `--features local-llm` (llama.cpp brings C++ shared libraries)
//!   nor with `FARARONI_DYNAMIC=1` in the build's environment.
//!
//! All apply only to native, dynamically linked builds for `*-linux-gnu`
//! whose linker driver is seen to accept them; anything else (a
//! `crt-static` build, a cross build, an old gcc without `-no-pie`) links as
//! Rust does by default.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    println!("cargo:rerun-if-env-changed=FARARONI_DYNAMIC");
    let var = |k: &str| env::var(k).unwrap_or_default();
    let native = var("TARGET") == var("HOST");
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // A static build needs no loader, and `-no-pie` after rustc's
    // `-static-pie` would make a binary that asks for one and crashes.
    let static_crt = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if !native || !linux_gnu || static_crt {
        return;
    }
    let out = PathBuf::from(var("OUT_DIR"));
    if !links(&out, &["-no-pie"]) {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    let dynamic = env::var_os("CARGO_FEATURE_LOCAL_LLM").is_some()
        || env::var_os("FARARONI_DYNAMIC").is_some_and(|v| v == "1");
    if !dynamic {
        if let Some(dir) = static_libc(&out) {
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
            println!("cargo:rustc-link-arg-bins=-static");
        }
    }
    if let Some(eh) = libgcc_eh() {
        // rustc asks for `-lgcc_s`; a linker script of that name found first
        // on the search path hands the linker the static unwinder instead.
        let script = format!("INPUT(\"{}\")\n", eh.display());
        if std::fs::write(out.join("libgcc_s.so"), script).is_ok() {
            println!("cargo:rustc-link-search=native={}", out.display());
        }
    }
}

/// The linker driver rustc will call: the configured linker, else `CC`,
/// else `cc` (rustc's default on linux-gnu).
fn driver() -> String {
    env::var("RUSTC_LINKER")
        .or_else(|_| env::var("CC"))
        .unwrap_or_else(|_| "cc".to_string())
}

/// Whether the linker driver links a trivial C program with `flags`.
fn links(out: &Path, flags: &[&str]) -> bool {
    let src = out.join("probe.c");
    if std::fs::write(&src, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    Command::new(driver())
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(out.join("probe"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Returns where the linker driver keeps `libgcc_eh.a`, if it has one.
fn libgcc_eh() -> Option<PathBuf> {
    file_of("-print-file-name=libgcc_eh.a")
}

/// The C libraries rustc links a Rust binary with on linux-gnu.
const LIBC_PARTS: &[&str] = &["m", "dl", "pthread", "rt", "util"];

/// Writes linker scripts that stand for glibc's shared libraries but name
/// its static archives, in a folder of their own (given to the binaries
/// only: a test harness linked dynamically must keep the shared ones).
/// `None` when an archive is missing or the driver cannot link statically.
fn static_libc(out: &Path) -> Option<PathBuf> {
    if !links(out, &["-static", "-no-pie"]) {
        return None;
    }
    let archive = |name: &str| file_of(&format!("-print-file-name={name}"));
    let libc = archive("libc.a")?;
    let libgcc = file_of("-print-libgcc-file-name")?;
    let eh = libgcc_eh()?;
    let dir = out.join("static-libc");
    std::fs::create_dir_all(&dir).ok()?;
    let group = format!(
        "GROUP(\"{}\" \"{}\" \"{}\")\n",
        libc.display(),
        libgcc.display(),
        eh.display()
    );
    std::fs::write(dir.join("libc.so"), group).ok()?;
    for part in LIBC_PARTS {
        let a = archive(&format!("lib{part}.a"))?;
        std::fs::write(
            dir.join(format!("lib{part}.so")),
            format!("INPUT(\"{}\")\n", a.display()),
        )
        .ok()?;
    }
    Some(dir)
}

/// A file the linker driver names for `query` (`-print-file-name=…`),
/// if it exists.
fn file_of(query: &str) -> Option<PathBuf> {
    let out = Command::new(driver()).arg(query).output().ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Without the file, the compiler echoes the bare name back.
    (out.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}
