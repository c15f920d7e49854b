package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Description is what an LM reports about itself (Describer): the facts of its
// model, its backend's settings and its work counters, for the results
// file's lmeval block, and the settings that make the response cache's
// identity.
//
// A backend fills the parts that apply to it (File for a model file it
// loads) and defines its own facts (Facts: backend/llama's engine
// settings, backend/remote's server, backend/dummy's seed); nil parts are
// absent from the results. Each fact carries, in its struct tag, its key
// (json), the section of the results' lmeval block it goes to (info:
// model, engine or extra) and whether it is part of the cache identity
// (info:"...,identity"); Sections and CacheIdentity read those tags, so a
// fact is declared once, where its field is, in the backend that has it.
type Description struct {
	Backend string `json:"backend" info:"model"`

	File *ModelFile // the model file, for a backend that loads one
	// Facts are the backend's own: a pointer to a struct whose fields
	// are tagged as Description's are.
	Facts any
	Cache *CacheStats `json:"cache,omitempty" info:"extra"` // the response cache in front (--use_cache)

	// EngineCommit is the commit the backend's engine was built from:
	// the in-process llama.cpp's (the results' lmeval.llama_cpp_commit),
	// "" for none.
	EngineCommit string
	// Work counts what the engine did, when it counts.
	Work *Work
}

// ModelFile is the facts of a model file.
type ModelFile struct {
	Path          string  `json:"model_path" info:"model"`
	Name          string  `json:"model_name" info:"model"`
	Architecture  string  `json:"architecture" info:"model"`
	FileType      string  `json:"file_type" info:"model"`
	Params        uint64  `json:"params" info:"model"`
	FileSize      int64   `json:"file_size" info:"model"`
	BitsPerWeight float64 `json:"bits_per_weight" info:"model"`
	NCtxTrain     int     `json:"n_ctx_train" info:"model"`
	VocabSize     int     `json:"vocab_size" info:"model"`
	// SHA256 is the file's sha256: Describe leaves it to FileHasher (the
	// hash takes a while), whose sum the harness puts here for the
	// results; "" when unknown.
	SHA256 string `json:"sha256,omitempty" info:"model"`
}

// CacheStats is the response cache's share of a run. The fields are in key
// order, as the results have always listed them.
type CacheStats struct {
	Hits   int64  `json:"hits"`
	Misses int64  `json:"misses"`
	Model  string `json:"model"` // the identity's hash
	Path   string `json:"path"`
}

// Work counts what an engine did.
type Work struct {
	TokensRequested int64 // tokens the requests needed decoded, without sharing
	TokensDecoded   int64 // tokens actually decoded
	Truncated       int   // requests whose context was cut to fit the window
}

// Sections of the results' lmeval block a fact goes to.
const (
	SectionModel  = "model"
	SectionEngine = "engine"
	SectionExtra  = "extra"
)

// Sections gives the facts by section of the results' lmeval block, each
// keyed by its json name (maps, so the results list them in key order).
// A section without facts is an empty map.
func (in Description) Sections() map[string]map[string]any {
	out := map[string]map[string]any{SectionModel: {}, SectionEngine: {}, SectionExtra: {}}
	walkFacts(reflect.ValueOf(in), func(key, section string, _ bool, v any) {
		out[section][key] = v
	})
	return out
}

// CacheIdentity gives the facts that change answers without showing in
// model_args (the engine settings the backend settled on, the server's
// model), as the response cache's identity records them: key -> fmt.Sprint
// of the value. n_ctx is not one: with batch_size auto it follows free
// memory, and the truncation it could cause is max_length's.
func (in Description) CacheIdentity() map[string]string {
	out := map[string]string{}
	walkFacts(reflect.ValueOf(in), func(key, _ string, identity bool, v any) {
		if identity {
			out[key] = fmt.Sprint(v)
		}
	})
	return out
}

// walkFacts calls f for every fact of a struct: each field tagged info,
// skipped when its json tag says omitempty and it is zero (pointers are
// followed). Untagged struct fields (or pointers to structs, or
// interfaces holding one) are walked into when set, a FactList's facts
// given as they are; other untagged fields are not facts.
func walkFacts(v reflect.Value, f func(key, section string, identity bool, v any)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf, fv := t.Field(i), v.Field(i)
		tag, ok := sf.Tag.Lookup("info")
		if !ok {
			if l, ok := factList(fv); ok {
				for _, x := range l {
					f(x.Key, x.Section, x.Identity, x.Value)
				}
				continue
			}
			if fv.Kind() == reflect.Interface && !fv.IsNil() {
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Pointer && !fv.IsNil() && fv.Elem().Kind() == reflect.Struct {
				walkFacts(fv.Elem(), f)
			} else if fv.Kind() == reflect.Struct {
				walkFacts(fv, f)
			}
			continue
		}
		key, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if fv.IsZero() && strings.Contains(","+opts+",", ",omitempty,") {
			continue
		}
		if fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		}
		section, flags, _ := strings.Cut(tag, ",")
		f(key, section, flags == "identity", fv.Interface())
	}
}

// factList is v's FactList, when v holds one.
func factList(v reflect.Value) (FactList, bool) {
	if !v.CanInterface() {
		return nil, false
	}
	l, ok := v.Interface().(FactList)
	return l, ok
}

// Fact is one fact of a Description as Sections and CacheIdentity see it.
type Fact struct {
	Key      string `json:"key"`
	Section  string `json:"section"`
	Identity bool   `json:"identity,omitempty"`
	Value    any    `json:"value"`
}

// UnmarshalJSON reads a fact written by encoding/json, its numbers as
// json.Number: written again, the value is the same JSON, and fmt.Sprint
// gives the same text (CacheIdentity).
func (f *Fact) UnmarshalJSON(b []byte) error {
	var raw struct {
		Key      string          `json:"key"`
		Section  string          `json:"section"`
		Identity bool            `json:"identity"`
		Value    json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*f = Fact{Key: raw.Key, Section: raw.Section, Identity: raw.Identity}
	d := json.NewDecoder(bytes.NewReader(raw.Value))
	d.UseNumber()
	return d.Decode(&f.Value)
}

// FactList is a backend's facts as a list, for a Description recorded
// and read back (a sharded run's merge describes the model its shards
// had). As Description.Facts, Sections and CacheIdentity give each fact
// as the tagged struct it was made from gave it.
type FactList []Fact

// FactList returns the backend's own facts (in.Facts) as a list.
func (in Description) FactList() FactList {
	if l, ok := in.Facts.(FactList); ok {
		return l
	}
	v := reflect.ValueOf(in.Facts)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var l FactList
	walkFacts(v, func(key, section string, identity bool, x any) {
		l = append(l, Fact{Key: key, Section: section, Identity: identity, Value: x})
	})
	return l
}

// Fact is the value of the backend's fact key (in.Facts), if it has one.
func (in Description) Fact(key string) (any, bool) {
	for _, f := range in.FactList() {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}
