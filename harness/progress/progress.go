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
}

// New returns a Display drawing on w when enabled.
func New(w io.Writer, enabled bool) *Display { return &Display{w: w, enabled: enabled} }

// ForStderr returns a Display on stderr, enabled when stderr is a terminal
// and noProgress is false.
func ForStderr(noProgress bool) *Display {
	return New(os.Stderr, !noProgress && IsTerminal(os.Stderr))
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Enabled reports whether bars are drawn.
func (d *Display) Enabled() bool { return d != nil && d.enabled }

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

// Phase is the bar of one phase of work. Safe for concurrent use.
type Phase struct {
	mu       sync.Mutex
	bar      *progressbar.ProgressBar // nil when disabled
	name     string
	requests int // total
	tokens   int // total; 0 when unknown
	doneReq  int
	doneTok  int
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
	p.bar = progressbar.NewOptions(max,
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(p.describe()),
		progressbar.OptionShowIts(),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(d.w) }),
	)
	return p
}

func (p *Phase) describe() string {
	return fmt.Sprintf("%s %d/%d", p.name, p.doneReq, p.requests)
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
	p.bar.Describe(p.describe())
	if p.tokens > 0 {
		p.bar.Add(tokens)
	} else {
		p.bar.Add(requests)
	}
}

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
	if p.bar != nil && !p.bar.IsFinished() {
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

type nopWriteCloser struct{}

func (nopWriteCloser) Write(b []byte) (int, error) { return len(b), nil }
func (nopWriteCloser) Close() error                { return nil }
