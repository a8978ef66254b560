#!/usr/bin/env bash
# The real-model tier: starts llama.cpp's server (the xllamacpp wheel) with
# SmolLM2-135M-Instruct on loopback via scripts/llm-server.py, runs the
# ignored tests that talk to it (`real_model` in tests/cli), stops the
# server, and prints how long each part took. A few model calls only:
# generation runs at a few tokens per second on 2 cores.
#
#   scripts/real-model-tier.sh            # setup (cached in target/llm-tier), serve, test
#   FARARONI_SKIP_REAL_MODEL=1 ...        # skip (e.g. offline); CI does not set it
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${FARARONI_SKIP_REAL_MODEL:-}" == 1 ]]; then
    echo "real-model tier: skipped (FARARONI_SKIP_REAL_MODEL=1)"
    exit 0
fi

start=$SECONDS
timeout 600 python3 scripts/llm-server.py --setup-only
setup=$((SECONDS - start))

# shellcheck source=scripts/llm-server-start.sh
. scripts/llm-server-start.sh
start_llm_server "real-model tier"
ready=$((SECONDS - start - setup))

t0=$SECONDS
timeout 900 cargo test --locked --test cli real_model -- --ignored --test-threads=1
tests=$((SECONDS - t0))
echo "real-model tier: setup ${setup}s, server ready ${ready}s, tests ${tests}s, total $((SECONDS - start))s"
