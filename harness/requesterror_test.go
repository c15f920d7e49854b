package harness

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/model"
)

// refusingLM answers as the LM it wraps, except that a call holding the
// request (context containing ctx, continuation cont) fails with a
// model.RequestError for it, computing nothing, as the engine does for a
// continuation with no tokens.
type refusingLM struct {
	model.LM
	ctx, cont string
	mu        sync.Mutex
	answered  int
}

var errNoTokens = errors.New("continuation has no tokens")

func (r *refusingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	for i, q := range reqs {
		if strings.Contains(q.Context, r.ctx) && q.Continuation == r.cont {
			return nil, &model.RequestError{Index: i, Err: errNoTokens}
		}
	}
	r.mu.Lock()
	r.answered += len(reqs)
	r.mu.Unlock()
	return r.LM.Loglikelihood(ctx, reqs)
}

// TestRequestErrorNamesDocument checks that a request the model refuses
// fails the run with an error naming its task and doc_id, through the
// response cache, and that the cache keeps the answers of the chunks
// completed before: a rerun computes only the rest.
func TestRequestErrorNamesDocument(t *testing.T) {
	dummy, _ := dummy.New(nil)
	db, err := cache.Open(filepath.Join(t.TempDir(), "cache.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id := cache.Identity{Backend: "dummy", Settings: map[string]string{}}

	// doc_id 2 of toy_mc: "Which is a fruit?" with choices carrot, apple.
	bad := &refusingLM{LM: dummy, ctx: "Which is a fruit?", cont: " apple"}
	clm, err := db.Wrap(bad, id)
	if err != nil {
		t.Fatal(err)
	}
	clm.ChunkSize = 2
	_, err = evaluate(context.Background(), testConfig(t, "toy_mc"), clm, WithRegistry(testRegistry(t)))
	var re *model.RequestError
	if !errors.As(err, &re) || !errors.Is(err, errNoTokens) {
		t.Fatalf("err = %v, want the model's RequestError", err)
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), "loglikelihood request of task toy_mc, doc_id 2: ") {
		t.Errorf("err = %q, want it to name task toy_mc, doc_id 2", err)
	}
	if bad.answered == 0 {
		t.Fatal("the refused request came first; the test needs answers before it")
	}

	// The answers computed before the refusal are in the cache.
	rec := &recordingLM{LM: dummy}
	clm2, _ := db.Wrap(rec, id)
	if _, err := evaluate(context.Background(), testConfig(t, "toy_mc"), clm2, WithRegistry(testRegistry(t))); err != nil {
		t.Fatal(err)
	}
	all := &recordingLM{LM: dummy}
	if _, err := evaluate(context.Background(), testConfig(t, "toy_mc"), all, WithRegistry(testRegistry(t))); err != nil {
		t.Fatal(err)
	}
	if got, want := rec.reqs["loglikelihood"], all.reqs["loglikelihood"]-bad.answered; got != want {
		t.Errorf("the rerun computed %d requests, want %d (%d in all, %d answered before the refusal)",
			got, want, all.reqs["loglikelihood"], bad.answered)
	}
}
