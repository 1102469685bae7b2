package dds

import (
	"reflect"
	"sync"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/xtypes"
)

// typeRegistry holds the TypeObjects of the types this process announces, for the
// TypeLookup service of its participants (peers resolve ddsgo types with it).
var typeRegistry xtypes.Registry

// typeInfoCache holds the PID_TYPE_INFORMATION value of each Go type and type name
// (typeInfoKey), nil for a type that is not announced.
var typeInfoCache sync.Map

type typeInfoKey struct {
	rt   reflect.Type
	name string
}

// typeInformation returns the DDS-XTypes TypeInformation that endpoints of rt under the
// topic type name announce in SEDP, or nil when the type does not describe itself
// exactly: a member without an IDL name (the name= tag option), a type the TypeObjects
// cannot express (a recursive type), or a type name other than the struct's own. Matching
// does not depend on it: peers that resolve types (Cyclone DDS) find a ddsgo type to be
// the same as theirs by its hash.
func typeInformation(rt reflect.Type, name string) []byte {
	k := typeInfoKey{rt, name}
	if v, ok := typeInfoCache.Load(k); ok {
		return v.([]byte)
	}
	var b []byte
	if d, err := cdr.Describe(rt); err == nil && d.Name == name && xtypes.Named(d) {
		if types, err := xtypes.Build(d); err == nil {
			typeRegistry.Add(types)
			info := types.Info()
			b = info.Append(nil)
		}
	}
	v, _ := typeInfoCache.LoadOrStore(k, b)
	return v.([]byte)
}

// typeInfoOf is typeInformation of T.
func typeInfoOf[T any](name string) []byte { return typeInformation(reflect.TypeFor[T](), name) }
