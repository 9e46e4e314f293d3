#!/usr/bin/env bash
# Follows README.md's Install steps literally in a new module: a checkout
# beside it (a link to this repository, for the clone), code that imports
# the SDK, then every `go` line of the README's install block, in order;
# then runs the program, which starts a reference server and uses the SDK.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$root" "$work/cms"
mkdir "$work/myapp"
cd "$work/myapp"
go mod init example.com/myapp >/dev/null 2>&1
cat >main.go <<'GO'
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func main() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ep, err := srv.Endpoint(refserver.RoleUser)
	if err != nil {
		log.Fatal(err)
	}
	client, err := cms.NewClient(cms.WithURLs(ep.BaseURL, ep.UploadURL), cms.WithToken(ep.Token))
	if err != nil {
		log.Fatal(err)
	}
	f, _, err := client.Folders.Create(context.Background(), &cms.CreateFolderRequest{Name: "installed", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created folder", f.Name)
}
GO
steps=$(sed -n '/<!-- install:start -->/,/<!-- install:end -->/p' "$root/README.md" | grep -E '^go ' | sed 's/[[:space:]]*#.*$//')
[[ -n "$steps" ]] || { echo "README.md has no go lines in its install block" >&2; exit 1; }
while IFS= read -r step; do
	echo "+ $step"
	eval "$step"
done <<<"$steps"
out=$(go run .)
echo "$out"
[[ "$out" == "created folder installed" ]]
echo "install steps: ok"
