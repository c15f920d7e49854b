package llama

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
)

func TestOptions(t *testing.T) {
	yes, no := true, false
	two := int32(2)
	for _, tc := range []struct {
		args    model.Args
		path    string
		want    engine.Options
		wantErr string
	}{
		{model.Args{"pretrained": "m.gguf"}, "m.gguf", engine.Options{}, ""},
		{model.Args{"pretrained": "m.gguf", "n_ctx": "2048", "n_batch": "256", "n_ubatch": "128", "threads": "3",
			"type_k": "f32", "type_v": "q8_0", "flash_attn": "off", "max_length": "1024", "seed": "7"}, "m.gguf",
			engine.Options{NCtx: 2048, NBatch: 256, NUBatch: 128, Threads: 3, TypeK: "f32", TypeV: "q8_0", FlashAttn: "off", MaxLength: 1024, Seed: 7}, ""},
		{model.Args{"pretrained": "m.gguf", "n_gpu_layers": "0"}, "m.gguf", engine.Options{CPUOnly: true}, ""},
		{model.Args{"pretrained": "m.gguf", "n_gpu_layers": "20", "main_gpu": "1", "split_mode": "row", "tensor_split": "3/1"}, "m.gguf",
			engine.Options{NGPULayers: 20, MainGPU: 1, SplitMode: "row", TensorSplit: []float32{3, 1}}, ""},
		{model.Args{"pretrained": "m.gguf", "add_bos_token": "false", "prefix_sharing": "false", "skip_leading_bos": "true"}, "m.gguf",
			engine.Options{AddBOS: &no, NoPrefixSharing: true, SkipLeadingBOS: true}, ""},
		{model.Args{"pretrained": "m.gguf", "add_bos_token": "True", "batch_size": "16"}, "m.gguf", engine.Options{AddBOS: &yes, BatchSize: 16}, ""},
		{model.Args{"pretrained": "m.gguf", "batch_size": "auto:4", "device": "cuda", "dtype": "float16"}, "m.gguf", engine.Options{AutoBatch: true}, ""},
		{model.Args{"pretrained": "m.gguf", "batch_size": "auto", "max_batch_size": "32", "memory_budget": "1.5G"}, "m.gguf",
			engine.Options{AutoBatch: true, MaxBatchSize: 32, MemoryBudget: 3 << 29}, ""},
		{model.Args{"pretrained": "m.gguf", "batch_size": "8", "n_seq_max": "4", "memory_budget": "512MiB"}, "m.gguf",
			engine.Options{BatchSize: 8, NSeqMax: 4, MemoryBudget: 512 << 20}, ""},
		{model.Args{"pretrained": "m.gguf", "batch_size": "0"}, "", engine.Options{}, "batch_size=0"},
		{model.Args{"pretrained": "m.gguf", "batch_size": "300"}, "", engine.Options{}, "1 to 256"},
		{model.Args{"pretrained": "m.gguf", "batch_size": "auto:x"}, "", engine.Options{}, "auto:N"},
		{model.Args{"pretrained": "m.gguf", "memory_budget": "lots"}, "", engine.Options{}, "memory_budget=lots"},
		{model.Args{"model": "x.gguf"}, "x.gguf", engine.Options{}, ""},
		{model.Args{}, "", engine.Options{}, "pretrained"},
		{model.Args{"pretrained": "m.gguf", "n_ctx": "big"}, "", engine.Options{}, "n_ctx=big"},
		{model.Args{"pretrained": "m.gguf", "temperature": "1"}, "", engine.Options{}, `unknown argument "temperature"`},
		{model.Args{"pretrained": "m.gguf", "add_bos_token": "maybe"}, "", engine.Options{}, "add_bos_token"},
		{model.Args{"pretrained": "m.gguf", "prefix_token_id": "2"}, "m.gguf", engine.Options{PrefixToken: &two}, ""},
		{model.Args{"pretrained": "m.gguf", "prefix_token_id": "eos"}, "", engine.Options{}, "prefix_token_id=eos"},
	} {
		path, got, err := Options(tc.args)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: err = %v, want one mentioning %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if path != tc.path || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: got %q %+v, want %q %+v", tc.args, path, got, tc.path, tc.want)
		}
	}
}

