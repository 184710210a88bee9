#!/usr/bin/env bash
# Installs the .deb that `cpack -G DEB` built in BUILD_DIR into a temporary root (dpkg-deb -x, no
# root needed) and checks that what a user gets works: the desktop entry and icon are there,
# `hearth --version` runs headless, and the installed hearth-cli reads a real model.
#   tests/ui/check_deb.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${1:-build}
SHARED=${HEARTH_SHARED_DIR:-$(pwd)/../shared}
deb=$(ls -t "$BUILD_DIR"/hearth_*.deb 2>/dev/null | head -n1 || true)
[[ -n "$deb" ]] || { echo "check_deb: no hearth_*.deb in $BUILD_DIR (run cpack -G DEB there)" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
dpkg-deb -f "$deb" Package Version Depends

for f in usr/bin/hearth usr/bin/hearth-cli usr/share/applications/hearth.desktop \
         usr/share/icons/hicolor/scalable/apps/hearth.svg usr/share/icons/hicolor/256x256/apps/hearth.png; do
  [[ -e "$root/$f" ]] || { echo "check_deb: $f is missing from the package" >&2; exit 1; }
done
grep -q '^Exec=hearth' "$root/usr/share/applications/hearth.desktop"
dpkg-deb -f "$deb" Depends | grep -q 'libqt6widgets6' || { echo "check_deb: Depends lacks Qt" >&2; exit 1; }

version=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/hearth" --version)
[[ "$version" == hearth\ * ]] || { echo "check_deb: hearth --version said '$version'" >&2; exit 1; }
info=$("$root/usr/bin/hearth-cli" info -m "$SHARED/models/stories260K.gguf")
grep -q 'llama' <<<"$info" || { echo "check_deb: hearth-cli info did not describe the model: $info" >&2; exit 1; }
# The desktop app starts (first run: no models, no GPU) and draws every page.
QT_QPA_PLATFORM=offscreen "$root/usr/bin/hearth" --settings "$root/s.ini" --data-dir "$root/data" \
  --screenshots "$root/shots" >/dev/null
ls "$root/shots"/*.png >/dev/null
echo "check_deb: $(basename "$deb") OK ($version)"
