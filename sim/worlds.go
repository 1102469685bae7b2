package sim

import (
	"context"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// supportedChildren are the elements LoadWorld reads under each element it reads;
// the services have no Registry of systems, so <plugin> elements are not supported.
var supportedChildren = map[string][]string{
	"sdf":   {"world"},
	"world": {"model", "frame"},
	"frame": {"pose"},
	"model": {"pose", "static", "link", "model"},
	"link":  {"pose"},
}

// unsupportedElement returns the first element under el that LoadWorld would ignore.
func unsupportedElement(el *Element) *Element {
	for _, c := range el.Children {
		ok := false
		for _, n := range supportedChildren[el.Name] {
			ok = ok || c.Name == n
		}
		if !ok {
			return c
		}
		if u := unsupportedElement(c); u != nil {
			return u
		}
	}
	return nil
}

// checkWorld checks a world document as LoadWorld.srv asks, building it in a scratch
// runner: its codes are LoadWorld's.
func checkWorld(q *si.LoadWorldRequest) si.Result {
	res := q.WorldResource
	switch {
	case res.ResourceString == "" && res.URI == "":
		return failed(si.LoadWorldResponse_NO_RESOURCE, "both uri and resource_string are empty")
	case res.ResourceString == "":
		return failed(si.LoadWorldResponse_RESOURCE_PARSE_ERROR, "the uri was not read") // loadWorld reads it
	}
	root, err := ParseElement(strings.NewReader(res.ResourceString))
	if err != nil {
		return failed(si.LoadWorldResponse_RESOURCE_PARSE_ERROR, err.Error())
	}
	if root.Name != "sdf" && root.Name != "world" {
		return failed(si.LoadWorldResponse_UNSUPPORTED_FORMAT, "root element <"+root.Name+">: only SDF <sdf> or <world> is supported")
	}
	if u := unsupportedElement(root); u != nil && q.FailOnUnsupportedElement {
		return failed(si.LoadWorldResponse_UNSUPPORTED_ELEMENTS, "line "+itoa(u.Line)+": <"+u.Name+"> is not supported")
	}
	scratch, err := NewRunner(ecm.New(), Config{})
	if err != nil {
		return failed(si.Result_RESULT_OPERATION_FAILED, err.Error())
	}
	if _, err := LoadWorld(scratch, strings.NewReader(res.ResourceString), LoadOptions{SkipUnknownPlugins: true}); err != nil {
		return failed(si.LoadWorldResponse_RESOURCE_PARSE_ERROR, err.Error())
	}
	return resultOK()
}

// LoadWorld unloads the current world, if any, then builds the new one and leaves
// the simulation STOPPED: paused, the new world as its initial state, time rewound.
// Systems already added to the runner stay (a runner cannot drop them); the
// <plugin> elements of the new world are skipped.
func (s *Services) LoadWorld(ctx context.Context, req *si.LoadWorldRequest) (rep si.LoadWorldResponse) {
	doc, err := s.readResource(req.WorldResource)
	if err != nil {
		rep.Result = resourceResult(err, si.LoadWorldResponse_UNSUPPORTED_FORMAT, si.LoadWorldResponse_RESOURCE_PARSE_ERROR)
		return rep
	}
	q := *req
	q.WorldResource.ResourceString = doc
	if rep.Result = checkWorld(&q); rep.Result.Result != si.Result_RESULT_OK {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, stepWait)
	defer cancel()
	s.r.SetPaused(true)
	if err := s.unload(ctx); err != nil {
		rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, "unloading the current world: "+err.Error())
		return rep
	}
	var name Name
	s.r.do(func(m *ecm.Manager) {
		w, err := LoadWorld(s.r, strings.NewReader(q.WorldResource.ResourceString), LoadOptions{SkipUnknownPlugins: true})
		if err != nil { // checked before: cannot happen
			rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, err.Error())
			return
		}
		name, _ = ecm.ComponentData[Name](m, w)
		s.r.captured = false // the next step takes the new initial state
	})
	if rep.Result.Result != si.Result_RESULT_OK {
		return rep
	}
	if err := s.reset(ctx); err != nil {
		rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, err.Error())
		return rep
	}
	s.current = si.WorldResource{Name: string(name), WorldResource: req.WorldResource}
	rep.World = s.current
	return rep
}

// unload removes every entity and makes the empty Manager the initial state. Called
// with s.mu held.
func (s *Services) unload(ctx context.Context) error {
	var after uint64
	s.r.do(func(m *ecm.Manager) {
		m.RequestRemoveEntities()
		s.spawned = s.spawned[:0]
		s.r.mu.Lock()
		after = s.r.steps + 1
		s.r.mu.Unlock()
	})
	if err := s.r.waitUntil(ctx, func() bool { return s.r.steps >= after }); err != nil {
		return err
	}
	s.r.do(func(*ecm.Manager) { s.r.captured = false })
	s.current = si.WorldResource{}
	return nil
}

// UnloadWorld answers unload_world: it removes every entity and leaves the simulation
// without a world.
func (s *Services) UnloadWorld(ctx context.Context, _ *si.UnloadWorldRequest) si.UnloadWorldResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	var world bool
	s.r.do(func(m *ecm.Manager) { world = worldOf(m) != ecm.Null })
	if !world {
		return si.UnloadWorldResponse{Result: failed(si.UnloadWorldResponse_NO_WORLD_LOADED, "no world is loaded")}
	}
	ctx, cancel := context.WithTimeout(ctx, stepWait)
	defer cancel()
	s.r.SetPaused(true)
	if err := s.unload(ctx); err != nil {
		return si.UnloadWorldResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, err.Error())}
	}
	return si.UnloadWorldResponse{Result: resultOK()}
}
