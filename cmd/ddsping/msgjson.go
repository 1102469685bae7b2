package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/sim"
)

// The JSON of every message ddsping prints (echo, call) has one naming scheme: the
// members' IDL names as the type's TypeObject has them, in declaration order; in a ROS 2
// type (DDS name pkg::msg::dds_::Name_) the names of its .msg, without the _ rosidl
// appends to them in IDL (frame_id, not frame_id_ nor FrameID), as `ros2 topic echo`
// prints them; a plain Go type's members, which have no IDL name, by their Go names.
//
// An enum value prints as {"name": "STATE_PLAYING", "value": 1}: a true IDL enum (a
// Go type with a DDSEnumerators method), and a ROS 2 integer member whose message
// defines constants for it (rosenums.go). An object rather than "STATE_PLAYING (1)":
// a script reads .state.value or .state.name without parsing a string, the number that
// `ros2 topic echo` prints stays there, and it is the form Fast DDS's JSON of dynamic
// data (DynamicDataJsonFormat::EPROSIMA) gives an enum. A value no enumerator has
// prints as {"name": "", "value": 7}.

// field is a member of a message as JSON.
type field struct {
	Name  string
	Value any
}

// object is a message as JSON: its members in order.
type object []field

// MarshalJSON writes o as a JSON object, its members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalMsg(f.Name)
		if err != nil {
			return nil, err
		}
		v, err := marshalMsg(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// enumValue is an enumerated value as JSON.
type enumValue struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// enumerated is a Go type that is an IDL enum (ddsgen generates the method).
type enumerated interface {
	DDSEnumerators() (names []string, values []int32)
}

// ddsNamed is a Go type with its DDS type name.
type ddsNamed interface{ DDSTypeName() string }

// isROSName reports whether a DDS type name is a ROS 2 one (pkg::msg::dds_::Name_).
func isROSName(n string) bool { return rosType(n) != n }

// rosStruct returns the ROS 2 name (pkg/msg/Name) of struct type t, or "".
func rosStruct(t reflect.Type) string {
	if n, ok := reflect.Zero(t).Interface().(ddsNamed); ok && isROSName(n.DDSTypeName()) {
		return rosType(n.DDSTypeName())
	}
	return ""
}

// memberName returns the name under which ddsping shows the member f of a struct:
// its IDL name (name= in its dds tag), without the trailing _ in a ROS 2 type, or else
// its Go name; skip is true for a field that is not serialized.
func memberName(f reflect.StructField, ros bool) (name string, skip bool) {
	if !f.IsExported() {
		return "", true
	}
	for part := range strings.SplitSeq(f.Tag.Get("dds"), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case k == "-":
			return "", true
		case k == "name" && v != "":
			name = v
		}
	}
	if name == "" {
		return f.Name, false
	}
	if ros {
		name = strings.TrimSuffix(name, "_")
	}
	return name, false
}

// msgJSON returns v, a value of a Go topic type, as a value encoding/json prints in
// ddsping's scheme.
func msgJSON(v reflect.Value) any { return valueJSON(v, nil) }

