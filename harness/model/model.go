// Package model defines the language-model interface the harness evaluates
// through (lm-eval's lm_eval/api/model.py LM), the request and response types
// that cross it, and the registry of model backends ("llama", "dummy", ...).
//
// The harness knows nothing of how a backend computes its answers; the
// in-process llama.cpp engine is one backend among others.
package model

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// LoglikelihoodRequest asks for log P(Continuation | Context).
type LoglikelihoodRequest struct {
	Context      string
	Continuation string
}

// LoglikelihoodResult is the answer to a LoglikelihoodRequest.
type LoglikelihoodResult struct {
	LogProb   float64 // sum of the continuation tokens' log-probabilities
	IsGreedy  bool    // every continuation token was the argmax
	NumTokens int     // continuation tokens scored
}

// RollingRequest asks for the log-likelihood of a whole text, every token
// scored once with maximal context (lm-eval's loglikelihood_rolling).
type RollingRequest struct {
	Text string
}

// RollingResult is the answer to a RollingRequest.
type RollingResult struct {
	LogProb   float64
	NumTokens int
}

// GenerateRequest asks for a continuation of Context (lm-eval's
// generate_until). Zero values mean: greedy decoding, the backend's default
// length, no stop strings.
type GenerateRequest struct {
	Context    string
	Until      []string
	MaxGenToks int // 0: 256, lm-eval's default
	DoSample   bool
	// Temperature 0 with DoSample false is greedy decoding.
	Temperature float64
	TopP        float64
	TopK        int
	Seed        int64
	// Reasoning, for a reasoning model, names its trace's markers and
	// bounds it (--model_args think_end_token, reasoning_budget); only a
	// Generator acts on it. Nil for every other request, which keeps the
	// response cache's keys.
	Reasoning *Reasoning `json:",omitempty"`
}

// Reasoning describes a reasoning model's trace: the text that opens it
// (or that the prompt opened it with) and the text that closes it. With a
// Budget (0 or more), once the trace has taken that many tokens without
// closing, Message and End are forced and the answer follows, as with
// llama-server's --reasoning-budget and --reasoning-budget-message; a
// negative Budget only counts.
type Reasoning struct {
	Start, End string
	Budget     int
	Message    string `json:",omitempty"`
}

// Generation is a generate_until answer with its token counts.
type Generation struct {
	// Text is the whole generation, reasoning trace included, cut at the
	// first stop string.
	Text string
	// Tokens generated, and how many of them belong to the reasoning
	// trace (from its opening marker through its closing one, forced
	// tokens included); the rest are the answer's.
	Tokens, ReasoningTokens int
	// BudgetHit reports a trace cut by Reasoning.Budget.
	BudgetHit bool `json:",omitempty"`
}

// LM is what the evaluator needs from a model. Each method answers every
// request, in order; implementations batch and reorder internally as they
// please. They stop early with ctx.Err() when ctx is cancelled.
type LM interface {
	Loglikelihood(ctx context.Context, reqs []LoglikelihoodRequest) ([]LoglikelihoodResult, error)
	LoglikelihoodRolling(ctx context.Context, reqs []RollingRequest) ([]RollingResult, error)
	GenerateUntil(ctx context.Context, reqs []GenerateRequest) ([]string, error)
}

// RequestError reports that the request at Index of a call's slice cannot
// be answered (bad input: a continuation with no tokens, a prompt that
// leaves no room to generate). An LM that returns it has computed nothing
// of the call; an LM that passes a subset of its requests on to another
// translates Index back to its own caller's slice, so the evaluator can
// name the task and document at fault.
type RequestError struct {
	Index int
	Err   error
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// Args are a backend's lm-eval style model_args (pretrained=x,n_ctx=y).
type Args map[string]string

// Factory makes an LM from its model_args.
type Factory func(ctx context.Context, args Args) (LM, error)

var (
	mu        sync.RWMutex
	factories = map[string]Factory{}
)

// Register adds a backend under name. Backends register themselves in init.
func Register(name string, f Factory) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := factories[name]; dup {
		panic("model: backend registered twice: " + name)
	}
	factories[name] = f
}

// New makes the backend called name.
func New(ctx context.Context, name string, args Args) (LM, error) {
	mu.RLock()
	f, ok := factories[name]
	mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown model %q (known: %v)", name, Names())
	}
	return f(ctx, args)
}

// Names lists the registered backends, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	var names []string
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
