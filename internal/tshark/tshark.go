// Package tshark checks datagrams with Wireshark's RTPS dissector. It is test
// infrastructure, used from _test.go files only: a test builds RTPS messages
// with this module's encoders and asks tshark whether a third, independent
// implementation reads them without complaint.
//
// # What is checked
//
// The datagrams are written to a temporary classic pcap file (UDP over IPv4
// on 127.0.0.1, nothing is sent) and dissected with `tshark -V`, UDP checksum
// validation on. A frame is reported when tshark marks it as a malformed
// packet, when it carries an expert info of severity Error, or of severity
// Warning outside the Sequence group, or when tshark did not recognize RTPS in
// it. [Check] skips the test when tshark is not installed.
package tshark

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/pcapng"
)

// Default addresses of the datagrams given to [Check]: from a participant's
// metatraffic unicast port to the SPDP multicast port of domain 0, so that
// tshark's RTPS dissector also shows the port mapping.
var (
	DefaultSrc = netip.MustParseAddrPort("127.0.0.1:7410")
	DefaultDst = netip.MustParseAddrPort("127.0.0.1:7400")
)

// timeout bounds one tshark run.
const timeout = 2 * time.Minute

// Available reports whether a tshark binary is on the PATH.
func Available() bool {
	_, err := exec.LookPath("tshark")
	return err == nil
}

// Check fails t with the list of problems tshark reports for datagrams, each
// sent from [DefaultSrc] to [DefaultDst]. It skips t when tshark is not
// installed.
func Check(t testing.TB, datagrams [][]byte) {
	t.Helper()
	ds := make([]pcapng.Datagram, len(datagrams))
	for i, p := range datagrams {
		ds[i] = pcapng.Datagram{Src: DefaultSrc, Dst: DefaultDst, Payload: p}
	}
	CheckDatagrams(t, ds)
}

// CheckDatagrams is [Check] for datagrams with their own addresses.
func CheckDatagrams(t testing.TB, datagrams []pcapng.Datagram) {
	t.Helper()
	if !Available() {
		t.Skip("tshark is not installed")
	}
	problems, err := Problems(datagrams, t.TempDir())
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	if len(problems) > 0 {
		t.Errorf("tshark reports %d problem(s):\n%s", len(problems), strings.Join(problems, "\n"))
	}
}

// Problems writes datagrams to a pcap file in dir, dissects it with tshark and
// returns one line per problem found, prefixed with the 1-based frame number
// (the index in datagrams plus one). Datagrams without a time get increasing
// times one millisecond apart.
func Problems(datagrams []pcapng.Datagram, dir string) ([]string, error) {
	path := filepath.Join(dir, "tshark-check.pcap")
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w, err := pcapng.NewWriter(f)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	base := time.Unix(1700000000, 0)
	for i, d := range datagrams {
		if d.Time.IsZero() {
			d.Time = base.Add(time.Duration(i) * time.Millisecond)
		}
		if err := w.Write(d); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("datagram %d: %w", i, err)
		}
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tshark", "-n", "-r", path, "-V",
		"-o", "udp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	problems, frames := scan(out)
	if frames != len(datagrams) {
		problems = append(problems, fmt.Sprintf("tshark dissected %d frames, want %d", frames, len(datagrams)))
	}
	return problems, nil
}

// scan reads the verbose dissection and returns the problems and the number
// of frames seen.
func scan(out []byte) (problems []string, frames int) {
	var (
		frame  string
		isRTPS bool
	)
	done := func() {
		if frame != "" && !isRTPS {
			problems = append(problems, frame+": RTPS not recognized")
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Frame ") {
			done()
			frames++
			frame, _, _ = strings.Cut(line, ":")
			isRTPS = false
			continue
		}
		if strings.HasPrefix(line, "Real-Time Publish-Subscribe Wire Protocol") {
			isRTPS = true
		}
		if bad(line) {
			problems = append(problems, frame+": "+strings.TrimSpace(line))
		}
	}
	done()
	if err := sc.Err(); err != nil {
		problems = append(problems, "reading tshark output: "+err.Error())
	}
	return problems, frames
}

// bad reports whether a line of the dissection flags a problem.
func bad(line string) bool {
	if strings.Contains(line, "[Malformed Packet") {
		return true
	}
	i := strings.Index(line, "[Expert Info (")
	if i < 0 {
		return false
	}
	sev, group, _ := strings.Cut(line[i+len("[Expert Info ("):], "/")
	group, _, _ = strings.Cut(group, ")")
	switch sev {
	case "Error":
		return true
	case "Warning":
		return group != "Sequence"
	}
	return false
}
