package qos

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/stretchr/testify/require"
)

// policyByName maps a policy name to its id; the fields of the entity QoS structs are
// named after their policies.
func policyByName(t *testing.T, name string) PolicyID {
	for id := PolicyID(1); id < NumPolicyIDs; id++ {
		if id.String() == name {
			return id
		}
	}
	t.Fatalf("no policy named %s", name)
	return InvalidPolicyID
}

// mutateField changes one field of a policy struct to a different value.
func mutateField(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeFor[time.Duration]() && v.Int() == int64(Infinite) {
			v.SetInt(int64(time.Second))
		} else {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Slice:
		n := reflect.MakeSlice(v.Type(), 1, 1)
		switch e := n.Index(0); e.Kind() {
		case reflect.String:
			e.SetString("x")
		case reflect.Uint8:
			e.SetUint(2)
		default:
			e.SetInt(2)
		}
		v.Set(n)
	default:
		panic("unexpected kind " + v.Kind().String())
	}
}

// checkAllFields changes each field of each policy of a QoS struct in turn and checks that
// CheckChange rejects exactly the policies that are not changeable.
func checkAllFields[Q any](t *testing.T, def Q, check func(old, next Q) error) {
	typ := reflect.TypeFor[Q]()
	for i := range typ.NumField() {
		policy := typ.Field(i)
		id := policyByName(t, policy.Name)
		for j := range policy.Type.NumField() {
			field := policy.Type.Field(j)
			t.Run(typ.Name()+"."+policy.Name+"."+field.Name, func(t *testing.T) {
				next := def
				mutateField(reflect.ValueOf(&next).Elem().Field(i).Field(j))
				err := check(def, next)
				if id.changeable() {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, errs.ErrImmutablePolicy)
				var pe *PolicyError
				require.True(t, errors.As(err, &pe))
				require.Equal(t, id, pe.Policy)
			})
		}
	}
}

func TestCheckChangeFollowsChangeableColumn(t *testing.T) {
	checkAllFields(t, DefaultDomainParticipantFactoryQos(), DomainParticipantFactoryQos.CheckChange)
	checkAllFields(t, DefaultDomainParticipantQos(), DomainParticipantQos.CheckChange)
	checkAllFields(t, DefaultTopicQos(), TopicQos.CheckChange)
	checkAllFields(t, DefaultPublisherQos(), PublisherQos.CheckChange)
	checkAllFields(t, DefaultSubscriberQos(), SubscriberQos.CheckChange)
	checkAllFields(t, DefaultDataWriterQos(), DataWriterQos.CheckChange)
	checkAllFields(t, DefaultDataReaderQos(), DataReaderQos.CheckChange)
}

func TestCheckChange(t *testing.T) {
	w := DefaultDataWriterQos()
	w.DataRepresentation.Value = []DataRepresentationID{XCDR1, XCDR2}
	tests := []struct {
		name   string
		mutate func(q *DataWriterQos)
		policy PolicyID // InvalidPolicyID: allowed
	}{
		{"nothing", func(*DataWriterQos) {}, InvalidPolicyID},
		{"same data representation in a new slice", func(q *DataWriterQos) {
			q.DataRepresentation.Value = []DataRepresentationID{XCDR1, XCDR2}
		}, InvalidPolicyID},
		{"data representation order", func(q *DataWriterQos) {
			q.DataRepresentation.Value = []DataRepresentationID{XCDR2, XCDR1}
		}, DataRepresentationPolicyID},
		{"user data and deadline", func(q *DataWriterQos) {
			q.UserData.Value = []byte("x")
			q.Deadline.Period = time.Second
		}, InvalidPolicyID},
		{"first immutable in id order", func(q *DataWriterQos) {
			q.History.Depth = 2
			q.Durability.Kind = TransientLocal
		}, DurabilityPolicyID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := w.Clone()
			tt.mutate(&next)
			err := w.CheckChange(next)
			if tt.policy == InvalidPolicyID {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, errs.ErrImmutablePolicy)
			require.EqualError(t, err, "dds: immutable policy: "+tt.policy.String()+": not changeable after the entity is enabled")
		})
	}
}
