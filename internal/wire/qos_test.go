package wire

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/qoswire"
	"github.com/ddsgo/ddsgo/qos"
)

// QoS policies are encoded and decoded by the policy table of package qos, not
// here; these helpers let the ParameterList tests write and read them.

// putPolicies writes the policies of q that discovery sends, or only those of
// ids when some are given.
func putPolicies[Q any](w *ParamWriter, q Q, ids ...ParameterID) {
	qoswire.Append(q, w.BigEndian(), func(pid uint16, v []byte) {
		if len(ids) == 0 || slicesContains(ids, ParameterID(pid)) {
			w.PutRaw(ParameterID(pid), v)
		}
	})
}

func slicesContains(ids []ParameterID, id ParameterID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// endpointPolicies decodes the QoS parameter p into a writer's and a
// reader's defaults; isQos is false for other parameters.
type endpointPolicies struct {
	o qos.Offered
	r qos.Requested
}

func decodePolicy(p Parameter) (e endpointPolicies, isQos bool, err error) {
	e = endpointPolicies{qos.DefaultOffered(), qos.DefaultRequested()}
	okW, errW := qoswire.Decode(&e.o, uint16(p.ID), p.Value, p.BigEndian, qoswire.Limits{})
	okR, errR := qoswire.Decode(&e.r, uint16(p.ID), p.Value, p.BigEndian, qoswire.Limits{})
	if errW != nil {
		return e, true, errW
	}
	return e, okW || okR, errR
}

// requirePolicyRoundTrip checks that a policy parameter decodes and that
// what it decodes to encodes and decodes to the same values. (Not to the
// same octets: Cyclone DDS truncates the fraction of a duration that we
// round, 0x19999999 against 0x1999999a for 100 ms.)
func requirePolicyRoundTrip(t *testing.T, p Parameter, e endpointPolicies) {
	t.Helper()
	w := NewParamWriter(nil, p.BigEndian)
	putPolicies(&w, &e.o, p.ID)
	putPolicies(&w, &e.r, p.ID)
	back := endpointPolicies{qos.DefaultOffered(), qos.DefaultRequested()}
	r := NewParameterReader(w.Bytes(), p.BigEndian, VendorUnknown)
	for q, ok := r.Next(); ok; q, ok = r.Next() {
		_, err := qoswire.Decode(&back.o, uint16(q.ID), q.Value, q.BigEndian, qoswire.Limits{})
		require.NoError(t, err)
		_, err = qoswire.Decode(&back.r, uint16(q.ID), q.Value, q.BigEndian, qoswire.Limits{})
		require.NoError(t, err)
	}
	require.NoError(t, r.Err())
	require.Equal(t, e, back, "%s", p.ID)
}

// mustPolicies finds and decodes the QoS parameter id of l.
func mustPolicies(t *testing.T, l *plist, id ParameterID) endpointPolicies {
	t.Helper()
	e, isQos, err := decodePolicy(mustParam(t, l, id))
	require.True(t, isQos, "%s", id)
	require.NoError(t, err, "%s", id)
	return e
}
