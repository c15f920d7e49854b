package shard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// Calls records what an evaluation asked of its model beyond answers:
// whether the model counts tokens, carries chat templates and gives
// token texts, and each such call's result. A shard records them while it
// builds (Record); a merge, which has no model, replays them (Replay),
// so that its build renders the very prompts the shards did.
type Calls struct {
	mu sync.Mutex
	// Has lists the optional interfaces the model implements (the
	// Capability constants).
	Has []string `json:"has"`
	// MaxLength is TokenCounter's MaxLength.
	MaxLength int `json:"max_length,omitempty"`
	// Tokens are CountTokens' results by textKey of the text.
	Tokens map[string]Count `json:"tokens,omitempty"`
	// Templates are ChatTemplateSource's results, by template name.
	Templates map[string]Template `json:"templates,omitempty"`
	// Rendered are ChatTemplater's renderings, by renderKey of the
	// messages.
	Rendered map[string]Result `json:"rendered,omitempty"`
	// Pieces are TokenPiecer's token texts, by token id.
	Pieces map[int32]string `json:"pieces,omitempty"`

	// gens are Generator's generations by request key: their token
	// counts go into the shard file's answers (Writer.Write).
	gens map[[32]byte]model.Generation
}

// The optional interfaces Calls records or replays.
const (
	CapTokenCounter       = "token_counter"
	CapChatTemplateSource = "chat_template_source"
	CapChatTemplater      = "chat_templater"
	CapTokenPiecer        = "token_piecer"
	CapGenerator          = "generator"
	CapDescriber          = "describer"
	CapFileHasher         = "file_hasher"
)

// Count is one CountTokens result.
type Count struct {
	N   int    `json:"n"`
	Err string `json:"err,omitempty"`
}

// Template is one ChatTemplate result: the template, or the error's
// text (NoTemplate: model.ErrNoChatTemplate, or one that wraps it).
type Template struct {
	Text       model.ChatTemplateText `json:"text"`
	Err        string                 `json:"err,omitempty"`
	NoTemplate bool                   `json:"no_template,omitempty"`
}

// recordedErr is an error as a shard recorded it: its text, and whether
// it was model.ErrNoChatTemplate, which the harness tells apart.
type recordedErr struct {
	msg        string
	noTemplate bool
}

func (e *recordedErr) Error() string { return e.msg }

func (e *recordedErr) Unwrap() error {
	if e.noTemplate {
		return model.ErrNoChatTemplate
	}
	return nil
}

func (t Template) result() (model.ChatTemplateText, error) {
	switch {
	case t.Err == "":
		return t.Text, nil
	case t.NoTemplate && t.Err == model.ErrNoChatTemplate.Error():
		return t.Text, model.ErrNoChatTemplate
	}
	return t.Text, &recordedErr{t.Err, t.NoTemplate}
}

// Result is one ApplyChatTemplate result.
type Result struct {
	Text string `json:"text"`
	Err  string `json:"err,omitempty"`
}

func (c *Calls) has(capability string) bool { return slices.Contains(c.Has, capability) }

// merge adds o's calls to c's (a merge replays the union of its shards':
// each shard counted the tokens of its own requests).
func (c *Calls) merge(o *Calls) {
	if c.MaxLength == 0 {
		c.MaxLength = o.MaxLength
	}
	for k, v := range o.Tokens {
		if c.Tokens == nil {
			c.Tokens = map[string]Count{}
		}
		c.Tokens[k] = v
	}
	for k, v := range o.Templates {
		if c.Templates == nil {
			c.Templates = map[string]Template{}
		}
		c.Templates[k] = v
	}
	for k, v := range o.Rendered {
		if c.Rendered == nil {
			c.Rendered = map[string]Result{}
		}
		c.Rendered[k] = v
	}
	for k, v := range o.Pieces {
		if c.Pieces == nil {
			c.Pieces = map[int32]string{}
		}
		c.Pieces[k] = v
	}
}

// textKey identifies a text by its sha256 (the first 16 bytes, in hex):
// the calls hold no copy of every prompt.
func textKey(s string) string { return results.HashString(s)[:32] }

