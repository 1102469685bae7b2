package sim_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/sim"
)

// The seed documents' examples, run as written (issue 31, item 3).

// priorityPrinterSDF is gz-sim's examples/plugin/priority_printer_plugin/
// priority_printer_plugin.sdf: seven PriorityPrinter plugins with <gz:system_priority>
// values and labels, one (fourth) without a priority.
const priorityPrinterSDF = `<?xml version="1.0" ?>
<sdf version="1.6">
  <world name="default">
    <!--
      System plugins can be loaded from <plugin> tags attached to entities like
      the world, models, visuals, etc.
    -->
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>100</gz:system_priority>
      <label>first</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>10</gz:system_priority>
      <label>second</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>-10</gz:system_priority>
      <label>third</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <label>fourth</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>-100</gz:system_priority>
      <label>fifth</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>0</gz:system_priority>
      <label>sixth</label>
    </plugin>
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <gz:system_priority>100</gz:system_priority>
      <label>seventh</label>
    </plugin>
  </world>
</sdf>
`

// priorityPrinter records its label in PreUpdate and Update, as gz-sim's
// PriorityPrinter prints it.
type priorityPrinter struct {
	label    string
	pre, upd *[]string
}

func (p *priorityPrinter) Configure(_ ecm.Entity, config *sim.Element, _ *ecm.Manager) error {
	p.label = config.Child("label").TrimmedText()
	return nil
}

func (p *priorityPrinter) PreUpdate(sim.UpdateInfo, *ecm.Manager) { *p.pre = append(*p.pre, p.label) }

func (p *priorityPrinter) Update(sim.UpdateInfo, *ecm.Manager) { *p.upd = append(*p.upd, p.label) }

// TestDocSystemPriority reproduces gz-sim System.hh's system priority rules
// (include/gz/sim/System.hh; examples/plugin/priority_printer_plugin/README.md "Run"):
// the example world as written, run for 5 iterations; PreUpdate and Update run by
// <gz:system_priority> (smaller first, default 0), equal priorities in load order.
// The README's expected output per iteration is fifth, third, fourth, sixth, second,
// first, seventh.
func TestDocSystemPriority(t *testing.T) {
	r, err := sim.NewRunner(ecm.New(), sim.Config{})
	require.NoError(t, err)
	var pre, upd []string
	reg := sim.Registry{"priority_printer::PriorityPrinter": func() sim.System {
		return &priorityPrinter{pre: &pre, upd: &upd}
	}}
	_, err = sim.LoadWorld(r, strings.NewReader(priorityPrinterSDF),
		sim.LoadOptions{File: "priority_printer_plugin.sdf", Registry: reg})
	require.NoError(t, err)

	want := []string{"fifth", "third", "fourth", "sixth", "second", "first", "seventh"}
	const iterations = 5
	for i := uint64(1); i <= iterations; i++ {
		pre, upd = pre[:0], upd[:0]
		info, err := r.RunOnce()
		require.NoError(t, err)
		require.Equal(t, i, info.Iterations)
		require.Equal(t, want, pre, "PreUpdate order, iteration %d", i)
		require.Equal(t, want, upd, "Update order, iteration %d", i)
	}
}

// physicsLike is a system whose default priority is sim.PhysicsPriority, as a system
// implementing gz-sim's ISystemConfigurePriority.
type physicsLike struct{ priorityPrinter }

func (*physicsLike) Priority() int32 { return sim.PhysicsPriority }

// TestDocSystemConfigurePriority reproduces gz-sim include/gz/sim/System.hh,
// ISystemConfigurePriority: a system's own default priority replaces
// kDefaultPriority (0) "but can still be overridden by the XML priority element"
// (kPriorityElementName, gz:system_priority).
func TestDocSystemConfigurePriority(t *testing.T) {
	const world = `<sdf version="1.6"><world name="default">
    <plugin filename="PriorityPrinter" name="priority_printer::PriorityPrinter">
      <label>plain</label>
    </plugin>
    <plugin filename="physics" name="physics_like">
      <label>physics</label>
    </plugin>
    <plugin filename="physics" name="physics_like">
      <gz:system_priority>10</gz:system_priority>
      <label>overridden</label>
    </plugin>
  </world></sdf>`
	r, err := sim.NewRunner(ecm.New(), sim.Config{})
	require.NoError(t, err)
	var pre, upd []string
	reg := sim.Registry{
		"priority_printer::PriorityPrinter": func() sim.System { return &priorityPrinter{pre: &pre, upd: &upd} },
		"physics_like":                      func() sim.System { return &physicsLike{priorityPrinter{pre: &pre, upd: &upd}} },
	}
	_, err = sim.LoadWorld(r, strings.NewReader(world), sim.LoadOptions{Registry: reg})
	require.NoError(t, err)
	_, err = r.RunOnce()
	require.NoError(t, err)
	want := []string{"physics", "plain", "overridden"}
	require.Equal(t, want, pre)
	require.Equal(t, want, upd)
}

