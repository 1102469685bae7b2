package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// The latency plot of ping -svg: the round-trip histogram as bars over a logarithmic
// time axis (decades of microseconds), with the 50/90/99 % percentiles marked.
const (
	svgWidth, svgHeight = 800, 360
	svgLeft, svgRight   = 70, 20
	svgTop, svgBottom   = 40, 50
)

// writeSVGFile writes the plot of h to the file path.
func writeSVGFile(path, title string, h *hist) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeSVG(f, title, h); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// svgBar is one non-empty bucket: its range in ns and its count.
type svgBar struct {
	lo, hi float64
	n      uint32
}

// bars returns the non-empty buckets of h.
func (h *hist) bars() []svgBar {
	var bs []svgBar
	for i, c := range h.counts {
		if c > 0 {
			mid := float64(bucketValue(i))
			half := math.Max(0.5, mid*0.5/histSub) // a bucket spans 1/histSub of its power of two
			bs = append(bs, svgBar{lo: mid - half, hi: mid + half, n: c})
		}
	}
	return bs
}

// writeSVG writes the plot of h to w.
func writeSVG(w io.Writer, title string, h *hist) error {
	bs := h.bars()
	if len(bs) == 0 {
		return fmt.Errorf("%w: no round trips to plot", errFailed)
	}
	// The x axis covers whole decades around the values, in ns, on a log scale.
	x0 := math.Pow(10, math.Floor(math.Log10(math.Max(bs[0].lo, 1))))
	x1 := math.Pow(10, math.Ceil(math.Log10(bs[len(bs)-1].hi)))
	if x1 <= x0 {
		x1 = x0 * 10
	}
	plotW, plotH := float64(svgWidth-svgLeft-svgRight), float64(svgHeight-svgTop-svgBottom)
	x := func(ns float64) float64 {
		return svgLeft + plotW*math.Log10(math.Max(ns, x0)/x0)/math.Log10(x1/x0)
	}
	var maxN uint32
	for _, b := range bs {
		maxN = max(maxN, b.n)
	}
	y := func(n uint32) float64 { return svgTop + plotH*(1-float64(n)/float64(maxN)) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="14">%s</text>`+"\n", svgLeft, xmlEscape(title))
	for _, bar := range bs {
		left, right := x(bar.lo), x(bar.hi)
		fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="steelblue"><title>%s: %d</title></rect>`+"\n",
			left, y(bar.n), math.Max(right-left, 1), svgTop+plotH-y(bar.n), durationLabel(time.Duration((bar.lo+bar.hi)/2)), bar.n)
	}
	// Axes, decade ticks, labels.
	fmt.Fprintf(&b, `<line x1="%d" y1="%.0f" x2="%d" y2="%.0f" stroke="black"/>`+"\n", svgLeft, svgTop+plotH, svgWidth-svgRight, svgTop+plotH)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%.0f" stroke="black"/>`+"\n", svgLeft, svgTop, svgLeft, svgTop+plotH)
	for d := x0; d <= x1*1.0001; d *= 10 {
		fmt.Fprintf(&b, `<line x1="%.2f" y1="%.0f" x2="%.2f" y2="%.0f" stroke="black"/>`+"\n", x(d), svgTop+plotH, x(d), svgTop+plotH+5)
		fmt.Fprintf(&b, `<text x="%.2f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x(d), svgTop+plotH+20, durationLabel(time.Duration(d)))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle">round trip</text>`+"\n", svgLeft+plotW/2, svgHeight-8)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text>`+"\n", svgLeft-6, svgTop+4, maxN)
	fmt.Fprintf(&b, `<text x="%d" y="%.0f" text-anchor="end">0</text>`+"\n", svgLeft-6, svgTop+plotH)
	s := h.stats()
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"50%", s.P50}, {"90%", s.P90}, {"99%", s.P99}} {
		px := x(float64(p.d))
		fmt.Fprintf(&b, `<line x1="%.2f" y1="%d" x2="%.2f" y2="%.0f" stroke="firebrick" stroke-dasharray="4 3"/>`+"\n", px, svgTop, px, svgTop+plotH)
		fmt.Fprintf(&b, `<text x="%.2f" y="%d" fill="firebrick" text-anchor="middle">%s %s</text>`+"\n", px, svgTop-4, p.name, durationLabel(p.d))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// durationLabel writes d shortly: 10us, 1.5ms, 2s.
func durationLabel(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return trimZeros(float64(d)/1e3) + "us"
	case d < time.Second:
		return trimZeros(float64(d)/1e6) + "ms"
	}
	return trimZeros(d.Seconds()) + "s"
}

func trimZeros(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}

// xmlEscape escapes s for XML text.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
