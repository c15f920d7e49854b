package stats

import "encoding/json"

// The JSON forms of the results: snake_case names, NaN and infinities as
// null (Number), replicates left out.

type resultJSON struct {
	N         int            `json:"n"`
	Dropped   int            `json:"dropped_nan"`
	MeanA     Number         `json:"mean_a"`
	MeanB     Number         `json:"mean_b"`
	Diff      Number         `json:"diff"`
	SE        Number         `json:"se"`
	Low       Number         `json:"ci_low"`
	High      Number         `json:"ci_high"`
	Boot      *bootstrapJSON `json:"bootstrap,omitempty"`
	Binary    bool           `json:"binary"`
	Test      string         `json:"test"`
	Statistic Number         `json:"statistic"`
	P         Number         `json:"p_value"`
	McNemar   *McNemarCounts `json:"mcnemar,omitempty"`
	Cluster   *clusteredJSON `json:"cluster,omitempty"`
	MDE       Number         `json:"mde"`
}

type bootstrapJSON struct {
	Iters int    `json:"iters"`
	Low   Number `json:"ci_low"`
	High  Number `json:"ci_high"`
	SE    Number `json:"se"`
}

// McNemarCounts are the discordant pairs: B documents run A scored 1 and
// run B 0, C the reverse.
type McNemarCounts struct {
	B int `json:"b"`
	C int `json:"c"`
}

type clusteredJSON struct {
	Clusters int    `json:"clusters"`
	SE       Number `json:"se"`
	T        Number `json:"t"`
	P        Number `json:"p_value"`
	Low      Number `json:"ci_low"`
	High     Number `json:"ci_high"`
}

// MarshalJSON writes the result with snake_case keys (NaN as null,
// without the replicates).
func (r Result) MarshalJSON() ([]byte, error) {
	j := resultJSON{N: r.N, Dropped: r.Dropped, MeanA: Number(r.MeanA), MeanB: Number(r.MeanB), Diff: Number(r.Diff),
		SE: Number(r.SE), Low: Number(r.Low), High: Number(r.High), Binary: r.Binary, Test: r.Test,
		Statistic: Number(r.Statistic), P: Number(r.P), MDE: Number(r.MDE)}
	if b := r.Boot; b != nil {
		j.Boot = &bootstrapJSON{Iters: b.Iters, Low: Number(b.Low), High: Number(b.High), SE: Number(b.SE)}
	}
	if m := r.McNemar; m != nil {
		j.McNemar = &McNemarCounts{B: m.B, C: m.C}
	}
	if c := r.Cluster; c != nil {
		j.Cluster = &clusteredJSON{Clusters: c.Clusters, SE: Number(c.SE), T: Number(c.T), P: Number(c.P), Low: Number(c.Low), High: Number(c.High)}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (r *Result) UnmarshalJSON(data []byte) error {
	var j resultJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = Result{N: j.N, Dropped: j.Dropped, MeanA: float64(j.MeanA), MeanB: float64(j.MeanB), Diff: float64(j.Diff),
		SE: float64(j.SE), Low: float64(j.Low), High: float64(j.High), Binary: j.Binary, Test: j.Test,
		Statistic: float64(j.Statistic), P: float64(j.P), MDE: float64(j.MDE)}
	if b := j.Boot; b != nil {
		r.Boot = &BootstrapCI{Iters: b.Iters, Low: float64(b.Low), High: float64(b.High), SE: float64(b.SE)}
	}
	if m := j.McNemar; m != nil {
		r.McNemar = &McNemar{B: m.B, C: m.C, P: r.P}
	}
	if c := j.Cluster; c != nil {
		r.Cluster = &Clustered{Clusters: c.Clusters, SE: float64(c.SE), T: float64(c.T), P: float64(c.P), Low: float64(c.Low), High: float64(c.High)}
	}
	return nil
}
