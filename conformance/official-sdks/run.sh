#!/usr/bin/env bash
# Runs Box's official SDKs, unchanged, against the reference server: the Node
# SDKs (box-node-sdk 4 classic, box-node-sdk 10 and box-typescript-sdk-gen,
# from npm) and the Python SDK
# (boxsdk, module box_sdk_gen, from the Python package index): upload, new
# version, download and a 25 MB chunked upload per SDK, sign-in with JWT and
# client credentials, and the per-resource scripts in resources/.
#
#   conformance/official-sdks/run.sh
#
# Needs go; node (>= 18) and npm for the Node part; python3 (>= 3.8, with
# venv) for the Python part. Exits non-zero on any failure. A part is
# skipped with one line, "SKIP: npm registry unreachable" or "SKIP: Python
# package index unreachable", only when its pinned packages cannot be
# installed because the registry cannot be reached (or, for the Python part,
# when python3 or its venv module is missing).
#
# Servers (built from ./cmd/refserver, defaults: part size 8 MiB, chunked
# minimum 20 000 000 bytes):
#   - The generated Node SDKs, box-typescript-sdk-gen and box-node-sdk 10
#     (the same BoxClient; installed as the npm alias box-node-sdk-10 beside
#     the classic 4.x), each run box-typescript-sdk-gen.js and
#     resources/*.ts-gen.js, the SDK chosen by GEN_SDK, against a default,
#     strict server of their own (so one SDK's run cannot change what the
#     other finds); the Python SDK runs against box-typescript-sdk-gen's.
#     The strict content host refuses an Authorization header: their
#     downloads passing shows that they drop the token on the cross-host
#     redirect.
#   - box-node-sdk (classic) runs against a server started with
#     -ignore-content-auth: its files.getReadStream sends the API bearer
#     token to the download URL, which the real content host ignores.
# Every server registers an app (-app-config); its config.json is passed to
# every script as APP_CONFIG, and resources/auth.*.js and the Python script
# sign in with each SDK's JWT and client-credentials auth.

#   - All start with -device-pins 4: the API has no call that creates
#     device pins, and resources/admin.*.js list them over two pages.
set -euo pipefail

LIMIT_SECONDS=${CMS_CONFORMANCE_TIMEOUT:-600}
if [[ -z "${CMS_CONFORMANCE_TIMED:-}" ]]; then
	export CMS_CONFORMANCE_TIMED=1
	exec timeout --kill-after=10 "$LIMIT_SECONDS" bash "$0" "$@"
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
conformance_scratch official-sdks

if ! command -v go >/dev/null; then
	echo "official-sdks: go is not installed" >&2
	exit 1
fi

# 1. Install the pinned Node SDKs (package-lock.json) into node_modules. No
# retries: an unreachable registry must not eat the time budget (npm's
# default retries take over two minutes to give up).
node_ok=0
cd "$here"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "SKIP: node/npm not installed"
elif npm ci --prefer-offline --fetch-retries=0 --fetch-timeout=30000 \
	--no-audit --no-fund --loglevel=error >"$work/npm.log" 2>&1; then
	node_ok=1
elif ! timeout 30 npm ping --fetch-retries=0 --fetch-timeout=10000 >/dev/null 2>&1; then
	echo "SKIP: npm registry unreachable"
else
	cat "$work/npm.log" >&2
	echo "official-sdks: npm ci failed" >&2
	exit 1
fi

# 1b. Install the pinned Python SDK (python/requirements.txt) into a venv
# kept in python/.venv between runs. The index is probed first (a few
# seconds) so that an unreachable one skips fast instead of waiting on pip.
py_ok=0
venv="$here/python/.venv"
py_installed() {
	"$venv/bin/python" -c 'import box_sdk_gen' 2>/dev/null &&
		cmp -s "$here/python/requirements.txt" "$venv/requirements.txt"
}
index_reachable() {
	python3 - "${PIP_INDEX_URL:-https://pypi.org/simple/}" <<'PY'
import sys, urllib.request
url = sys.argv[1].rstrip("/") + "/boxsdk/"
try:
    urllib.request.urlopen(url, timeout=5).close()
except Exception:
    sys.exit(1)
PY
}
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
	echo "SKIP: python3 with venv not installed"
elif py_installed; then
	py_ok=1
elif ! index_reachable; then
	echo "SKIP: Python package index unreachable"
else
	rm -rf "$venv"
	if python3 -m venv "$venv" >"$work/pip.log" 2>&1 &&
		"$venv/bin/pip" install --disable-pip-version-check --no-input --retries 1 --timeout 30 \
			-r "$here/python/requirements.txt" >>"$work/pip.log" 2>&1; then
		cp "$here/python/requirements.txt" "$venv/requirements.txt"
		py_ok=1
	else
		cat "$work/pip.log" >&2
		echo "official-sdks: pip install failed" >&2
		exit 1
	fi
fi

if [[ $node_ok -eq 0 && $py_ok -eq 0 ]]; then
	exit 0
fi

# 2. Build the reference server once.
(cd "$root" && go build -o "$work/refserver" ./cmd/refserver)

