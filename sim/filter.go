package sim

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/errs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// filterError is why CompileFilter refused a filter: a malformed one is
// errs.ErrBadParameter, a bounds type it does not know errs.ErrUnsupported (what the
// services answer with simulation_interfaces RESULT_FEATURE_UNSUPPORTED).
type filterError struct {
	unsupported bool
	msg         string
}

func (e *filterError) Error() string { return "sim: " + e.msg }

// Unwrap returns the DDS return code of the error.
func (e *filterError) Unwrap() error {
	if e.unsupported {
		return errs.ErrUnsupported
	}
	return errs.ErrBadParameter
}

func invalid(msg string) error { return &filterError{msg: msg} }

func itoa(i int) string { return strconv.Itoa(i) }

// Filter is a compiled simulation_interfaces EntityFilters.
//
// The candidates are the entities with a Name component. The bounds filter places an
// entity's Bounds at its world pose (see WorldPose); an entity whose Bounds are
// TYPE_EMPTY is unbounded and overlaps everything; an entity without Bounds counts
// as the point at its world position if it (or an ancestor) has a Pose, and does not
// match otherwise; an entity whose Bounds are malformed does not match.
type Filter struct {
	name   *regexp.Regexp
	prefix string // that every name the regular expression matches starts with
	exact  bool   // the regular expression is the literal prefix
	cats   []Category
	tags   si.TagsFilter
	bounds *convex
}

// CompileFilter checks and compiles f. Every filter of f that is set must match (AND);
// a zero EntityFilters selects every named entity:
//
//   - Filter is a POSIX extended regular expression that must match the whole Name of
//     the entity; "" matches every name.
//   - Categories selects entities of any of these categories; none means no
//     filtering. An entity without a Category component is a CategoryObject.
//   - Tags selects entities with any (FILTER_MODE_ANY) or all (FILTER_MODE_ALL) of
//     its tags; no tags means no filtering.
//   - Bounds selects entities that overlap these bounds (in the world frame);
//     TYPE_EMPTY means no filtering. See Filter for entities without Bounds.
//
// A malformed filter (bad regular expression, unknown category or tags mode, malformed
// bounds) is an error wrapping errs.ErrBadParameter; a bounds type it does not know, one
// wrapping errs.ErrUnsupported.
func CompileFilter(f si.EntityFilters) (*Filter, error) {
	c := &Filter{}
	if f.Filter != "" {
		// CompilePOSIX accepts POSIX ERE syntax only and matches leftmost-longest:
		// the whole name matches iff the match found spans it (a match that spans it
		// starts leftmost and is the longest there). This needs no anchors wrapped
		// around the pattern, which a pattern like "a)|(b" could escape.
		re, err := regexp.CompilePOSIX(f.Filter)
		if err != nil {
			return nil, invalid("name filter: " + err.Error())
		}
		c.name = re
		c.prefix, c.exact = re.LiteralPrefix()
	}
	for _, ec := range f.Categories {
		switch cat := Category(ec.Category); cat {
		case CategoryObject, CategoryRobot, CategoryHuman, CategoryDynamicObject, CategoryStaticObject:
			c.cats = append(c.cats, cat)
		default:
			return nil, invalid("unknown category " + itoa(int(cat)))
		}
	}
	c.tags = si.TagsFilter{Tags: slices.Clone(f.Tags.Tags), FilterMode: f.Tags.FilterMode}
	if f.Tags.FilterMode > si.TagsFilter_FILTER_MODE_ALL {
		return nil, invalid("unknown tags filter mode " + itoa(int(f.Tags.FilterMode)))
	}
	b := boundsFrom(f.Bounds)
	if err := checkBounds(b); err != nil {
		return nil, err
	}
	if b.Type != si.Bounds_TYPE_EMPTY {
		s := shapeOf(b, Pose{Orientation: identityQuaternion})
		c.bounds = &s
	}
	return c, nil
}

// boundsFrom converts simulation_interfaces Bounds.
func boundsFrom(b si.Bounds) Bounds {
	out := Bounds{Type: b.Type, Points: make([]Vector3, len(b.Points))}
	for i, p := range b.Points {
		out.Points[i] = Vector3{p.X, p.Y, p.Z}
	}
	return out
}

// Match reports whether entity e passes the filter.
func (f *Filter) Match(s ParentSource, e ecm.Entity) bool {
	name, ok := ecm.ComponentData[Name](s, e)
	return ok && f.match(s, e, name)
}

func (f *Filter) match(s ParentSource, e ecm.Entity, name Name) bool {
	if f.name != nil && !f.nameMatches(string(name)) {
		return false
	}
	if len(f.cats) > 0 {
		cat, _ := ecm.ComponentData[Category](s, e)
		if !slices.Contains(f.cats, cat) {
			return false
		}
	}
	if len(f.tags.Tags) > 0 {
		tags, _ := ecm.ComponentData[Tags](s, e)
		if !tagsMatch(f.tags, tags) {
			return false
		}
	}
	if f.bounds != nil {
		return f.overlaps(s, e)
	}
	return true
}

// nameMatches reports whether the regular expression matches the whole name. A
// whole-name match starts at 0, so with the literal that begins every match: most names
// of a large world need no run of the regular expression.
func (f *Filter) nameMatches(name string) bool {
	if !strings.HasPrefix(name, f.prefix) {
		return false
	}
	if f.exact {
		return len(name) == len(f.prefix)
	}
	loc := f.name.FindStringIndex(name)
	return loc != nil && loc[0] == 0 && loc[1] == len(name)
}

func tagsMatch(f si.TagsFilter, tags Tags) bool {
	if f.FilterMode == si.TagsFilter_FILTER_MODE_ALL {
		for _, t := range f.Tags {
			if !slices.Contains(tags, t) {
				return false
			}
		}
		return true
	}
	for _, t := range f.Tags {
		if slices.Contains(tags, t) {
			return true
		}
	}
	return false
}

func (f *Filter) overlaps(s ParentSource, e ecm.Entity) bool {
	pose, posed := WorldPose(s, e)
	b, ok := ecm.ComponentData[Bounds](s, e)
	if !ok {
		if !posed {
			return false
		}
		pt := convex{pts: []Vector3{pose.Position}}
		return overlap(&pt, f.bounds)
	}
	if checkBounds(b) != nil {
		return false
	}
	if b.Type == si.Bounds_TYPE_EMPTY {
		return true
	}
	sh := shapeOf(b, pose)
	return overlap(&sh, f.bounds)
}

// AppendEntities appends the entities that pass the filter to dst, in ascending
// order.
func (f *Filter) AppendEntities(dst []ecm.Entity, s ParentSource) []ecm.Entity {
	ecm.EachRO1(s, func(e ecm.Entity, n Name) bool {
		if f.match(s, e, n) {
			dst = append(dst, e)
		}
		return true
	})
	return dst
}

// GetEntities returns, in ascending order, the entities of s that pass the filters (none
// may), or the error of a malformed or unsupported filter (see CompileFilter).
func GetEntities(s ParentSource, filters si.EntityFilters) ([]ecm.Entity, error) {
	f, err := CompileFilter(filters)
	if err != nil {
		return nil, err
	}
	return f.AppendEntities(nil, s), nil
}
