package cms

import (
	"context"
	"reflect"
)

// pageFuncs is the one builder of the page functions behind the ListXIter
// iterators and NewXPaginator paginators. It copies opts once (nil means
// the zero options), slices included, so the caller's struct is never
// changed nor read again, and returns the position to start from (the
// copy's Marker or Offset, which at points to) and a function that lists
// the page at a position: a copy of the copy with the position set, passed
// to list.
//
//	start, fetch := pageFuncs(opts, func(o *ListUsersOptions) *int { return &o.Offset }, s.List)
func pageFuncs[O any, P comparable, Page any](opts *O, at func(*O) *P, list func(context.Context, *O) (Page, *Response, error)) (P, func(context.Context, P) (Page, *Response, error)) {
	o := cloneOptions(opts)
	return *at(&o), func(ctx context.Context, pos P) (Page, *Response, error) {
		page := o
		*at(&page) = pos
		return list(ctx, &page)
	}
}

// cloneOptions returns a copy of *opts (the zero value for nil) whose slice
// fields are copies too.
func cloneOptions[O any](opts *O) O {
	var o O
	if opts == nil {
		return o
	}
	o = *opts
	v := reflect.ValueOf(&o).Elem()
	if v.Kind() != reflect.Struct {
		return o
	}
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Slice && !f.IsNil() && f.CanSet() {
			f.Set(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()), f))
		}
	}
	return o
}
