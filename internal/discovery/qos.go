package discovery

import (
	"errors"
	"fmt"

	"github.com/ddsgo/ddsgo/internal/qoswire"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// The QoS of discovery data is the qos package's: a writer's qos.Offered, a
// reader's qos.Requested, a topic's qos.TopicQos. Which policies are sent, and
// how each is encoded and decoded, is the policy table's (internal/qoswire);
// this file only puts the values in a ParameterList and maps the errors.

// announcedQos is the QoS discovery announces of an entity: a participant's
// (USER_DATA), a writer's, a reader's or a topic's.
type announcedQos interface {
	*qos.DomainParticipantQos | *qos.Offered | *qos.Requested | *qos.TopicQos
}

// putQos writes the policies of q that discovery sends.
func putQos[Q announcedQos](w *wire.ParamWriter, q Q) {
	qoswire.Append(q, w.BigEndian(), func(pid uint16, v []byte) {
		w.PutRaw(wire.ParameterID(pid), v)
	})
}

// qosParam decodes p into q if it is one of q's policies; it returns false
// for other parameters (a policy of the other kind of endpoint among them).
// A malformed value wraps ErrInvalid, one beyond the limits ErrLimit.
func qosParam[Q announcedQos](l *plist, q Q, p wire.Parameter) (bool, error) {
	lim := qoswire.Limits{MaxCount: l.lim.MaxPartitions, MaxStringLen: l.lim.MaxStringLen, MaxDataLen: l.lim.MaxDataLen}
	ok, err := qoswire.Decode(q, uint16(p.ID), p.Value, p.BigEndian, lim)
	var le *qoswire.LimitError
	switch {
	case err == nil:
		return ok, nil
	case errors.As(err, &le):
		return true, l.err(p.ID, &LimitError{What: le.Policy + " " + le.What, Got: le.Got, Max: le.Max})
	}
	return true, l.err(p.ID, fmt.Errorf("%w: %w", err, ErrInvalid))
}
