// Package chart renders gonum/plot plots as SVG for lmeval's reports (the
// sweep's chart, compare's forest plots): sans-serif text, fonts named
// with their metric-compatible fallbacks instead of embedded, and no XML
// prolog, so the SVG stands alone or inline in an HTML page.
package chart

import (
	"bytes"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// New returns a plot whose text is sans-serif.
func New() *plot.Plot {
	p := plot.New()
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		f.Variant = "Sans"
	}
	return p
}

// Font is the font of text a plotter draws (labels), sans-serif as New's.
func Font(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// SVG draws plots side by side in one row, each w by h, with a gap.
func SVG(w, h vg.Length, plots ...*plot.Plot) ([]byte, error) {
	gap := vg.Points(24)
	n := vg.Length(len(plots))
	c := vgsvg.New(n*w+(n-1)*gap, h)
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: gap, PadTop: vg.Points(10), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(6)}
	canvases := plot.Align([][]*plot.Plot{plots}, tiles, dc)
	for i, p := range plots {
		p.Draw(canvases[0][i])
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return standalone(buf.Bytes()), nil
}

// standalone drops the XML prolog (an SVG file does not need it, inline
// SVG must not have it) and gives the Liberation fonts gonum measured with
// their metric-compatible fallbacks, so no font file is needed.
func standalone(svg []byte) []byte {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	r := strings.NewReplacer(
		"font-family:Liberation Serif;", "font-family:'Liberation Serif','Times New Roman',serif;",
		"font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;",
		"font-family:Liberation Mono;", "font-family:'Liberation Mono','Courier New',monospace;")
	return []byte(r.Replace(s))
}
