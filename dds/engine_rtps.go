package dds

import (
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/rtps/discovery"
)

// newRTPSEngine starts the engine of a participant: a discovery.Participant.
var newRTPSEngine engineFactory = startRTPS

// rtpsEngine is the engine backed by package rtps/discovery.
type rtpsEngine struct {
	*discovery.Participant
}

func startRTPS(domain int, cfg Config, q qos.DomainParticipantQos) (engine, error) {
	p, err := discovery.NewParticipant(discovery.Config{
		Domain:           domain,
		Interfaces:       cfg.Interfaces,
		Peers:            cfg.Peers,
		IndexMode:        cfg.IndexMode,
		ParticipantIndex: cfg.ParticipantIndex,
		DisableMulticast: cfg.DisableMulticast,
		Net:              cfg.Net,
		Logger:           cfg.Logger,
		LeaseDuration:    cfg.LeaseDuration,
		AnnouncePeriod:   cfg.AnnouncePeriod,
		Name:             cfg.Name,
		UserData:         q.UserData.Value,
		MaxMessageSize:   cfg.MaxMessageSize,
		FragmentSize:     cfg.FragmentSize,
		MaxSampleSize:    cfg.MaxSampleSize,
		WriterLinger:     cfg.WriterLinger,
		Now:              cfg.Now,
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
