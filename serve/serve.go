// Package serve is lmeval's OpenAI-compatible HTTP server (`lmeval serve`):
// one GGUF model loaded in process and served to lm-eval's
// local-completions and local-chat-completions clients, to lmeval's own
// remote backend, and to any OpenAI client.
//
// Unlike llama.cpp's server it returns log-probabilities for the prompt
// (completions with echo and logprobs), which is what lm-eval scores
// multiple-choice tasks with, and the tokenizer endpoints lm-eval's
// RemoteTokenizer reads (/tokenize, /detokenize, /tokenizer_info).
// Concurrent requests are gathered for a short window and decoded together
// in the engine's packed batches, prefixes they share decoded once.
//
// The server reads and writes no files. Endpoints and limits are in
// docs/serve.md.
package serve

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lmeval/lmeval/chat"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
)

// Options configure a Server. Zero values give the documented defaults.
type Options struct {
	// APIKey, when set, is required of every request as
	// "Authorization: Bearer KEY".
	APIKey string
	// ModelName is the model id the server reports and accepts (default:
	// the GGUF's file name).
	ModelName string
	// MaxBodyBytes bounds a request body (default 16 MiB).
	MaxBodyBytes int64
	// MaxPrompts bounds the prompts of one completions request (default
	// 1024).
	MaxPrompts int
	// MaxLogprobs bounds the top log-probabilities asked per token
	// (default 20).
	MaxLogprobs int
	// Window is how long the batcher waits for more requests after the
	// first arrives (default 2ms).
	Window time.Duration
	// MaxBatch bounds the prompts decoded in one engine call (default
	// 256).
	MaxBatch int
}

func (o *Options) defaults() {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 16 << 20
	}
	if o.MaxPrompts <= 0 {
		o.MaxPrompts = 1024
	}
	if o.MaxLogprobs <= 0 {
		o.MaxLogprobs = 20
	}
	if o.Window <= 0 {
		o.Window = 2 * time.Millisecond
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
}

// Model is what the server serves: a loaded engine model with the facts
// the API reports.
type Model struct {
	Engine *engine.Model
	// SHA256 is the GGUF file's sha256 (hex), reported in /v1/models and
	// /tokenizer_info so clients can key caches by content.
	SHA256 string
	// ChatTemplate is the model's Jinja chat template with its special
	// tokens (no Source: chat completions are refused).
	ChatTemplate model.ChatTemplateText
	// Tokenizer, when set, is the same GGUF loaded vocabulary-only
	// (engine.Options.VocabOnly): tokenizing and detokenizing then do not
	// wait for the decodes Engine is running.
	Tokenizer *engine.Model
}

// Server serves one model. Until SetModel is called every endpoint but
// /health answers 503.
type Server struct {
	opts    Options
	model   atomic.Pointer[loaded]
	queue   chan *work
	started sync.Once
	stop    chan struct{}
	created int64
	batches atomic.Int64 // engine calls made
	prompts atomic.Int64 // prompts they carried
}

// Stats counts the batches the server has decoded and the prompts in
// them: prompts/batches above 1 means concurrent requests shared decodes.
type Stats struct{ Batches, Prompts int64 }

// Stats returns the batching counters.
func (s *Server) Stats() Stats { return Stats{Batches: s.batches.Load(), Prompts: s.prompts.Load()} }

// loaded is the model with what the server derives from it once.
type loaded struct {
	Model
	name   string
	info   engine.Settings
	tok    *engine.Model  // Tokenizer, else Engine
	render *chat.Template // nil without a template
	eos    string
	bos    string
	pieces []string // every token's text, special tokens included: prompt tokens in logprobs
	texts  []string // every token's text as generated (engine.Model.TokenText)
}

// New makes a server that answers 503 until SetModel.
func New(opts Options) *Server {
	opts.defaults()
	return &Server{opts: opts, queue: make(chan *work, 4096), stop: make(chan struct{}), created: time.Now().Unix()}
}

