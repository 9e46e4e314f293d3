// Package external uses the cms module from outside, the way a user's module
// does before the module path is published: through a replace directive to
// a checkout (see go.mod). Its tests reach only exported identifiers of
// cms, refserver and cmstest, so anything a user cannot name or call fails
// to compile here.
package external
