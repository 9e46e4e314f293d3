package refserver

// DefaultEventHistory is how many events the server keeps when
// Options.EventHistory is 0.
const DefaultEventHistory = 10_000
