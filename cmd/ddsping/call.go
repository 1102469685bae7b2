package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

// callTypes are the service types call knows, by ROS 2 name: the services of
// simulation_interfaces (what ddsim and simdds.NewServices serve).
var callTypes = map[string]callType{
	"simulation_interfaces/srv/DeleteEntity":         service[si.DeleteEntityRequest, si.DeleteEntityResponse](),
	"simulation_interfaces/srv/GetAvailableWorlds":   service[si.GetAvailableWorldsRequest, si.GetAvailableWorldsResponse](),
	"simulation_interfaces/srv/GetCurrentWorld":      service[si.GetCurrentWorldRequest, si.GetCurrentWorldResponse](),
	"simulation_interfaces/srv/GetEntities":          service[si.GetEntitiesRequest, si.GetEntitiesResponse](),
	"simulation_interfaces/srv/GetEntitiesStates":    service[si.GetEntitiesStatesRequest, si.GetEntitiesStatesResponse](),
	"simulation_interfaces/srv/GetEntityBounds":      service[si.GetEntityBoundsRequest, si.GetEntityBoundsResponse](),
	"simulation_interfaces/srv/GetEntityInfo":        service[si.GetEntityInfoRequest, si.GetEntityInfoResponse](),
	"simulation_interfaces/srv/GetEntityState":       service[si.GetEntityStateRequest, si.GetEntityStateResponse](),
	"simulation_interfaces/srv/GetNamedPoseBounds":   service[si.GetNamedPoseBoundsRequest, si.GetNamedPoseBoundsResponse](),
	"simulation_interfaces/srv/GetNamedPoses":        service[si.GetNamedPosesRequest, si.GetNamedPosesResponse](),
	"simulation_interfaces/srv/GetSimulationState":   service[si.GetSimulationStateRequest, si.GetSimulationStateResponse](),
	"simulation_interfaces/srv/GetSimulatorFeatures": service[si.GetSimulatorFeaturesRequest, si.GetSimulatorFeaturesResponse](),
	"simulation_interfaces/srv/GetSpawnables":        service[si.GetSpawnablesRequest, si.GetSpawnablesResponse](),
	"simulation_interfaces/srv/LoadWorld":            service[si.LoadWorldRequest, si.LoadWorldResponse](),
	"simulation_interfaces/srv/ResetSimulation":      service[si.ResetSimulationRequest, si.ResetSimulationResponse](),
	"simulation_interfaces/srv/SetEntityInfo":        service[si.SetEntityInfoRequest, si.SetEntityInfoResponse](),
	"simulation_interfaces/srv/SetEntityState":       service[si.SetEntityStateRequest, si.SetEntityStateResponse](),
	"simulation_interfaces/srv/SetSimulationState":   service[si.SetSimulationStateRequest, si.SetSimulationStateResponse](),
	"simulation_interfaces/srv/SpawnEntities":        service[si.SpawnEntitiesRequest, si.SpawnEntitiesResponse](),
	"simulation_interfaces/srv/SpawnEntity":          service[si.SpawnEntityRequest, si.SpawnEntityResponse](),
	"simulation_interfaces/srv/StepSimulation":       service[si.StepSimulationRequest, si.StepSimulationResponse](),
	"simulation_interfaces/srv/UnloadWorld":          service[si.UnloadWorldRequest, si.UnloadWorldResponse](),
}

// callType is a service type call knows: what registers it with a bus, and its request's
// and reply's Go types.
type callType struct {
	add      func(*simdds.Bus) error
	req, rep reflect.Type
}

func service[Req, Rep any]() callType {
	return callType{simdds.AddBusService[Req, Rep], reflect.TypeFor[Req](), reflect.TypeFor[Rep]()}
}

// serviceType returns the ROS 2 type of service: typ when given, else the
// simulation_interfaces service named after the last element of the service's name
// (get_entities is GetEntities).
func serviceType(service, typ string) (string, error) {
	if typ == "" {
		var b strings.Builder
		for w := range strings.SplitSeq(path.Base(service), "_") {
			if w != "" {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
		typ = "simulation_interfaces/srv/" + b.String()
	}
	if _, ok := callTypes[typ]; !ok {
		known := make([]string, 0, len(callTypes))
		for k := range callTypes {
			known = append(known, path.Base(k))
		}
		sort.Strings(known)
		return "", fmt.Errorf("%w: unknown service type %s (-type: one of simulation_interfaces/srv/%s)", errUsage, typ, strings.Join(known, ", "))
	}
	return typ, nil
}

func setupCall(fs *flag.FlagSet, o *options) func(context.Context) error {
	typ := fs.String("type", "", "the service's ROS 2 type, such as simulation_interfaces/srv/GetEntities (default: from the service's name)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the server and its answer")
	return func(ctx context.Context) error {
		args := fs.Args()
		if len(args) < 1 || len(args) > 2 {
			return fmt.Errorf("%w: call SERVICE [REQUEST], as in: call /gzserver/get_entities 'filters: {filter: \"robot.*\"}'", errUsage)
		}
		service, text := args[0], ""
		if len(args) == 2 {
			text = args[1]
		}
		t, err := serviceType(service, *typ)
		if err != nil {
			return err
		}
		req, err := sim.ParseMsg(text)
		if err != nil {
			return fmt.Errorf("%w: request: %w", errUsage, err)
		}
		enumNumbers(callTypes[t].req, req)
		return onNode(o, "ddsping call", func(ctx context.Context, n *node) error {
			bus := simdds.NewBus(n.p)
			defer func() { _ = bus.Close() }()
			if err := callTypes[t].add(bus); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			start := time.Now()
			rep, err := bus.Call(ctx, service, sim.Message{Type: t + "_Request", Data: req}, t+"_Response")
			if err != nil {
				if errors.Is(err, dds.ErrBadParameter) {
					return fmt.Errorf("%w: %w", errUsage, err)
				}
				if ctx.Err() != nil {
					return fmt.Errorf("%w: no answer from %s within %v: %w", errFailed, service, *timeout, err)
				}
				return err
			}
			return printReply(o, service, t, time.Since(start), msgOfType(callTypes[t].rep, rep.Data))
		})(ctx)
	}
}

// printReply prints the reply as JSON, its members as echo prints a message's: one line
// with -json, indented after a summary otherwise.
func printReply(o *options, service, typ string, d time.Duration, rep any) error {
	if o.json {
		b, err := marshalMsg(object{
			{Name: "service", Value: service},
			{Name: "type", Value: typ},
			{Name: "seconds", Value: d.Seconds()},
			{Name: "reply", Value: rep},
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(o.out, "%s\n", b)
		return nil
	}
	m, err := marshalMsg(rep)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, m, "", "  "); err != nil {
		return err
	}
	fmt.Fprintf(o.out, "call: %s (%s) answered in %v\n%s\n", service, typ, d.Round(time.Microsecond), b.Bytes())
	return nil
}
