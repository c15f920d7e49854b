package engine

// allLogits decodes toks as one sequence with every position's logits
// requested and returns them all (len(toks) rows of n_vocab floats). It is
// the slow, obviously-correct path that tests check the scorer against; the
// scorer itself never copies a logits row into Go.
func (m *Model) allLogits(toks []int32) ([][]float32, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if err := m.reserve(len(toks), len(toks), scoringOf(len(toks), m.info.NUBatch)); err != nil {
		return nil, err
	}
	cMemClear(m.c)
	defer cMemClear(m.c)
	rows := make([][]float32, 0, len(toks))
	var b batch
	for start := 0; start < len(toks); start += m.info.NBatch {
		end := min(start+m.info.NBatch, len(toks))
		b.reset()
		for i := start; i < end; i++ {
			b.add(toks[i], int32(i), []int32{0}, true)
		}
		if err := m.decode(&b); err != nil {
			return nil, err
		}
		for i := 0; i < end-start; i++ {
			row := make([]float32, m.info.NVocab)
			if err := cLogits(m.c, int32(i), row); err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}
