#!/usr/bin/env bash
# CPU numbers for docs/benchmarks.md: single-sequence prefill/decode of the coder model in F16, Q8_0
# and Q4_K_M (quantized with hearth-cli quantize), then N concurrent requests on Q8_0.
#   bench/cpu/cpu-bench.sh CLI SHARED_DIR WORK_DIR [THREADS]
# Run it on a quiet machine: it prints one markdown table row per measurement.
set -euo pipefail
cli=${1:?hearth-cli}; shared=${2:?shared dir}; work=${3:?work dir}; threads=${4:-$(nproc)}
mkdir -p "$work"
f16="$shared/models/coder-f16.gguf"
for mix in Q8_0 Q4_K_M; do
  [[ -f "$work/coder-$mix.gguf" ]] || "$cli" quantize "$f16" "$work/coder-$mix.gguf" "$mix" > /dev/null
done
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(round(d[sys.argv[1]], 1))" "$1"; }
echo "| model | threads | prefill tok/s (pp512) | decode tok/s (tg128) |"
echo "|---|---:|---:|---:|"
for m in "$f16" "$work/coder-Q8_0.gguf" "$work/coder-Q4_K_M.gguf"; do
  best_p=0 best_d=0
  for rep in 1 2 3; do  # best of three: the machine's other work only ever slows a run down
    out=$("$cli" bench -m "$m" -p 512 -n 128 --threads "$threads" --json)
    p=$(echo "$out" | field prefill_tok_s); d=$(echo "$out" | field decode_tok_s)
    best_p=$(python3 -c "print(max($best_p, $p))"); best_d=$(python3 -c "print(max($best_d, $d))")
  done
  echo "| $(basename "$m") | $threads | $best_p | $best_d |"
done
echo
echo "| model | N concurrent | aggregate tok/s | TTFT p50 / p95 ms | ITL p50 / p95 ms |"
echo "|---|---:|---:|---:|---:|"
for n in 1 4 16; do
  out=$("$cli" bench -m "$work/coder-Q8_0.gguf" --concurrent "$n" --prompt-len 256 --gen-len 64 --threads "$threads" --json)
  echo "$out" | python3 -c "
import json,sys; d=json.loads(sys.stdin.read())
print(f\"| coder-Q8_0 | {d['concurrent']} | {d['aggregate_tok_s']:.0f} | {d['ttft_p50_ms']:.1f} / {d['ttft_p95_ms']:.1f} | {d['itl_p50_ms']:.2f} / {d['itl_p95_ms']:.2f} |\")"
done
