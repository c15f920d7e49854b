// Package med_prescriptions ports lm_eval/tasks/med_prescriptions/utils.py:
// pick a prescription's medicine as the answer and shuffle it among
// distractors (other prescriptions' medicines for easy, the same
// medicines with made-up frequencies and durations for hard).
//
// Every draw comes from Python's module-level random generator, and the
// helpers draw again each time lm-eval calls them: process_docs (a choice
// and a position per document), then doc_to_text and doc_to_choice for the
// first document (ConfigurableTask's checks), three task_name lookups
// (random_task_id, eight draws each), and for every document doc_to_text,
// doc_to_choice in fewshot_context, and doc_to_choice in construct_requests,
// whose choices are the requests'. The prompt's lettered options and the
// scored choices are different draws. This port replays that sequence
// from random.seed (--seed's first value), as one zero-shot task in an
// lm-eval run with a fresh datasets cache has it, and serves each
// document the prompt and choices lm-eval builds for it.
package med_prescriptions

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// pyFormat is str(v) as an f-string or str.format writes it.
func pyFormat(v any) string { return pyval.Str(v) }

func resultsDict(doc task.Doc) (map[string]any, error) {
	s, err := pydoc.String(doc, "results")
	if err != nil {
		return nil, err
	}
	v, err := pyval.LiteralEval(s)
	if err != nil {
		return nil, fmt.Errorf("ast.literal_eval(results): %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("TypeError: results is a %s literal, not a dict", pydoc.TypeName(v))
	}
	return m, nil
}

func in(key string, v any) bool {
	ok, _ := pydoc.In(key, v)
	return ok
}

// diagnosis is get_diagnosis.
func diagnosis(doc task.Doc) (any, error) {
	rd, err := resultsDict(doc)
	if err != nil {
		return nil, err
	}
	switch {
	case in("procedure", rd):
		proc := rd["procedure"]
		if in("chief_complaints_diagnosis", proc) {
			return pydoc.Path(proc, "chief_complaints_diagnosis")
		}
		// `"chief_complaints" and "diagnosis" in procedure`: only the
		// second test counts.
		if in("diagnosis", proc) {
			cc, err := pydoc.Path(proc, "chief_complaints")
			if err != nil {
				return nil, err
			}
			dg, _ := pydoc.Path(proc, "diagnosis")
			ccs, ok1 := cc.(string)
			dgs, ok2 := dg.(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("TypeError: can only concatenate str to str (chief_complaints, diagnosis)")
			}
			return "Complains: " + ccs + ". Diagnosis: " + dgs, nil
		}
		return "NA", nil
	case in("prescription_details", rd):
		d, err := pydoc.Path(rd["prescription_details"], "disease_diagnosis")
		if err != nil {
			return "NA", nil
		}
		return d, nil
	case in("Symptoms/Complaints", rd):
		return pydoc.JoinStrs(", ", rd["Symptoms/Complaints"])
	}
	return "NA", nil
}

// lowerOf is v.lower() for a str, an AttributeError otherwise.
func lowerOf(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("AttributeError: '%s' object has no attribute 'lower'", pydoc.TypeName(v))
	}
	return pyre.Lower(s), nil
}

// field is item[key] of a dict item.
func field(item any, key string) (any, error) { return pydoc.Path(item, key) }

func nkeys(item any) (int, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return 0, fmt.Errorf("AttributeError: '%s' object has no attribute 'keys'", pydoc.TypeName(item))
	}
	return len(m), nil
}

// medicines formats each item with the keys given (the first as is, the
// others lower-cased), keeping items with more than one key when filter.
func medicines(items []any, filter bool, keys ...string) ([]string, error) {
	var out []string
	for _, it := range items {
		if filter {
			n, err := nkeys(it)
			if err != nil {
				return nil, err
			}
			if n <= 1 {
				continue
			}
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			v, err := field(it, k)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				parts[i] = pyFormat(v)
			} else if parts[i], err = lowerOf(v); err != nil {
				return nil, err
			}
		}
		out = append(out, strings.Join(parts, ", "))
	}
	return out, nil
}

