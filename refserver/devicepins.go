package refserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// AddDevicePin pins a device (productName, e.g. "iPad") to the account of
// the enterprise user userID and returns the pin's id. The service has no
// such call; tests and Seed use it to have pins to list.
func (s *Server) AddDevicePin(userID, productName string) (string, error) {
	if strings.TrimSpace(productName) == "" {
		return "", fmt.Errorf("refserver: a device pin needs a product name")
	}
	var pin *state.DevicePin
	s.st.Update(func(tx *state.Tx) {
		if u := tx.EnterpriseUser(userID); u != nil {
			pin = tx.PinDevice(u, productName)
		}
	})
	if pin == nil {
		return "", fmt.Errorf("refserver: no enterprise user %q to pin a device to", userID)
	}
	return pin.ID, s.flushState()
}

// seedProducts are the devices Seed pins.
var seedProducts = []string{"iPhone", "iPad", "Android", "Box Drive for Mac", "Box Drive for Windows"}

// AddDevicePins pins n devices, alternately to the admin's and the managed
// user's accounts (what cmd/refserver -device-pins and Seed use).
func (s *Server) AddDevicePins(n int) error {
	for i := range n {
		owner := s.st.Admin.ID
		if i%2 == 1 {
			owner = s.st.User.ID
		}
		if _, err := s.AddDevicePin(owner, seedProducts[i%len(seedProducts)]); err != nil {
			return err
		}
	}
	return nil
}

// listDevicePins serves GET /enterprises/{enterprise_id}/device_pinners.
func (s *Server) listDevicePins(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if r.PathValue("enterprise_id") != s.st.EnterpriseID {
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

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return state.Reply{Status: http.StatusOK, Body: tx.PinsPage(desc, hasMarker, marker, limit)}, nil
	})
}

// getDevicePin serves GET /device_pinners/{device_pinner_id}.
func (s *Server) getDevicePin(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return getRecord(s, w, r, "device_pinner_id", (*state.Tx).LookupPin, (*state.Tx).RenderPin)
}

// deleteDevicePin serves DELETE /device_pinners/{device_pinner_id}: 204.
func (s *Server) deleteDevicePin(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "device_pinner_id", http.StatusNoContent, (*state.Tx).LookupPin, func(tx *state.Tx, pin *state.DevicePin) *wire.Error {
		tx.UnpinDevice(pin)
		return nil
	})
}
