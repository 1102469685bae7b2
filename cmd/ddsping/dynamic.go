package main

import (
	"context"
	"encoding/hex"
	"errors"
	"time"

	"github.com/ddsgo/ddsgo/dds"
)

// hexSample is what echo prints of a sample whose type it could not resolve: the
// serialized sample (encapsulation header first) in hex.
type hexSample struct {
	Hex string `json:"hex"`
}

// followDynamic returns the follower of a topic whose type ddsping has no Go type for:
// it reads the samples as dds.DynamicSample and decodes them with the type the writer w
// announced (its XTypes TypeObjects, asked for with TypeLookup for at most wait), or
// hands them on in hex when w announced none or the type did not come.
func followDynamic(w dds.EndpointBuiltinTopicData, wait time.Duration) follower {
	return func(ctx context.Context, p *dds.DomainParticipant, topic, typeName string, opts []dds.Option, fn func(v any, size int)) error {
		lctx, cancel := context.WithTimeout(ctx, wait)
		typ, err := p.LookupType(lctx, w)
		cancel()
		if err != nil && !errors.Is(err, dds.ErrUnsupported) && !errors.Is(err, dds.ErrTimeout) {
			return err
		}
		t, err := dds.NewTopic[dds.DynamicSample](p, topic, dds.TypeName(typeName))
		if err != nil {
			return err
		}
		// Every sample of a keyed topic may be one instance to this reader: keep many.
		r, err := dds.NewReader(t, append(opts, dds.KeepLast(1000))...)
		if err != nil {
			return err
		}
		defer func() { _ = r.Close() }()
		for s, info := range r.Samples(ctx) {
			if ctx.Err() != nil {
				break
			}
			if !info.ValidData {
				continue
			}
			fn(dynamicJSON(typeName, decodeDynamic(typ, &s)), info.SerializedSize)
		}
		return nil
	}
}

// decodeDynamic decodes s with typ, or returns it in hex when there is no type or the
// sample does not decode with it.
func decodeDynamic(typ *dds.DynamicType, s *dds.DynamicSample) any {
	if typ != nil {
		if v, err := typ.Decode(s); err == nil {
			return v
		}
	}
	return hexSample{Hex: hex.EncodeToString(s.Payload)}
}
