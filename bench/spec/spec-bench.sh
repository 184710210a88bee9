#!/usr/bin/env bash
# Speculative decoding benchmark on real code: greedy generations with speculation off, prompt
# lookup (ngram), a domain index and the draft model; one request at a time (decode tok/s per
# request) and N at once for each N in CONC (aggregate tok/s). Every speculative run's tokens are
# compared with the plain run's, and the table says how many are the same and where they differ.
#
#   bench/spec/spec-bench.sh CLI MODEL DRAFT_MODEL TEXT [OUT_DIR] [extra hearth-cli flags...]
#
# TASK=continue (default): windows of ~1500 characters from the second half of TEXT, to continue.
# TASK=edit: the same windows followed by "# The code above, refactored with the same behaviour:"
#   and the window's first line again (an input-grounded edit: the reply mostly restates the code).
# The index is built from TEXT's first half (same code base, not the prompts' own region).
# PROMPTS (default 8) prompts; CONC (default "8") the batch sizes, each runs that many requests
# (the prompts repeated); GEN (default 128) tokens per request; METHODS (default all four); REPS
# (default 1) runs of each, the median speed reported (token checks use the first run); STEP_LOGS=1
# writes each run's per-step trace (HEARTH_STEP_LOG) to steps-METHOD-N.log beside the results;
# WARMUP=1 runs every prompt once unreported first in each process (`run --warmup`: the steady state
# of a server that is already up, without its first requests' kernel loading and graph captures).
set -euo pipefail
cli=${1:?hearth-cli}; model=${2:?model}; draft=${3:?draft model}; text=${4:?text file}
out=${5:-$(mktemp -d)}; shift $(( $# < 5 ? $# : 5 ))
extra=("$@")
PROMPTS=${PROMPTS:-8} CONC=${CONC:-8} GEN=${GEN:-128} TASK=${TASK:-continue}
METHODS=${METHODS:-off ngram index draft}
mkdir -p "$out"
python3 - "$text" "$out" "$PROMPTS" "$GEN" "$TASK" $CONC <<'PY'
import json, sys
text, out, n, gen, task = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
concs = [int(c) for c in sys.argv[6:]]
half = len(text) // 2
open(out + "/index-src.py", "w", encoding="utf-8").write(text[:half])
rest = text[half:]
prompts = []
for i in range(n):
    start = rest.find("\ndef ", (len(rest) // (n + 1)) * i) + 1
    window = rest[start:start + 1500]
    if task == "edit":
        window = window[:window.rfind("\n") + 1]
        window += "\n\n# The code above, refactored with the same behaviour:\n" + window.split("\n")[0] + "\n"
    prompts.append({"prompt": window, "n": gen, "temp": 0, "ignore_eos": True})
def write(name, items):
    with open(f"{out}/{name}", "w") as f:
        for p in items: f.write(json.dumps(p) + "\n")
write("prompts-1.jsonl", prompts)
for c in concs: write(f"prompts-{c}.jsonl", [prompts[i % n] for i in range(c)])
PY
"$cli" index build --model "$model" --out "$out/code.hidx" --quiet "$out/index-src.py" > "$out/index.json"

spec_flags() {
  case $1 in
    off) ;;
    ngram) echo "--spec ngram" ;;
    index) echo "--spec index:$out/code.hidx" ;;
    draft) echo "--spec draft:$draft" ;;
  esac
}
# REPS (default 1) runs of every configuration, methods interleaved round by round (so a slow
# spell of the machine hits all of them alike); speeds are the median over the runs.
REPS=${REPS:-1}
for ((rep = 0; rep < REPS; rep++)); do
  sfx=$([ "$rep" = 0 ] || echo ".$rep")
  for m in $METHODS; do
    # shellcheck disable=SC2046
    HEARTH_STEP_LOG=${STEP_LOGS:+$out/steps-$m-1.log$sfx} \
      "$cli" run -m "$model" --prompts "$out/prompts-1.jsonl" --sequential ${WARMUP:+--warmup} "${extra[@]}" $(spec_flags "$m") > "$out/$m-1.jsonl$sfx"
    for c in $CONC; do
      # shellcheck disable=SC2046
      HEARTH_STEP_LOG=${STEP_LOGS:+$out/steps-$m-$c.log$sfx} \
        "$cli" run -m "$model" --prompts "$out/prompts-$c.jsonl" --max-seqs "$c" ${WARMUP:+--warmup} "${extra[@]}" $(spec_flags "$m") > "$out/$m-$c.jsonl$sfx"
    done
  done
done
REPS=$REPS python3 - "$out" "$TASK" "$METHODS" 1 $CONC <<'PY'
import json, sys
out, task, methods, concs = sys.argv[1], sys.argv[2], sys.argv[3].split(), [int(c) for c in sys.argv[4:]]
import os
reps = int(os.environ.get("REPS", "1"))
def load(name): return [json.loads(l) for l in open(f"{out}/{name}.jsonl")]
def diverge(a, b): return next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), None)
def same(runs, ref):
    firsts = [diverge(a["tokens"], b["tokens"]) for a, b in zip(runs, ref)]
    k = sum(f is None for f in firsts)
    diff = sorted(set(f for f in firsts if f is not None))
    return f"{k}/{len(runs)}" + (f" (from token {', '.join(map(str, diff[:4]))})" if diff else "")
print(f"task: {task}" + (f", median of {reps} runs" if reps > 1 else ""))
print("| proposer | requests at once | tok/s | vs off | drafts accepted | same tokens as off |")
print("|---|---:|---:|---:|---:|---|")
base = {}
for m in methods:
    for c in concs:
        runs = load(f"{m}-{c}")
        def speed_of(runs):
            if c == 1:  # one at a time: mean decode speed of a request
                return sum(r["timings"]["decode_tok_s"] for r in runs) / len(runs)
            # all at once: generated tokens over the batch's wall time (prefills included)
            return sum(len(r["tokens"]) for r in runs) / (max(r["total_ms"] for r in runs) / 1000)
        speeds = sorted([speed_of(runs)] + [speed_of([json.loads(l) for l in open(f"{out}/{m}-{c}.jsonl.{k}")])
                                             for k in range(1, reps)])
        speed = speeds[len(speeds) // 2]
        if m == "off": base[c] = (speed, runs)
        prop = sum(r.get("speculative", {}).get("proposed", 0) for r in runs)
        acc = sum(r.get("speculative", {}).get("accepted", 0) for r in runs)
        rate = f"{acc}/{prop} ({100 * acc / prop:.0f}%)" if prop else "-"
        ref = base.get(c)
        vs = f"{speed / ref[0]:.2f}x" if ref else "-"
        print(f"| {m} | {c} | {speed:.1f} | {vs} | {rate} | {same(runs, ref[1]) if ref and m != 'off' else '-'} |")
if "off" in methods and len(concs) > 1:
    one = load("off-1")
    print()
    for m in methods:
        for c in concs[1:]:
            runs = load(f"{m}-{c}")[:len(one)]
            print(f"{'without speculation' if m == 'off' else m}, {c} at once vs without speculation one at a time: same tokens for {same(runs, one)}")
PY
