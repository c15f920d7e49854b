// Package remote evaluates models served over HTTP with OpenAI's
// completions API: lm-eval's "local-completions" and
// "local-chat-completions" backends, with their model_args, driving one
// server or a fleet (vLLM, SGLang, llama.cpp's server, `lmeval serve`).
//
// Log-likelihoods come from completions with echo and logprobs (the
// prompt's own log-probabilities), split into context and continuation
// with the server's tokenizer (/tokenize) as lm-eval's TemplateLM splits
// them, so against `lmeval serve` the numbers equal the in-process
// engine's. A server that cannot return prompt log-probabilities is found
// by one probe request at start, and log-likelihood requests then fail
// with a message naming it instead of returning chance-level numbers.
//
// Requests go to the server with the fewest in flight and are retried on
// another when one fails, times out, answers malformed JSON or is
// rate-limited; the answer does not depend on which server gave it.
// See docs/serve.md.
package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/lmeval/lmeval/harness/model"
)

func init() {
	model.Register("local-completions", func(ctx context.Context, args model.Args) (model.LM, error) {
		return New(ctx, args, false)
	})
	model.Register("local-chat-completions", func(ctx context.Context, args model.Args) (model.LM, error) {
		l, err := New(ctx, args, true)
		if err != nil {
			return nil, err
		}
		return ChatLM{l}, nil
	})
}

// argNames lists the accepted model_args.
var argNames = []string{
	"base_url", "model", "pretrained", "num_concurrent", "max_retries", "timeout", "tokenized_requests",
	"tokenizer_backend", "max_length", "max_gen_toks", "seed", "api_key", "batch_size", "max_batch_size",
	"eos_string", "verify_certificate", "trust_remote_code", "add_bos_token",
}

// Options are the parsed model_args.
type Options struct {
	BaseURLs          []string
	Model             string
	NumConcurrent     int
	MaxRetries        int
	Timeout           time.Duration
	TokenizedRequests bool
	// TokenizerRemote is tokenizer_backend=remote (the default): the
	// server's /tokenize. tokenizer_backend=none sends text, and then only
	// generation works.
	TokenizerRemote bool
	MaxLength       int // 0: the server's max_model_len
	MaxGenToks      int
	Seed            int64
	// SeedGiven: seed was a model_arg. Otherwise generations that carry
	// no seed of their own go without one, and the server uses its
	// default (`lmeval serve`: its model_args' seed, as in process).
	SeedGiven bool
	APIKey    string
	BatchSize int // prompts per completions request
	EOSString string
}

