package progress

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock a test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// clockedDisplay is an enabled Display drawing into buf, measuring rates
// by a fake clock.
func clockedDisplay() (*bytes.Buffer, *Display, *fakeClock) {
	var buf bytes.Buffer
	d := New(&buf, true)
	clock := newFakeClock()
	d.now = clock.now
	return &buf, d, clock
}

func TestPhase(t *testing.T) {
	buf, d, clock := clockedDisplay()
	p := d.Phase("loglikelihood", 4, 1000)
	clock.advance(5 * time.Second)
	var wg sync.WaitGroup
	for _, tok := range []int{400, 300, 200, 100} {
		wg.Add(1)
		go func() { defer wg.Done(); p.Add(1, tok) }()
	}
	wg.Wait()
	p.Finish()
	if r, tok := p.Done(); r != 4 || tok != 1000 {
		t.Errorf("Done = %d requests, %d tokens; want 4, 1000", r, tok)
	}
	out := buf.String()
	for _, want := range []string{"loglikelihood 4/4", "1000/1000", "200 tok/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%q", want, out)
		}
	}
}

func TestPhaseWithoutTokens(t *testing.T) {
	buf, d, clock := clockedDisplay()
	p := d.Phase("generate_until", 3, 0)
	clock.advance(4 * time.Second)
	p.Add(3, 0)
	p.Finish()
	if out := buf.String(); !strings.Contains(out, "3/3") || !strings.Contains(out, "0.75 req/s") {
		t.Errorf("request-counting bar output: %q", out)
	}
}

// TestPhaseRate: the rate a bar shows is never absurd: none in the first
// frames (no "0 tok/hr", no millions of tokens per second from the first
// chunk arriving at once), then the tokens done over the time taken,
// with the time left at that rate.
func TestPhaseRate(t *testing.T) {
	buf, d, clock := clockedDisplay()
	p := d.Phase("loglikelihood", 100, 100000)
	step := func(dt time.Duration, reqs, toks int) string {
		clock.advance(dt)
		before := buf.Len()
		p.Add(reqs, toks)
		return buf.String()[before:]
	}
	early := step(10*time.Millisecond, 1, 1000) + step(500*time.Millisecond, 1, 1000)
	if strings.Contains(early, "/s") || strings.Contains(early, "/hr") || strings.Contains(early, "/min") {
		t.Errorf("the first frames show a rate measured over half a second: %q", early)
	}
	// 6000 tokens in 3 s: 2000 tok/s, 94000 left: 47 s.
	if got := step(2490*time.Millisecond, 8, 4000); !strings.Contains(got, "2000 tok/s, 47s left") {
		t.Errorf("after 3 s and 6000 tokens: %q, want 2000 tok/s and 47s left", got)
	}
	// The rate follows the last minute: 94000 tokens in the next 94 s
	// after a minute at 1000 tok/s.
	step(60*time.Second, 10, 60000)
	if got := step(34*time.Second, 80, 34000); !strings.Contains(got, "1000 tok/s") {
		t.Errorf("at 1000 tok/s for the last minute: %q", got)
	}
	p.Finish()
	for _, frame := range strings.Split(buf.String(), "\r") {
		if strings.Contains(frame, "/hr") || strings.Contains(frame, "/min") {
			t.Errorf("a frame shows a rate per hour or minute: %q", frame)
		}
	}
}

func TestDisabled(t *testing.T) {
	var buf bytes.Buffer
	for _, d := range []*Display{New(&buf, false), nil, FromContext(context.Background())} {
		p := d.Phase("x", 2, 10)
		p.Add(2, 10)
		p.Finish()
		if r, tok := p.Done(); r != 2 || tok != 10 {
			t.Errorf("disabled phase counted %d, %d", r, tok)
		}
		w := d.Bytes("download", 10)
		w.Write(make([]byte, 10))
		w.Close()
	}
	if buf.Len() != 0 {
		t.Errorf("disabled display wrote %q", buf.String())
	}
	d := New(&buf, true)
	if FromContext(NewContext(context.Background(), d)) != d {
		t.Error("context does not carry the display")
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	if d := ForStderr(true); d.Enabled() {
		t.Error("--no_progress left bars on")
	}
}

func TestBytes(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, true).Bytes("model.gguf", 2048)
	w.Write(make([]byte, 2048))
	w.Close()
	if out := buf.String(); !strings.Contains(out, "model.gguf") || !strings.Contains(out, "2.0 kB") {
		t.Errorf("bytes bar output: %q", out)
	}
}

// TestETAFromTokens checks that the bar's time left comes from tokens
// remaining, not requests: two phases each halfway through their requests,
// one having done the long requests (700 of 1000 tokens) and one the short
// (300 of 1000), expect remaining/elapsed of 3/7 and 7/3.
func TestETAFromTokens(t *testing.T) {
	for _, tc := range []struct {
		doneTok, wantMax, wantCur int
		ratio                     float64
	}{
		{700, 1000, 700, 300.0 / 700},
		{300, 1000, 300, 700.0 / 300},
	} {
		var buf bytes.Buffer
		p := New(&buf, true).Phase("loglikelihood", 4, 1000)
		p.Add(2, tc.doneTok)
		st := p.bar.State()
		if st.Max != int64(tc.wantMax) || st.CurrentNum != int64(tc.wantCur) {
			t.Fatalf("bar at %d of %d; want %d of %d", st.CurrentNum, st.Max, tc.wantCur, tc.wantMax)
		}
		if st.SecondsSince <= 0 {
			t.Fatalf("bar not started")
		}
		if got := st.SecondsLeft / st.SecondsSince; math.Abs(got-tc.ratio) > 1e-9*tc.ratio {
			t.Errorf("%d of 1000 tokens done: time left / elapsed = %g, want %g", tc.doneTok, got, tc.ratio)
		}
		if !strings.Contains(buf.String(), "loglikelihood 2/4") {
			t.Errorf("bar does not show requests done: %q", buf.String())
		}
	}
}

