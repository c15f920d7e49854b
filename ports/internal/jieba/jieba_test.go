package jieba

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs [][2]any
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		var want []string
		for _, w := range v[1].([]any) {
			want = append(want, w.(string))
		}
		got, err := Cut(v[0].(string))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Cut(%q) = %q\nwant %q", v[0], got, want)
		}
	}
}
