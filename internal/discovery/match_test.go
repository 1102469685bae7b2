package discovery

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

func TestMatch(t *testing.T) {
	// endpoint builds endpoints of the given entity id (a writer or a reader
	// kind) with default QoS, changed by f if f is not nil.
	endpoint := func(entity uint32) func(f func(e *EndpointData)) *EndpointData {
		return func(f func(e *EndpointData)) *EndpointData {
			e := &EndpointData{
				GUID:      wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(entity)},
				TopicName: "T", TypeName: "mod::Type",
				Offered: qos.DefaultOffered(), Requested: qos.DefaultRequested(),
			}
			if f != nil {
				f(e)
			}
			return e
		}
	}
	writer, reader := endpoint(0x00000102), endpoint(0x00000207)
	for _, tc := range []struct {
		name         string
		w, r         *EndpointData
		reason       MismatchReason
		incompatible []qos.PolicyID
	}{
		{"defaults", writer(nil), reader(nil), MatchOK, nil},
		{"role", reader(nil), reader(nil), MismatchRole, nil},
		{"role reversed", writer(nil), writer(nil), MismatchRole, nil},
		{"topic", writer(nil), reader(func(e *EndpointData) { e.TopicName = "U" }), MismatchTopic, nil},
		{"type", writer(nil), reader(func(e *EndpointData) { e.TypeName = "mod::Other" }), MismatchType, nil},
		{"keyed writer, unkeyed reader", writer(nil), reader(func(e *EndpointData) {
			e.GUID.Entity = wire.EntityIDFromUint32(0x00000204)
		}), MismatchKeyed, nil},
		{
			"unkeyed both", writer(func(e *EndpointData) { e.GUID.Entity = wire.EntityIDFromUint32(0x00000103) }),
			reader(func(e *EndpointData) { e.GUID.Entity = wire.EntityIDFromUint32(0x00000204) }), MatchOK, nil,
		},
		{
			"partition", writer(func(e *EndpointData) { e.Offered.Publisher.Partition.Name = []string{"a"} }),
			reader(func(e *EndpointData) { e.Requested.Subscriber.Partition.Name = []string{"b"} }), MismatchPartition, nil,
		},
		{"partition vs default", writer(func(e *EndpointData) { e.Offered.Publisher.Partition.Name = []string{"a"} }), reader(nil), MismatchPartition, nil},
		{
			"partition wildcard", writer(func(e *EndpointData) { e.Offered.Publisher.Partition.Name = []string{"x", "ab"} }),
			reader(func(e *EndpointData) { e.Requested.Subscriber.Partition.Name = []string{"a*"} }), MatchOK, nil,
		},
		{
			"best effort writer, reliable reader", writer(func(e *EndpointData) { e.Offered.Writer.Reliability.Kind = qos.BestEffort }),
			reader(func(e *EndpointData) { e.Requested.Reader.Reliability.Kind = qos.Reliable }), MismatchQos,
			[]qos.PolicyID{qos.ReliabilityPolicyID},
		},
		{"reliable writer, best-effort reader", writer(nil), reader(nil), MatchOK, nil},
		{
			"volatile writer, transient-local reader", writer(nil),
			reader(func(e *EndpointData) { e.Requested.Reader.Durability.Kind = qos.TransientLocal }), MismatchQos,
			[]qos.PolicyID{qos.DurabilityPolicyID},
		},
		{
			"deadline", writer(func(e *EndpointData) { e.Offered.Writer.Deadline.Period = 2 * time.Second }),
			reader(func(e *EndpointData) { e.Requested.Reader.Deadline.Period = time.Second }), MismatchQos,
			[]qos.PolicyID{qos.DeadlinePolicyID},
		},
		{"ownership", writer(func(e *EndpointData) { e.Offered.Writer.Ownership.Kind = qos.Exclusive }), reader(nil), MismatchQos, []qos.PolicyID{qos.OwnershipPolicyID}},
		{
			"liveliness lease", writer(func(e *EndpointData) { e.Offered.Writer.Liveliness.LeaseDuration = 2 * time.Second }),
			reader(func(e *EndpointData) { e.Requested.Reader.Liveliness.LeaseDuration = time.Second }), MismatchQos,
			[]qos.PolicyID{qos.LivelinessPolicyID},
		},
		{
			"presentation", writer(nil), reader(func(e *EndpointData) { e.Requested.Subscriber.Presentation.CoherentAccess = true }),
			MismatchQos,
			[]qos.PolicyID{qos.PresentationPolicyID},
		},
		{
			"XCDR2 writer, XCDR1 reader", writer(func(e *EndpointData) {
				e.Offered.Writer.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR2}
			}),
			reader(nil), MismatchQos,
			[]qos.PolicyID{qos.DataRepresentationPolicyID},
		},
		{
			"Fast DDS writer, Cyclone reader", writer(nil),
			reader(func(e *EndpointData) {
				e.Requested.Reader.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
			}), MatchOK, nil,
		},
		{"several, also with other partitions", writer(func(e *EndpointData) {
			e.Offered.Writer.Reliability.Kind = qos.BestEffort
			e.Offered.Publisher.Partition.Name = []string{"a"}
		}), reader(func(e *EndpointData) {
			e.Requested.Reader.Reliability.Kind = qos.Reliable
			e.Requested.Reader.Durability.Kind = qos.TransientLocal
		}), MismatchQos, []qos.PolicyID{qos.DurabilityPolicyID, qos.ReliabilityPolicyID}},
	} {
		got := Match(tc.w, tc.r)
		require.Equal(t, tc.reason, got.Reason, tc.name)
		require.Equal(t, tc.incompatible, got.Incompatible, tc.name)
		require.Equal(t, tc.reason == MatchOK, got.Matched(), tc.name)
		require.NotEmpty(t, got.Reason.String())
	}
}
