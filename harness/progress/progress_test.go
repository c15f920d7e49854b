package progress

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestPhase(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, true)
	p := d.Phase("loglikelihood", 4, 1000)
	var wg sync.WaitGroup
	for _, tok := range []int{400, 300, 200, 100} {
		wg.Add(1)
		go func() { defer wg.Done(); p.Add(1, tok) }()
	}
	wg.Wait()
	p.Finish()
	if r, tok := p.Done(); r != 4 || tok != 1000 {
		t.Errorf("Done = %d requests, %d tokens; want 4, 1000", r, tok)
	}
	out := buf.String()
	for _, want := range []string{"loglikelihood 4/4", "1000/1000", "tok/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%q", want, out)
		}
	}
}

func TestPhaseWithoutTokens(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, true).Phase("generate_until", 3, 0)
	p.Add(3, 0)
	p.Finish()
	if out := buf.String(); !strings.Contains(out, "3/3") || !strings.Contains(out, "req/s") {
		t.Errorf("request-counting bar output: %q", out)
	}
}

func TestDisabled(t *testing.T) {
	var buf bytes.Buffer
	for _, d := range []*Display{New(&buf, false), nil, FromContext(context.Background())} {
		p := d.Phase("x", 2, 10)
		p.Add(2, 10)
		p.Finish()
		if r, tok := p.Done(); r != 2 || tok != 10 {
			t.Errorf("disabled phase counted %d, %d", r, tok)
		}
		w := d.Bytes("download", 10)
		w.Write(make([]byte, 10))
		w.Close()
	}
	if buf.Len() != 0 {
		t.Errorf("disabled display wrote %q", buf.String())
	}
	d := New(&buf, true)
	if FromContext(NewContext(context.Background(), d)) != d {
		t.Error("context does not carry the display")
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	if d := ForStderr(true); d.Enabled() {
		t.Error("--no_progress left bars on")
	}
}

func TestBytes(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, true).Bytes("model.gguf", 2048)
	w.Write(make([]byte, 2048))
	w.Close()
	if out := buf.String(); !strings.Contains(out, "model.gguf") || !strings.Contains(out, "2.0 kB") {
		t.Errorf("bytes bar output: %q", out)
	}
}
