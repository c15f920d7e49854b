package remote

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/model"
)

var llReqs = func() []model.LoglikelihoodRequest {
	var out []model.LoglikelihoodRequest
	for i := 0; i < 40; i++ {
		out = append(out, model.LoglikelihoodRequest{Context: fmt.Sprintf("Question %d: what is %d+%d? ", i, i, i%3), Continuation: fmt.Sprint(i + i%3)})
	}
	out = append(out,
		model.LoglikelihoodRequest{Context: "", Continuation: "hello"},
		model.LoglikelihoodRequest{Context: "", Continuation: "<s>hello"},
		model.LoglikelihoodRequest{Context: "The cat sat on the\t ", Continuation: "mat"})
	return out
}()

func newLM(t *testing.T, args model.Args) *LM {
	t.Helper()
	l, err := New(context.Background(), args, false)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func checkLL(t *testing.T, got []model.LoglikelihoodResult) {
	t.Helper()
	if len(got) != len(llReqs) {
		t.Fatalf("%d results for %d requests", len(got), len(llReqs))
	}
	for i, r := range llReqs {
		want, greedy := fakeLoglikelihood(r.Context, r.Continuation)
		if math.Abs(got[i].LogProb-want) > 1e-9 || got[i].IsGreedy != greedy {
			t.Errorf("request %d (%q, %q): %v %v, want %v %v", i, r.Context, r.Continuation, got[i].LogProb, got[i].IsGreedy, want, greedy)
		}
	}
}

// TestVLLMStyle: a vLLM-style server (prompt log-probs through echo, one
// generated token appended) gives lm-eval's numbers for the toy model,
// batched or not.
func TestVLLMStyle(t *testing.T) {
	f := newFake(t, &fake{})
	for _, bs := range []string{"1", "4"} {
		l := newLM(t, model.Args{"base_url": f.url(), "batch_size": bs, "num_concurrent": "3"})
		got, err := l.Loglikelihood(context.Background(), llReqs)
		if err != nil {
			t.Fatal(err)
		}
		checkLL(t, got)
	}
	l := newLM(t, model.Args{"base_url": f.url()})
	gen, err := l.GenerateUntil(context.Background(), []model.GenerateRequest{
		{Context: "abc", Until: []string{">"}, MaxGenToks: 10},
		{Context: "xyz", MaxGenToks: 7},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"<102", "<125><1"}; gen[0] != want[0] || gen[1] != want[1] {
		t.Errorf("generations %q, want %q", gen, want)
	}
	d := l.Describe()
	if d.Facts.(*Server).ServerModel != "toy" || d.Backend != "local-completions" {
		t.Errorf("Describe() = %v", d)
	}
}

// TestLlamaCppStyleProbe: a server that ignores echo (log-probs of
// generated tokens only, which lm-eval turns into chance-level numbers) is
// caught by the probe; log-likelihoods fail naming it, generation works.
func TestLlamaCppStyleProbe(t *testing.T) {
	for _, fl := range []fault{noEcho, refusesEcho} {
		probeFails(t, newFake(t, &fake{fault: fl}))
	}
}

func probeFails(t *testing.T, f *fake) {
	t.Helper()
	l := newLM(t, model.Args{"base_url": f.url()})
	_, err := l.Loglikelihood(context.Background(), llReqs)
	if err == nil || !strings.Contains(err.Error(), f.srv.URL) || !strings.Contains(err.Error(), "prompt tokens") {
		t.Fatalf("Loglikelihood error %v; want one naming %s and the missing prompt log-probs", err, f.srv.URL)
	}
	if _, err := l.LoglikelihoodRolling(context.Background(), []model.RollingRequest{{Text: "abc"}}); err == nil {
		t.Error("LoglikelihoodRolling worked against a server without prompt log-probs")
	}
	if _, err := l.GenerateUntil(context.Background(), []model.GenerateRequest{{Context: "abc", MaxGenToks: 4}}); err != nil {
		t.Errorf("generation failed: %v", err)
	}
}

// TestFleetFaults: of four servers one dies mid-run, one hangs, one
// answers malformed JSON; the run finishes on the healthy one with every
// answer right.
func TestFleetFaults(t *testing.T) {
	good := newFake(t, &fake{})
	dying := newFake(t, &fake{fault: dies, dieAfter: 5})
	hanging := newFake(t, &fake{fault: hangs})
	broken := newFake(t, &fake{fault: malformed})
	urls := strings.Join([]string{dying.url(), hanging.url(), broken.url(), good.url()}, ",")
	l := newLM(t, model.Args{"base_url": urls, "timeout": "0.5", "num_concurrent": "6", "max_retries": "2"})
	got, err := l.Loglikelihood(context.Background(), llReqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, got)
	if n := dying.answered.Load(); n == 0 || n > 5 {
		t.Errorf("the dying server answered %d, want 1..5 before it died", n)
	}
	if hanging.attempted.Load() == 0 || broken.attempted.Load() == 0 {
		t.Errorf("the hanging (%d) and broken (%d) servers were never tried", hanging.attempted.Load(), broken.attempted.Load())
	}
	if good.answered.Load() == 0 {
		t.Error("the healthy server answered nothing")
	}
}

// TestRateLimited: a 429 with Retry-After is waited out (the only server)
// or routed around (another is free).
func TestRateLimited(t *testing.T) {
	f := newFake(t, &fake{fault: limited, limitN: 2})
	start := time.Now()
	l := newLM(t, model.Args{"base_url": f.url(), "num_concurrent": "1"})
	got, err := l.Loglikelihood(context.Background(), llReqs[:3])
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range llReqs[:3] {
		if want, _ := fakeLoglikelihood(r.Context, r.Continuation); math.Abs(got[i].LogProb-want) > 1e-9 {
			t.Errorf("request %d: %v, want %v", i, got[i].LogProb, want)
		}
	}
	// The probe at start waited out both 429s.
	if el := time.Since(start); el < 1900*time.Millisecond {
		t.Errorf("finished in %v: Retry-After: 1 was not honoured", el)
	}

	lim := newFake(t, &fake{fault: limited, limitN: 1 << 30})
	free := newFake(t, &fake{})
	// The probe needs every server; this one is limited only afterwards.
	lim.limitN = 0
	l2 := newLM(t, model.Args{"base_url": lim.url() + "," + free.url()})
	lim.limitN = 1 << 30
	got, err = l2.Loglikelihood(context.Background(), llReqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, got)
}

// TestLoadSpread: requests go to the least loaded server, so a fleet of
// equal servers shares the work.
func TestLoadSpread(t *testing.T) {
	a, b := newFake(t, &fake{}), newFake(t, &fake{})
	l := newLM(t, model.Args{"base_url": a.url() + "," + b.url(), "num_concurrent": "8"})
	got, err := l.Loglikelihood(context.Background(), llReqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, got)
	if a.answered.Load() < 3 || b.answered.Load() < 3 {
		t.Errorf("answers split %d / %d", a.answered.Load(), b.answered.Load())
	}
}

// TestFleetMustAgree: servers reporting different models (or GGUF
// hashes) are refused at start.
func TestFleetMustAgree(t *testing.T) {
	a := newFake(t, &fake{model: "m1"})
	b := newFake(t, &fake{model: "m2"})
	_, err := New(context.Background(), model.Args{"base_url": a.url() + "," + b.url()}, false)
	if err == nil || !strings.Contains(err.Error(), "different models") {
		t.Errorf("error %v, want different models", err)
	}
	c := newFake(t, &fake{sha: "aa"})
	d := newFake(t, &fake{sha: "bb"})
	if _, err := New(context.Background(), model.Args{"base_url": c.url() + "," + d.url()}, false); err == nil {
		t.Error("servers with different GGUF hashes were accepted")
	}
}

// TestRequestErrors: a request the server refuses (4xx) or that cannot be
// split is reported with its index, for the evaluator to name.
func TestRequestErrors(t *testing.T) {
	f := newFake(t, &fake{})
	l := newLM(t, model.Args{"base_url": f.url()})
	reqs := []model.LoglikelihoodRequest{{Context: "a", Continuation: "b"}, {Context: "abc", Continuation: ""}}
	_, err := l.Loglikelihood(context.Background(), reqs)
	var re *model.RequestError
	if !errors.As(err, &re) || re.Index != 1 {
		t.Errorf("error %v, want a RequestError for request 1", err)
	}
}

func TestParseOptions(t *testing.T) {
	for _, tc := range []struct {
		args model.Args
		want string // substring of the error; "" for none
	}{
		{model.Args{}, "base_url"},
		{model.Args{"base_url": "localhost:8000"}, "http://"},
		{model.Args{"base_url": "http://127.0.0.1:1/v1", "tokenizer_backend": "huggingface"}, "remote"},
		{model.Args{"base_url": "http://127.0.0.1:1/v1", "num_concurrent": "0"}, "at least 1"},
		{model.Args{"base_url": "http://127.0.0.1:1/v1", "bogus": "1"}, "unknown argument"},
		{model.Args{"base_url": "http://127.0.0.1:1/v1/completions,http://127.0.0.1:2/v1", "timeout": "5", "max_retries": "2"}, ""},
	} {
		o, err := ParseOptions(tc.args, false)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		case tc.want == "":
			if len(o.BaseURLs) != 2 || o.BaseURLs[0] != "http://127.0.0.1:1" || o.Timeout != 5*time.Second || o.MaxRetries != 2 {
				t.Errorf("%v: %+v", tc.args, o)
			}
		}
	}
}

// TestServerFacts: the server's facts reach the results' sections and the
// cache identity (model_sha256 only when the server reports one).
func TestServerFacts(t *testing.T) {
	in := model.Description{Backend: "local-completions", Facts: &Server{MaxLength: 10, ServerModel: "m", Servers: 2}}
	if got := in.CacheIdentity(); !reflect.DeepEqual(got, map[string]string{"max_length": "10", "server_model": "m"}) {
		t.Errorf("CacheIdentity() = %v", got)
	}
	in.Facts.(*Server).ModelSHA256 = "x"
	s := in.Sections()
	if len(s[model.SectionExtra]) != 3 || s[model.SectionExtra]["model_sha256"] != "x" || s[model.SectionEngine]["max_length"] != 10 {
		t.Errorf("sections %v", s)
	}
}