// TestBackend runs the registered backend on stories260K and checks it
// answers as the engine does.
func TestBackend(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not available: %v", path, err)
	}
	ctx := context.Background()
	for _, name := range []string{"llama", "gguf"} {
		lm, err := model.New(ctx, name, model.Args{"pretrained": path, "threads": "1"})
		if err != nil {
			t.Fatal(err)
		}
		defer lm.(model.Closer).Close()
		eng := lm.(*LM).Model()

		reqs := []model.LoglikelihoodRequest{{Context: "Once upon a time", Continuation: ", there was"}, {Context: "", Continuation: "Lily"}}
		got, err := lm.Loglikelihood(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := eng.Loglikelihood(ctx, []engine.LoglikelihoodRequest{{Context: "Once upon a time", Continuation: ", there was"}, {Context: "", Continuation: "Lily"}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range reqs {
			if math.Abs(got[i].LogProb-want[i].LogProb) > 1e-9 || got[i].IsGreedy != want[i].IsGreedy || got[i].NumTokens != want[i].NumTokens {
				t.Errorf("%s: request %d: %+v, engine %+v", name, i, got[i], want[i])
			}
		}
		roll, err := lm.LoglikelihoodRolling(ctx, []model.RollingRequest{{Text: "Lily went to the park."}})
		if err != nil || roll[0].NumTokens == 0 || roll[0].LogProb >= 0 {
			t.Errorf("%s: rolling %+v, %v", name, roll, err)
		}
		gen, err := lm.GenerateUntil(ctx, []model.GenerateRequest{{Context: "Once upon a time", Until: []string{"."}, MaxGenToks: 30}})
		if err != nil || gen[0] != ", there was a little girl named Lily" {
			t.Errorf("%s: generate %q, %v", name, gen, err)
		}
		d := lm.(model.Describer).Describe()
		if d.File.Architecture != "llama" || d.File.NCtxTrain != 2048 || d.Work.TokensDecoded == 0 {
			t.Errorf("%s: Describe() = %v", name, d)
		}
	}
}

// TestDescribeBatch checks that the sizes batch_size picks reach the
// results' engine settings.
func TestDescribeBatch(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not available: %v", path, err)
	}
	for _, tc := range []struct {
		args           model.Args
		batch          string
		nCtx, max, seq int
	}{
		// As engine.TestPlanAuto works out: 0.8*64 MiB fits 2304 cells;
		// the cache starts at the scheduler's budget, 512 cells.
		{model.Args{"batch_size": "auto:3", "memory_budget": "64M", "max_length": "512", "type_k": "f32", "type_v": "f32"}, "auto", 512, 2304, 256},
		{model.Args{"batch_size": "auto", "max_batch_size": "2", "memory_budget": "64M", "max_length": "512", "type_k": "f32", "type_v": "f32"}, "auto", 512, 1024, 2},
		{model.Args{"batch_size": "4", "max_length": "256"}, "4", 1024, 0, 4},
	} {
		tc.args["pretrained"], tc.args["threads"] = path, "1"
		lm, err := New(context.Background(), tc.args)
		if err != nil {
			t.Fatal(err)
		}
		d := lm.(*LM).Describe().Sections()[model.SectionEngine]
		e := lm.(*LM).Describe().Sections()[model.SectionExtra]
		lm.(*LM).Close()
		if e["batch_size"] != tc.batch || d["n_ctx"] != tc.nCtx || d["n_seq_max"] != tc.seq {
			t.Errorf("%v: batch_size %v n_ctx %v n_seq_max %v, want %s %d %d", tc.args, e["batch_size"], d["n_ctx"], d["n_seq_max"], tc.batch, tc.nCtx, tc.seq)
		}
		if tc.batch == "auto" && d["n_ctx_max"] != tc.max {
			t.Errorf("%v: n_ctx_max %v, want %d", tc.args, d["n_ctx_max"], tc.max)
		}
		if _, ok := e["free_memory"]; ok != (tc.batch == "auto") || e["kv_bytes_per_token"] == int64(0) {
			t.Errorf("%v: free_memory %v kv_bytes_per_token %v", tc.args, e["free_memory"], e["kv_bytes_per_token"])
		}
	}
}

// TestRequestError checks that the engine's error for one bad request
// reaches the harness as a model.RequestError with the request's index.
func TestRequestError(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not available: %v", path, err)
	}
	lm, err := New(context.Background(), model.Args{"pretrained": path, "threads": "1", "max_length": "64"})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.(*LM).Close()
	_, err = lm.Loglikelihood(context.Background(), []model.LoglikelihoodRequest{{Context: "Once", Continuation: " upon"}, {Context: "Once upon a ti", Continuation: "me"}})
	var re *model.RequestError
	if !errors.As(err, &re) || re.Index != 1 || !errors.Is(err, engine.ErrEmptyContinuation) {
		t.Errorf("loglikelihood: err = %#v, want a RequestError for request 1", err)
	}
	_, err = lm.GenerateUntil(context.Background(), []model.GenerateRequest{{Context: "Tom", MaxGenToks: 64}})
	if !errors.As(err, &re) || re.Index != 0 {
		t.Errorf("generate_until: err = %#v, want a RequestError for request 0", err)
	}
	if _, err = lm.GenerateUntil(context.Background(), nil); err != nil {
		t.Errorf("no requests: %v", err)
	}
}

