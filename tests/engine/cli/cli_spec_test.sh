#!/usr/bin/env bash
# hearth-cli's speculative decoding and chat flags end to end: `index build` over a folder, then
# `run --spec ngram|index:PATH|draft:MODEL` gives the same greedy tokens as `run` alone, with drafts
# accepted; bad --spec values are usage errors; `run --chat` puts the message through the chat
# template (here a --chat-template override, so the expected prompt is known exactly).
set -euo pipefail
cli=$1
shared=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model="$shared/models/coder-f16.gguf"
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(eval(sys.argv[1]))" "$1"; }

# The index: the shared Python sample, plus a folder that must be skipped.
mkdir -p "$tmp/src/.git" "$tmp/src/pkg"
cp "$shared/testdata/text/python-sample.txt" "$tmp/src/pkg/sample.py"
printf 'binary\0data' > "$tmp/src/pkg/blob.bin"
echo 'ignored' > "$tmp/src/.git/config"
summary=$("$cli" index build --model "$model" --out "$tmp/py.hidx" --quiet "$tmp/src")
echo "index: $summary"
[[ $(echo "$summary" | field 'd["files"]') == 1 ]] || fail "expected one indexed file: $summary"
[[ $(echo "$summary" | field 'd["skipped"]') == 1 ]] || fail "the binary file should be skipped: $summary"
(( $(echo "$summary" | field 'd["tokens"]') > 100000 )) || fail "too few tokens: $summary"
[[ -s "$tmp/py.hidx" && ! -e "$tmp/py.hidx.tmp" ]] || fail "index file missing or temporary file left"

prompt=$'import os\nimport sys\n\n\ndef main():\n'
run() { "$cli" run -m "$model" -p "$prompt" -n 64 --temp 0 --ignore-eos --threads 2 --json "$@"; }
plain=$(run | field 'd["tokens"]')
for spec in ngram "index:$tmp/py.hidx" "draft:$shared/models/coder-draft-f16.gguf"; do
  out=$(run --spec "$spec" --spec-max 6 --spec-fixed)
  [[ $(echo "$out" | field 'd["tokens"]') == "$plain" ]] || fail "--spec $spec changed the greedy output"
  acc=$(echo "$out" | field 'd.get("speculative", {}).get("accepted", 0)')
  echo "--spec ${spec%%:*}: $acc draft tokens accepted"
  (( acc > 0 )) || fail "--spec $spec accepted no draft tokens"
done

# run --prompts: one JSON line per prompt in input order; --warmup (a first, unreported pass under
# its own prefix-cache salt) leaves the reported tokens as they were and computes the prompts again
# (nothing reused from the warm-up).
python3 - "$shared/testdata/text/python-sample.txt" "$tmp/p.jsonl" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
with open(sys.argv[2], "w") as f:  # two prompts of several full KV blocks
    for start, n in ((0, 12), (4000, 8)):
        f.write(json.dumps({"prompt": text[start:start + 600], "n": n, "temp": 0}) + "\n")
PY
cold=$("$cli" run -m "$model" --prompts "$tmp/p.jsonl" --threads 2)
warm=$("$cli" run -m "$model" --prompts "$tmp/p.jsonl" --threads 2 --warmup --spec ngram)
[[ $(echo "$cold" | wc -l) == 2 && $(echo "$warm" | wc -l) == 2 ]] || fail "run --prompts: expected two result lines"
for i in 1 2; do
  a=$(echo "$cold" | sed -n "${i}p" | field 'd["tokens"]'); b=$(echo "$warm" | sed -n "${i}p" | field 'd["tokens"]')
  [[ "$a" == "$b" ]] || fail "run --prompts --warmup: prompt $i gave other tokens"
done
echo "$warm" | python3 -c "import json,sys; assert all(json.loads(l)['cached_prompt_tokens'] == 0 for l in sys.stdin)" ||
  fail "the reported pass reused the warm-up's KV"
again=$("$cli" run -m "$model" --prompts <(head -1 "$tmp/p.jsonl"; head -1 "$tmp/p.jsonl") --threads 2 --sequential)
[[ $(echo "$again" | sed -n 2p | field 'd["cached_prompt_tokens"]') -ge 32 ]] || fail "the same prompt twice should reuse its blocks"
if "$cli" run -m "$model" -p x -n 1 --warmup >/dev/null 2>&1; then fail "--warmup without --prompts was accepted"; fi

# Usage errors.
for bad in "--spec bogus" "--spec index:" "--spec-max 0" "--spec-ngram 3,1"; do
  # shellcheck disable=SC2086
  if "$cli" run -m "$model" -p x -n 1 $bad >/dev/null 2>&1; then fail "'$bad' was accepted"; fi
  # shellcheck disable=SC2086
  rc=0; "$cli" run -m "$model" -p x -n 1 $bad >/dev/null 2>&1 || rc=$?
  [[ $rc == 2 ]] || fail "'$bad' should be a usage error (exit 2), got $rc"
done
if "$cli" run -m "$model" -p x -n 4 --spec "index:$tmp/missing.hidx" >/dev/null 2>"$tmp/err"; then fail "a missing index loaded"; fi
grep -q "missing.hidx" "$tmp/err" || fail "the error should name the index file: $(cat "$tmp/err")"

# run --chat with a template override: the prompt is exactly the rendered text, tokenized.
printf '%s' '[{{ messages[0].content }}|{{ messages[1].content }}]{% if add_generation_prompt %}>{% endif %}' > "$tmp/t.jinja"
out=$("$cli" run -m "$model" --chat --system "be brief" -p "hello there" -n 4 --temp 0 --json --chat-template "$tmp/t.jinja")
got=$(echo "$out" | field '" ".join(map(str, d["prompt_tokens"]))')
want=$(printf '%s' '[be brief|hello there]>' | "$cli" tokenize -m "$model" --parse-special)
[[ "$got" == "$want" ]] || fail "run --chat prompt: got '$got', want '$want'"
if "$cli" run -m "$model" --system x -p y -n 1 >/dev/null 2>&1; then fail "--system without --chat was accepted"; fi
echo "cli_spec: ok"
