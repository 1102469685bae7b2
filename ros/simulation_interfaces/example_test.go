package simulation_interfaces_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// A request of simulation_interfaces/srv/GetEntities, the DDS type name rmw gives it, and
// a result code; a dds.Topic of the type carries it to and from ROS 2 nodes.
func Example() {
	req := simulation_interfaces.GetEntitiesRequest{
		Filters: simulation_interfaces.EntityFilters{Filter: "box.*"},
	}
	fmt.Println(req.DDSTypeName())
	fmt.Println(simulation_interfaces.Result_RESULT_OK)
	// Output:
	// simulation_interfaces::srv::dds_::GetEntities_Request_
	// 1
}
