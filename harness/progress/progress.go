// Package progress shows progress bars on stderr: one per evaluation phase
// (per request type), counting requests done and estimating the time left
// from tokens remaining rather than requests, since long contexts come
// first and request counts would mislead; plus byte bars for model loading
// and downloads. Bars are off when the output is not a terminal or the user
// asked for --no_progress; the packages that report need not care.
package progress

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Reporter is what the engine and the evaluator report to as work
// completes.
type Reporter interface {
	// Add records requests answered and the tokens they processed.
	Add(requests, tokens int)
}

// Display makes bars. A nil or disabled Display makes bars that draw
// nothing.
type Display struct {
	w       io.Writer
	enabled bool
	now     func() time.Time // the clock rates are measured by (tests set it)
}

// New returns a Display drawing on w when enabled.
func New(w io.Writer, enabled bool) *Display { return &Display{w: w, enabled: enabled, now: time.Now} }

// ForStderr returns a Display on stderr, enabled when stderr is a terminal
// and noProgress is false.
func ForStderr(noProgress bool) *Display {
	return New(os.Stderr, !noProgress && IsTerminal(os.Stderr))
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Enabled reports whether bars are drawn.
func (d *Display) Enabled() bool { return d != nil && d.enabled }

// Writer returns where bars are drawn, or nil when they are not: for
// libraries that draw their own (downloads).
func (d *Display) Writer() io.Writer {
	if !d.Enabled() {
		return nil
	}
	return d.w
}

type ctxKey struct{}

// NewContext returns ctx carrying d, for code far from the command line.
func NewContext(ctx context.Context, d *Display) context.Context {
	return context.WithValue(ctx, ctxKey{}, d)
}

// FromContext returns the Display in ctx, or a disabled one.
func FromContext(ctx context.Context) *Display {
	if d, ok := ctx.Value(ctxKey{}).(*Display); ok {
		return d
	}
	return nil
}

type reporterKey struct{}

// NewReporterContext returns ctx carrying r, for a model to report requests
// as they finish within one call (see Phase.Chunk).
func NewReporterContext(ctx context.Context, r Reporter) context.Context {
	return context.WithValue(ctx, reporterKey{}, r)
}

// ReporterFromContext returns the Reporter in ctx, or nil.
func ReporterFromContext(ctx context.Context) Reporter {
	r, _ := ctx.Value(reporterKey{}).(Reporter)
	return r
}

// Phase is the bar of one phase of work. Safe for concurrent use.
type Phase struct {
	mu       sync.Mutex
	bar      *progressbar.ProgressBar // nil when disabled
	name     string
	unit     string // "tok" or "req": what the bar counts
	requests int    // total
	tokens   int    // total; 0 when unknown
	doneReq  int
	doneTok  int
	now      func() time.Time
	// samples are (time, count) pairs of the last rateWindow, the first
	// the phase's start: the rate is measured over them.
	samples []sample
	// The bar is drawn at most every throttle: shown is what it shows,
	// and a timer draws what came in since, so a burst of reports followed
	// by a pause is not left undrawn.
	shown    int
	lastDraw time.Time
	timer    *time.Timer
}

// throttle is the least time between two drawings of a phase's bar.
const throttle = 100 * time.Millisecond

// The rate a bar shows (and its time left) is the work done over the last
// rateWindow, and none until the phase has run for rateMin: a rate
// measured over milliseconds (the first chunk's tokens arriving at once)
// would be absurd.
const (
	rateWindow = time.Minute
	rateMin    = 2 * time.Second
)

type sample struct {
	t    time.Time
	done int
}

// Phase starts a bar for name with the given totals. With tokens > 0 the
// bar advances by tokens, so its rate is tokens/s and its ETA the tokens
// remaining at that rate; with tokens == 0 it advances by requests.
func (d *Display) Phase(name string, requests, tokens int) *Phase {
	p := &Phase{name: name, requests: requests, tokens: tokens}
	if !d.Enabled() {
		return p
	}
	max, unit := tokens, "tok"
	if tokens <= 0 {
		max, unit = requests, "req"
	}
	d.start(p, max, unit)
	return p
}

// Count starts a bar counting total things named unit ("files",
// "names"); a total <= 0 is unknown: the bar shows the count alone.
func (d *Display) Count(name, unit string, total int) *Phase {
	p := &Phase{name: name, requests: total}
	if d.Enabled() {
		d.start(p, total, unit)
	}
	return p
}

// start gives p its clock and its bar of max units (max <= 0: unknown).
func (d *Display) start(p *Phase, max int, unit string) {
	p.now = d.now
	if p.now == nil {
		p.now = time.Now
	}
	p.samples = []sample{{t: p.now()}}
	p.unit = unit
	if max <= 0 {
		max = -1 // progressbar's spinner
	}
	// The rate and the time left are lmeval's (describe), not the
	// library's, which measures from the first report and shows 0 tok/hr
	// before it.
	p.bar = progressbar.NewOptions(max,
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(p.describe()),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(d.w) }),
	)
}

// describe is the bar's text: requests done, and once measured the rate
// and the time left. The caller holds p.mu.
func (p *Phase) describe() string {
	s := fmt.Sprintf("%s %d/%d", p.name, p.doneReq, p.requests)
	if p.requests <= 0 {
		s = fmt.Sprintf("%s %d", p.name, p.doneReq)
	}
	if rate, ok := p.rate(); ok {
		s += ", " + formatRate(rate) + " " + p.unit + "/s"
		if left := p.total() - p.done(); left > 0 && p.doneReq < p.requests {
			s += ", " + (time.Duration(float64(left) / rate * float64(time.Second))).Round(time.Second).String() + " left"
		}
	}
	return s
}

