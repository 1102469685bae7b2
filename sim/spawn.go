package sim

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// rosNamespace is a valid ROS 2 namespace: tokens of letters, digits and underscores,
// not starting with a digit, separated by single slashes, optionally absolute.
var rosNamespace = regexp.MustCompile(`^/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$`)

// SpawnEntity answers spawn_entity: it adds an SDF model, given as a string or by
// uri, to the world.
func (s *Services) SpawnEntity(_ context.Context, q *si.SpawnEntityRequest) si.SpawnEntityResponse {
	req := si.SpawnEntity(*q) // the same fields
	var res si.SpawnResult
	s.r.do(func(m *ecm.Manager) { res = s.spawn(m, &req) })
	return si.SpawnEntityResponse(res)
}

// SpawnEntities spawns each entity independently, in order: a failed one changes
// nothing, and the others are spawned.
func (s *Services) SpawnEntities(_ context.Context, q *si.SpawnEntitiesRequest) si.SpawnEntitiesResponse {
	rep := si.SpawnEntitiesResponse{Result: resultOK(), Results: make([]si.SpawnResult, len(q.SpawnRequests))}
	s.r.do(func(m *ecm.Manager) {
		for i := range q.SpawnRequests {
			rep.Results[i] = s.spawn(m, &q.SpawnRequests[i])
			if rep.Results[i].Result.Result != si.Result_RESULT_OK {
				rep.Result = failed(si.SpawnEntitiesResponse_ENTITIES_SPAWN_FAILED,
					"spawn request "+itoa(i)+" failed: "+rep.Results[i].Result.ErrorMessage)
			}
		}
	})
	return rep
}

// spawn spawns the entity of q in m (between steps) and remembers it. A uri resource
// is read first.
func (s *Services) spawn(m *ecm.Manager, q *si.SpawnEntity) si.SpawnResult {
	doc, err := s.readResource(q.EntityResource)
	if err != nil {
		return si.SpawnResult{Result: resourceResult(err, si.SpawnResult_UNSUPPORTED_FORMAT, si.SpawnResult_RESOURCE_PARSE_ERROR)}
	}
	withDoc := *q
	withDoc.EntityResource.ResourceString = doc
	res := spawn(m, &withDoc)
	if e, ok := topNamed(m, res.EntityName); ok && res.Result.Result == si.Result_RESULT_OK {
		s.r.mu.Lock()
		resets := s.r.resetsDone
		s.r.mu.Unlock()
		s.spawned = append(s.spawned, spawnedEntity{e, res.EntityName, resets})
	}
	return res
}

// spawn checks a spawn request and builds its model in m as a child of the world,
// with the name and pose of the request. The codes are SpawnEntity's (SpawnResult's).
func spawn(m *ecm.Manager, q *si.SpawnEntity) si.SpawnResult {
	fail := func(code uint8, msg string) si.SpawnResult { return si.SpawnResult{Result: failed(code, msg)} }
	switch {
	case q.EntityResource.ResourceString == "" && q.EntityResource.URI == "":
		return fail(si.SpawnResult_NO_RESOURCE, "both uri and resource_string are empty")
	case q.EntityResource.ResourceString == "":
		return fail(si.SpawnResult_RESOURCE_PARSE_ERROR, "the uri was not read") // Services.spawn reads it
	case q.EntityNamespace != "" && !rosNamespace.MatchString(q.EntityNamespace):
		return fail(si.SpawnResult_NAMESPACE_INVALID, "invalid namespace "+strconv.Quote(q.EntityNamespace))
	}
	model, res := parseModel(q.EntityResource.ResourceString)
	if res.Result != si.Result_RESULT_OK {
		return si.SpawnResult{Result: res}
	}
	pose, res := poseFrom(q.InitialPose.Pose, si.SpawnResult_INVALID_POSE)
	if res.Result != si.Result_RESULT_OK {
		return si.SpawnResult{Result: res}
	}
	if !knownFrame(m, q.InitialPose.Header.FrameID) {
		return fail(si.SpawnResult_INVALID_POSE, "unknown frame "+strconv.Quote(q.InitialPose.Header.FrameID))
	}
	name, res := spawnName(m, q, model)
	if res.Result != si.Result_RESULT_OK {
		return si.SpawnResult{Result: res}
	}
	setAttr(model, "name", name)
	// Build in a scratch Manager first, so that an error deep in the model leaves m
	// as it was.
	scratch := ecm.New()
	RegisterComponents(scratch)
	if err := (&loader{m: scratch}).buildModel(model, ecm.Null, map[string]bool{}, 1); err != nil {
		return fail(si.SpawnResult_RESOURCE_PARSE_ERROR, err.Error())
	}
	RegisterComponents(m)
	world, _, _ := ecm.FirstRO[World](m)
	l := &loader{m: m}
	_ = l.buildModel(model, world, map[string]bool{}, 1) // cannot fail: it did not in scratch
	e, _ := topNamed(m, name)
	set(m, e, framePose(m, q.InitialPose.Header.FrameID).compose(pose))
	return si.SpawnResult{Result: resultOK(), EntityName: name}
}

