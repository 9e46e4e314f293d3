// Command admin scripts a user's life in the enterprise: onboarding (create
// the user, put them in a team group as a group admin with chosen
// permissions, give them a first file) and offboarding (list what they
// belong to, drop their group memberships and device pins, and delete
// them with their content, which is refused until force is asked for).
//
// It runs against a reference server started in this process, unless
// CMS_TOKEN (an enterprise admin's token with the manage users, groups and
// enterprise scopes) is set: then against the public service, or the one
// CMS_BASE_URL and CMS_UPLOAD_URL name (cms.NewClientFromEnv).
//
//	go run ./examples/admin
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// env is where the example runs: an admin client and, on the reference
// server, a way to pin a device (the API has no call for that: devices pin
// themselves when users sign in).
type env struct {
	admin   *cms.Client
	where   string
	pin     func(userID, product string) error
	cleanup func()
}

func run(ctx context.Context, out io.Writer) error {
	e, err := setup()
	if err != nil {
		return err
	}
	defer e.cleanup()
	fmt.Fprintf(out, "Connected to %s\n", e.where)

	stamp := time.Now().UnixNano()
	u, err := onboard(ctx, out, e, fmt.Sprintf("new.hire.%d@example.com", stamp), fmt.Sprintf("Support %d", stamp))
	if err != nil {
		return err
	}
	return offboard(ctx, out, e, u)
}

// onboard creates the user, adds them to the team's group (created when
// missing) as a group admin who may not run reports, and uploads a
// welcome file as them.
func onboard(ctx context.Context, out io.Writer, e *env, login, team string) (*cms.User, error) {
	u, _, err := e.admin.Users.Create(ctx, &cms.CreateUserRequest{
		Name: "New Hire", Login: login, JobTitle: "Support engineer", Timezone: "Europe/Berlin",
		TrackingCodes: []cms.TrackingCode{{Name: "cost_center", Value: "CS-42"}},
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("creating user: %w", err)
	}
	fmt.Fprintf(out, "Onboarded %s (user %s, %s)\n", u.Login, u.ID, u.Status)

	group, err := findOrCreateGroup(ctx, e.admin, team)
	if err != nil {
		return nil, err
	}
	m, _, err := e.admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{
		User: cms.UserRef{ID: u.ID}, Group: cms.GroupRef{ID: group.ID}, Role: cms.GroupRoleAdmin,
		ConfigurablePermissions: cms.Set(map[cms.GroupAdminPermission]bool{cms.GroupAdminPermissionCanRunReports: false}),
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("adding to %s: %w", group.Name, err)
	}
	fmt.Fprintf(out, "Added to group %q as %s (can run reports: %v, can edit accounts: %v)\n", group.Name, m.Role,
		m.ConfigurablePermissions[cms.GroupAdminPermissionCanRunReports], m.ConfigurablePermissions[cms.GroupAdminPermissionCanEditAccounts])

	// The user's first file, uploaded on their behalf (As-User).
	asUser, err := e.admin.AsUser(u.ID)
	if err != nil {
		return nil, err
	}
	text := "Welcome aboard!\n"
	f, _, err := asUser.Files.Upload(ctx, "0", "welcome.txt", strings.NewReader(text), int64(len(text)), nil)
	if err != nil {
		return nil, fmt.Errorf("uploading as the user: %w", err)
	}
	fmt.Fprintf(out, "Uploaded %q as the user\n", f.Name)
	if e.pin != nil {
		if err := e.pin(u.ID, "iPhone"); err != nil {
			return nil, err
		}
		fmt.Fprintln(out, "The user signed in on an iPhone (device pinned)")
	}
	return u, nil
}

// findOrCreateGroup returns the group named name, creating it if needed.
func findOrCreateGroup(ctx context.Context, admin *cms.Client, name string) (*cms.Group, error) {
	for g, err := range admin.Groups.ListIter(ctx, &cms.ListGroupsOptions{FilterTerm: name}) {
		if err != nil {
			return nil, fmt.Errorf("listing groups: %w", err)
		}
		if strings.EqualFold(g.Name, name) {
			return g, nil
		}
	}
	g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: name, Description: "Created by the onboarding script"}, nil)
	if err != nil {
		return nil, fmt.Errorf("creating group %s: %w", name, err)
	}
	return g, nil
}