// done and total are what the bar counts: tokens, else requests.
func (p *Phase) done() int {
	if p.tokens > 0 {
		return p.doneTok
	}
	return p.doneReq
}

func (p *Phase) total() int {
	if p.tokens > 0 {
		return p.tokens
	}
	return p.requests
}

// record adds a sample of the work done now and drops those older than
// rateWindow (keeping one), for rate. The caller holds p.mu.
func (p *Phase) record() {
	now := p.now()
	p.samples = append(p.samples, sample{t: now, done: p.done()})
	i := 0
	for i < len(p.samples)-2 && now.Sub(p.samples[i+1].t) >= rateWindow {
		i++
	}
	p.samples = p.samples[i:]
}

// rate is the work per second over the samples; ok is false until the
// phase has run for rateMin or while nothing is done.
func (p *Phase) rate() (float64, bool) {
	if len(p.samples) < 2 {
		return 0, false
	}
	first, last := p.samples[0], p.samples[len(p.samples)-1]
	dt := last.t.Sub(first.t)
	if dt < rateMin || last.done <= first.done {
		return 0, false
	}
	return float64(last.done-first.done) / dt.Seconds(), true
}

// formatRate prints a rate with the digits that matter: 2412, 37.5, 0.25.
func formatRate(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f", r)
	case r >= 10:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.2f", r)
}

// Add implements Reporter.
func (p *Phase) Add(requests, tokens int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.doneReq += requests
	p.doneTok += tokens
	if p.bar == nil {
		return
	}
	if wait := throttle - p.now().Sub(p.lastDraw); wait > 0 {
		if p.timer == nil {
			p.timer = time.AfterFunc(wait, func() {
				p.mu.Lock()
				defer p.mu.Unlock()
				p.timer = nil
				p.draw()
			})
		}
		return
	}
	p.draw()
}

// draw brings the bar up to date. The caller holds p.mu.
func (p *Phase) draw() {
	if p.bar.IsFinished() {
		return
	}
	p.lastDraw = p.now()
	p.record()
	done, max := p.doneReq, p.requests
	if p.tokens > 0 {
		done, max = p.doneTok, p.tokens
	}
	// The bar finishes (and ends its line) when it reaches its max, so
	// it stops short of it until every request is in, whatever the tokens.
	if p.doneReq < p.requests {
		done = min(done, max-1)
	}
	// Both calls render (the bar itself is not throttled): the
	// description first, so the last line drawn has the new count too.
	p.bar.Describe(p.describe())
	if done > p.shown {
		p.bar.Add(done - p.shown)
		p.shown = done
	}
}

// Chunk is the part of a phase that one call to the model covers. The
// model may report requests as they finish (Add, usually through
// NewReporterContext); Close adds what it left unreported. So the phase
// counts each request and token of the chunk exactly once whether the
// model reports all, some or none of them, and the chunk's own totals, not
// the model's counts, are what the bar shows: reports beyond them are
// dropped.
type Chunk struct {
	mu               sync.Mutex
	p                *Phase
	requests, tokens int
	doneReq, doneTok int
}

// Chunk starts a chunk of requests requests and tokens tokens.
func (p *Phase) Chunk(requests, tokens int) *Chunk {
	return &Chunk{p: p, requests: requests, tokens: tokens}
}

// Add implements Reporter.
func (c *Chunk) Add(requests, tokens int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := min(max(requests, 0), c.requests-c.doneReq)
	t := min(max(tokens, 0), c.tokens-c.doneTok)
	if r == 0 && t == 0 {
		return
	}
	c.doneReq += r
	c.doneTok += t
	c.p.Add(r, t)
}

// Close adds the chunk's requests and tokens not yet reported.
func (c *Chunk) Close() { c.Add(c.requests, c.tokens) }

// Done returns the requests and tokens reported so far.
func (p *Phase) Done() (requests, tokens int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.doneReq, p.doneTok
}

// Finish completes the bar.
func (p *Phase) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil || p.bar.IsFinished() {
		return
	}
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.draw()
	if !p.bar.IsFinished() {
		p.bar.Finish()
	}
}

// Bytes returns a writer counting bytes towards total (-1 if unknown) under
// a bar named name, for model loading and downloads: copy through it, then
// call Close. When the Display is disabled it counts nothing and draws
// nothing.
func (d *Display) Bytes(name string, total int64) io.WriteCloser {
	if !d.Enabled() {
		return nopWriteCloser{}
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(name),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(d.w) }),
		progressbar.OptionSpinnerType(14),
	)
}

// Meter is a bar filled by fraction, for work that reports how far it
// got rather than what it did (model loading). Safe for concurrent use.
type Meter struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar // nil when disabled
	total int64
	drawn bool
}

// Meter starts a bar named name over total bytes (when total <= 0, a
// percentage). Set it as the work goes; Close it when done or failed.
func (d *Display) Meter(name string, total int64) *Meter {
	if !d.Enabled() {
		return &Meter{}
	}
	m := &Meter{total: total}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(name),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(d.w) }),
	}
	if total > 0 {
		opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionShowCount())
	} else {
		m.total = 100
	}
	m.bar = progressbar.NewOptions64(m.total, opts...)
	return m
}

// Set moves the bar to frac (0 to 1) of its total.
func (m *Meter) Set(frac float64) {
	if m.bar == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drawn = true
	m.bar.Set64(int64(min(max(frac, 0), 1) * float64(m.total)))
}

// Close ends the bar's line, finished or not (a bar never set draws
// nothing).
func (m *Meter) Close() {
	if m.bar == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.drawn && !m.bar.IsFinished() {
		m.bar.Exit()
	}
}

type nopWriteCloser struct{}

func (nopWriteCloser) Write(b []byte) (int, error) { return len(b), nil }
func (nopWriteCloser) Close() error                { return nil }
