#!/usr/bin/env bash
# The real-model tier: starts llama.cpp's server (the xllamacpp wheel) on
# loopback via scripts/llm-server.py, once per model — SmolLM2-135M-Instruct
# (ChatML) and Gemma 3 270M (Gemma's template: no system role, strictly
# alternating turns), both GGUFs from PyPI packages — runs the ignored tests
# that talk to them (`real_model` in tests/cli; `real_model_gemma3` for
# Gemma), stops the servers, and prints how long each part took. A few
# model calls only: generation runs at a few tokens per second on 2 cores.
#
#   scripts/real-model-tier.sh            # setup (cached in target/llm-tier), serve, test
#   FARARONI_LLM_TIER_DIR=DIR ...         # cache elsewhere
#   FARARONI_SKIP_REAL_MODEL=1 ...        # skip (e.g. offline); CI does not set it
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${FARARONI_SKIP_REAL_MODEL:-}" == 1 ]]; then
    echo "real-model tier: skipped (FARARONI_SKIP_REAL_MODEL=1)"
    exit 0
fi

start=$SECONDS
timeout 600 python3 scripts/llm-server.py --setup-only --model smollm2
timeout 600 python3 scripts/llm-server.py --setup-only --model gemma3
setup=$((SECONDS - start))

# shellcheck source=scripts/llm-server-start.sh
. scripts/llm-server-start.sh
start_llm_server "real-model tier" smollm2 FARARONI_REAL_LLM_URL
start_llm_server "real-model tier" gemma3 FARARONI_REAL_LLM_URL_GEMMA3
ready=$((SECONDS - start - setup))

t0=$SECONDS
timeout 900 cargo test --locked --test cli real_model -- --ignored --test-threads=1 --skip real_model_gemma3
smollm2=$((SECONDS - t0))
t0=$SECONDS
timeout 900 cargo test --locked --test cli real_model_gemma3 -- --ignored --test-threads=1
gemma3=$((SECONDS - t0))
echo "real-model tier: setup ${setup}s, servers ready ${ready}s, tests smollm2 ${smollm2}s, gemma3 ${gemma3}s, total $((SECONDS - start))s"
