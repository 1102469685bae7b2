package sim

import (
	"math"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// filterWorld builds:
//
//	1 world
//	2 robot_1     robot, tags mobile+arm, at (0,0,0), sphere r=0.5
//	3 robot_12    robot, tags mobile, at (10,0,0), box ±1
//	4 alice       human, tags walker, at (3,0,0), no bounds
//	5 crate       no category, tags static, no pose
//	6 shelf       static object, at (0,5,0) yawed 90°, box x∈[0,4] y∈[-0.1,0.1]
//	7 sky         dynamic object, empty bounds (unbounded)
//	8 shelf/top   link of shelf at (0,0,2) relative, sphere r=0.1
//	9 bad         robot, malformed bounds
//	10 (no name)  at (0,0,0)
func filterWorld(t *testing.T) *ecm.Manager {
	t.Helper()
	m := ecm.New()
	RegisterComponents(m)
	at := func(x, y, z float64) Pose { return Pose{Position: Vector3{x, y, z}, Orientation: identityQuaternion} }
	add := func(name string, pose *Pose, cat *Category, tags Tags, b *Bounds) ecm.Entity {
		e := m.CreateEntity()
		ecm.CreateComponent(m, e, Name(name))
		if pose != nil {
			ecm.CreateComponent(m, e, *pose)
		}
		if cat != nil {
			ecm.CreateComponent(m, e, *cat)
		}
		if tags != nil {
			ecm.CreateComponent(m, e, tags)
		}
		if b != nil {
			ecm.CreateComponent(m, e, *b)
		}
		return e
	}
	robot, human, static, dynamic := CategoryRobot, CategoryHuman, CategoryStaticObject, CategoryDynamicObject
	p := func(x, y, z float64) *Pose { v := at(x, y, z); return &v }
	world := add("world", nil, nil, nil, nil)
	add("robot_1", p(0, 0, 0), &robot, Tags{"mobile", "arm"}, &Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []Vector3{{}, {X: 0.5}}})
	add("robot_12", p(10, 0, 0), &robot, Tags{"mobile"}, &Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{1, 1, 1}, {-1, -1, -1}}})
	add("alice", p(3, 0, 0), &human, Tags{"walker"}, nil)
	add("crate", nil, nil, Tags{"static"}, nil)
	shelfPose := Pose{Position: Vector3{0, 5, 0}, Orientation: quaternionFromEuler(0, 0, math.Pi/2)}
	shelf := add("shelf", &shelfPose, &static, nil, &Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{0, -0.1, 0}, {4, 0.1, 1}}})
	add("sky", nil, &dynamic, nil, &Bounds{Type: si.Bounds_TYPE_EMPTY})
	top := add("top", p(0, 0, 2), nil, nil, &Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []Vector3{{}, {X: 0.1}}})
	m.SetParentEntity(top, shelf)
	add("bad", p(0, 0, 0), &robot, nil, &Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []Vector3{{}}})
	ecm.CreateComponent(m, m.CreateEntity(), at(0, 0, 0))
	for e := ecm.Entity(2); e <= 7; e++ {
		m.SetParentEntity(e, world)
	}
	return m
}

func sphere(x, y, z, r float64) Bounds {
	return Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []Vector3{{x, y, z}, {X: r}}}
}

// flt is an EntityFilters in the package's own types, so that the tables read short.
type flt struct {
	Name       string
	Categories []Category
	Tags       []string
	Mode       uint8
	Bounds     Bounds
}

// si returns f as simulation_interfaces EntityFilters.
func (f flt) si() si.EntityFilters {
	out := si.EntityFilters{
		Filter: f.Name,
		Tags:   si.TagsFilter{Tags: f.Tags, FilterMode: f.Mode},
		Bounds: si.Bounds{Type: f.Bounds.Type},
	}
	for _, c := range f.Categories {
		out.Categories = append(out.Categories, si.EntityCategory{Category: uint8(c)})
	}
	for _, p := range f.Bounds.Points {
		out.Bounds.Points = append(out.Bounds.Points, geometry_msgs.Vector3{X: p.X, Y: p.Y, Z: p.Z})
	}
	return out
}

