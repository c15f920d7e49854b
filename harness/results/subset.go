package results

import "strings"

// Subset is a view of r with only the tasks and groups keep accepts in
// its "results", "groups" and "group_subtasks" sections (the other
// sections are shared), for printing a part of a run's tables.
func (r *Results) Subset(keep func(name string) bool) *Results {
	s := *r
	s.Results = filterMap(r.Results, keep)
	if r.Groups != nil {
		s.Groups = filterMap(r.Groups, keep)
	}
	s.GroupSubtasks = NewOrderedMap[[]string]()
	for _, k := range r.GroupSubtasks.Keys() {
		if !keep(k) {
			continue
		}
		subs, _ := r.GroupSubtasks.Get(k)
		var kept []string
		for _, c := range subs {
			if keep(c) {
				kept = append(kept, c)
			}
		}
		s.GroupSubtasks.Set(k, kept)
	}
	return &s
}

func filterMap[V any](m *OrderedMap[V], keep func(string) bool) *OrderedMap[V] {
	out := NewOrderedMap[V]()
	for _, k := range m.Keys() {
		if keep(k) {
			v, _ := m.Get(k)
			out.Set(k, v)
		}
	}
	return out
}

// FirstMetric is an entry's first metric in its order, with its value:
// metric is "acc,none"'s "acc" and the filter when it is not "none"
// ("exact_match (strict-match)"); ok is false when the entry has no
// numeric metric.
func FirstMetric(e *Entry) (metric string, value float64, ok bool) {
	for _, k := range e.Keys() {
		if !isMetricKey(k) {
			continue
		}
		m, f, _ := strings.Cut(k, ",")
		if strings.HasSuffix(m, "_stderr") {
			continue
		}
		v, _ := e.Get(k)
		x, isNum := number(v)
		if !isNum {
			continue
		}
		if f != "none" && f != "" {
			m += " (" + f + ")"
		}
		return m, x, true
	}
	return "", 0, false
}
