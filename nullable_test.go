package cms

import (
	"encoding/json"
	"testing"
)

func TestNullableJSON(t *testing.T) {
	type body struct {
		Name       Nullable[string]          `json:"name,omitzero"`
		Enterprise Nullable[string]          `json:"enterprise,omitzero"`
		Perms      Nullable[map[string]bool] `json:"perms,omitzero"`
	}
	for _, tc := range []struct {
		in   body
		want string
	}{
		{body{}, `{}`},
		{body{Name: Set("a")}, `{"name":"a"}`},
		{body{Enterprise: Null[string]()}, `{"enterprise":null}`},
		{body{Name: Set(""), Perms: Set(map[string]bool{"x": false})}, `{"name":"","perms":{"x":false}}`},
		{body{Perms: Null[map[string]bool]()}, `{"perms":null}`},
	} {
		got, err := json.Marshal(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal = %s, %v; want %s", got, err, tc.want)
		}
		var back body
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if back.Name != tc.in.Name || back.Enterprise.IsNull() != tc.in.Enterprise.IsNull() || back.Perms.IsNull() != tc.in.Perms.IsNull() {
			t.Errorf("round trip of %s = %+v", got, back)
		}
	}
	if v, ok := Set(3).Get(); !ok || v != 3 {
		t.Error("Get of Set(3)")
	}
	if _, ok := Null[int]().Get(); ok {
		t.Error("Get of Null reports a value")
	}
}
