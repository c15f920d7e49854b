package model

import (
	"reflect"
	"sort"
	"testing"
)

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestInfoSections: the facts of each backend reach the sections of the
// results' lmeval block and the cache identity that the hand-kept key
// lists gave them before Info was typed.
func TestInfoSections(t *testing.T) {
	n := 7
	free := int64(1 << 30)
	llama := Info{
		Backend: "llama", File: &ModelFile{Path: "m.gguf"},
		Llama:          &LlamaEngine{MaxLength: 2048, FlashAttn: "auto", AddBOS: true, NCtxMax: &n, CacheGrowths: &n, FreeMemory: &free},
		LlamaCppCommit: "abc", Work: &Work{TokensDecoded: 3},
		Cache: &CacheStats{Path: "c.sqlite"},
	}
	s := llama.Sections()
	for sec, want := range map[string][]string{
		SectionModel: {"architecture", "backend", "bits_per_weight", "file_size", "file_type", "model_name", "model_path",
			"n_ctx_train", "params", "vocab_size"},
		SectionEngine: {"add_bos_token", "cache_growths", "device", "devices", "flash_attn", "max_length", "n_batch", "n_ctx",
			"n_ctx_max", "n_gpu_layers", "n_seq_max", "n_ubatch", "threads", "type_k", "type_v"},
		SectionExtra: {"batch_size", "cache", "free_memory", "kv_bytes_per_token", "prefix_token_id"},
	} {
		if got := keys(s[sec]); !reflect.DeepEqual(got, want) {
			t.Errorf("llama %s: %v, want %v", sec, got, want)
		}
	}
	if v, ok := s[SectionEngine]["n_ctx_max"].(int); !ok || v != 7 {
		t.Errorf("n_ctx_max = %#v, want the int 7 (pointers are followed)", s[SectionEngine]["n_ctx_max"])
	}
	id := llama.CacheIdentity()
	want := map[string]string{"add_bos_token": "true", "device": "", "flash_attn": "auto", "max_length": "2048",
		"n_batch": "0", "n_gpu_layers": "0", "n_ubatch": "0", "type_k": "", "type_v": ""}
	if !reflect.DeepEqual(id, want) {
		t.Errorf("llama CacheIdentity() = %v, want %v", id, want)
	}

	remote := Info{Backend: "local-completions", Remote: &RemoteServer{MaxLength: 10, ServerModel: "m", Servers: 2}}
	if got := remote.CacheIdentity(); !reflect.DeepEqual(got, map[string]string{"max_length": "10", "server_model": "m"}) {
		t.Errorf("remote CacheIdentity() = %v (model_sha256 only when the server reports one)", got)
	}
	remote.Remote.ModelSHA256 = "x"
	if got := keys(remote.Sections()[SectionExtra]); !reflect.DeepEqual(got, []string{"model_sha256", "server_model", "servers"}) {
		t.Errorf("remote extra %v", got)
	}

	d, _ := NewDummy(nil)
	s = d.Describe().Sections()
	if !reflect.DeepEqual(s[SectionModel], map[string]any{"backend": "dummy", "seed": uint64(1234)}) || len(s[SectionEngine]) != 0 || len(s[SectionExtra]) != 0 {
		t.Errorf("dummy sections %v", s)
	}
	if len(d.Describe().CacheIdentity()) != 0 {
		t.Errorf("dummy CacheIdentity() = %v", d.Describe().CacheIdentity())
	}
}
