package sim

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
)

// Registry maps plugin names to the factories of their systems. A <plugin> element is
// looked up by its name attribute, then by its filename attribute.
type Registry map[string]Factory

// LoadOptions configures LoadWorld.
type LoadOptions struct {
	// File names the input in error messages.
	File string
	// Registry makes the systems of <plugin> elements.
	Registry Registry
	// SkipUnknownPlugins skips <plugin> elements the Registry does not know
	// instead of failing, with a warning to the runner's Logger.
	SkipUnknownPlugins bool
}

// maxModelDepth bounds the nesting of models in a world file.
const maxModelDepth = 64

// LoadWorld reads a world from an SDF document and builds it in the Manager of r: it
// creates the entities, then adds the systems of the <plugin> elements to r, in
// document order. It returns the world entity.
//
// The SDF subset: the root is <sdf> with one <world>, or a <world>. A world has
// <model>, <frame> and <plugin> children; a model has <pose>, <static>, <link>, nested <model>
// (at most 64 deep) and <plugin>; a link has <pose> and <plugin>. Other elements are
// ignored. Worlds, models and links need a name attribute, unique among the siblings
// of a kind.
//
// Entities: the world gets World and Name; a model gets Model, Name, Pose and Static;
// a link gets Link, Name and Pose; a frame of the world (a named pose of Services)
// gets Name and Pose; each is a child of its enclosing element's entity in the parent
// graph. A <pose> holds "x y z roll pitch yaw" (radians, or degrees
// with degrees="true"), or "x y z qx qy qz qw" with rotation_format="quat_xyzw"; it
// is relative to the parent element (the relative_to attribute is ignored).
//
// A plugin's system is made by the Registry's factory and added with the plugin
// element as its configuration (Configure sees the whole world, and
// <gz:system_priority> in the element sets its priority). Errors are *LineError
// values with the line of the problem; on error the Manager may hold part of the
// world.
func LoadWorld(r *Runner, src io.Reader, opts LoadOptions) (ecm.Entity, error) {
	root, err := ParseElement(src)
	if err != nil {
		return ecm.Null, withFile(err, opts.File)
	}
	l := &loader{m: r.Manager(), file: opts.File}
	world, err := l.worldElement(root)
	if err != nil {
		return ecm.Null, err
	}
	RegisterComponents(l.m)
	we, err := l.buildWorld(world)
	if err != nil {
		return ecm.Null, err
	}
	for _, p := range l.plugins {
		if err := l.addPlugin(r, p, opts); err != nil {
			return ecm.Null, err
		}
	}
	return we, nil
}

// withFile sets the file name of a *LineError.
func withFile(err error, file string) error {
	var le *LineError
	if file != "" && errors.As(err, &le) && le.File == "" {
		le.File = file
	}
	return err
}

type pluginRef struct {
	el     *Element
	entity ecm.Entity
}

type loader struct {
	m       *ecm.Manager
	file    string
	plugins []pluginRef
}

func (l *loader) errorf(el *Element, msg string) error {
	return &LineError{File: l.file, Line: el.Line, Msg: msg}
}

// worldElement returns the <world> of the document.
func (l *loader) worldElement(root *Element) (*Element, error) {
	switch root.Name {
	case "world":
		return root, nil
	case "sdf":
		worlds := root.ChildrenNamed("world")
		switch len(worlds) {
		case 0:
			return nil, l.errorf(root, "no <world> in <sdf>")
		case 1:
			return worlds[0], nil
		default:
			return nil, l.errorf(worlds[1], "more than one <world>")
		}
	}
	return nil, l.errorf(root, "root element <"+root.Name+"> is neither <sdf> nor <world>")
}

// named creates an entity with marker component K and the Name of el, child of parent.
func named[K any](l *loader, el *Element, parent ecm.Entity, kind string, seen map[string]bool) (ecm.Entity, error) {
	name, ok := el.Attr("name")
	if !ok || name == "" {
		return ecm.Null, l.errorf(el, "<"+kind+"> without a name")
	}
	if seen[name] {
		return ecm.Null, l.errorf(el, "duplicate "+kind+" name "+strconv.Quote(name))
	}
	seen[name] = true
	var marker K
	e := ecm.Create2(l.m, marker, Name(name))
	if parent != ecm.Null {
		l.m.SetParentEntity(e, parent)
	}
	return e, nil
}

func (l *loader) buildWorld(el *Element) (ecm.Entity, error) {
	we, err := named[World](l, el, ecm.Null, "world", map[string]bool{})
	if err != nil {
		return ecm.Null, err
	}
	models, frames := map[string]bool{}, map[string]bool{}
	for _, c := range el.Children {
		switch c.Name {
		case "model":
			if err := l.buildModel(c, we, models, 1); err != nil {
				return ecm.Null, err
			}
		case "frame":
			if _, err := posed[Frame](l, c, we, "frame", frames); err != nil {
				return ecm.Null, err
			}
		case "plugin":
			l.plugins = append(l.plugins, pluginRef{c, we})
		}
	}
	return we, nil
}

