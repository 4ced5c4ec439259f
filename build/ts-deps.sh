#!/usr/bin/env bash
# Installs the adapter's npm dependencies (@extism/extism) into ts/node_modules,
# with Node 22 first on PATH. --legacy-peer-deps: pi's own packages are peers that
# pi provides at run time; this registry lacks some of their dependencies.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
node=$("$here/node.sh")
cd "$root/ts"
stamp=node_modules/.installed-from-lock
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then
	exit 0
fi
PATH="$(dirname "$node"):$PATH" npm ci --silent --legacy-peer-deps --no-audit --no-fund >&2
cp package-lock.json "$stamp"
