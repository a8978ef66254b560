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
//! Both apply only to native, dynamically linked builds for `*-linux-gnu`
//! whose linker driver is seen to accept them; anything else (a
//! `crt-static` build, a cross build, an old gcc without `-no-pie`) links as
//! Rust does by default.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
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
    if links(&out, &["-no-pie"]) {
        println!("cargo:rustc-link-arg-bins=-no-pie");
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
    let out = Command::new(driver())
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Without the file, the compiler echoes the bare name back.
    (out.status.success() && path.is_absolute() && Path::new(&path).is_file()).then_some(path)
}
