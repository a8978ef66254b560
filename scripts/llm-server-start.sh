# Sourced by the model tiers: starts llama.cpp's server (scripts/llm-server.py,
# the xllamacpp wheel) on loopback in the background, stops every server it
# started when the calling script exits, and exports the server's base URL
# once it answers.
#   start_llm_server "NAME" [MODEL [VAR]]
#     NAME prefixes the error messages; MODEL is llm-server.py's --model
#     (default smollm2); VAR the variable exported (default
#     FARARONI_REAL_LLM_URL).
LLM_SERVERS=()
LLM_FILES=()

stop_llm_servers() {
    local pid
    for pid in "${LLM_SERVERS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if (( ${#LLM_FILES[@]} )); then
        rm -f "${LLM_FILES[@]}"
    fi
}

start_llm_server() {
    local name=$1 model=${2:-smollm2} var=${3:-FARARONI_REAL_LLM_URL}
    local url_file log pid
    url_file=$(mktemp)
    rm -f "$url_file"
    log=$(mktemp)
    python3 scripts/llm-server.py --model "$model" --url-file "$url_file" >"$log" 2>&1 &
    pid=$!
    LLM_SERVERS+=("$pid")
    LLM_FILES+=("$url_file" "$log")
    trap stop_llm_servers EXIT
    trap "exit 130" INT TERM
    for _ in $(seq 1 600); do
        [[ -s "$url_file" ]] && break
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$log" >&2
            echo "$name: the $model server did not start" >&2
            exit 1
        fi
        sleep 0.2
    done
    if [[ ! -s "$url_file" ]]; then
        cat "$log" >&2
        echo "$name: the $model server was not ready within 120 s" >&2
        exit 1
    fi
    export "$var=$(cat "$url_file")"
}
