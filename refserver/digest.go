package refserver

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// contentRange is a parsed "bytes first-last/total" header.
type contentRange struct {
	first, last, total int64
}

var errBadContentRange = errors.New("malformed content-range")

// parseContentRange parses a request Content-Range of the form
// "bytes <first>-<last>/<total>" (RFC 9110 §14.4) with first <= last < total.
func parseContentRange(v string) (contentRange, error) {
	unit, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(unit, "bytes") {
		return contentRange{}, errBadContentRange
	}
	rng, total, ok := strings.Cut(strings.TrimSpace(rest), "/")
	if !ok {
		return contentRange{}, errBadContentRange
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return contentRange{}, errBadContentRange
	}
	var cr contentRange
	var err error
	if cr.first, err = parseDigits(a); err != nil {
		return contentRange{}, err
	}
	if cr.last, err = parseDigits(b); err != nil {
		return contentRange{}, err
	}
	if cr.total, err = parseDigits(total); err != nil {
		return contentRange{}, err
	}
	if cr.first > cr.last || cr.last >= cr.total {
		return contentRange{}, errBadContentRange
	}
	return cr, nil
}

// parseDigits parses a non-negative decimal made of digits only.
func parseDigits(s string) (int64, error) {
	if s == "" || len(s) > 18 {
		return 0, errBadContentRange
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errBadContentRange
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

var errBadDigestHeader = errors.New("malformed digest")

// requestDigest reads the required Digest header of a part or a commit as
// hex SHA1; 400 when it is missing or malformed.
func requestDigest(r *http.Request) (string, *apiError) {
	dg := r.Header.Get("Digest")
	if dg == "" {
		return "", errBadRequest("Missing required header: digest")
	}
	sum, err := parseDigest(dg)
	if err != nil {
		return "", errBadRequest("Malformed digest header: expected sha=<base64 SHA1>")
	}
	return sum, nil
}

// parseDigest reads the SHA1 from an RFC 3230 Digest header
// ("sha=<base64 of the 20-byte SHA1>", possibly among other
// comma-separated instance digests; the algorithm name is case-insensitive,
// box-node-sdk sends "SHA="). It returns the hex form.
func parseDigest(v string) (string, error) {
	for _, inst := range strings.Split(v, ",") {
		alg, val, ok := strings.Cut(strings.TrimSpace(inst), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(alg), "sha") {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(val))
		if err != nil || len(b) != 20 {
			return "", errBadDigestHeader
		}
		return hex.EncodeToString(b), nil
	}
	return "", errBadDigestHeader
}
