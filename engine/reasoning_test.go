package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestReasoningBudget checks the reasoning budget on stories260K, with
// markers the model writes (its greedy story: ", there was a little girl
// named Lily. ..."): the trace opens at "there", and "<END>" (which it
// never writes) closes it. Every expectation is computed independently,
// from plain greedy runs: the budget run must be the greedy run up to
// the budget, then the forced tokens, then the greedy continuation of
// that whole token sequence.
func TestReasoningBudget(t *testing.T) {
	m := load(t, storiesPath(t), Options{TypeK: "f32", TypeV: "f32"})
	ctx := context.Background()
	const prompt, maxGen = "Once upon a time", 28
	gen := func(r GenerateRequest) Generation {
		t.Helper()
		out, err := m.Generate(ctx, []GenerateRequest{r})
		if err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	ref := gen(GenerateRequest{Context: prompt, MaxGenToks: maxGen})
	detok := func(ids []int32) string {
		s, err := m.Detokenize(ids, false, false)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// k: the generated tokens up to the one that completes "there".
	k := 0
	for k = 1; k <= len(ref.Tokens) && !strings.Contains(detok(ref.Tokens[:k]), "there"); k++ {
	}
	if k > len(ref.Tokens) || k+8 > maxGen {
		t.Fatalf("greedy story %q: no early \"there\"", ref.Text)
	}
	promptIDs, err := m.Encode(prompt)
	if err != nil {
		t.Fatal(err)
	}
	forced, err := m.Tokenize(" Then<END>", false, true)
	if err != nil {
		t.Fatal(err)
	}
	// continuation is the greedy continuation of the prompt and ids.
	continuation := func(ids []int32) []int32 {
		ctxIDs := append(slices.Clone(promptIDs), ids...)
		return gen(GenerateRequest{Context: "continuation", ContextTokens: ctxIDs, MaxGenToks: maxGen - len(ids)}).Tokens
	}

	t.Run("budget", func(t *testing.T) {
		const budget = 4
		got := gen(GenerateRequest{Context: prompt, MaxGenToks: maxGen,
			Reasoning: &Reasoning{Start: "there", End: "<END>", Budget: budget, Message: " Then"}})
		head := append(slices.Clone(ref.Tokens[:k+budget]), forced...)
		want := append(head, continuation(head)...)
		if !slices.Equal(got.Tokens, want) {
			t.Fatalf("tokens %v\nwant   %v", got.Tokens, want)
		}
		if got.Text != detok(want) || !got.BudgetHit {
			t.Errorf("text %q, budget hit %v; want %q, true", got.Text, got.BudgetHit, detok(want))
		}
		// The trace: the token that wrote "there", the budget's tokens,
		// and the forced ones.
		if want := 1 + budget + len(forced); got.ReasoningTokens != want {
			t.Errorf("reasoning tokens %d, want %d", got.ReasoningTokens, want)
		}
	})
	t.Run("no limit", func(t *testing.T) {
		got := gen(GenerateRequest{Context: prompt, MaxGenToks: maxGen, Reasoning: &Reasoning{Start: "there", End: "<END>", Budget: -1}})
		if !slices.Equal(got.Tokens, ref.Tokens) || got.BudgetHit {
			t.Fatalf("counting only changed the generation: %q, want %q", got.Text, ref.Text)
		}
		// An open trace runs to the end of the generation.
		if want := len(ref.Tokens) - (k - 1); got.ReasoningTokens != want {
			t.Errorf("reasoning tokens %d, want %d", got.ReasoningTokens, want)
		}
	})
	t.Run("closed by the model", func(t *testing.T) {
		// "girl" closes the trace before the budget runs out.
		end := 0
		for end = k; end <= len(ref.Tokens) && !strings.Contains(detok(ref.Tokens[k:end]), "girl"); end++ {
		}
		got := gen(GenerateRequest{Context: prompt, MaxGenToks: maxGen, Reasoning: &Reasoning{Start: "there", End: "girl", Budget: 20}})
		if !slices.Equal(got.Tokens, ref.Tokens) || got.BudgetHit {
			t.Fatalf("a trace closed in time changed the generation: %q", got.Text)
		}
		if want := end - (k - 1); got.ReasoningTokens != want {
			t.Errorf("reasoning tokens %d, want %d", got.ReasoningTokens, want)
		}
	})
	t.Run("opened by the prompt", func(t *testing.T) {
		// The context ends inside a trace: counting starts at once.
		const opened = "Once upon a time, there"
		base := gen(GenerateRequest{Context: opened, MaxGenToks: maxGen})
		openedIDs, err := m.Encode(opened)
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{0, 3} {
			got := gen(GenerateRequest{Context: opened, MaxGenToks: maxGen, Reasoning: &Reasoning{Start: "there", End: "<END>", Budget: budget, Message: " Then"}})
			head := append(slices.Clone(base.Tokens[:budget]), forced...)
			want := append(head, gen(GenerateRequest{Context: "c", ContextTokens: append(slices.Clone(openedIDs), head...), MaxGenToks: maxGen - len(head)}).Tokens...)
			if !slices.Equal(got.Tokens, want) {
				t.Errorf("budget %d: tokens %v\nwant %v", budget, got.Tokens, want)
			}
			if got.ReasoningTokens != budget+len(forced) || !got.BudgetHit {
				t.Errorf("budget %d: reasoning tokens %d (hit %v), want %d", budget, got.ReasoningTokens, got.BudgetHit, budget+len(forced))
			}
		}
	})
	t.Run("forced tokens cut at max_gen_toks", func(t *testing.T) {
		got := gen(GenerateRequest{Context: prompt, MaxGenToks: k + 2,
			Reasoning: &Reasoning{Start: "there", End: "<END>", Budget: 1, Message: " Then"}})
		want := append(slices.Clone(ref.Tokens[:k+1]), forced[0])
		if !slices.Equal(got.Tokens, want) {
			t.Errorf("tokens %v, want %v", got.Tokens, want)
		}
	})
	t.Run("batched", func(t *testing.T) {
		// Several budgets decoded together give what each gives alone.
		var reqs []GenerateRequest
		for b := -1; b < 6; b++ {
			reqs = append(reqs, GenerateRequest{Context: prompt, MaxGenToks: maxGen, Reasoning: &Reasoning{Start: "there", End: "<END>", Budget: b, Message: " Then"}})
		}
		together, err := m.Generate(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range reqs {
			if alone := gen(r); !slices.Equal(alone.Tokens, together[i].Tokens) || alone.ReasoningTokens != together[i].ReasoningTokens {
				t.Errorf("budget %d: batched %q (%d), alone %q (%d)", r.Reasoning.Budget, together[i].Text, together[i].ReasoningTokens, alone.Text, alone.ReasoningTokens)
			}
		}
	})
}

func TestUTF8Complete(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"", true}, {"abc", true}, {"é", true}, {"日本", true}, {"🙂", true},
		{"a\xc3", false}, {"\xe6\x97", false}, {"\xf0\x9f\x99", false}, {"\xf0\x9f", false},
	} {
		if got := utf8Complete(c.s); got != c.want {
			t.Errorf("utf8Complete(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
