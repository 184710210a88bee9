#!/usr/bin/env bash
# Screenshots of every page of the desktop app, under Xvfb (a real X server, so fonts, styles and
# charts render as on a desktop). A throw-away data folder; a hub served on loopback by the Python
# below (recorded search results plus a demo repository whose files are the shared tiny models, so
# Discover has variants to show and Downloads a transfer in progress); stories260K loaded for the
# chat and the dashboard. See docs/screenshots.md.
#   tests/ui/screenshots.sh [OUT_DIR] [BUILD_DIR]     (defaults: BUILD_DIR/screenshots, build)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${2:-build}
OUT=${1:-$BUILD_DIR/screenshots}
SHARED=${HEARTH_SHARED_DIR:-$(pwd)/../shared}
HEARTH=$BUILD_DIR/bin/hearth
[[ -x "$HEARTH" ]] || { echo "screenshots: build $HEARTH first (ninja -C $BUILD_DIR hearth)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run is missing (apt-get install xvfb xauth)" >&2; exit 1; }

work=$(mktemp -d)
hub_pid=""
cleanup() { [[ -n "$hub_pid" ]] && kill "$hub_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

cat >"$work/hub.py" <<'PY'
# A tiny stand-in for the Hugging Face hub API: search, one demo repo's file listing, its files.
import hashlib, http.server, json, os, sys, time
fixtures, models, port_file = sys.argv[1], sys.argv[2], sys.argv[3]
REPO = "hearth-demo/tiny-llama-GGUF"
files = {}
for name in sorted(os.listdir(models)):
    if name.startswith("tiny-llama-") and name.endswith(".gguf"):
        data = open(os.path.join(models, name), "rb").read()
        files["TinyLlama-Demo-" + name[len("tiny-llama-"):-5].upper() + ".gguf"] = data
tree = [{"type": "file", "path": "README.md", "size": 64, "oid": "0" * 40}] + [
    {"type": "file", "path": p, "size": len(d), "oid": "1" * 40,
     "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d), "pointerSize": 134}}
    for p, d in files.items()]
search = json.load(open(os.path.join(fixtures, "search-llama-gguf.json")))
search.insert(0, {"id": REPO, "likes": 321, "downloads": 412345, "private": False, "tags": ["gguf", "llama", "text-generation"],
                  "pipeline_tag": "text-generation", "library_name": "gguf", "createdAt": "2026-11-02T10:00:00.000Z",
                  "lastModified": "2026-11-30T08:00:00.000Z"})

class Hub(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def send(self, status, body, ctype="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return body
    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/api/models":
            self.wfile.write(self.send(200, json.dumps(search).encode()))
        elif path == "/api/models/%s/tree/main" % REPO:
            self.wfile.write(self.send(200, json.dumps(tree).encode()))
        elif path.startswith("/%s/resolve/main/" % REPO) and path.rsplit("/", 1)[1] in files:
            data = files[path.rsplit("/", 1)[1]]
            body = self.send(200, data, "application/octet-stream")
            for i in range(0, len(body), 16384):  # slowly: the tour photographs the progress bar
                self.wfile.write(body[i:i + 16384]); self.wfile.flush(); time.sleep(0.1)
        else:
            self.wfile.write(self.send(404, b'{"error": "not found"}'))

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
python3 "$work/hub.py" tests/app/data/hub "$SHARED/models" "$work/port" &
hub_pid=$!
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || { echo "screenshots: the loopback hub did not start" >&2; exit 1; }

cat >"$work/settings.ini" <<INI
[hub]
baseUrl=http://127.0.0.1:$(cat "$work/port")
[server]
port=$((20000 + RANDOM % 20000))
INI
mkdir -p "$OUT"
xvfb-run -a -s "-screen 0 1400x900x24" \
  "$HEARTH" --settings "$work/settings.ini" --data-dir "$work/data" --screenshots "$OUT" \
  --tour-search "llama" --tour-model "$SHARED/models/stories260K.gguf"
echo "screenshots in $OUT"
