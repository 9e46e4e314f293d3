package cms_test

import (
	"encoding/json"
	"fmt"

	"github.com/contentapi/cms"
)

// A Nullable field of an update request has three states: left out, set,
// and an explicit null, which the service reads as its own change.
func ExampleNullable() {
	for _, req := range []cms.UpdateUserRequest{
		{},                                   // left out: the user stays where they are
		{Enterprise: cms.Set("11446498")},    // set: a value
		{Enterprise: cms.Null[string]()},     // null: roll the user out of the enterprise
		{JobTitle: cms.Ptr(""), Name: "Ann"}, // a pointer where "" is a change (clear the title)
	} {
		b, _ := json.Marshal(req)
		fmt.Println(string(b))
	}
	// Output:
	// {}
	// {"enterprise":"11446498"}
	// {"enterprise":null}
	// {"name":"Ann","job_title":""}
}
