package state

import (
	"net/mail"
	"slices"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Email aliases (/users/{id}/email_aliases): other addresses a user signs
// in and is found by. An alias's domain must be one of the enterprise's
// (Cfg.EnterpriseDomains, by default the domain of the admin's login); no
// two users share an address, alias or login. The admin (or the service
// account) manages every user's aliases, a user their own; another
// user's are 403 forbidden. An alias the admin adds is confirmed at once
// (is_confirmed true) unless the request says is_confirmed false (the
// classic box-node-sdk does, "don't attempt to autoconfirm aliases for
// admins by default"); one a user adds for themselves waits for the
// confirmation mail (is_confirmed false), which this server never sends.

// EmailAlias is one alias of a user.
type EmailAlias struct {
	ID        string
	User      *User
	Email     string
	Confirmed bool
}

// emailAliasState is the server's state for email aliases, reached only
// through a transaction.
type emailAliasState struct {
	ByID    Table[*EmailAlias]
	ByEmail map[string]*EmailAlias // by lower-case address
}

// InitEmailAliases prepares the (empty) state of email aliases; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitEmailAliases() {
	s.EmailAliases = emailAliasState{ByID: newTable[*EmailAlias](s.Env, KEmailAliases), ByEmail: map[string]*EmailAlias{}}
}

// AddEmailAlias files a restored alias.
func (s *Tx) AddEmailAlias(a *EmailAlias) {
	s.EmailAliases.ByID.Put(a.ID, a)
	s.EmailAliases.ByEmail[strings.ToLower(a.Email)] = a
}

// emailAliasUser is the user of an alias route: 404 for a malformed id or
// no such enterprise user, 403 forbidden when p is neither the admin nor
// that user.
func (s *ReadTx) emailAliasUser(p *Principal, id string) (*User, *wire.Error) {
	u := s.EnterpriseUser(id)
	if !ValidID(id) || u == nil {
		return nil, wire.NotFound("user")
	}
	if !p.SeesAll() && p.User != u {
		return nil, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "Only an admin or the user may manage the user's email aliases")
	}
	return u, nil
}

// aliasesOf lists u's aliases by id.
func (s *ReadTx) aliasesOf(u *User) []*EmailAlias {
	var out []*EmailAlias
	for _, a := range s.EmailAliases.ByID.All() {
		if a.User == u {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b *EmailAlias) int { return int(NumID(a.ID) - NumID(b.ID)) })
	return out
}

func emailAliasRecord(a *EmailAlias) map[string]any {
	return map[string]any{"type": "email_alias", "id": a.ID, "email": a.Email, "is_confirmed": a.Confirmed}
}

// ListEmailAliases serves GET /users/{user_id}/email_aliases (refserver's
// listEmailAliases): {total_count, entries}, the primary login not
// included.
func (s *Tx) ListEmailAliases(p *Principal, userID string) (Reply, *wire.Error) {
	u, aerr := s.emailAliasUser(p, userID)
	if aerr != nil {
		return Reply{}, aerr
	}
	entries := []any{}
	for _, a := range s.aliasesOf(u) {
		entries = append(entries, emailAliasRecord(a))
	}
	return Reply{wire.StatusOK, map[string]any{"total_count": len(entries), "entries": entries}}, nil
}

// CreateEmailAlias serves POST /users/{user_id}/email_aliases
// (createEmailAlias): 201 with the new alias; 400 bad_request for an
// address that is not one or whose domain is not the enterprise's, 409
// conflict for an address a user already has.
func (s *Tx) CreateEmailAlias(p *Principal, userID, email string, confirm *bool) (Reply, *wire.Error) {
	u, aerr := s.emailAliasUser(p, userID)
	if aerr != nil {
		return Reply{}, aerr
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return Reply{}, wire.BadRequest("Invalid value for \"email\": an e-mail address")
	}
	domain := strings.ToLower(email[strings.LastIndexByte(email, '@')+1:])
	if !slices.Contains(s.EnterpriseDomains(), domain) {
		return Reply{}, wire.BadRequest("The domain %s is not registered to the enterprise", domain)
	}
	key := strings.ToLower(email)
	if s.EmailAliases.ByEmail[key] != nil || s.Users.ByLogin[key] != nil {
		return Reply{}, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "The address is already in use")
	}
	a := &EmailAlias{ID: s.NewID(), User: u, Email: email, Confirmed: p.SeesAll() && (confirm == nil || *confirm)}
	s.AddEmailAlias(a)
	return Reply{wire.StatusCreated, emailAliasRecord(a)}, nil
}

// DeleteEmailAlias serves DELETE /users/{user_id}/email_aliases/{id}
// (deleteEmailAlias): 204; 404 not_found for no such alias of the user.
func (s *Tx) DeleteEmailAlias(p *Principal, userID, aliasID string) (Reply, *wire.Error) {
	u, aerr := s.emailAliasUser(p, userID)
	if aerr != nil {
		return Reply{}, aerr
	}
	a := s.EmailAliases.ByID.At(aliasID)
	if a == nil || a.User != u {
		return Reply{}, wire.NotFound("email_alias")
	}
	s.removeEmailAlias(a)
	return Reply{Status: wire.StatusNoContent}, nil
}

func (s *Tx) removeEmailAlias(a *EmailAlias) {
	s.EmailAliases.ByID.Delete(a.ID)
	delete(s.EmailAliases.ByEmail, strings.ToLower(a.Email))
}

// emailAliasesUserLeft drops the aliases of a user deleted or rolled out.
func (s *Tx) emailAliasesUserLeft(u *User) {
	for _, a := range s.aliasesOf(u) {
		s.removeEmailAlias(a)
	}
}

// EnterpriseDomains are the domains of the enterprise (lower case):
// Cfg.EnterpriseDomains, or the domain of the admin's login.
func (s *ReadTx) EnterpriseDomains() []string {
	if len(s.Cfg.EnterpriseDomains) > 0 {
		return s.Cfg.EnterpriseDomains
	}
	return []string{strings.ToLower(s.Admin.Login[strings.LastIndexByte(s.Admin.Login, '@')+1:])}
}
