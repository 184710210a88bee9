#!/usr/bin/env bash
# Installs what Hearth needs to build and test on Debian 12 (run as root or with sudo available).
set -euo pipefail
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
PKGS=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6sql6-sqlite libqt6opengl6-dev libgl-dev
  qtkeychain-qt6-dev
  libcpp-httplib-dev nlohmann-json3-dev libpcre2-dev libicu-dev libssl-dev libgtest-dev
  python3 python3-jinja2
  clang libclang-rt-14-dev
  xvfb xauth
)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# Node.js (for the npm client tests): any installed node + npm will do. Machines with NodeSource's
# nodejs (which bundles npm and conflicts with Debian's npm package) keep theirs.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
if ((${#missing[@]})); then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
