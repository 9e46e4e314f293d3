package state

import (
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Invites (/invites): the admin invites a Box user outside the enterprise
// to join it, by login. Such users come from Cfg.ExternalUsers (refserver's
// Options.ExternalUsers), made at start as users with no enterprise; an
// invite stays "pending" (the user accepts in the web app, which this
// server has not). An unknown login, or an enterprise id other than the
// server's, is 404 not_found; a login of the enterprise's own users is
// 400 bad_request.

// Invite is one invitation to the enterprise.
type Invite struct {
	ID                    string
	To, By                *User
	Status                string
	CreatedAt, ModifiedAt time.Time
}

// inviteState is the server's state for invites, reached only through a
// transaction.
type inviteState struct {
	ByID Table[*Invite]
}

// InitInvites prepares the (empty) state of invites; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitInvites() {
	s.Invites = inviteState{ByID: newTable[*Invite](s.Env, KInvites)}
}

// AddExternalUser makes a user with login outside the enterprise (no
// enterprise, as a free account), unless a user has the login already;
// it returns the user with that login.
func (s *Tx) AddExternalUser(login string) *User {
	if u := s.Users.ByLogin[strings.ToLower(login)]; u != nil {
		return u
	}
	now := s.NowSec()
	name, _, _ := strings.Cut(login, "@")
	u := &User{ID: s.NewID(), Login: login, Name: name, Role: userRoleUser, CreatedAt: now, UserProfile: defaultProfile(now)}
	u.Free = true
	u.SpaceAmount, u.MaxUploadSize = freeSpaceAmount, FreeMaxUploadSize
	u.CanSeeManagedUsers = false
	s.addUser(u)
	return u
}

func (s *ReadTx) inviteRecord(in *Invite) map[string]any {
	return map[string]any{
		"type": "invite", "id": in.ID,
		"invited_to":    map[string]any{"type": "enterprise", "id": s.EnterpriseID, "name": EnterpriseName},
		"actionable_by": in.To.Mini(), "invited_by": in.By.Mini(),
		"status": in.Status, "created_at": FmtTime(in.CreatedAt), "modified_at": FmtTime(in.ModifiedAt),
	}
}

// CreateInvite serves POST /invites (refserver's createInvite): 200 with
// a pending invite of the user with login to the enterprise.
func (s *Tx) CreateInvite(p *Principal, enterpriseID, login string) (Reply, *wire.Error) {
	if enterpriseID != s.EnterpriseID {
		return Reply{}, wire.NotFound("enterprise")
	}
	u := s.Users.ByLogin[strings.ToLower(login)]
	if u == nil || u.Deleted() {
		return Reply{}, wire.NotFound("user")
	}
	if !u.Free {
		return Reply{}, wire.BadRequest("The user is already a member of the enterprise")
	}
	now := s.NowSec()
	in := &Invite{ID: s.NewID(), To: u, By: p.User, Status: "pending", CreatedAt: now, ModifiedAt: now}
	s.Invites.ByID.Put(in.ID, in)
	return Reply{wire.StatusOK, s.inviteRecord(in)}, nil
}

// GetInvite serves GET /invites/{invite_id} (getInvite): 200, 404
// not_found for no such invite.
func (s *Tx) GetInvite(id string) (Reply, *wire.Error) {
	in := s.Invites.ByID.At(id)
	if in == nil {
		return Reply{}, wire.NotFound("invite")
	}
	return Reply{wire.StatusOK, s.inviteRecord(in)}, nil
}
