package pyval

import (
	"reflect"
)

// Truthy is Python's bool(v): None, False, zero numbers, the empty string
// and empty lists and dicts are false; everything else is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case Dict:
		return len(x.Keys()) > 0
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return r.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return r.Float() != 0
	case reflect.Slice, reflect.Map, reflect.Array:
		return r.Len() > 0
	case reflect.Pointer, reflect.Interface:
		return !r.IsNil()
	}
	return true
}
