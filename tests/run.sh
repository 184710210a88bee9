#!/usr/bin/env bash
# The whole test suite: configure, build, run every CTest test. Used by README and .ci/run.
#   BUILD_DIR (default build), JOBS (default nproc), extra CMake flags in HEARTH_CMAKE_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
if [[ ! -d tests/node/node_modules ]]; then
  (cd tests/node && npm ci --no-audit --no-fund)
fi
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${HEARTH_CMAKE_FLAGS:-}
cmake --build "$BUILD_DIR" -j "$JOBS"
QT_QPA_PLATFORM=offscreen ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" "$@"
