// Command auth shows server-side authentication: client credentials (CCG)
// and JWT from an app's config.json, a user-scoped token, a derived client
// acting As-User, a downscoped token and revocation.
//
// It runs against a reference server started in this process, which
// registers an app and writes its config.json to a temporary file, unless
// CMS_APP_CONFIG names a config.json of a real app (CMS_BASE_URL too, when
// the API is not https://api.box.com/2.0). CMS_USER_ID picks the user to
// act as.
//
//	go run ./examples/auth
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// target is where the example signs in.
type target struct {
	baseURL, uploadURL string
	configPath         string
	userID             string
}

// roots are the options naming the target's roots: the upload root only
// when one is given (CMS_UPLOAD_URL), so that the SDK refuses a custom API
// root paired with the public upload root instead of sending the token
// there.
func (t target) roots() []cms.Option {
	opts := []cms.Option{cms.WithBaseURL(t.baseURL)}
	if t.uploadURL != "" {
		opts = append(opts, cms.WithUploadURL(t.uploadURL))
	}
	return opts
}

func setup() (target, func(), error) {
	if path := os.Getenv("CMS_APP_CONFIG"); path != "" {
		t := target{baseURL: os.Getenv("CMS_BASE_URL"), uploadURL: os.Getenv("CMS_UPLOAD_URL"), configPath: path, userID: os.Getenv("CMS_USER_ID")}
		if t.baseURL == "" {
			t.baseURL = cms.DefaultBaseURL
		}
		return t, func() {}, nil
	}
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		return target{}, nil, err
	}
	dir, err := os.MkdirTemp("", "cms-auth-example-")
	if err != nil {
		srv.Close()
		return target{}, nil, err
	}
	cleanup := func() { srv.Close(); os.RemoveAll(dir) }
	// What `go run ./cmd/refserver -app-config FILE` does: register an app
	// authorized in the enterprise and write its config.json.
	path := filepath.Join(dir, "config.json")
	if _, err := srv.WriteAppConfig(path); err != nil {
		cleanup()
		return target{}, nil, err
	}
	return target{baseURL: srv.BaseURL(), uploadURL: srv.UploadURL(), configPath: path, userID: srv.UserID()}, cleanup, nil
}

func run(ctx context.Context, out io.Writer) error {
	t, cleanup, err := setup()
	if err != nil {
		return err
	}
	defer cleanup()

	// The app config holds the client id and secret, and for JWT the
	// encrypted private key, its passphrase and key id. Keep it secret.
	app, err := cms.LoadAppConfig(t.configPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Loaded %v\n", app) // secrets are redacted when printed

	// Tokens come from {API host}/oauth2/token; WithAuthBaseURL derives it
	// from the API root.
	authOpts := []cms.AuthOption{cms.WithAuthBaseURL(t.baseURL)}
	newClient := func(ts *cms.TokenSource) (*cms.Client, error) {
		return cms.NewClient(append(t.roots(), cms.WithTokenSource(ts))...)
	}

	// 1. Client credentials as the app's service account.
	ccg, err := cms.NewCCGTokenSourceFromConfig(app, authOpts...)
	if err != nil {
		return err
	}
	service, err := newClient(ccg)
	if err != nil {
		return err
	}
	folder, _, err := service.Folders.Create(ctx, &cms.CreateFolderRequest{
		Name: fmt.Sprintf("auth-example-%d", time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"},
	}, nil)
	if err != nil {
		return fmt.Errorf("CCG: creating a folder: %w", err)
	}
	fmt.Fprintf(out, "CCG: service account created folder %s, owned by user %s\n", folder.ID, ownerID(folder))
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := service.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true}); err == nil {
			fmt.Fprintf(out, "Deleted folder %s\n", folder.ID)
		}
	}()

	// 2. JWT: the same app proves itself with a signed assertion.
	jwtTS, err := cms.NewJWTTokenSource(app, authOpts...)
	if err != nil {
		return err
	}
	jwtClient, err := newClient(jwtTS)
	if err != nil {
		return err
	}
	got, _, err := jwtClient.Folders.Get(ctx, folder.ID, nil)
	if err != nil {
		return fmt.Errorf("JWT: reading the folder: %w", err)
	}
	fmt.Fprintf(out, "JWT: service account reads folder %q\n", got.Name)

	if t.userID != "" {
		// 3a. A token of the user's own (box_sub_type user).
		userTS, err := jwtTS.ForUser(t.userID)
		if err != nil {
			return err
		}
		userClient, err := newClient(userTS)
		if err != nil {
			return err
		}
		mine, _, err := userClient.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("user-%d", time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"}}, nil)
		if err != nil {
			return fmt.Errorf("JWT user token: %w", err)
		}
		fmt.Fprintf(out, "JWT user token: folder %s owned by user %s\n", mine.ID, ownerID(mine))

		// 3b. The service account acting as the user: As-User on every
		// request of a derived client that shares the transport.
		asUser, err := service.AsUser(t.userID)
		if err != nil {
			return err
		}
		f, _, err := asUser.Folders.Get(ctx, mine.ID, nil)
		if err != nil {
			return fmt.Errorf("As-User: %w", err)
		}
		fmt.Fprintf(out, "As-User %s: reads the user's folder %q\n", t.userID, f.Name)
		if _, err := asUser.Folders.Delete(ctx, mine.ID, nil); err != nil {
			return fmt.Errorf("As-User: deleting: %w", err)
		}
	}

	// 4. A downscoped token: read-only, for one folder, for a less trusted
	// party. It has no refresh token; revoke it when done.
	ds, err := jwtTS.Downscope(ctx, []string{"base_explorer"}, t.baseURL+"/folders/"+folder.ID)
	if err != nil {
		return fmt.Errorf("downscoping: %w", err)
	}
	limited, err := cms.NewClient(append(t.roots(), cms.WithToken(ds.AccessToken))...)
	if err != nil {
		return err
	}
	if _, _, err := limited.Folders.Get(ctx, folder.ID, nil); err != nil {
		return fmt.Errorf("downscoped read: %w", err)
	}
	_, _, err = limited.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "nope", Parent: cms.FolderRef{ID: folder.ID}}, nil)
	fmt.Fprintf(out, "Downscoped token: reads the folder, write refused: %v\n", errors.Is(err, cms.ErrForbidden))
	if err := jwtTS.RevokeToken(ctx, ds.AccessToken); err != nil {
		return fmt.Errorf("revoking: %w", err)
	}
	_, _, err = limited.Folders.Get(ctx, folder.ID, nil)
	fmt.Fprintf(out, "Revoked downscoped token refused: %v\n", errors.Is(err, cms.ErrUnauthorized))
	return nil
}

func ownerID(f *cms.Folder) string {
	if f.OwnedBy == nil {
		return "?"
	}
	return f.OwnedBy.ID
}