// TestProgress checks the loading bar, and that requests reported by the
// engine as they finish bring a phase whose totals the harness took from
// CountTokens to its end before the chunk is closed: the engine's tokens
// and the harness's agree.
func TestProgress(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not available: %v", path, err)
	}
	var buf bytes.Buffer
	disp := progress.New(&buf, true)
	ctx := progress.NewContext(context.Background(), disp)
	lm, err := New(ctx, model.Args{"pretrained": path, "threads": "1", "n_seq_max": "2", "n_ctx": "512"})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.(model.Closer).Close()
	if out := buf.String(); !strings.Contains(out, "loading stories260K.gguf") || !strings.Contains(out, "100%") {
		t.Errorf("loading bar: %q", out)
	}
	l := lm.(*LM)

	var reqs []model.LoglikelihoodRequest
	var texts []model.RollingRequest
	var gens []model.GenerateRequest
	wantL, wantR, wantG := 0, 0, 0
	count := func(s string) int {
		n, err := l.CountTokens(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, s := range []string{"Once upon a time", "Lily went to the park", "The dog was happy", "She saw a big tree"} {
		reqs = append(reqs, model.LoglikelihoodRequest{Context: s, Continuation: " and"})
		wantL += count(s + " and")
		texts = append(texts, model.RollingRequest{Text: s + "."})
		wantR += count(s + ".")
		gens = append(gens, model.GenerateRequest{Context: s, Until: []string{"."}, MaxGenToks: 8})
		wantG += count(s)
	}
	for _, tc := range []struct {
		name string
		n    int
		toks int
		call func(context.Context) error
	}{
		{"loglikelihood", len(reqs), wantL, func(ctx context.Context) error { _, err := l.Loglikelihood(ctx, reqs); return err }},
		{"loglikelihood_rolling", len(texts), wantR, func(ctx context.Context) error { _, err := l.LoglikelihoodRolling(ctx, texts); return err }},
		{"generate_until", len(gens), wantG, func(ctx context.Context) error { _, err := l.GenerateUntil(ctx, gens); return err }},
	} {
		phase := disp.Phase(tc.name, tc.n, tc.toks)
		chunk := phase.Chunk(tc.n, tc.toks)
		if err := tc.call(progress.NewReporterContext(ctx, chunk)); err != nil {
			t.Fatal(err)
		}
		if r, tok := phase.Done(); r != tc.n || tok != tc.toks {
			t.Errorf("%s: the engine reported %d requests, %d tokens; want %d, %d", tc.name, r, tok, tc.n, tc.toks)
		}
		chunk.Close()
		phase.Finish()
	}
}
