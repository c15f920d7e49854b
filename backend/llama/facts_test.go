package llama

import (
	"reflect"
	"sort"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
)

// TestEngineFacts: the engine's facts reach the sections of the results'
// lmeval block and the cache identity that the hand-kept key lists gave
// them before model.Description was typed.
func TestEngineFacts(t *testing.T) {
	n := 7
	free := int64(1 << 30)
	in := model.Description{
		Backend: "llama", File: &model.ModelFile{Path: "m.gguf"},
		Facts:        &Engine{MaxLength: 2048, FlashAttn: "auto", AddBOS: true, NCtxMax: &n, CacheGrowths: &n, FreeMemory: &free},
		EngineCommit: "abc", Work: &model.Work{TokensDecoded: 3},
		Cache: &model.CacheStats{Path: "c.sqlite"},
	}
	keys := func(m map[string]any) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	s := in.Sections()
	for sec, want := range map[string][]string{
		model.SectionModel: {"architecture", "backend", "bits_per_weight", "file_size", "file_type", "model_name", "model_path",
			"n_ctx_train", "params", "vocab_size"},
		model.SectionEngine: {"add_bos_token", "cache_growths", "device", "devices", "flash_attn", "max_length", "n_batch", "n_ctx",
			"n_ctx_max", "n_gpu_layers", "n_seq_max", "n_ubatch", "threads", "type_k", "type_v"},
		model.SectionExtra: {"batch_size", "cache", "free_memory", "kv_bytes_per_token", "prefix_token_id"},
	} {
		if got := keys(s[sec]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", sec, got, want)
		}
	}
	want := map[string]string{"add_bos_token": "true", "device": "", "flash_attn": "auto", "max_length": "2048",
		"n_batch": "0", "n_gpu_layers": "0", "n_ubatch": "0", "type_k": "", "type_v": ""}
	if id := in.CacheIdentity(); !reflect.DeepEqual(id, want) {
		t.Errorf("CacheIdentity() = %v, want %v", id, want)
	}
}
