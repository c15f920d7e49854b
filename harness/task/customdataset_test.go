package task

import (
	"context"
	"testing"
	"testing/fstest"
)

// A CustomDatasetLoaderFunc gets the build's document loader and the
// task's dataset_kwargs.
func TestCustomDatasetLoader(t *testing.T) {
	fsys := fstest.MapFS{
		"cl/hub.yaml": {Data: []byte("task: hub_custom\ncustom_dataset: !function utils.load\ndataset_kwargs:\n  data_file: part.parquet\n" +
			"test_split: train\noutput_type: multiple_choice\ndoc_to_text: \"{{q}}\"\ndoc_to_choice: [a, b]\ndoc_to_target: 0\n")},
	}
	RegisterDatasetLoader(helperAt("cl", "utils.load"), func(ctx context.Context, kw map[string]any, load DocLoader) (map[string][]Doc, error) {
		if load == nil {
			return nil, ErrNotLocal
		}
		docs, err := load(ctx, DatasetSpec{Path: "owner/repo", Kwargs: map[string]any{"data_files": kw["data_file"]}}, "train")
		return map[string][]Doc{"train": docs}, err
	})
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	var asked DatasetSpec
	loader := func(_ context.Context, spec DatasetSpec, split string) ([]Doc, error) {
		asked = spec
		return []Doc{{"q": "one"}, {"q": "two"}}, nil
	}
	tk := built(t, r, "hub_custom", BuildOptions{Loader: loader})
	if len(tk.Docs) != 2 || asked.Path != "owner/repo" || asked.Kwargs["data_files"] != "part.parquet" {
		t.Errorf("%d docs, loader asked for %+v", len(tk.Docs), asked)
	}
}
