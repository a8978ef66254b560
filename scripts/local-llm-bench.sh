#!/usr/bin/env bash
# Benchmarks of the in-process engine, as ratios against
# llama.cpp's server (the xllamacpp wheel) on the same GGUF file, measured
# in one run so the machine's load weighs on both alike:
#   - load time, first-token latency (~250-token prompt), generation tokens/s
#     (RUNS fresh processes each, alternated, medians; 1 thread each, as on
#     a busy laptop);
#   - `git fararoni ask "hola"` end to end from process start (wall and CPU
#     time): the default build's built-in reply vs the feature build
#     answering with the model;
#   - a 3-step level-3-like run: prompt tokens evaluated and wall time per
#     step, with the kept context against starting over each step.
# Prints the figures and `uptime`. Needs scripts/local-llm-tier.sh's build.
#
#   scripts/local-llm-bench.sh [RUNS]       # default 3
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
tier_dir="${FARARONI_LLM_TIER_DIR:-$PWD/target/llm-tier}"
model="$tier_dir/SmolLM2-135M-Instruct.Q4_1.gguf"
timeout 600 python3 scripts/llm-server.py --setup-only
py="$tier_dir/venv/bin/python"
echo "load: $(uptime)"

timeout 1800 cargo build --locked --features local-llm --example local_bench --bin git-fararoni
bench=target/debug/examples/local_bench

# One fresh server process, one request: prints one JSON line.
server_once() {
timeout 300 "$py" - "$model" 1 examples/local_bench_prompt.txt <<'PY'
import json, sys, time, urllib.request
import xllamacpp as xlc
model, runs, prompt_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
prompt = open(prompt_file).read()
for _ in range(runs):
    p = xlc.CommonParams()
    p.model.path = model
    p.n_ctx = 2048
    p.cpuparams.n_threads = 1
    p.cpuparams_batch.n_threads = 1
    p.sampling.temp = 0
    p.sampling.top_k = 1
    t0 = time.time()
    s = xlc.Server(p)
    base = s.listening_address.rstrip("/")
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=2) as r:
                if r.status == 200:
                    break
        except Exception:
            time.sleep(0.02)
    load = time.time() - t0
    body = json.dumps({"messages": [{"role": "user", "content": prompt}], "max_tokens": 64,
                       "temperature": 0, "stream": True, "cache_prompt": False}).encode()
    req = urllib.request.Request(base + "/v1/chat/completions", body, {"Content-Type": "application/json"})
    t1 = time.time(); first = None; timings = {}
    with urllib.request.urlopen(req, timeout=600) as r:
        for line in r:
            line = line.decode().strip()
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            ev = json.loads(line[6:])
            if first is None and ev.get("choices") and ev["choices"][0].get("delta", {}).get("content"):
                first = time.time() - t1
            timings = ev.get("timings", timings)
    print(json.dumps({"load_ms": load * 1e3, "first_token_ms": (first or 0) * 1e3,
                      "tokens": timings.get("predicted_n"), "tokens_per_s": timings.get("predicted_per_second")}))
    del s
PY
}

# Alternated, so a change in the machine's load weighs on both alike.
local_json=""
server_json=""
for _ in $(seq "$runs"); do
    local_json+="$(timeout 300 "$bench" "$model" 1 64)"$'\n'
    server_json+="$(server_once)"$'\n'
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
field() { "$py" -c "import json,sys; [print(json.loads(l)['$1']) for l in sys.stdin if l.strip()]"; }
echo "| | in process | server | ratio (in process / server) |"
echo "|---|---|---|---|"
for f in load_ms first_token_ms tokens_per_s; do
    a=$(field "$f" <<<"$local_json" | median)
    b=$(field "$f" <<<"$server_json" | median)
    printf "| %s | %.1f | %.1f | %.2f |\n" "$f" "$a" "$b" "$("$py" -c "print($a/$b if $b else 0)")"
done

# `ask "hola"` from process start, in a scratch repository.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmp.err"' EXIT
git -C "$tmp" init -q
hola() { # prints "WALL_MS CPU_MS" (CPU: user + system of the process)
    local t0 t1 cpu
    t0=$(date +%s%N)
    ( cd "$tmp" && TIMEFORMAT=%3U+%3S; { time "$@" ask hola >/dev/null 2>"$tmp.err"; } 2>"$tmp.time" ) || true
    if grep -q "did not answer" "$tmp.err"; then echo "ask hola fell back to the built-in reply: $(cat "$tmp.err")" >&2; fi
    t1=$(date +%s%N)
    cpu=$("$py" -c "print(round(($(cat "$tmp.time"))*1000))")
    echo "$(( (t1 - t0) / 1000000 )) $cpu"
}
default_bin=${FARARONI_DEFAULT_BIN:-}
if [[ -n "$default_bin" ]]; then
    d=$(for _ in $(seq "$runs"); do hola env -u FARARONI_CHAT_GGUF "$default_bin"; done)
    echo "ask hola, default build (built-in reply): $(cut -d' ' -f1 <<<"$d" | median) ms wall, $(cut -d' ' -f2 <<<"$d" | median) ms CPU"
fi
e=$(for _ in $(seq "$runs"); do hola env FARARONI_CHAT_GGUF="$model" "$PWD/target/debug/git-fararoni"; done)
echo "ask hola, in-process model (load + reply): $(cut -d' ' -f1 <<<"$e" | median) ms wall, $(cut -d' ' -f2 <<<"$e" | median) ms CPU"

# Three steps of a level-3-like run (32 tokens each), one process.
echo "| step | context | prompt tokens | evaluated | first token ms | wall ms |"
echo "|---|---|---|---|---|---|"
timeout 600 "$bench" "$model" 1 32 3 | "$py" -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print("| %d | %s | %d | %d | %.0f | %.0f |" % (r["step"], "kept" if r["kept_context"] else "fresh",
          r["prompt_tokens"], r["prompt_evaluated"], r["first_token_ms"], r["wall_ms"]))'

echo "load: $(uptime)"