// ParseOptions reads model_args. Chat (local-chat-completions) defaults to
// untokenized requests, as in lm-eval.
func ParseOptions(args model.Args, chat bool) (Options, error) {
	o := Options{NumConcurrent: 0, MaxRetries: 3, Timeout: 300 * time.Second, TokenizedRequests: !chat,
		TokenizerRemote: true, MaxGenToks: 256, Seed: 1234, BatchSize: 1}
	known := map[string]bool{}
	for _, n := range argNames {
		known[n] = true
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.TrimSpace(args[k])
		if !known[k] {
			return o, fmt.Errorf("model_args: unknown argument %q (known: %s)", k, strings.Join(argNames, ", "))
		}
		var err error
		posInt := func(dst *int, min int) {
			var n int
			n, err = strconv.Atoi(v)
			if err == nil && n < min {
				err = fmt.Errorf("want an integer of at least %d", min)
			}
			*dst = n
		}
		switch k {
		case "base_url":
			for _, u := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || unicode.IsSpace(r) }) {
				root, rerr := rootURL(u)
				if rerr != nil {
					err = rerr
					break
				}
				o.BaseURLs = append(o.BaseURLs, root)
			}
		case "model", "pretrained":
			if k == "model" || o.Model == "" {
				o.Model = v
			}
		case "num_concurrent":
			posInt(&o.NumConcurrent, 1)
		case "max_retries":
			posInt(&o.MaxRetries, 1)
		case "timeout":
			var secs float64
			secs, err = strconv.ParseFloat(v, 64)
			if err == nil && secs <= 0 {
				err = errors.New("want a positive number of seconds")
			}
			o.Timeout = time.Duration(secs * float64(time.Second))
		case "tokenized_requests":
			o.TokenizedRequests, err = parseBool(v)
		case "tokenizer_backend":
			switch strings.ToLower(v) {
			case "remote", "auto":
				o.TokenizerRemote = true
			case "none", "":
				o.TokenizerRemote = false
			default:
				err = fmt.Errorf("lmeval has no %s tokenizer: use remote (the server's /tokenize) or none", v)
			}
		case "max_length":
			posInt(&o.MaxLength, 2)
		case "max_gen_toks":
			posInt(&o.MaxGenToks, 1)
		case "seed":
			o.Seed, err = strconv.ParseInt(v, 10, 64)
			o.SeedGiven = true
		case "api_key":
			o.APIKey = v
		case "batch_size":
			if v == "auto" || strings.HasPrefix(v, "auto:") {
				o.BatchSize = 1 // as lm-eval's API models
			} else {
				posInt(&o.BatchSize, 1)
			}
		case "eos_string":
			o.EOSString = v
		case "max_batch_size", "verify_certificate", "trust_remote_code", "add_bos_token":
			// accepted so lm-eval command lines carry over; the server's
			// tokenizer decides BOS, and there is no local model to load.
		}
		if err != nil {
			return o, fmt.Errorf("model_args: %s=%s: %w", k, v, err)
		}
	}
	if len(o.BaseURLs) == 0 {
		return o, errors.New("model_args: base_url=http://HOST:PORT/v1 is required (several: base_url=http://a:8000/v1,http://b:8000/v1)")
	}
	if !o.TokenizerRemote {
		o.TokenizedRequests = false
	}
	if o.APIKey == "" {
		o.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if o.NumConcurrent == 0 {
		o.NumConcurrent = 8 * len(o.BaseURLs)
	}
	return o, nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, errors.New("not a boolean")
}

// LM is a fleet of servers seen as a model.LM.
type LM struct {
	opts Options
	chat bool
	pool *pool
	// What the servers report (the same for all of them).
	serverModel string
	sha256      string
	lmevalSrv   bool // every server is `lmeval serve`: max_tokens 0 with echo
	maxLength   int
	bos, eos    int32 // -1: none
	prefixTok   int32 // the server's prefix_token_id, -1: BOS, else EOS
	eosText     string
	// probeErr says why log-likelihoods cannot be scored (nil: they can).
	probeErr error

	tokMu    sync.Mutex
	tokCache map[tokKey][]int32
}

var (
	_ model.LM                 = (*LM)(nil)
	_ model.Describer          = (*LM)(nil)
	_ model.ChatTemplateSource = (*LM)(nil)
	_ model.LM                 = ChatLM{}
	_ model.ChatTemplater      = ChatLM{}
)

type tokKey struct {
	text string
	add  bool
}

