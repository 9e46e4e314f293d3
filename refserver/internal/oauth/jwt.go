package oauth

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/golang-jwt/jwt/v5"
)

var errUnknownKid = errors.New("unknown kid")

// serviceTokenURL is the audience the service's documentation gives for JWT
// assertions, whatever host the token request goes to. Box's generated SDKs
// always send it, so the server accepts it besides its own TokenURL.
const serviceTokenURL = "https://api.box.com/oauth2/token"

func (o *Service[S]) grantJWT(form url.Values) (*TokenResponse, *Error) {
	app, oerr := o.clientApp(form)
	if oerr != nil {
		return nil, oerr
	}
	bad := func(desc string) *Error { return errf(http.StatusBadRequest, "invalid_grant", desc) }
	assertion := form.Get("assertion")
	if assertion == "" {
		return nil, errf(http.StatusBadRequest, "invalid_request", "The assertion parameter is missing")
	}
	claims := jwt.MapClaims{}
	tok, err := jwt.NewParser(jwt.WithValidMethods([]string{"RS256", "RS384", "RS512"}), jwt.WithoutClaimsValidation()).
		ParseWithClaims(assertion, claims, func(t *jwt.Token) (any, error) {
			kid, ok := t.Header["kid"].(string)
			if !ok {
				// The service makes kid optional: without one, any of the
				// app's keys may verify the assertion (Box's Node SDKs
				// sign without kid).
				var set jwt.VerificationKeySet
				for _, k := range app.PublicKeys {
					set.Keys = append(set.Keys, k)
				}
				return set, nil
			}
			if k := app.PublicKeys[kid]; k != nil {
				return k, nil
			}
			return nil, errUnknownKid
		})
	if err != nil || !tok.Valid {
		if errors.Is(err, errUnknownKid) {
			return nil, bad("Please check the 'kid' header. The public key id is not registered with the app.")
		}
		return nil, bad("Signature verification of the assertion failed. Check the private key and the 'alg' header.")
	}
	if iss, _ := claims["iss"].(string); iss != app.ClientID {
		return nil, bad("Please check the 'iss' claim.")
	}
	if aud, _ := claims["aud"].(string); aud != o.cfg.TokenURL() && aud != serviceTokenURL {
		return nil, bad("Please check the 'aud' claim.")
	}
	exp, err := claims.GetExpirationTime()
	now := o.cfg.Now()
	if err != nil || exp == nil || !exp.After(now) || exp.Sub(now) > maxJWTLifetime {
		return nil, bad("Please check the 'exp' claim.")
	}
	jti, _ := claims["jti"].(string)
	if len(jti) < 16 || len(jti) > 128 {
		return nil, bad("Please check the 'jti' claim. It must be a unique string of 16 to 128 characters.")
	}
	if _, used := o.jtis.m[app.ClientID+"\x00"+jti]; used {
		return nil, bad("Please check the 'jti' claim. A unique 'jti' value is required.")
	}
	subType, _ := claims["box_sub_type"].(string)
	sub, _ := claims["sub"].(string)
	subj, oerr := o.subject(app, subType, sub, "Please check the 'sub' claim. The 'sub' specified is invalid.")
	if oerr != nil {
		return nil, oerr
	}
	o.jtis.put(app.ClientID+"\x00"+jti, exp.Time)
	return o.issue(subj, app.ClientID, false), nil
}
