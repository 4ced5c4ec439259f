#!/usr/bin/env bash
# `make install`: installs the pi package that `make package` built, and pimem.
#
#   build/install.sh TARBALL PIMEM PREFIX
#
# The package is unpacked into PREFIX/lib/pimem, a folder outside the clone that a
# reinstall replaces whole, and pi installs it from there: pi records that folder, so
# deleting or moving the clone leaves pi's install alone. pimem goes to PREFIX/bin with
# the package's own core.wasm beside it, so `pimem --version` and /memory status in pi
# name the same module. pi is $PI when set (your own pi), else the one build/pi.sh keeps
# in the cache; both write the same settings (~/.pi/agent, or $PI_CODING_AGENT_DIR).
# When no pi is on PATH (someone who built from the clone has only the cached one), a
# `pi` launcher of that pi goes to PREFIX/bin; a pi of your own there is never
# replaced. The last line says which command starts pi.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
tarball=${1:?usage: install.sh TARBALL PIMEM PREFIX}
pimem=${2:?usage: install.sh TARBALL PIMEM PREFIX}
prefix=${3:?usage: install.sh TARBALL PIMEM PREFIX}
for f in "$tarball" "$pimem"; do
	[ -s "$f" ] || { echo "$f is missing: run make package pimem first" >&2; exit 1; }
done
pi=${PI:-$("$here/pi.sh")}
mkdir -p "$prefix/lib" "$prefix/bin"
prefix=$(cd "$prefix" && pwd -P)
dest="$prefix/lib/pimem"

# Unpack beside the old copy, then swap, so a failed unpack leaves the old one working.
new="$dest.new.$$"
old="$dest.old.$$"
trap 'rm -rf "$new" "$old"' EXIT
mkdir "$new"
tar -xzf "$tarball" -C "$new" --strip-components=1
[ -s "$new/core.wasm" ] && [ -f "$new/node_modules/@extism/extism/package.json" ] ||
	{ echo "$tarball is not a pi-memory package (no core.wasm or no bundled @extism/extism); run make package" >&2; exit 1; }
if [ -e "$dest" ]; then mv "$dest" "$old"; fi
mv "$new" "$dest"

# An earlier `make install` registered the clone's ts/ folder itself, or (before the
# package was named pimem) PREFIX/lib/pi-memory; left there, pi would load it twice.
if "$pi" remove "$root/ts" >/dev/null 2>&1; then
	log "removed the clone's own ts/ folder from pi's packages (an earlier make install)"
fi
if [ -d "$prefix/lib/pi-memory" ] && "$pi" remove "$prefix/lib/pi-memory" >/dev/null 2>&1; then
	rm -rf "$prefix/lib/pi-memory"
	log "removed $prefix/lib/pi-memory, the package's folder before it was named pimem"
fi
"$pi" install "$dest" >&2

install -m 0755 "$pimem" "$prefix/bin/pimem.tmp"
mv "$prefix/bin/pimem.tmp" "$prefix/bin/pimem"
install -m 0644 "$dest/core.wasm" "$prefix/bin/core.wasm.tmp"
mv "$prefix/bin/core.wasm.tmp" "$prefix/bin/core.wasm"

log "pi package: $dest"
log "pimem: $prefix/bin/pimem"
"$prefix/bin/pimem" --version >&2

# A pi to start: the one on PATH, else a launcher of the pi used above. The marker
# tells our launcher (replaced by a reinstall) from a pi of the person's own.
marker="# pi launcher written by pi-memory's make install"
launcher="$prefix/bin/pi"
found=$(command -v pi 2>/dev/null || true)
ours=false
if [ -f "$launcher" ] && grep -qF "$marker" "$launcher"; then ours=true; fi
if [ -e "$launcher" ] && ! $ours; then
	log "left $launcher as it is: it is not a launcher this install wrote"
elif [ -z "$found" ] || [ "$found" = "$launcher" ]; then
	printf '#!/bin/sh
%s; it runs %s
exec %q "$@"
' "$marker" "$pi" "$pi" > "$launcher.tmp"
	chmod 0755 "$launcher.tmp"
	mv "$launcher.tmp" "$launcher"
	log "pi: $launcher (no pi was on PATH: it runs $pi)"
fi
# Which command starts pi, as the shell that ran make would find it.
found=$(command -v pi 2>/dev/null || true)
if [ -n "$found" ]; then
	log "start pi with: pi   (in a project's folder; /memory status there names pi-memory)"
elif [ -x "$launcher" ]; then
	log "start pi with: $launcher   ($prefix/bin is not on PATH: add it, then pi)"
else
	log "start pi with: $pi"
fi
