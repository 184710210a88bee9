#!/usr/bin/env bash
# hearth-cli template: prints exactly what jinja2 renders (no newline added), takes the template
# from a GGUF file with -m (bos/eos defaulting to the model's tokens), and reports errors on
# stderr with a non-zero exit.
#   cli_template_test.sh HEARTH_CLI SHARED_DIR
set -euo pipefail
cli=$1
shared=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A real template on a conversation with tool calls, against the reference renderer.
python3 - "$here/conversations.json" "$tmp/context.json" <<'PY'
import json, sys
convs = {c["id"]: c["context"] for c in json.load(open(sys.argv[1], encoding="utf-8"))}
json.dump(convs["tool_call_roundtrip"], open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
for name in Qwen-Qwen3-0.6B meta-llama-Llama-3.1-8B-Instruct google-gemma-4-31B-it-interleaved; do
  template="$shared/testdata/chat_templates/$name.jinja"
  "$cli" template --template "$template" --context "$tmp/context.json" > "$tmp/hearth.txt"
  python3 "$here/render_jinja2.py" --one "$template" "$tmp/context.json" > "$tmp/jinja2.txt"
  cmp "$tmp/hearth.txt" "$tmp/jinja2.txt" || fail "$name: hearth-cli template differs from jinja2"
done

# -m: the template inside a GGUF file; bos_token/eos_token come from its vocabulary.
vocab="$shared/testdata/vocab/ggml-vocab-phi-3.gguf"
python3 - "$vocab" > "$tmp/phi3.jinja" <<'PY'
# Reads tokenizer.chat_template straight from the GGUF file (v2/v3 metadata layout).
import struct, sys
f = open(sys.argv[1], "rb")
def read(fmt):
    return struct.unpack("<" + fmt, f.read(struct.calcsize("<" + fmt)))[0]
def string():
    return f.read(read("Q")).decode("utf-8")
SIZES = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
def value(t):
    if t == 8:
        return string()
    if t == 9:
        item, n = read("I"), read("Q")
        return [value(item) for _ in range(n)]
    return read(SIZES[t])
assert f.read(4) == b"GGUF"
read("I"); read("Q")
for _ in range(read("Q")):
    key, v = string(), None
    v = value(read("I"))
    if key == "tokenizer.chat_template":
        sys.stdout.buffer.write(v.encode("utf-8"))
        break
PY
printf '%s' '{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Bye"}], "add_generation_prompt": true}' > "$tmp/phi3.json"
"$cli" template -m "$vocab" --context "$tmp/phi3.json" > "$tmp/hearth.txt"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c.update(bos_token="<s>", eos_token="<|endoftext|>"); json.dump(c, open(sys.argv[2], "w"))' "$tmp/phi3.json" "$tmp/phi3-tokens.json"
python3 "$here/render_jinja2.py" --one "$tmp/phi3.jinja" "$tmp/phi3-tokens.json" > "$tmp/jinja2.txt"
cmp "$tmp/hearth.txt" "$tmp/jinja2.txt" || fail "-m: the GGUF template rendering differs from jinja2"
[[ $(head -c 3 "$tmp/hearth.txt") == "<s>" ]] || fail "-m: bos_token should default to the model's <s>"

# A model without a template: the documented fallback, with a note on stderr.
"$cli" template -m "$shared/models/stories260K.gguf" --context "$tmp/phi3.json" > "$tmp/fallback.txt" 2> "$tmp/err.txt"
grep -q "fallback" "$tmp/err.txt" || fail "no note about the fallback format"
[[ "$(cat "$tmp/fallback.txt")" == *"User: Bye"*"Assistant:" ]] || fail "fallback output: $(cat "$tmp/fallback.txt")"

# Errors: stderr, non-zero exit, nothing on stdout.
expect_error() {
  local what=$1
  shift
  if "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"; then fail "$what: exit status 0"; fi
  [[ -s "$tmp/err.txt" ]] || fail "$what: no message on stderr"
  [[ ! -s "$tmp/out.txt" ]] || fail "$what: something on stdout"
}
printf '{{ raise_exception("no system role") }}' > "$tmp/raise.jinja"
expect_error "raise_exception" "$cli" template --template "$tmp/raise.jinja" --context "$tmp/phi3.json"
grep -q "no system role" "$tmp/err.txt" || fail "the template's message is missing: $(cat "$tmp/err.txt")"
printf '{%% for x in %%}' > "$tmp/bad.jinja"
expect_error "syntax error" "$cli" template --template "$tmp/bad.jinja" --context "$tmp/phi3.json"
grep -q "line 1" "$tmp/err.txt" || fail "no position in: $(cat "$tmp/err.txt")"
printf '{"messages": [' > "$tmp/broken.json"
expect_error "broken context" "$cli" template --template "$tmp/raise.jinja" --context "$tmp/broken.json"
expect_error "missing file" "$cli" template --template "$tmp/nope.jinja" --context "$tmp/phi3.json"
expect_error "no template" "$cli" template --context "$tmp/phi3.json"
echo "cli_template: ok"
