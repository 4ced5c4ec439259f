#!/usr/bin/env bash
# Installs the pi CLI (@earendil-works/pi-coding-agent) into the cache and prints the
# path of a launcher that runs it on our Node 22. The plain npm install fails on this
# registry (some @earendil-works/* packages are missing); the CLI bundle already
# contains them, so the fallback repacks the package without those dependencies.
#
#   build/pi.sh [VERSION]     VERSION defaults to PI_VERSION (env.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
if [ $# -gt 0 ]; then
	PI_VERSION=$1
	PI_HOME="$PIMEM_CACHE/pi-$PI_VERSION"
fi

node=$("$here/node.sh")
launcher="$PI_HOME/pi"
if [ -x "$launcher" ] && [ -f "$PI_HOME/.complete" ]; then
	echo "$launcher"
	exit 0
fi
rm -rf "$PI_HOME"
mkdir -p "$PI_HOME/app"
cd "$PI_HOME/app"
echo '{"name":"pi-runner","private":true}' > package.json
export PATH="$(dirname "$node"):$PATH"
log "installing $PI_PACKAGE@$PI_VERSION"
if ! npm install --silent --omit=dev --ignore-scripts --no-audit --no-fund "$PI_PACKAGE@$PI_VERSION" >/dev/null 2>"$PI_HOME/npm-plain.log"; then
	log "plain install failed (see $PI_HOME/npm-plain.log); repacking without the bundled dependencies"
	tmp=$(mktemp -d)
	(cd "$tmp" && npm pack --silent "$PI_PACKAGE@$PI_VERSION" >/dev/null && tar -xzf ./*.tgz)
	"$node" -e '
		const fs = require("fs"); const f = process.argv[1];
		const p = JSON.parse(fs.readFileSync(f, "utf8"));
		for (const k of ["dependencies", "optionalDependencies", "peerDependencies"]) {
			for (const d of Object.keys(p[k] || {})) {
				if (d.startsWith("@earendil-works/") || d === "lovely-mermaid") delete p[k][d];
			}
		}
		fs.writeFileSync(f, JSON.stringify(p, null, 2));
	' "$tmp/package/package.json"
	(cd "$tmp/package" && npm pack --silent >/dev/null)
	npm install --silent --omit=dev --ignore-scripts --no-audit --no-fund "$tmp"/package/*.tgz >/dev/null
	rm -rf "$tmp"
fi
cli="$PI_HOME/app/node_modules/$PI_PACKAGE/dist/bundle/cli.js"
[ -f "$cli" ] || cli="$PI_HOME/app/node_modules/$PI_PACKAGE/dist/cli.js"
[ -f "$cli" ] || { echo "pi CLI entry not found under $PI_HOME/app" >&2; exit 1; }
cat > "$launcher" <<LAUNCH
#!/usr/bin/env bash
exec "$node" "$cli" "\$@"
LAUNCH
chmod +x "$launcher"
"$launcher" --version >&2
touch "$PI_HOME/.complete"
echo "$launcher"
