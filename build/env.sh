# Shared settings for the build scripts: pinned versions and the cache folder.
# Toolchains live outside the checkout so a fresh clone reuses them.
PIMEM_CACHE="${PIMEM_CACHE:-$HOME/.cache/pi-memory}"
TINYGO_VERSION=0.41.0
LLVM_VERSION=19
NODE_VERSION=22.23.3
PI_VERSION=1.5.2
PI_PACKAGE=@earendil-works/pi-coding-agent
TINYGO_ROOT="$PIMEM_CACHE/tinygo-$TINYGO_VERSION"
NODE_HOME="$PIMEM_CACHE/node-$NODE_VERSION"
PI_HOME="$PIMEM_CACHE/pi-$PI_VERSION"
mkdir -p "$PIMEM_CACHE"

# as_root runs a command as root, through sudo when we are not root.
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

log() { printf '[build] %s\n' "$*" >&2; }