func TestGetEntities(t *testing.T) {
	m := filterWorld(t)
	tests := []struct {
		name string
		f    flt
		want []ecm.Entity
	}{
		{"all named", flt{}, []ecm.Entity{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"regex whole name", flt{Name: "robot_[0-9]"}, []ecm.Entity{2}},
		{"regex repeat", flt{Name: "robot_[0-9]+"}, []ecm.Entity{2, 3}},
		{"prefix is not whole", flt{Name: "rob"}, nil},
		{"leftmost-longest alternation", flt{Name: "robot_1|robot_12"}, []ecm.Entity{2, 3}},
		{"anchors inside", flt{Name: "^s.*$"}, []ecm.Entity{6, 7}},
		{"posix class", flt{Name: "[[:alpha:]]+"}, []ecm.Entity{1, 4, 5, 6, 7, 8, 9}},
		{"categories any", flt{Categories: []Category{CategoryHuman, CategoryStaticObject}}, []ecm.Entity{4, 6}},
		{"missing category is object", flt{Categories: []Category{CategoryObject}}, []ecm.Entity{1, 5, 8}},
		{"tags any", flt{Tags: []string{"arm", "walker"}}, []ecm.Entity{2, 4}},
		{"tags all", flt{Tags: []string{"mobile", "arm"}, Mode: si.TagsFilter_FILTER_MODE_ALL}, []ecm.Entity{2}},
		{"tags all one", flt{Tags: []string{"mobile"}, Mode: si.TagsFilter_FILTER_MODE_ALL}, []ecm.Entity{2, 3}},
		// Sphere of radius 1 at (1.4,0,0): robot_1 (r .5 at 0) overlaps; alice (point
		// at 3) does not; sky is unbounded; bad is malformed; world has no pose.
		{"sphere", flt{Bounds: sphere(1.4, 0, 0, 1)}, []ecm.Entity{2, 7}},
		{"sphere touching point", flt{Bounds: sphere(2, 0, 0, 1)}, []ecm.Entity{4, 7}},
		{"sphere reaches box", flt{Bounds: sphere(8.5, 0.5, 0, 0.6)}, []ecm.Entity{3, 7}},
		{"sphere misses box corner", flt{Bounds: sphere(8.5, 1.5, 0, 0.6)}, []ecm.Entity{7}},
		// The shelf box is yawed 90°: it spans y ∈ [5, 9] at x ≈ 0.
		{"rotated box", flt{Bounds: sphere(0, 8, 0.5, 0.2)}, []ecm.Entity{6, 7}},
		{"rotated box not along x", flt{Bounds: sphere(3, 5, 0.5, 0.2)}, []ecm.Entity{7}},
		// The link top is at shelf + (0,0,2) = (0,5,2).
		{"child pose composed", flt{Bounds: sphere(0, 5, 2.15, 0.1)}, []ecm.Entity{7, 8}},
		{"box", flt{Bounds: Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{2.5, -1, -1}, {12, 1, 1}}}}, []ecm.Entity{3, 4, 7}},
		// The tetrahedron is x+y+z <= 5 above (-1,-1,-1): the shelf's corner (-0.1,5,0)
		// is inside, robot_12 and top are not.
		{"convex hull", flt{Bounds: Bounds{Type: si.Bounds_TYPE_CONVEX_HULL, Points: []Vector3{{-1, -1, -1}, {7, -1, -1}, {-1, 7, -1}, {-1, -1, 7}}}}, []ecm.Entity{2, 4, 6, 7}},
		{"flat convex hull", flt{Bounds: Bounds{Type: si.Bounds_TYPE_CONVEX_HULL, Points: []Vector3{{-1, -1, 0}, {4, -1, 0}, {-1, 4, 0}}}}, []ecm.Entity{2, 4, 7}},
		{"and", flt{Name: "robot.*", Categories: []Category{CategoryRobot}, Tags: []string{"mobile"}, Bounds: sphere(10, 0, 0, 0.1)}, []ecm.Entity{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetEntities(m, tt.f.si())
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			// The same through a Reader.
			got, _ = GetEntities(m.Reader(), tt.f.si())
			require.Equal(t, tt.want, got)
		})
	}
}