// New connects to the servers in args: every one must answer /v1/models
// with the same model (and, for `lmeval serve`, the same GGUF sha256);
// with the remote tokenizer each is probed once for prompt
// log-probabilities.
func New(ctx context.Context, args model.Args, chat bool) (*LM, error) {
	o, err := ParseOptions(args, chat)
	if err != nil {
		return nil, err
	}
	l := &LM{opts: o, chat: chat, bos: -1, eos: -1, prefixTok: -1, tokCache: map[tokKey][]int32{}}
	l.pool = &pool{
		client:   &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.NumConcurrent, Proxy: http.ProxyFromEnvironment}},
		apiKey:   o.APIKey,
		attempts: o.MaxRetries,
		timeout:  o.Timeout,
		sem:      make(chan struct{}, o.NumConcurrent),
	}
	for _, u := range o.BaseURLs {
		l.pool.servers = append(l.pool.servers, &server{root: u})
	}
	if err := l.connect(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

type modelsAnswer struct {
	Data []struct {
		ID          string         `json:"id"`
		MaxModelLen int            `json:"max_model_len"`
		LMEval      map[string]any `json:"lmeval"`
	} `json:"data"`
}

type tokenizerInfo struct {
	EOSToken   *string `json:"eos_token"`
	BOSToken   *string `json:"bos_token"`
	BOSTokenID *int32  `json:"bos_token_id"`
	// PrefixTokenID is `lmeval serve`'s prefix_token_id (model_arg, else
	// BOS, else EOS); other servers leave it to BOS/EOS as lm-eval does.
	PrefixTokenID *int32 `json:"prefix_token_id"`
	EOSTokenID    *int32 `json:"eos_token_id"`
}

// connect asks every server what it serves and checks they agree.
func (l *LM) connect(ctx context.Context) error {
	type facts struct {
		model, sha string
		maxLen     int
		lmeval     bool
	}
	all := make([]facts, len(l.pool.servers))
	l.lmevalSrv = true
	for i, s := range l.pool.servers {
		var ma modelsAnswer
		if err := l.pool.get(ctx, s, "/v1/models", &ma); err != nil {
			return fmt.Errorf("server %s: /v1/models: %w", s.root, err)
		}
		if len(ma.Data) == 0 {
			return fmt.Errorf("server %s: /v1/models lists no model", s.root)
		}
		d := ma.Data[0]
		if l.opts.Model != "" {
			found := false
			for _, m := range ma.Data {
				if m.ID == l.opts.Model {
					d, found = m, true
				}
			}
			if !found && len(ma.Data) > 1 {
				return fmt.Errorf("server %s does not serve model %q", s.root, l.opts.Model)
			}
		}
		f := facts{model: d.ID, maxLen: d.MaxModelLen}
		if d.LMEval != nil {
			f.sha, _ = d.LMEval["sha256"].(string)
			f.lmeval = d.LMEval["server"] == "lmeval"
		}
		l.lmevalSrv = l.lmevalSrv && f.lmeval
		all[i] = f
		if i > 0 && (f.model != all[0].model || f.sha != all[0].sha) {
			return fmt.Errorf("the servers serve different models: %s serves %q (sha256 %s), %s serves %q (sha256 %s)",
				l.pool.servers[0].root, all[0].model, orNone(all[0].sha), s.root, f.model, orNone(f.sha))
		}
	}
	l.serverModel, l.sha256 = all[0].model, all[0].sha
	if l.opts.Model == "" {
		l.opts.Model = l.serverModel
	}
	l.maxLength = l.opts.MaxLength
	if l.maxLength == 0 {
		l.maxLength = all[0].maxLen
		for _, f := range all {
			if f.maxLen > 0 {
				l.maxLength = min(l.maxLength, f.maxLen)
			}
		}
	}
	if l.maxLength <= 0 {
		l.maxLength = 2048 // lm-eval's default
	}
	l.eosText = l.opts.EOSString
	if !l.opts.TokenizerRemote {
		l.probeErr = errors.New("tokenizer_backend=none: log-likelihoods need the server's tokenizer (tokenizer_backend=remote)")
		return nil
	}
	var ti tokenizerInfo
	s0 := l.pool.servers[0]
	if err := l.pool.get(ctx, s0, "/tokenizer_info", &ti); err != nil {
		return fmt.Errorf("server %s: /tokenizer_info (needed by tokenizer_backend=remote; tokenizer_backend=none sends text): %w", s0.root, err)
	}
	if ti.EOSToken != nil && l.eosText == "" {
		l.eosText = *ti.EOSToken
	}
	// Token ids of the special tokens, as lm-eval's RemoteTokenizer finds
	// them: the first token of their text.
	idOf := func(id *int32, text *string) (int32, error) {
		if id != nil {
			return *id, nil
		}
		if text == nil || *text == "" {
			return -1, nil
		}
		toks, err := l.tokenize(ctx, *text, false)
		if err != nil || len(toks) == 0 {
			return -1, err
		}
		return toks[0], nil
	}
	var err error
	if l.bos, err = idOf(ti.BOSTokenID, ti.BOSToken); err != nil {
		return err
	}
	if l.eos, err = idOf(ti.EOSTokenID, ti.EOSToken); err != nil {
		return err
	}
	if ti.PrefixTokenID != nil {
		l.prefixTok = *ti.PrefixTokenID
	}
	if !l.chat {
		l.probeErr = l.probe(ctx)
		if l.probeErr != nil {
			slog.Warn("log-likelihood requests will fail", "reason", l.probeErr)
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not reported"
	}
	return s
}

// probe asks each server for the log-probabilities of a short prompt's
// own tokens and checks that they come back, one per prompt token. A
// server that cannot be reached now (down, hanging, rate-limiting,
// answering garbage) is left to the retries of the run; one that answers
// without the prompt's log-probabilities, or refuses echo, fails the
// probe, and at least one server must pass it.
func (l *LM) probe(ctx context.Context) error {
	toks, err := l.tokenize(ctx, "The quick brown fox jumps over the lazy dog", true)
	if err != nil {
		return err
	}
	if len(toks) < 2 {
		return fmt.Errorf("probe: the server's tokenizer gave %d tokens for a sentence", len(toks))
	}
	body := mustJSON(l.scoreBody([][]int32{toks}))
	passed := 0
	var unreachable error
	for _, s := range l.pool.servers {
		var err error
		for try := 0; try < l.pool.attempts; try++ {
			var ans completionAnswer
			err = l.pool.once(ctx, s, http.MethodPost, "/v1/completions", body, &ans)
			if err == nil {
				if _, perr := l.parseScores(&ans, [][]int32{toks}, []int{1}); perr != nil {
					return l.lacks(s, perr)
				}
				break
			}
			var se *statusError
			if errors.As(err, &se) {
				if se.retry > 0 {
					select {
					case <-time.After(min(se.retry, 60*time.Second)):
					case <-ctx.Done():
						return ctx.Err()
					}
					continue
				}
				if se.status != http.StatusServiceUnavailable && se.status != http.StatusBadGateway && se.status != http.StatusGatewayTimeout {
					return l.lacks(s, err) // a refusal (llama.cpp: 500 Unsupported param: echo)
				}
			}
		}
		if err != nil {
			s.failed(err)
			unreachable = err
			continue
		}
		passed++
	}
	if passed == 0 {
		return fmt.Errorf("no server answered the prompt log-probability probe: %w", unreachable)
	}
	return nil
}

func (l *LM) lacks(s *server, err error) error {
	return fmt.Errorf("server %s cannot return log-probabilities of prompt tokens (completions with echo and logprobs), "+
		"which log-likelihood tasks need; llama.cpp's server cannot, vLLM and `lmeval serve` can: %w", s.root, err)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// tokenize asks a server's /tokenize (add: BOS as the model adds it).
func (l *LM) tokenize(ctx context.Context, text string, add bool) ([]int32, error) {
	key := tokKey{text, add}
	l.tokMu.Lock()
	if t, ok := l.tokCache[key]; ok {
		l.tokMu.Unlock()
		return t, nil
	}
	l.tokMu.Unlock()
	type answer struct {
		Tokens *[]int32 `json:"tokens"`
	}
	v, _, err := l.pool.post(ctx, "/tokenize", map[string]any{"model": l.opts.Model, "prompt": text, "add_special_tokens": add},
		func() any { return &answer{} },
		func(v any) error {
			if v.(*answer).Tokens == nil {
				return errors.New("no tokens list")
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("tokenize: %w", err)
	}
	toks := *v.(*answer).Tokens
	l.tokMu.Lock()
	if len(l.tokCache) > 1<<16 {
		clear(l.tokCache)
	}
	l.tokCache[key] = toks
	l.tokMu.Unlock()
	return toks, nil
}

// Describe implements model.Describer.
func (l *LM) Describe() model.Description {
	name := "local-completions"
	if l.chat {
		name = "local-chat-completions"
	}
	return model.Description{Backend: name, Facts: &Server{
		MaxLength: l.maxLength, ServerModel: l.serverModel, Servers: len(l.pool.servers), ModelSHA256: l.sha256,
	}}
}

// Server is an API server's facts, the remote backends' facts in the
// results' lmeval block (model.Description.Facts).
type Server struct {
	MaxLength   int    `json:"max_length" info:"engine,identity"`
	ServerModel string `json:"server_model" info:"extra,identity"`
	Servers     int    `json:"servers" info:"extra"`
	// ModelSHA256 is the sha256 the server reports for its model file (an
	// lmeval serve), "" when it reports none.
	ModelSHA256 string `json:"model_sha256,omitempty" info:"extra,identity"`
}
