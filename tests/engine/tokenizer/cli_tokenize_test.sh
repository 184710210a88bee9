#!/usr/bin/env bash
# hearth-cli tokenize: the exact interface scripts depend on (ids on one line, space-separated;
# errors on stderr with a non-zero exit). Usage: cli_tokenize_test.sh HEARTH_CLI MODELS_DIR
set -u
cli=$1 models=${HEARTH_SHARED:+$HEARTH_SHARED/models} failed=0 passed=0
models=${models:-$2}  # HEARTH_SHARED overrides, as in TestPaths.h
check() {  # name expected actual
  if [[ "$2" == "$3" ]]; then passed=$((passed + 1)); else echo "FAIL $1: expected '$2' got '$3'"; failed=$((failed + 1)); fi
}
check "bos added" "1 403 407 261 378" "$(printf 'Once upon a time' | "$cli" tokenize -m "$models/stories260K.gguf")"
check "--no-bos" "403 407 261 378" "$(printf 'Once upon a time' | "$cli" tokenize -m "$models/stories260K.gguf" --no-bos)"
check "empty input" "1" "$(printf '' | "$cli" tokenize -m "$models/stories260K.gguf")"
check "gpt2 vocab, no bos by metadata" "324 284 561 265 1012 1530 8 78 318" \
  "$(printf 'def fibonacci(n):' | "$cli" tokenize -m "$models/coder-f16.gguf")"
check "one line" "1" "$(printf 'a\nb\n\nc' | "$cli" tokenize -m "$models/stories260K.gguf" | wc -l | tr -d ' ')"
out=$(printf 'x' | "$cli" tokenize -m /nonexistent.gguf 2>/tmp/hearth-cli-tok-err.$$); rc=$?
check "missing model exits non-zero" "1" "$(( rc != 0 ))"
check "missing model: nothing on stdout" "" "$out"
check "missing model: message on stderr" "1" "$([[ -s /tmp/hearth-cli-tok-err.$$ ]] && echo 1 || echo 0)"
rm -f /tmp/hearth-cli-tok-err.$$
"$cli" tokenize </dev/null >/dev/null 2>&1; check "no -m is a usage error" "2" "$?"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
