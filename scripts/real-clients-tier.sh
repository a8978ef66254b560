#!/usr/bin/env bash
# The real-clients tier: Claude Code, Gemini CLI and Codex CLI (pinned, from
# npm) driven end to end through `git fararoni hooks install` by a scripted
# model server, with the shared harness in ../shared/tools/real-agents/
# (read-only; its README says what each scenario does). This script only
# installs the clients (cached between runs), uses the binaries the test
# run built, runs the harness bounded, and judges its results.json:
#
#   REAL_CLIENTS_PASS    scenarios that must PASS for every client
#   REAL_CLIENTS_CLOSED  broken-guard scenarios (the harness only REPORTs
#                        them) that must change nothing and tell the model
#
#   scripts/real-clients-tier.sh              # as CI runs it
#   FARARONI_SKIP_REAL_CLIENTS=1 ...          # skip (offline); CI does not set it
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${FARARONI_SKIP_REAL_CLIENTS:-}" == 1 ]]; then
    echo "real-clients tier: skipped (FARARONI_SKIP_REAL_CLIENTS=1)"
    exit 0
fi

PASS=${REAL_CLIENTS_PASS:-a,b,c,d,e,f}
CLOSED=${REAL_CLIENTS_CLOSED:-g1,g2,g3}
AGENTS=${REAL_CLIENTS_AGENTS:-claude,gemini,codex}
TOOL=$(cd "${FARARONI_REAL_AGENTS:-../shared/tools/real-agents}" && pwd)
TARGET=${CARGO_TARGET_DIR:-$PWD/target}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/fararoni-real-agents
WORK=$TARGET/real-clients
start=$SECONDS

# The clients, installed once per pinned set (the installer's own text is
# the key: a new pin there installs again).
clients=$CACHE/clients
key=$(sha256sum "$TOOL/install-clients.sh" | cut -d' ' -f1)
if [[ "$(cat "$clients/.pinned" 2>/dev/null)" != "$key" ]]; then
    rm -rf "$clients"
    timeout 900 bash "$TOOL/install-clients.sh" "$clients" >/dev/null
    echo "$key" >"$clients/.pinned"
fi
install_s=$((SECONDS - start))

# The binaries `cargo test` already built (debug: the tier judges what the
# hook decides, not how fast; a release build would cost CI minutes more).
t0=$SECONDS
if ! timeout 1800 cargo build --locked --bins; then
    echo "real-clients tier: the build failed or took over 1800 s"
    exit 1
fi
rm -rf "$WORK"
mkdir -p "$WORK/bin"
cp "$TARGET"/debug/git-fararoni{,-saga,-shadow} "$WORK/bin/"
build_s=$((SECONDS - t0))

# The scenarios and the no-hook controls; no benchmark (its figures are not
# judged). The harness's own exit code also counts scenarios this tier does
# not assert yet: the verdicts below are read from results.json.
t0=$SECONDS
rc=0
AGENTS=$AGENTS BENCH=0 timeout 2400 bash "$TOOL/run-all.sh" "$WORK/bin" "$clients/node_modules/.bin" "$WORK/runs" || rc=$?
run_s=$((SECONDS - t0))
if [[ $rc == 124 ]]; then
    echo "real-clients tier: the harness did not finish within 2400 s"
    exit 1
fi

verdict=0
python3 - "$WORK/runs/results.json" "$AGENTS" "$PASS" "$CLOSED" <<'EOF' || verdict=$?
import json, sys
path, agents, must_pass, closed = sys.argv[1], *[a.split(",") if a else [] for a in sys.argv[2:]]
results = json.load(open(path))["results"]
def hooked(agent, key):
    rs = [r for r in results if r.get("agent") == agent and r.get("scenario") == key and r.get("hooked")]
    return rs[-1] if rs else None
bad = []
for r in results:
    if r.get("verdict") == "ERROR":
        bad.append("%s %s: ERROR %s" % (r.get("agent"), r.get("scenario"), r.get("why")))
    if r.get("control_effective") is False:
        print("note: %s %s: without the hook nothing changed either" % (r["agent"], r["scenario"]))
for a in agents:
    for k in must_pass:
        r = hooked(a, k)
        if r is None:
            bad.append("%s %s: not run" % (a, k))
        elif r["verdict"] != "PASS":
            bad.append("%s %s: %s %s" % (a, k, r["verdict"], "; ".join(r.get("fails", []))))
    for k in closed:
        r = hooked(a, k)
        if r is None:
            bad.append("%s %s: not run" % (a, k))
            continue
        saw = (r.get("calls") or [{}])[0].get("model_saw") or ""
        if r.get("changes"):
            bad.append("%s %s: the broken guard let it change %s" % (a, k, ", ".join(r["changes"])))
        if "fararoni guard" not in saw or "ask the user" not in saw:
            bad.append("%s %s: the model was not told of a veto (saw %r)" % (a, k, saw[:200]))
asserted = set(must_pass) | set(closed)
others = sorted({r.get("scenario") for r in results if r.get("hooked") and r.get("scenario") not in asserted and r.get("verdict")})
for k in others:
    row = []
    for a in agents:
        r = hooked(a, k)
        row.append("%s=%s" % (a, "-" if r is None else r["verdict"]))
    print("not asserted: %-3s %s" % (k, " ".join(row)))
if bad:
    print("real-clients tier FAILED:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("real-clients tier: %s PASS and %s closed for %s" % (",".join(must_pass), ",".join(closed), ",".join(agents)))
EOF
echo "real-clients tier: clients ${install_s}s, build ${build_s}s, scenarios ${run_s}s, total $((SECONDS - start))s"
exit $verdict
