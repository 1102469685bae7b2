package sim

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/sim/ecm"
)

// ResultCode is the result of a simulation service call, as simulation_interfaces
// Result.
type ResultCode uint8

// Result codes of simulation_interfaces Result, and ResultInvalidArgument, a
// service-specific code (values above 100 are left to services).
const (
	ResultFeatureUnsupported ResultCode = 0
	ResultOK                 ResultCode = 1
	ResultNotFound           ResultCode = 2
	ResultIncorrectState     ResultCode = 3
	ResultOperationFailed    ResultCode = 4
	// ResultInvalidArgument reports a malformed request, such as a name filter that
	// is not a valid POSIX extended regular expression.
	ResultInvalidArgument ResultCode = 101
)

// resultNames are the names String gives the result codes.
var resultNames = map[ResultCode]string{
	ResultFeatureUnsupported: "feature unsupported",
	ResultOK:                 "ok",
	ResultNotFound:           "not found",
	ResultIncorrectState:     "incorrect state",
	ResultOperationFailed:    "operation failed",
	ResultInvalidArgument:    "invalid argument",
}

// String returns the name of c.
func (c ResultCode) String() string {
	if name, ok := resultNames[c]; ok {
		return name
	}
	return "result " + strconv.Itoa(int(c))
}

// Result is a result code with a message, as simulation_interfaces Result.
type Result struct {
	Code    ResultCode
	Message string
}

// Err returns nil for ResultOK, otherwise a *ResultError.
func (r Result) Err() error {
	if r.Code == ResultOK {
		return nil
	}
	return &ResultError{Code: r.Code, Message: r.Message}
}

// ResultError is a failed Result as an error.
type ResultError struct {
	Code    ResultCode
	Message string
}

// Error returns "sim: <code>: <message>".
func (e *ResultError) Error() string { return "sim: " + e.Code.String() + ": " + e.Message }

// Result returns e as a Result.
func (e *ResultError) Result() Result { return Result{Code: e.Code, Message: e.Message} }

func invalid(msg string) error { return &ResultError{Code: ResultInvalidArgument, Message: msg} }

func itoa(i int) string { return strconv.Itoa(i) }

// TagsFilterMode says whether an entity needs any or all of the tags of a TagsFilter.
type TagsFilterMode uint8

// Tags filter modes, as simulation_interfaces TagsFilter.
const (
	TagsAny TagsFilterMode = 0
	TagsAll TagsFilterMode = 1
)

// TagsFilter selects entities by their Tags. No tags means no filtering.
type TagsFilter struct {
	Tags []string
	Mode TagsFilterMode
}

// EntityFilters selects entities, as simulation_interfaces EntityFilters. Every filter
// that is set must match (AND); a zero EntityFilters selects every named entity.
type EntityFilters struct {
	// Name is a POSIX extended regular expression that must match the whole Name of
	// the entity; "" matches every name.
	Name string
	// Categories selects entities of any of these categories; none means no
	// filtering. An entity without a Category component is a CategoryObject.
	Categories []Category
	// Tags selects entities by tags.
	Tags TagsFilter
	// Bounds selects entities that overlap these bounds (in the world frame);
	// BoundsEmpty means no filtering. See Filter for entities without Bounds.
	Bounds Bounds
}

// Filter is a compiled EntityFilters.
//
// The candidates are the entities with a Name component. The bounds filter places an
// entity's Bounds at its world pose (see WorldPose); an entity whose Bounds are
// BoundsEmpty is unbounded and overlaps everything; an entity without Bounds counts
// as the point at its world position if it (or an ancestor) has a Pose, and does not
// match otherwise; an entity whose Bounds are malformed does not match.
type Filter struct {
	name   *regexp.Regexp
	prefix string // that every name the regular expression matches starts with
	exact  bool   // the regular expression is the literal prefix
	cats   []Category
	tags   TagsFilter
	bounds *convex
}

// CompileFilter checks and compiles f. A malformed filter (bad regular expression,
// unknown category or tags mode, malformed bounds) gives a *ResultError with
// ResultInvalidArgument; a bounds type it does not know, ResultFeatureUnsupported.
func CompileFilter(f EntityFilters) (*Filter, error) {
	c := &Filter{tags: f.Tags}
	if f.Name != "" {
		// CompilePOSIX accepts POSIX ERE syntax only and matches leftmost-longest:
		// the whole name matches iff the match found spans it (a match that spans it
		// starts leftmost and is the longest there). This needs no anchors wrapped
		// around the pattern, which a pattern like "a)|(b" could escape.
		re, err := regexp.CompilePOSIX(f.Name)
		if err != nil {
			return nil, invalid("name filter: " + err.Error())
		}
		c.name = re
		c.prefix, c.exact = re.LiteralPrefix()
	}
	for _, cat := range f.Categories {
		switch cat {
		case CategoryObject, CategoryRobot, CategoryHuman, CategoryDynamicObject, CategoryStaticObject:
		default:
			return nil, invalid("unknown category " + itoa(int(cat)))
		}
	}
	c.cats = slices.Clone(f.Categories)
	c.tags.Tags = slices.Clone(f.Tags.Tags)
	if f.Tags.Mode > TagsAll {
		return nil, invalid("unknown tags filter mode " + itoa(int(f.Tags.Mode)))
	}
	if err := checkBounds(f.Bounds); err != nil {
		return nil, err
	}
	if f.Bounds.Type != BoundsEmpty {
		s := shapeOf(f.Bounds, Pose{Orientation: identityQuaternion})
		c.bounds = &s
	}
	return c, nil
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

func tagsMatch(f TagsFilter, tags Tags) bool {
	if f.Mode == TagsAll {
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
	if b.Type == BoundsEmpty {
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

// GetEntities returns, in ascending order, the entities of s that pass the filters,
// with ResultOK (also when none does), or no entities and the error result of a
// malformed or unsupported filter (see CompileFilter).
func GetEntities(s ParentSource, filters EntityFilters) ([]ecm.Entity, Result) {
	f, err := CompileFilter(filters)
	if err != nil {
		var re *ResultError
		errors.As(err, &re)
		return nil, re.Result()
	}
	return f.AppendEntities(nil, s), Result{Code: ResultOK}
}
