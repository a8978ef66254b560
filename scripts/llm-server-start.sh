# Sourced by the model tiers: starts llama.cpp's server (scripts/llm-server.py,
# the xllamacpp wheel) on loopback in the background, stops it when the
# calling script exits, and exports FARARONI_REAL_LLM_URL once it answers.
#   start_llm_server "NAME"   # NAME prefixes the error messages
start_llm_server() {
    local name=$1
    LLM_URL_FILE=$(mktemp)
    rm -f "$LLM_URL_FILE"
    LLM_LOG=$(mktemp)
    python3 scripts/llm-server.py --url-file "$LLM_URL_FILE" >"$LLM_LOG" 2>&1 &
    LLM_SERVER=$!
    trap 'kill "$LLM_SERVER" 2>/dev/null || true; wait "$LLM_SERVER" 2>/dev/null || true; rm -f "$LLM_URL_FILE" "$LLM_LOG"' EXIT
    trap "exit 130" INT TERM
    for _ in $(seq 1 600); do
        [[ -s "$LLM_URL_FILE" ]] && break
        if ! kill -0 "$LLM_SERVER" 2>/dev/null; then
            cat "$LLM_LOG" >&2
            echo "$name: the server did not start" >&2
            exit 1
        fi
        sleep 0.2
    done
    if [[ ! -s "$LLM_URL_FILE" ]]; then
        cat "$LLM_LOG" >&2
        echo "$name: the server was not ready within 120 s" >&2
        exit 1
    fi
    FARARONI_REAL_LLM_URL=$(cat "$LLM_URL_FILE")
    export FARARONI_REAL_LLM_URL
}
