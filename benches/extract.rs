//! Benchmarks of text tool-call extraction (`agent::extract::find_calls`)
//! and of the SSE stream path:
//!
//! - `extract/prose/{256KB,1MB,4MB}`: a long reply of prose with braces,
//!   quotes and JSON examples, one real call at the end; equal throughput
//!   across sizes shows linear cost (the issue asks < 10 ms for 1 MB);
//! - `extract/tagged/1MB`: a reply made of `<tool_call>` blocks;
//! - `extract/unclosed/1MB`: `{` openings that never close (the worst case
//!   of brace matching, bounded by the scanner's work budget);
//! - `sse/1MB`: decoding and accumulating a 1 MB stream of text deltas.
//!
//! Run: `cargo bench --bench extract -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput};
use git_fararoni::agent::extract::find_calls;
use git_fararoni::agent::http::sse::{SseDecoder, StreamAccumulator};

fn prose(size: usize) -> String {
    let mut out = String::with_capacity(size + 200);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "Step {i}: the function {{ body }} returns \"a {{quoted}} value\" and the config is {{\"key\": {i}, \"list\": [1, 2, {{\"x\": \"]\"}}]}} in the file.\n"
        ));
        i += 1;
    }
    out.push_str("{\"name\": \"fs_read\", \"arguments\": {\"path\": \"src/main.rs\"}}\n");
    out
}

fn tagged(size: usize) -> String {
    let mut out = String::with_capacity(size + 200);
    let mut i = 0u64;
    while out.len() < size {
        out.push_str(&format!(
            "<tool_call>{{\"name\": \"fs_read\", \"arguments\": {{\"path\": \"src/f{i}.rs\"}}}}</tool_call>\n"
        ));
        i += 1;
    }
    out
}

fn sse_stream(size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 200);
    while out.len() < size {
        out.push_str(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hello world \"}}]}\n\n",
        );
    }
    out.push_str("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    out.into_bytes()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    {
        let mut g = c.benchmark_group("extract");
        for (label, size) in [("256KB", 256 << 10), ("1MB", 1 << 20), ("4MB", 4 << 20)] {
            let text = prose(size);
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_with_input(BenchmarkId::new("prose", label), &text, |b, t| {
                b.iter(|| {
                    let calls = find_calls(black_box(t));
                    assert_eq!(calls.len(), 1);
                    calls
                })
            });
        }
        let text = tagged(1 << 20);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("tagged/1MB", |b| b.iter(|| find_calls(black_box(&text))));
        let text = "{ \"a\": [".repeat((1 << 20) / 8);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("unclosed/1MB", |b| b.iter(|| find_calls(black_box(&text))));
        g.finish();
    }
    {
        let mut g = c.benchmark_group("sse");
        let bytes = sse_stream(1 << 20);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("1MB", |b| {
            b.iter(|| {
                let mut d = SseDecoder::default();
                let mut acc = StreamAccumulator::default();
                for chunk in bytes.chunks(1500) {
                    for p in d.push(chunk) {
                        let _ = acc.feed(&p);
                    }
                }
                acc.finish().0.content.len()
            })
        });
        g.finish();
    }
    c.final_summary();
}
