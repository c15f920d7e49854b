package task

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeJSON decodes documents with the value types harness/dataset gives
// (int64 for integers, float64 otherwise).
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	reflect.ValueOf(v).Elem().Set(reflect.ValueOf(numbers(raw)))
	return nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

// memLoader serves testdata/prompts/data/<name>.json for dataset_path mem/<name>.
func memLoader(dir string) DocLoader {
	return func(ctx context.Context, spec DatasetSpec, split string) ([]Doc, error) {
		name := strings.TrimPrefix(spec.Path, "mem/")
		data, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			return nil, err
		}
		var raw any
		if err := decodeJSON(data, &raw); err != nil {
			return nil, err
		}
		l, ok := raw.(map[string]any)[split].([]any)
		if !ok {
			return nil, fmt.Errorf("no split %s", split)
		}
		docs := make([]Doc, len(l))
		for i, d := range l {
			docs[i] = d.(map[string]any)
		}
		return docs, nil
	}
}

// Winogrande's helpers (lm_eval/tasks/winogrande/preprocess_winogrande.py),
// registered for the test tasks' directory.
func init() {
	RegisterDocFunc(helperAt("prompts/tasks", "preprocess_wino.doc_to_text"), func(doc Doc) (any, error) {
		return map[string]int{"1": 0, "2": 1}[doc["answer"].(string)], nil
	})
	RegisterDocFunc(helperAt("prompts/tasks", "preprocess_wino.doc_to_target"), func(doc Doc) (any, error) {
		s := doc["sentence"].(string)
		return strings.TrimSpace(s[strings.Index(s, "_")+1:]), nil
	})
	RegisterDocFunc(helperAt("prompts/tasks", "preprocess_wino.doc_to_choice"), func(doc Doc) (any, error) {
		s := doc["sentence"].(string)
		i := strings.Index(s, "_")
		return []string{s[:i] + doc["option1"].(string), s[:i] + doc["option2"].(string)}, nil
	})
}

// testChatTemplate is gen_expected.py's chat_template.
func testChatTemplate(msgs []ChatMessage, addGenerationPrompt bool) (string, error) {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "<|%s|>\n%s<|end|>\n", m.Role, m.Content)
	}
	if addGenerationPrompt {
		return b.String() + "<|assistant|>\n", nil
	}
	return strings.TrimSuffix(b.String(), "<|end|>\n"), nil
}

type expectedRun struct {
	Run struct {
		Task              string
		NumFewshot        *int `json:"num_fewshot"`
		Limit             float64
		Samples           []int
		Seed              *int64
		SystemInstruction string         `json:"system_instruction"`
		GenKwargs         map[string]any `json:"gen_kwargs"`
		Chat              bool
		Multiturn         bool
	}
	Docs []struct {
		DocID    int `json:"doc_id"`
		Context  string
		Requests []struct {
			Type string
			Args []any
		}
	}
}

// TestPrompts compares prompts and requests with those computed by
// testdata/prompts/gen_expected.py, a Python transcription of lm-eval's
// ConfigurableTask and ContextSampler run with Python's random and Jinja2.
func TestPrompts(t *testing.T) {
	reg := NewRegistry()
	if err := reg.AddDir("testdata/prompts/tasks"); err != nil {
		t.Fatal(err)
	}
	checkRuns(t, reg, "testdata/prompts/expected.json", memLoader("testdata/prompts/data"))
}

// TestSamplePrompts builds lm-eval's own YAML (the shared sample) on small
// hand-written documents and compares with the Python transcription.
func TestSamplePrompts(t *testing.T) {
	reg := NewRegistry()
	if err := reg.AddDir(sharedDir(t, "tasks")); err != nil {
		t.Fatal(err)
	}
	checkRuns(t, reg, "testdata/prompts/expected_sample.json", sampleLoader("testdata/prompts/sample"))
}

// sampleLoader serves sample/<dataset_path>_<dataset_name>.json.
func sampleLoader(dir string) DocLoader {
	return func(ctx context.Context, spec DatasetSpec, split string) ([]Doc, error) {
		name := strings.ReplaceAll(spec.Path, "/", "_")
		if spec.Name != "" {
			name += "_" + spec.Name
		}
		return memLoader(dir)(ctx, DatasetSpec{Path: name}, split)
	}
}

func checkRuns(t *testing.T, reg *Registry, file string, loader DocLoader) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var runs []expectedRun
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	for i, run := range runs {
		r := run.Run
		t.Run(fmt.Sprintf("%d_%s", i, r.Task), func(t *testing.T) {
			sel, err := reg.Load([]string{r.Task})
			if err != nil {
				t.Fatal(err)
			}
			tk := sel.Tasks()[0]
			opts := BuildOptions{
				Loader:            loader,
				Limit:             r.Limit,
				Samples:           r.Samples,
				NumFewshot:        r.NumFewshot,
				FewshotSeed:       r.Seed,
				SystemInstruction: r.SystemInstruction,
				GenKwargs:         r.GenKwargs,
			}
			if r.Chat {
				opts.ChatTemplate = testChatTemplate
				opts.FewshotAsMultiturn = r.Multiturn
			}
			if err := tk.BuildRequests(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			if len(tk.Docs) != len(run.Docs) {
				t.Fatalf("%d documents, want %d", len(tk.Docs), len(run.Docs))
			}
			byDoc := map[int][]Instance{}
			for _, in := range tk.Instances {
				byDoc[in.DocID] = append(byDoc[in.DocID], in)
			}
			for j, want := range run.Docs {
				got := tk.Docs[j]
				if got.ID != want.DocID {
					t.Errorf("doc %d: id %d, want %d", j, got.ID, want.DocID)
				}
				if got.Context != want.Context {
					t.Errorf("doc %d context:\n got %q\nwant %q", j, got.Context, want.Context)
				}
				ins := byDoc[got.ID]
				if len(ins) != len(want.Requests) {
					t.Fatalf("doc %d: %d requests, want %d", j, len(ins), len(want.Requests))
				}
				for k, wr := range want.Requests {
					in := ins[k]
					if string(in.Type) != wr.Type || in.Idx != k {
						t.Errorf("doc %d request %d: type %s idx %d, want %s %d", j, k, in.Type, in.Idx, wr.Type, k)
						continue
					}
					var got []any
					switch in.Type {
					case OutputLoglikelihood:
						got = []any{in.Loglikelihood.Context, in.Loglikelihood.Continuation}
					case OutputLoglikelihoodRolling:
						got = []any{in.Rolling.Text}
					case OutputGenerateUntil:
						if in.Generate.Context != wr.Args[0] {
							t.Errorf("doc %d request %d: generate context %q, want %q", j, k, in.Generate.Context, wr.Args[0])
						}
						gk, _ := json.Marshal(in.GenKwargs)
						wk, _ := json.Marshal(wr.Args[1])
						if string(gk) != string(wk) {
							t.Errorf("doc %d request %d: gen kwargs %s, want %s", j, k, gk, wk)
						}
						continue
					}
					if !reflect.DeepEqual(got, wr.Args) {
						t.Errorf("doc %d request %d:\n got %q\nwant %q", j, k, got, wr.Args)
					}
				}
			}
		})
	}
}
