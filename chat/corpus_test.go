package chat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// vectorFile is one template's renderings by transformers
// (scripts/chattemplates/gen_vectors.py).
type vectorFile struct {
	Template string       `json:"template"`
	Now      string       `json:"now"`
	Cases    []vectorCase `json:"cases"`
}

type vectorCase struct {
	Name                 string            `json:"name"`
	Messages             []Message         `json:"messages"`
	AddGenerationPrompt  bool              `json:"add_generation_prompt"`
	ContinueFinalMessage bool              `json:"continue_final_message"`
	Kwargs               map[string]any    `json:"kwargs"`
	Tokens               map[string]string `json:"tokens"`
	Transformers         outcome           `json:"transformers"`
	LMEval               *outcome          `json:"lm_eval"`
}

// outcome is a rendering or the exception raised instead.
type outcome struct {
	Text     *string `json:"text"`
	Fallback bool    `json:"fallback"`
	Error    *struct {
		Type          string `json:"type"`
		TemplateError bool   `json:"template_error"`
		Message       string `json:"message"`
	} `json:"error"`
}

func tokensOf(m map[string]string) SpecialTokens {
	return SpecialTokens{BOS: m["bos_token"], EOS: m["eos_token"], UNK: m["unk_token"], SEP: m["sep_token"],
		PAD: m["pad_token"], CLS: m["cls_token"], MASK: m["mask_token"]}
}

// check compares a rendering with transformers': the same text, or an
// error of the same class (jinja2's TemplateError family or not), with
// the same message where the message is the template's own
// (raise_exception) or transformers' (its ValueErrors).
func (o outcome) check(got string, err error) string {
	if o.Text != nil {
		if err != nil {
			return "transformers renders " + quote(*o.Text) + ", lmeval fails: " + err.Error()
		}
		if got != *o.Text {
			return "got  " + quote(got) + "\n     want " + quote(*o.Text)
		}
		return ""
	}
	e := o.Error
	if err == nil {
		return "transformers raises " + e.Type + " (" + e.Message + "), lmeval renders " + quote(got)
	}
	var te *TemplateError
	if errors.As(err, &te) != e.TemplateError {
		return "transformers raises " + e.Type + " (" + e.Message + "), lmeval's error is of the other class: " + err.Error()
	}
	var re *RaisedError
	if e.Type == "TemplateError" && (!errors.As(err, &re) || re.Msg != e.Message) {
		return "transformers raises TemplateError(" + quote(e.Message) + "), lmeval: " + err.Error()
	}
	var pe *PythonError
	if e.Type == "ValueError" && (!errors.As(err, &pe) || pe.Type != "ValueError" || !strings.HasPrefix(e.Message, pe.Msg)) {
		return "transformers raises ValueError(" + quote(e.Message) + "), lmeval: " + err.Error()
	}
	return ""
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCorpus renders every template of testdata/templates on every
// conversation of its vectors, as transformers' apply_chat_template and as
// lm-eval's HFLM.apply_chat_template, and requires each to be identical to
// what transformers gave (or to fail where it failed).
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/vectors/*.json")
	if err != nil || len(files) < 40 {
		t.Fatalf("want at least 40 vector files, found %d (%v)", len(files), err)
	}
	features, err := filepath.Glob("testdata/vectors/features/*.json")
	if err != nil || len(features) == 0 {
		t.Fatalf("no feature vectors (%v)", err)
	}
	files = append(files, features...)
	renders, fails := 0, 0
	for _, path := range files {
		var vf vectorFile
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &vf)
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		src, err := os.ReadFile(filepath.Join("testdata/templates", filepath.FromSlash(vf.Template)))
		if err != nil {
			t.Fatal(err)
		}
		now, err := time.ParseInLocation("2006-01-02T15:04:05", vf.Now, time.Local)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(vf.Template), ".jinja"), func(t *testing.T) {
			for _, c := range vf.Cases {
				tmpl, err := Compile(string(src), tokensOf(c.Tokens), Options{Vars: c.Kwargs, Now: func() time.Time { return now }})
				if err != nil {
					// transformers compiles the template when it renders,
					// after refusing an empty conversation; Compile
					// reports a broken template before any conversation.
					if len(c.Messages) == 0 {
						continue
					}
					renders++
					if msg := c.Transformers.check("", err); msg != "" {
						fails++
						t.Errorf("%s: compile: %s", c.Name, msg)
					}
					continue
				}
				got, err := tmpl.Render(c.Messages, c.AddGenerationPrompt, c.ContinueFinalMessage)
				renders++
				if msg := c.Transformers.check(got, err); msg != "" {
					fails++
					t.Errorf("%s: apply_chat_template: %s", c.Name, msg)
				}
				if c.LMEval == nil {
					continue
				}
				got, fell, err := tmpl.Apply(c.Messages, c.AddGenerationPrompt)
				renders++
				if msg := c.LMEval.check(got, err); msg != "" {
					fails++
					t.Errorf("%s: HFLM.apply_chat_template: %s", c.Name, msg)
				} else if fell != c.LMEval.Fallback {
					fails++
					t.Errorf("%s: HFLM.apply_chat_template: fallback %v, want %v", c.Name, fell, c.LMEval.Fallback)
				}
			}
		})
	}
	t.Logf("%d templates, %d renderings, %d differ", len(files), renders, fails)
}

// TestStrftime checks strftime_now's formatting against Python's
// datetime.strftime (testdata/strftime.json).
func TestStrftime(t *testing.T) {
	var v struct {
		Cases []struct{ Time, Format, Want string }
	}
	data, err := os.ReadFile("testdata/strftime.json")
	if err == nil {
		err = json.Unmarshal(data, &v)
	}
	if err != nil || len(v.Cases) == 0 {
		t.Fatalf("testdata/strftime.json: %v", err)
	}
	for _, c := range v.Cases {
		tm, err := time.Parse("2006-01-02T15:04:05.999999", c.Time)
		if err != nil {
			t.Fatal(err)
		}
		if got := strftime(tm, c.Format); got != c.Want {
			t.Errorf("strftime(%s, %q) = %q, want %q", c.Time, c.Format, got, c.Want)
		}
	}
}
