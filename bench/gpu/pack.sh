#!/usr/bin/env bash
# Packs what bench/gpu/device-run.sh needs into .carry/pack.tar.gz (git-ignored): the test and
# bench binaries (and hearth-cli when built without Qt), libhearth-cuda.so and the shared test
# models, references and text.
# Usage: bench/gpu/pack.sh BUILD_DIR [model files...]   (default models: every tiny-*, stories260K, coder-f16)
# PACK_BINS (which binaries), NO_CLI=1, PACK_XZ=1, PACK_OLD_LIB and PACK_OLD_LIB2 (below) change what goes in.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?build dir}; shift || true
shared=${HEARTH_SHARED:-$root/../shared}
stage=$(mktemp -d)
mkdir -p "$stage/bin" "$stage/lib" "$stage/shared/models" "$stage/shared/testdata"
# PACK_BINS: the test and bench binaries to carry (default all three; fewer when models need the room).
for b in ${PACK_BINS:-test_cuda test_pipeline hearth-gpu-bench}; do
  strip -o "$stage/bin/$b" "$build/bin/$b"
  # Debian's ICU 72, which Ubuntu 24.04 does not have, travels with any binary that links it.
  ldd "$build/bin/$b" | awk '/libicu/ {print $3}' | xargs -r -I{} cp -L {} "$stage/lib/"
done
# hearth-cli for the speculative-decoding bench (a build with -DHEARTH_UI=OFF: the GPU machine has no Qt).
# It links Debian's ICU 72, which Ubuntu 24.04 does not have: those libraries travel along in lib/.
# NO_CLI=1 leaves it out (the test pack: the ICU libraries and the F16 coder model do not both fit).
if [ "${NO_CLI:-0}" != 1 ] && [ -x "$build/bin/hearth-cli" ] && ! ldd "$build/bin/hearth-cli" | grep -q Qt6; then
  strip -o "$stage/bin/hearth-cli" "$build/bin/hearth-cli"
  ldd "$build/bin/hearth-cli" | awk '/libicu/ {print $3}' | xargs -r -I{} cp -L {} "$stage/lib/"
fi
strip -o "$stage/lib/libhearth-cuda.so" "$build/lib/libhearth-cuda.so"
# PACK_OLD_LIB: another build's libhearth-cuda.so, carried as lib/old/ for A/B runs in the same call
# (a bench spec's HEARTH_CUDA_LIB=/tmp/h/lib/old/libhearth-cuda.so; ~10 MB packed).
# PACK_OLD_LIB2: a third build's, as lib/old2/ (HEARTH_CUDA_LIB=/tmp/h/lib/old2/libhearth-cuda.so).
for n in "" 2; do
  var=PACK_OLD_LIB$n
  if [ -n "${!var:-}" ]; then
    mkdir -p "$stage/lib/old$n"
    strip -o "$stage/lib/old$n/libhearth-cuda.so" "${!var}"
  fi
done
cp -r "$shared/testdata/reference" "$shared/testdata/text" "$stage/shared/testdata/"
models=("$@")
[ ${#models[@]} -eq 0 ] && models=(tiny-llama-f16.gguf tiny-llama-q2_k.gguf tiny-llama-q3_k_m.gguf tiny-llama-q4_0.gguf
  tiny-llama-q4_k_m.gguf tiny-llama-q5_k_m.gguf tiny-llama-q6_k.gguf tiny-llama-q8_0.gguf tiny-qwen2-f32.gguf
  tiny-qwen2-q8_0.gguf tiny-qwen3-q4_k_m.gguf stories260K.gguf coder-f16.gguf coder-draft-f16.gguf)
for m in "${models[@]}"; do cp "$shared/models/$m" "$stage/shared/models/"; done
mkdir -p "$root/.carry"
rm -f "$root/.carry/pack.tar.gz" "$root/.carry/pack.tar.xz"
# The device tool carries 64 MiB in all (working tree included): xz when gzip is too big.
if [ "${PACK_XZ:-0}" = 1 ]; then
  tar -cf - -C "$stage" . | xz -T0 -6 > "$root/.carry/pack.tar.xz"
else
  tar -czf "$root/.carry/pack.tar.gz" -C "$stage" .
fi
rm -rf "$stage"
ls -la "$root"/.carry/pack.tar.*
# The device tool refuses a carry over 64 MiB (the working tree's tracked files count too): say so
# here rather than at the call. Fewer models (the coder ones and the tiny ones in separate packs),
# PACK_XZ=1 or fewer binaries make it smaller.
size=$(stat -c %s "$root"/.carry/pack.tar.*)
tree=$(git -C "$root" ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1 || echo 0)
if [ $((size + ${tree:-0})) -gt $((64 << 20)) ]; then
  echo "pack.sh: the pack ($((size >> 20)) MiB) and the working tree ($((${tree:-0} >> 20)) MiB) are over the device tool's 64 MiB" >&2
  exit 2
fi
