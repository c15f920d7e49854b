package remote

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The fake servers speak the OpenAI completions API over a toy model,
// defined here independently of lmeval's server:
//   - tokenizer: every byte b of a text is token b+3; BOS is 1, EOS 2
//     (text "<s>" and "</s>"), and add_special_tokens prepends BOS;
//   - log p(t | previous token q) = fakeLP(q, t), whose argmax over t is
//     the token with (31q+t) mod 97 = 0 (the lowest such id);
//   - a generation is "<" + the prompt's last token id + ">" repeated, cut
//     at max_tokens characters and before the first stop string.
const fakeVocab = 259

func fakeLP(q, t int32) float64 { return -float64((31*q+t)%97)/10 - 0.01 }

func fakeArgmax(q int32) int32 {
	for t := int32(0); t < fakeVocab; t++ {
		if (31*q+t)%97 == 0 {
			return t
		}
	}
	panic("no argmax")
}

func fakeTokenize(text string, add bool) []int32 {
	var out []int32
	if add {
		out = append(out, 1)
	}
	for len(text) > 0 {
		switch {
		case strings.HasPrefix(text, "<s>"):
			out, text = append(out, 1), text[3:]
		case strings.HasPrefix(text, "</s>"):
			out, text = append(out, 2), text[4:]
		default:
			out, text = append(out, int32(text[0])+3), text[1:]
		}
	}
	return out
}

func fakePiece(t int32) string {
	switch t {
	case 1:
		return "<s>"
	case 2:
		return "</s>"
	case 0:
		return "<unk>"
	}
	return string([]byte{byte(t - 3)})
}

func fakeGenerate(prompt []int32, maxTokens int, stop []string) string {
	last := prompt[len(prompt)-1]
	var sb strings.Builder
	for sb.Len() < maxTokens {
		sb.WriteString("<" + itoa(int(last)) + ">")
	}
	s := sb.String()[:maxTokens]
	for _, st := range stop {
		if i := strings.Index(s, st); st != "" && i >= 0 {
			s = s[:i]
		}
	}
	return s
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// fault is how a fake misbehaves.
type fault int32

const (
	healthy     fault = iota
	dies              // drops every connection once it has answered dieAfter completions
	hangs             // never answers completions
	malformed         // answers completions with broken JSON
	limited           // answers the first limitN completions with 429 and Retry-After
	noEcho            // llama.cpp-style: echo ignored, log-probs of generated tokens only
	refusesEcho       // llama.cpp-style: 500 Unsupported param: echo
)

type fake struct {
	srv       *httptest.Server
	model     string
	sha       string // reported as lmeval's sha256 when set
	fault     fault
	dieAfter  int64
	limitN    int64
	answered  atomic.Int64 // completions answered successfully
	admitted  atomic.Int64 // completions a dying server let in
	attempted atomic.Int64 // completions requests received
	mu        sync.Mutex
	prompts   [][]int32 // every scored prompt
}

func newFake(t *testing.T, f *fake) *fake {
	t.Helper()
	if f.model == "" {
		f.model = "toy"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		d := map[string]any{"id": f.model, "object": "model", "max_model_len": 64}
		if f.sha != "" {
			d["lmeval"] = map[string]any{"server": "fake", "sha256": f.sha}
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []any{d}})
	})
	mux.HandleFunc("GET /tokenizer_info", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"eos_token": "</s>", "bos_token": "<s>"})
	})
	mux.HandleFunc("POST /tokenize", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Prompt string `json:"prompt"`
			Add    *bool  `json:"add_special_tokens"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		toks := fakeTokenize(req.Prompt, req.Add == nil || *req.Add)
		json.NewEncoder(w).Encode(map[string]any{"tokens": toks, "count": len(toks)})
	})
	mux.HandleFunc("POST /v1/completions", func(w http.ResponseWriter, r *http.Request) {
		n := f.attempted.Add(1)
		switch {
		case f.fault == dies && f.admitted.Add(1) > f.dieAfter:
			// Counted as requests arrive: concurrent requests must not all
			// slip in before the first of them is answered.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		case f.fault == hangs:
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		case f.fault == malformed:
			w.Write([]byte(`{"choices": [{"index": 0, "logprobs": {"token_logprobs": [null, -0.`))
			return
		case f.fault == refusesEcho && strings.Contains(readBody(r), `"echo":true`):
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error": {"code": 500, "message": "Unsupported param: echo", "type": "server_error"}}`))
			return
		case f.fault == limited && n <= f.limitN:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error": {"message": "slow down"}}`))
			return
		}
		var req struct {
			Prompt    json.RawMessage `json:"prompt"`
			Echo      bool            `json:"echo"`
			Logprobs  *int            `json:"logprobs"`
			MaxTokens int             `json:"max_tokens"`
			Stop      []string        `json:"stop"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var prompts [][]int32
		var one []int32
		if json.Unmarshal(req.Prompt, &one) == nil {
			prompts = [][]int32{one}
		} else if err := json.Unmarshal(req.Prompt, &prompts); err != nil {
			http.Error(w, "prompt must be token ids", 400)
			return
		}
		var choices []any
		for i, p := range prompts {
			c := map[string]any{"index": i, "finish_reason": "length"}
			if req.Echo && req.Logprobs != nil {
				var toks []string
				var tl []any
				var top []any
				add := func(q, t int32, first bool) {
					toks = append(toks, fakePiece(t))
					if first {
						tl, top = append(tl, nil), append(top, nil)
						return
					}
					tl = append(tl, fakeLP(q, t))
					a := fakeArgmax(q)
					top = append(top, map[string]float64{fakePiece(a): fakeLP(q, a)})
				}
				if f.fault != noEcho {
					for k, t := range p {
						q := int32(0)
						if k > 0 {
							q = p[k-1]
						}
						add(q, t, k == 0)
					}
				}
				if req.MaxTokens > 0 {
					q := p[len(p)-1]
					add(q, fakeArgmax(q), false)
				}
				c["logprobs"] = map[string]any{"tokens": toks, "token_logprobs": tl, "top_logprobs": top}
				f.mu.Lock()
				f.prompts = append(f.prompts, p)
				f.mu.Unlock()
			} else {
				c["text"] = fakeGenerate(p, req.MaxTokens, req.Stop)
			}
			choices = append(choices, c)
		}
		f.answered.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"choices": choices})
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

// readBody reads the request body and puts it back for the handler.
func readBody(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return string(b)
}

func (f *fake) url() string { return f.srv.URL + "/v1/completions" }

// fakeLoglikelihood is the toy model's answer by lm-eval's rules, computed
// here from the definitions above.
func fakeLoglikelihood(ctx, cont string) (float64, bool) {
	var c, k []int32
	if ctx == "" {
		k = fakeTokenize(cont, false)
		c = []int32{1}
		if k[0] == 1 {
			c, k = k[:1], k[1:]
		}
	} else {
		trimmed := strings.TrimRight(ctx, " \t\n")
		cont = ctx[len(trimmed):] + cont
		ctx = trimmed
		c = fakeTokenize(ctx, true)
		k = fakeTokenize(ctx+cont, true)[len(c):]
	}
	full := append(append([]int32{}, c...), k...)
	sum, greedy := 0.0, true
	for p := len(c); p < len(full); p++ {
		sum += fakeLP(full[p-1], full[p])
		// greedy as lm-eval's parse_logprobs judges it: by value
		greedy = greedy && fakeLP(full[p-1], full[p]) == fakeLP(full[p-1], fakeArgmax(full[p-1]))
	}
	return sum, greedy
}

func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
