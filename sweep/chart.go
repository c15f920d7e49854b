package sweep

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// WriteChart draws the report as an SVG: perplexity (with ± error bars)
// and mean KLD against bits per weight, one labelled point per model. The
// KLD panel uses a log scale when the values span more than two decades.
func WriteChart(w io.Writer, r *Report) error {
	const (
		pw, ph   = 460.0, 340.0 // panel size
		ml, mr   = 70.0, 20.0
		mt, mb   = 40.0, 50.0
		gap      = 30.0
		totalW   = 2*(ml+pw+mr) + gap
		totalH   = mt + ph + mb
		fontAttr = `font-family="sans-serif" font-size="11"`
	)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n", totalW, totalH, totalW, totalH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")

	type pt struct {
		x, y, lo, hi float64
		label        string
		base         bool
	}
	var ppl, kld []pt
	for _, m := range r.Models {
		if m.Error != "" || m.PPL == nil {
			continue
		}
		ppl = append(ppl, pt{m.BitsPerWeight, m.PPL.PPL, m.PPL.PPL - m.PPL.PPLUnc, m.PPL.PPL + m.PPL.PPLUnc, m.Name, m.IsBase})
		if m.KLD != nil {
			kld = append(kld, pt{m.BitsPerWeight, m.KLD.KLD, m.KLD.KLD - m.KLD.KLDUnc, m.KLD.KLD + m.KLD.KLDUnc, m.Name, false})
		}
	}
	panel := func(x0 float64, title, ylabel string, pts []pt) {
		fmt.Fprintf(&b, `<g transform="translate(%.1f,%.1f)">`+"\n", x0+ml, mt)
		fmt.Fprintf(&b, `<text x="%.1f" y="-16" text-anchor="middle" font-family="sans-serif" font-size="14">%s</text>`+"\n", pw/2, html.EscapeString(title))
		fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="none" stroke="#444"/>`+"\n", pw, ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" %s>bits per weight</text>`+"\n", pw/2, ph+38, fontAttr)
		fmt.Fprintf(&b, `<text transform="translate(-52,%.1f) rotate(-90)" text-anchor="middle" %s>%s</text>`+"\n", ph/2, fontAttr, html.EscapeString(ylabel))
		if len(pts) == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" %s>no data</text></g>`+"\n", pw/2, ph/2, fontAttr)
			return
		}
		xmin, xmax := math.Inf(1), math.Inf(-1)
		ymin, ymax := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			xmin, xmax = math.Min(xmin, p.x), math.Max(xmax, p.x)
			ymin, ymax = math.Min(ymin, math.Min(p.lo, p.y)), math.Max(ymax, math.Max(p.hi, p.y))
		}
		logY := ymin > 0 && ymax/ymin > 100
		fy := func(v float64) float64 { return v }
		if logY {
			fy = math.Log10
			ymin, ymax = math.Log10(ymin), math.Log10(ymax)
		}
		xmin, xmax = pad(xmin, xmax)
		ymin, ymax = pad(ymin, ymax)
		sx := func(v float64) float64 { return (v - xmin) / (xmax - xmin) * pw }
		sy := func(v float64) float64 { return ph - (fy(v)-ymin)/(ymax-ymin)*ph }
		for _, t := range ticks(xmin, xmax) {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" stroke="#ddd"/><text x="%.1f" y="%.0f" text-anchor="middle" %s>%s</text>`+"\n",
				sx(t), sx(t), 0.0, ph, sx(t), ph+16, fontAttr, fmtTick(t))
		}
		for _, t := range ticks(ymin, ymax) {
			y := ph - (t-ymin)/(ymax-ymin)*ph
			label := fmtTick(t)
			if logY {
				label = fmtTick(math.Pow(10, t))
			}
			fmt.Fprintf(&b, `<line x1="0" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="-6" y="%.1f" text-anchor="end" %s>%s</text>`+"\n",
				pw, y, y, y+4, fontAttr, label)
		}
		// Labels of points that land close together (F16 and BF16 share a
		// bits-per-weight value) are stacked so each stays readable.
		var placed [][2]float64
		for _, p := range pts {
			x, y := sx(p.x), sy(p.y)
			ly := y - 6
			for moved := true; moved; {
				moved = false
				for _, q := range placed {
					if math.Abs(q[0]-x) < 60 && math.Abs(q[1]-ly) < 12 {
						ly = q[1] + 13
						moved = true
					}
				}
			}
			placed = append(placed, [2]float64{x, ly})
			if p.hi > p.lo && (!logY || p.lo > 0) {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#1f77b4"/>`+"\n", x, x, sy(p.lo), sy(p.hi))
			}
			color := "#1f77b4"
			if p.base {
				color = "#d62728"
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s: %.6g</title></circle>`+"\n", x, y, color, html.EscapeString(p.label), p.y)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s>%s</text>`+"\n", x+6, ly, fontAttr, html.EscapeString(p.label))
		}
		b.WriteString("</g>\n")
	}
	panel(0, "Perplexity (llama.cpp chunks)", "perplexity", ppl)
	panel(ml+pw+mr+gap, "Mean KL divergence from the base", "mean KLD (nats)", kld)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// pad widens [lo, hi] by 8% on each side (and a degenerate range to a
// unit around its value).
func pad(lo, hi float64) (float64, float64) {
	if hi-lo < 1e-12 {
		d := math.Max(math.Abs(lo)*0.1, 0.5)
		return lo - d, hi + d
	}
	d := (hi - lo) * 0.08
	return lo - d, hi + d
}

// ticks returns about five round values within [lo, hi].
func ticks(lo, hi float64) []float64 {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func fmtTick(v float64) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return fmt.Sprintf("%.4g", v)
}
