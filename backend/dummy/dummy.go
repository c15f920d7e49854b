// Package dummy is the "dummy" backend (lm-eval's DummyLM): random
// answers for testing pipelines without a model. Log-likelihoods are
// -U(0,1), IsGreedy is a coin flip, rolling log-likelihoods are -U(0,1)
// and every generation is "lol", as in lm-eval.
//
// Unlike lm-eval's, the answers are reproducible: each is drawn from a
// generator seeded by the seed model_arg and the request itself, so the same
// request gets the same answer whatever the batching or order.
package dummy

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
)

// LM is the dummy model.
type LM struct {
	Seed uint64
}

var (
	_ model.LM        = (*LM)(nil)
	_ model.Describer = (*LM)(nil)
)

func init() {
	model.Register("dummy", func(_ context.Context, args model.Args) (model.LM, error) {
		return New(args)
	})
}

// New makes the dummy model from model_args; it accepts seed (default
// 1234) and ignores the rest, so any model_args string works with it.
func New(args model.Args) (*LM, error) {
	d := &LM{Seed: 1234}
	if s, ok := args["seed"]; ok {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("dummy: model_args seed=%q: want a non-negative integer", s)
		}
		d.Seed = v
	}
	return d, nil
}

func (d *LM) rng(kind string, parts ...string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(kind))
	for _, p := range parts {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return rand.New(rand.NewPCG(d.Seed, h.Sum64()))
}

// Loglikelihood implements model.LM.
func (d *LM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := d.rng("loglikelihood", r.Context, r.Continuation)
		out[i] = model.LoglikelihoodResult{
			LogProb:   -g.Float64(),
			IsGreedy:  g.IntN(2) == 1,
			NumTokens: max(1, len(strings.Fields(r.Continuation))),
		}
	}
	return out, nil
}

// LoglikelihoodRolling implements model.LM.
func (d *LM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	out := make([]model.RollingResult, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := d.rng("loglikelihood_rolling", r.Text)
		out[i] = model.RollingResult{LogProb: -g.Float64(), NumTokens: max(1, len(strings.Fields(r.Text)))}
	}
	return out, nil
}

// GenerateUntil implements model.LM: every answer is "lol", an empty context's
// too. (lm-eval's DummyLM asserts that the context is not blank, after
// answering; lmeval does not end a run of many tasks because one
// document's template rendered empty, with any backend.)
func (d *LM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = "lol"
	}
	return out, nil
}

// Describe implements model.Describer.
func (d *LM) Describe() model.Description {
	return model.Description{Backend: "dummy", Facts: &Facts{Seed: d.Seed}}
}

// Facts are the dummy's facts in the results' lmeval block
// (model.Description.Facts).
type Facts struct {
	Seed uint64 `json:"seed" info:"model"`
}
