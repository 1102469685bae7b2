package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

func TestParseQosFlags(t *testing.T) {
	a := mustParseArgs(t, strings.Fields("-role sub -deadline 100ms -partition A,B* -time-filter 0.25 -durability transient")...)
	require.Equal(t, 100*time.Millisecond, a.deadline)
	require.Equal(t, []string{"A", "B*"}, a.partition)
	require.Equal(t, 250*time.Millisecond, a.timeFilter)
	require.Equal(t, qos.Transient, a.durability)
	for flags, want := range map[string]qos.DurabilityKind{
		"-durability persistent":                        qos.Persistent,
		"-durability transient-local":                   qos.TransientLocal,
		"-transient-local":                              qos.TransientLocal,
		"-durability persistent -volatile":              qos.Volatile,
		"-volatile -durability=transient-local":         qos.TransientLocal,
		"-transient-local -durability volatile":         qos.Volatile,
		"-durability transient -transient-local=true":   qos.TransientLocal,
		"-partition A -durability transient -volatile ": qos.Volatile,
	} {
		require.Equal(t, want, mustParseArgs(t, append([]string{"-role", "pub"}, strings.Fields(flags)...)...).durability, flags)
	}
	require.Nil(t, mustParseArgs(t, "-role", "pub").partition, "no -partition: the default partition")
	for _, bad := range []string{
		"-role pub -durability local", "-role pub -durability", "-role pub -transient-local=false",
		"-role pub -deadline -1s", "-role sub -time-filter x",
	} {
		var stderr bytes.Buffer
		_, code, ok := parseArgs(strings.Fields(bad), &stderr)
		require.False(t, ok, bad)
		require.Equal(t, exitUsage, code, bad)
	}
}

// The policy names of the incompatible-QoS events, as the C and C++ peers print them.
func TestPolicyName(t *testing.T) {
	for id, want := range map[qos.PolicyID]string{
		qos.ReliabilityPolicyID:                "RELIABILITY",
		qos.DurabilityPolicyID:                 "DURABILITY",
		qos.DeadlinePolicyID:                   "DEADLINE",
		qos.TimeBasedFilterPolicyID:            "TIME_BASED_FILTER",
		qos.DurabilityServicePolicyID:          "DURABILITY_SERVICE",
		qos.OwnershipStrengthPolicyID:          "OWNERSHIP_STRENGTH",
		qos.DataRepresentationPolicyID:         "DATA_REPRESENTATION",
		qos.TypeConsistencyEnforcementPolicyID: "TYPE_CONSISTENCY_ENFORCEMENT",
		qos.InvalidPolicyID:                    "INVALID",
	} {
		require.Equal(t, want, policyName(id))
	}
}