// offboard removes the user's group memberships and device pins, then
// deletes the user and their content.
func offboard(ctx context.Context, out io.Writer, e *env, u *cms.User) error {
	for m, err := range e.admin.GroupMemberships.ListByUserIter(ctx, u.ID, nil) {
		if err != nil {
			return fmt.Errorf("listing memberships: %w", err)
		}
		if _, err := e.admin.GroupMemberships.Delete(ctx, m.ID); err != nil {
			return fmt.Errorf("leaving %s: %w", m.Group.Name, err)
		}
		fmt.Fprintf(out, "Removed from group %q\n", m.Group.Name)
	}

	me, _, err := e.admin.Users.GetMe(ctx, &cms.FieldsOptions{Fields: []string{"enterprise"}})
	if err != nil {
		return err
	}
	if me.Enterprise != nil {
		var pins []string
		for p, err := range e.admin.DevicePins.ListByEnterpriseIter(ctx, me.Enterprise.ID, nil) {
			if err != nil {
				return fmt.Errorf("listing device pins: %w", err)
			}
			if p.OwnedBy != nil && p.OwnedBy.ID == u.ID {
				pins = append(pins, p.ID)
			}
		}
		for _, id := range pins {
			if _, err := e.admin.DevicePins.Delete(ctx, id); err != nil {
				return fmt.Errorf("removing device pin %s: %w", id, err)
			}
		}
		fmt.Fprintf(out, "Removed %d device pin(s)\n", len(pins))
	}

	// Deleting a user who still owns content is refused unless forced.
	_, err = e.admin.Users.Delete(ctx, u.ID, nil)
	var apiErr *cms.APIError
	switch {
	case err == nil:
		fmt.Fprintln(out, "Deleted the user (they owned nothing)")
		return nil
	case errors.As(err, &apiErr) && errors.Is(err, cms.ErrConflict):
		fmt.Fprintf(out, "Delete without force refused: %s\n", apiErr.Code)
	default:
		return fmt.Errorf("deleting user: %w", err)
	}
	if _, err := e.admin.Users.Delete(ctx, u.ID, &cms.DeleteUserOptions{Force: true}); err != nil {
		return fmt.Errorf("deleting user: %w", err)
	}
	_, _, err = e.admin.Users.Get(ctx, u.ID, nil)
	fmt.Fprintf(out, "Offboarded %s (user gone: %v)\n", u.Login, errors.Is(err, cms.ErrNotFound))
	return nil
}

// setup returns the admin's client of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), or of a reference server
// started here (which can also pin devices: the API has no call for it).
func setup() (*env, error) {
	client, srv, where, err := connect(refserver.RoleAdmin, refserver.Options{}, "")
	if err != nil {
		return nil, err
	}
	e := &env{admin: client, where: where, cleanup: func() { closeServer(srv) }}
	if srv != nil {
		e.pin = func(userID, product string) error { _, err := srv.AddDevicePin(userID, product); return err }
	}
	return e, nil
}

// connect returns a client of the service the environment names
// (cms.NewClientFromEnv: CMS_TOKEN, and CMS_BASE_URL with CMS_UPLOAD_URL
// unless it is the public service) and says where it is, or, when CMS_TOKEN
// is unset, starts a reference server in this process with opts and
// returns a client of it as role, with the server (nil for a real
// service). hint tells which variables point the program at a real service.
func connect(role refserver.Role, opts refserver.Options, hint string) (client *cms.Client, srv *refserver.Server, where string, err error) {
	if os.Getenv(cms.EnvToken) != "" {
		client, err = cms.NewClientFromEnv()
		if err != nil {
			return nil, nil, "", err
		}
		return client, nil, client.BaseURL(), nil
	}
	if srv, err = refserver.Start(opts); err != nil {
		return nil, nil, "", err
	}
	ep, err := srv.Endpoint(role)
	if err == nil {
		client, err = cms.NewClient(cms.WithURLs(ep.BaseURL, ep.UploadURL), cms.WithToken(ep.Token))
	}
	if err != nil {
		srv.Close()
		return nil, nil, "", err
	}
	if hint == "" {
		hint = "set CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN for a real service"
	}
	return client, srv, "a reference server at " + srv.BaseURL() + " (" + hint + ")", nil
}

// closeServer stops srv, when connect started one.
func closeServer(srv *refserver.Server) {
	if srv != nil {
		srv.Close()
	}
}
