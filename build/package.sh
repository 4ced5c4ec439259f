#!/usr/bin/env bash
# `make package`: packs ts/ into the pi package build/out/pimem-<version>.tgz, which
# installs with no toolchain: the extension (index.ts, core.ts), the built core.wasm and
# registry.json, the README, and @extism/extism bundled (bundleDependencies). Bundled,
# because pi loads a local package as it finds it and never runs npm for it, so an
# unpacked tarball must already hold its runtime; it also makes an offline install work.
# Prints the tarball's path.
#
#   build/package.sh [OUT]     OUT defaults to build/out/pimem-<version>.tgz
#
# npm pack gives every entry a fixed time and order, so the same inputs give the same bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
node=$("$here/node.sh")
"$here/ts-deps.sh"
caller=$PWD
cd "$root/ts"

for f in core.wasm registry.json; do
	[ -s "$f" ] || { echo "ts/$f is missing: run make wasm first" >&2; exit 1; }
done
# One release, two places: the package's version and the core's (wasm/registry.Release,
# which make wasm writes into ts/registry.json). A package that disagrees with its core
# would show one version in pi's package list and another in /memory status.
version=$("$node" -p 'require("./package.json").version')
release=$("$node" -p 'require("./registry.json").version ?? "(none)"')
if [ "$version" != "$release" ]; then
	echo "ts/package.json says version $version but the core says $release (wasm/registry.Release, written to ts/registry.json by make wasm); set both to the same release and run make package again" >&2
	exit 1
fi
out=${1:-$root/build/out/pimem-$version.tgz}
case "$out" in /*) ;; *) out="$caller/$out" ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pimem-package-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PATH="$(dirname "$node"):$PATH" npm pack --json --pack-destination "$tmp" >"$tmp/pack.json" 2>"$tmp/pack.log" ||
	{ cat "$tmp/pack.log" >&2; echo "npm pack failed in $root/ts" >&2; exit 1; }
tgz="$tmp/pimem-$version.tgz"

# A package without its core or its runtime would install cleanly and fail in pi.
listing=$(tar -tzf "$tgz")
for f in package.json index.ts core.ts dist/worker.js dist/core.js core.wasm registry.json README.md \
	node_modules/@extism/extism/package.json node_modules/@extism/extism/dist/esm/mod.js; do
	grep -qxF "package/$f" <<<"$listing" || { echo "the packed package lacks $f; see \"files\" and \"bundleDependencies\" in ts/package.json" >&2; exit 1; }
done

mkdir -p "$(dirname "$out")"
mv "$tgz" "$out.tmp"
mv "$out.tmp" "$out"
"$node" -e '
	const [p] = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	const kb = (n) => `${Math.round(n / 1024)} KiB`;
	console.error(`[build] ${p.filename}: ${kb(p.size)} packed, ${kb(p.unpackedSize)} unpacked, ${p.entryCount} files (bundled: ${p.bundled.join(", ")})`);
' "$tmp/pack.json"
echo "$out"
