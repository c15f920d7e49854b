package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestSVG(t *testing.T) {
	p := New()
	p.Title.Text = "a title"
	s, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 2}, {X: 3, Y: 4}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(s)
	out, err := SVG(vg.Points(200), vg.Points(150), p, New())
	if err != nil {
		t.Fatal(err)
	}
	svg := string(out)
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, ">a title</text>") {
		t.Errorf("SVG starts %.80q", svg)
	}
	if !strings.Contains(svg, `width="424pt"`) {
		t.Errorf("two 200pt panels and the gap: %.200s", svg)
	}
	if strings.Contains(svg, "Liberation Serif;") || !strings.Contains(svg, "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;") {
		t.Errorf("fonts: want sans-serif with fallbacks")
	}
}
