package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/cache"
)

// store keeps a sweep's per-position results as blobs in the SQLite cache:
// the base's compact distributions (top-k, tail mass, exact log-prob of the
// actual token), each model's comparison against them, and per-token
// log-probs of the rolling layout. Keys name everything the numbers
// depend on (file hashes, engine settings, token layout, k), so a blob
// found is a blob that needs no recomputing.
type store struct{ c *cache.Cache }

const keyPrefix = "sweep/v1/"

func hashOf(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%v\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// layoutHash identifies a set of requests by their tokens.
func layoutHash(reqs []engine.DistRequest) string {
	h := sha256.New()
	var b [4]byte
	w := func(v []int32) {
		binary.LittleEndian.PutUint32(b[:], uint32(len(v)))
		h.Write(b[:])
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[:], uint32(x))
			h.Write(b[:])
		}
	}
	for _, r := range reqs {
		w(r.Input)
		w(r.Targets)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (s store) get(key string, decode func([]byte) error) (bool, error) {
	data, ok, err := s.c.GetBlob(keyPrefix + key)
	if err != nil || !ok {
		return false, err
	}
	if err := decode(data); err != nil {
		// A damaged entry is recomputed, not trusted.
		return false, nil
	}
	return true, nil
}

func (s store) put(key string, data []byte) error { return s.c.PutBlob(keyPrefix+key, data) }

// Binary layout: little-endian; a magic tag, counts, then arrays.

type enc struct{ bytes.Buffer }

func (e *enc) u32(v uint32)  { binary.Write(&e.Buffer, binary.LittleEndian, v) }
func (e *enc) any(v any)     { binary.Write(&e.Buffer, binary.LittleEndian, v) }
func (e *enc) tag(t string)  { e.WriteString(t) }
func (e *enc) bytes() []byte { return e.Buffer.Bytes() }

type dec struct {
	r   *bytes.Reader
	err error
}

func (d *dec) tag(t string) {
	b := make([]byte, len(t))
	if _, err := d.r.Read(b); err != nil || string(b) != t {
		d.err = errors.New("bad tag")
	}
}

func (d *dec) u32() uint32 {
	var v uint32
	d.read(&v)
	return v
}

func (d *dec) read(v any) {
	if d.err == nil {
		d.err = binary.Read(d.r, binary.LittleEndian, v)
	}
}

func (d *dec) done() error {
	if d.err == nil && d.r.Len() != 0 {
		d.err = errors.New("trailing bytes")
	}
	return d.err
}

func encodeDists(x *engine.Dists) []byte {
	var e enc
	e.tag("DST2")
	e.u32(uint32(x.K))
	e.u32(uint32(x.Len()))
	e.any(x.LogProb)
	e.any(x.Argmax)
	e.any(x.TopIDs)
	e.any(x.TopLogP)
	e.any(x.TailLogP)
	return e.bytes()
}

func decodeDists(data []byte, want int) (*engine.Dists, error) {
	d := dec{r: bytes.NewReader(data)}
	d.tag("DST2")
	k, n := int(d.u32()), int(d.u32())
	if d.err != nil || n != want || k < 1 || k > 1<<16 {
		return nil, errors.New("bad dists header")
	}
	x := &engine.Dists{K: k, LogProb: make([]float64, n), Argmax: make([]int32, n),
		TopIDs: make([]int32, n*k), TopLogP: make([]float64, n*k), TailLogP: make([]float64, n)}
	d.read(x.LogProb)
	d.read(x.Argmax)
	d.read(x.TopIDs)
	d.read(x.TopLogP)
	d.read(x.TailLogP)
	return x, d.done()
}

func encodeDivergence(x *engine.Divergence) []byte {
	var e enc
	e.tag("DIV1")
	e.u32(uint32(len(x.LogProb)))
	e.any(x.LogProb)
	e.any(x.Argmax)
	e.any(x.KLDLow)
	e.any(x.KLDHigh)
	return e.bytes()
}

func decodeDivergence(data []byte, want int) (*engine.Divergence, error) {
	d := dec{r: bytes.NewReader(data)}
	d.tag("DIV1")
	n := int(d.u32())
	if d.err != nil || n != want {
		return nil, errors.New("bad divergence header")
	}
	x := &engine.Divergence{LogProb: make([]float64, n), Argmax: make([]int32, n),
		KLDLow: make([]float64, n), KLDHigh: make([]float64, n)}
	d.read(x.LogProb)
	d.read(x.Argmax)
	d.read(x.KLDLow)
	d.read(x.KLDHigh)
	return x, d.done()
}

func encodeFloats(v []float64) []byte {
	var e enc
	e.tag("F641")
	e.u32(uint32(len(v)))
	e.any(v)
	return e.bytes()
}

func decodeFloats(data []byte, want int) ([]float64, error) {
	d := dec{r: bytes.NewReader(data)}
	d.tag("F641")
	n := int(d.u32())
	if d.err != nil || (want >= 0 && n != want) {
		return nil, errors.New("bad floats header")
	}
	v := make([]float64, n)
	d.read(v)
	for _, x := range v {
		if math.IsNaN(x) {
			return nil, errors.New("NaN in stored values")
		}
	}
	return v, d.done()
}
