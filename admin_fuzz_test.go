package cms

import (
	"encoding/json"
	"testing"
)

// FuzzAdminRecords decodes untrusted user, membership and device-pin
// records: no panic, and what decodes encodes and decodes again.
func FuzzAdminRecords(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","type":"user","notification_email":[]}`, `{"id":"1","notification_email":{"email":"a@b.c","is_confirmed":true}}`,
		`{"id":"1","notification_email":"x"}`, `{"id":"1","enterprise":null,"tracking_codes":[{"name":"a","value":"b"}]}`,
		`{"id":"5","role":"admin","configurable_permissions":{"can_run_reports":false}}`,
		`{"entries":[{"id":"9","owned_by":{"id":"1"}}],"next_marker":3000}`, `{"next_marker":"abc"}`, `{"next_marker":1e3}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		roundTrip[User](t, s)
		roundTrip[GroupMembership](t, s)
		roundTrip[MarkerPage[*DevicePin]](t, s)
	})
}

func roundTrip[T any](t *testing.T, s string) {
	var v T
	if json.Unmarshal([]byte(s), &v) != nil {
		return
	}
	b, err := json.Marshal(&v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	var again T
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatalf("%T does not decode its own encoding %s: %v", v, b, err)
	}
}
