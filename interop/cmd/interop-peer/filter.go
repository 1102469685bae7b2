package main

import "github.com/ddsgo/ddsgo/dds"

// newReader creates the subscriber's reader: of topic, or with -filter of a
// content-filtered topic over it (TOPIC_filtered, as the Fast DDS peer names it).
func newReader[T any](a args, topic *dds.Topic[T], opts ...dds.Option) (*dds.DataReader[T], error) {
	if a.filter == "" {
		return dds.NewReader(topic, opts...)
	}
	cft, err := dds.NewContentFilteredTopic(topic.Name()+"_filtered", topic, a.filter, a.filterParams...)
	if err != nil {
		return nil, err
	}
	return dds.NewFilteredReader(cft, opts...)
}
