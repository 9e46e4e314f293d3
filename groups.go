package cms

// GroupsService handles groups (/groups).
type GroupsService service

// GroupMembershipsService handles group memberships (/group_memberships).
type GroupMembershipsService service
