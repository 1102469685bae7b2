//go:build linux

package main

import (
	"bufio"
	"encoding/binary"
	"os"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/netem"
)

// pcapPort records the Ethernet frames read from and written to a port in a classic pcap
// file (what one host sent and received), for tshark.
type pcapPort struct {
	netem.Port
	mu sync.Mutex
	w  *bufio.Writer
	f  *os.File
}

func newPcapPort(p netem.Port, path string) (*pcapPort, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var h [24]byte
	binary.LittleEndian.PutUint32(h[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(h[4:], 2)
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], 65535)
	binary.LittleEndian.PutUint32(h[20:], 1) // Ethernet
	_, _ = w.Write(h[:])
	return &pcapPort{Port: p, w: w, f: f}, nil
}

func (p *pcapPort) record(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	var h [16]byte
	binary.LittleEndian.PutUint32(h[0:], uint32(now.Unix()))
	binary.LittleEndian.PutUint32(h[4:], uint32(now.Nanosecond()/1000))
	binary.LittleEndian.PutUint32(h[8:], uint32(len(b)))
	binary.LittleEndian.PutUint32(h[12:], uint32(len(b)))
	_, _ = p.w.Write(h[:])
	_, _ = p.w.Write(b)
}

func (p *pcapPort) Read(b []byte) (int, error) {
	n, err := p.Port.Read(b)
	if err == nil {
		p.record(b[:n])
	}
	return n, err
}

func (p *pcapPort) Write(b []byte) (int, error) {
	n, err := p.Port.Write(b)
	if err == nil {
		p.record(b[:n])
	}
	return n, err
}

func (p *pcapPort) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.w.Flush()
	return p.f.Close()
}
