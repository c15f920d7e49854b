package ggufwrite

import (
	"math"
	"testing"

	"github.com/lmeval/lmeval/gguf"
)

// halfToFloat decodes binary16 bits from the definition, independently of
// Float16.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * m * math.Pow(2, -24)
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

func TestFloat16Vectors(t *testing.T) {
	// Expected bits from Python's struct.pack('<e', x) (IEEE round to
	// nearest even); 65520 and beyond round to infinity.
	tests := []struct {
		bits uint32 // float32 input
		want uint16
	}{
		{0x3f800000, 0x3c00}, // 1
		{0xc0000000, 0xc000}, // -2
		{0x477fe000, 0x7bff}, // 65504, the largest half
		{0x477fef00, 0x7bff}, // 65519
		{0x477ff000, 0x7c00}, // 65520: tie between 65504 and 2^16, to even = inf
		{0xc7c35000, 0xfc00}, // -1e5
		{0x3dcccccd, 0x2e66}, // 0.1
		{0x3eaaaaab, 0x3555}, // 1/3
		{0x40490fdb, 0x4248}, // pi
		{0x33800000, 0x0001}, // 2^-24, the smallest subnormal
		{0x33000000, 0x0000}, // 2^-25: tie, to even = 0
		{0x33400000, 0x0001}, // 1.5 * 2^-25
		{0x38800000, 0x0400}, // 2^-14, the smallest normal
		{0x387fe000, 0x0400}, // 2^-14 - 2^-25: tie between 0x3ff and 0x400
		{0x387fda40, 0x03ff}, // 6.1e-5
		{0x3f801000, 0x3c00}, // 1 + 2^-11: tie, to even
		{0x3f803000, 0x3c02}, // 1 + 3*2^-11: tie, to even
		{0x80000000, 0x8000}, // -0
		{0x322bcc77, 0x0000}, // 1e-8
		{0x7f800000, 0x7c00}, // +inf
		{0xff800000, 0xfc00}, // -inf
		{0x7f7fffff, 0x7c00}, // max float32
		{0x7fc00000, 0x7e00}, // NaN
	}
	for _, tt := range tests {
		if got := Float16(math.Float32frombits(tt.bits)); got != tt.want {
			t.Errorf("Float16(%g [0x%08x]) = 0x%04x, want 0x%04x", math.Float32frombits(tt.bits), tt.bits, got, tt.want)
		}
	}
	if h := Float16(math.Float32frombits(0x7f800001)); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("signalling NaN -> 0x%04x, not a NaN", h)
	}
}

// TestFloat16AllValues checks every finite half: it converts back to
// itself, and the midpoint to its successor (exact in float32) rounds to
// whichever of the two is even, while anything off the midpoint rounds to
// the nearer one.
func TestFloat16AllValues(t *testing.T) {
	for h := uint32(0); h < 0x10000; h++ {
		x := halfToFloat(uint16(h))
		if math.IsNaN(x) {
			continue
		}
		if got := Float16(float32(x)); got != uint16(h) {
			t.Fatalf("Float16(%g) = 0x%04x, want 0x%04x", x, got, h)
		}
		if h&0x7fff >= 0x7c00 {
			continue // infinity has no successor
		}
		next := halfToFloat(uint16(h + 1)) // the successor away from zero
		if math.IsInf(next, 0) {
			next = math.Copysign(65536, x) // where the next exponent would be
		}
		mid := float32((x + next) / 2)
		if float64(mid) != (x+next)/2 {
			t.Fatalf("midpoint of 0x%04x not exact", h)
		}
		even := uint16(h)
		if h&1 == 1 {
			even = uint16(h + 1)
		}
		if got := Float16(mid); got != even {
			t.Fatalf("Float16(midpoint %g of 0x%04x, 0x%04x) = 0x%04x, want 0x%04x", mid, h, h+1, got, even)
		}
		below := math.Nextafter32(mid, float32(x))
		above := math.Nextafter32(mid, float32(math.Copysign(math.Inf(1), x+next)))
		if got := Float16(below); got != uint16(h) {
			t.Fatalf("Float16(%g just inside 0x%04x) = 0x%04x", below, h, got)
		}
		if got := Float16(above); got != uint16(h+1) {
			t.Fatalf("Float16(%g just past the midpoint of 0x%04x) = 0x%04x, want 0x%04x", above, h, got, h+1)
		}
	}
}

// TestBFloat16AllValues does the same for bfloat16, whose value is simply
// the top 16 bits of a float32.
func TestBFloat16AllValues(t *testing.T) {
	for h := uint32(0); h < 0x10000; h++ {
		x := math.Float32frombits(h << 16)
		if x != x {
			if got := BFloat16(x); got&0x7f80 != 0x7f80 || got&0x7f == 0 {
				t.Fatalf("BFloat16(NaN 0x%04x) = 0x%04x, not a NaN", h, got)
			}
			continue
		}
		if got := BFloat16(x); got != uint16(h) {
			t.Fatalf("BFloat16(%g) = 0x%04x, want 0x%04x", x, got, h)
		}
		if h&0x7fff >= 0x7f80 {
			continue
		}
		mid := math.Float32frombits(h<<16 | 0x8000) // exactly halfway to h+1
		even := uint16(h)
		if h&1 == 1 {
			even = uint16(h + 1)
		}
		if got := BFloat16(mid); got != even {
			t.Fatalf("BFloat16(midpoint of 0x%04x) = 0x%04x, want 0x%04x", h, got, even)
		}
		if got := BFloat16(math.Float32frombits(h<<16 | 0x7fff)); got != uint16(h) {
			t.Fatalf("BFloat16 just below the midpoint of 0x%04x = 0x%04x", h, got)
		}
		if got := BFloat16(math.Float32frombits(h<<16 | 0x8001)); got != uint16(h+1) {
			t.Fatalf("BFloat16 just above the midpoint of 0x%04x = 0x%04x", h, got)
		}
	}
	for _, tt := range []struct {
		bits uint32
		want uint16
	}{
		{0x3f800000, 0x3f80}, // 1
		{0x40490fdb, 0x4049}, // pi
		{0x3dcccccd, 0x3dcd}, // 0.1
		{0x7f7fffff, 0x7f80}, // max float32 rounds to inf
		{0x7fc00000, 0x7fc0}, // NaN
	} {
		if got := BFloat16(math.Float32frombits(tt.bits)); got != tt.want {
			t.Errorf("BFloat16(0x%08x) = 0x%04x, want 0x%04x", tt.bits, got, tt.want)
		}
	}
}

func TestEncodeFloats(t *testing.T) {
	in := []float32{1, -2, 0.1}
	tests := []struct {
		typ  gguf.TensorType
		want []byte
	}{
		{gguf.F32, []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0xcd, 0xcc, 0xcc, 0x3d}},
		{gguf.F16, []byte{0x00, 0x3c, 0x00, 0xc0, 0x66, 0x2e}},
		{gguf.BF16, []byte{0x80, 0x3f, 0x00, 0xc0, 0xcd, 0x3d}},
	}
	for _, tt := range tests {
		got, err := EncodeFloats(tt.typ, in)
		if err != nil || string(got) != string(tt.want) {
			t.Errorf("EncodeFloats(%v) = % x, %v; want % x", tt.typ, got, err, tt.want)
		}
	}
	if _, err := EncodeFloats(gguf.Q8_0, in); err == nil {
		t.Error("EncodeFloats(Q8_0) succeeded")
	}
}
