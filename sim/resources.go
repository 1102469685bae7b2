package sim

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// resourcePathEnv names Gazebo's list of directories where models and worlds are
// found (gz-sim's GZ_SIM_RESOURCE_PATH), separated by the OS's list separator.
const resourcePathEnv = "GZ_SIM_RESOURCE_PATH"

// maxResourceSize bounds an SDF document read from a file.
const maxResourceSize = 16 << 20

// resourceProblem says why a resource's uri could not be read; each service maps it to
// its own code.
type resourceProblem int

const (
	resourceUnsupported resourceProblem = iota + 1 // a scheme this simulator does not read
	resourceUnreadable                             // not found, or not readable
)

type resourceError struct {
	problem resourceProblem
	msg     string
}

func (e *resourceError) Error() string { return e.msg }

// resourceDirs returns the resource path: $GZ_SIM_RESOURCE_PATH's directories, then
// those given to NewServices.
func (s *Services) resourceDirs() []string {
	return append(envResourceDirs(), s.resources...)
}

// envResourceDirs returns the directories of $GZ_SIM_RESOURCE_PATH.
func envResourceDirs() []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv(resourcePathEnv)) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// readResource returns the SDF document of a resource: its resource_string, or the file
// its uri names — file:///abs/path, an absolute path, model://NAME, or a path relative
// to a directory of the resource path.
func (s *Services) readResource(r si.Resource) (string, error) {
	if r.ResourceString != "" || r.URI == "" {
		return r.ResourceString, nil
	}
	path, err := s.resolve(r.URI)
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &resourceError{resourceUnreadable, err.Error()}
	}
	defer func() { _ = f.Close() }() // read only
	b, err := io.ReadAll(io.LimitReader(f, maxResourceSize+1))
	switch {
	case err != nil:
		return "", &resourceError{resourceUnreadable, err.Error()}
	case len(b) > maxResourceSize:
		return "", &resourceError{resourceUnreadable, path + " is larger than 16 MiB"}
	}
	return string(b), nil
}

// resolve returns the file a uri names.
func (s *Services) resolve(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", &resourceError{resourceUnreadable, "malformed uri: " + err.Error()}
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return "", &resourceError{resourceUnsupported, "file uri of another host " + u.Host}
		}
		return u.Path, nil
	case "model":
		name := u.Host + u.Path
		return s.find(uri, filepath.Join(name, "model.sdf"), name+".sdf")
	case "":
		if filepath.IsAbs(uri) {
			return uri, nil
		}
		return s.find(uri, uri)
	default:
		return "", &resourceError{resourceUnsupported, "uri scheme " + u.Scheme + ": only file://, model:// and paths are read (no network)"}
	}
}

// find returns the first of the relative names that exists in a directory of the
// resource path.
func (s *Services) find(uri string, names ...string) (string, error) {
	dirs := s.resourceDirs()
	for _, d := range dirs {
		for _, n := range names {
			p := filepath.Join(d, filepath.FromSlash(n))
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	return "", &resourceError{resourceUnreadable, uri + " is not in the resource path " + strings.Join(dirs, string(filepath.ListSeparator)) + " (" + resourcePathEnv + ")"}
}

// resourceResult maps a readResource error to a Result with the codes of a service.
func resourceResult(err error, unsupported, unreadable uint8) si.Result {
	var re *resourceError
	if errors.As(err, &re) && re.problem == resourceUnsupported {
		return failed(unsupported, re.msg)
	}
	return failed(unreadable, err.Error())
}

// sdfFile is what an SDF file of a resource directory holds.
type sdfFile struct {
	uri   string
	model string // the name of its one model, if it is a model
	world string // the name of its world, if it is a world
	desc  string
}

// scanResources lists the models and worlds of the directories: every NAME/model.sdf
// (as model://NAME, described by NAME/model.config) and every *.sdf file that holds a
// model or a world. It returns the directories it could not read.
func scanResources(dirs []string) (files []sdfFile, bad []string) {
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			bad = append(bad, d)
			continue
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			switch {
			case e.IsDir():
				if f, ok := readSDF(filepath.Join(p, "model.sdf")); ok && f.model != "" {
					f.uri, f.desc = "model://"+e.Name(), modelDescription(filepath.Join(p, "model.config"))
					files = append(files, f)
				}
			case strings.HasSuffix(e.Name(), ".sdf"):
				if f, ok := readSDF(p); ok {
					abs, _ := filepath.Abs(p)
					f.uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
					files = append(files, f)
				}
			}
		}
	}
	return files, bad
}

