//! What `git fararoni guard check OLD NEW` costs as a process, at 1, 2, 5
//! and 10 MB, against `wc -l OLD NEW` on the same pair (a process that
//! reads both files whole and counts their lines: the floor for judging
//! them; `cmp` would stop at the first difference) and `true` (a bare
//! process start). Three kinds of pair, Rust made of small
//! functions:
//!
//! - `edit`: one function changed in the middle (a file edited);
//! - `spread`: every 40th line changed (about 6,000 hunks per MB, all of
//!   them ordinary edits);
//! - `gutted`: every 25th body replaced by a comment (removals with a
//!   stand-in all through the file: the structural judgement's worst case,
//!   blocked).
//!
//! Runs are interleaved and reported as medians, with the ratio to `wc -l`
//! and the cost per MB relative to the 1 MB pair (1.00 all the way down is
//! linear), so a busy machine slows every column alike.
//!
//! Run: `cargo bench --bench guard_check` (ROUNDS=N for other than 15
//! rounds; BASELINE=/path/to/another/git-fararoni adds its columns, for a
//! before/after in one run).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;
use common::{median, ms, timed};

/// About `size` bytes of Rust: small functions.
fn source(size: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut len = 0;
    let mut i = 0u64;
    while len < size {
        let f = format!(
            "fn f{i}(x: u64) -> u64 {{\n    let y = x.wrapping_mul({});\n    y + {}\n}}\n",
            i.wrapping_mul(2_654_435_761) % 100_000,
            i % 97
        );
        len += f.len();
        out.push(f);
        i += 1;
    }
    out
}

fn pair(kind: &str, size: usize) -> (String, String) {
    let fns = source(size);
    let old = fns.concat();
    let new = match kind {
        "edit" => {
            let mut f = fns.clone();
            let mid = f.len() / 2;
            f[mid] = f[mid].replacen("y + ", "y - ", 1);
            f.concat()
        }
        "spread" => old
            .split_inclusive('\n')
            .enumerate()
            .map(|(n, l)| {
                if n % 40 == 17 && l.contains("wrapping_mul") {
                    l.replacen("wrapping_mul", "saturating_mul", 1)
                } else {
                    l.to_string()
                }
            })
            .collect(),
        _ => fns
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if i % 25 == 3 {
                    let header = f.lines().next().unwrap_or_default();
                    format!("{header}\n    // same as before\n}}\n")
                } else {
                    f.clone()
                }
            })
            .collect(),
    };
    (old, new)
}

fn run(program: &Path, args: &[&Path], dir: &Path) -> Duration {
    let (t, status) = timed(Command::new(program).args(args), dir);
    // 0 pass, 3 block: anything else is a failure.
    assert!(
        matches!(status.code(), Some(0 | 3)),
        "{} {args:?}: {status}",
        program.display()
    );
    t
}

fn main() {
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let bin = Path::new(env!("CARGO_BIN_EXE_git-fararoni"));
    let baseline = std::env::var_os("BASELINE").map(std::path::PathBuf::from);
    let (wc, truth) = (Path::new("wc"), Path::new("true"));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    println!("guard check as a process, median of {rounds} interleaved runs:");
    println!(
        "  {:<16} {:>9} {:>9} {:>9} {:>8} {:>9}",
        "pair", "true ms", "wc ms", "check ms", "x wc", "per MB"
    );
    for kind in ["edit", "spread", "gutted"] {
        let mut per_mb_1 = None;
        for mb in [1usize, 2, 5, 10] {
            let (old, new) = pair(kind, mb << 20);
            let (o, n) = (
                d.join(format!("old-{mb}.rs")),
                d.join(format!("new-{mb}.rs")),
            );
            std::fs::write(&o, old).expect("write");
            std::fs::write(&n, new).expect("write");
            let check = [Path::new("guard"), Path::new("check"), &o, &n];
            let (mut t_true, mut t_wc, mut t_check, mut t_base) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..rounds {
                t_true.push(run(truth, &[], d));
                t_wc.push(run(wc, &[Path::new("-l"), &o, &n], d));
                t_check.push(run(bin, &check, d));
                if let Some(b) = &baseline {
                    t_base.push(run(b, &check, d));
                }
            }
            let (tt, tc, tk) = (median(t_true), median(t_wc), median(t_check));
            let per_mb = tk.as_secs_f64() / mb as f64;
            let base = *per_mb_1.get_or_insert(per_mb);
            println!(
                "  {:<16} {:>9.2} {:>9.2} {:>9.2} {:>8.1} {:>9.2}",
                format!("{kind} {mb}MB"),
                ms(tt),
                ms(tc),
                ms(tk),
                tk.as_secs_f64() / tc.as_secs_f64(),
                per_mb / base
            );
            if !t_base.is_empty() {
                let tb = median(t_base);
                println!(
                    "  {:<16} {:>9} {:>9} {:>9.2} {:>8.1}",
                    "  BASELINE",
                    "",
                    "",
                    ms(tb),
                    tb.as_secs_f64() / tc.as_secs_f64()
                );
            }
        }
    }
}