// medicinesList is get_medicines_list.
func medicinesList(doc task.Doc) ([]string, error) {
	rd, err := resultsDict(doc)
	if err != nil {
		return nil, err
	}
	var sample []string
	details, _ := rd["medicine_details"].([]any)
	switch {
	case in("medicine_details", rd) && lenOf(rd["medicine_details"]) != 0:
		if details == nil {
			if _, isStr := rd["medicine_details"].(string); !isStr {
				return nil, fmt.Errorf("TypeError: medicine_details is %s, not a list", pydoc.TypeName(rd["medicine_details"]))
			}
			break // a str's first character holds neither key: []
		}
		first := details[0]
		switch {
		case in("medicine_frequency", first):
			sample, err = medicines(details, true, "medicine_name", "medicine_frequency", "course_duration")
			if err != nil {
				// except Exception: the fallbacks, any error giving [].
				sample = nil
				if !in("course_duration", first) {
					if sample, err = medicines(details, true, "medicine_name", "medicine_frequency"); err != nil {
						sample = nil
					}
				}
			}
		case in("medicine_dosage", first):
			if sample, err = medicines(details, false, "medicine_name", "medicine_dosage"); err != nil {
				return nil, err
			}
		}
	case in("Medicines Prescribed", rd):
		mp, ok := rd["Medicines Prescribed"].([]any)
		if !ok || len(mp) == 0 {
			return nil, fmt.Errorf("IndexError: Medicines Prescribed has no first item")
		}
		switch {
		case in("Duration", mp[0]):
			sample, err = medicines(mp, false, "Name", "Duration")
		case in("Dosage", mp[0]):
			sample, err = medicines(mp, false, "Name", "Dosage")
		default:
			return nil, fmt.Errorf("UnboundLocalError: cannot access local variable 'medicines_sample' (Medicines Prescribed without Duration or Dosage)")
		}
		if err != nil {
			return nil, err
		}
	}
	var out []string
	for _, it := range sample {
		for _, rp := range [][2]string{{", na", ""}, {" na", ""}, {" n/a", ""}, {"NA", ""}, {" not specified", ""}, {" not provided", ""}} {
			it = strings.ReplaceAll(it, rp[0], rp[1])
		}
		if len([]rune(it)) > 1 {
			out = append(out, it)
		}
	}
	for _, it := range out {
		if it == "[Medicine Name], [medicine frequency], [course duration]" {
			return []string{}, nil
		}
	}
	return out, nil
}

func lenOf(v any) int {
	switch x := v.(type) {
	case []any:
		return len(x)
	case string:
		return len([]rune(x))
	case map[string]any:
		return len(x)
	}
	return -1
}

var indianRe = pyre.MustCompile("[\u0900-\u097f]|[\u0980-\u09ff]|[\u0a80-\u0aff]|[\u0a00-\u0a7f]|[\u0c80-\u0cff]|[\u0d00-\u0d7f]|[\u0b80-\u0bff]|[\u0c00-\u0c7f]")

// processed is one process_docs call's documents and the generator's
// state after it, from which the prompts and choices are drawn.
type processed struct {
	docs []task.Doc
	rnd  pyrand.Rand

	mu       sync.Mutex
	variants map[string]*drawn // "easy", "hard": each replayed as its task alone
}

// drawn is one variant's prompts and request choices, by document.
type drawn struct {
	texts   map[uintptr]string
	choices map[uintptr][]any
	err     error
}

var (
	memoMu sync.Mutex
	memo   = map[string]*processed{}
	byDoc  = map[uintptr]*processed{}
)

func docKey(d task.Doc) uintptr { return reflect.ValueOf(d).Pointer() }

// ProcessDocs is process_docs: gold, gold_position and keep for every
// document (a draw of each for those with medicines, from the run's
// module generator as random.seed left it), then those kept. As datasets'
// map cache does, a second call of the run on the same documents gives
// the first call's.
func ProcessDocs(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error) {
	b, err := json.Marshal(docs)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%d:%d:%s", m.Epoch(), m.Seed(), b)
	memoMu.Lock()
	defer memoMu.Unlock()
	if p, ok := memo[key]; ok {
		return p.docs, nil
	}
	r := pyrand.New(m.Seed())
	p := &processed{}
	for _, d := range docs {
		nd, keep, err := transform(d, r)
		if err != nil {
			return nil, err
		}
		if keep {
			p.docs = append(p.docs, nd)
		}
	}
	p.rnd = *r
	memo[key] = p
	for _, d := range p.docs {
		byDoc[docKey(d)] = p
	}
	return p.docs, nil
}

