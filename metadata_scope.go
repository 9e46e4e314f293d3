package cms

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MetadataScope is the scope of a metadata template: MetadataScopeGlobal,
// MetadataScopeEnterprise (the caller's own enterprise, a shorthand the service
// expands) or EnterpriseScope(id) (enterprise_<id>, the full form the
// service answers with, needed for another enterprise's templates and for
// metadata queries).
type MetadataScope string

// The scopes without an id.
const (
	// MetadataScopeGlobal holds the templates every enterprise shares, such as
	// "properties" (free-form string values).
	MetadataScopeGlobal MetadataScope = "global"
	// MetadataScopeEnterprise is the caller's own enterprise.
	MetadataScopeEnterprise MetadataScope = "enterprise"
)

// EnterpriseScope returns the full scope of an enterprise, enterprise_<id>.
func EnterpriseScope(enterpriseID string) MetadataScope {
	return MetadataScope("enterprise_" + enterpriseID)
}

// ParseMetadataScope checks s is global, enterprise or enterprise_<id>
// (an id of letters and digits) and returns it as a MetadataScope.
func ParseMetadataScope(s string) (MetadataScope, error) {
	sc := MetadataScope(s)
	if err := sc.validate(); err != nil {
		return "", err
	}
	return sc, nil
}

// EnterpriseID returns the id of an enterprise_<id> scope, "" for the
// others.
func (s MetadataScope) EnterpriseID() string {
	id, ok := strings.CutPrefix(string(s), "enterprise_")
	if !ok {
		return ""
	}
	return id
}

// IsFull reports whether the scope is in the form the service answers
// with (global or enterprise_<id>) rather than the shorthand enterprise.
// A metadata query needs more: an enterprise_<id> scope (EnterpriseID
// not empty).
func (s MetadataScope) IsFull() bool { return s == MetadataScopeGlobal || s.EnterpriseID() != "" }

func (s MetadataScope) validate() error {
	switch s {
	case MetadataScopeGlobal, MetadataScopeEnterprise:
		return nil
	case "":
		return invalidArg("scope", "empty")
	}
	id := s.EnterpriseID()
	if id == "" || strings.ContainsFunc(id, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return invalidArg("scope", "want global, enterprise or enterprise_<id>, got "+quoteArg(string(s)))
	}
	return nil
}

// checkTemplateKey rejects an empty template key or one that is not a path
// segment (the service's keys match ^[a-zA-Z_][-a-zA-Z0-9_]*$, at most 64).
func checkTemplateKey(key string) error {
	if key == "" {
		return invalidArg("template key", "empty")
	}
	if len(key) > 64 || strings.ContainsFunc(key, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) || key[0] == '-' || key[0] >= '0' && key[0] <= '9' {
		return invalidArg("template key", quoteArg(key)+" does not match ^[a-zA-Z_][-a-zA-Z0-9_]*$ (at most 64)")
	}
	return nil
}

// checkScopeKey validates a scope and template key pair.
func checkScopeKey(scope MetadataScope, key string) error {
	if err := scope.validate(); err != nil {
		return err
	}
	return checkTemplateKey(key)
}

// quoteArg quotes an argument for an ArgError, cut to 64 bytes.
func quoteArg(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// ErrNoEnterprise is matched by the error of MetadataService.EnterpriseScope
// (and ResolveScope of MetadataScopeEnterprise) when the current user belongs to no
// enterprise. The service was asked, so it is not an *ArgError.
var ErrNoEnterprise = errors.New("cms: the current user belongs to no enterprise")

// EnterpriseScope resolves the caller's own enterprise to its full scope,
// enterprise_<id>, from the enterprise of the current user: it is
// UsersService.GetMe with Fields "enterprise" (GET /users/me?fields=enterprise).
// A user outside any enterprise gets an error matching ErrNoEnterprise,
// with the Response of the call.
func (s *MetadataService) EnterpriseScope(ctx context.Context) (MetadataScope, *Response, error) {
	me, resp, err := s.client.Users.GetMe(ctx, &FieldsOptions{Fields: []string{"enterprise"}})
	if err != nil {
		return "", resp, err
	}
	if me.Enterprise == nil || me.Enterprise.ID == "" {
		return "", resp, fmt.Errorf("%w (user %s)", ErrNoEnterprise, me.ID)
	}
	return EnterpriseScope(me.Enterprise.ID), resp, nil
}

// ResolveScope returns scope with MetadataScopeEnterprise replaced by the caller's
// full enterprise_<id> scope (one GET /users/me); other scopes come back
// unchanged without a call.
func (s *MetadataService) ResolveScope(ctx context.Context, scope MetadataScope) (MetadataScope, *Response, error) {
	if err := checkCtx(ctx); err != nil {
		return "", nil, err
	}
	if err := scope.validate(); err != nil {
		return "", nil, err
	}
	if scope != MetadataScopeEnterprise {
		return scope, nil, nil
	}
	return s.EnterpriseScope(ctx)
}
