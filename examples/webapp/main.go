// Command webapp is the usual shape of a web app built on the service: a
// Go backend that holds the credentials and, for every page view, mints a
// short-lived token downscoped to what the page needs, and a page that
// shows the content with Box UI Elements (Content Explorer on /, Content
// Uploader on /upload), unchanged, talking to the API from the browser.
//
// It runs against a reference server started in this process (seeded with
// demo content), unless CMS_TOKEN is set: then against the service
// CMS_BASE_URL and CMS_UPLOAD_URL name (both, or neither for the public
// service). The elements' prebuilt bundles come from the npm package
// box-ui-elements (its dist folder), which
// conformance/browser/run.sh installs, or:
//
//	npm install --prefix /tmp/elements box-ui-elements
//	go run ./examples/webapp -elements /tmp/elements/node_modules/box-ui-elements/dist
//
// and open http://127.0.0.1:3000.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"golang.org/x/oauth2"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	addr := flag.String("addr", "127.0.0.1:3000", "where the app listens")
	elements := flag.String("elements", "conformance/browser/node_modules/box-ui-elements/dist", "box-ui-elements' dist folder (explorer.js, uploader.js, their .css)")
	flag.Parse()
	if err := run(ctx, os.Stdout, *addr, *elements); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, out io.Writer, addr, elements string) error {
	if _, err := os.Stat(filepath.Join(elements, "explorer.js")); err != nil {
		return fmt.Errorf("box-ui-elements' bundles not found in %s (see the command's doc): %w", elements, err)
	}
	be, cleanup, err := backend()
	if err != nil {
		return err
	}
	defer cleanup()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newApp(be, elements), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	fmt.Fprintf(out, "Connected to %s\nOpen http://%s (Content Explorer) and http://%s/upload (Content Uploader)\n", be.baseURL, ln.Addr(), ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// backendConf is the service the app uses: its API and upload roots, and
// how the app mints a page's token from its own (never sent to a page).
type backendConf struct {
	baseURL, uploadURL string
	mint               func(ctx context.Context, scopes []string) (*oauth2.Token, error)
}

// backend names the service of the environment (CMS_TOKEN set), or starts
// a seeded reference server in this process.
func backend() (backendConf, func(), error) {
	if os.Getenv(cms.EnvToken) != "" {
		e, err := cms.ConfigFromEnv()
		if err != nil {
			return backendConf{}, nil, err
		}
		be := backendConf{baseURL: e.BaseURL, uploadURL: e.UploadURL}
		var opts []cms.AuthOption
		if be.baseURL == "" {
			be.baseURL, be.uploadURL = cms.DefaultBaseURL, cms.DefaultUploadURL
		} else {
			opts = append(opts, cms.WithAuthBaseURL(be.baseURL)) // its token endpoint
		}
		be.mint = func(ctx context.Context, scopes []string) (*oauth2.Token, error) {
			return cms.Downscope(ctx, e.Token, scopes, "", opts...)
		}
		return be, func() {}, nil
	}
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		return backendConf{}, nil, err
	}
	be, err := refserverBackend(srv)
	if err == nil {
		err = srv.Seed()
	}
	if err != nil {
		_ = srv.Close()
		return backendConf{}, nil, err
	}
	return be, func() { _ = srv.Close() }, nil
}

// refserverBackend registers the app with a reference server and signs in
// as its managed user with client credentials, as an app signs in to the
// service; the SDK's token source keeps the app's token fresh.
func refserverBackend(srv *refserver.Server) (backendConf, error) {
	app, err := srv.RegisterApp(refserver.App{})
	if err != nil {
		return backendConf{}, err
	}
	ts, err := cms.NewCCGTokenSource(app.ClientID, app.ClientSecret, cms.UserSubject(srv.UserID()), cms.WithAuthBaseURL(srv.BaseURL()))
	if err != nil {
		return backendConf{}, err
	}
	return backendConf{
		baseURL: srv.BaseURL(), uploadURL: srv.UploadURL(),
		mint: func(ctx context.Context, scopes []string) (*oauth2.Token, error) {
			return ts.Downscope(ctx, scopes, "")
		},
	}, nil
}

// The scopes each page's token gets: what the element does, no more.
var (
	explorerScopes = []string{"base_explorer", "item_preview", "item_download", "item_rename", "item_share", "item_delete", "item_upload"}
	uploaderScopes = []string{"base_upload"}
)

// page is one page of the app.
type page struct {
	Title, Bundle, Element string
	Token                  string
	APIHost, UploadHost    string
	FolderID               string
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<link rel="stylesheet" href="/elements/{{.Bundle}}.css">
<style>html, body { height: 100%; margin: 0; } #root { height: calc(100% - 2em); }</style>
</head>
<body>
<nav><a href="/">Explorer</a> · <a href="/upload">Uploader</a></nav>
<div id="root"></div>
<script src="/elements/{{.Bundle}}.js"></script>
<script>
new Box[{{.Element}}]().show({{.FolderID}}, {{.Token}}, {
	container: '#root',
	apiHost: {{.APIHost}},
	uploadHost: {{.UploadHost}},
	canPreview: false, // ContentPreview's library is only on Box's CDN
	logoUrl: 'box',
	canUpload: true, canCreateNewFolder: true, canRename: true, canDelete: true,
	canDownload: true, canShare: true, canSetShareAccess: true,
});
</script>
</body>
</html>
`))

// newApp is the app's handler: / and /upload mint a downscoped token and
// serve the page, /elements/ serves the elements' bundles.
func newApp(be backendConf, elements string) http.Handler {
	origin := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			return raw
		}
		return u.Scheme + "://" + u.Host
	}
	mux := http.NewServeMux()
	serve := func(title, bundle, element string, scopes []string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			// One token per page view, restricted to the element's scopes
			// (a resource could narrow it to one folder), with no refresh
			// token: the page never sees the app's own token.
			tok, err := be.mint(r.Context(), scopes)
			if err != nil {
				log.Printf("minting a token: %v", err)
				http.Error(w, "could not mint a token", http.StatusBadGateway)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_ = pageTemplate.Execute(w, page{
				Title: title, Bundle: bundle, Element: element, Token: tok.AccessToken,
				APIHost: origin(be.baseURL), UploadHost: origin(be.uploadURL), FolderID: "0",
			})
		}
	}
	mux.Handle("GET /{$}", serve("Content Explorer", "explorer", "ContentExplorer", explorerScopes))
	mux.Handle("GET /upload", serve("Content Uploader", "uploader", "ContentUploader", uploaderScopes))
	files := http.FileServer(http.Dir(elements))
	mux.Handle("GET /elements/{bundle}", http.StripPrefix("/elements/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "explorer.js", "explorer.css", "uploader.js", "uploader.css":
			files.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})))
	return mux
}
