package serve

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
)

// greedyTokens generates n tokens after prompt one at a time, each the
// argmax of the model's distribution after the tokens so far (an
// independent computation: ScorePrompts, not the generation loop), and
// returns their ids and log-probabilities.
func greedyTokens(t *testing.T, m *engine.Model, prompt []int32, n int) ([]int32, []float64) {
	t.Helper()
	seq := append([]int32{}, prompt...)
	var ids []int32
	var lps []float64
	for range n {
		sc, err := m.ScorePrompts(context.Background(), []engine.PromptRequest{{Tokens: seq, Next: true}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		last := len(sc[0].TopIDs) - 1
		ids = append(ids, sc[0].TopIDs[last])
		lps = append(lps, sc[0].TopLogP[last])
		seq = append(seq, sc[0].TopIDs[last])
	}
	return ids, lps
}

// TestCompletionTokensAsGenerated: a completion reports the tokens the
// model generated, not the generated text tokenized again: their number
// (usage.completion_tokens, at most max_tokens), their texts, whose
// concatenation is the completion's text (leading space included, as
// llama-server and vLLM give it), and each token's log-probability with
// its top log-probabilities, the greedy token being the top one.
func TestCompletionTokensAsGenerated(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{})
	prompt, err := m.Encode("Once upon a time")
	if err != nil {
		t.Fatal(err)
	}
	ids, lps := greedyTokens(t, m, prompt, 3)
	var want []string
	for _, id := range ids {
		want = append(want, m.TokenPiece(id))
	}
	for _, p := range []any{"Once upon a time", prompt} {
		code, ans := call(t, "POST", ts.URL+"/v1/completions", map[string]any{
			"prompt": p, "max_tokens": 3, "temperature": 0, "logprobs": 1})
		if code != 200 {
			t.Fatalf("%d %v", code, ans)
		}
		ch := ans["choices"].([]any)[0].(map[string]any)
		lp := ch["logprobs"].(map[string]any)
		var toks []string
		for _, s := range lp["tokens"].([]any) {
			toks = append(toks, s.(string))
		}
		if strings.Join(toks, "|") != strings.Join(want, "|") {
			t.Errorf("prompt %T: tokens %q, want the greedy tokens %q", p, toks, want)
		}
		if ch["text"] != strings.Join(toks, "") {
			t.Errorf("prompt %T: text %q is not the concatenation of its tokens %q", p, ch["text"], toks)
		}
		usage := ans["usage"].(map[string]any)
		if usage["completion_tokens"] != 3.0 || usage["prompt_tokens"] != float64(len(prompt)) || usage["total_tokens"] != float64(len(prompt)+3) {
			t.Errorf("prompt %T: usage %v, want %d prompt and 3 completion tokens", p, usage, len(prompt))
		}
		tl, top := lp["token_logprobs"].([]any), lp["top_logprobs"].([]any)
		if len(tl) != len(toks) || len(top) != len(toks) || len(lp["text_offset"].([]any)) != len(toks) {
			t.Fatalf("prompt %T: %d log-probs, %d top, for %d tokens", p, len(tl), len(top), len(toks))
		}
		for i := range tl {
			v := tl[i].(float64)
			if i < len(lps) && math.Abs(v-lps[i]) > 1e-4 {
				t.Errorf("prompt %T: token %d %q has log-prob %v, want %v", p, i, toks[i], v, lps[i])
			}
			best, key := math.Inf(-1), ""
			for k, x := range top[i].(map[string]any) {
				if x.(float64) > best {
					best, key = x.(float64), k
				}
			}
			if i < len(toks) && (key != toks[i] || v != best) {
				t.Errorf("prompt %T: greedy token %d %q (%v) is not its top entry %q (%v)", p, i, toks[i], v, key, best)
			}
		}
	}
}

// TestCompletionStopAndSampling: with a stop string the text ends before
// it and is still its tokens' concatenation; sampled completions never
// report more tokens than max_tokens.
func TestCompletionStopAndSampling(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{})
	for _, req := range []map[string]any{
		{"prompt": "Once upon a time", "max_tokens": 40, "temperature": 0, "stop": ".", "logprobs": 1},
		{"prompt": "Once upon a time", "max_tokens": 7, "temperature": 1, "seed": 5, "logprobs": 2},
		{"prompt": "Lily", "max_tokens": 12, "temperature": 0.8, "top_k": 5, "seed": 9, "logprobs": 1},
	} {
		code, ans := call(t, "POST", ts.URL+"/v1/completions", req)
		if code != 200 {
			t.Fatalf("%v: %d %v", req, code, ans)
		}
		ch := ans["choices"].([]any)[0].(map[string]any)
		var toks []string
		for _, s := range ch["logprobs"].(map[string]any)["tokens"].([]any) {
			toks = append(toks, s.(string))
		}
		text := ch["text"].(string)
		if text != strings.Join(toks, "") {
			t.Errorf("%v: text %q, tokens %q", req, text, toks)
		}
		n := int(ans["usage"].(map[string]any)["completion_tokens"].(float64))
		if max := req["max_tokens"].(int); n > max || len(toks) > n || n == 0 {
			t.Errorf("%v: completion_tokens %d, %d tokens reported, max_tokens %d", req, n, len(toks), max)
		}
		if req["stop"] != nil && (strings.Contains(text, ".") || ch["finish_reason"] != "stop") {
			t.Errorf("%v: text %q (%v) runs past the stop string", req, text, ch["finish_reason"])
		}
	}
}
