package state

import (
	"sort"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Device pins: GET /enterprises/{enterprise_id}/device_pinners,
// GET/DELETE /device_pinners/{device_pinner_id}. The service has no call
// that creates a pin (devices pin themselves when users sign in); pins come
// from AddDevicePin and Seed.
//
// Rules: every call needs the enterprise admin with the "manage
// enterprise" scope (spec get_enterprises_id_device_pinners): a managed
// user gets 403 access_denied_insufficient_permissions, the app token and
// downscoped tokens (which never carry that scope) 403 insufficient_scope.
// The list is ordered by id (direction ASC or DESC) and marker-paged:
// next_marker is an integer, the id of the first pin of the next page, and
// a marker is read as a decimal number. Error codes the service does not
// document:
//   - 403 access_denied_insufficient_permissions for another enterprise's id.
//   - 400 bad_request for a marker that is not a number, or a direction
//     other than ASC or DESC.

// DevicePin is a device a user's account is pinned to. Reached only through a transaction.
type DevicePin struct {
	ID          string
	Owner       *User
	ProductName string
	CreatedAt   time.Time
}

// devicePinState is the server's state for device pins, reached only through a transaction.
type devicePinState struct {
	ByID Table[*DevicePin]
}

// InitDevicePins prepares the (empty) state of device pins; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitDevicePins() {
	s.Pins = devicePinState{ByID: newTable[*DevicePin](s.Env, KPins)}
}

// PinDevice pins a device (productName) to u's account.
func (s *Tx) PinDevice(u *User, productName string) *DevicePin {
	pin := &DevicePin{ID: s.NewID(), Owner: u, ProductName: productName, CreatedAt: s.NowSec()}
	s.Pins.ByID.Put(pin.ID, pin)
	return pin
}

// UnpinDevice removes a pin.
func (s *Tx) UnpinDevice(pin *DevicePin) {
	s.Pins.ByID.Delete(pin.ID)
}

// RenderPin is the pin's Device Pinner record.
func (s *Tx) RenderPin(pin *DevicePin) map[string]any {
	return map[string]any{"type": "device_pinner", "id": pin.ID, "owned_by": pin.Owner.Mini(), "product_name": pin.ProductName}
}

// PinsPage is a marker page of the device pins, by id.
func (s *Tx) PinsPage(desc, hasMarker bool, marker, limit int64) map[string]any {
	pins := make([]*DevicePin, 0, s.Pins.ByID.Len())
	for _, pin := range s.Pins.ByID.All() {
		id := NumID(pin.ID)
		if hasMarker && (!desc && id < marker || desc && id > marker) {
			continue
		}
		pins = append(pins, pin)
	}
	sort.Slice(pins, func(i, j int) bool { return NumID(pins[i].ID) < NumID(pins[j].ID) != desc })
	end := min(int64(len(pins)), limit)
	dir := "asc"
	if desc {
		dir = "desc"
	}
	out := map[string]any{"entries": wire.RenderEach(pins[:end], s.RenderPin), "limit": limit, "next_marker": nil,
		"order": []any{map[string]any{"by": "id", "direction": dir}}}
	if end < int64(len(pins)) {
		out["next_marker"] = NumID(pins[end].ID)
	}
	return out
}

// LookupPin finds a pin for the admin; 404 when there is none.
func (s *Tx) LookupPin(id string) (*DevicePin, *wire.Error) {
	return TableRecord(&s.Pins.ByID, id, "device pin")
}

// pinsUserLeft removes u's device pins.
func (s *Tx) pinsUserLeft(u *User) {
	s.Pins.ByID.DeleteWhere(func(pin *DevicePin) bool { return pin.Owner == u })
}
