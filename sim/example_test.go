package sim_test

import (
	"fmt"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/sim"
)

// Drive moves its model along x at the speed of its configuration.
type Drive struct {
	model ecm.Entity
	speed float64
}

func (d *Drive) Configure(e ecm.Entity, config *sim.Element, _ *ecm.Manager) error {
	d.model = e
	_, err := fmt.Sscan(config.Child("speed").TrimmedText(), &d.speed)
	return err
}

func (d *Drive) Update(info sim.UpdateInfo, m *ecm.Manager) {
	if p, ok := ecm.Get[sim.Pose](m, d.model); ok {
		p.Position.X += d.speed * info.Dt.Seconds()
	}
}

// Report prints the models near the origin after each step.
type Report struct{}

func (Report) PostUpdate(info sim.UpdateInfo, r ecm.Reader) {
	near, _ := sim.GetEntities(r, si.EntityFilters{
		Filter: "rover_[0-9]+",
		Bounds: si.Bounds{Type: si.Bounds_TYPE_SPHERE, Points: []geometry_msgs.Vector3{{}, {X: 1}}},
	})
	var names []string
	for _, e := range near {
		n, _ := ecm.ComponentData[sim.Name](r, e)
		names = append(names, string(n))
	}
	fmt.Println(info.Iterations, info.SimTime, names)
}

const world = `<sdf version="1.9">
  <world name="example">
    <model name="rover_1">
      <plugin name="Drive"><speed>3</speed></plugin>
    </model>
    <model name="rover_2">
      <pose>0.5 0 0 0 0 0</pose>
      <plugin name="Drive"><speed>0.2</speed></plugin>
    </model>
    <plugin name="Report"/>
  </world>
</sdf>`

func Example() {
	m := ecm.New()
	r, err := sim.NewRunner(m, sim.Config{StepSize: sim.DefaultStepSize * 250})
	if err != nil {
		panic(err)
	}
	reg := sim.Registry{
		"Drive":  func() sim.System { return &Drive{} },
		"Report": func() sim.System { return Report{} },
	}
	if _, err := sim.LoadWorld(r, strings.NewReader(world), sim.LoadOptions{Registry: reg}); err != nil {
		panic(err)
	}
	for range 3 {
		if _, err := r.RunOnce(); err != nil {
			panic(err)
		}
	}
	// Output:
	// 1 250ms [rover_1 rover_2]
	// 2 500ms [rover_2]
	// 3 750ms [rover_2]
}
