#!/usr/bin/env bash
# The x86-64-v3 engine on a CPU without AVX: runs a build with
# `--features local-llm` under qemu-user emulating a Nehalem (SSE4.2, no
# AVX/AVX2/FMA/F16C/BMI2). Every command that does not need the model
# must work, and the engine must refuse with its CPU error, never die with
# SIGILL: level 2 falls back to the built-in reply, level 3 exits 4.
# A control first proves the emulator traps AVX2 at all (a check that
# passes because nothing traps proves nothing).
#
#   scripts/old-cpu-check.sh BINARY MODEL.gguf
#   FARARONI_SKIP_OLD_CPU=1 ...      # skip
#
# Installs Debian's qemu-user when missing and allowed (root + apt-get);
# else skips with a message. Bounded: each run has a timeout.
set -euo pipefail
bin=$(realpath "$1")
model=$(realpath "$2")
cpu=${FARARONI_OLD_CPU_MODEL:-Nehalem}

if [[ "${FARARONI_SKIP_OLD_CPU:-}" == 1 ]]; then
    echo "old-cpu check: skipped (FARARONI_SKIP_OLD_CPU=1)"
    exit 0
fi
if [[ "$(uname -m)" != x86_64 ]]; then
    echo "old-cpu check: skipped (not x86_64)"
    exit 0
fi
if ! command -v qemu-x86_64 >/dev/null; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        echo "old-cpu check: installing qemu-user"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq qemu-user) >/dev/null 2>&1 || true
    fi
    if ! command -v qemu-x86_64 >/dev/null; then
        echo "old-cpu check: skipped (qemu-user is not installed and cannot be installed here)"
        exit 0
    fi
fi
emu() { timeout 300 qemu-x86_64 -cpu "$cpu" "$@"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "old-cpu check FAILED: $*" >&2; exit 1; }

# The control: an AVX2 instruction must trap under the emulated CPU.
if command -v cc >/dev/null; then
    cat >"$tmp/avx2.c" <<'C'
#include <immintrin.h>
__attribute__((target("avx2"), noinline)) void twice(int *p) {
    __m256i a = _mm256_loadu_si256((__m256i *)p);
    _mm256_storeu_si256((__m256i *)p, _mm256_add_epi32(a, a));
}
int main(int argc, char **argv) { int x[8] = {argc}; (void)argv; twice(x); return x[0] == 2 ? 0 : 1; }
C
    cc -O2 -o "$tmp/avx2" "$tmp/avx2.c"
    "$tmp/avx2" || fail "the AVX2 control does not run natively"
    rc=0; emu "$tmp/avx2" 2>/dev/null || rc=$?
    [[ $rc == 132 ]] || fail "qemu -cpu $cpu does not trap AVX2 (exit $rc): this check would prove nothing"
fi

repo="$tmp/repo"
git init -q "$repo"
git -C "$repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
printf 'The project is called Fararoni.\n' >"$repo/NOTES.md"
export HOME="$tmp" GIT_CONFIG_NOSYSTEM=1 FARARONI_LLM_BASE_URL=http://127.0.0.1:9/v1
# qemu-user emulates only the program it starts (a child it execs runs
# natively), so settings go in through the environment, never via `env`.
run() { # EXPECTED-EXIT NAME [VAR=VALUE] -- ARGS... ; output in $tmp/out, $tmp/err
    local want=$1 name=$2 rc=0 vars=()
    shift 2
    while [[ $1 != -- ]]; do vars+=("$1"); shift; done
    shift
    (cd "$repo" && env "${vars[@]}" timeout 300 qemu-x86_64 -cpu "$cpu" "$bin" "$@" >"$tmp/out" 2>"$tmp/err") || rc=$?
    [[ $rc != 132 ]] || fail "$name died with SIGILL under -cpu $cpu"
    [[ $rc == "$want" ]] || fail "$name exited $rc, expected $want: $(cat "$tmp/err")"
    echo "old-cpu check: $name: exit $rc"
}
run 0 'ask "git status"' -- ask "git status"
grep -q . "$tmp/out" || fail 'ask "git status" printed nothing'
run 0 'models' FARARONI_CHAT_GGUF="$model" -- models
grep -qF "$model" "$tmp/out" || fail "models does not list the file: $(cat "$tmp/out")"
run 0 'ask hola (level 2, model set)' FARARONI_CHAT_GGUF="$model" -- ask hola
grep -q "did not answer.*lacks .*avx2" "$tmp/err" || fail "level 2 did not fall back with the CPU error: $(cat "$tmp/err")"
grep -q . "$tmp/out" || fail "level 2 printed no built-in reply"
run 4 'ask (level 3, model set)' FARARONI_LLM_GGUF="$model" -- ask "Read the file NOTES.md and tell me what the project is called"
grep -q "lacks .*avx2" "$tmp/err" || fail "level 3 did not name the missing extensions: $(cat "$tmp/err")"
grep -q "portable-cpu.toml" "$tmp/err" || fail "level 3 did not say how to rebuild: $(cat "$tmp/err")"
# The other control: on an emulated CPU that has them, the check lets the
# engine run (it then times out, emulated; no CPU error, no SIGILL).
old_cpu=$cpu
cpu=Haswell
run 0 'ask hola (level 2, emulated Haswell)' FARARONI_CHAT_GGUF="$model" FARARONI_CHAT_TIMEOUT=5 FARARONI_CHAT_MAX_TOKENS=4 -- ask hola
! grep -q "lacks" "$tmp/err" || fail "the CPU check refused a CPU with AVX2: $(cat "$tmp/err")"
echo "old-cpu check: passed under qemu -cpu $old_cpu"
