package engine

import (
	"context"
	"runtime/cgo"
	"sync/atomic"
)

// Model loading reports its progress from C through lmevalGoLoadProgress.
// C holds only an integer, never a Go pointer: a runtime/cgo.Handle naming
// the loadReporter while lm_load runs.

// liveLoadHandles counts the handles not yet deleted (for tests).
var liveLoadHandles atomic.Int32

// loadReporter passes llama.cpp's load fractions on, rising only, and
// remembers the last so Load can finish at 1.
type loadReporter struct {
	fn   func(float64)
	last float64
}

func (r *loadReporter) report(frac float64) {
	frac = min(max(frac, 0), 1)
	if frac < r.last || (frac == r.last && frac > 0) {
		return
	}
	r.last = frac
	r.fn(frac)
}

// registerLoadProgress returns the handle for r and a function that
// deletes it.
func registerLoadProgress(r *loadReporter) (uintptr, func()) {
	h := cgo.NewHandle(r)
	liveLoadHandles.Add(1)
	return uintptr(h), func() {
		h.Delete()
		liveLoadHandles.Add(-1)
	}
}

// loadProgressNative receives a load fraction from C (on the loading
// thread, while lm_load runs).
func loadProgressNative(id uintptr, frac float64) {
	if r, ok := cgo.Handle(id).Value().(*loadReporter); ok {
		r.report(frac)
	}
}

type progressKey struct{}

// WithProgress returns ctx carrying fn, which Loglikelihood,
// LoglikelihoodTokens, LoglikelihoodRolling and GenerateUntil called with
// that context call as requests finish (from the calling goroutine, at
// most once per decode step): requests is how many finished since the last
// call and tokens their input tokens, so that over the call the requests
// add up to the number of requests and the tokens to their input tokens.
// A request's input tokens are its context and continuation tokens for a
// loglikelihood request (after truncation), its text's tokens for a
// rolling one (Result.NumTokens), and its prompt tokens for a generation
// (after truncation; generated tokens are not counted, as their number is
// not known in advance).
func WithProgress(ctx context.Context, fn func(requests, tokens int)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressFrom returns the hook in ctx, or one that does nothing.
func progressFrom(ctx context.Context) func(requests, tokens int) {
	if fn, ok := ctx.Value(progressKey{}).(func(requests, tokens int)); ok && fn != nil {
		return fn
	}
	return func(int, int) {}
}

// finishTracker turns jobs finishing into requests finishing: a request
// (a result slot) may take several jobs (rolling windows).
type finishTracker struct {
	jobsLeft []int32 // per slot
	tokens   []int   // per slot: input tokens, reported when it finishes
	report   func(requests, tokens int)
	reqs     int // finished, not yet reported
	toks     int
}

// newFinishTracker counts the jobs of each of n slots; tokens gives each
// slot's input tokens.
func newFinishTracker(ctx context.Context, jobs []job, tokens []int) *finishTracker {
	t := &finishTracker{jobsLeft: make([]int32, len(tokens)), tokens: tokens, report: progressFrom(ctx)}
	for _, j := range jobs {
		t.jobsLeft[j.slot]++
	}
	for s, n := range t.jobsLeft {
		if n == 0 { // nothing to decode (an empty rolling text)
			t.reqs++
			t.toks += tokens[s]
		}
	}
	return t
}

// jobDone records that a job of slot finished.
func (t *finishTracker) jobDone(slot int32) {
	if t == nil {
		return
	}
	t.jobsLeft[slot]--
	if t.jobsLeft[slot] == 0 {
		t.reqs++
		t.toks += t.tokens[slot]
	}
}

// flush reports the requests finished since the last flush.
func (t *finishTracker) flush() {
	if t == nil || t.reqs == 0 {
		return
	}
	t.report(t.reqs, t.toks)
	t.reqs, t.toks = 0, 0
}
