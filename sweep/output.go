package sweep

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/internal/output"
	"github.com/lmeval/lmeval/internal/units"
)

// taskColumns lists the task metrics present in the report, in first-seen
// order.
func (r *Report) taskColumns() []string {
	var cols []string
	seen := map[string]bool{}
	for _, m := range r.Models {
		for _, t := range m.Tasks {
			k := t.Task + " " + t.Metric
			if !seen[k] {
				seen[k] = true
				cols = append(cols, k)
			}
		}
	}
	return cols
}

func (m *Result) task(col string) *TaskScore {
	for i := range m.Tasks {
		if m.Tasks[i].Task+" "+m.Tasks[i].Metric == col {
			return &m.Tasks[i]
		}
	}
	return nil
}

// WriteTable prints the report as an aligned table: one row per model.
func WriteTable(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cols := r.taskColumns()
	head := []string{"model", "type", "size", "bpw", "PPL", "ΔPPL %", "rolling PPL", "mean KLD", "p99 KLD", "same top %"}
	for _, c := range cols {
		head = append(head, c, "Δ", "95% CI", "p", "p (Holm)")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, m := range r.Models {
		row := []string{m.Name, m.FileType, "", "", "", "", "", "", "", ""}
		if m.Error != "" {
			row[2] = "refused"
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
			continue
		}
		row[2] = units.Bytes(m.FileSize)
		row[3] = fmt.Sprintf("%.2f", m.BitsPerWeight)
		if m.PPL != nil {
			row[4] = fmt.Sprintf("%.4f ± %.4f", m.PPL.PPL, m.PPL.PPLUnc)
		}
		if m.DeltaPPL != nil && !m.IsBase {
			row[5] = fmt.Sprintf("%+.3f", *m.DeltaPPL)
			if m.KLD != nil {
				row[5] += fmt.Sprintf(" ± %.3f", 100*m.KLD.PPLRatioUnc)
			}
		}
		if m.Rolling != nil {
			row[6] = fmt.Sprintf("%.4f ± %.4f", m.Rolling.PPL.PPL, m.Rolling.PPLUnc)
		}
		if m.KLD != nil {
			row[7] = fmt.Sprintf("%.6f ± %.6f", m.KLD.KLD, m.KLD.KLDUnc)
			row[8] = fmt.Sprintf("%.6f", m.KLD.KLD99)
			row[9] = fmt.Sprintf("%.2f ± %.2f", 100*m.KLD.SameTop, 100*m.KLD.SameTopUnc)
		}
		for _, c := range cols {
			t := m.task(c)
			if t == nil {
				row = append(row, "", "", "", "", "")
				continue
			}
			row = append(row, fmt.Sprintf("%.4f ± %.4f", t.Value, t.Stderr), "", "", "", "")
			if t.Delta != nil {
				row[len(row)-4] = fmt.Sprintf("%+.4f", *t.Delta)
			}
			if t.Paired != nil && t.Paired.Boot != nil {
				row[len(row)-3] = fmt.Sprintf("[%+.4f, %+.4f]", t.Paired.Boot.Low, t.Paired.Boot.High)
			}
			if t.P != nil {
				row[len(row)-2] = fmt.Sprintf("%.3g", *t.P)
			}
			if t.PHolm != nil {
				row[len(row)-1] = fmt.Sprintf("%.3g", *t.PHolm)
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range r.Models {
		if m.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", m.Name, m.Error)
		}
	}
	fmt.Fprintf(w, "base %s; llama.cpp chunked perplexity over %d-token chunks; lm-eval rolling perplexity with max_length %d over %d documents; KLD from the base's top %d tokens per position\n",
		r.Base, r.ChunkSize, r.MaxLength, r.Docs, r.TopK)
	return nil
}

// CSVHeader is the first row of WriteCSV.
var CSVHeader = []string{
	"name", "path", "file_type", "file_size", "params", "bits_per_weight", "is_base", "error",
	"ppl", "ppl_stderr", "delta_ppl_pct", "ppl_ratio", "ppl_ratio_stderr", "ln_ppl_ratio", "ln_ppl_ratio_stderr",
	"rolling_ppl", "rolling_ppl_stderr", "rolling_ppl_ratio", "rolling_ppl_ratio_stderr", "rolling_word_perplexity", "rolling_byte_perplexity", "rolling_bits_per_byte",
	"kld_mean", "kld_mean_stderr", "kld_mean_upper_bound", "kld_median", "kld_p90", "kld_p99", "kld_max",
	"same_top", "same_top_stderr", "dp_mean", "dp_mean_stderr", "dp_rms", "dp_p1", "dp_p99",
}

// WriteCSV writes one row per model; task metrics follow the fixed
// columns as "<task> <metric>", "... stderr", "... delta", "... ci_low",
// "... ci_high" (the paired bootstrap's 95% interval), "... p_value",
// "... p_holm" and "... mde".
func WriteCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cols := r.taskColumns()
	head := append([]string(nil), CSVHeader...)
	for _, c := range cols {
		head = append(head, c, c+" stderr", c+" delta", c+" ci_low", c+" ci_high", c+" p_value", c+" p_holm", c+" mde")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	for _, m := range r.Models {
		row := []string{m.Name, m.Path, m.FileType, strconv.FormatInt(m.FileSize, 10), strconv.FormatUint(m.Params, 10),
			f(m.BitsPerWeight), strconv.FormatBool(m.IsBase), m.Error}
		blank := func(n int) {
			for i := 0; i < n; i++ {
				row = append(row, "")
			}
		}
		if m.PPL != nil {
			row = append(row, f(m.PPL.PPL), f(m.PPL.PPLUnc))
		} else {
			blank(2)
		}
		if m.DeltaPPL != nil {
			row = append(row, f(*m.DeltaPPL))
		} else {
			blank(1)
		}
		if m.KLD != nil {
			row = append(row, f(m.KLD.PPLRatio), f(m.KLD.PPLRatioUnc), f(m.KLD.LogPPLRatio), f(m.KLD.LogPPLRatioUnc))
		} else {
			blank(4)
		}
		if m.Rolling != nil {
			row = append(row, f(m.Rolling.PPL.PPL), f(m.Rolling.PPLUnc))
			if v := m.Rolling.VsBase; v != nil {
				row = append(row, f(v.Ratio), f(v.RatioUnc))
			} else {
				blank(2)
			}
			row = append(row, f(m.Rolling.WordPerplexity), f(m.Rolling.BytePerplexity), f(m.Rolling.BitsPerByte))
		} else {
			blank(7)
		}
		if k := m.KLD; k != nil {
			row = append(row, f(k.KLD), f(k.KLDUnc), f(k.KLDUpper), f(k.KLDMed), f(k.KLD90), f(k.KLD99), f(k.KLDMax),
				f(k.SameTop), f(k.SameTopUnc), f(k.DP), f(k.DPUnc), f(k.DPRMS), f(k.DPPct["1"]), f(k.DPPct["99"]))
		} else {
			blank(14)
		}
		for _, c := range cols {
			t := m.task(c)
			if t == nil {
				blank(8)
				continue
			}
			row = append(row, f(t.Value), f(t.Stderr))
			opt := func(v *float64) {
				if v != nil && !math.IsNaN(*v) {
					row = append(row, f(*v))
				} else {
					blank(1)
				}
			}
			opt(t.Delta)
			if b := t.Paired; b != nil && b.Boot != nil {
				row = append(row, f(b.Boot.Low), f(b.Boot.High))
			} else {
				blank(2)
			}
			opt(t.P)
			opt(t.PHolm)
			if t.Paired != nil {
				opt(&t.Paired.MDE)
			} else {
				blank(1)
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as indented JSON. Per-document task values
// are left out (they are in the cache).
func WriteJSON(w io.Writer, r *Report) error {
	cp := *r
	cp.Models = make([]*Result, len(r.Models))
	for i, m := range r.Models {
		mc := *m
		mc.Tasks = make([]TaskScore, len(m.Tasks))
		for j, t := range m.Tasks {
			t.PerDoc = nil
			mc.Tasks[j] = t
		}
		cp.Models[i] = &mc
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&cp)
}

// Files written by WriteFiles into the output directory.
const (
	JSONFile  = "sweep.json"
	CSVFile   = "sweep.csv"
	ChartFile = "sweep.svg"
)

// WriteFiles writes sweep.json, sweep.csv and sweep.svg into dir and,
// for models with task run files (Config.LogSamples), each model's run as
// lmeval run --output_path dir --log_samples would lay it out
// (dir/<name>/results_<date>.json and samples_<task>_<date>.jsonl, the
// model's path as its name); it returns the paths written.
func WriteFiles(dir string, r *Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sweep: output: %w", err)
	}
	var paths []string
	for _, m := range r.Models {
		if m.Files == nil {
			continue
		}
		written, err := writeRun(dir, m)
		if err != nil {
			return nil, fmt.Errorf("sweep: output: %s: %w", m.Name, err)
		}
		paths = append(paths, written...)
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer, *Report) error
	}{{JSONFile, WriteJSON}, {CSVFile, WriteCSV}, {ChartFile, WriteChart}} {
		p := filepath.Join(dir, f.name)
		out, err := os.Create(p)
		if err != nil {
			return nil, fmt.Errorf("sweep: output: %w", err)
		}
		err = f.write(out, r)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("sweep: output %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, nil
}

// writeRun writes a model's task run under dir/<name>/ and records the
// directory in m.RunDir.
func writeRun(dir string, m *Result) ([]string, error) {
	res, err := results.Parse(m.Files.Results)
	if err != nil {
		return nil, err
	}
	// The run's identity is the model file, as lmeval run records it.
	res.ModelSource, res.Config.Model = "llama", "llama"
	res.ModelName, res.Config.ModelArgs = m.Path, "pretrained="+m.Path
	res.ModelNameSanitized = results.SanitizeModelName(m.Path)
	layout := output.NewLayout(dir, m.Name, m.Files.Start)
	m.RunDir = filepath.Base(layout.Dir)
	if err := layout.WriteResults(res); err != nil {
		return nil, err
	}
	paths := []string{layout.ResultsFile}
	tasks := make([]string, 0, len(m.Files.Samples))
	for t := range m.Files.Samples {
		tasks = append(tasks, t)
	}
	sort.Strings(tasks)
	for _, t := range tasks {
		p := layout.SamplesFile(t)
		if err := os.WriteFile(p, m.Files.Samples[t], 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
