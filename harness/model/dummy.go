package model

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Dummy is the "dummy" backend (lm-eval's DummyLM): random answers for
// testing pipelines without a model. Log-likelihoods are -U(0,1),
// IsGreedy is a coin flip, rolling log-likelihoods are -U(0,1) and every
// generation is "lol", as in lm-eval.
//
// Unlike lm-eval's, the answers are reproducible: each is drawn from a
// generator seeded by the seed model_arg and the request itself, so the same
// request gets the same answer whatever the batching or order.
type Dummy struct {
	Seed uint64
}

var (
	_ LM        = (*Dummy)(nil)
	_ Describer = (*Dummy)(nil)
)

func init() {
	Register("dummy", func(_ context.Context, args Args) (LM, error) {
		return NewDummy(args)
	})
}

// NewDummy makes a Dummy from model_args; it accepts seed (default 1234)
// and ignores the rest, so any model_args string works with it.
func NewDummy(args Args) (*Dummy, error) {
	d := &Dummy{Seed: 1234}
	if s, ok := args["seed"]; ok {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("dummy: model_args seed=%q: want a non-negative integer", s)
		}
		d.Seed = v
	}
	return d, nil
}

func (d *Dummy) rng(kind string, parts ...string) *rand.Rand {
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

// Loglikelihood implements LM.
func (d *Dummy) Loglikelihood(ctx context.Context, reqs []LoglikelihoodRequest) ([]LoglikelihoodResult, error) {
	out := make([]LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := d.rng("loglikelihood", r.Context, r.Continuation)
		out[i] = LoglikelihoodResult{
			LogProb:   -g.Float64(),
			IsGreedy:  g.IntN(2) == 1,
			NumTokens: max(1, len(strings.Fields(r.Continuation))),
		}
	}
	return out, nil
}

// LoglikelihoodRolling implements LM.
func (d *Dummy) LoglikelihoodRolling(ctx context.Context, reqs []RollingRequest) ([]RollingResult, error) {
	out := make([]RollingResult, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g := d.rng("loglikelihood_rolling", r.Text)
		out[i] = RollingResult{LogProb: -g.Float64(), NumTokens: max(1, len(strings.Fields(r.Text)))}
	}
	return out, nil
}

// GenerateUntil implements LM: every answer is "lol", an empty context's
// too. (lm-eval's DummyLM asserts that the context is not blank, after
// answering; lmeval does not end a run of many tasks because one
// document's template rendered empty, with any backend.)
func (d *Dummy) GenerateUntil(ctx context.Context, reqs []GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = "lol"
	}
	return out, nil
}

// Describe implements Describer.
func (d *Dummy) Describe() Info {
	seed := d.Seed
	return Info{Backend: "dummy", Seed: &seed}
}
