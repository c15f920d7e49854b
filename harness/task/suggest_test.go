package task

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A name declared by a file that does not parse reports the file and the
// YAML error, with the line as a person counts it, not "not found".
func TestMatchBrokenFile(t *testing.T) {
	r := NewRegistry()
	fsys := fstest.MapFS{
		"ok.yaml":           {Data: []byte("task: fine\ndataset_path: json\n")},
		"broken.yaml":       {Data: []byte("task: broken\ntag: [a, b\n")},
		"sub/scanner.yaml":  {Data: []byte("task: other_name\n[a, b\n")},
		"sub/template.yaml": {Data: []byte("tag: {x\n")},
	}
	if err := r.AddFS("/tasks", fsys); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		names []string
		want  []string
		not   string
	}{
		{[]string{"broken"}, []string{"task broken: /tasks/broken.yaml:2: did not find expected ',' or ']'"}, "not found"},
		// Found by its task key and by its file name.
		{[]string{"other_name"}, []string{"/tasks/sub/scanner.yaml:2: could not find expected ':'"}, "not found"},
		{[]string{"scanner"}, []string{"/tasks/sub/scanner.yaml:2:"}, "not found"},
		{[]string{"fine", "broken", "nothing_here"}, []string{"task broken: /tasks/broken.yaml", "tasks not found: nothing_here"}, "fine"},
	} {
		_, err := r.Match(tc.names)
		if err == nil {
			t.Errorf("%v: no error", tc.names)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q, want it to contain %q", tc.names, err, w)
			}
		}
		if strings.Contains(err.Error(), tc.not) {
			t.Errorf("%v: error %q mentions %q", tc.names, err, tc.not)
		}
	}
}

func TestMatchSuggests(t *testing.T) {
	r := NewRegistry()
	fsys := fstest.MapFS{}
	for _, n := range []string{"hellaswag", "arc_easy", "arc_challenge", "lambada_openai", "mmlu_stem", "piqa"} {
		fsys[n+".yaml"] = &fstest.MapFile{Data: []byte("task: " + n + "\n")}
	}
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"hellaswga", "tasks not found: hellaswga (did you mean hellaswag?)"}, // a transposition
		{"Hellaswag", "(did you mean hellaswag?)"},
		{"arc_easi", "(did you mean arc_easy?)"},
		{"arc", "(did you mean arc_challenge, arc_easy?)"}, // a prefix of names
		{"mmlu_stem_x", "(did you mean mmlu_stem?)"},
		{"gsm8k", "tasks not found: gsm8k"},
		{"pi*x", "tasks not found: pi*x"},
	} {
		_, err := r.Match([]string{tc.name})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if !strings.Contains(tc.want, "did you mean") && err != nil && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%s: error %q suggests a name", tc.name, err)
		}
	}
}

func TestOSADistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "ab", 1}, {"abc", "xbc", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"hellaswga", "hellaswag", 1},
	} {
		if got := osaDistance(tc.a, tc.b, 10); got != tc.want {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := osaDistance("abcdef", "uvwxyz", 2); got != 3 {
		t.Errorf("over the limit: %d, want 3", got)
	}
}
