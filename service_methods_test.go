package cms

import (
	"iter"
	"reflect"
	"strings"
)

// serviceMethod is one exported method of a service of a Client, for the
// tests that walk every method by reflection.
type serviceMethod struct {
	name   string // "Files.Get"
	method reflect.Method
	call   reflect.Value // bound to the service
}

// serviceMethods yields every exported method of every service of c.
func serviceMethods(c *Client) iter.Seq[serviceMethod] {
	return func(yield func(serviceMethod) bool) {
		cv := reflect.ValueOf(c).Elem()
		for i := range cv.NumField() {
			f := cv.Field(i)
			if !cv.Type().Field(i).IsExported() || f.Kind() != reflect.Pointer || !strings.HasSuffix(f.Type().Elem().Name(), "Service") {
				continue
			}
			for j := range f.NumMethod() {
				m := f.Type().Method(j)
				if !yield(serviceMethod{name: cv.Type().Field(i).Name + "." + m.Name, method: m, call: f.Method(j)}) {
					return
				}
			}
		}
	}
}
