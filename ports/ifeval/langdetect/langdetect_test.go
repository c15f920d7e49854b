package langdetect

import "testing"

// Expected values from Python's langdetect 1.0.9 with
// DetectorFactory.seed = 0 and the profiles in file-name order (see
// ../testdata/refsetup.py); ../testdata/vectors.json.gz has 6,500 more,
// checked by the ifeval package's tests.
func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Bonjour tout le monde, comment ça va aujourd'hui?", "fr"},
		{"THIS IS ALL CAPS ENGLISH TEXT", "en"},
		{"Der schnelle braune Fuchs springt über den faulen Hund.", "de"},
		{"日本語のテキストです", "ja"},
	} {
		got, err := Detect(c.text)
		if err != nil || got != c.want {
			t.Errorf("Detect(%q) = %q, %v; langdetect %q", c.text, got, err, c.want)
		}
	}
	if _, err := Detect("12345 !!!"); err != ErrNoFeatures {
		t.Errorf("Detect of a text without letters: %v, want ErrNoFeatures (LangDetectException)", err)
	}
	langs, err := Languages()
	if err != nil || len(langs) != 55 {
		t.Errorf("Languages() = %d languages, %v; langdetect has 55 profiles", len(langs), err)
	}
}
