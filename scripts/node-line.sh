#!/usr/bin/env bash
# Installs the newest Node.js of one line from the npm registry, once, and prints two folders on one
# line: the one holding its `node` (for PATH) and its headers (npm_config_nodedir, for node-gyp).
# The registry's `node` package pulls in the platform package that carries the binary and headers;
# no other download is involved.
# Usage: scripts/node-line.sh <major> <folder to install into>
set -euo pipefail
major=$1
prefix="$2/node-$major"
if ! compgen -G "$prefix/node_modules/node/node_modules/node-*/bin/node" >/dev/null; then
  npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "node@$major" >&2
fi
headers=$(dirname "$(dirname "$(dirname "$(compgen -G "$prefix/node_modules/node/node_modules/node-*/include/node/node_version.h" | head -1)")")")
"$headers/bin/node" -e "if (process.versions.node.split('.')[0] !== '$major') process.exit(1)"
echo "$headers/bin $headers"
