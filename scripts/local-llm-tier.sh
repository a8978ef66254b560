#!/usr/bin/env bash
# The in-process tier: builds git-fararoni with the `local-llm`
# feature (llama.cpp inside the process), then runs the ignored
# `local_engine` tests against SmolLM2-135M-Instruct with no server in the
# way: level 2 answers "hola", a level-3 task makes a schema-valid call in
# the constrained mode and completes, Ctrl-C stops between tokens. Only the
# tokenizer comparison talks to llama.cpp's server (the xllamacpp wheel of
# scripts/llm-server.py) on the same file, as the reference. Last, the
# build runs under qemu-user as a CPU without AVX (scripts/old-cpu-check.sh):
# ggml is built for x86-64-v3, and nothing may die with SIGILL there.
#
#   scripts/local-llm-tier.sh              # install build deps if missing, build, test
#   FARARONI_SKIP_LOCAL_LLM=1 ...          # skip (e.g. offline)
#
# The model file and the server's venv are the real-model tier's cache
# (target/llm-tier, or $FARARONI_LLM_TIER_DIR): nothing is downloaded twice,
# nothing from a model hub.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${FARARONI_SKIP_LOCAL_LLM:-}" == 1 ]]; then
    echo "local-llm tier: skipped (FARARONI_SKIP_LOCAL_LLM=1)"
    exit 0
fi
start=$SECONDS

# llama-cpp-sys-2 builds llama.cpp with cmake and generates its bindings
# with bindgen (libclang); a C++ compiler does the rest.
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v g++ >/dev/null || missing+=(g++)
# bindgen loads the C library libclang.so[.N] or libclang-N.so[.N]; the
# C++ one (libclang-cpp.so, which LLVM packages bring along) is not it.
compgen -G '/usr/lib/llvm-*/lib/libclang.so*' >/dev/null \
    || compgen -G '/usr/lib/*-linux-gnu/libclang.so*' >/dev/null \
    || compgen -G '/usr/lib/*-linux-gnu/libclang-[0-9]*.so*' >/dev/null \
    || [[ -n "${LIBCLANG_PATH:-}" ]] \
    || missing+=(libclang-dev)
if (( ${#missing[@]} )); then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        echo "local-llm tier: installing ${missing[*]}"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null
    else
        echo "local-llm tier: needs ${missing[*]} (install them, or set FARARONI_SKIP_LOCAL_LLM=1)" >&2
        exit 1
    fi
fi
deps=$((SECONDS - start))

timeout 600 python3 scripts/llm-server.py --setup-only
tier_dir="${FARARONI_LLM_TIER_DIR:-$PWD/target/llm-tier}"
FARARONI_LOCAL_GGUF="$tier_dir/SmolLM2-135M-Instruct.Q4_1.gguf"
export FARARONI_LOCAL_GGUF
setup=$((SECONDS - start - deps))

t0=$SECONDS
# The long part (~700 CPU-seconds the first time): llama.cpp itself.
cargo test --locked --features local-llm --test cli --no-run
build=$((SECONDS - t0))

# shellcheck source=scripts/llm-server-start.sh
. scripts/llm-server-start.sh
start_llm_server "local-llm tier"

t0=$SECONDS
timeout 900 cargo test --locked --features local-llm --test cli local_engine -- --ignored --test-threads=1
tests=$((SECONDS - t0))

t0=$SECONDS
cargo build --locked --features local-llm --bin git-fararoni
timeout 900 scripts/old-cpu-check.sh target/debug/git-fararoni "$FARARONI_LOCAL_GGUF"
old_cpu=$((SECONDS - t0))
echo "local-llm tier: deps ${deps}s, model ${setup}s, build ${build}s, tests ${tests}s, old cpu ${old_cpu}s, total $((SECONDS - start))s"
