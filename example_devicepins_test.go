package cms_test

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
)

func ExampleDevicePinsService() {
	srv, admin := exampleAdminServer()
	defer srv.Close()
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
