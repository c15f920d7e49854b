package pyrand

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// vectors.json holds CPython 3.11's outputs; testdata/gen_vectors.py made it.
type vectors struct {
	Uint32 []struct {
		Seed   int64
		Values []uint32
	}
	Random []struct {
		Seed   int64
		Values []float64
	}
	Getrandbits []struct {
		Seed   int64
		Ks     []int
		Values []string
	}
	Randbelow []struct {
		Seed   int64
		Ns     []int
		Values []int
	}
	Sample []struct {
		Seed   int64
		N, K   int
		Values []int
	}
	Shuffle []struct {
		Seed   int64
		N      int
		Values []int
	}
	Choice []struct {
		Seed   int64
		N      int
		Values []int
	}
	Sequence struct {
		Seed   int64
		N, K   int
		Values [][]int
	}
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestUint32(t *testing.T) {
	for _, c := range load(t).Uint32 {
		r := New(c.Seed)
		for i, want := range c.Values {
			if got := r.Uint32(); got != want {
				t.Fatalf("seed %d draw %d: got %d, want %d", c.Seed, i, got, want)
			}
		}
	}
}

func TestRandom(t *testing.T) {
	for _, c := range load(t).Random {
		r := New(c.Seed)
		for i, want := range c.Values {
			if got := r.Random(); got != want {
				t.Fatalf("seed %d draw %d: got %v, want %v", c.Seed, i, got, want)
			}
		}
	}
}

func TestGetrandbits(t *testing.T) {
	for _, c := range load(t).Getrandbits {
		r := New(c.Seed)
		for i, k := range c.Ks {
			want, _ := strconv.ParseUint(c.Values[i], 10, 64)
			if got := r.Getrandbits(k); got != want {
				t.Fatalf("seed %d getrandbits(%d): got %d, want %d", c.Seed, k, got, want)
			}
		}
	}
}

func TestRandbelow(t *testing.T) {
	for _, c := range load(t).Randbelow {
		r := New(c.Seed)
		for i, n := range c.Ns {
			if got := r.Randbelow(n); got != c.Values[i] {
				t.Fatalf("seed %d randbelow(%d): got %d, want %d", c.Seed, n, got, c.Values[i])
			}
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSample(t *testing.T) {
	for _, c := range load(t).Sample {
		got, err := New(c.Seed).Sample(c.N, c.K)
		if err != nil {
			t.Fatal(err)
		}
		if !equal(got, c.Values) {
			t.Errorf("seed %d sample(range(%d), %d): got %v, want %v", c.Seed, c.N, c.K, got, c.Values)
		}
	}
	if _, err := New(1).Sample(3, 4); err != ErrSampleSize {
		t.Errorf("sample(3, 4): err %v, want ErrSampleSize", err)
	}
}

func TestSampleSequence(t *testing.T) {
	s := load(t).Sequence
	r := New(s.Seed)
	for i, want := range s.Values {
		got, err := r.Sample(s.N, s.K)
		if err != nil {
			t.Fatal(err)
		}
		if !equal(got, want) {
			t.Fatalf("call %d: got %v, want %v", i, got, want)
		}
	}
}

func TestShuffleChoice(t *testing.T) {
	v := load(t)
	for _, c := range v.Shuffle {
		x := make([]int, c.N)
		for i := range x {
			x[i] = i
		}
		New(c.Seed).Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
		if !equal(x, c.Values) {
			t.Errorf("seed %d shuffle(%d): got %v, want %v", c.Seed, c.N, x, c.Values)
		}
	}
	for _, c := range v.Choice {
		r := New(c.Seed)
		for i, want := range c.Values {
			if got := r.Choice(c.N); got != want {
				t.Fatalf("seed %d choice %d: got %d, want %d", c.Seed, i, got, want)
			}
		}
	}
}

func BenchmarkSample(b *testing.B) {
	r := New(1234)
	for i := 0; i < b.N; i++ {
		if _, err := r.Sample(10000, 6); err != nil {
			b.Fatal(err)
		}
	}
}
