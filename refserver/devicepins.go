package refserver

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
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

// devicePin is a device a user's account is pinned to. Guarded by Server.mu.
type devicePin struct {
	id          string
	owner       *user
	productName string
	createdAt   time.Time
}

// devicePinState is the server's state for device pins, guarded by Server.mu.
type devicePinState struct {
	byID map[string]*devicePin
}

// initDevicePins prepares the state of device pins; called once by newServer.
func (s *state) initDevicePins() {
	s.pins = devicePinState{byID: map[string]*devicePin{}}
}

// AddDevicePin pins a device (productName, e.g. "iPad") to the account of
// the enterprise user userID and returns the pin's id. The service has no
// such call; tests and Seed use it to have pins to list.
func (s *Server) AddDevicePin(userID, productName string) (string, error) {
	if strings.TrimSpace(productName) == "" {
		return "", fmt.Errorf("refserver: a device pin needs a product name")
	}
	var pin *devicePin
	s.update(func() {
		if u := s.enterpriseUser(userID); u != nil {
			pin = s.pinDevice(u, productName)
		}
	})
	if pin == nil {
		return "", fmt.Errorf("refserver: no enterprise user %q to pin a device to", userID)
	}
	return pin.id, s.flushState()
}

// pinDevice pins a device (productName) to u's account. Callers hold mu.
func (s *state) pinDevice(u *user, productName string) *devicePin {
	pin := &devicePin{id: s.newID(), owner: u, productName: productName, createdAt: s.nowSec()}
	s.pins.byID[pin.id] = pin
	s.dirty(kPins, pin.id)
	return pin
}

// unpinDevice removes a pin. Callers hold mu.
func (s *state) unpinDevice(pin *devicePin) {
	delete(s.pins.byID, pin.id)
	s.dirty(kPins, pin.id)
}

// seedProducts are the devices Seed pins.
var seedProducts = []string{"iPhone", "iPad", "Android", "Box Drive for Mac", "Box Drive for Windows"}

// AddDevicePins pins n devices, alternately to the admin's and the managed
// user's accounts (what cmd/refserver -device-pins and Seed use).
func (s *Server) AddDevicePins(n int) error {
	for i := range n {
		owner := s.admin.id
		if i%2 == 1 {
			owner = s.user.id
		}
		if _, err := s.AddDevicePin(owner, seedProducts[i%len(seedProducts)]); err != nil {
			return err
		}
	}
	return nil
}

func (s *state) renderPin(pin *devicePin) map[string]any {
	return map[string]any{"type": "device_pinner", "id": pin.id, "owned_by": pin.owner.mini(), "product_name": pin.productName}
}

// listDevicePins serves GET /enterprises/{enterprise_id}/device_pinners.
func (s *Server) listDevicePins(w http.ResponseWriter, r *http.Request, p *principal) error {
	if r.PathValue("enterprise_id") != s.enterpriseID {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The token's user is not an admin of that enterprise")
	}
	q := r.URL.Query()
	desc := false
	switch strings.ToUpper(q.Get("direction")) {
	case "", "ASC":
	case "DESC":
		desc = true
	default:
		return wire.BadRequest("Invalid value for \"direction\": ASC or DESC")
	}
	limit, aerr := wire.PageLimit(r.URL.Query(), wire.DefaultPageLimit, wire.MaxPageLimit)
	if aerr != nil {
		return aerr
	}
	var marker int64
	hasMarker := q.Get("marker") != ""
	if hasMarker {
		n, err := strconv.ParseInt(q.Get("marker"), 10, 64)
		if err != nil || n < 0 {
			return wire.BadRequest("Invalid value for \"marker\"")
		}
		marker = n
	}

	return s.change(w, func() (reply, *wire.Error) {
		return reply{http.StatusOK, s.pinsPage(desc, hasMarker, marker, limit)}, nil
	})
}

// pinsPage is a marker page of the device pins, by id. Callers hold mu.
func (s *state) pinsPage(desc, hasMarker bool, marker, limit int64) map[string]any {
	pins := make([]*devicePin, 0, len(s.pins.byID))
	for _, pin := range s.pins.byID {
		id := numID(pin.id)
		if hasMarker && (!desc && id < marker || desc && id > marker) {
			continue
		}
		pins = append(pins, pin)
	}
	sort.Slice(pins, func(i, j int) bool { return numID(pins[i].id) < numID(pins[j].id) != desc })
	end := min(int64(len(pins)), limit)
	dir := "asc"
	if desc {
		dir = "desc"
	}
	out := map[string]any{"entries": wire.RenderEach(pins[:end], s.renderPin), "limit": limit, "next_marker": nil,
		"order": []any{map[string]any{"by": "id", "direction": dir}}}
	if end < int64(len(pins)) {
		out["next_marker"] = numID(pins[end].id)
	}
	return out
}

// lookupPin finds a pin for the admin; 404 when there is none. Callers hold s.mu.
func (s *state) lookupPin(id string) (*devicePin, *wire.Error) {
	return recordIn(s.pins.byID, id, "device pin")
}

// getDevicePin serves GET /device_pinners/{device_pinner_id}.
func (s *Server) getDevicePin(w http.ResponseWriter, r *http.Request, p *principal) error {
	return getRecord(s, w, r, "device_pinner_id", s.lookupPin, s.renderPin)
}

// deleteDevicePin serves DELETE /device_pinners/{device_pinner_id}: 204.
func (s *Server) deleteDevicePin(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "device_pinner_id", http.StatusNoContent, s.lookupPin, func(pin *devicePin) *wire.Error {
		s.unpinDevice(pin)
		return nil
	})
}

// pinsUserLeft removes u's device pins. Callers hold s.mu.
func (s *state) pinsUserLeft(u *user) {
	dropWhere(s, kPins, s.pins.byID, func(pin *devicePin) bool { return pin.owner == u })
}
