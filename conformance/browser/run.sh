#!/usr/bin/env bash
# Runs Box UI Elements (box-ui-elements from npm: its prebuilt dist bundles,
# loaded through a script tag, unchanged) in headless Chromium against the
# reference server: Content Explorer lists, navigates, sorts, paginates,
# searches, creates a folder and uploads (plain, and chunked from an https
# page), Content Uploader uploads, Content Picker chooses a file; the
# scenarios that need server fixes not made yet run too and are reported
# "PENDING <name>: <reason>" (scenarios.js). Exits non-zero only when a
# scenario expected to pass fails, or when the harness cannot run.
#
#   conformance/browser/run.sh
#
# Needs go, node (>= 18) and npm. Chromium is Debian's (/usr/bin/chromium):
# installed with apt-get when missing (as root), never downloaded from npm
# (playwright-core drives it through executablePath). Prints one line,
# "SKIP: npm registry unreachable", and exits 0 only when the pinned
# packages cannot be installed because the registry cannot be reached.
# Everything runs on loopback; the page's requests off this machine (the
# elements' fonts on Box's CDN) are aborted and listed. Bounded by
# CMS_BROWSER_TIMEOUT seconds (default 420; it covers the apt-get
# install). Screenshots go to conformance/browser/out/ (not committed).
#
# Environment passed on to harness.js: SCENARIO (run only the scenarios
# whose name contains it), VERBOSE=1 (print every call to the server),
# CHROMIUM (another Chromium binary).
set -euo pipefail

LIMIT_SECONDS=${CMS_BROWSER_TIMEOUT:-420}
if [[ -z "${CMS_BROWSER_TIMED:-}" ]]; then
	export CMS_BROWSER_TIMED=1
	exec timeout --kill-after=10 "$LIMIT_SECONDS" bash "$0" "$@"
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
conformance_scratch browser

for tool in go node npm; do
	if ! command -v "$tool" >/dev/null; then
		echo "browser: $tool is not installed" >&2
		exit 1
	fi
done

# 1. Debian's Chromium, and openssl for the https page's certificate.
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing=()
[[ -x "$CHROMIUM" ]] || missing+=(chromium)
command -v openssl >/dev/null || missing+=(openssl)
if [[ ${#missing[@]} -gt 0 ]]; then
	if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
		echo "browser: missing ${missing[*]}; install Debian's packages (apt-get install ${missing[*]})" >&2
		exit 1
	fi
	echo "browser: installing Debian's ${missing[*]}"
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >"$work/apt.log" 2>&1; then
		cat "$work/apt.log" >&2
		echo "browser: apt-get install ${missing[*]} failed" >&2
		exit 1
	fi
fi
# A certificate for the page's https server (the elements upload in chunks
# only from an https page); the browser is told to accept it.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$work/page.key" -out "$work/page.crt" >"$work/openssl.log" 2>&1 || {
	cat "$work/openssl.log" >&2
	echo "browser: openssl could not make the page's certificate" >&2
	exit 1
}

# 2. The pinned packages (package-lock.json). No retries: an unreachable
# registry must not eat the time budget. .npmrc leaves box-ui-elements'
# peer dependencies out: its dist bundles carry what they need.
cd "$here"
npm_ci() {
	npm ci --prefer-offline --fetch-retries=0 --fetch-timeout=30000 \
		--no-audit --no-fund --loglevel=error "$@" >"$work/npm.log" 2>&1
}
if ! npm_ci; then
	if ! timeout 30 npm ping --fetch-retries=0 --fetch-timeout=10000 >/dev/null 2>&1; then
		echo "SKIP: npm registry unreachable"
		exit 0
	fi
	# Once more with a cache of its own: the shared one may have lost
	# content that its index still names (ENOENT), e.g. to a concurrent
	# clean.
	echo "browser: npm ci failed ($(grep -m1 -o 'npm error code [A-Z]*' "$work/npm.log" || echo '?')); retrying with a fresh cache"
	if ! npm_ci --cache "$work/npm-cache"; then
		cat "$work/npm.log" >&2
		echo "browser: npm ci failed" >&2
		exit 1
	fi
fi

# 3. The reference server, with the demo content.
(cd "$root" && go build -o "$work/refserver" ./cmd/refserver)
: >"$work/server.json"
"$work/refserver" -addr 127.0.0.1:0 -seed >"$work/server.json" 2>"$work/server.log" &
pids+=("$!")
for ((i = 0; i < 200; i++)); do
	if [[ $(wc -l <"$work/server.json") -ge 1 ]]; then
		break
	fi
	if ! kill -0 "${pids[-1]}" 2>/dev/null; then
		cat "$work/server.log" >&2
		echo "browser: refserver exited" >&2
		exit 1
	fi
	sleep 0.1
done
if [[ $(wc -l <"$work/server.json") -lt 1 ]]; then
	echo "browser: refserver printed no startup line" >&2
	exit 1
fi
field() {
	node -e 'const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const v = process.argv[2].split(".").reduce((o, k) => o && o[k], l);
		if (v === undefined) process.exit(1);
		console.log(v)' "$work/server.json" "$1"
}

# 4. The scenarios.
BASE_URL=$(field base_url) UPLOAD_URL=$(field upload_url) TOKEN=$(field tokens.user) \
	TLS_CERT="$work/page.crt" TLS_KEY="$work/page.key" \
	OUT_DIR="$here/out" NODE_NO_WARNINGS=1 node "$here/harness.js"
