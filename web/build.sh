#!/usr/bin/env bash
# Build the page into web/dist/: index.html, steering-arena.wasm (the `web` profile, then
# wasm-opt when Debian's binaryen put it on PATH) and macroquad's loader mq_js_bundle.js, copied
# from the macroquad crate the build used. Needs `rustup target add wasm32-unknown-unknown`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo build --target wasm32-unknown-unknown --profile web
out=web/dist
mkdir -p "$out"
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
wasm="$target_dir/wasm32-unknown-unknown/web/steering-arena.wasm"

# The loader of the macroquad version in Cargo.lock (it checks the crate's version at load).
manifest=$(cargo metadata --format-version 1 | python3 -c '
import json, sys
meta = json.load(sys.stdin)
print(next(p["manifest_path"] for p in meta["packages"] if p["name"] == "macroquad"))')
cp "$(dirname "$manifest")/js/mq_js_bundle.js" "$out/"
cp web/index.html "$out/"

if command -v wasm-opt >/dev/null; then
  wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals "$wasm" -o "$out/steering-arena.wasm"
else
  echo "wasm-opt not found (apt-get install binaryen): copying the .wasm as cargo built it"
  cp "$wasm" "$out/steering-arena.wasm"
fi
ls -l "$out"
