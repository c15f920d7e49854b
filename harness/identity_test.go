package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"lmeval/harness/model"
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
	d, _ := model.NewDummy(nil)
	cfg := testConfig(t, "toy_mc")
	cfg.ModelArgs = map[string]string{"pretrained": "org/Model-GGUF:Q4_K_M"}
	cfg.ChatTemplate.Enabled = true
	cfg.FewshotAsMultiturn = true // as config.Resolve sets it with the template
	cfg.SystemInstruction = "Be brief."
	res, err := Evaluate(context.Background(), cfg, chatDummy{d}, WithRegistry(testRegistry(t)))
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

	plain, err := Evaluate(context.Background(), testConfig(t, "toy_mc"), d, WithRegistry(testRegistry(t)))
	if err != nil {
		t.Fatal(err)
	}
	if plain.SystemInstruction != nil || plain.ChatTemplate != nil || plain.FewshotAsMultiturn != nil || plain.ModelName != "" {
		t.Errorf("unused settings are not null: %v %v %v %q", plain.SystemInstruction, plain.ChatTemplate, plain.FewshotAsMultiturn, plain.ModelName)
	}
}
