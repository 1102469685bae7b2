package sim

import (
	"strconv"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
)

// UpdateInfo describes the simulation step that the systems are called for.
//
// SimTime is not the time at the start of the step but the time reached after PreUpdate
// and Update of this step: a runner started unpaused first calls the systems with
// SimTime == Dt == StepSize and Iterations == 1; a paused step leaves SimTime and
// Iterations unchanged and has Dt == 0. On the reset step SimTime is back at the initial
// sim time, Iterations and RealTime are 0, and Dt is the (negative or zero) jump back.
type UpdateInfo struct {
	// SimTime is the simulation time reached at the end of this step.
	SimTime time.Duration
	// RealTime is the wall-clock time spent running unpaused since the start (or the
	// last reset), measured at the start of the step.
	RealTime time.Duration
	// Dt is the simulation time advanced by this step: the step size, 0 when paused,
	// and the jump back to the initial time on the reset step.
	Dt time.Duration
	// Iterations counts the unpaused steps since the start (or the last reset),
	// including this one.
	Iterations uint64
	// Paused reports whether this step is paused.
	Paused bool
}

// System is a simulation system: any value. What it does is given by the optional
// interfaces it implements: Configurer, Resetter, PreUpdater, Updater, PostUpdater and
// Prioritizer.
type System any

// Factory makes a new instance of a system; a Registry maps plugin names to factories.
type Factory func() System

// Configurer is implemented by systems that read their configuration. Configure is
// called once when the system is added to a Runner, with the entity it is attached to,
// its configuration (the <plugin> element of a world file; an empty element when it
// was added without one) and the Manager. An error keeps the system out.
type Configurer interface {
	Configure(entity ecm.Entity, config *Element, m *ecm.Manager) error
}

// Resetter is implemented by systems that can return to their initial state. Reset is
// called on the reset step, after the Manager was restored, in load order. A system
// without Reset is made anew by its Factory and configured again; a system added
// without a Factory is kept as it is.
type Resetter interface {
	Reset(info UpdateInfo, m *ecm.Manager)
}

// PreUpdater is implemented by systems that act before the world advances (apply
// commands, controls). PreUpdate runs on the runner's goroutine, in priority order.
type PreUpdater interface {
	PreUpdate(info UpdateInfo, m *ecm.Manager)
}

// Updater is implemented by systems that advance the world (physics). Update runs on
// the runner's goroutine after every PreUpdate, in priority order.
type Updater interface {
	Update(info UpdateInfo, m *ecm.Manager)
}

// PostUpdater is implemented by systems that read the results of a step (sensors,
// publishers). PostUpdate gets a read-only view of the Manager, so it cannot write at
// compile time; the PostUpdate calls of one step may run in parallel, each on its own
// goroutine, and the step ends when all have returned.
type PostUpdater interface {
	PostUpdate(info UpdateInfo, r ecm.Reader)
}

// Prioritizer is implemented by systems with a default priority other than
// DefaultPriority. A <gz:system_priority> element in the configuration overrides it
// (the prefix is required, as in Gazebo; <system_priority> is a configuration error).
type Prioritizer interface {
	Priority() int32
}

// Priorities of the PreUpdate and Update phases: smaller runs earlier, equal priorities
// run in load order. The named values are Gazebo's.
const (
	DefaultPriority           int32 = 0
	UserCommandsPriority      int32 = -16384
	PrePhysicsPriority        int32 = -128
	PhysicsPriority           int32 = -64
	PostPhysicsSensorPriority int32 = -32
)

// priorityElement is the name of the configuration element that sets a system's
// priority, as in Gazebo.
const priorityElement = "gz:system_priority"

// SystemConfig describes how a system is attached to a Runner.
type SystemConfig struct {
	// Name names the system in log messages (the plugin name of a world file).
	Name string
	// Entity is the entity the system is attached to, given to Configure.
	Entity ecm.Entity
	// Element is the system's configuration; nil means an empty <plugin> element.
	Element *Element
	// Factory, when set, makes a fresh instance of the system on reset if the
	// system does not implement Resetter.
	Factory Factory
}

// priorityOf returns the priority of s configured by el. Gazebo reads only
// <gz:system_priority> and passes any other element to the plugin, so a
// <system_priority> without the prefix (or with another one, such as "ign:") would
// silently leave the priority unset: it is an error instead.
func priorityOf(s System, el *Element) (int32, error) {
	p := DefaultPriority
	if pr, ok := s.(Prioritizer); ok {
		p = pr.Priority()
	}
	if el != nil {
		for _, c := range el.Children {
			if c.Name != priorityElement && (c.Name == "system_priority" || strings.HasSuffix(c.Name, ":system_priority")) {
				return 0, &LineError{Line: c.Line, Msg: "<" + c.Name + "> is not read: the priority element is <" + priorityElement + ">"}
			}
		}
	}
	if c := el.Child(priorityElement); c != nil {
		v, err := strconv.ParseInt(c.TrimmedText(), 10, 32)
		if err != nil {
			return 0, &LineError{Line: c.Line, Msg: "bad " + priorityElement + " " + strconv.Quote(c.TrimmedText())}
		}
		p = int32(v)
	}
	return p, nil
}
