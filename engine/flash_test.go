package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
)

// TestCPUFlash checks the kernel flash_attn auto picks on the CPU: off
// for small heads (under 32) and for long scored sequences, else on; and
// on whenever the scores buffer without it (n_ubatch x n_ctx x (n_head +
// 1) f32) would pass cpuScoresMax, 256 MiB: 14563 cells at n_ubatch 512
// and 8 heads (18432 bytes a cell), 3971 with 32 heads.
func TestCPUFlash(t *testing.T) {
	for _, tc := range []struct {
		w                              work
		nCtx, nUBatch, nHead, headSize int
		want                           int
	}{
		{scoring, 512, 512, 8, 8, 0},
		{scoringLong, 512, 512, 8, 8, 0},
		{generating, 512, 512, 8, 8, 0},
		{generating, 512, 512, 8, 16, 0},
		{scoring, 4096, 512, 12, 64, 1},
		{scoringLong, 4096, 512, 12, 64, 0},
		{generating, 4096, 512, 12, 64, 1},
		{scoring, 4096, 512, 12, 32, 1},
		{scoringLong, 14563, 512, 8, 64, 0},
		{scoringLong, 14564, 512, 8, 64, 1},
		{generating, 14564, 512, 8, 8, 1},
		{scoringLong, 3971, 512, 32, 128, 0},
		{scoringLong, 3972, 512, 32, 128, 1},
		{scoringLong, 7943, 256, 32, 128, 0},
		{scoring, 512, 512, 8, 0, 1}, // head size unknown
	} {
		if got := cpuFlash(tc.w, tc.nCtx, tc.nUBatch, tc.nHead, tc.headSize); got != tc.want {
			t.Errorf("cpuFlash(%v, n_ctx %d, n_ubatch %d, %d heads of %d) = %d, want %d", tc.w, tc.nCtx, tc.nUBatch, tc.nHead, tc.headSize, got, tc.want)
		}
	}
	if w := scoringOf(255, 512); w != scoring {
		t.Errorf("scoringOf(255, 512) = %v", w)
	}
	if w := scoringOf(256, 512); w != scoringLong {
		t.Errorf("scoringOf(256, 512) = %v", w)
	}
}

// TestFlashAutoSwitches checks that with flash_attn auto on the CPU the
// context is remade for the kind of call (on a model with heads of 32:
// short scored sequences and generation with flash attention, rolling
// windows without) and that each call answers exactly as a model loaded
// with that kernel set does; and that stories260K (heads of 8) keeps it
// off for everything.
func TestFlashAutoSwitches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hd32.gguf")
	if err := ggufwrite.WriteLlama(path, ggufwrite.LlamaSpec{NEmbd: 64, NLayer: 2, NHead: 2, NCtx: 1024, Type: gguf.F16, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// n_ubatch 64: sequences of 32 tokens or more are long.
	base := Options{NCtx: 1024, NBatch: 64, NUBatch: 64, MaxLength: 96, Threads: 2, CPUOnly: true}
	ll := []LoglikelihoodRequest{{Context: "ab", Continuation: " c"}, {Context: "de f", Continuation: " gh"}}
	text := []string{strings.Repeat("abc def ghi ", 40)}
	gen := []GenerateRequest{{Context: "abc", MaxGenToks: 8}}

	off, on := base, base
	off.FlashAttn, on.FlashAttn = "off", "on"
	mOff, mOn := load(t, path, off), load(t, path, on)
	wantLL, err := mOn.Loglikelihood(ctx, ll)
	if err != nil {
		t.Fatal(err)
	}
	wantRoll, err := mOff.LoglikelihoodRolling(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	wantGen, err := mOn.GenerateUntil(ctx, gen)
	if err != nil {
		t.Fatal(err)
	}
	if st := mOn.Stats(); st.AttentionSwitches != 0 || mOn.params.flashAttn != 1 {
		t.Errorf("flash_attn on: %d switches, kernel %d; want 0, on", st.AttentionSwitches, mOn.params.flashAttn)
	}

	m := load(t, path, base)
	if in := m.Settings(); in.FlashAttn != "auto" || m.params.flashAttn != 1 {
		t.Fatalf("flash_attn %q, kernel %d after load; want auto, on (short scoring first)", in.FlashAttn, m.params.flashAttn)
	}
	for round := 0; round < 2; round++ {
		roll, err := m.LoglikelihoodRolling(ctx, text)
		if err != nil {
			t.Fatal(err)
		}
		if roll[0] != wantRoll[0] || m.params.flashAttn != 0 {
			t.Errorf("round %d: rolling %+v with kernel %d, want %+v as with flash_attn off", round, roll[0], m.params.flashAttn, wantRoll[0])
		}
		g, err := m.GenerateUntil(ctx, gen)
		if err != nil {
			t.Fatal(err)
		}
		if g[0] != wantGen[0] || m.params.flashAttn != 1 {
			t.Errorf("round %d: generated %q with kernel %d, want %q as with flash_attn on", round, g[0], m.params.flashAttn, wantGen[0])
		}
		got, err := m.Loglikelihood(ctx, ll)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != wantLL[i] || m.params.flashAttn != 1 {
				t.Errorf("round %d, request %d: %+v with kernel %d, want %+v as with flash_attn on", round, i, got[i], m.params.flashAttn, wantLL[i])
			}
		}
	}
	if st := m.Stats(); st.AttentionSwitches != 4 || st.CacheGrowths != 0 {
		t.Errorf("%d attention switches, %d growths; want 4, 0", st.AttentionSwitches, st.CacheGrowths)
	}

	s := load(t, storiesPath(t), Options{NCtx: 1024, CPUOnly: true})
	if _, err := s.GenerateUntil(ctx, gen); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Loglikelihood(ctx, ll); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.AttentionSwitches != 0 || s.params.flashAttn != 0 {
		t.Errorf("stories260K: %d switches, kernel %d; want 0, off", st.AttentionSwitches, s.params.flashAttn)
	}
}