// TestChunk checks that a chunk counts each request and token once, however
// much of it the model reported.
func TestChunk(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reports [][2]int // what the model reports during the call
		want    [][2]int // phase totals after each report, then after Close
	}{
		{"model silent", nil, [][2]int{{10, 500}}},
		{"model reports all", [][2]int{{4, 300}, {6, 200}}, [][2]int{{4, 300}, {10, 500}, {10, 500}}},
		{"model reports part", [][2]int{{3, 100}}, [][2]int{{3, 100}, {10, 500}}},
		{"model over-reports tokens", [][2]int{{2, 400}, {2, 400}, {6, 10}}, [][2]int{{2, 400}, {4, 500}, {10, 500}, {10, 500}}},
		{"model over-reports requests", [][2]int{{12, 100}}, [][2]int{{10, 100}, {10, 500}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := New(&buf, true).Phase("x", 30, 1500)
			p.Add(20, 1000) // earlier chunks
			c := p.Chunk(10, 500)
			ctx := NewReporterContext(context.Background(), c)
			var got [][2]int
			for _, r := range tc.reports {
				ReporterFromContext(ctx).Add(r[0], r[1])
				dr, dt := p.Done()
				got = append(got, [2]int{dr - 20, dt - 1000})
			}
			c.Close()
			p.Finish()
			dr, dt := p.Done()
			got = append(got, [2]int{dr - 20, dt - 1000})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("phase progress %v, want %v", got, tc.want)
			}
			if st := p.bar.State(); st.CurrentNum != 1500 {
				t.Errorf("bar at %d tokens, want 1500", st.CurrentNum)
			}
		})
	}
	if ReporterFromContext(context.Background()) != nil {
		t.Error("a bare context carries a reporter")
	}
}

func TestMeter(t *testing.T) {
	var buf bytes.Buffer
	m := New(&buf, true).Meter("loading model.gguf", 4096)
	for _, f := range []float64{0, 0.25, 0.5, 1} {
		m.Set(f)
		if got, want := m.bar.State().CurrentNum, int64(f*4096); got != want {
			t.Errorf("Set(%g): bar at %d, want %d", f, got, want)
		}
	}
	m.Close()
	out := buf.String()
	if !strings.Contains(out, "loading model.gguf") || !strings.Contains(out, "4.1 kB") || !strings.HasSuffix(out, "\n") {
		t.Errorf("meter output: %q", out)
	}

	// Unfinished, Close ends the line; never set, it draws nothing.
	buf.Reset()
	m = New(&buf, true).Meter("loading", 0)
	m.Set(0.5)
	m.Close()
	if out := buf.String(); !strings.Contains(out, "50%") || !strings.HasSuffix(out, "\n") {
		t.Errorf("unfinished meter output: %q", out)
	}
	buf.Reset()
	New(&buf, true).Meter("loading", 10).Close()
	var nilDisplay *Display
	nilDisplay.Meter("loading", 10).Set(1)
	if buf.Len() != 0 {
		t.Errorf("unused meter wrote %q", buf.String())
	}
	if nilDisplay.Writer() != nil || New(&buf, false).Writer() != nil || New(&buf, true).Writer() != &buf {
		t.Error("Writer is not nil exactly when bars are off")
	}
}

// TestPhaseDrawsLateReports checks that a report arriving within the
// throttle interval of the previous drawing is drawn soon after, not left
// until the next report.
func TestPhaseDrawsLateReports(t *testing.T) {
	var buf syncBuffer
	p := New(&buf, true).Phase("loglikelihood", 4, 100)
	p.Add(1, 10)
	p.Add(1, 30) // within the throttle interval: drawn by the timer
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "loglikelihood 2/4") || p.bar.State().CurrentNum != 40 {
		if time.Now().After(deadline) {
			t.Fatalf("second report never drawn: bar at %d, output %q", p.bar.State().CurrentNum, buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.Finish()
}

// syncBuffer is a bytes.Buffer safe for the timer's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPhaseEndsOnce checks that a bar whose tokens are all in before its
// requests ends its line once, with the final count, when the last request
// comes.
func TestPhaseEndsOnce(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, true).Phase("loglikelihood", 3, 100)
	p.Add(2, 100)
	if n := p.bar.State().CurrentNum; n != 99 {
		t.Errorf("bar at %d of 100 tokens with a request to come, want 99", n)
	}
	p.Add(1, 0)
	p.Finish()
	out := buf.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("bar ends its line %d times: %q", strings.Count(out, "\n"), out)
	}
	last := out[strings.LastIndex(out, "\r")+1:]
	if !strings.Contains(last, "loglikelihood 3/3") || !strings.Contains(last, "100/100") {
		t.Errorf("last drawing %q lacks the final counts", last)
	}
}
