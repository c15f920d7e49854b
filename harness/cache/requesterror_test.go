package cache

import (
	"context"
	"errors"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
)

// refuseLM fails a call holding the request with continuation bad, as the
// engine does for a continuation with no tokens: nothing of the call is
// computed, and the error gives the request's index in the call.
type refuseLM struct {
	fakeLM
	bad string
}

func (r *refuseLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	for i, q := range reqs {
		if q.Continuation == r.bad {
			return nil, &model.RequestError{Index: i, Err: errors.New("continuation has no tokens")}
		}
	}
	return r.fakeLM.Loglikelihood(ctx, reqs)
}

// TestRequestErrorIndex checks that a refused request is named by its
// index in the caller's slice (not in the chunk of misses) and that the
// chunks before it stay committed.
func TestRequestErrorIndex(t *testing.T) {
	c := openTemp(t)
	ctx := context.Background()
	reqs := llRequests(30, 0)
	warm, _ := c.Wrap(&fakeLM{}, childID)
	if _, err := warm.Loglikelihood(ctx, reqs[:5]); err != nil { // hits shift the chunks
		t.Fatal(err)
	}
	reqs[23].Continuation = "<bad>"
	lm, _ := c.Wrap(&refuseLM{bad: "<bad>"}, childID)
	lm.ChunkSize = 4
	_, err := lm.Loglikelihood(ctx, reqs)
	var re *model.RequestError
	if !errors.As(err, &re) || re.Index != 23 {
		t.Fatalf("err = %#v, want a RequestError for request 23", err)
	}
	info, err := c.Summary()
	if err != nil {
		t.Fatal(err)
	}
	// 5 cached before; misses 5..22 come in chunks of 4: 5-8, 9-12, 13-16,
	// 17-20 commit, 21-24 holds the bad one.
	if got := info.Responses["loglikelihood"]; got != 5+16 {
		t.Errorf("%d answers committed, want 21", got)
	}
}
