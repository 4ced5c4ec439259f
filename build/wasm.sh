#!/usr/bin/env bash
# Builds the core module with one compiler.
#   build/wasm.sh tinygo OUT   release build (shipped in ts/core.wasm)
#   build/wasm.sh go OUT       standard Go (GOOS=wasip1), built for the conformance suite and benchmarks
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
compiler=${1:?usage: wasm.sh tinygo|go OUT}
out=${2:?usage: wasm.sh tinygo|go OUT}
mkdir -p "$(dirname "$out")"
cd "$root"
case "$compiler" in
tinygo)
	tinygo=$("$here/tinygo.sh")
	# -scheduler=none: no goroutines, so no fresh stack per export call (see facts/wasm.md).
	TINYGOROOT="$TINYGO_ROOT" PATH="/usr/lib/llvm-$LLVM_VERSION/bin:$PATH" \
		"$tinygo" build -target="$here/wasip1-debian.json" -buildmode=c-shared -no-debug -opt=2 \
		-o "$out.tmp" ./wasm
	# Binaryen's optimizer after TinyGo's LLVM: 4-5% smaller and no slower (decision 009,
	# addendum "wasm-opt"); the features are the target's (wasip1-debian.json).
	wasm-opt -O3 -g --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
		--enable-sign-ext "$out.tmp" -o "$out.tmp"
	# The names stay, without our module path in each (35 KB; decision 009).
	go run ./host/cmd/wasmnames -strip github.com/pi-memory/pi-memory/ "$out.tmp"
	;;
go)
	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w' -o "$out.tmp" ./wasm
	;;
*)
	echo "unknown compiler $compiler (tinygo or go)" >&2
	exit 2
	;;
esac
mv "$out.tmp" "$out"
