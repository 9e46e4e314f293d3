package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleNewClient() {
	// A reference server stands in for the service here; with the public
	// service, cms.NewClient(cms.WithToken(token)) is enough.
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := cms.NewClient(
		cms.WithURLs(srv.BaseURL(), srv.UploadURL()), // the API root and the upload root
		cms.WithToken(srv.UserToken()),
		cms.WithUserAgent("report-sync/1.2"),
		cms.WithRetryPolicy(cms.RetryPolicy{MaxRetries: 3, MaxBackoff: 10 * time.Second}),
	)
	if err != nil {
		log.Fatal(err)
	}
	me, _, err := client.Users.GetMe(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", me.Name)

	// Options validate: a plain http root on another host is refused, as
	// the token would travel unencrypted.
	_, err = cms.NewClient(cms.WithToken("t"), cms.WithURLs("http://cms.example.com/2.0", "http://cms.example.com/api/2.0"))
	fmt.Println("plain http refused:", err != nil)
	// Output:
	// signed in as Uma User
	// plain http refused: true
}

func ExampleNewClientFromEnv() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	// What a shell does: export CMS_BASE_URL=… CMS_UPLOAD_URL=… CMS_TOKEN=…
	for k, v := range map[string]string{cms.EnvBaseURL: srv.BaseURL(), cms.EnvUploadURL: srv.UploadURL(), cms.EnvToken: srv.UserToken()} {
		os.Setenv(k, v)
		defer os.Unsetenv(k)
	}

	client, err := cms.NewClientFromEnv(cms.WithUserAgent("nightly-report"))
	if err != nil {
		log.Fatal(err)
	}
	me, _, err := client.Users.GetMe(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", me.Name)

	// A custom API root without its upload root is refused: uploads would
	// send the token to the public service.
	os.Unsetenv(cms.EnvUploadURL)
	_, err = cms.NewClientFromEnv()
	fmt.Println(err)
	// Output:
	// signed in as Uma User
	// cms: set both CMS_BASE_URL and CMS_UPLOAD_URL (the API root …/2.0 and the upload root …/api/2.0), or neither for the public service
}

func ExampleClient_AsUser() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	// The admin acts as a user: every request of the derived client says
	// As-User, and the service answers as that user.
	u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Grace Hopper", Login: "grace@example.com"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	grace, err := admin.AsUser(u.ID)
	if err != nil {
		log.Fatal(err)
	}
	me, _, err := grace.Users.GetMe(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	folder, _, err := grace.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Notes", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("me:", me.Name)
	fmt.Println("folder owned by:", folder.OwnedBy.Name)
	// Output:
	// me: Grace Hopper
	// folder owned by: Grace Hopper
}

func ExampleClient_Do() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.UserToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	// Any endpoint, with the client's token, retries, rate limit and error
	// decoding: a JSON body, and the answer decoded into a type of one's own.
	req, err := client.NewRequest(http.MethodPost, "folders", map[string]any{"name": "Raw", "parent": map[string]string{"id": "0"}})
	if err != nil {
		log.Fatal(err)
	}
	var folder struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if _, err := client.Do(ctx, req, &folder); err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", folder.Name)

	// A query in the path, and an error as the SDK's calls return it.
	req, err = client.NewRequest(http.MethodGet, "folders/"+folder.ID+"/items?fields=name&limit=10", nil)
	if err != nil {
		log.Fatal(err)
	}
	var items struct {
		TotalCount int `json:"total_count"`
	}
	if _, err := client.Do(ctx, req, &items); err != nil {
		log.Fatal(err)
	}
	fmt.Println("items:", items.TotalCount)

	req, err = client.NewRequest(http.MethodGet, "folders/999999", nil)
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Do(ctx, req, nil)
	fmt.Println("not found:", errors.Is(err, cms.ErrNotFound))
	// Output:
	// created Raw
	// items: 0
	// not found: true
}
