package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestLoadProgress(t *testing.T) {
	path := storiesPath(t)
	for _, vocabOnly := range []bool{false, true} {
		t.Run(fmt.Sprint("vocab_only=", vocabOnly), func(t *testing.T) {
			var fracs []float64
			load(t, path, Options{VocabOnly: vocabOnly, LoadProgress: func(f float64) { fracs = append(fracs, f) }})
			if len(fracs) == 0 || fracs[len(fracs)-1] != 1 {
				t.Fatalf("load progress %v does not end at 1", fracs)
			}
			for i := 1; i < len(fracs); i++ {
				if fracs[i] <= fracs[i-1] {
					t.Errorf("load progress not rising: %v", fracs)
				}
			}
			n := liveLoadHandles.Load()
			if n != 0 {
				t.Errorf("%d load progress handles left registered", n)
			}
		})
	}
}

// progressLog records a call's progress reports.
type progressLog struct{ reqs, toks []int }

func (p *progressLog) ctx() context.Context {
	return WithProgress(context.Background(), func(r, tok int) {
		p.reqs = append(p.reqs, r)
		p.toks = append(p.toks, tok)
	})
}

// check verifies the reports were positive and added up to the call's
// requests and tokens, in more than one report when live is set.
func (p *progressLog) check(t *testing.T, wantReqs, wantToks int, live bool) {
	t.Helper()
	sr, st := 0, 0
	for i := range p.reqs {
		if p.reqs[i] <= 0 || p.toks[i] < 0 {
			t.Errorf("report %d: %d requests, %d tokens: totals must rise", i, p.reqs[i], p.toks[i])
		}
		sr += p.reqs[i]
		st += p.toks[i]
	}
	if sr != wantReqs || st != wantToks {
		t.Errorf("reports add up to %d requests, %d tokens; want %d, %d (reports %v %v)", sr, st, wantReqs, wantToks, p.reqs, p.toks)
	}
	if live && len(p.reqs) < 2 {
		t.Errorf("%d reports: progress only at the end", len(p.reqs))
	}
}

func TestCallProgress(t *testing.T) {
	path := storiesPath(t)
	// Few sequences at a time, so a call takes several steps.
	m := load(t, path, Options{NCtx: 512, NSeqMax: 4, MaxLength: 64})
	words := strings.Fields("once upon a time there was a little girl named Lily she liked to play in the park with her dog")
	var lreqs []LoglikelihoodRequest
	var texts []string
	var greqs []GenerateRequest
	for i := 0; i < 24; i++ {
		ctxText := strings.Join(words[:2+i%15], " ")
		lreqs = append(lreqs, LoglikelihoodRequest{Context: ctxText, Continuation: " " + words[(i+3)%len(words)]})
		texts = append(texts, strings.Repeat(ctxText+". ", 1+i%6)) // some longer than MaxLength: several windows
		greqs = append(greqs, GenerateRequest{Context: ctxText, Until: []string{"."}, MaxGenToks: 4 + i%5})
	}
	texts = append(texts, "") // no tokens, no jobs: still a request

	// Expected tokens, computed from the tokenizer: a loglikelihood
	// request's context plus continuation tokens, capped at MaxLength+1; a
	// text's tokens; a prompt's tokens capped at MaxLength-MaxGenToks.
	ml := m.Settings().MaxLength
	wantL, wantR, wantG := 0, 0, 0
	for _, r := range lreqs {
		c, k, err := m.EncodePair(r.Context, r.Continuation)
		if err != nil {
			t.Fatal(err)
		}
		wantL += min(len(c)+len(k), ml+1)
	}
	for _, s := range texts {
		toks, err := m.Tokenize(s, true, true)
		if err != nil {
			t.Fatal(err)
		}
		wantR += len(toks)
	}
	for _, r := range greqs {
		toks, err := m.Tokenize(r.Context, true, true)
		if err != nil {
			t.Fatal(err)
		}
		wantG += min(len(toks), ml-r.MaxGenToks)
	}

	var pl progressLog
	res, err := m.Loglikelihood(pl.ctx(), lreqs)
	if err != nil {
		t.Fatal(err)
	}
	pl.check(t, len(lreqs), wantL, true)

	var pr progressLog
	rres, err := m.LoglikelihoodRolling(pr.ctx(), texts)
	if err != nil {
		t.Fatal(err)
	}
	pr.check(t, len(texts), wantR, true)
	n := 0
	for _, r := range rres {
		n += r.NumTokens
	}
	if n != wantR {
		t.Errorf("rolling NumTokens add up to %d, tokenizer says %d", n, wantR)
	}

	var pg progressLog
	if _, err := m.GenerateUntil(pg.ctx(), greqs); err != nil {
		t.Fatal(err)
	}
	pg.check(t, len(greqs), wantG, true)

	// With sharing, requests that share BOS are one group of sequences;
	// they still finish one by one, not when the group does (small
	// batches, so the call takes several steps).
	big := load(t, path, Options{NCtx: 4096, MaxLength: 64, NBatch: 64})
	var breqs []LoglikelihoodRequest
	wantB := 0
	for i, r := range lreqs {
		r.Context = fmt.Sprintf("%s %d", words[i%len(words)], i) + r.Context
		breqs = append(breqs, r)
		c, k, err := big.EncodePair(r.Context, r.Continuation)
		if err != nil {
			t.Fatal(err)
		}
		wantB += len(c) + len(k)
	}
	var pb progressLog
	if _, err := big.Loglikelihood(pb.ctx(), breqs); err != nil {
		t.Fatal(err)
	}
	pb.check(t, len(breqs), wantB, true)
	if d := big.Stats().Decodes; len(pb.reqs) < int(d)/2 {
		t.Errorf("%d reports in %d decode steps", len(pb.reqs), d)
	}

	// The hook changes nothing in the results.
	plain, err := m.Loglikelihood(context.Background(), lreqs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range plain {
		if plain[i] != res[i] {
			t.Errorf("request %d: %+v with progress, %+v without", i, res[i], plain[i])
		}
	}
}
