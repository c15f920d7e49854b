package cache

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMerge: the caches of three shards, each answering its part of the
// requests, merged into one, answer every request of the run without
// computing any; an entry both caches have keeps the destination's value
// and is counted as a conflict when it differs; a file that is no cache,
// or the destination itself, is refused.
func TestMerge(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	id := Identity{Backend: "fake", Fingerprint: "abc", Settings: map[string]string{"max_length": "64"}}
	reqs := llRequests(30, 0)
	var paths []string
	for i := range 3 {
		p := filepath.Join(dir, "shard-"+string(rune('0'+i))+".sqlite")
		c, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		lm, err := c.Wrap(&fakeLM{}, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lm.Loglikelihood(ctx, reqs[i*10:i*10+10]); err != nil {
			t.Fatal(err)
		}
		c.PutBlob("requests-"+string(rune('0'+i)), []byte("x"))
		c.Close()
		paths = append(paths, p)
	}
	all, err := Open(filepath.Join(dir, "all.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	for i, p := range paths {
		st, err := all.Merge(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		models := int64(0)
		if i == 0 {
			models = 1
		}
		if st.Responses != 10 || st.Present != 0 || st.Conflicts != 0 || st.Models != models || st.Blobs != 1 {
			t.Errorf("merge %d: %+v", i, st)
		}
	}
	// Again: everything is there already.
	if st, err := all.Merge(ctx, paths[1]); err != nil || st.Responses != 0 || st.Present != 10 || st.Conflicts != 0 {
		t.Errorf("second merge: %+v, %v", st, err)
	}
	inner := &fakeLM{}
	lm, err := all.Wrap(inner, id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lm.Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	checkLL(t, reqs, got)
	if n := inner.computed.Load(); n != 0 {
		t.Errorf("the merged cache computed %d answers", n)
	}
	if info, _ := all.Summary(); info.Responses["loglikelihood"] != 30 || info.Blobs != 3 || len(info.Models) != 1 {
		t.Errorf("merged cache %+v", info)
	}

	// Another value for one request (another batch layout's float
	// noise): kept as the destination has it, and counted.
	other := filepath.Join(dir, "other.sqlite")
	oc, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := RequestKey(id.Hash(), "loglikelihood", reqs[0])
	oc.db.Exec(`INSERT INTO models(model, identity) VALUES (?, '{}')`, id.Hash())
	oc.db.Exec(`INSERT INTO responses(key, model, kind, value) VALUES (?, ?, 'loglikelihood', ?)`, key, id.Hash(), `{"LogProb":-1,"IsGreedy":false,"NumTokens":1}`)
	oc.Close()
	if st, err := all.Merge(ctx, other); err != nil || st.Conflicts != 1 || st.Responses != 0 {
		t.Errorf("conflicting merge: %+v, %v", st, err)
	}
	got, _ = lm.Loglikelihood(ctx, reqs[:1])
	checkLL(t, reqs[:1], got)

	notCache := filepath.Join(dir, "x.sqlite")
	os.WriteFile(notCache, []byte("not a database"), 0o644)
	for _, bad := range []string{notCache, filepath.Join(dir, "missing.sqlite"), all.Path()} {
		if _, err := all.Merge(ctx, bad); err == nil || !strings.Contains(err.Error(), filepath.Base(bad)) {
			t.Errorf("merging %s: %v", bad, err)
		}
	}
}
