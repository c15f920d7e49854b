package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
)

const modelPath = "../../shared/models/stories260K.gguf"

func loadEngine(t *testing.T, opts engine.Options) *engine.Model {
	t.Helper()
	if _, err := os.Stat(modelPath); err != nil {
		t.Skipf("stories260K not available (%v); ../shared is absent", err)
	}
	opts.TypeK, opts.TypeV, opts.Threads = "f32", "f32", 1
	m, err := engine.Load(modelPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func start(t *testing.T, m *engine.Model, opts Options, mod Model) (*Server, *httptest.Server) {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	if m != nil {
		mod.Engine = m
		if err := s.SetModel(mod); err != nil {
			t.Fatal(err)
		}
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

func call(t *testing.T, method, url string, body any, header ...string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		if b, ok := body.([]byte); ok {
			rd = bytes.NewReader(b)
		} else {
			data, _ := json.Marshal(body)
			rd = bytes.NewReader(data)
		}
	}
	req, _ := http.NewRequest(method, url, rd)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	data, _ := io.ReadAll(resp.Body)
	json.Unmarshal(data, &out)
	return resp.StatusCode, out
}

func ints(v any) []int32 {
	var out []int32
	for _, x := range v.([]any) {
		out = append(out, int32(x.(float64)))
	}
	return out
}

// TestTokenizerEndpoints: what lm-eval's RemoteTokenizer and
// check_remote_tokenizer_support (lm_eval/utils.py) read.
func TestTokenizerEndpoints(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{SHA256: "abc"})
	code, info := call(t, "GET", ts.URL+"/tokenizer_info", nil)
	if code != 200 || info["eos_token"] != "</s>" || info["bos_token"] != "<s>" || info["sha256"] != "abc" {
		t.Fatalf("/tokenizer_info: %d %v", code, info)
	}
	text := "Once upon a time, <s> there was"
	for _, add := range []bool{false, true} {
		code, tok := call(t, "POST", ts.URL+"/tokenize", map[string]any{"prompt": text, "add_special_tokens": add})
		want, _ := m.Tokenize(text, false, true)
		if add {
			want = append([]int32{m.Settings().BOS}, want...)
		}
		if got := ints(tok["tokens"]); code != 200 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("/tokenize add=%v: %d %v, want %v", add, code, got, want)
		}
	}
	// RemoteTokenizer's eos_token_id and bos_token_id: encode(text)[0]
	for _, c := range []struct {
		text string
		id   int32
	}{{"</s>", m.Settings().EOS}, {"<s>", m.Settings().BOS}} {
		_, tok := call(t, "POST", ts.URL+"/tokenize", map[string]any{"prompt": c.text, "add_special_tokens": false})
		if got := ints(tok["tokens"]); len(got) != 1 || got[0] != c.id {
			t.Errorf("/tokenize %q = %v, want [%d]", c.text, got, c.id)
		}
	}
	toks, _ := m.Tokenize("Lily liked cake.", true, true)
	code, de := call(t, "POST", ts.URL+"/detokenize", map[string]any{"tokens": toks})
	want, _ := m.Detokenize(toks, false, true)
	if code != 200 || de["prompt"] != want {
		t.Errorf("/detokenize: %d %v, want %q", code, de, want)
	}
	if code, _ := call(t, "POST", ts.URL+"/detokenize", map[string]any{"tokens": []int{1, 99999}}); code != 400 {
		t.Errorf("/detokenize of an out-of-vocabulary token: %d, want 400", code)
	}
}

// TestEcho: completions with echo carry the prompt's log-probs in the
// shape lm-eval's parse_logprobs reads, equal to the engine's scores; the
// one token generated with them is the greedy continuation.
func TestEcho(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{})
	ctxToks, cont, err := m.EncodePair("Once upon a time, there was a little girl named", " Lily")
	if err != nil {
		t.Fatal(err)
	}
	full := append(append([]int32{}, ctxToks...), cont...)
	ll, err := m.LoglikelihoodTokens(context.Background(), []engine.TokenRequest{{Context: ctxToks, Continuation: cont}})
	if err != nil {
		t.Fatal(err)
	}
	gen, err := m.GenerateUntil(context.Background(), []engine.GenerateRequest{{ContextTokens: full, MaxGenToks: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []any{full, [][]int32{full, full}} {
		code, ans := call(t, "POST", ts.URL+"/v1/completions", map[string]any{
			"prompt": prompt, "echo": true, "logprobs": 1, "max_tokens": 1, "temperature": 0})
		if code != 200 {
			t.Fatalf("%d %v", code, ans)
		}
		for _, ch := range ans["choices"].([]any) {
			lp := ch.(map[string]any)["logprobs"].(map[string]any)
			tl, top := lp["token_logprobs"].([]any), lp["top_logprobs"].([]any)
			if len(tl) != len(full)+1 || len(top) != len(full)+1 || len(lp["tokens"].([]any)) != len(full)+1 || tl[0] != nil || top[0] != nil {
				t.Fatalf("logprobs of %d tokens (first %v), want %d+1 with null first", len(tl), tl[0], len(full))
			}
			// lm-eval's parse_logprobs: sum(token_logprobs[ctxlen:-1]),
			// greedy when each equals max(top_logprobs[i].values())
			sum, greedy := 0.0, true
			for i := len(ctxToks); i < len(full); i++ {
				v := tl[i].(float64)
				sum += v
				best := math.Inf(-1)
				for _, x := range top[i].(map[string]any) {
					best = math.Max(best, x.(float64))
				}
				greedy = greedy && v == best
			}
			if math.Abs(sum-ll[0].LogProb) > 1e-5 || greedy != ll[0].IsGreedy {
				t.Errorf("parse_logprobs gives %v %v; engine %v %v", sum, greedy, ll[0].LogProb, ll[0].IsGreedy)
			}
			if text := ch.(map[string]any)["text"].(string); !strings.HasSuffix(text, gen[0]) {
				t.Errorf("echoed text %q does not end with the greedy token %q", text, gen[0])
			}
		}
	}
	// max_tokens 0 with echo: the prompt alone
	code, ans := call(t, "POST", ts.URL+"/v1/completions", map[string]any{"prompt": "Once upon a time", "echo": true, "logprobs": 2, "max_tokens": 0})
	if code != 200 {
		t.Fatalf("%d %v", code, ans)
	}
	lp := ans["choices"].([]any)[0].(map[string]any)["logprobs"].(map[string]any)
	n := len(lp["tokens"].([]any))
	if want, _ := m.Tokenize("Once upon a time", true, true); n != len(want) || len(lp["top_logprobs"].([]any)[1].(map[string]any)) != 2 {
		t.Errorf("echo of %d tokens with top-2, want %d", n, len(want))
	}
}

// TestGeneration: completions without echo equal the engine's
// generate_until (stop strings, max_tokens), for text and token prompts.
func TestGeneration(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{})
	want, err := m.GenerateUntil(context.Background(), []engine.GenerateRequest{{Context: "Once upon a time", Until: []string{"."}, MaxGenToks: 30}})
	if err != nil {
		t.Fatal(err)
	}
	toks, _ := m.Tokenize("Once upon a time", true, true)
	for _, prompt := range []any{"Once upon a time", toks} {
		code, ans := call(t, "POST", ts.URL+"/v1/completions", map[string]any{"prompt": prompt, "max_tokens": 30, "temperature": 0, "stop": "."})
		if code != 200 {
			t.Fatalf("%d %v", code, ans)
		}
		ch := ans["choices"].([]any)[0].(map[string]any)
		if ch["text"] != want[0] || ch["finish_reason"] != "stop" {
			t.Errorf("prompt %v: %q (%v), want %q", prompt, ch["text"], ch["finish_reason"], want[0])
		}
	}
}

// TestErrors: OpenAI-style errors with the right status and field.
func TestErrors(t *testing.T) {
	m := loadEngine(t, engine.Options{MaxLength: 32, NCtx: 256})
	_, ts := start(t, m, Options{MaxBodyBytes: 4096, APIKey: "k3y"}, Model{})
	auth := []string{"Authorization", "Bearer k3y"}
	long := strings.Repeat("Once upon a time ", 20)
	for _, c := range []struct {
		body   any
		status int
		param  string
	}{
		{map[string]any{"prompt": 5}, 400, "prompt"},
		{map[string]any{"prompt": []any{}}, 400, "prompt"},
		{map[string]any{"prompt": "x", "n": 2}, 400, "n"},
		{map[string]any{"prompt": "x", "logprobs": 100}, 400, "logprobs"},
		{map[string]any{"prompt": "x", "max_tokens": 0}, 400, "max_tokens"},
		{map[string]any{"prompt": "x", "max_tokens": "ten"}, 400, "max_tokens"},
		{map[string]any{"prompt": "x", "temperature": -1}, 400, "temperature"},
		{map[string]any{"prompt": "x", "stream": true}, 400, "stream"},
		{map[string]any{"prompt": []int{1, 100000}}, 400, "prompt[0]"},
		{map[string]any{"prompt": long, "max_tokens": 1}, 413, "prompt"},
		{[]byte(`{"prompt": "` + strings.Repeat("a", 5000) + `"}`), 413, ""},
		{[]byte(`{"prompt": `), 400, ""},
	} {
		code, ans := call(t, "POST", ts.URL+"/v1/completions", c.body, auth...)
		e, _ := ans["error"].(map[string]any)
		if code != c.status || e == nil || (c.param != "" && e["param"] != c.param) {
			t.Errorf("%.80v: %d %v, want %d naming %q", c.body, code, ans, c.status, c.param)
		}
	}
	if code, _ := call(t, "GET", ts.URL+"/v1/models", nil); code != 401 {
		t.Errorf("no API key: %d, want 401", code)
	}
	if code, _ := call(t, "GET", ts.URL+"/v1/models", nil, "Authorization", "Bearer wrong"); code != 401 {
		t.Errorf("wrong API key: %d, want 401", code)
	}
	if code, _ := call(t, "GET", ts.URL+"/v1/models", nil, auth...); code != 200 {
		t.Errorf("right API key: %d, want 200", code)
	}
	if code, ans := call(t, "POST", ts.URL+"/v1/chat/completions", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}}, auth...); code != 400 {
		t.Errorf("chat without a template: %d %v, want 400", code, ans)
	}

	// 503 while loading
	_, loading := start(t, nil, Options{}, Model{})
	if code, _ := call(t, "GET", loading.URL+"/health", nil); code != 503 {
		t.Errorf("/health while loading: %d", code)
	}
	if code, ans := call(t, "POST", loading.URL+"/v1/completions", map[string]any{"prompt": "x"}); code != 503 || ans["error"] == nil {
		t.Errorf("completions while loading: %d %v", code, ans)
	}
}

