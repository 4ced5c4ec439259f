#!/usr/bin/env bash
# Installs the adapter's npm dependencies into ts/node_modules, exactly as
# ts/package-lock.json pins them (@extism/extism; TypeScript and the declarations it
# checks against as dev dependencies), with Node 22 first on PATH, then pi's own
# declarations (build/pi-types.sh). --legacy-peer-deps: pi's own packages are peers
# that pi provides at run time; this registry lacks some of their dependencies.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
node=$("$here/node.sh")
cd "$root/ts"
stamp=node_modules/.installed-from-lock
if ! { [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; }; then
	PATH="$(dirname "$node"):$PATH" npm ci --silent --legacy-peer-deps --no-audit --no-fund >&2
	cp package-lock.json "$stamp"
fi
"$here/pi-types.sh"
