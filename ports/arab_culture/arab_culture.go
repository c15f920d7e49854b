// Package arab_culture ports lm_eval/tasks/arab_culture/utils_mcq.py: a
// statement and three options lettered with the dataset's keys, under a
// prompt that names the location when the COUNTRY and REGION environment
// variables ask for it, in Arabic when ARABIC does, wrapped in Jais's chat
// prompt when MODEL_NAME names a Jais chat model. arab_culture_completion
// (ports/arab_culture_completion) shares the settings and the prompt
// logic.
package arab_culture

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Settings are the module's COUNTRY, REGION, ARABIC and MODEL_NAME.
type Settings struct {
	Country, Region, Arabic bool
	ModelName               string
}

// SettingsFrom reads the settings as the module does at import:
// `True if os.getenv(NAME, True) == "True" else False`, which is true only
// when the variable is set to "True" (unset, the default True is not the
// string "True": false).
func SettingsFrom(getenv func(string) (string, bool)) Settings {
	is := func(name string) bool { v, ok := getenv(name); return ok && v == "True" }
	m, _ := getenv("MODEL_NAME")
	return Settings{Country: is("COUNTRY"), Region: is("REGION"), Arabic: is("ARABIC"), ModelName: m}
}

// Env is the settings of this process's environment, read once (as the
// module's import does).
var Env = sync.OnceValue(func() Settings { return SettingsFrom(os.LookupEnv) })

// Prompts are a prompts.py's templates.
type Prompts struct {
	Base, BaseAR, Region, RegionAR, RegionCountry, RegionCountryAR, JaisEN, JaisAR string
}

// Prompt is what the doc_to_text functions share: the location from the
// document (in Arabic when ARABIC), the prompt that COUNTRY and REGION
// choose, with the statement and (when choices is not nil) the options,
// and Jais's chat prompt around it for a Jais chat model.
func (s Settings) Prompt(doc task.Doc, p Prompts, choices *string) (string, error) {
	var loc [2]any
	for i, k := range []string{"country", "region"} {
		v, err := pydoc.Field(doc, k)
		if err != nil {
			return "", err
		}
		if pyval.Truthy(v) {
			loc[i] = v
		} else {
			loc[i] = ""
		}
	}
	fs, err := pydoc.GetStr(doc, "first_statement")
	if err != nil {
		return "", err
	}
	if s.Country && !s.Region {
		return "", fmt.Errorf("AssertionError: If you want to add the country information, you must also add the region information")
	}
	country, region := pyval.Str(loc[0]), pyval.Str(loc[1])
	if s.Arabic {
		for i, out := range []*string{&country, &region} {
			k, _ := loc[i].(string)
			ar, ok := enARCountriesRegions[k]
			if !ok {
				return "", fmt.Errorf("KeyError: %s", pyval.Repr(loc[i]))
			}
			*out = ar
		}
	}
	fields := map[string]string{"country": country, "region": region, "first_statement": pyre.Strip(fs)}
	if choices != nil {
		fields["choices"] = *choices
	}
	var tpl string
	switch {
	case s.Country && s.Region:
		tpl = pick(s.Arabic, p.RegionCountryAR, p.RegionCountry)
	case s.Region:
		tpl = pick(s.Arabic, p.RegionAR, p.Region)
	default:
		tpl = pick(s.Arabic, p.BaseAR, p.Base)
	}
	text, err := pydoc.Format(tpl, fields)
	if err != nil {
		return "", err
	}
	if s.ModelName != "" && strings.Contains(s.ModelName, "jais") && strings.Contains(s.ModelName, "chat") {
		return pydoc.Format(pick(s.Arabic, p.JaisAR, p.JaisEN), map[string]string{"question": text})
	}
	return text, nil
}

func pick(arabic bool, ar, en string) string {
	if arabic {
		return ar
	}
	return en
}

// Field is doc[a][b].
func Field(doc task.Doc, a, b string) (any, error) {
	v, err := pydoc.Field(doc, a)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is %s, want a dict", a, pyval.Repr(v))
	}
	return pydoc.Field(m, b)
}

// List is doc[a][b] as a list.
func List(doc task.Doc, a, b string) ([]any, error) {
	v, err := Field(doc, a, b)
	if err != nil {
		return nil, err
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s[%s] is %s, want a list", a, b, pyval.Repr(v))
	}
	return l, nil
}

func (s Settings) keysField() string { return pick(s.Arabic, "arabic_keys", "english_keys") }

// DocToText is utils_mcq.py's doc_to_text: the three options are
// "key. text" lines, the key in Arabic or English.
func (s Settings) DocToText(doc task.Doc) (string, error) {
	keys, err := List(doc, "options", s.keysField())
	if err != nil {
		return "", err
	}
	texts, err := List(doc, "options", "text")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < 3; i++ {
		if i >= len(keys) || i >= len(texts) {
			return "", fmt.Errorf("IndexError: option %d of %d keys and %d texts", i, len(keys), len(texts))
		}
		k, ok1 := keys[i].(string)
		t, ok2 := texts[i].(string)
		if !ok1 || !ok2 {
			return "", fmt.Errorf("TypeError: option %d: key %s, text %s", i, pyval.Repr(keys[i]), pyval.Repr(texts[i]))
		}
		b.WriteString(k + ". " + pyre.Strip(t) + "\n")
	}
	c := b.String()
	return s.Prompt(doc, prompts, &c)
}

// DocToChoice is utils_mcq.py's doc_to_choice: the options' keys.
func (s Settings) DocToChoice(doc task.Doc) (any, error) {
	return Field(doc, "options", s.keysField())
}

// DocToTarget is utils_mcq.py's doc_to_target: the answer key, stripped.
func (s Settings) DocToTarget(doc task.Doc) (any, error) {
	v, err := Field(doc, "answer_key", pick(s.Arabic, "arabic_answer_key", "english_answer_key"))
	if err != nil {
		return nil, err
	}
	a, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: answer key %s is not a str", pyval.Repr(v))
	}
	return pyre.Strip(a), nil
}

func init() {
	const file = "arab_culture/utils_mcq.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "a6cc9a65ed92969079bbdfd9431514aac045266a41ded9fbc60c90e30209155d"}, func(d task.Doc) (any, error) { return Env().DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice",
		SHA256: "60f791d0372928ffa5252e7c0c191ab5421e3b7956fa724a75a14316d11ccd5e"}, func(d task.Doc) (any, error) { return Env().DocToChoice(d) })
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "a2ae9dfd8ed353c15a9b0aa165e1d902b0132d53ae8fa328a2f577062a9553de"}, func(d task.Doc) (any, error) { return Env().DocToTarget(d) })
}