# json_get FILE EXPR reads one value from the startup line (jq, else node).
json_get() {
	if command -v jq >/dev/null; then
		jq -er "$2" "$1"
	elif ! command -v node >/dev/null; then
		python3 -c 'import functools, json, sys
v = functools.reduce(lambda o, k: o.get(k) if isinstance(o, dict) else None,
                     [k for k in sys.argv[2].split(".") if k], json.load(open(sys.argv[1])))
sys.exit(1) if v is None else print(v)' "$1" "$2"
	else
		node -e 'const l=require("fs").readFileSync(process.argv[1],"utf8");
			const v=process.argv[2].split(".").filter(Boolean).reduce((o,k)=>o&&o[k],JSON.parse(l));
			if(v===undefined||v===null)process.exit(1);console.log(v)' "$1" "$2"
	fi
}

# start_server NAME ARGS... starts a server and waits for its JSON line.
start_server() {
	local name=$1
	shift
	"$work/refserver" -addr 127.0.0.1:0 -app-config "$work/$name-app.json" "$@" \
		>"$work/$name.json" 2>"$work/$name.log" &
	pids+=("$!")
	local i
	for ((i = 0; i < 200; i++)); do
		if [[ $(wc -l <"$work/$name.json") -ge 1 ]]; then
			return 0
		fi
		if ! kill -0 "${pids[-1]}" 2>/dev/null; then
			cat "$work/$name.log" >&2
			echo "official-sdks: refserver ($name) exited" >&2
			exit 1
		fi
		sleep 0.1
	done
	echo "official-sdks: refserver ($name) printed no startup line" >&2
	exit 1
}

# All also seed a file request (the API cannot make one), a user outside
# the enterprise for POST /invites, and register boxdemo.com for email
# aliases (the SDKs' own tests use it).
EXTERNAL_USER_EMAIL=guest@partner.test
server_args=(-device-pins 4 -long-poll-timeout 10s -file-requests 1 -external-users "$EXTERNAL_USER_EMAIL" -enterprise-domains cms.test,boxdemo.com)
# The generated SDKs (GEN_SDK, a package directory in node_modules) and the
# strict server each runs against.
gen_sdks=(box-typescript-sdk-gen box-node-sdk-10)
declare -A gen_server=([box-typescript-sdk-gen]=strict [box-node-sdk-10]=strict-sdk10)
for sdk in "${gen_sdks[@]}"; do
	start_server "${gen_server[$sdk]}" "${server_args[@]}"
done
start_server lenient -ignore-content-auth "${server_args[@]}"

# pkg_label DIR is the published name and version of the package installed
# in node_modules/DIR, e.g. "box-node-sdk 10.12.0".
pkg_label() {
	node -p 'const p = require(process.argv[1]); p.name + " " + p.version' "$here/node_modules/$1/package.json"
}

# run_sdk LABEL SCRIPT SERVER [INTERPRETER] runs one SDK script against one
# server; LABEL names the SDK and version on its lines and in the summary.
passed=0
failed=0
failures=()
run_sdk() {
	local label=$1 script=$2 server=$3 line="$work/$3.json" interpreter=${4:-node}
	echo "== $script [$label] (server: $server)"
	if BASE_URL=$(json_get "$line" .base_url) \
		UPLOAD_URL=$(json_get "$line" .upload_url) \
		TOKEN=$(json_get "$line" .tokens.user) \
		ADMIN_TOKEN=$(json_get "$line" .tokens.admin) \
		APP_TOKEN=$(json_get "$line" .tokens.app) \
		ENTERPRISE_ID=$(json_get "$line" .enterprise_id) \
		APP_CONFIG="$work/$server-app.json" \
		WEBHOOK_PRIMARY_KEY=$(json_get "$line" .webhook_keys.primary) \
		WEBHOOK_SECONDARY_KEY=$(json_get "$line" .webhook_keys.secondary) \
		USER_ID=$(json_get "$line" .users.user) \
		FILE_REQUEST_ID=$(json_get "$line" .file_requests | tr -d "[]\"' \n" | cut -d, -f1) \
		EXTERNAL_USER_EMAIL=$EXTERNAL_USER_EMAIL \
		NODE_NO_WARNINGS=1 \
		"$interpreter" "$here/$script"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures+=("$script [$label]")
	fi
}

if [[ $node_ok -eq 1 ]]; then
	# One script per resource and SDK family, in resources/: NAME.ts-gen.js
	# runs once per generated SDK (GEN_SDK) against that SDK's strict
	# server, NAME.node-sdk.js the classic box-node-sdk against the lenient
	# one.
	shopt -s nullglob
	for sdk in "${gen_sdks[@]}"; do
		label=$(pkg_label "$sdk")
		export GEN_SDK=$sdk
		run_sdk "$label" box-typescript-sdk-gen.js "${gen_server[$sdk]}"
		for script in "$here"/resources/*.ts-gen.js; do
			run_sdk "$label" "resources/$(basename "$script")" "${gen_server[$sdk]}"
		done
		unset GEN_SDK
	done
	label=$(pkg_label box-node-sdk)
	run_sdk "$label" box-node-sdk.js lenient
	for script in "$here"/resources/*.node-sdk.js; do
		run_sdk "$label" "resources/$(basename "$script")" lenient
	done
fi

if [[ $py_ok -eq 1 ]]; then
	run_sdk "boxsdk $(sed -n 's/^boxsdk\(\[[^]]*\]\)\{0,1\}==//p' "$here/python/requirements.txt")" \
		python/box_sdk_gen_conformance.py strict "$venv/bin/python"
fi

for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
echo "official-sdks: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
