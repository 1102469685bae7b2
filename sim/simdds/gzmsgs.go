package simdds

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/sim"
)

// alias is another name of a registered type: a Gazebo message type (gz.msgs.Int32) is
// the ROS 2 type ros_gz_bridge bridges it to, its fields under Gazebo's names.
type alias struct {
	target string     // the ROS 2 (or DDS) name of the registered type
	fields fieldNames // the fields Gazebo names otherwise, by their Gazebo names
	inv    fieldNames // the same, by their ROS 2 names
}

// fieldNames renames the fields of a message: the field named by a key is the field
// named by its value's name, whose own fields sub renames.
type fieldNames map[string]fieldName

type fieldName struct {
	name string
	sub  fieldNames
}

// gzTime is gz.msgs.Time's field that builtin_interfaces/msg/Time names otherwise.
var gzTime = fieldNames{"nsec": {name: "nanosec"}}

// gzAliases is ros_gz_bridge's table of bridged message types (ros_gz_bridge/README.md,
// ros_gz_bridge/mappings.py), for the ROS 2 types of ros/, one ROS 2 type for each Gazebo
// type. Where ros_gz_bridge bridges a Gazebo type to several ROS 2 types, it is the one
// whose fields are the Gazebo type's: gz.msgs.Vector3d is geometry_msgs/msg/Vector3 (not
// Point), gz.msgs.Pose is geometry_msgs/msg/Pose (not PoseStamped, Transform or
// TransformStamped). gz.msgs.Pose_V (tf2_msgs/msg/TFMessage) is not here: ros_gz_bridge
// converts it pose by pose into transforms, a change of shape and not of names.
var gzAliases = map[string]alias{
	"gz.msgs.Boolean":    {target: "std_msgs/msg/Bool"},
	"gz.msgs.Empty":      {target: "std_msgs/msg/Empty"},
	"gz.msgs.Int32":      {target: "std_msgs/msg/Int32"},
	"gz.msgs.Double":     {target: "std_msgs/msg/Float64"},
	"gz.msgs.StringMsg":  {target: "std_msgs/msg/String"},
	"gz.msgs.Header":     {target: "std_msgs/msg/Header", fields: fieldNames{"stamp": {name: "stamp", sub: gzTime}}},
	"gz.msgs.Time":       {target: "builtin_interfaces/msg/Time", fields: gzTime},
	"gz.msgs.Clock":      {target: "rosgraph_msgs/msg/Clock", fields: fieldNames{"sim": {name: "clock", sub: gzTime}}},
	"gz.msgs.Vector3d":   {target: "geometry_msgs/msg/Vector3"},
	"gz.msgs.Quaternion": {target: "geometry_msgs/msg/Quaternion"},
	"gz.msgs.Pose":       {target: "geometry_msgs/msg/Pose"},
	"gz.msgs.Twist":      {target: "geometry_msgs/msg/Twist"},
}

// inverse returns f by the new names.
func (f fieldNames) inverse() fieldNames {
	if f == nil {
		return nil
	}
	inv := fieldNames{}
	for old, n := range f {
		inv[n.name] = fieldName{name: old, sub: n.sub.inverse()}
	}
	return inv
}

// rename returns m with its fields renamed by f, whose inverse is inv: a field given
// under the new name of another is refused (gz.msgs.Clock has no field "clock").
func (f fieldNames) rename(m sim.Msg, inv fieldNames, path string) (sim.Msg, error) {
	if f == nil {
		return m, nil
	}
	out := make(sim.Msg, len(m))
	for k, v := range m {
		n, ok := f[k]
		if !ok {
			if _, renamed := inv[k]; renamed {
				return nil, badMsg{fmt.Errorf("%s%s: no such field", path, k)}
			}
			out[k] = v
			continue
		}
		var err error
		switch x := v.(type) {
		case sim.Msg:
			v, err = n.sub.rename(x, n.sub.inverse(), path+k+".")
		case []any:
			l := make([]any, len(x))
			for i, e := range x {
				if em, isMsg := e.(sim.Msg); isMsg {
					e, err = n.sub.rename(em, n.sub.inverse(), fmt.Sprintf("%s%s[%d].", path, k, i))
				}
				if err != nil {
					break
				}
				l[i] = e
			}
			v = l
		}
		if err != nil {
			return nil, err
		}
		out[n.name] = v
	}
	return out, nil
}

