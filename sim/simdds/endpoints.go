package simdds

import (
	"errors"

	"github.com/ddsgo/ddsgo/dds"
)

// pubTopic is a topic and a writer of it, made and closed together by the systems that
// publish the world.
type pubTopic[T any] struct {
	t *dds.Topic[T]
	w *dds.DataWriter[T]
}

// newPubTopic creates topic name of T in p and a writer of it with opts.
func newPubTopic[T any](p *dds.DomainParticipant, name string, opts ...dds.Option) (pubTopic[T], error) {
	t, err := dds.NewTopic[T](p, name)
	if err != nil {
		return pubTopic[T]{}, err
	}
	w, err := dds.NewWriter(t, opts...)
	if err != nil {
		return pubTopic[T]{}, errors.Join(err, t.Close())
	}
	return pubTopic[T]{t, w}, nil
}

// Close deletes the writer and the topic; the zero pubTopic has nothing to close.
func (e pubTopic[T]) Close() error {
	if e.t == nil {
		return nil
	}
	return errors.Join(e.w.Close(), e.t.Close())
}

// subTopic is a topic and a reader of it, made and closed together.
type subTopic[T any] struct {
	t *dds.Topic[T]
	r *dds.DataReader[T]
}

// newSubTopic creates topic name of T in p and a reader of it with opts.
func newSubTopic[T any](p *dds.DomainParticipant, name string, opts ...dds.Option) (subTopic[T], error) {
	t, err := dds.NewTopic[T](p, name)
	if err != nil {
		return subTopic[T]{}, err
	}
	r, err := dds.NewReader(t, opts...)
	if err != nil {
		return subTopic[T]{}, errors.Join(err, t.Close())
	}
	return subTopic[T]{t, r}, nil
}

// Close deletes the reader and the topic; the zero subTopic has nothing to close.
func (e subTopic[T]) Close() error {
	if e.t == nil {
		return nil
	}
	return errors.Join(e.r.Close(), e.t.Close())
}