// valueJSON is msgJSON of v; names are the enumerators of v's member, if any.
func valueJSON(v reflect.Value, names map[int64]string) any {
	if e, ok := v.Interface().(enumerated); ok && v.CanInt() {
		ns, vs := e.DDSEnumerators()
		m := make(map[int64]string, len(ns))
		for i, n := range ns {
			m[int64(vs[i])] = n
		}
		return enumValue{m[v.Int()], v.Int()}
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if names != nil {
			return enumValue{names[v.Int()], v.Int()}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if names != nil && v.Uint() <= math.MaxInt64 {
			return enumValue{names[int64(v.Uint())], int64(v.Uint())}
		}
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return valueJSON(v.Elem(), names)
	case reflect.Slice, reflect.Array:
		// Bytes as numbers, as the dynamic samples and `ros2 topic echo` show them.
		l := make([]any, v.Len())
		for i := range l {
			l[i] = valueJSON(v.Index(i), names)
		}
		return l
	case reflect.Struct:
		return structJSON(v)
	default:
	}
	return v.Interface()
}

func structJSON(v reflect.Value) object {
	t := v.Type()
	ros := rosStruct(t)
	o := make(object, 0, t.NumField())
	for i := range t.NumField() {
		name, skip := memberName(t.Field(i), ros != "")
		if skip {
			continue
		}
		o = append(o, field{Name: name, Value: valueJSON(v.Field(i), rosEnums[ros+"."+name])})
	}
	return o
}

// msgOfType returns m, a message of the Go type t as the ROS 2 bus gives it (sim.Msg,
// members by snake_case Go name), in ddsping's scheme: it is turned into a value of t,
// which msgJSON prints.
func msgOfType(t reflect.Type, m sim.Msg) any {
	v := reflect.New(t).Elem()
	setFromMsg(v, m)
	return msgJSON(v)
}

// setFromMsg sets v from x, a value of a sim.Msg; what does not fit stays zero (the
// bus made x from a value of v's type).
func setFromMsg(v reflect.Value, x any) {
	switch x := x.(type) {
	case bool:
		if v.Kind() == reflect.Bool {
			v.SetBool(x)
		}
	case string:
		if v.Kind() == reflect.String {
			v.SetString(x)
		}
	case float64:
		switch {
		case v.CanInt():
			v.SetInt(int64(x))
		case v.CanUint():
			v.SetUint(uint64(x))
		case v.CanFloat():
			v.SetFloat(x)
		}
	case []any:
		switch v.Kind() {
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), len(x), len(x)))
		case reflect.Array:
			x = x[:min(len(x), v.Len())]
		default:
			return
		}
		for i, e := range x {
			setFromMsg(v.Index(i), e)
		}
	case sim.Msg:
		switch v.Kind() {
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			setFromMsg(v.Elem(), x)
		case reflect.Struct:
			for k, e := range x {
				if i := goField(v.Type(), k); i >= 0 {
					setFromMsg(v.Field(i), e)
				}
			}
		default:
		}
	}
}

// goField returns the index of the field of struct t that the Msg key k names (as the
// bus matches them: case and underscores aside), or -1.
func goField(t reflect.Type, k string) int {
	key := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	k = key(k)
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && key(f.Name) == k {
			return i
		}
	}
	return -1
}

// dynamicJSON returns a decoded dynamic sample of the type typeName in ddsping's scheme:
// in a ROS 2 type, the member names without the _ rosidl appends to them in IDL.
func dynamicJSON(typeName string, v any) any {
	if !isROSName(typeName) {
		return v
	}
	return rosNames(v)
}

func rosNames(v any) any {
	switch x := v.(type) {
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = rosNames(e)
		}
		return l
	case nil:
		return nil
	}
	// A decoded struct is dds.DynamicType.Decode's ordered list of {Name, Value}.
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() != reflect.Struct {
		return v
	}
	et := rv.Type().Elem()
	n, okN := et.FieldByName("Name")
	val, okV := et.FieldByName("Value")
	if !okN || !okV || n.Type.Kind() != reflect.String || val.Type.Kind() != reflect.Interface {
		return v
	}
	o := make(object, rv.Len())
	for i := range o {
		e := rv.Index(i)
		o[i] = field{Name: strings.TrimSuffix(e.FieldByIndex(n.Index).String(), "_"), Value: rosNames(e.FieldByIndex(val.Index).Interface())}
	}
	return o
}

// marshalMsg is json.Marshal of a message value, with HTML left as it is.
func marshalMsg(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// enumNumbers replaces in m, a message of the Go type t, the enumerator names that the
// text format gave as identifiers (state: STATE_PLAYING) by their values, where t's
// member is an IDL enum or has ROS 2 constants: the names echo prints are accepted as
// input. A name that is no enumerator of its member stays, for the bus to refuse.
func enumNumbers(t reflect.Type, m sim.Msg) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	ros := rosStruct(t)
	for k, x := range m {
		i := goField(t, k)
		if i < 0 {
			continue
		}
		f := t.Field(i)
		name, _ := memberName(f, ros != "")
		m[k] = enumInput(f.Type, x, rosEnums[ros+"."+name])
	}
}

// enumInput returns x, a value for a member of type ft, with enumerator names as their
// values.
func enumInput(ft reflect.Type, x any, names map[int64]string) any {
	for ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	switch x := x.(type) {
	case string:
		if e, ok := reflect.Zero(ft).Interface().(enumerated); ok {
			ns, vs := e.DDSEnumerators()
			names = make(map[int64]string, len(ns))
			for i, n := range ns {
				names[int64(vs[i])] = n
			}
		}
		for v, n := range names {
			if n == x {
				return float64(v)
			}
		}
	case []any:
		if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
			for i, e := range x {
				x[i] = enumInput(ft.Elem(), e, names)
			}
		}
	case sim.Msg:
		enumNumbers(ft, x)
	}
	return x
}
