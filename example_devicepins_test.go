package cms_test

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleDevicePinsService() {
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
	if err := srv.AddDevicePins(3); err != nil { // the API cannot create pins
		log.Fatal(err)
	}

	me, _, err := admin.Users.GetMe(ctx, &cms.FieldsOptions{Fields: []string{"enterprise"}})
	if err != nil {
		log.Fatal(err)
	}
	for pin, err := range admin.DevicePins.ListByEnterpriseIter(ctx, me.Enterprise.ID, &cms.ListDevicePinsOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(pin.ProductName)
	}
	// Output:
	// iPhone
	// iPad
	// Android
}
