#!/usr/bin/env bash
# hearth-cli chat keeps the conversation's KV between turns (later turns are served from the
# prefix cache), and `template` renders a real model template exactly.
set -euo pipefail
cli=$1
shared=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(printf 'Tell me a story\nWhat happened next?\nAnd then?\n' |
      "$cli" chat -m "$shared/models/stories260K.gguf" -n 24 --temp 0 --threads 2 2>&1)
echo "$out"
mapfile -t cached < <(echo "$out" | sed -n 's/.*prompt tokens, \([0-9]*\) from cache.*/\1/p')
mapfile -t prompt < <(echo "$out" | sed -n 's/^\[\([0-9]*\) prompt tokens.*/\1/p')
[[ ${#cached[@]} -eq 3 ]] || fail "expected three turns, got ${#cached[@]}"
[[ ${cached[0]} -eq 0 ]] || fail "the first turn cannot hit the cache"
# Every turn after the first reuses all full blocks of the previous turn's prompt + reply.
for i in 1 2; do
  prev_end=$(( prompt[i-1] + 24 ))
  want=$(( (prev_end - 1) / 16 * 16 ))
  (( cached[i] >= want - 16 )) || fail "turn $i reused ${cached[i]} tokens, expected about $want"
  (( prompt[i] - cached[i] < 64 )) || fail "turn $i recomputed $(( prompt[i] - cached[i] )) tokens"
done
echo "cli_chat: ok (cached ${cached[*]} of ${prompt[*]})"