// SetModel starts serving m.
func (s *Server) SetModel(m Model) error {
	info := m.Engine.Settings()
	l := &loaded{Model: m, info: info, tok: m.Tokenizer}
	if l.tok == nil {
		l.tok = m.Engine
	} else if ti := l.tok.Settings(); ti.NVocab != info.NVocab || ti.AddBOS != info.AddBOS || ti.PrefixToken != info.PrefixToken {
		return fmt.Errorf("serve: the tokenizer copy (vocabulary %d, add BOS %v, prefix token %d) is not the model's (%d, %v, %d): load it with the same add_bos_token and prefix_token_id",
			ti.NVocab, ti.AddBOS, ti.PrefixToken, info.NVocab, info.AddBOS, info.PrefixToken)
	}
	l.name = s.opts.ModelName
	if l.name == "" {
		l.name = filepath.Base(info.Path)
	}
	if m.ChatTemplate.Source != "" {
		r, err := chat.Compile(m.ChatTemplate.Source, m.ChatTemplate.Tokens, chat.Options{})
		if err != nil {
			slog.Warn("chat template does not compile: chat completions are refused", "err", err)
		} else {
			l.render = r
		}
	}
	if info.EOS >= 0 {
		l.eos = m.Engine.TokenPiece(info.EOS)
	}
	if info.BOS >= 0 {
		l.bos = m.Engine.TokenPiece(info.BOS)
	}
	l.pieces = make([]string, info.NVocab)
	l.texts = make([]string, info.NVocab)
	for t := range l.pieces {
		l.pieces[t] = m.Engine.TokenPiece(int32(t))
		l.texts[t] = m.Engine.TokenText(int32(t))
	}
	s.model.Store(l)
	s.started.Do(func() { go s.batcher() })
	return nil
}

// Close stops the batcher; requests still queued get 503.
func (s *Server) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", s.health)
	mux.HandleFunc("GET /v1/models", s.withModel(s.models))
	mux.HandleFunc("POST /v1/completions", s.withModel(s.completions))
	mux.HandleFunc("POST /v1/chat/completions", s.withModel(s.chat))
	mux.HandleFunc("POST /tokenize", s.withModel(s.tokenize))
	mux.HandleFunc("POST /v1/tokenize", s.withModel(s.tokenize))
	mux.HandleFunc("POST /detokenize", s.withModel(s.detokenize))
	mux.HandleFunc("POST /v1/detokenize", s.withModel(s.detokenize))
	mux.HandleFunc("GET /tokenizer_info", s.withModel(s.tokenizerInfo))
	mux.HandleFunc("GET /v1/tokenizer_info", s.withModel(s.tokenizerInfo))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.opts.APIKey != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(s.opts.APIKey)) != 1 {
				writeError(w, http.StatusUnauthorized, "authentication_error", "", "a valid API key is required: Authorization: Bearer KEY")
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if s.model.Load() == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "loading"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
}

func (s *Server) withModel(h func(http.ResponseWriter, *http.Request, *loaded)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l := s.model.Load()
		if l == nil {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "server_error", "", "the model is loading")
			return
		}
		h(w, r, l)
	}
}

func (s *Server) models(w http.ResponseWriter, r *http.Request, l *loaded) {
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": l.name, "object": "model", "created": s.created, "owned_by": "lmeval",
			"max_model_len": l.info.MaxLength,
			"lmeval":        l.describe(),
		}},
	})
}

// describe is what the server tells clients about its model (in
// /v1/models and /tokenizer_info), for cache identities and checks.
func (l *loaded) describe() map[string]any {
	return map[string]any{
		"server":           "lmeval",
		"sha256":           l.SHA256,
		"model_path_base":  filepath.Base(l.info.Path),
		"max_length":       l.info.MaxLength,
		"n_ctx":            l.info.NCtx,
		"add_bos_token":    l.info.AddBOS,
		"bos_token_id":     l.info.BOS,
		"prefix_token_id":  l.info.PrefixToken,
		"eos_token_id":     l.info.EOS,
		"vocab_size":       l.info.NVocab,
		"type_k":           l.info.TypeK,
		"type_v":           l.info.TypeV,
		"flash_attn":       l.info.FlashAttn,
		"llama_cpp_commit": l.info.Commit,
		"prompt_logprobs":  true,
	}
}

// apiError is an error answered as OpenAI's JSON error with a status.
type apiError struct {
	status int
	typ    string
	param  string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(param, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: "invalid_request_error", param: param, msg: fmt.Sprintf(format, args...)}
}

func tooLong(param, format string, args ...any) *apiError {
	return &apiError{status: http.StatusRequestEntityTooLarge, typ: "invalid_request_error", param: param, msg: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("writing response", "err", err)
	}
}

