package model

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// engineFacts is a backend's facts, tagged as backends tag theirs.
type engineFacts struct {
	MaxLength int    `json:"max_length" info:"engine,identity"`
	NCtx      int    `json:"n_ctx" info:"engine"`
	NCtxMax   *int   `json:"n_ctx_max,omitempty" info:"engine"`
	Growths   *int   `json:"cache_growths,omitempty" info:"engine"`
	Batch     string `json:"batch_size" info:"extra"`
	SHA       string `json:"model_sha256,omitempty" info:"extra,identity"`
	Internal  int    // untagged: not a fact
}

// TestInfoSections: every fact reaches its section of the results' lmeval
// block and, when tagged identity, the cache identity: Description's own, the
// model file's and the backend's (Facts), pointers followed, omitempty
// zeros left out.
func TestInfoSections(t *testing.T) {
	n := 7
	in := Description{
		Backend: "b", File: &ModelFile{Path: "m.gguf"},
		Facts:        &engineFacts{MaxLength: 2048, NCtxMax: &n, Internal: 3},
		EngineCommit: "abc", Work: &Work{TokensDecoded: 3},
		Cache: &CacheStats{Path: "c.sqlite"},
	}
	s := in.Sections()
	for sec, want := range map[string][]string{
		SectionModel: {"architecture", "backend", "bits_per_weight", "file_size", "file_type", "model_name", "model_path",
			"n_ctx_train", "params", "vocab_size"},
		SectionEngine: {"max_length", "n_ctx", "n_ctx_max"},
		SectionExtra:  {"batch_size", "cache"},
	} {
		if got := keys(s[sec]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", sec, got, want)
		}
	}
	if v, ok := s[SectionEngine]["n_ctx_max"].(int); !ok || v != 7 {
		t.Errorf("n_ctx_max = %#v, want the int 7 (pointers are followed)", s[SectionEngine]["n_ctx_max"])
	}
	if got := in.CacheIdentity(); !reflect.DeepEqual(got, map[string]string{"max_length": "2048"}) {
		t.Errorf("CacheIdentity() = %v", got)
	}
	in.Facts.(*engineFacts).SHA = "x"
	if got := in.CacheIdentity(); !reflect.DeepEqual(got, map[string]string{"max_length": "2048", "model_sha256": "x"}) {
		t.Errorf("CacheIdentity() with model_sha256 = %v", got)
	}
	if s := (Description{Backend: "b"}).Sections(); len(s[SectionModel]) != 1 || len(s[SectionEngine]) != 0 || len(s[SectionExtra]) != 0 {
		t.Errorf("a backend with no facts: %v", s)
	}
}

// TestFactListRoundTrip: a backend's facts as a FactList, written as JSON
// and read back, give the sections' JSON and the cache identity the
// tagged struct gave (a sharded run's merge describes its shards' model
// this way).
func TestFactListRoundTrip(t *testing.T) {
	type device struct {
		Backend string `json:"backend"`
		Free    uint64 `json:"memory_free"`
	}
	type facts struct {
		engineFacts
		Devices []device `json:"devices" info:"engine"`
		Ratio   float64  `json:"ratio" info:"extra,identity"`
		AddBOS  bool     `json:"add_bos_token" info:"engine,identity"`
	}
	n := 7
	in := Description{Backend: "b", Facts: &facts{
		engineFacts: engineFacts{MaxLength: 2048, NCtxMax: &n, Batch: "auto<&>", SHA: "x"},
		Devices:     []device{{"CUDA0", 1 << 62}}, Ratio: 0.1, AddBOS: true,
	}}
	b, err := json.Marshal(in.FactList())
	if err != nil {
		t.Fatal(err)
	}
	var l FactList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	out := Description{Backend: "b", Facts: l}
	sections := func(d Description) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d.Sections()); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if a, b := sections(in), sections(out); a != b {
		t.Errorf("sections:\n%s\nread back:\n%s", a, b)
	}
	if a, b := in.CacheIdentity(), out.CacheIdentity(); !reflect.DeepEqual(a, b) {
		t.Errorf("cache identity %v, read back %v", a, b)
	}
	if v, ok := out.Fact("max_length"); !ok || fmt.Sprint(v) != "2048" {
		t.Errorf("Fact(max_length) = %v, %v", v, ok)
	}
	if _, ok := out.Fact("n_ctx_train"); ok {
		t.Error("Fact(n_ctx_train): the model file's facts are not the backend's")
	}
}
