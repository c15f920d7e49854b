package harness

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
)

// reportingLM counts tokens as words and, within each call, reports the
// first `report` requests to the progress reporter it is given, as a model
// that reports requests as they finish does.
type reportingLM struct {
	model.LM
	report int
	calls  int
	total  int // tokens of every request sent
	noRep  int // calls without a reporter
}

func (r *reportingLM) CountTokens(s string) (int, error) { return len(strings.Fields(s)) + 1, nil }
func (r *reportingLM) MaxLength() int                    { return 1 << 20 }

func (r *reportingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	r.calls++
	rep := progress.ReporterFromContext(ctx)
	if rep == nil {
		r.noRep++
	}
	for i, q := range reqs {
		n, _ := r.CountTokens(q.Context + q.Continuation)
		r.total += n
		if rep != nil && i < r.report {
			rep.Add(1, n)
		}
	}
	return r.LM.Loglikelihood(ctx, reqs)
}

// TestProgressCountsOnce runs a task with the bar on and a model that
// reports none, some or all of each call's requests itself: the bar ends at
// exactly the requests and tokens sent, never beyond.
func TestProgressCountsOnce(t *testing.T) {
	desc := regexp.MustCompile(`loglikelihood (\d+)/(\d+)`)
	count := regexp.MustCompile(`\((\d+)/(\d+)[,)]`)
	for _, report := range []int{0, 2, 5} {
		t.Run(fmt.Sprint("model reports ", report), func(t *testing.T) {
			dummy, _ := dummy.New(nil)
			lm := &reportingLM{LM: dummy, report: report}
			var buf bytes.Buffer
			ctx := progress.NewContext(context.Background(), progress.New(&buf, true))
			if _, err := evaluate(ctx, testConfig(t, "toy_mc"), lm, WithRegistry(testRegistry(t)), WithChunkSize(5)); err != nil {
				t.Fatal(err)
			}
			if lm.calls < 2 || lm.noRep != 0 {
				t.Fatalf("%d calls, %d without a reporter; want several, all with", lm.calls, lm.noRep)
			}
			out := buf.String()
			ds := desc.FindAllStringSubmatch(out, -1)
			cs := count.FindAllStringSubmatch(out, -1)
			if len(ds) == 0 || len(cs) == 0 {
				t.Fatalf("no bar drawn: %q", out)
			}
			atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
			prev := 0
			for _, d := range ds {
				done, total := atoi(d[1]), atoi(d[2])
				if done > total || done < prev {
					t.Errorf("requests %d/%d after %d: %q", done, total, prev, out)
				}
				prev = done
			}
			if last := ds[len(ds)-1]; last[1] != last[2] {
				t.Errorf("bar ends at %s/%s requests", last[1], last[2])
			}
			last := cs[len(cs)-1]
			if atoi(last[1]) != lm.total || atoi(last[2]) != lm.total {
				t.Errorf("bar ends at %s/%s tokens; the model was sent %d", last[1], last[2], lm.total)
			}
		})
	}
}
