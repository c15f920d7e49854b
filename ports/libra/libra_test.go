package libra

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

func TestFilterDatasetByPageLengths(t *testing.T) {
	var spec task.DatasetSpec
	load := func(_ context.Context, s task.DatasetSpec, split string) ([]task.Doc, error) {
		spec = s
		if split != "test" {
			t.Errorf("split %q", split)
		}
		return []task.Doc{{"length": "8p"}, {"length": "16p"}, {"length": "32p"}}, nil
	}
	ds, err := FilterDatasetByPageLengths(context.Background(), map[string]any{"dataset_name": "passkey", "valid_pages": []any{"8p", "32p"}}, load)
	if err != nil || len(ds["test"]) != 2 || spec.Path != "ai-forever/LIBRA" || spec.Name != "passkey" {
		t.Fatalf("= %v, %v (%+v)", ds, err, spec)
	}
	if ds, err = FilterDatasetByPageLengths(context.Background(), map[string]any{"dataset_name": "passkey"}, load); err != nil || len(ds["test"]) != 3 {
		t.Fatalf("no valid_pages: %v, %v", ds, err)
	}
	if _, err = FilterDatasetByPageLengths(context.Background(), map[string]any{"filter_colname": "pages"}, load); err == nil || !strings.Contains(err.Error(), "ValueError") {
		t.Fatalf("missing column: %v", err)
	}
	if _, err = FilterDatasetByPageLengths(context.Background(), nil, nil); !errors.Is(err, task.ErrNotLocal) {
		t.Fatalf("no loader: %v", err)
	}
}
