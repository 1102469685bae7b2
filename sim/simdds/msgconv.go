package simdds

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/sim"
)

// The conversions between a Msg and a Go value of a topic type, used by Bus. Field
// names are matched as ROS 2 and protobuf write them (snake_case) against the Go names
// ddsgen gives them (CamelCase): "child_frame_id" is ChildFrameID. Numbers are float64 in
// a Msg; a repeated field is a []any, and a single value where a list is expected is a
// list of one (as the text format writes a repeated field given once).

// badMsg is the error of a message that does not fit its Go type: a bad parameter.
type badMsg struct{ error }

func (badMsg) Is(target error) bool { return target == dds.ErrBadParameter }
func (e badMsg) Unwrap() error      { return e.error }

// fieldKey is the name of a field as compared: lower case, without underscores.
func fieldKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// snakeCase writes a Go field name as ROS 2 writes it: ChildFrameID is child_frame_id.
func snakeCase(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && !unicode.IsUpper(rs[i-1])
			nextLower := i > 0 && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fromMsg sets v, which must be settable, from x, the value of a Msg at path (which
// its errors start with).
func fromMsg(v reflect.Value, x any, path string) error {
	if x == nil {
		v.SetZero()
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return convError(path, x, v.Type())
		}
		v.SetBool(b)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return convError(path, x, v.Type())
		}
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return numberFromMsg(v, x, path)
	case reflect.Struct:
		m, ok := x.(sim.Msg)
		if !ok {
			return convError(path, x, v.Type())
		}
		return structFromMsg(v, m, path)
	case reflect.Slice, reflect.Array:
		return listFromMsg(v, x, path)
	case reflect.Pointer:
		e := reflect.New(v.Type().Elem())
		if err := fromMsg(e.Elem(), x, path); err != nil {
			return err
		}
		v.Set(e)
	default:
		return fmt.Errorf("%s: a message has no value for Go type %s", path, v.Type())
	}
	return nil
}

func convError(path string, x any, t reflect.Type) error {
	return fmt.Errorf("%s: %v (%T) is not a value of %s", path, x, x, t)
}

func numberFromMsg(v reflect.Value, x any, path string) error {
	f, ok := x.(float64)
	if !ok {
		return convError(path, x, v.Type())
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 || v.OverflowInt(int64(f)) {
			return fmt.Errorf("%s: %v is out of the range of %s", path, f, v.Type())
		}
		v.SetInt(int64(f))
	default:
		if f != math.Trunc(f) || f < 0 || f >= math.MaxUint64 || v.OverflowUint(uint64(f)) {
			return fmt.Errorf("%s: %v is out of the range of %s", path, f, v.Type())
		}
		v.SetUint(uint64(f))
	}
	return nil
}

func structFromMsg(v reflect.Value, m sim.Msg, path string) error {
	t := v.Type()
	for name, x := range m {
		i := fieldIndex(t, name)
		if i < 0 {
			return fmt.Errorf("%s%s: no such field", path, name)
		}
		if err := fromMsg(v.Field(i), x, path+name+"."); err != nil {
			return err
		}
	}
	return nil
}

// fieldIndex returns the index of the exported field of struct type t named name (in
// either form), or -1.
func fieldIndex(t reflect.Type, name string) int {
	k := fieldKey(name)
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && fieldKey(f.Name) == k {
			return i
		}
	}
	return -1
}

func listFromMsg(v reflect.Value, x any, path string) error {
	l, ok := x.([]any)
	if !ok {
		l = []any{x}
	}
	if v.Kind() == reflect.Array {
		if len(l) > v.Len() {
			return fmt.Errorf("%s: %d values for an array of %d", path, len(l), v.Len())
		}
		v.SetZero()
	} else {
		v.Set(reflect.MakeSlice(v.Type(), len(l), len(l)))
	}
	for i, e := range l {
		if err := fromMsg(v.Index(i), e, fmt.Sprintf("%s[%d]", strings.TrimSuffix(path, "."), i)+"."); err != nil {
			return err
		}
	}
	return nil
}

// toMsg returns the Msg value of v: every exported field of a struct, under its
// snake_case name.
func toMsg(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.Struct:
		m := sim.Msg{}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				if x := toMsg(v.Field(i)); x != nil {
					m[snakeCase(f.Name)] = x
				}
			}
		}
		return m
	case reflect.Slice, reflect.Array:
		l := make([]any, v.Len())
		for i := range l {
			l[i] = toMsg(v.Index(i))
		}
		return l
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return toMsg(v.Elem())
	default: // no topic type has them: the codec refuses them
		return nil
	}
}
