package transport

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
)

// sensitiveParams are query parameters whose values are credentials.
var sensitiveParams = []string{"access_token", "refresh_token", "client_secret", "shared_link_password", "password", "token", "code", "assertion", "subject_token"}

// RedactURL returns u with credential query values replaced by "REDACTED"
// and any user info removed, for errors and logs.
func RedactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		changed := false
		for k := range q {
			for _, s := range sensitiveParams {
				if strings.EqualFold(k, s) {
					q[k] = []string{"REDACTED"}
					changed = true
				}
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return c.String()
}

// RedactURLString is RedactURL for a URL in string form; an unparsable
// string is replaced entirely.
func RedactURLString(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "[unparsable url]"
	}
	return RedactURL(u)
}

// leveled adapts slog to retryablehttp.LeveledLogger, redacting URLs.
type leveled struct{ l *slog.Logger }

func (l leveled) log(level slog.Level, msg string, kv []any) {
	if !l.l.Enabled(context.Background(), level) {
		return
	}
	args := make([]any, len(kv))
	for i, v := range kv {
		switch x := v.(type) {
		case *url.URL:
			args[i] = RedactURL(x)
		case string:
			if strings.Contains(x, "://") || strings.Contains(x, "?") {
				args[i] = redactFreeText(x)
			} else {
				args[i] = x
			}
		case error:
			args[i] = redactFreeText(x.Error())
		case fmt.Stringer:
			args[i] = redactFreeText(x.String())
		default:
			args[i] = v
		}
	}
	l.l.Log(context.Background(), level, "cms transport: "+msg, args...)
}

// redactFreeText redacts every URL-looking word of s.
func redactFreeText(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if strings.Contains(w, "://") {
			trimmed := strings.Trim(w, `"'(),:`)
			words[i] = strings.Replace(w, trimmed, RedactURLString(trimmed), 1)
		}
	}
	return strings.Join(words, " ")
}

func (l leveled) Error(msg string, kv ...any) { l.log(slog.LevelError, msg, kv) }
func (l leveled) Info(msg string, kv ...any)  { l.log(slog.LevelInfo, msg, kv) }
func (l leveled) Debug(msg string, kv ...any) { l.log(slog.LevelDebug, msg, kv) }
func (l leveled) Warn(msg string, kv ...any)  { l.log(slog.LevelWarn, msg, kv) }
