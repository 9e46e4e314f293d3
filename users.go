package cms

// UsersService handles users (/users).
type UsersService service
