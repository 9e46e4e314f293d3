package wire

// The HTTP statuses the state layer answers with, as net/http names them
// (this package imports no net/http).
const (
	StatusOK                           = 200
	StatusCreated                      = 201
	StatusAccepted                     = 202
	StatusNoContent                    = 204
	StatusNotModified                  = 304
	StatusBadRequest                   = 400
	StatusForbidden                    = 403
	StatusNotFound                     = 404
	StatusMethodNotAllowed             = 405
	StatusConflict                     = 409
	StatusPreconditionFailed           = 412
	StatusRequestedRangeNotSatisfiable = 416
	StatusTooManyRequests              = 429
)
