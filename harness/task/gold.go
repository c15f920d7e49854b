package task

// GoldErrors counts the multiple-choice documents whose gold answer is not
// one of their choices (an index at or past the number of choices, or a
// text that is no choice: lm-eval's gold_index_error, which it scores as
// wrong and logs for every such document). first is the first of them in
// evaluation order, nil when there are none.
func (t *Task) GoldErrors() (first *DocInfo, n int) {
	if t.Config.OutputType != OutputMultipleChoice {
		return nil, 0
	}
	for _, d := range t.Docs {
		bad := d.Gold == -100
		for _, g := range d.Golds {
			bad = bad || g == -100
		}
		if bad {
			if first == nil {
				first = d
			}
			n++
		}
	}
	return first, n
}