func writeError(w http.ResponseWriter, status int, typ, param, msg string) {
	var p any
	if param != "" {
		p = param
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": p, "code": status}})
}

// fail answers err: an apiError as itself, a cancelled request not at
// all, anything else as a 500.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		writeError(w, ae.status, ae.typ, ae.param, ae.msg)
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", "", fmt.Sprintf("request body over %d bytes", mbe.Limit))
	case r.Context().Err() != nil:
		// the client is gone
	case errors.Is(err, errStopped):
		writeError(w, http.StatusServiceUnavailable, "server_error", "", err.Error())
	default:
		slog.Error("request failed", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "server_error", "", err.Error())
	}
}

// decodeBody reads a JSON request body into v.
func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			field := te.Field
			if strings.HasPrefix(field, "sampling.") {
				field = strings.TrimPrefix(field, "sampling.") // the embedded settings
			}
			return badRequest(field, "field %q: want %s, got JSON %s", field, te.Type, te.Value)
		}
		return badRequest("", "the request body is not valid JSON: %v", err)
	}
	return nil
}

// encode tokenizes text with special-token texts parsed; with addSpecial
// exactly as the engine encodes requests (engine.Model.Encode: BOS first
// when the model adds it, unless the text starts with the prefix token's
// text).
func (l *loaded) encode(text string, addSpecial bool) ([]int32, error) {
	if addSpecial {
		return l.tok.Encode(text)
	}
	return l.tok.Tokenize(text, false, true)
}

func (s *Server) tokenize(w http.ResponseWriter, r *http.Request, l *loaded) {
	var req struct {
		Prompt           *string       `json:"prompt"`
		Messages         []chatMessage `json:"messages"`
		AddSpecialTokens *bool         `json:"add_special_tokens"`
	}
	if err := decodeBody(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	add := req.AddSpecialTokens == nil || *req.AddSpecialTokens
	var text string
	switch {
	case req.Prompt != nil:
		text = *req.Prompt
	case req.Messages != nil:
		t, err := l.renderChat(req.Messages)
		if err != nil {
			fail(w, r, err)
			return
		}
		text = t
	default:
		fail(w, r, badRequest("prompt", "prompt (a string) or messages is required"))
		return
	}
	toks, err := l.encode(text, add)
	if err != nil {
		fail(w, r, badRequest("prompt", "%v", err))
		return
	}
	if toks == nil {
		toks = []int32{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"count": len(toks), "max_model_len": l.info.MaxLength, "tokens": toks})
}

func (s *Server) detokenize(w http.ResponseWriter, r *http.Request, l *loaded) {
	var req struct {
		Tokens *[]int32 `json:"tokens"`
	}
	if err := decodeBody(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	if req.Tokens == nil {
		fail(w, r, badRequest("tokens", "tokens (a list of token ids) is required"))
		return
	}
	if err := l.checkTokens("tokens", *req.Tokens); err != nil {
		fail(w, r, err)
		return
	}
	text, err := l.tok.Detokenize(*req.Tokens, false, true)
	if err != nil {
		fail(w, r, badRequest("tokens", "%v", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"prompt": text})
}

func (l *loaded) checkTokens(param string, toks []int32) error {
	for i, t := range toks {
		if t < 0 || int(t) >= l.info.NVocab {
			return badRequest(param, "%s[%d] = %d is outside the vocabulary [0,%d)", param, i, t, l.info.NVocab)
		}
	}
	return nil
}

func (s *Server) tokenizerInfo(w http.ResponseWriter, r *http.Request, l *loaded) {
	info := l.describe()
	info["tokenizer_class"] = "GGUF"
	info["model_max_length"] = l.info.MaxLength
	info["eos_token"] = nilIfEmpty(l.eos)
	info["bos_token"] = nilIfEmpty(l.bos)
	info["pad_token"] = nilIfEmpty(l.eos)
	info["chat_template"] = nilIfEmpty(l.ChatTemplate.Source)
	writeJSON(w, http.StatusOK, info)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

var errStopped = errors.New("the server is shutting down")

// run queues one prompt's work and waits for it.
func (s *Server) run(ctx context.Context, wk *work) error {
	wk.ctx = ctx
	wk.done = make(chan struct{})
	select {
	case s.queue <- wk:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.stop:
		return errStopped
	}
	select {
	case <-wk.done:
		return wk.err
	case <-s.stop:
		return errStopped
	}
}
