package wire

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
)

// ContentRange is a parsed "bytes first-last/total" header.
type ContentRange struct {
	First, Last, Total int64
}

var errBadContentRange = errors.New("malformed content-range")

// ParseContentRange parses a request Content-Range of the form
// "bytes <first>-<last>/<total>" (RFC 9110 §14.4) with first <= last < total.
func ParseContentRange(v string) (ContentRange, error) {
	unit, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(unit, "bytes") {
		return ContentRange{}, errBadContentRange
	}
	rng, total, ok := strings.Cut(strings.TrimSpace(rest), "/")
	if !ok {
		return ContentRange{}, errBadContentRange
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return ContentRange{}, errBadContentRange
	}
	var cr ContentRange
	var err error
	if cr.First, err = parseDigits(a); err != nil {
		return ContentRange{}, err
	}
	if cr.Last, err = parseDigits(b); err != nil {
		return ContentRange{}, err
	}
	if cr.Total, err = parseDigits(total); err != nil {
		return ContentRange{}, err
	}
	if cr.First > cr.Last || cr.Last >= cr.Total {
		return ContentRange{}, errBadContentRange
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

// RequestDigest reads dg, the required Digest header of a part or a
// commit, as hex SHA1; 400 when it is missing or malformed.
func RequestDigest(dg string) (string, *Error) {
	if dg == "" {
		return "", BadRequest("Missing required header: digest")
	}
	sum, err := ParseDigest(dg)
	if err != nil {
		return "", BadRequest("Malformed digest header: expected sha=<base64 SHA1>")
	}
	return sum, nil
}

// ParseDigest reads the SHA1 from an RFC 3230 Digest header
// ("sha=<base64 of the 20-byte SHA1>", possibly among other
// comma-separated instance digests; the algorithm name is case-insensitive,
// box-node-sdk sends "SHA="). It returns the hex form.
func ParseDigest(v string) (string, error) {
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
