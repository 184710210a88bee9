#!/usr/bin/env bash
# Packs what bench/gpu/device-run.sh needs into .carry/pack.tar.gz (git-ignored): the test and
# bench binaries (and hearth-cli when built without Qt), libhearth-cuda.so and the shared test
# models, references and text.
# Usage: bench/gpu/pack.sh BUILD_DIR [model files...]   (default models: every tiny-*, stories260K, coder-f16)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?build dir}; shift || true
shared=${HEARTH_SHARED:-$root/../shared}
stage=$(mktemp -d)
mkdir -p "$stage/bin" "$stage/lib" "$stage/shared/models" "$stage/shared/testdata"
for b in test_cuda test_pipeline hearth-gpu-bench; do strip -o "$stage/bin/$b" "$build/bin/$b"; done
# hearth-cli for the speculative-decoding bench (a build with -DHEARTH_UI=OFF: the GPU machine has no Qt).
# It links Debian's ICU 72, which Ubuntu 24.04 does not have: those libraries travel along in lib/.
if [ -x "$build/bin/hearth-cli" ] && ! ldd "$build/bin/hearth-cli" | grep -q Qt6; then
  strip -o "$stage/bin/hearth-cli" "$build/bin/hearth-cli"
  ldd "$build/bin/hearth-cli" | awk '/libicu/ {print $3}' | xargs -r -I{} cp -L {} "$stage/lib/"
fi
strip -o "$stage/lib/libhearth-cuda.so" "$build/lib/libhearth-cuda.so"
cp -r "$shared/testdata/reference" "$shared/testdata/text" "$stage/shared/testdata/"
models=("$@")
[ ${#models[@]} -eq 0 ] && models=(tiny-llama-f16.gguf tiny-llama-q2_k.gguf tiny-llama-q3_k_m.gguf tiny-llama-q4_0.gguf
  tiny-llama-q4_k_m.gguf tiny-llama-q5_k_m.gguf tiny-llama-q6_k.gguf tiny-llama-q8_0.gguf tiny-qwen2-f32.gguf
  tiny-qwen2-q8_0.gguf tiny-qwen3-q4_k_m.gguf stories260K.gguf coder-f16.gguf coder-draft-f16.gguf)
for m in "${models[@]}"; do cp "$shared/models/$m" "$stage/shared/models/"; done
mkdir -p "$root/.carry"
tar -czf "$root/.carry/pack.tar.gz" -C "$stage" .
rm -rf "$stage"
ls -la "$root/.carry/pack.tar.gz"
