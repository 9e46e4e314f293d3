package cms_test

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleGroupsService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	for _, name := range []string{"Design", "Engineering", "Finance"} {
		if _, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: name}, nil); err != nil {
			log.Fatal(err)
		}
	}
	for g, err := range admin.Groups.ListIter(ctx, &cms.ListGroupsOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(g.Name)
	}
	// Output:
	// Design
	// Engineering
	// Finance
}

func ExampleGroupMembershipsService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	g, _, err := admin.Groups.Create(ctx, &cms.CreateGroupRequest{Name: "Reviewers"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// A group admin who may not run reports; the other permissions stay on.
	m, _, err := admin.GroupMemberships.Create(ctx, &cms.CreateGroupMembershipRequest{
		User: cms.UserRef{ID: srv.UserID()}, Group: cms.GroupRef{ID: g.ID}, Role: cms.GroupRoleAdmin,
		ConfigurablePermissions: cms.Set(map[cms.GroupAdminPermission]bool{cms.GroupAdminPermissionCanRunReports: false}),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Role, m.ConfigurablePermissions[cms.GroupAdminPermissionCanRunReports], m.ConfigurablePermissions[cms.GroupAdminPermissionCanEditAccounts])

	// Null turns every configurable permission off.
	m, _, err = admin.GroupMemberships.Update(ctx, m.ID, &cms.UpdateGroupMembershipRequest{
		ConfigurablePermissions: cms.Null[map[cms.GroupAdminPermission]bool](),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ConfigurablePermissions[cms.GroupAdminPermissionCanEditAccounts])
	// Output:
	// admin false true
	// false
}