// transform is process_docs's _transform.
func transform(doc task.Doc, r *pyrand.Rand) (task.Doc, bool, error) {
	diag, err := diagnosis(doc)
	if err != nil {
		return nil, false, err
	}
	meds, err := medicinesList(doc)
	if err != nil {
		return nil, false, err
	}
	if s, ok := diag.(string); ok && indianRe.Search(s) != nil {
		diag = "NA"
	}
	for _, m := range meds {
		if indianRe.Search(m) != nil {
			meds = nil
			break
		}
	}
	// doc_to_target_obtain: its own get_medicines_list.
	obtain, err := medicinesList(doc)
	if err != nil {
		return nil, false, err
	}
	var gold any = "NA"
	pos := 0
	if len(obtain) > 0 {
		gold = obtain[r.Choice(len(obtain))]
		pos = r.Randbelow(4) // randint(0, 3)
	}
	nd := make(task.Doc, len(doc)+3)
	for k, v := range doc {
		nd[k] = v
	}
	keep := !pyval.Equal(diag, "NA") && len(meds) != 0
	nd["keep"], nd["gold"], nd["gold_position"] = keep, gold, pos
	return nd, keep, nil
}

// choicesEasy is doc_to_choice_easy's draw.
func choicesEasy(doc task.Doc, r *pyrand.Rand) ([]any, error) {
	gold, pos, err := goldOf(doc)
	if err != nil {
		return nil, err
	}
	idx, err := r.Sample(len(fullMedList), 3)
	if err != nil {
		return nil, err
	}
	items := make([]any, 3)
	for i, j := range idx {
		items[i] = fullMedList[j]
	}
	return insertAt(items, gold, pos), nil
}

func goldOf(doc task.Doc) (any, int, error) {
	gold, err := pydoc.Field(doc, "gold")
	if err != nil {
		return nil, 0, err
	}
	pv, err := pydoc.Field(doc, "gold_position")
	if err != nil {
		return nil, 0, err
	}
	pos, ok := pydoc.StrictInt(pv)
	if !ok {
		return nil, 0, fmt.Errorf("TypeError: gold_position is %s", pydoc.TypeName(pv))
	}
	return gold, pos, nil
}

// insertAt is l[:pos] + [x] + l[pos:] (Python slice bounds).
func insertAt(l []any, x any, pos int) []any {
	if pos < 0 {
		pos += len(l)
	}
	pos = max(0, min(pos, len(l)))
	out := append([]any{}, l[:pos]...)
	out = append(out, x)
	return append(out, l[pos:]...)
}

// choicesHard is doc_to_choice_hard's draw.
func choicesHard(doc task.Doc, r *pyrand.Rand) ([]any, error) {
	gold, pos, err := goldOf(doc)
	if err != nil {
		return nil, err
	}
	gs, ok := gold.(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: gold is %s, not str", pydoc.TypeName(gold))
	}
	meds, err := medicinesList(doc)
	if err != nil {
		return nil, err
	}
	var others []string
	for _, m := range meds {
		if m != gs {
			others = append(others, m)
		}
	}
	name := func(s string) string { n, _, _ := strings.Cut(s, ","); return n }
	pick := func(l []string, k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = l[int(r.Random()*float64(len(l)))] // random.choices(l, k=k)
		}
		return out
	}
	var fake []string
	if r.Randbelow(2) == 0 { // random.randint(0, 1) == 0
		d := durationsList[mustSample(r, len(durationsList))]
		f := frequenciesList[mustSample(r, len(frequenciesList))]
		fake = append(fake, fmt.Sprintf("%s, %s, %s", name(gs), f, d))
		durs, freqs := pick(durationsList, 2), pick(frequenciesList, 2)
		a, b := gs, gs
		switch {
		case len(others) >= 2:
			a, b = others[0], others[1]
		case len(others) == 1:
			a, b = others[0], others[0]
		}
		fake = append(fake, fmt.Sprintf("%s, %s, %s", name(a), freqs[0], durs[0]), fmt.Sprintf("%s, %s, %s", name(b), freqs[1], durs[1]))
	} else {
		durs, freqs := pick(durationsList, 3), pick(frequenciesList, 3)
		var src [3]string
		switch {
		case len(others) >= 3:
			src = [3]string{others[0], others[1], others[2]}
		case len(others) == 2:
			src = [3]string{others[0], others[0], others[1]}
		case len(others) == 1:
			src = [3]string{others[0], others[0], others[0]}
		default:
			src = [3]string{gs, gs, gs}
		}
		for i := range src {
			fake = append(fake, fmt.Sprintf("%s, %s, %s", name(src[i]), freqs[i], durs[i]))
		}
	}
	l := make([]any, len(fake))
	for i, s := range fake {
		l[i] = s
	}
	return insertAt(l, gold, pos), nil
}

// mustSample is random.sample(l, 1)[0]'s index (l is never empty).
func mustSample(r *pyrand.Rand, n int) int {
	idx, _ := r.Sample(n, 1)
	return idx[0]
}

