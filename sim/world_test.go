package sim

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
)

// moverSys moves its model along x by speed per step.
type moverSys struct {
	model  ecm.Entity
	speed  float64
	config *Element
}

func (s *moverSys) Configure(e ecm.Entity, config *Element, m *ecm.Manager) error {
	s.model, s.config = e, config
	v, err := strconv.ParseFloat(config.Child("speed").TrimmedText(), 64)
	if err != nil {
		return &LineError{Line: config.Child("speed").Line, Msg: "bad speed"}
	}
	s.speed = v
	return nil
}

func (s *moverSys) PreUpdate(info UpdateInfo, m *ecm.Manager) {
	p, _ := ecm.Get[Pose](m, s.model)
	p.Position.X += s.speed * info.Dt.Seconds()
	m.SetChanged(s.model, ecm.ID[Pose](m), ecm.PeriodicChange)
}

func loadDemo(t *testing.T) (*Runner, ecm.Entity, *MemBus, *[]*moverSys) {
	t.Helper()
	f, err := os.Open("testdata/world.sdf")
	require.NoError(t, err)
	defer func() { require.NoError(t, f.Close()) }()
	r, _ := newRunner(t, Config{})
	bus := &MemBus{}
	var movers []*moverSys
	reg := Registry{"demo::Mover": func() System {
		m := &moverSys{}
		movers = append(movers, m)
		return m
	}}
	RegisterTriggeredPublisher(reg, bus)
	w, err := LoadWorld(r, f, LoadOptions{File: "world.sdf", Registry: reg})
	require.NoError(t, err)
	return r, w, bus, &movers
}

func entityNamed(t *testing.T, m *ecm.Manager, parent ecm.Entity, name string) ecm.Entity {
	t.Helper()
	es := m.ChildrenByComponents(parent, ecm.Match(Name(name)))
	require.Len(t, es, 1, name)
	return es[0]
}

func TestLoadWorld(t *testing.T) {
	r, w, _, movers := loadDemo(t)
	m := r.Manager()
	require.True(t, ecm.Has[World](m, w))
	n, _ := ecm.ComponentData[Name](m, w)
	require.Equal(t, Name("demo"), n)
	require.Equal(t, 8, m.EntityCount())

	ground := entityNamed(t, m, w, "ground")
	require.True(t, ecm.Has[Model](m, ground))
	st, _ := ecm.ComponentData[Static](m, ground)
	require.True(t, bool(st))
	plane := entityNamed(t, m, ground, "plane")
	require.True(t, ecm.Has[Link](m, plane))

	robot := entityNamed(t, m, w, "robot")
	st, _ = ecm.ComponentData[Static](m, robot)
	require.False(t, bool(st))
	p, _ := ecm.ComponentData[Pose](m, robot)
	require.Equal(t, Vector3{1, 2, 0}, p.Position)
	require.InDelta(t, math.Sqrt(0.5), p.Orientation.Z, 1e-12)

	base := entityNamed(t, m, robot, "base")
	wp, ok := WorldPose(m, base)
	require.True(t, ok)
	require.InDelta(t, 1, wp.Position.X, 1e-12)
	require.InDelta(t, 2.5, wp.Position.Y, 1e-12)
	require.InDelta(t, 0.1, wp.Position.Z, 1e-12)

	arm := entityNamed(t, m, robot, "arm")
	p, _ = ecm.ComponentData[Pose](m, arm)
	require.InDelta(t, math.Sqrt(0.5), p.Orientation.Y, 1e-12, "degrees")

	camera := entityNamed(t, m, robot, "camera")
	require.True(t, ecm.Has[Model](m, camera))
	p, _ = ecm.ComponentData[Pose](m, camera)
	require.Equal(t, Pose{Position: Vector3{0, 0, 1}, Orientation: identityQuaternion}, p)
	entityNamed(t, m, camera, "lens")

	// Plugins: TriggeredPublisher on the world, Mover on the robot with priority -10.
	require.Equal(t, 2, r.systemCount())
	require.Len(t, *movers, 1)
	mv := (*movers)[0]
	require.Equal(t, robot, mv.model)
	require.Equal(t, 2.5, mv.speed)
	require.Equal(t, "plugin", mv.config.Name)
	require.Equal(t, 34, mv.config.Line)

	_, err := r.RunOnce()
	require.NoError(t, err)
	p, _ = ecm.ComponentData[Pose](m, robot)
	require.InDelta(t, 1.0025, p.Position.X, 1e-12)
	require.Equal(t, int32(-10), r.pre[0].priority)
	require.Same(t, mv, r.pre[0].sys)

	// A reset restores the loaded world, parent graph included; Mover has no Reset
	// and is made anew by its factory.
	r.Reset()
	_, err = r.RunOnce()
	require.NoError(t, err)
	require.Equal(t, 8, m.EntityCount())
	require.Equal(t, robot, entityNamed(t, m, w, "robot"))
	require.Equal(t, base, entityNamed(t, m, robot, "base"))
	p, _ = ecm.ComponentData[Pose](m, robot)
	require.Equal(t, Vector3{1, 2, 0}, p.Position)
	require.Len(t, *movers, 2)
	require.Equal(t, robot, (*movers)[1].model)
}

