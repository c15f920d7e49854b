package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// BatchSize is lm-eval's batch_size: a fixed number of sequences, or
// "auto" (the largest that fits, found by the backend), optionally
// re-tuned Retunes times during the run ("auto:N", as lm-eval). It is
// parsed here once, for the command line, config files and every
// backend's model_args.
type BatchSize struct {
	Auto    bool
	Size    int // fixed size when !Auto
	Retunes int // N of auto:N; 0 for plain auto
}

func (b BatchSize) String() string {
	switch {
	case b.Auto && b.Retunes > 0:
		return fmt.Sprintf("auto:%d", b.Retunes)
	case b.Auto:
		return "auto"
	default:
		return strconv.Itoa(b.Size)
	}
}

// MarshalJSON writes the batch size as lm-eval does in results: an int or a
// string.
func (b BatchSize) MarshalJSON() ([]byte, error) {
	if b.Auto {
		return json.Marshal(b.String())
	}
	return json.Marshal(b.Size)
}

// BatchSizeForms are the forms ParseBatchSize accepts, for error messages.
const BatchSizeForms = "a positive integer, auto, or auto:N"

// ParseBatchSize parses "8", "auto" or "auto:4" (any case, surrounding
// space ignored).
func ParseBatchSize(s string) (BatchSize, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "auto" {
		return BatchSize{Auto: true}, nil
	}
	if n, ok := strings.CutPrefix(t, "auto:"); ok {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			return BatchSize{}, fmt.Errorf("invalid batch size %q: want %s", t, BatchSizeForms)
		}
		return BatchSize{Auto: true, Retunes: v}, nil
	}
	v, err := strconv.Atoi(t)
	if err != nil || v < 1 {
		return BatchSize{}, fmt.Errorf("invalid batch size %q: want %s", t, BatchSizeForms)
	}
	return BatchSize{Size: v}, nil
}
