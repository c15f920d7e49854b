package metrics

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkBootstrap reports the cost of one bootstrap resample of 1000
// documents (ns/resample), all cores in use.
func BenchmarkBootstrap(b *testing.B) {
	const n = 1000
	data := map[string][]any{}
	for i := range n {
		data["median"] = append(data["median"], float64(i%37))
		data["perplexity"] = append(data["perplexity"], -float64(i%13)/7)
		data["f1"] = append(data["f1"], Pair{i % 2, (i / 3) % 2})
		data["matthews_corrcoef"] = append(data["matthews_corrcoef"], Pair{i % 4, (i / 3) % 4})
		data["bleu"] = append(data["bleu"], RefPred{Refs: []string{fmt.Sprintf("the cat %d sat on the mat", i%17)}, Pred: fmt.Sprintf("the cat %d is on a mat", i%5)})
	}
	for _, agg := range []string{"median", "perplexity", "f1", "matthews_corrcoef", "bleu"} {
		b.Run(agg, func(b *testing.B) {
			a, _ := LookupAggregation(agg)
			const iters = 2000
			for b.Loop() {
				if _, err := (Bootstrap{Iters: iters}).Stderr(context.Background(), a, data[agg]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/resample")
		})
	}
}
