#!/usr/bin/env bash
# `make run`: starts pi with the package `make package` built, unpacked into
# build/out/run/pimem, so that pi names the extension by its package (pimem) rather than by
# the folder of the clone's sources (ts). Arguments go to pi.
#
#   build/run.sh TARBALL [pi arguments…]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tarball=${1:?usage: run.sh TARBALL [pi arguments…]}
shift
mkdir -p "$root/build/out/run"
dest="$root/build/out/run/pimem"
new="$dest.new.$$"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"
tar -xzf "$tarball" -C "$new" --strip-components=1
rm -rf "$dest"
mv "$new" "$dest"
pi=$("$here/pi.sh")
exec "$pi" -e "$dest" "$@"
