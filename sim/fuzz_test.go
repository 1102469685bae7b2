package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/ddsgo/ddsgo/ecm"
)

func FuzzParseMsg(f *testing.F) {
	for _, s := range []string{"data: true", "a { b: [1, 2] } c: 'x'", "x: \"\\n\"", "# c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := ParseMsg(s); err == nil {
			equalValues(m, m, 0)
		}
		_, _ = parseValue(s)
	})
}

func FuzzLoadWorld(f *testing.F) {
	b, err := os.ReadFile("testdata/world.sdf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("<world name='w'><model name='m'><pose>1 2 3 0 0 0</pose></model></world>")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := NewRunner(ecm.New(), Config{Clock: newFakeClock()})
		if err != nil {
			t.Fatal(err)
		}
		reg := Registry{}
		RegisterTriggeredPublisher(reg, &MemBus{})
		_, _ = LoadWorld(r, strings.NewReader(s), LoadOptions{Registry: reg, SkipUnknownPlugins: true})
	})
}

func FuzzFilter(f *testing.F) {
	f.Add("robot_[0-9]+", uint8(3), 0.0, 0.0, 0.0, 1.0, 2.0, 0.5)
	f.Fuzz(func(t *testing.T, name string, typ uint8, x, y, z, a, b, c float64) {
		m := ecm.New()
		RegisterComponents(m)
		e := m.CreateEntity()
		ecm.CreateComponent(m, e, Name("robot_1"))
		ecm.CreateComponent(m, e, Pose{Position: Vector3{a, b, c}, Orientation: Quaternion{x, y, z, a}})
		ecm.CreateComponent(m, e, Bounds{Type: typ % 4, Points: []Vector3{{x, y, z}, {a, b, c}, {c, a, b}}})
		_, _ = GetEntities(m, flt{
			Name:   name,
			Bounds: Bounds{Type: typ, Points: []Vector3{{x, y, z}, {a, b, c}, {b, c, a}}[:int(typ)%4]},
		}.si())
	})
}
