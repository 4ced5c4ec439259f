#!/usr/bin/env bash
# Builds the prebuilt pimem binaries people install without a toolchain
# (decision 014): linux and macOS, amd64 and arm64, static (no cgo), each
# carrying the core module (ts/core.wasm, built by make wasm) inside, and a
# SHA256SUMS file beside them, in build/out/release/.
#   build/release.sh           every platform
#   build/release.sh --check   this machine's only, then run it from an empty
#                              folder with an empty cache: --version names the
#                              module it carries and `pimem mcp` answers
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
cd "$root"
check=false
[ "${1:-}" = "--check" ] && check=true
core=ts/core.wasm
[ -f "$core" ] || { echo "release: $core is missing; run make wasm" >&2; exit 1; }
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' ts/registry.json | head -1)
[ -n "$version" ] || { echo "release: no version in ts/registry.json; run make wasm" >&2; exit 1; }
out=build/out/release
rm -rf "$out"
mkdir -p "$out"
# go:embed reads the module from the command's folder; it is never committed.
cp "$core" host/cmd/pimem/core.wasm
trap 'rm -f host/cmd/pimem/core.wasm' EXIT
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64"
$check && targets="$(go env GOOS)/$(go env GOARCH)"
for t in $targets; do
	os=${t%/*} arch=${t#*/}
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -tags embedcore -trimpath -ldflags='-s -w' \
		-o "$out/pimem-$version-$os-$arch" ./host/cmd/pimem
done
(cd "$out" && sha256sum pimem-"$version"-* > SHA256SUMS)
if ! $check; then
	ls -l "$out" >&2
	exit 0
fi

bin=$(cd "$out" && pwd)/pimem-$version-$(go env GOOS)-$(go env GOARCH)
(cd "$out" && sha256sum --check --quiet SHA256SUMS)
tmp=$(mktemp -d)
trap 'rm -f host/cmd/pimem/core.wasm; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/project/.git" "$tmp/agent"
want=$(sha256sum "$core" | cut -c1-12)
got=$(cd "$tmp/project" && env -i PATH="$PATH" HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" "$bin" --version | head -1)
case "$got" in
*"sha256:$want"*) ;;
*) echo "release check: $bin --version says '$got', not the module sha256:$want" >&2; exit 1 ;;
esac
answer=$(cd "$tmp/project" && printf '%s\n' \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-check","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_status","arguments":{}}}' |
	env -i PATH="$PATH" HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" PI_CODING_AGENT_DIR="$tmp/agent" "$bin" mcp)
case "$answer" in
*'"id":2,"result"'*'pi-memory '"$version"*) ;;
*) echo "release check: pimem mcp answered: $answer" >&2; exit 1 ;;
esac
echo "release check: $(basename "$bin") carries core sha256:$want and serves MCP" >&2
