# Shared settings for the build scripts: pinned versions and the cache folder.
# Toolchains live outside the checkout so a fresh clone reuses them.
PIMEM_CACHE="${PIMEM_CACHE:-$HOME/.cache/pi-memory}"
TINYGO_VERSION=0.41.0
LLVM_VERSION=19
NODE_VERSION=22.23.3
# The pi the end-to-end suite runs (the newest release), and the older one whose
# compatibility run (make test-e2e-compat) repeats a part of it: pi-memory supports both.
PI_VERSION=1.6.0
PI_COMPAT_VERSION=1.5.2
PI_PACKAGE=@earendil-works/pi-coding-agent
# pi's declarations import these two packages; their tarballs (types only, pinned by
# integrity) complete the types tsc checks the adapter against (build/pi-types.sh).
# This registry has them at 1.5.2 only (pi 1.6.0 bundles its own); pi-coding-agent's
# declarations come from the pi installed above.
PI_TYPES_VERSION=1.5.2
PI_TYPES_PACKAGES=(
	"@earendil-works/pi-ai@$PI_TYPES_VERSION sha512-2tWPSnV3qzfiDIY3aWluBag3vC++Vs+VsXt/UquSU5onPMohPih72FUhIhaqmDdMYubOgB3Byl9uF4Vk40JLvQ=="
	"@earendil-works/pi-agent-core@$PI_TYPES_VERSION sha512-ie5mejS7mGfXt//9As7i3LfxVXdktZvF1JP4EQsUXTp4mU437h23MNGx7wXZ5VYs3YiG/Qnj3e7OZ2HC069OMw=="
)
# The Hindsight memory server the end-to-end tests run (build/hindsight.sh,
# docs/hindsight.md); every other Python package is pinned by build/hindsight-constraints.txt.
HINDSIGHT_VERSION=1.1.0
PG0_VERSION=0.15.2
# PostgreSQL refuses to run as root: the embedded database runs as this system user.
HINDSIGHT_USER=pimem-hindsight
TINYGO_ROOT="$PIMEM_CACHE/tinygo-$TINYGO_VERSION"
NODE_HOME="$PIMEM_CACHE/node-$NODE_VERSION"
PI_HOME="$PIMEM_CACHE/pi-$PI_VERSION"
HINDSIGHT_HOME="$PIMEM_CACHE/hindsight-$HINDSIGHT_VERSION"
mkdir -p "$PIMEM_CACHE"

# as_root runs a command as root, through sudo when we are not root.
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

log() { printf '[build] %s\n' "$*" >&2; }
