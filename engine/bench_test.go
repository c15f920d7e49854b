package engine

import (
	"context"
	"strings"
	"testing"
)

// Benchmarks on stories260K; `make bench` (cmd/lmeval-bench) compares the
// same workloads with raw llama_decode on a larger model too.

func benchReport(b *testing.B, m *Model, before Stats) {
	after := m.Stats()
	b.ReportMetric(float64(after.TokensRequested-before.TokensRequested)/b.Elapsed().Seconds(), "requested-tok/s")
	b.ReportMetric(float64(after.TokensDecoded-before.TokensDecoded)/b.Elapsed().Seconds(), "decoded-tok/s")
}

func BenchmarkLoglikelihoodMC(b *testing.B) {
	for _, share := range []bool{true, false} {
		name := "shared"
		if !share {
			name = "unshared"
		}
		b.Run(name, func(b *testing.B) {
			m := load(b, storiesPath(b), Options{NoPrefixSharing: !share})
			reqs := mcRequests(256)
			before := m.Stats()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.Loglikelihood(context.Background(), reqs); err != nil {
					b.Fatal(err)
				}
			}
			benchReport(b, m, before)
		})
	}
}

func BenchmarkRolling(b *testing.B) {
	m := load(b, storiesPath(b), Options{MaxLength: 256})
	text := strings.Repeat(storyText+" ", 20)
	before := m.Stats()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.LoglikelihoodRolling(context.Background(), []string{text}); err != nil {
			b.Fatal(err)
		}
	}
	benchReport(b, m, before)
}

func BenchmarkGenerate(b *testing.B) {
	m := load(b, storiesPath(b), Options{})
	var reqs []GenerateRequest
	for i, r := range mcRequests(128) {
		if i%4 == 0 {
			reqs = append(reqs, GenerateRequest{Context: r.Context, MaxGenToks: 32})
		}
	}
	before := m.Stats()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.GenerateUntil(context.Background(), reqs); err != nil {
			b.Fatal(err)
		}
	}
	benchReport(b, m, before)
}