func TestBadFilters(t *testing.T) {
	m := filterWorld(t)
	tests := []struct {
		name string
		f    flt
		code error
		msg  string
	}{
		{"unbalanced", flt{Name: "robot("}, errs.ErrBadParameter, "name filter: error parsing regexp: missing closing )"},
		{"escape from anchors", flt{Name: "a)|(b"}, errs.ErrBadParameter, "name filter"},
		{"perl class", flt{Name: `\d+`}, errs.ErrBadParameter, "name filter"},
		{"perl flags", flt{Name: "(?i)robot"}, errs.ErrBadParameter, "name filter"},
		{"category", flt{Categories: []Category{3}}, errs.ErrBadParameter, "unknown category 3"},
		{"tags mode", flt{Tags: []string{"x"}, Mode: 2}, errs.ErrBadParameter, "tags filter mode"},
		{"bounds type", flt{Bounds: Bounds{Type: 9}}, errs.ErrUnsupported, "unsupported type 9"},
		{"sphere points", flt{Bounds: Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []Vector3{{}}}}, errs.ErrBadParameter, "sphere needs 2 points"},
		{"sphere radius", flt{Bounds: sphere(0, 0, 0, -1)}, errs.ErrBadParameter, "negative sphere radius"},
		{"box points", flt{Bounds: Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{}, {}, {}}}}, errs.ErrBadParameter, "box needs 2 points"},
		{"hull points", flt{Bounds: Bounds{Type: si.Bounds_TYPE_CONVEX_HULL, Points: []Vector3{{}, {X: 1}}}}, errs.ErrBadParameter, "at least 3 points"},
		{"hull collinear", flt{Bounds: Bounds{Type: si.Bounds_TYPE_CONVEX_HULL, Points: []Vector3{{}, {X: 1}, {X: 2}}}}, errs.ErrBadParameter, "collinear"},
		{"nan", flt{Bounds: sphere(math.NaN(), 0, 0, 1)}, errs.ErrBadParameter, "non-finite"},
		{"empty with points", flt{Bounds: Bounds{Points: []Vector3{{}}}}, errs.ErrBadParameter, "empty bounds with points"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetEntities(m, tt.f.si())
			require.Nil(t, got)
			require.ErrorIs(t, err, tt.code)
			require.Contains(t, err.Error(), tt.msg)
			_, err = CompileFilter(tt.f.si())
			require.ErrorIs(t, err, tt.code)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestFilterMatch(t *testing.T) {
	m := filterWorld(t)
	f, err := CompileFilter(flt{Name: "alice|crate"}.si())
	require.NoError(t, err)
	require.True(t, f.Match(m, 4))
	require.False(t, f.Match(m, 3))
	require.False(t, f.Match(m, 10), "unnamed")
	require.False(t, f.Match(m, 99), "no entity")
	require.Equal(t, []ecm.Entity{7, 4, 5}, f.AppendEntities([]ecm.Entity{7}, m))
}

func TestHullDistance(t *testing.T) {
	cube := func(x float64) []Vector3 {
		return shapeOf(Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{x, 0, 0}, {x + 1, 1, 1}}}, Pose{}).pts
	}
	tests := []struct {
		name string
		a, b []Vector3
		want float64
	}{
		{"separated cubes", cube(0), cube(2), 1},
		{"touching cubes", cube(0), cube(1), 0},
		{"overlapping cubes", cube(0), cube(0.5), 0},
		{"point inside", cube(0), []Vector3{{0.5, 0.5, 0.5}}, 0},
		{"point to face", cube(0), []Vector3{{0.5, 0.5, 3}}, 2},
		{"point to edge", cube(0), []Vector3{{2, 2, 0.5}}, math.Sqrt2},
		{"point to corner", cube(0), []Vector3{{2, 2, 2}}, math.Sqrt(3)},
		{"point to triangle", []Vector3{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, []Vector3{{0.5, 0.5, -1}}, 1},
		{"segments", []Vector3{{-1, 0, 0}, {1, 0, 0}}, []Vector3{{0, -1, 2}, {0, 1, 2}}, 2},
		{"same point", []Vector3{{1, 2, 3}}, []Vector3{{1, 2, 3}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, hullDistance(tt.a, tt.b), 1e-9)
			require.InDelta(t, tt.want, hullDistance(tt.b, tt.a), 1e-9)
		})
	}
}

func TestPoseMath(t *testing.T) {
	q := quaternionFromEuler(0, 0, math.Pi/2)
	v := q.rotate(Vector3{1, 0, 0})
	require.InDelta(t, 0, v.X, 1e-12)
	require.InDelta(t, 1, v.Y, 1e-12)
	// Roll then pitch then yaw about fixed axes: x → (pitch 90°) -z → (yaw) -z.
	q = quaternionFromEuler(0, math.Pi/2, math.Pi/2)
	v = q.rotate(Vector3{1, 0, 0})
	require.InDelta(t, 0, v.X, 1e-12)
	require.InDelta(t, 0, v.Y, 1e-12)
	require.InDelta(t, -1, v.Z, 1e-12)
	require.Equal(t, Vector3{1, 2, 3}, Quaternion{}.rotate(Vector3{1, 2, 3}), "zero quaternion is the identity")

	parent := Pose{Position: Vector3{1, 0, 0}, Orientation: quaternionFromEuler(0, 0, math.Pi/2)}
	child := Pose{Position: Vector3{1, 0, 0}, Orientation: identityQuaternion}
	w := parent.compose(child)
	require.InDelta(t, 1, w.Position.X, 1e-12)
	require.InDelta(t, 1, w.Position.Y, 1e-12)
}

// The literal-prefix shortcut of name filters agrees with running the regular
// expression on every name.
func TestFilterNameShortcut(t *testing.T) {
	names := []string{"", "a", "ab", "abab", "abc", "abcd", "m1", "m12", "m123", "xm12", "x1y", "x12y", "x12", "a.b", "axb"}
	for _, pat := range []string{"m12.*", "abc", "a|ab", "(ab)+", "x[0-9]+y", "a.b", "a\\.b", "m1|m12", ".*"} {
		c, err := CompileFilter(flt{Name: pat}.si())
		require.NoError(t, err, pat)
		re := regexp.MustCompilePOSIX(pat)
		for _, n := range names {
			loc := re.FindStringIndex(n)
			want := loc != nil && loc[0] == 0 && loc[1] == len(n)
			require.Equal(t, want, c.nameMatches(n), "%q on %q", pat, n)
		}
	}
}
