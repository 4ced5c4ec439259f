#!/usr/bin/env bash
# Installs tmux from Debian when it is missing: the end-to-end suite's interactive part
# (ts/e2e/tui.test.ts) runs the real pi in a terminal tmux gives it, types keys and
# reads the screen. Prints the tmux binary path. A second run only checks it is there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

if ! command -v tmux >/dev/null; then
	log "installing Debian's tmux (pi's terminal for the interactive tests)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tmux >&2
fi
command -v tmux
