#!/usr/bin/env bash
# Speculative decoding benchmark on real code: greedy continuations of Python prompts with
# speculation off, prompt lookup (ngram), a domain index and the coder draft model; one request at
# a time (decode tok/s per request) and N at once (aggregate tok/s). Every speculative run's
# tokens are checked against the plain run's (they must be identical).
#
#   bench/spec/spec-bench.sh CLI MODEL DRAFT_MODEL TEXT [OUT_DIR] [extra hearth-cli flags...]
#
# Prompts: PROMPTS (default 8) windows of ~1500 characters from the second half of TEXT; the
# index is built from the first half, so what it proposes comes from the same code base but not
# from the prompt's own file region. N concurrent: CONC (default 8). Tokens per request: GEN (128).
set -euo pipefail
cli=${1:?hearth-cli}; model=${2:?model}; draft=${3:?draft model}; text=${4:?text file}
out=${5:-$(mktemp -d)}; shift $(( $# < 5 ? $# : 5 ))
extra=("$@")
PROMPTS=${PROMPTS:-8} CONC=${CONC:-8} GEN=${GEN:-128}
mkdir -p "$out"
python3 - "$text" "$out" "$PROMPTS" "$GEN" <<'PY'
import json, sys
text, out, n, gen = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
half = len(text) // 2
open(out + "/index-src.py", "w", encoding="utf-8").write(text[:half])
rest = text[half:]
with open(out + "/prompts.jsonl", "w") as f:
    for i in range(n):
        start = rest.find("\ndef ", (len(rest) // (n + 1)) * i) + 1
        f.write(json.dumps({"prompt": rest[start:start + 1500], "n": gen, "temp": 0, "ignore_eos": True}) + "\n")
PY
"$cli" index build --model "$model" --out "$out/code.hidx" --quiet "$out/index-src.py" > "$out/index.json"

run() {  # name mode(sequential|batch) spec...
  local name=$1 mode=$2; shift 2
  local flags=(); [[ $mode == sequential ]] && flags=(--sequential)
  "$cli" run -m "$model" --prompts "$out/prompts.jsonl" --max-seqs "$CONC" "${flags[@]}" "${extra[@]}" "$@" > "$out/$name-$mode.jsonl"
}
for mode in sequential batch; do
  run off $mode
  run ngram $mode --spec ngram
  run index $mode --spec "index:$out/code.hidx"
  run draft $mode --spec "draft:$draft"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def load(name):
    return [json.loads(l) for l in open(f"{out}/{name}.jsonl")]
def diverge(a, b):
    return next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), None)
def same_count(runs, ref):
    firsts = [diverge(a["tokens"], b["tokens"]) for a, b in zip(runs, ref)]
    n = sum(f is None for f in firsts)
    tail = "" if n == len(runs) else " (first difference at token " + ", ".join(str(f) for f in firsts if f is not None) + ")"
    return f"{n}/{len(runs)}{tail}"
print("| proposer | 1 at a time: decode tok/s (mean) | speedup | %d at once: aggregate tok/s | speedup | drafts accepted | same tokens as off: 1 at a time / batched |" % len(load("off-batch")))
print("|---|---|---|---|---|---|---|")
base = {}
for name in ["off", "ngram", "index", "draft"]:
    seq, bat = load(name + "-sequential"), load(name + "-batch")
    dec = sum(r["timings"]["decode_tok_s"] for r in seq) / len(seq)
    agg = sum(len(r["tokens"]) for r in bat) / (max(r["total_ms"] for r in bat) / 1000)
    if name == "off": base = {"dec": dec, "agg": agg, "seq": seq, "bat": bat}
    prop = sum(r.get("speculative", {}).get("proposed", 0) for r in seq + bat)
    acc = sum(r.get("speculative", {}).get("accepted", 0) for r in seq + bat)
    rate = f"{acc}/{prop} ({100 * acc / prop:.0f}%)" if prop else "-"
    same = "-" if name == "off" else f"{same_count(seq, base['seq'])} / {same_count(bat, base['bat'])}"
    print(f"| {name} | {dec:.1f} | {dec / base['dec']:.2f}x | {agg:.1f} | {agg / base['agg']:.2f}x | {rate} | {same} |")
print()
print("without speculation, batched vs one at a time: same tokens for " + same_count(base["bat"], base["seq"]))
PY