const chatML = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}" +
	"{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"

// TestChat: chat completions render the chat template and generate as
// generate_until on the rendered prompt.
func TestChat(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	_, ts := start(t, m, Options{}, Model{ChatTemplate: model.ChatTemplateText{Source: chatML, Tokens: model.SpecialTokens{BOS: "<s>", EOS: "</s>"}}})
	rendered := "<|im_start|>user\nTell me a story.<|im_end|>\n<|im_start|>assistant\n"
	want, err := m.GenerateUntil(context.Background(), []engine.GenerateRequest{{Context: rendered, MaxGenToks: 20}})
	if err != nil {
		t.Fatal(err)
	}
	code, ans := call(t, "POST", ts.URL+"/v1/chat/completions", map[string]any{
		"messages":   []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Tell me a story."}}}},
		"max_tokens": 20, "temperature": 0})
	if code != 200 {
		t.Fatalf("%d %v", code, ans)
	}
	msg := ans["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["content"] != want[0] || msg["role"] != "assistant" {
		t.Errorf("chat answer %v, want %q", msg, want[0])
	}
}

// TestBatching: concurrent clients share engine calls, with the answers
// a lone client gets.
func TestBatching(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	vocab, err := engine.Load(modelPath, engine.Options{VocabOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer vocab.Close()
	s, ts := start(t, m, Options{}, Model{Tokenizer: vocab})
	prompts := make([]string, 24)
	for i := range prompts {
		prompts[i] = fmt.Sprintf("Once upon a time, there was a little girl named Lily. She had %d toys", i)
	}
	score := func(p string) float64 {
		_, ans := call(t, "POST", ts.URL+"/v1/completions", map[string]any{"prompt": p, "echo": true, "logprobs": 1, "max_tokens": 0})
		sum := 0.0
		for _, v := range ans["choices"].([]any)[0].(map[string]any)["logprobs"].(map[string]any)["token_logprobs"].([]any)[1:] {
			sum += v.(float64)
		}
		return sum
	}
	alone := make([]float64, len(prompts))
	for i, p := range prompts {
		alone[i] = score(p)
	}
	before := s.Stats()
	together := make([]float64, len(prompts))
	var wg sync.WaitGroup
	for i, p := range prompts {
		wg.Add(1)
		go func() { defer wg.Done(); together[i] = score(p) }()
	}
	wg.Wait()
	st := s.Stats()
	if batches := st.Batches - before.Batches; batches >= int64(len(prompts)) || st.Prompts-before.Prompts != int64(len(prompts)) {
		t.Errorf("%d concurrent prompts took %d engine calls", st.Prompts-before.Prompts, batches)
	}
	for i := range prompts {
		if math.Abs(alone[i]-together[i]) > 5e-5 {
			t.Errorf("prompt %d: %v alone, %v batched", i, alone[i], together[i])
		}
	}
}

// TestCancelledDropped: work whose client has gone is not decoded.
func TestCancelledDropped(t *testing.T) {
	m := loadEngine(t, engine.Options{})
	s := New(Options{})
	defer s.Close()
	if err := s.SetModel(Model{Engine: m}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	wk := &work{ctx: ctx, score: &engine.PromptRequest{Tokens: []int32{1, 2, 3}}, k: 1, done: make(chan struct{})}
	before := m.Stats().Requests
	s.runBatch(s.model.Load(), []*work{wk})
	<-wk.done
	if wk.err != context.Canceled || m.Stats().Requests != before {
		t.Errorf("cancelled work: err %v, engine requests %d -> %d", wk.err, before, m.Stats().Requests)
	}
}