// gzName is a Gazebo message type name as gz-msgs' factory reads it: "gz_msgs.X",
// ".gz.msgs.X" and ".gz_msgs.X" are "gz.msgs.X".
func gzName(name string) string {
	for _, p := range []string{"gz_msgs.", ".gz.msgs.", ".gz_msgs."} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return "gz.msgs." + rest
		}
	}
	return name
}

// AddAlias makes name another name of the type registered (now or later) as target, in
// its ROS 2 or DDS form, as the Gazebo types of ros_gz_bridge's table are from NewBus
// on: "gz.msgs.Int32" is std_msgs/msg/Int32. It is for the Gazebo types that table
// leaves out, or that are bridged to a type of the program's own; it replaces an alias
// of the same name. Messages of an alias keep its name; their fields are the target's.
func (b *Bus) AddAlias(name, target string) error {
	if name == "" || target == "" || name == target {
		return fmt.Errorf("sim: bus: alias %q of %q: %w", name, target, dds.ErrBadParameter)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.types[name]; ok {
		return fmt.Errorf("sim: bus: alias %q is a registered type: %w", name, dds.ErrBadParameter)
	}
	b.aliases[gzName(name)] = alias{target: target}
	return nil
}

// busView is a registered type under the name it was asked for: its own (ROS 2's form
// of it) or an alias, whose messages have the alias's field names.
type busView struct {
	*busType
	name  string // the name messages carry
	label string // the name errors give
	a     alias
}

// lookup returns the registered type named name: its ROS 2 or DDS name, or an alias.
func (b *Bus) lookup(name string) (busView, error) {
	if t, ok := b.types[name]; ok {
		return busView{busType: t, name: t.name, label: t.name}, nil
	}
	a, ok := b.aliases[gzName(name)]
	if !ok {
		return busView{}, fmt.Errorf("sim: bus: type %q is not registered (AddBusType): %w", name, dds.ErrBadParameter)
	}
	t, ok := b.types[a.target]
	if !ok {
		return busView{}, fmt.Errorf("sim: bus: type %q is %s, which is not registered (AddBusType): %w", name, a.target, dds.ErrBadParameter)
	}
	return busView{busType: t, name: name, label: name + " (" + t.name + ")", a: a}, nil
}

// toBus returns m, a message of the view, with the registered type's field names. A
// Gazebo name's message is protobuf's: its bool fields take the protobuf text format's
// other forms of true and false too (1 and 0, t and f).
func (v busView) toBus(m sim.Msg) (sim.Msg, error) {
	if v.a.target == "" {
		return m, nil
	}
	out, err := v.a.fields.rename(m, v.a.inv, "")
	if err != nil {
		return nil, fmt.Errorf("sim: %s: %w", v.label, err)
	}
	return protoBools(v.goType, out).(sim.Msg), nil
}

// protoBools returns x, a value for Go type t, with the numbers 1 and 0 and the
// identifiers t and f where t has a bool as true and false, as protobuf's text format
// reads them; anything else is left for the conversion to refuse.
func protoBools(t reflect.Type, x any) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		switch x {
		case 1.0, "t":
			return true
		case 0.0, "f":
			return false
		}
	case reflect.Struct:
		m, ok := x.(sim.Msg)
		if !ok {
			return x
		}
		out := make(sim.Msg, len(m))
		for k, e := range m {
			if i := fieldIndex(t, k); i >= 0 {
				e = protoBools(t.Field(i).Type, e)
			}
			out[k] = e
		}
		return out
	case reflect.Slice, reflect.Array:
		if l, ok := x.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				out[i] = protoBools(t.Elem(), e)
			}
			return out
		}
		return protoBools(t.Elem(), x) // a single value for a list of one
	default:
	}
	return x
}

// fromBus returns m, a message of the registered type, with the view's field names.
func (v busView) fromBus(m sim.Msg) sim.Msg {
	out, err := v.a.inv.rename(m, v.a.fields, "")
	if err != nil { // a message of the type has none of the view's names
		return m
	}
	return out
}
