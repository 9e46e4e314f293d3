package cms

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nilCtxArgs builds the arguments of a service method: a nil ctx first,
// then valid values where the method needs them to get as far as sending.
func nilCtxArgs(t *testing.T, m reflect.Method) []reflect.Value {
	t.Helper()
	ctxType := reflect.TypeFor[context.Context]()
	var args []reflect.Value
	last := m.Type.NumIn()
	if m.Type.IsVariadic() {
		last-- // no variadic values
	}
	for i := 1; i < last; i++ { // 0 is the receiver
		in := m.Type.In(i)
		switch {
		case in == ctxType:
			args = append(args, reflect.Zero(in))
		case in == reflect.TypeFor[MetadataScope]():
			args = append(args, reflect.ValueOf(EnterpriseScope("1")))
		case in == reflect.TypeFor[MetadataItem]():
			args = append(args, reflect.ValueOf(OnFile("1")))
		case in == reflect.TypeFor[*MetadataQuery]():
			args = append(args, reflect.ValueOf(NewMetadataQuery(EnterpriseScope("1"), "contract", "0")))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("1").Convert(in))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	return args
}

// errOf returns the last result of a call when it is an error.
func errOf(out []reflect.Value) (error, bool) {
	if len(out) == 0 || !out[len(out)-1].Type().Implements(reflect.TypeFor[error]()) {
		return nil, false
	}
	err, _ := out[len(out)-1].Interface().(error)
	return err, true
}

// drainSeq2 ranges over an iter.Seq2 held in v and returns the errors it
// yielded and how many values it yielded in all.
func drainSeq2(v reflect.Value) (errs []error, n int) {
	yieldType := v.Type().In(0)
	yield := reflect.MakeFunc(yieldType, func(in []reflect.Value) []reflect.Value {
		n++
		if err, ok := in[1].Interface().(error); ok && err != nil {
			errs = append(errs, err)
		}
		return []reflect.Value{reflect.ValueOf(true)}
	})
	v.Call([]reflect.Value{yield})
	return errs, n
}

// TestNilContextIsAnArgError calls every method of every service with a nil
// ctx: none panics or sends anything, and each returns (iterators yield
// once, paginators return from NextPage) an *ArgError. Iterators,
// paginators, metadata queries and the wait helpers, which reach the ctx
// before any other check, name the ctx in it.
func TestNilContextIsAnArgError(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	nilCtx := func(t *testing.T, name string, err error) {
		t.Helper()
		var ae *ArgError
		if assert.ErrorAs(t, err, &ae, name) {
			assert.Equal(t, "ctx", ae.Arg, name)
			assert.ErrorIs(t, err, ErrInvalidArgument, name)
		}
	}
	calls := 0
	for sm := range serviceMethods(e.client) {
		m := sm.method
		if m.Type.NumIn() < 2 {
			continue
		}
		name := sm.name
		takesCtx := m.Type.In(1) == reflect.TypeFor[context.Context]()
		isPaginator := strings.HasPrefix(m.Name, "New") && strings.HasSuffix(m.Name, "Paginator")
		if !takesCtx && !isPaginator {
			continue
		}
		calls++
		var out []reflect.Value
		require.NotPanics(t, func() { out = sm.call.Call(nilCtxArgs(t, m)) }, name)
		switch {
		case isPaginator:
			if err, ok := errOf(out); ok {
				require.NoError(t, err, name)
			}
			p := out[0]
			next := p.MethodByName("NextPage")
			var res []reflect.Value
			require.NotPanics(t, func() { res = next.Call([]reflect.Value{reflect.Zero(reflect.TypeFor[context.Context]())}) }, name)
			err, _ := errOf(res)
			nilCtx(t, name+" NextPage", err)
		case len(out) == 1 && strings.HasPrefix(out[0].Type().String(), "iter.Seq2["):
			var errs []error
			var n int
			require.NotPanics(t, func() { errs, n = drainSeq2(out[0]) }, name)
			assert.Equal(t, 1, n, "%s yields the error once and stops", name)
			require.Len(t, errs, 1, name)
			nilCtx(t, name, errs[0])
		default:
			err, ok := errOf(out)
			require.True(t, ok, "%s returns an error", name)
			var ae *ArgError
			require.ErrorAs(t, err, &ae, name)
			switch {
			case strings.HasPrefix(m.Name, "Wait"), m.Name == "Query", m.Name == "EnterpriseScope", m.Name == "ResolveScope":
				nilCtx(t, name, err)
			}
		}
	}
	assert.Greater(t, calls, 100, "the walk found the services' methods")
	assert.Empty(t, e.requests(), "nothing is sent with a nil ctx")
}
