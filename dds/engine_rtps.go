package dds

import (
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/xtypes"
	"github.com/ddsgo/ddsgo/qos"
)

// newRTPSEngine starts the engine of a participant: a discovery.Participant.
var newRTPSEngine engineFactory = startRTPS

// rtpsEngine is the engine backed by package internal/discovery.
type rtpsEngine struct {
	*discovery.Participant
}

func startRTPS(domain int, s *settings, q qos.DomainParticipantQos) (engine, error) {
	p, err := discovery.NewParticipant(discovery.Config{
		Config:   s.rtps,
		Domain:   domain,
		Net:      s.net,
		UserData: q.UserData.Value,

		TypeLookup: typeRegistry.Serve,
		Types:      &xtypes.Cache{Local: &typeRegistry},

		NoLocalDelivery: s.wire,
		Helper:          s.helper,
	})
	if err != nil {
		return nil, err
	}
	return rtpsEngine{p}, nil
}

func (e rtpsEngine) NewWriter(cfg endpointConfig) (engineWriter, error) {
	w, err := e.Participant.NewWriter(cfg)
	if err != nil {
		return nil, err
	}
	return w, nil
}

func (e rtpsEngine) NewReader(cfg endpointConfig, deliver rtps.DeliverFunc) (engineReader, error) {
	r, err := e.Participant.NewReader(cfg, deliver)
	if err != nil {
		return nil, err
	}
	return r, nil
}