// entityFiltersWorld is a small world for the EntityFilters tests:
//
//	1 world        no pose (not placeable)
//	2 robot_1      robot, tags mobile+arm, at (0,0,0), sphere r=0.5
//	3 robot_12     robot, tags mobile, at (10,0,0)
//	4 alice        human, tags walker, at (3,0,0)
//	5 crate        no category (object), tags static, at (20,0,0)
//	6 sky          static object, unbounded (TYPE_EMPTY bounds)
func entityFiltersWorld(t *testing.T) *ecm.Manager {
	t.Helper()
	m := ecm.New()
	sim.RegisterComponents(m)
	add := func(name string, pos *sim.Vector3, cat *sim.Category, tags sim.Tags, b *sim.Bounds) {
		e := m.CreateEntity()
		ecm.CreateComponent(m, e, sim.Name(name))
		if pos != nil {
			ecm.CreateComponent(m, e, sim.Pose{Position: *pos, Orientation: sim.Quaternion{W: 1}})
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
	}
	robot, human, static := sim.CategoryRobot, sim.CategoryHuman, sim.CategoryStaticObject
	at := func(x float64) *sim.Vector3 { return &sim.Vector3{X: x} }
	add("world", nil, nil, nil, nil)
	add("robot_1", at(0), &robot, sim.Tags{"mobile", "arm"}, &sim.Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []sim.Vector3{{}, {X: 0.5}}})
	add("robot_12", at(10), &robot, sim.Tags{"mobile"}, nil)
	add("alice", at(3), &human, sim.Tags{"walker"}, nil)
	add("crate", at(20), nil, sim.Tags{"static"}, nil)
	add("sky", nil, &static, nil, &sim.Bounds{Type: si.Bounds_TYPE_EMPTY})
	return m
}

func getEntities(t *testing.T, m *ecm.Manager, f si.EntityFilters) []ecm.Entity {
	t.Helper()
	got, err := sim.GetEntities(m, f)
	require.NoError(t, err)
	return got
}

func sphereBounds(x, y, z, r float64) si.Bounds {
	return si.Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []geometry_msgs.Vector3{{X: x, Y: y, Z: z}, {X: r}}}
}

// TestDocEntityFiltersFilter reproduces simulation_interfaces msg/EntityFilters.msg,
// field "filter": entity names are matched with a POSIX Extended regular expression;
// an empty filter returns all entities. The regular expression must match the whole
// name (as Gazebo's implementation does; the .msg does not say), so "robot" alone
// matches neither robot_1 nor robot_12.
func TestDocEntityFiltersFilter(t *testing.T) {
	m := entityFiltersWorld(t)
	require.Equal(t, []ecm.Entity{1, 2, 3, 4, 5, 6}, getEntities(t, m, si.EntityFilters{}), "empty filter: all")
	require.Equal(t, []ecm.Entity{2, 3}, getEntities(t, m, si.EntityFilters{Filter: "robot_[0-9]+"}))
	require.Equal(t, []ecm.Entity{2}, getEntities(t, m, si.EntityFilters{Filter: "robot_[[:digit:]]"}), "POSIX class")
	require.Equal(t, []ecm.Entity{4, 5}, getEntities(t, m, si.EntityFilters{Filter: "alice|crate"}), "ERE alternation")
	require.Empty(t, getEntities(t, m, si.EntityFilters{Filter: "robot"}), "whole-name match")
	// Not POSIX Extended: Perl classes are refused as a bad parameter.
	_, err := sim.GetEntities(m, si.EntityFilters{Filter: `robot_\d`})
	require.ErrorIs(t, err, errs.ErrBadParameter)
}

// TestDocEntityFiltersCategories reproduces simulation_interfaces
// msg/EntityFilters.msg, field "categories": empty means no category filter;
// entities matching any of the categories are returned (msg/EntityCategory.msg
// values). An entity without a Category component is CATEGORY_OBJECT in ddsgo.
func TestDocEntityFiltersCategories(t *testing.T) {
	m := entityFiltersWorld(t)
	cats := func(cs ...uint8) si.EntityFilters {
		var f si.EntityFilters
		for _, c := range cs {
			f.Categories = append(f.Categories, si.EntityCategory{Category: c})
		}
		return f
	}
	require.Equal(t, []ecm.Entity{1, 2, 3, 4, 5, 6}, getEntities(t, m, cats()), "no categories: no filter")
	require.Equal(t, []ecm.Entity{2, 3}, getEntities(t, m, cats(si.EntityCategory_CATEGORY_ROBOT)))
	require.Equal(t, []ecm.Entity{2, 3, 4}, getEntities(t, m,
		cats(si.EntityCategory_CATEGORY_ROBOT, si.EntityCategory_CATEGORY_HUMAN)), "any of")
	require.Equal(t, []ecm.Entity{1, 5}, getEntities(t, m, cats(si.EntityCategory_CATEGORY_OBJECT)))
	require.Empty(t, getEntities(t, m, cats(si.EntityCategory_CATEGORY_DYNAMIC_OBJECT)))
}

