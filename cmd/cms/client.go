package main

import (
	"errors"
	"fmt"

	"github.com/contentapi/cms"
)

// newClient makes the SDK client of the environment, read by the SDK's
// rules (cms.ConfigFromLookup: CMS_BASE_URL and CMS_UPLOAD_URL both or
// neither, for the public service), with CMS_TOKEN or, when given, the app
// config file.
func newClient(getenv func(string) string, appConfig string, extra ...cms.Option) (*cms.Client, error) {
	env, err := cms.ConfigFromLookup(func(k string) (string, bool) { v := getenv(k); return v, v != "" })
	switch {
	case errors.Is(err, cms.ErrEnvTokenUnset) && appConfig == "":
		return nil, errNoCredentials
	case err != nil && !errors.Is(err, cms.ErrEnvTokenUnset):
		return nil, err
	}
	if appConfig == "" {
		return cms.NewClient(append(env.Options(), extra...)...)
	}
	var opts []cms.Option
	var authOpts []cms.AuthOption
	if env.BaseURL != "" {
		opts = append(opts, cms.WithURLs(env.BaseURL, env.UploadURL))
		authOpts = append(authOpts, cms.WithAuthBaseURL(env.BaseURL))
	}
	app, err := cms.LoadAppConfig(appConfig)
	if err != nil {
		return nil, err
	}
	var ts *cms.TokenSource
	if app.BoxAppSettings.AppAuth.PrivateKey != "" {
		ts, err = cms.NewJWTTokenSource(app, authOpts...)
	} else {
		ts, err = cms.NewCCGTokenSourceFromConfig(app, authOpts...)
	}
	if err != nil {
		return nil, fmt.Errorf("signing in with %s: %w", appConfig, err)
	}
	opts = append(opts, cms.WithTokenSource(ts))
	return cms.NewClient(append(opts, extra...)...)
}
