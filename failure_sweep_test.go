package cms

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sweepArgs builds the arguments of a service method that get it as far as
// sending: a live ctx, ids of "1", readers and writers, and for request
// bodies a valid value from sweepBodies (or the zero value of the type).
func sweepArgs(m reflect.Method) (args []reflect.Value) {
	last := m.Type.NumIn()
	if m.Type.IsVariadic() {
		last--
		defer func() { // one value of the variadic parameter
			if v, ok := sweepValue(m.Type.In(last).Elem()); ok {
				args = append(args, v)
			}
		}()
	}
	for i := 1; i < last; i++ {
		in := m.Type.In(i)
		if v, ok := sweepValue(in); ok {
			args = append(args, v)
			continue
		}
		prev := m.Type.In(i - 1)
		switch {
		case in.Kind() == reflect.String && prev == reflect.TypeFor[MetadataScope]():
			args = append(args, reflect.ValueOf("contract")) // a template key
		case in.Kind() == reflect.String && prev == reflect.TypeFor[[]*UploadPart]():
			args = append(args, reflect.ValueOf(strings.Repeat("a", 40))) // a SHA-1
		case in.Kind() == reflect.String && m.Name == "ResolveScope":
			args = append(args, reflect.ValueOf("enterprise").Convert(in))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("1").Convert(in))
		case in.Kind() == reflect.Int64 || in.Kind() == reflect.Int:
			args = append(args, reflect.ValueOf(1).Convert(in))
		case in.Kind() == reflect.Pointer && in.Elem().Kind() == reflect.Struct:
			args = append(args, reflect.New(in.Elem()))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	return args
}

// sweepValue gives the arguments whose zero value is refused before
// sending.
func sweepValue(in reflect.Type) (reflect.Value, bool) {
	switch in {
	case reflect.TypeFor[context.Context]():
		return reflect.ValueOf(context.Background()), true
	case reflect.TypeFor[io.Reader](), reflect.TypeFor[io.ReadSeeker]():
		return reflect.ValueOf(strings.NewReader("x")).Convert(in), true
	case reflect.TypeFor[io.Writer]():
		return reflect.ValueOf(io.Discard).Convert(in), true
	case reflect.TypeFor[MetadataScope]():
		// The shorthand: ResolveScope then has to ask the service.
		return reflect.ValueOf(MetadataScopeEnterprise), true
	case reflect.TypeFor[MetadataItem]():
		return reflect.ValueOf(OnFile("1")), true
	case reflect.TypeFor[*MetadataQuery]():
		return reflect.ValueOf(NewMetadataQuery(EnterpriseScope("1"), "contract", "0")), true
	case reflect.TypeFor[PartRange]():
		return reflect.ValueOf(PartRange{Offset: 0, Size: 1, FileSize: 1}), true
	}
	if b, ok := sweepBodies[in]; ok {
		return reflect.ValueOf(b), true
	}
	return reflect.Value{}, false
}

// sweepBodies are valid request bodies of the methods that check theirs.
var sweepBodies = map[reflect.Type]any{}

func init() {
	for _, b := range []any{
		&CreateUploadSessionRequest{FolderID: "1", FileSize: 30_000_000, FileName: "a.bin"},
		&SearchOptions{Query: "report"},
		&CreateVersionSessionRequest{FileSize: 30_000_000},
		&CreateFolderRequest{Name: "a", Parent: FolderRef{ID: "0"}},
		&CreateWebLinkRequest{URL: "https://example.com", Parent: FolderRef{ID: "0"}},
		&CreateTaskRequest{File: FileRef{ID: "1"}},
		&CreateTaskAssignmentRequest{Task: TaskRef{ID: "1"}, User: &UserRef{ID: "1"}},
		&CreateMetadataTemplateRequest{Scope: MetadataScopeEnterprise, DisplayName: "Contract"},
		&CreateRetentionPolicyRequest{PolicyName: "p", PolicyType: RetentionPolicyTypeIndefinite, DispositionAction: DispositionActionRemoveRetention},
		&CreateRetentionPolicyAssignmentRequest{PolicyID: "1", AssignTo: RetentionAssignTo{Type: RetentionAssignmentTypeFolder, ID: "1"}},
		&CreateLegalHoldPolicyRequest{PolicyName: "p", IsOngoing: true},
		&CreateLegalHoldPolicyAssignmentRequest{PolicyID: "1", AssignTo: LegalHoldAssignTo{Type: LegalHoldAssignmentTypeFile, ID: "1"}},
		&CreateUserRequest{Name: "A", Login: "a@example.com"},
		&CreateGroupRequest{Name: "g"},
		&CreateGroupMembershipRequest{User: UserRef{ID: "1"}, Group: GroupRef{ID: "1"}},
		NewMetadataPatch().Add("/a", 1),
		[]*UploadPart{{PartID: "ABCD1234", Offset: 0, Size: 1}},
		EditTemplateOp(TemplateChanges{DisplayName: "Contracts"}),
		ResolutionStateApproved,
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}

// TestEveryMethodReportsA500: every method of every service, against a
// service that answers 500 to everything (and no retries), returns an
// *APIError with the status, a non-nil *Response and a zero value; an
// iterator yields that error once; a paginator's NextPage returns it.
func TestEveryMethodReportsA500(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t, WithoutRetries())
	fail := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"type": "error", "status": 500, "code": "internal_server_error", "message": "boom", "request_id": "r1"})
	}
	e.api.HandleFunc("/", fail)
	e.upload.HandleFunc("/", fail)
	check := func(t *testing.T, name string, err error, resp reflect.Value) {
		t.Helper()
		var ae *APIError
		if !assert.True(t, errors.As(err, &ae), "%s: %v", name, err) {
			return
		}
		assert.Equal(t, http.StatusInternalServerError, ae.StatusCode, name)
		if resp.IsValid() {
			assert.False(t, resp.IsNil(), "%s: a non-nil *Response", name)
		}
	}
	checked := 0
	var refused []string
	for sm := range serviceMethods(e.client) {
		m := sm.method
		name := sm.name
		takesCtx := m.Type.NumIn() > 1 && m.Type.In(1) == reflect.TypeFor[context.Context]()
		isPaginator := strings.HasPrefix(m.Name, "New") && strings.HasSuffix(m.Name, "Paginator")
		if !takesCtx && !isPaginator {
			continue
		}
		var out []reflect.Value
		require.NotPanics(t, func() { out = sm.call.Call(sweepArgs(m)) }, name)
		var err error
		var resp reflect.Value
		switch {
		case isPaginator:
			if perr, ok := errOf(out); ok && perr != nil {
				refused = append(refused, name+": "+perr.Error())
				continue
			}
			res := out[0].MethodByName("NextPage").Call([]reflect.Value{reflect.ValueOf(context.Background())})
			err, _ = errOf(res)
			assert.True(t, res[0].IsNil(), "%s NextPage: zero page", name)
			resp = res[1]
		case len(out) == 1 && strings.HasPrefix(out[0].Type().String(), "iter.Seq2["):
			errs, n := drainSeq2(out[0])
			assert.Equal(t, 1, n, "%s yields the error once", name)
			if len(errs) == 1 {
				err = errs[0]
			}
		default:
			err, _ = errOf(out)
			for _, v := range out[:len(out)-1] {
				switch {
				case v.Type() == reflect.TypeFor[*Response]():
					resp = v
				case v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface || v.Kind() == reflect.Slice:
					assert.True(t, v.IsNil(), "%s: zero value beside the error", name)
				default:
					assert.True(t, v.IsZero(), "%s: zero value beside the error", name)
				}
			}
		}
		var ae *ArgError
		if errors.As(err, &ae) {
			refused = append(refused, name+": "+err.Error())
			continue
		}
		checked++
		check(t, name, err, resp)
	}
	assert.Empty(t, refused, "every method got as far as sending")
	assert.Greater(t, checked, 100)
}