// TestDocEntityFiltersTags reproduces simulation_interfaces msg/TagsFilter.msg (the
// "tags" field of msg/EntityFilters.msg): no tags means no filter; FILTER_MODE_ANY
// (0, OR) returns entities with any of the tags, FILTER_MODE_ALL (1, AND) those with
// all of them.
func TestDocEntityFiltersTags(t *testing.T) {
	m := entityFiltersWorld(t)
	tags := func(mode uint8, ts ...string) si.EntityFilters {
		return si.EntityFilters{Tags: si.TagsFilter{Tags: ts, FilterMode: mode}}
	}
	require.Equal(t, uint8(0), si.TagsFilter_FILTER_MODE_ANY)
	require.Equal(t, uint8(1), si.TagsFilter_FILTER_MODE_ALL)
	require.Equal(t, []ecm.Entity{1, 2, 3, 4, 5, 6}, getEntities(t, m, tags(si.TagsFilter_FILTER_MODE_ALL)), "no tags: no filter")
	require.Equal(t, []ecm.Entity{2, 3, 4}, getEntities(t, m, tags(si.TagsFilter_FILTER_MODE_ANY, "mobile", "walker")))
	require.Empty(t, getEntities(t, m, tags(si.TagsFilter_FILTER_MODE_ALL, "mobile", "walker")))
	require.Equal(t, []ecm.Entity{2}, getEntities(t, m, tags(si.TagsFilter_FILTER_MODE_ALL, "mobile", "arm")))
	require.Equal(t, []ecm.Entity{2, 3}, getEntities(t, m, tags(si.TagsFilter_FILTER_MODE_ANY, "mobile", "arm")))
}

// TestDocEntityFiltersBounds reproduces simulation_interfaces msg/EntityFilters.msg,
// field "bounds" (with msg/Bounds.msg): empty bounds apply no filter; otherwise the
// entities overlapping the bounds are returned; TYPE_SPHERE must be supported (first
// point the center, second point's x the radius); an unsupported type is
// RESULT_FEATURE_UNSUPPORTED (ddsgo: errs.ErrUnsupported). ddsgo's Bounds constants
// follow the current Bounds.msg, which has TYPE_EMPTY = 0. An entity with empty
// bounds (sky) is unbounded and overlaps everything; one without a pose (world) does
// not match.
func TestDocEntityFiltersBounds(t *testing.T) {
	m := entityFiltersWorld(t)
	require.Equal(t, []ecm.Entity{1, 2, 3, 4, 5, 6}, getEntities(t, m, si.EntityFilters{}), "empty bounds: no filter")
	// r=1 at (1.4,0,0) overlaps robot_1's sphere (r .5 at 0), not alice at 3.
	require.Equal(t, []ecm.Entity{2, 6}, getEntities(t, m, si.EntityFilters{Bounds: sphereBounds(1.4, 0, 0, 1)}))
	require.Equal(t, []ecm.Entity{2, 4, 6}, getEntities(t, m, si.EntityFilters{Bounds: sphereBounds(1.5, 0, 0, 1.5)}))
	box := si.Bounds{Type: si.Bounds_TYPE_BOX, Points: []geometry_msgs.Vector3{{X: 25, Y: 1, Z: 1}, {X: 9, Y: -1, Z: -1}}}
	require.Equal(t, []ecm.Entity{3, 5, 6}, getEntities(t, m, si.EntityFilters{Bounds: box}), "box")
	_, err := sim.GetEntities(m, si.EntityFilters{Bounds: si.Bounds{Type: 9, Points: []geometry_msgs.Vector3{{}, {X: 1}}}})
	require.ErrorIs(t, err, errs.ErrUnsupported, "unsupported bounds type")
}

// TestDocEntityFiltersCombined reproduces simulation_interfaces msg/EntityFilters.msg:
// filter, categories, tags (and bounds) apply together, each field says "Applies
// together with other filters".
func TestDocEntityFiltersCombined(t *testing.T) {
	m := entityFiltersWorld(t)
	f := si.EntityFilters{
		Filter:     "robot_.*",
		Categories: []si.EntityCategory{{Category: si.EntityCategory_CATEGORY_ROBOT}},
		Tags:       si.TagsFilter{Tags: []string{"mobile"}},
		Bounds:     sphereBounds(10, 0, 0, 0.1),
	}
	require.Equal(t, []ecm.Entity{3}, getEntities(t, m, f))
	f.Filter = "alice"
	require.Empty(t, getEntities(t, m, f))
	// Compiled once, the same filter selects the same entities.
	c, err := sim.CompileFilter(si.EntityFilters{Filter: "robot_.*", Tags: si.TagsFilter{Tags: []string{"arm"}}})
	require.NoError(t, err)
	require.Equal(t, []ecm.Entity{2}, c.AppendEntities(nil, m))
}