const promptFormat = "You are a medical doctor. A patient presents the following diagnosis or complains: %s. What would you prescribe in this case? \nChoices: \n" +
	"A. %s \nB. %s \nC. %s \nD. %s \nAnswer:"

// text is doc_to_text_easy/hard: the diagnosis and a draw of choices.
func text(doc task.Doc, r *pyrand.Rand, draw func(task.Doc, *pyrand.Rand) ([]any, error)) (string, error) {
	diag, err := diagnosis(doc)
	if err != nil {
		return "", err
	}
	c, err := draw(doc, r)
	if err != nil {
		return "", err
	}
	if len(c) < 4 {
		return "", fmt.Errorf("IndexError: %d choices", len(c))
	}
	return fmt.Sprintf(promptFormat, pyFormat(diag), pyFormat(c[0]), pyFormat(c[1]), pyFormat(c[2]), pyFormat(c[3])), nil
}

// replay draws, for the variant's helpers, what lm-eval draws after
// process_docs: the checks on the first document, three random_task_id,
// then each document's prompt, fewshot_context's choices and the
// requests' choices. Each variant starts from the state process_docs
// left (both tasks in one lm-eval run would share one stream; that order
// is not reproduced).
func (p *processed) replay(variant string) (*drawn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.variants[variant]; ok {
		return v, v.err
	}
	draw := choicesEasy
	if variant == "hard" {
		draw = choicesHard
	}
	r := p.rnd
	v := &drawn{texts: map[uintptr]string{}, choices: map[uintptr][]any{}}
	if p.variants == nil {
		p.variants = map[string]*drawn{}
	}
	p.variants[variant] = v
	v.err = func() error {
		if len(p.docs) == 0 {
			return fmt.Errorf("IndexError: no documents kept (task_docs[0])")
		}
		if _, err := text(p.docs[0], &r, draw); err != nil {
			return err
		}
		if _, err := draw(p.docs[0], &r); err != nil {
			return err
		}
		for i := 0; i < 3*8; i++ { // task_name: random_task_id() three times
			r.Random()
		}
		for _, d := range p.docs {
			t, err := text(d, &r, draw)
			if err != nil {
				return err
			}
			if _, err := draw(d, &r); err != nil {
				return err
			}
			c, err := draw(d, &r)
			if err != nil {
				return err
			}
			v.texts[docKey(d)], v.choices[docKey(d)] = t, c
		}
		return nil
	}()
	return v, v.err
}

func lookup(doc task.Doc, variant string) (*drawn, error) {
	memoMu.Lock()
	p, ok := byDoc[docKey(doc)]
	memoMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("med_prescriptions: this document did not come from process_docs here; " +
			"the helpers' random draws are reproduced for a task's own (zero-shot) documents only")
	}
	return p.replay(variant)
}

func docText(variant string) task.DocFunc {
	return func(doc task.Doc) (any, error) {
		v, err := lookup(doc, variant)
		if err != nil {
			return nil, err
		}
		return v.texts[docKey(doc)], nil
	}
}

func docChoice(variant string) task.DocFunc {
	return func(doc task.Doc) (any, error) {
		v, err := lookup(doc, variant)
		if err != nil {
			return nil, err
		}
		return v.choices[docKey(doc)], nil
	}
}

// DocToTarget is doc_to_target: the gold answer's position.
func DocToTarget(doc task.Doc) (any, error) {
	v, err := pydoc.Field(doc, "gold_position")
	if err != nil {
		return nil, err
	}
	return v, nil
}

func init() {
	const file = "med_prescriptions/utils.py"
	task.RegisterMapDocs(task.Helper{File: file, Function: "process_docs", SHA256: "d44dca92158592d09b226736ba3f520601b5aa355148785e960564faddfa4c5f"}, task.MapDocs{FnModule: ProcessDocs, Columns: []string{"keep", "gold", "gold_position"}})
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text_easy", SHA256: "193ed8d45503986f8c563fa330f3376089032943d7cd4c454839ef1a309d4044"}, docText("easy"))
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text_hard", SHA256: "b5d554beb5a140cb28f4fd2dea28aa63bea3c08ae051f1e6e512e750c00fb93b"}, docText("hard"))
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice_easy", SHA256: "25648a0ede2e1ea47474a6f267abeb9a4dd649437f48bf496e343edad25706d1"}, docChoice("easy"))
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice_hard", SHA256: "98918dea63b6734461d090336f51a36cc8f2156407a756ce026561f2edaac925"}, docChoice("hard"))
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target", SHA256: "fd3604a2ad868673324b0640598debf351d03a766ab317cd4ef4a1503d5c985d"}, DocToTarget)
}
