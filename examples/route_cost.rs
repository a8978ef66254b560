//! Routes one request many times, for instruction counts that machine load
//! cannot move (the criterion figures of `benches/router.rs` can):
//!
//! ```text
//! cargo build --profile bench --example route_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/route_cost 1 "git status"    # start-up + 1
//! valgrind ... target/release/examples/route_cost 101 "git status"  # + 101
//! ```
//!
//! The difference of the two totals over 100 is what one routing costs;
//! `scripts/route-cost.sh` does it for every input of the router bench.

use git_fararoni::router::{route, NoFacts};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let input = args.next().unwrap_or_default();
    let facts = NoFacts::new();
    let mut levels = 0usize;
    for _ in 0..n {
        if let Ok(d) = route(std::hint::black_box(&input), &facts) {
            levels += d.commands.len();
        }
    }
    std::process::exit(i32::from(levels == usize::MAX));
}
