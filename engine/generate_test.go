package engine

import (
	"context"
	"strings"
	"testing"
)

// The model card's reference continuation, which llama.cpp reproduces.
const storiesRef = ", there was a little girl named Lily. She loved to play outside in the park."

func TestGreedyStories(t *testing.T) {
	m := load(t, storiesPath(t), Options{})
	out, err := m.GenerateUntil(context.Background(), []GenerateRequest{{Context: "Once upon a time", MaxGenToks: 40}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out[0], storiesRef) {
		t.Fatalf("greedy continuation = %q, want prefix %q", out[0], storiesRef)
	}
}