// parseModel parses an SDF document of one model: <sdf> with one <model>, or <model>.
// Plugins are not supported (the services have no registry of systems).
func parseModel(doc string) (*Element, si.Result) {
	root, err := ParseElement(strings.NewReader(doc))
	if err != nil {
		return nil, failed(si.SpawnResult_RESOURCE_PARSE_ERROR, err.Error())
	}
	model := root
	switch root.Name {
	case "model":
	case "sdf":
		models := root.ChildrenNamed("model")
		if len(models) != 1 || len(root.ChildrenNamed("world")) > 0 {
			return nil, failed(si.SpawnResult_RESOURCE_PARSE_ERROR, "an <sdf> to spawn holds exactly one <model> and no <world>")
		}
		model = models[0]
	default:
		return nil, failed(si.SpawnResult_UNSUPPORTED_FORMAT, "root element <"+root.Name+">: only SDF <sdf> or <model> is supported")
	}
	if hasPlugin(model) {
		return nil, failed(si.Result_RESULT_FEATURE_UNSUPPORTED, "plugins in spawned models are not supported")
	}
	return model, resultOK()
}

func hasPlugin(el *Element) bool {
	for _, c := range el.Children {
		if c.Name == "plugin" || hasPlugin(c) {
			return true
		}
	}
	return false
}

// spawnName returns the name of the new entity: the request's, else the model's;
// taken or empty names are renamed only if allowed.
func spawnName(m *ecm.Manager, q *si.SpawnEntity, model *Element) (string, si.Result) {
	name := q.Name
	if name == "" {
		name, _ = model.Attr("name")
	}
	if strings.Contains(name, "::") || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", failed(si.SpawnResult_NAME_INVALID, "invalid name "+strconv.Quote(name)+": no \"::\" nor control characters")
	}
	taken := func(n string) bool { _, ok := topNamed(m, n); return ok }
	switch {
	case name == "" && !q.AllowRenaming:
		return "", failed(si.SpawnResult_NAME_INVALID, "no name in the request nor in the model")
	case name != "" && !taken(name):
		return name, resultOK()
	case !q.AllowRenaming:
		return "", failed(si.SpawnResult_NAME_NOT_UNIQUE, "an entity is named "+strconv.Quote(name))
	}
	base := name
	if base == "" {
		base = "entity"
	}
	for i := 1; ; i++ {
		if n := base + "_" + itoa(i); !taken(n) {
			return n, resultOK()
		}
	}
}

// setAttr sets an attribute of el.
func setAttr(el *Element, name, value string) {
	for i := range el.Attrs {
		if el.Attrs[i].Name == name {
			el.Attrs[i].Value = value
			return
		}
	}
	el.Attrs = append(el.Attrs, Attr{Name: name, Value: value})
}