// posed creates the entity of el like named, with the pose of its <pose> child.
func posed[K any](l *loader, el *Element, parent ecm.Entity, kind string, seen map[string]bool) (ecm.Entity, error) {
	e, err := named[K](l, el, parent, kind, seen)
	if err != nil {
		return e, err
	}
	pose, err := l.parsePose(el.Child("pose"))
	if err != nil {
		return e, err
	}
	ecm.CreateComponent(l.m, e, pose)
	return e, nil
}

func (l *loader) buildModel(el *Element, parent ecm.Entity, seen map[string]bool, depth int) error {
	if depth > maxModelDepth {
		return l.errorf(el, "models nested too deeply")
	}
	e, err := posed[Model](l, el, parent, "model", seen)
	if err != nil {
		return err
	}
	static := false
	if s := el.Child("static"); s != nil {
		if static, err = l.parseBool(s); err != nil {
			return err
		}
	}
	ecm.CreateComponent(l.m, e, Static(static))
	models, links := map[string]bool{}, map[string]bool{}
	for _, c := range el.Children {
		switch c.Name {
		case "model":
			if err := l.buildModel(c, e, models, depth+1); err != nil {
				return err
			}
		case "link":
			if err := l.buildLink(c, e, links); err != nil {
				return err
			}
		case "plugin":
			l.plugins = append(l.plugins, pluginRef{c, e})
		}
	}
	return nil
}

func (l *loader) buildLink(el *Element, parent ecm.Entity, seen map[string]bool) error {
	e, err := posed[Link](l, el, parent, "link", seen)
	if err != nil {
		return err
	}
	for _, c := range el.ChildrenNamed("plugin") {
		l.plugins = append(l.plugins, pluginRef{c, e})
	}
	return nil
}

// parsePose parses a <pose> element; nil or empty is the identity.
func (l *loader) parsePose(el *Element) (Pose, error) {
	p := Pose{Orientation: identityQuaternion}
	fields := strings.Fields(el.TrimmedText())
	if len(fields) == 0 {
		return p, nil
	}
	format, _ := el.Attr("rotation_format")
	want := 6
	switch format {
	case "", "euler_rpy":
	case "quat_xyzw":
		want = 7
	default:
		return p, l.errorf(el, "unknown rotation_format "+strconv.Quote(format))
	}
	if len(fields) != want {
		return p, l.errorf(el, "<pose> needs "+itoa(want)+" numbers, has "+itoa(len(fields)))
	}
	v := make([]float64, want)
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return p, l.errorf(el, "bad number "+strconv.Quote(f)+" in <pose>")
		}
		v[i] = x
	}
	p.Position = Vector3{v[0], v[1], v[2]}
	if want == 7 {
		p.Orientation = Quaternion{v[3], v[4], v[5], v[6]}.normalized()
		return p, nil
	}
	if deg, _ := el.Attr("degrees"); deg == "true" || deg == "1" {
		for i := 3; i < 6; i++ {
			v[i] *= math.Pi / 180
		}
	}
	p.Orientation = quaternionFromEuler(v[3], v[4], v[5])
	return p, nil
}

// parseBool parses an SDF boolean.
func (l *loader) parseBool(el *Element) (bool, error) {
	switch el.TrimmedText() {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, l.errorf(el, "bad boolean "+strconv.Quote(el.TrimmedText())+" in <"+el.Name+">")
}

func (l *loader) addPlugin(r *Runner, p pluginRef, opts LoadOptions) error {
	name, _ := p.el.Attr("name")
	file, _ := p.el.Attr("filename")
	if name == "" && file == "" {
		return l.errorf(p.el, "<plugin> without name or filename")
	}
	f, ok := opts.Registry[name]
	if !ok {
		f, ok = opts.Registry[file]
	}
	if !ok || f == nil {
		if opts.SkipUnknownPlugins {
			r.log.Warn("sim: unknown plugin skipped", "name", name, "filename", file, "line", p.el.Line)
			return nil
		}
		return l.errorf(p.el, "unknown plugin "+strconv.Quote(name)+" (filename "+strconv.Quote(file)+")")
	}
	e, err := r.newEntry(f(), SystemConfig{Name: name, Entity: p.entity, Element: p.el, Factory: f})
	if err == nil {
		r.pending = append(r.pending, e)
		return nil
	}
	var le *LineError
	if errors.As(err, &le) {
		return withFile(err, l.file)
	}
	return &LineError{File: l.file, Line: p.el.Line, Msg: "plugin " + strconv.Quote(name), Err: err}
}