func TestLoadWorldErrors(t *testing.T) {
	reg := Registry{
		"demo::Mover": func() System { return &moverSys{} },
		"fails":       func() System { return failing{} },
	}
	tests := []lineErrorCase{
		{"not xml", "<sdf>\n<world name='w'>\n</sdf>", 3, "</sdf> closes <world> of line 2"},
		{"unclosed", "<sdf>\n<world name='w'>\n<model name='m'>\n", 4, "<model> of line 3 not closed"},
		{"bad syntax", "<sdf>\n<world name='w'>\n<model name=m/>\n</world></sdf>", 3, "malformed XML"},
		{"empty", "  \n", 1, "no root element"},
		{"two roots", "<world name='a'/>\n<world name='b'/>", 2, "content after the root element"},
		{"root", "<robot/>", 1, "neither <sdf> nor <world>"},
		{"no world", "<sdf>\n</sdf>", 1, "no <world>"},
		{"two worlds", "<sdf>\n<world name='a'/>\n<world name='b'/>\n</sdf>", 3, "more than one <world>"},
		{"world name", "<sdf>\n<world>\n</world></sdf>", 2, "<world> without a name"},
		{"model name", "<world name='w'>\n<model>\n</model></world>", 2, "<model> without a name"},
		{"duplicate model", "<world name='w'>\n<model name='a'/>\n<model name='a'/>\n</world>", 3, `duplicate model name "a"`},
		{"duplicate link", "<world name='w'>\n<model name='a'><link name='l'/>\n<link name='l'/></model>\n</world>", 3, `duplicate link name "l"`},
		{"pose count", "<world name='w'>\n<model name='a'>\n<pose>1 2 3</pose></model></world>", 3, "<pose> needs 6 numbers, has 3"},
		{"pose number", "<world name='w'>\n<model name='a'>\n<pose>1 2 3 x 0 0</pose></model></world>", 3, `bad number "x"`},
		{"pose nan", "<world name='w'>\n<model name='a'>\n<pose>1 2 3 NaN 0 0</pose></model></world>", 3, `bad number "NaN"`},
		{"pose quat count", "<world name='w'>\n<model name='a'>\n<pose rotation_format='quat_xyzw'>1 2 3 0 0 0</pose></model></world>", 3, "needs 7 numbers"},
		{"pose format", "<world name='w'>\n<model name='a'>\n<pose rotation_format='axis'>1 2 3 0 0 0</pose></model></world>", 3, `unknown rotation_format "axis"`},
		{"link pose", "<world name='w'>\n<model name='a'><link name='l'>\n<pose>1</pose></link></model></world>", 3, "<pose> needs 6"},
		{"static", "<world name='w'>\n<model name='a'>\n<static>yes</static></model></world>", 3, `bad boolean "yes" in <static>`},
		{"unknown plugin", "<world name='w'>\n\n<plugin name='x' filename='libx.so'/></world>", 3, `unknown plugin "x" (filename "libx.so")`},
		{"anonymous plugin", "<world name='w'>\n<plugin/></world>", 2, "<plugin> without name or filename"},
		{"plugin priority", "<world name='w'><model name='a'>\n<plugin name='demo::Mover'>\n<speed>1</speed>\n<gz:system_priority>x</gz:system_priority>\n</plugin></model></world>", 4, "bad gz:system_priority"},
		{"plugin priority unprefixed", "<world name='w'><model name='a'>\n<plugin name='demo::Mover'>\n<speed>1</speed>\n<system_priority>-10</system_priority>\n</plugin></model></world>", 4, "<system_priority> is not read: the priority element is <gz:system_priority>"},
		{"plugin configure line", "<world name='w'><model name='a'>\n<plugin name='demo::Mover'>\n<speed>fast</speed>\n</plugin></model></world>", 3, "bad speed"},
		{"plugin configure", "<world name='w'>\n<plugin filename='fails'/></world>", 2, `plugin "": boom`},
		{"deep models", "<world name='w'>" + strings.Repeat("<model name='m'>", maxModelDepth+1) + strings.Repeat("</model>", maxModelDepth+1) + "</world>", 1, "models nested too deeply"},
		{"deep elements", strings.Repeat("<a>", maxElementDepth+1), 1, "elements nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := newRunner(t, Config{})
			_, err := LoadWorld(r, strings.NewReader(tt.src), LoadOptions{File: "w.sdf", Registry: reg})
			require.Equal(t, "w.sdf", requireLineError(t, err, tt.line, tt.msg))
			require.True(t, strings.HasPrefix(err.Error(), "sim: w.sdf:"+strconv.Itoa(tt.line)+": "), err.Error())
		})
	}
}

