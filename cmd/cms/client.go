package main

import (
	"errors"
	"fmt"

	"github.com/contentapi/cms"
)

// newClient makes the SDK client of the environment: CMS_BASE_URL and
// CMS_UPLOAD_URL (both or neither: the public service), and CMS_TOKEN or
// the app config file.
func newClient(getenv func(string) string, appConfig string, extra ...cms.Option) (*cms.Client, error) {
	base, upload, token := getenv("CMS_BASE_URL"), getenv("CMS_UPLOAD_URL"), getenv("CMS_TOKEN")
	var opts []cms.Option
	switch {
	case base != "" && upload != "":
		opts = append(opts, cms.WithURLs(base, upload))
	case base != "" || upload != "":
		return nil, errors.New("set both CMS_BASE_URL and CMS_UPLOAD_URL (the API root …/2.0 and the upload root …/api/2.0), or neither for the public service")
	}
	switch {
	case appConfig != "":
		app, err := cms.LoadAppConfig(appConfig)
		if err != nil {
			return nil, err
		}
		var authOpts []cms.AuthOption
		if base != "" {
			authOpts = append(authOpts, cms.WithAuthBaseURL(base))
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
	case token != "":
		opts = append(opts, cms.WithToken(token))
	default:
		return nil, errNoCredentials
	}
	return cms.NewClient(append(opts, extra...)...)
}
