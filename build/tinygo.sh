#!/usr/bin/env bash
# Bootstraps TinyGo from its Go module against Debian's LLVM 19, into the cache.
# TinyGo has no Debian or npm package, and its module zip lacks the wasi-libc and
# compiler-rt submodules, so we link Debian's wasi-libc and clang runtime through a
# custom target (build/wasip1-debian.json). Prints the tinygo binary path.
# A second run only checks that the binary is there: seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

bin="$TINYGO_ROOT/tinygo"

# The runtime's string concatenation and append kept out of line: LLVM inlined
# them at every `a + b` (~2,070 sites) and every `append` (~1,010), 262 KB of the
# module (decision 009, addendum 2026-12-01). TinyGo compiles its runtime from
# these sources at each build (its cache keys on their content), so an existing
# cache takes the change on the next run.
patch_runtime() {
	local file fn
	for fn in string.go:stringConcat slice.go:sliceAppend; do
		file="$TINYGO_ROOT/src/runtime/${fn%%:*}"
		fn=${fn#*:}
		grep -q "^func $fn(" "$file" || { echo "build/tinygo.sh: no func $fn in $file (TinyGo $TINYGO_VERSION): update the patch" >&2; exit 1; }
		grep -B1 "^func $fn(" "$file" | grep -q '^//go:noinline$' || sed -i "s|^func $fn(|//go:noinline\nfunc $fn(|" "$file"
	done
}

if [ -x "$bin" ] && [ -f "$TINYGO_ROOT/.complete" ]; then
	patch_runtime
	echo "$bin"
	exit 0
fi

pkgs=(llvm-$LLVM_VERSION-dev libclang-$LLVM_VERSION-dev clang-$LLVM_VERSION lld-$LLVM_VERSION
	libclang-rt-$LLVM_VERSION-dev-wasm32 wasi-libc binaryen zlib1g-dev libzstd-dev libxml2-dev)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing Debian packages: ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

log "building TinyGo $TINYGO_VERSION (about a minute)"
src=$(go mod download -json "github.com/tinygo-org/tinygo@v$TINYGO_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "tinygo module not found" >&2; exit 1; }
rm -rf "$TINYGO_ROOT"
mkdir -p "$(dirname "$TINYGO_ROOT")"
cp -r "$src" "$TINYGO_ROOT"
chmod -R u+w "$TINYGO_ROOT"
mkdir -p "$TINYGO_ROOT/src/net"
(cd "$TINYGO_ROOT" && CGO_ENABLED=1 GOFLAGS=-mod=mod go build -tags=llvm$LLVM_VERSION -o tinygo . >&2)
patch_runtime
touch "$TINYGO_ROOT/.complete"
echo "$bin"