func renderKey(msgs []model.ChatMessage, addGenerationPrompt bool) string {
	b, _ := json.Marshal(struct {
		M []model.ChatMessage
		G bool
	}{msgs, addGenerationPrompt})
	return textKey(string(b))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func textErr(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

// Record returns lm behind a wrapper that records in calls what the
// harness asks of it beyond answers. The wrapper has exactly the optional
// interfaces lm has (model.As finds the others on lm through it), so the
// evaluation behaves as it would on lm.
func Record(lm model.LM) (model.LM, *Calls) {
	c := &Calls{}
	var out model.LM = &base{LM: lm, inner: lm}
	if _, ok := model.As[model.Describer](lm); ok {
		c.Has = append(c.Has, CapDescriber)
	}
	if _, ok := model.As[model.FileHasher](lm); ok {
		c.Has = append(c.Has, CapFileHasher)
	}
	if tc, ok := model.As[model.TokenCounter](lm); ok {
		c.Has = append(c.Has, CapTokenCounter)
		c.MaxLength = tc.MaxLength()
		out = &counting{layer{out}, func(text string) (int, error) {
			n, err := tc.CountTokens(text)
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.Tokens == nil {
				c.Tokens = map[string]Count{}
			}
			c.Tokens[textKey(text)] = Count{N: n, Err: errText(err)}
			return n, err
		}, c.MaxLength}
	}
	if src, ok := model.As[model.ChatTemplateSource](lm); ok {
		c.Has = append(c.Has, CapChatTemplateSource)
		out = &templates{layer{out}, func(name string) Template {
			text, err := src.ChatTemplate(name)
			t := Template{Text: text, Err: errText(err), NoTemplate: errors.Is(err, model.ErrNoChatTemplate)}
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.Templates == nil {
				c.Templates = map[string]Template{}
			}
			c.Templates[name] = t
			return t
		}}
	}
	if ct, ok := model.As[model.ChatTemplater](lm); ok {
		c.Has = append(c.Has, CapChatTemplater)
		out = &rendering{layer{out}, func(msgs []model.ChatMessage, gen bool) (string, error) {
			s, err := ct.ApplyChatTemplate(msgs, gen)
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.Rendered == nil {
				c.Rendered = map[string]Result{}
			}
			c.Rendered[renderKey(msgs, gen)] = Result{Text: s, Err: errText(err)}
			return s, err
		}}
	}
	if tp, ok := model.As[model.TokenPiecer](lm); ok {
		c.Has = append(c.Has, CapTokenPiecer)
		out = &piecing{layer{out}, func(id int32) string {
			s := tp.TokenPiece(id)
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.Pieces == nil {
				c.Pieces = map[int32]string{}
			}
			c.Pieces[id] = s
			return s
		}}
	}
	// model.Generate asks only the outermost model: this layer is last.
	if g, ok := lm.(model.Generator); ok {
		c.Has = append(c.Has, CapGenerator)
		out = &generating{layer{out}, func(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
			gens, err := g.Generate(ctx, reqs)
			if err != nil {
				return gens, err
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.gens == nil {
				c.gens = map[[32]byte]model.Generation{}
			}
			for i, r := range reqs {
				if k, err := requestKey("generate_until", r); err == nil && i < len(gens) {
					c.gens[k] = gens[i]
				}
			}
			return gens, nil
		}}
	}
	return out, c
}

// generation is the Generation a Generator gave for a request (its token
// counts), or the text alone with the counts unknown.
func (c *Calls) generation(k [32]byte, text string) model.Generation {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.gens[k]; ok {
		return g
	}
	return model.Uncounted([]string{text})[0]
}

// base is the innermost wrapper: the model's answers, and the model
// itself for the interfaces no layer stands in for.
type base struct {
	model.LM
	inner model.LM
}

func (b *base) Unwrap() model.LM { return b.inner }

// A layer adds one optional interface to the wrapper below it. Embedding
// model.LM (an interface) promotes only LM's methods, so a layer has no
// interface but its own.
type layer struct{ model.LM }

func (l layer) Unwrap() model.LM { return l.LM }

type counting struct {
	layer
	count  func(string) (int, error)
	maxLen int
}

func (c *counting) CountTokens(text string) (int, error) { return c.count(text) }
func (c *counting) MaxLength() int                       { return c.maxLen }

type templates struct {
	layer
	get func(string) Template
}

func (t *templates) ChatTemplate(name string) (model.ChatTemplateText, error) {
	return t.get(name).result()
}

type rendering struct {
	layer
	apply func([]model.ChatMessage, bool) (string, error)
}

func (r *rendering) ApplyChatTemplate(msgs []model.ChatMessage, addGenerationPrompt bool) (string, error) {
	return r.apply(msgs, addGenerationPrompt)
}

type piecing struct {
	layer
	piece func(int32) string
}

func (p *piecing) TokenPiece(id int32) string { return p.piece(id) }

type generating struct {
	layer
	generate func(context.Context, []model.GenerateRequest) ([]model.Generation, error)
}

func (g *generating) Generate(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
	return g.generate(ctx, reqs)
}

var (
	_ model.Generator          = (*generating)(nil)
	_ model.TokenCounter       = (*counting)(nil)
	_ model.ChatTemplateSource = (*templates)(nil)
	_ model.ChatTemplater      = (*rendering)(nil)
	_ model.TokenPiecer        = (*piecing)(nil)
	_ model.Wrapper            = (*base)(nil)
	_ model.Wrapper            = layer{}
)

// replayLayers puts on lm the layers that answer from calls what the
// shards' model answered, and records in *missed what no shard recorded.
func replayLayers(lm model.LM, c *Calls, missed func(string)) model.LM {
	if c.has(CapTokenCounter) {
		lm = &counting{layer{lm}, func(text string) (int, error) {
			r, ok := c.Tokens[textKey(text)]
			if !ok {
				missed(fmt.Sprintf("the token count of a text of %d bytes", len(text)))
				return 0, errors.New("no shard counted this text's tokens")
			}
			return r.N, textErr(r.Err)
		}, c.MaxLength}
	}
	if c.has(CapChatTemplateSource) {
		lm = &templates{layer{lm}, func(name string) Template {
			t, ok := c.Templates[name]
			if !ok {
				missed(fmt.Sprintf("the chat template %q", name))
				return Template{Err: "no shard recorded this chat template"}
			}
			return t
		}}
	}
	if c.has(CapChatTemplater) {
		lm = &rendering{layer{lm}, func(msgs []model.ChatMessage, gen bool) (string, error) {
			r, ok := c.Rendered[renderKey(msgs, gen)]
			if !ok {
				missed("a chat rendering of a prompt")
				return "", errors.New("no shard rendered this prompt")
			}
			return r.Text, textErr(r.Err)
		}}
	}
	if c.has(CapTokenPiecer) {
		lm = &piecing{layer{lm}, func(id int32) string {
			s, ok := c.Pieces[id]
			if !ok {
				missed(fmt.Sprintf("the text of token %d", id))
			}
			return s
		}}
	}
	return lm
}
