#!/usr/bin/env bash
# `make bench`: measures every performance target of issue 2 §6 for both builds of
# the core, prints the table and writes docs/benchmarks.md. This script prepares;
# ts/bench/main.ts measures and reports.
#
#   build/bench.sh                 full run (1M-event steps included; ~10 minutes)
#   BENCH_QUICK=1 build/bench.sh   without the 1M-event steps
#
# Datasets are generated once into $PIMEM_CACHE/bench-data/ and reused until the
# generator's output changes.
# More knobs (repetitions, pairs, calls) are listed at the top of ts/bench/main.ts.
# Benchmarks are not tests: `make test` never runs this, and a missed target prints
# MISS without failing. The exit code is non-zero only if a figure could not be taken.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"
cd "$root"

node=$("$here/node.sh")
pi=$("$here/pi.sh")
tinygo=$("$here/tinygo.sh")
"$here/ts-deps.sh"
make -s wasm

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pimem-bench-build-XXXXXX")
main_pid=
cleanup() {
	if [ -n "$main_pid" ] && kill -0 "$main_pid" 2>/dev/null; then
		kill -TERM "$main_pid" 2>/dev/null || true
		wait "$main_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

log "building the Go benchmark host, the dataset generator and pimem"
go build -o "$tmp/bench" ./host/cmd/bench
go build -o "$tmp/gendata" ./host/cmd/gendata
go build -o "$tmp/pimem" ./host/cmd/pimem

# gendata is deterministic: the same generator writes the same bytes. Its output for
# a short prefix fingerprints it, so a core change that leaves the generator's
# output alone keeps the cached datasets, and one that changes it regenerates them.
data="$PIMEM_CACHE/bench-data"
mkdir -p "$data"
fp=$({ "$tmp/gendata" -events 20000 -seed 1 && "$tmp/gendata" -events 2000 -seed 1 -adds-only; } | sha256sum | cut -c1-16)
if [ "$(cat "$data/fingerprint" 2>/dev/null || true)" != "$fp" ]; then
	log "new dataset generator output (fingerprint $fp): regenerating the datasets"
	rm -rf "${data:?}"/*
	echo "$fp" >"$data/fingerprint"
fi

gen() {
	local name=$1
	shift
	[ -s "$data/$name" ] && return 0
	log "generating $name"
	"$tmp/gendata" "$@" -o "$data/$name.tmp"
	mv "$data/$name.tmp" "$data/$name"
}
gen events-1k.jsonl -events 1000 -seed 1
gen events-100k.jsonl -events 100000 -seed 1
gen adds-100k.jsonl -events 100000 -seed 1 -adds-only
if [ "${BENCH_QUICK:-}" != 1 ]; then
	gen events-1m.jsonl -events 1000000 -seed 1
fi

# In the background so a TERM or INT reaching this script is passed on: main.ts
# then ends its own children by PID and removes its temp folder.
PI_BIN="$pi" "$node" --disable-warning=ExperimentalWarning ts/bench/main.ts \
	--data "$data" --gobench "$tmp/bench" --tinygo "$tinygo" --pimem "$tmp/pimem" --hindsight-home "$HINDSIGHT_HOME" --out docs/benchmarks.md &
main_pid=$!
trap 'kill -TERM "$main_pid" 2>/dev/null || true' INT TERM
status=0
wait "$main_pid" || status=$?
# A signal interrupts the first wait; wait again for main.ts to finish cleaning up.
if kill -0 "$main_pid" 2>/dev/null; then
	wait "$main_pid" || status=$?
fi
main_pid=
exit "$status"
