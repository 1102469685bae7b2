package dds

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
	"github.com/stretchr/testify/require"
)

// The return codes are one vocabulary: errors of qos and waitset match dds's, and a
// context that ends is reported as the context's error, never as ErrTimeout.
func TestOneErrorVocabulary(t *testing.T) {
	q := qos.DefaultDataReaderQos()
	q.History = qos.History{Kind: qos.KeepLast, Depth: 0}
	err := q.Validate()
	require.ErrorIs(t, err, ErrBadParameter)
	var pe *qos.PolicyError
	require.True(t, errors.As(err, &pe), "a QoS error names its policy")

	ws := waitset.New()
	require.ErrorIs(t, ws.DetachCondition(&waitset.GuardCondition{}), ErrPreconditionNotMet)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = ws.Wait(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, ErrTimeout)

	p := testParticipant(t, nil, nil)
	_, r := endpoints[point](t, p, "errors", nil, nil)
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, _, err = r.Take(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.NotErrorIs(t, err, ErrTimeout)
	require.ErrorContains(t, err, "errors", "the error names the topic")
	_, err = NewReader[point](nil)
	require.ErrorIs(t, err, ErrBadParameter)
}
