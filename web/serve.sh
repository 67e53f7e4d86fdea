#!/usr/bin/env bash
# Serve the page web/build.sh built on this machine only: http://127.0.0.1:${PORT:-8000}/
# (settings in the address: /?mode=flock&seed=7&agents=500).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/dist"
port=${PORT:-8000}
echo "http://127.0.0.1:$port/"
exec python3 -m http.server "$port" --bind 127.0.0.1
