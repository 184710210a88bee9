#!/usr/bin/env bash
# hearth-cli's --kv-type: f16 and q8_0 run on the CPU; fp8 is accepted by the flag parser and then
# refused by the CPU backend with its reason (it needs a GPU), as is q8_0 for heads it cannot
# hold; anything else is a flag error. No case may crash or hang.
set -uo pipefail
cli=$1
shared=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
model="$shared/models/tiny-llama-f16.gguf"  # head size 64: q8_0 KV needs a multiple of 32
run() { timeout 120 "$cli" run -m "$model" -p "Once upon a time" -n 8 --temp 0 --threads 2 --kv-type "$1" 2>&1; }

for kv in f16 q8_0; do
  out=$(run "$kv") || fail "--kv-type $kv failed: $out"
  [[ -n $out ]] || fail "--kv-type $kv printed nothing"
done
out=$(run fp8); rc=$?
(( rc != 0 && rc != 124 && rc < 128 )) || fail "--kv-type fp8 on the CPU should fail cleanly, exit $rc: $out"
grep -qi "FP8 KV cache needs the CUDA backend" <<< "$out" || fail "--kv-type fp8 on the CPU: no reason given: $out"
# stories260K's heads are 8 wide: q8_0 (blocks of 32) cannot hold them, and the error says why.
out=$(timeout 120 "$cli" run -m "$shared/models/stories260K.gguf" -p "Once" -n 4 --threads 2 --kv-type q8_0 2>&1); rc=$?
(( rc != 0 && rc != 124 && rc < 128 )) || fail "q8_0 KV on 8-wide heads should fail cleanly, exit $rc: $out"
grep -q "q8_0 KV cache for this model (q8_0 needs a head size that is a multiple of 32)" <<< "$out" ||
  fail "q8_0 KV on 8-wide heads: unclear error: $out"
out=$(run bogus); rc=$?
(( rc != 0 && rc != 124 && rc < 128 )) || fail "--kv-type bogus should fail cleanly, exit $rc: $out"
grep -q "kv-type must be f16, q8_0 or fp8" <<< "$out" || fail "--kv-type bogus: unclear error: $out"
echo "cli_kv_type: ok"
