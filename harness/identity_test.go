package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/benchmarks"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestRunIdentity: the keys lm-eval's GeneralConfigTracker adds — the
// backend, the model name from model_args, the system instruction, the
// chat template and fewshot_as_multiturn (implied by the template), with
// SHA-256 hashes; null when not used.
func TestRunIdentity(t *testing.T) {
	d, _ := dummy.New(nil)
	cfg := testConfig(t, "toy_mc")
	cfg.ModelArgs = map[string]string{"pretrained": "org/Model-GGUF:Q4_K_M"}
	cfg.ChatTemplate.Enabled = true
	cfg.FewshotAsMultiturn = true // as config.Resolve sets it with the template
	cfg.SystemInstruction = "Be brief."
	res, err := evaluate(context.Background(), cfg, chatDummy{LM: d}, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	if res.ModelSource != "dummy" || res.ModelName != "org/Model-GGUF:Q4_K_M" || res.ModelNameSanitized != "org__Model-GGUF__Q4_K_M" {
		t.Errorf("model %q %q %q", res.ModelSource, res.ModelName, res.ModelNameSanitized)
	}
	if res.SystemInstruction == nil || *res.SystemInstruction != "Be brief." || res.SystemInstructionSha == nil || *res.SystemInstructionSha != sha("Be brief.") {
		t.Errorf("system instruction %v %v", res.SystemInstruction, res.SystemInstructionSha)
	}
	if res.ChatTemplate == nil || *res.ChatTemplate != chatML || res.ChatTemplateSha == nil || *res.ChatTemplateSha != sha(chatML) {
		t.Errorf("chat template %v %v", res.ChatTemplate, res.ChatTemplateSha)
	}
	if res.FewshotAsMultiturn == nil || !*res.FewshotAsMultiturn {
		t.Errorf("fewshot_as_multiturn %v", res.FewshotAsMultiturn)
	}
	if res.TaskHashes == nil || res.TaskHashes.Len() != 0 {
		t.Errorf("task_hashes without samples: %v", res.TaskHashes)
	}

	plain, err := evaluate(context.Background(), testConfig(t, "toy_mc"), d, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	if plain.SystemInstruction != nil || plain.ChatTemplate != nil || plain.FewshotAsMultiturn != nil || plain.ModelName != "" {
		t.Errorf("unused settings are not null: %v %v %v %q", plain.SystemInstruction, plain.ChatTemplate, plain.FewshotAsMultiturn, plain.ModelName)
	}
}

// TestGroupHigherIsBetterConflict: a group whose members disagree on a
// metric's direction records None for it (lm-eval's
// _propagate_higher_is_better), and its table row has no arrow.
func TestGroupHigherIsBetterConflict(t *testing.T) {
	data, err := filepath.Abs("testdata/data/mc_b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	task := func(name string, up bool) string {
		return "task: " + name + "\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: " + data +
			"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"{{question}}\"\ndoc_to_choice: choices\n" +
			"doc_to_target: label\nmetric_list:\n  - metric: acc\n    higher_is_better: " + map[bool]string{true: "true", false: "false"}[up] + "\n"
	}
	files := map[string]string{
		"up.yaml":   task("hib_up", true),
		"down.yaml": task("hib_down", false),
		"grp.yaml":  "group: hib_group\ntask: [hib_up, hib_down]\naggregate_metric_list:\n  - metric: acc\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{dir}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	lm, _ := dummy.New(nil)
	cfg := testConfig(t, "hib_group")
	cfg.BootstrapIters = 0
	res, err := evaluate(context.Background(), cfg, lm, WithRegistry(r))
	if err != nil {
		t.Fatal(err)
	}
	// Without metadata.version a task's version is lm-eval's "Yaml", a
	// group's "N/A".
	if v, g := res.Versions["hib_up"], res.Versions["hib_group"]; v != "Yaml" || g != "N/A" {
		t.Errorf("versions %v, %v; want Yaml, N/A", v, g)
	}
	g := res.HigherIsBetter["hib_group"]
	if v, ok := g.Get("acc"); !ok || v != nil {
		t.Errorf("hib_group higher_is_better acc = %v (%v), want None", v, ok)
	}
	data2, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data2), "\"hib_group\": {\n      \"acc\": null\n    }") {
		t.Errorf("higher_is_better not written as null:\n%s", data2)
	}
	for _, line := range strings.Split(res.Table("groups", false), "\n") {
		if strings.HasPrefix(line, "|hib_group") && (strings.Contains(line, "↑") || strings.Contains(line, "↓")) {
			t.Errorf("a group row with no direction has an arrow: %s", line)
		}
	}
}
