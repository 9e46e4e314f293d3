package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleUsersService() {
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

	u, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Grace Hopper", Login: "grace@example.com"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", u.Login, u.Status)

	_, _, err = admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Other Grace", Login: "grace@example.com"}, nil)
	var apiErr *cms.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("taken:", apiErr.Code)
	}

	// Roll the user out of the enterprise: an explicit JSON null.
	u, _, err = admin.Users.Update(ctx, u.ID, &cms.UpdateUserRequest{Enterprise: cms.Null[string]()},
		&cms.FieldsOptions{Fields: []string{"enterprise"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("enterprise after roll-out:", u.Enterprise)
	// Output:
	// created grace@example.com active
	// taken: user_login_already_used
	// enterprise after roll-out: <nil>
}
