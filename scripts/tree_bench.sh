#!/usr/bin/env bash
# The tree transfer measure of issue 19: a tree of 1,500 files of 1-64 KiB
# in 30 nested folders plus 3 files of 48 MiB, against one cmd/refserver:
#   1. `cms upload` of the tree (first run), then a re-run with nothing
#      changed (it must move 0 bytes), then `cms download` back and a
#      byte-for-byte comparison;
#   2. Box's official TypeScript SDK uploading the same tree with 4 uploads
#      in flight (cmd/cmsbench/peers/ts-tree.js; needs node and the SDK
#      that conformance/official-sdks/run.sh installs).
# Prints one line per measure. Not a test: timings vary with the machine.
#
#   scripts/tree_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/refserver" ./cmd/refserver
go build -o "$work/cms" ./cmd/cms

# The tree: deterministic content from a seed, so every run is the same.
python3 - "$work/src" <<'PY'
import os, random, sys
root = sys.argv[1]
rng = random.Random(19)
dirs = [root]
for i in range(30):  # 30 nested folders: a chain of 5 under each of 6
    parent = root if i % 5 == 0 else dirs[-1]
    d = os.path.join(parent, f"dir{i:02d}")
    os.makedirs(d)
    dirs.append(d)
for i in range(1500):
    d = dirs[1 + i % 30]
    size = rng.randint(1024, 64 * 1024)
    with open(os.path.join(d, f"file{i:04d}.bin"), "wb") as f:
        f.write(rng.randbytes(size))
for i in range(3):
    with open(os.path.join(root, f"big{i}.bin"), "wb") as f:
        for _ in range(48):
            f.write(rng.randbytes(1 << 20))
PY

start_server() {
	"$work/refserver" -addr 127.0.0.1:0 >"$work/$1.json" 2>"$work/$1.log" &
	pids+=("$!")
	for _ in $(seq 100); do
		[[ -s "$work/$1.json" ]] && return 0
		sleep 0.1
	done
	echo "tree_bench: refserver did not start" >&2
	exit 1
}
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

start_server go
export CMS_HASH_CACHE="$work/hashes.json"
export CMS_BASE_URL=$(field "$work/go.json" 'd["base_url"]') CMS_UPLOAD_URL=$(field "$work/go.json" 'd["upload_url"]') CMS_TOKEN=$(field "$work/go.json" 'd["tokens"]["user"]')
now() { date +%s.%N; }
t0=$(now); "$work/cms" upload "$work/src" 0 --json --quiet ${CMS_TREE_FLAGS:-} >"$work/up1.json"; t1=$(now)
t2=$(now); "$work/cms" upload "$work/src" 0 --json --quiet >"$work/up2.json"; t3=$(now)
t4=$(now); "$work/cms" download 0 "$work/dst" --json --quiet >"$work/down.json"; t5=$(now)
diff -r "$work/src" "$work/dst" >/dev/null && same=yes || same=no
printf '{"impl":"cms","name":"tree_upload","seconds":%.2f,"summary":%s}\n' "$(echo "$t1 - $t0" | bc)" "$(tail -1 "$work/up1.json")"
printf '{"impl":"cms","name":"tree_rerun","seconds":%.2f,"summary":%s}\n' "$(echo "$t3 - $t2" | bc)" "$(tail -1 "$work/up2.json")"
printf '{"impl":"cms","name":"tree_download","seconds":%.2f,"identical":"%s","summary":%s}\n' "$(echo "$t5 - $t4" | bc)" "$same" "$(tail -1 "$work/down.json")"

if command -v node >/dev/null && [[ -d conformance/official-sdks/node_modules/box-typescript-sdk-gen ]]; then
	start_server ts
	SERVER="$work/ts.json" SRC="$work/src" FOLDER=0 node cmd/cmsbench/peers/ts-tree.js
else
	echo '{"impl":"ts-sdk","name":"tree_upload","skipped":"node or the SDK is missing (run conformance/official-sdks/run.sh)"}'
fi
