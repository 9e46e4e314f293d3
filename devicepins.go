package cms

import (
	"context"
	"iter"
)

// DevicePinsService handles device pins (/device_pinners, /enterprises/{id}/device_pinners).
// Every call needs an enterprise admin with the "manage enterprise" scope.
type DevicePinsService service

// DevicePin is a device a user's account is pinned to (DevicePinner).
type DevicePin struct {
	ID          string    `json:"id"`
	Type        string    `json:"type,omitzero"`
	OwnedBy     *UserMini `json:"owned_by,omitzero"`
	ProductName string    `json:"product_name,omitzero"`
}

// ListDevicePinsOptions are the options of DevicePinsService.ListByEnterprise.
type ListDevicePinsOptions struct {
	// Marker is a NextMarker of an earlier page; "" for the first page. The
	// service sends next_marker as a number; MarkerPage carries it as text.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (at most 1000).
	Limit int `url:"limit,omitempty"`
	// Direction orders the pins by id: ASC (default) or DESC.
	Direction SortDirection `url:"direction,omitempty"`
}

// ListByEnterprise returns one marker page of an enterprise's device pins
// (GET /enterprises/{enterprise_id}/device_pinners). UsersService.GetMe
// with Fields "enterprise" gives the enterprise id.
func (s *DevicePinsService) ListByEnterprise(ctx context.Context, enterpriseID string, opts *ListDevicePinsOptions) (*MarkerPage[*DevicePin], *Response, error) {
	if err := checkID("enterprise", enterpriseID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListDevicePinsOptions{}
	}
	if err := firstErr(checkLimit(opts.Limit), checkEnum("direction", opts.Direction, SortDirectionAscending, SortDirectionDescending)); err != nil {
		return nil, nil, err
	}
	return withNextMarker(getAPI[MarkerPage[*DevicePin]](ctx, s.client, opts, "enterprises", enterpriseID, "device_pinners"))
}

// listPages pages ListByEnterprise with a private copy of opts.
func (s *DevicePinsService) listPages(enterpriseID string, opts *ListDevicePinsOptions) (string, markerPageFunc[*DevicePin]) {
	return pageFuncs(opts, func(o *ListDevicePinsOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListDevicePinsOptions) (*MarkerPage[*DevicePin], *Response, error) {
			return s.ListByEnterprise(ctx, enterpriseID, o)
		})
}

// ListByEnterpriseIter yields every device pin of an enterprise, fetching marker pages
// (GET /enterprises/{enterprise_id}/device_pinners) lazily. It never
// changes opts.
func (s *DevicePinsService) ListByEnterpriseIter(ctx context.Context, enterpriseID string, opts *ListDevicePinsOptions) iter.Seq2[*DevicePin, error] {
	marker, fetch := s.listPages(enterpriseID, opts)
	return markerSeq(ctx, marker, fetch)
}

// NewListByEnterprisePaginator walks an enterprise's device pins one marker page at a
// time (GET /enterprises/{enterprise_id}/device_pinners); keep NextMarker
// to resume later.
func (s *DevicePinsService) NewListByEnterprisePaginator(enterpriseID string, opts *ListDevicePinsOptions) *MarkerPaginator[*DevicePin] {
	return newMarkerPaginator(s.listPages(enterpriseID, opts))
}

// Get fetches a device pin (GET /device_pinners/{device_pinner_id}).
func (s *DevicePinsService) Get(ctx context.Context, pinID string) (*DevicePin, *Response, error) {
	if err := checkID("device pin", pinID); err != nil {
		return nil, nil, err
	}
	return getAPI[DevicePin](ctx, s.client, nil, "device_pinners", pinID)
}

// Delete removes a device pin (DELETE /device_pinners/{device_pinner_id}).
func (s *DevicePinsService) Delete(ctx context.Context, pinID string) (*Response, error) {
	if err := checkID("device pin", pinID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "device_pinners", pinID)
}
