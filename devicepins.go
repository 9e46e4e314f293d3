package cms

// DevicePinsService handles device pins (/device_pinners, /enterprises/{id}/device_pinners).
type DevicePinsService service