// readSDF reads what an SDF file holds; ok is false when it is no SDF document.
func readSDF(path string) (sdfFile, bool) {
	f, err := os.Open(path)
	if err != nil {
		return sdfFile{}, false
	}
	defer func() { _ = f.Close() }() // read only
	root, err := ParseElement(io.LimitReader(f, maxResourceSize))
	if err != nil {
		return sdfFile{}, false
	}
	var out sdfFile
	top := []*Element{root}
	if root.Name == "sdf" {
		top = root.Children
	}
	for _, el := range top {
		switch el.Name {
		case "world":
			out.world, _ = el.Attr("name")
		case "model":
			out.model, _ = el.Attr("name")
		}
	}
	return out, out.world != "" || out.model != ""
}

// modelDescription returns the <description> of a Gazebo model.config, if any.
func modelDescription(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }() // read only
	root, err := ParseElement(io.LimitReader(f, 1<<20))
	if err != nil {
		return ""
	}
	if d := root.Child("description"); d != nil {
		return d.TrimmedText()
	}
	return ""
}

// sourcesNote names the sources that could not be read, for an error message.
func sourcesNote(bad []string) string {
	if len(bad) == 0 {
		return ""
	}
	return "cannot read " + strings.Join(bad, ", ")
}

// GetSpawnables lists the models of the resource path and of the request's sources
// (directories); sources that cannot be read are named in the message, and do not make
// the call fail (GetSpawnables.srv).
func (s *Services) GetSpawnables(_ context.Context, q *si.GetSpawnablesRequest) (rep si.GetSpawnablesResponse) {
	files, bad := scanResources(append(s.resourceDirs(), q.Sources...))
	for _, f := range files {
		if f.model != "" {
			rep.Spawnables = append(rep.Spawnables, si.Spawnable{
				EntityResource: si.Resource{URI: f.uri}, Description: f.desc,
			})
		}
	}
	rep.Result = resultOK()
	rep.Result.ErrorMessage = sourcesNote(bad)
	return rep
}

// GetAvailableWorlds lists the worlds of the resource path (the default sources) and of
// the request's additional sources. Worlds have no tags in SDF: a tags filter is
// unsupported.
func (s *Services) GetAvailableWorlds(_ context.Context, q *si.GetAvailableWorldsRequest) (rep si.GetAvailableWorldsResponse) {
	if len(q.Filter.Tags) > 0 {
		rep.Result = failed(si.Result_RESULT_FEATURE_UNSUPPORTED, "SDF worlds have no tags to filter by")
		return rep
	}
	defaults := s.resourceDirs()
	files, badDefault := scanResources(defaults)
	more, badMore := scanResources(q.AdditionalSources)
	if len(badMore) > 0 && !q.ContinueOnError {
		rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, sourcesNote(badMore))
		return rep
	}
	for _, f := range append(files, more...) {
		if f.world != "" {
			rep.Worlds = append(rep.Worlds, si.WorldResource{Name: f.world, WorldResource: si.Resource{URI: f.uri}})
		}
	}
	switch {
	case len(badDefault) > 0 && (len(rep.Worlds) == 0 || !q.ContinueOnError):
		rep.Result = failed(si.GetAvailableWorldsResponse_DEFAULT_SOURCES_FAILED, sourcesNote(badDefault))
	default:
		rep.Result = resultOK()
		rep.Result.ErrorMessage = sourcesNote(append(badDefault, badMore...))
	}
	return rep
}

// GetNamedPoseBounds answers for the named poses of GetNamedPoses (the world's <frame>
// elements): an SDF frame is a pose without extent, so it has no bounds to give.
func (s *Services) GetNamedPoseBounds(_ context.Context, q *si.GetNamedPoseBoundsRequest) (rep si.GetNamedPoseBoundsResponse) {
	found := false
	s.r.do(func(m *ecm.Manager) {
		ecm.EachRO2(m, func(_ ecm.Entity, n Name, _ Frame) bool {
			found = found || string(n) == q.Name
			return !found
		})
	})
	if !found {
		rep.Result = failed(si.Result_RESULT_NOT_FOUND, "no named pose "+q.Name)
		return rep
	}
	rep.Result = failed(si.Result_RESULT_FEATURE_UNSUPPORTED, "named poses are SDF frames, which have no bounds")
	return rep
}
