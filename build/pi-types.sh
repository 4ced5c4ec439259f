#!/usr/bin/env bash
# Puts pi's type declarations into ts/node_modules/@earendil-works/, so that
# `make test-types` checks the adapter against the pi it runs in (env.sh pins it).
# npm cannot install pi's packages from this registry (it lacks pi-tui 1.5.2,
# pi-schema, pi-telemetry), so the declarations are assembled instead:
#   pi-coding-agent        from the pi that build/pi.sh installed into the cache
#   pi-ai, pi-agent-core   from their npm tarballs, integrity pinned in env.sh (at
#                          PI_TYPES_VERSION: the registry has no newer ones)
# Only package.json and *.d.ts are copied: nothing here resolves at run time, where
# pi provides these modules itself. What stays missing (pi-tui, pi-schema, the model
# SDKs) is `any` to tsc; ts/test/pi-types.ts fails the check if the adapter relies on
# any of it. ts/node_modules is rebuilt by `npm ci`, so build/ts-deps.sh calls this
# after every install; a second run only finds the marker: milliseconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/env.sh"

dest="$root/ts/node_modules/@earendil-works"
marker="$dest/.pi-types-$PI_VERSION-$PI_TYPES_VERSION"
[ -f "$marker" ] && exit 0

node=$("$here/node.sh")
pi=$("$here/pi.sh")
installed="$(dirname "$pi")/app/node_modules/$PI_PACKAGE"
[ -f "$installed/dist/index.d.ts" ] || { echo "pi's declarations are missing from $installed: remove $PI_HOME and run build/pi.sh again" >&2; exit 1; }

cache="$PIMEM_CACHE/pi-types-$PI_TYPES_VERSION"
if [ ! -f "$cache/.complete" ]; then
	rm -rf "$cache"
	mkdir -p "$cache"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for entry in "${PI_TYPES_PACKAGES[@]}"; do
		spec=${entry% *}
		want=${entry#* }
		name=${spec%@*}
		log "fetching the declarations of $spec"
		file=$(cd "$tmp" && PATH="$(dirname "$node"):$PATH" npm pack --silent "$spec")
		got=$("$node" -e 'const c = require("node:crypto"), fs = require("node:fs");
			process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$tmp/$file")
		if [ "$got" != "$want" ]; then
			echo "$spec: the tarball's integrity is $got but build/env.sh pins $want; not using it" >&2
			exit 1
		fi
		mkdir -p "$cache/${name#*/}"
		tar -xzf "$tmp/$file" -C "$cache/${name#*/}" --strip-components=1
	done
	touch "$cache/.complete"
fi

# declarations SRC DST copies package.json and every .d.ts of a package.
declarations() {
	rm -rf "$2"
	mkdir -p "$2"
	(cd "$1" && find . -path ./node_modules -prune -o \( -name '*.d.ts' -o -path ./package.json \) -print0 | tar --null -T - -cf -) | tar -xf - -C "$2"
}
declarations "$installed" "$dest/${PI_PACKAGE#*/}"
for entry in "${PI_TYPES_PACKAGES[@]}"; do
	spec=${entry% *}
	name=${spec%@*}
	declarations "$cache/${name#*/}" "$dest/${name#*/}"
done
touch "$marker"