func TestLoadWorldSkipUnknown(t *testing.T) {
	r, _ := newRunner(t, Config{})
	sdf := "<world name='w'><plugin name='gz::sim::systems::Physics' filename='gz-sim-physics-system'/></world>"
	_, err := LoadWorld(r, strings.NewReader(sdf), LoadOptions{SkipUnknownPlugins: true})
	require.NoError(t, err)
	require.Equal(t, 0, r.systemCount())
}

func TestParseElement(t *testing.T) {
	el, err := ParseElement(strings.NewReader(`<?xml version="1.0"?>
<!-- comment -->
<plugin xmlns:gz="http://gazebosim.org/schema" name="p">
  <gz:system_priority> 3 </gz:system_priority>
  <a x="1" gz:y="2">one<b/>two<![CDATA[<three>]]></a>
  <a/>
</plugin>`))
	require.NoError(t, err)
	require.Equal(t, "plugin", el.Name)
	require.Equal(t, 3, el.Line)
	v, ok := el.Attr("xmlns:gz")
	require.True(t, ok)
	require.Equal(t, "http://gazebosim.org/schema", v)
	require.Equal(t, "3", el.Child(priorityElement).TrimmedText())
	a := el.Child("a")
	require.Equal(t, 5, a.Line)
	require.Equal(t, "one two<three>", strings.Replace(a.Text, "two", " two", 1))
	y, _ := a.Attr("gz:y")
	require.Equal(t, "2", y)
	require.Len(t, el.ChildrenNamed("a"), 2)
	require.Nil(t, el.Child("none"))

	var nilEl *Element
	require.Nil(t, nilEl.Child("x"))
	require.Empty(t, nilEl.TrimmedText())
	_, ok = nilEl.Attr("x")
	require.False(t, ok)
	require.Nil(t, nilEl.ChildrenNamed("x"))
}

func TestLineError(t *testing.T) {
	err := &LineError{Line: 3, Msg: "bad", Err: errors.New("inner")}
	require.EqualError(t, err, "sim: 3: bad: inner")
	require.EqualError(t, &LineError{Msg: "bad"}, "sim: bad")
	require.ErrorContains(t, err, "inner")
	require.Equal(t, "inner", errors.Unwrap(err).Error())
}
