package language

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"hin", "hin"}, {"hi", "hin"}, {"HI", "hin"}, {"hindi", "hin"}, {"Hindi", "hin"},
		{"hin_Deva", "hin_Deva"}, {"hi-Latn", "hin_Latn"}, {"hindi_latn", "hin_Latn"},
		{"kannada", "kan"}, {"bengali", "ben"}, {"bangla", "ben"}, {"greek", "ell"},
		{"modern greek", "ell"}, {"gre", "ell"}, {"farsi", "fas"}, {"persian", "fas"},
		{"arb", "ara"}, {"npi", "nep"}, {"cmn", "zho"}, {"chinese", "zho"},
		{"traditional chinese", "zho_Hant"}, {"norwegian bokmål", "nob"}, {"nb", "nob"},
		{"panjabi", "pan"}, {"punjabi", "pan"}, {"odia", "ori"},
	} {
		got, err := Parse(c.in)
		if err != nil || got.String() != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "klingonish", "hindu", "zz"} {
		if l, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, l)
		}
	}
	if _, err := Parse("hindu"); err == nil || !strings.Contains(err.Error(), "hindi (hin)") {
		t.Errorf("Parse(hindu) suggests nothing: %v", err)
	}
}

func TestTables(t *testing.T) {
	in, ok := LookupCode("hin")
	if !ok || in.Code1 != "hi" || in.Name != "Hindi" || in.Script != "Deva" || !in.Major() {
		t.Errorf("hin = %+v", in)
	}
	if in, ok := LookupCode("ell"); !ok || in.Code2B != "gre" || in.Name != "Greek" {
		t.Errorf("ell = %+v", in)
	}
	if in, ok := LookupCode("aqz"); !ok || in.Major() {
		t.Errorf("aqz (Akuntsu) = %+v, want a minor language", in)
	}
	// Minor languages' names are not read in task names (they include
	// words), but a user may type them.
	if _, ok := LookupName("akuntsu", false); ok {
		t.Error("a minor language's name is read in task names")
	}
	if in, ok := LookupName("akuntsu", true); !ok || in.Code != "aqz" {
		t.Errorf("LookupName(akuntsu) = %v", in)
	}
	if ScriptName("Deva") != "Devanagari" {
		t.Errorf("Deva = %q", ScriptName("Deva"))
	}
	for _, s := range []string{"Zyyy", "Qaaa", "Word"} {
		if _, ok := ScriptCode(s); ok {
			t.Errorf("%s taken for a script", s)
		}
	}
}

func TestSpelled(t *testing.T) {
	for _, c := range []struct {
		name string
		want string
	}{
		{"belebele_hin_Deva", "hin_Deva"},
		{"global_piqa_parallel_cloze_cls_deva", ""}, // cls is not in the ISO table used
		{"flores_eng_Latn-fra_Latn_prompt_1", "eng_Latn fra_Latn"},
		{"include_base_44_north_macedonian_arts", "mkd_Cyrl"},
		{"bhs__hindi__S_O_V", "hin_Deva"},
		{"bigbench_chinese_remainder_theorem", ""},
		{"toksuite_farsi_arabic_keyboard_for_farsi", "fas_Arab"},
		{"paloma_m2d2_s2orc_meta", ""},
		{"mmlu_high_school_us_history", ""},
	} {
		var got []string
		for _, l := range spelled(tokens(c.name)) {
			got = append(got, l.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("spelled(%s) = %v, want %q", c.name, got, c.want)
		}
	}
}

func TestPairs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"wmt16-ro-en", "ron_Latn eng_Latn"},
		{"iwslt2017-en-ar", "eng_Latn ara_Arab"},
		{"mafand_fon-fr_prompt_1", "fon_Latn fra_Latn"},
		{"catalan_bench_flores_ca-en", "cat_Latn eng_Latn"},
		{"persona_desire-to-be-more-intelligent", ""}, // to, be: Tonga, Belarusian
		{"wmt-ro-en-t5-prompt", ""},
		{"persona_believes-it-has-phenomenal-consciousness", ""},
	} {
		var got []string
		for _, l := range pairs(c.in) {
			got = append(got, l.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("pairs(%s) = %v, want %q", c.in, got, c.want)
		}
	}
}

func TestDatasetLangs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"hi", "hin_Deva"}, {"PT_BR", "por_Latn"}, {"YO_NG", "yor_Latn"}, {"es-419", "spa_Latn"},
		{"hin_Deva", "hin_Deva"}, {"ro-en", "ron_Latn eng_Latn"},
		{"LI", ""}, {"WR", ""}, // csatqa's abbreviations
		{"law", ""}, {"wic", ""}, {"all", ""}, // three-letter ISO 639-3 codes, and words
		{"en_mt_madlad", ""}, {"main", ""},
	} {
		var got []string
		for _, l := range datasetLangs(c.in) {
			got = append(got, l.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("datasetLangs(%s) = %v, want %q", c.in, got, c.want)
		}
	}
}

func TestVariantCodes(t *testing.T) {
	codes := func(vals []string, confirmed map[string]bool, fam []Lang) string {
		m := variantCodes(vals, confirmed, fam)
		var out []string
		for v, l := range m {
			out = append(out, v+"="+l.Code)
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	arabic := []Lang{{Code: "ara"}}
	for _, c := range []struct {
		vals      []string
		confirmed map[string]bool
		fam       []Lang
		want      string
	}{
		{[]string{"ar", "bg", "de", "hi"}, nil, nil, "ar=ara bg=bul de=deu hi=hin"},
		{[]string{"en", "fr", "jp", "pt", "ru", "zh"}, nil, nil, "en=eng fr=fra pt=por ru=rus zh=zho"},
		{[]string{"max", "min"}, nil, nil, ""},                                                   // words that are ISO 639-3 codes
		{[]string{"egy", "lev", "msa"}, nil, arabic, ""},                                         // AraDiCE's dialects
		{[]string{"at", "faq", "hs", "ls", "ner", "re", "sa", "sum", "te", "wic"}, nil, nil, ""}, // evalita's tasks
		{[]string{"hau", "ibo", "yor"}, map[string]bool{"hau": true, "ibo": true, "yor": true}, nil, "hau=hau ibo=ibo yor=yor"},
		{[]string{"cot", "de", "es", "fr", "hi"}, nil, nil, "de=deu es=spa fr=fra hi=hin"},
		{[]string{"am", "ar", "bn", "de", "fil"}, map[string]bool{"fil": true}, nil, "am=amh ar=ara bn=ben de=deu fil=fil"},
		{[]string{"hi", "lo"}, nil, []Lang{{Code: "eng"}}, ""}, // a family in English
		{[]string{"aqz", "apu", "bor", "azz"}, nil, nil, "apu=apu aqz=aqz azz=azz bor=bor"},
		{[]string{"nno", "nob"}, nil, []Lang{{Code: "nor"}}, ""},
	} {
		if got := codes(c.vals, c.confirmed, c.fam); got != c.want {
			t.Errorf("variantCodes(%v) = %q, want %q", c.vals, got, c.want)
		}
	}
}

func TestParseFamilies(t *testing.T) {
	fs := parseFamilies(`
| Task Family | Description | Language(s) |
|---|---|---|
| [aexams](aexams/README.md) | Arabic exams | Arabic |
| [bangla_mmlu](bangla/README.md) | x | Bengali/Bangla |
| [global_mmlu](global_mmlu/README.md) | x | Multiple (15 languages) |
| [hrm8k](hrm8k/README.md) | x | Korean (Some MT), English (Some MT) |
| [eq-bench_es](eq_bench/README.md) | x | Spanish **Human Translated** |
| [mmmu](mmmu/README.md) | x | Image, Text |
| [noreval](noreval/README.md) | x | Norwegian (Bokmål and Nynorsk) |
`)
	for _, c := range []struct {
		rel    string
		single string
	}{
		{"aexams/aexams_Biology.yaml", "ara_Arab"},
		{"bangla/sub/boolqa.yaml", "ben_Beng"},
		{"global_mmlu/full/hi/x.yaml", ""},
		{"hrm8k/default/x.yaml", ""},
		{"eq_bench/x.yaml", "spa_Latn"},
		{"mmmu/x.yaml", ""},
		{"noreval/x.yaml", "nor_Latn"},
		{"nothere/x.yaml", ""},
	} {
		got := ""
		if l, ok := single(fs.of(c.rel)); ok {
			got = l.String()
		}
		if got != c.single {
			t.Errorf("family of %s = %q, want %q", c.rel, got, c.single)
		}
	}
	if f := closedSet(fs.of("hrm8k/x.yaml")); len(f) != 2 {
		t.Errorf("hrm8k's languages = %v", f)
	}
	if pinned := parseFamilies(pinnedFamilies); len(pinned.byDir) < 150 {
		t.Errorf("the pinned README has %d family folders", len(pinned.byDir))
	}
}

// TestBuild indexes a small tree that uses each kind of evidence.
func TestNewIndex(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "| [kobench](kobench/README.md) | x | Korean |\n| [multi](multi/README.md) | x | English, Chinese |\n")
	for _, l := range []string{"ar", "de", "hi", "sw"} {
		write("xq/xq_"+l+".yaml", "task: xq_"+l+"\ntag: xq_all\ndataset_path: x\n")
	}
	write("bel/bel_hin_Deva.yaml", "task: bel_hin_Deva\ndataset_path: x\n")
	write("okp/_t", "dataset_path: x\n")
	write("okp/arc_a.yaml", "task: arc_a\ndataset_name: kn\ninclude: _t\n")
	write("gm/full/te/gm_te_stem.yaml", "task: gm_stem_1\ndataset_path: x\n")
	write("gm/full/hi/gm_hi_stem.yaml", "task: gm_stem_2\ndataset_path: x\n")
	write("gm/full/gu/gm_gu_stem.yaml", "task: gm_stem_3\ndataset_path: x\n")
	write("gm/full/hi/_gm_hi.yaml", "group: gm_hi\ntask: [gm_stem_2]\n")
	write("kobench/kb_wic.yaml", "task: kb_wic\ndataset_name: wic\n")
	write("kobench/_kb.yaml", "group: kobench\ntask: [kb_wic]\n")
	write("multi/multi_lsat.yaml", "task: multi_lsat\n")
	write("multi/multi_qa_zh.yaml", "task: multi_qa_zh\n")
	write("tr/wmt16-ro-en.yaml", "task: wmt16-ro-en\n")
	write("misc/arithmetic_max.yaml", "task: arithmetic_max\n")
	write("misc/arithmetic_min.yaml", "task: arithmetic_min\n")
	r := task.NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(r)
	for _, c := range []struct {
		name, langs string
		from        Evidence
	}{
		{"xq_hi", "hin_Deva", FromVariant},
		{"xq_sw", "swa_Latn", FromVariant},
		{"xq_all", "", 0}, // a tag of four languages
		{"bel_hin_Deva", "hin_Deva", FromName},
		{"arc_a", "kan_Knda", FromDataset},
		{"gm_stem_1", "tel_Telu", FromPath},
		{"gm_hi", "hin_Deva", FromPath},
		{"kb_wic", "kor_Kore", FromFamily},
		{"kobench", "kor_Kore", FromFamily},
		{"multi_lsat", "", 0},
		{"multi_qa_zh", "zho_Hans", FromToken},
		{"wmt16-ro-en", "ron_Latn eng_Latn", FromName},
		{"arithmetic_max", "", 0},
	} {
		var got []string
		for _, l := range ix.Of(c.name) {
			got = append(got, l.String())
		}
		if strings.Join(got, " ") != c.langs || ix.From(c.name) != c.from {
			t.Errorf("%s: %v from %v, want %q from %v", c.name, got, ix.From(c.name), c.langs, c.from)
		}
	}
	if got := ix.Names(Lang{Code: "hin"}); !reflect.DeepEqual(got, []string{"bel_hin_Deva", "gm_hi", "gm_stem_2", "xq_hi"}) {
		t.Errorf("Names(hin) = %v", got)
	}
	if ix.In("bel_hin_Deva", Lang{Code: "hin", Script: "Latn"}) {
		t.Error("a Devanagari task is in hin_Latn")
	}
	ix.AddGroups(map[string][]string{"xq_group": {"xq_hi"}})
}

// TestCorpusCounts checks the index over lm-eval's whole task tree against
// scripts/languages/listing.py, a listing written family by family that
// shares none of the index's rules (its output: testdata/expected_counts.tsv).
func TestCorpusCounts(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "lm-eval")
	commit, err := os.ReadFile(filepath.Join(root, "COMMIT"))
	if err != nil {
		t.Skipf("lm-eval's task tree is not at %s (../shared/lm-eval): %v", root, err)
	}
	f, err := os.Open(filepath.Join("testdata", "expected_counts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if !strings.Contains(line, strings.TrimSpace(string(commit))) {
				t.Skipf("expected_counts.tsv is for another lm-eval commit (%s); rerun scripts/languages/listing.py", line)
			}
			continue
		}
		k, v, _ := strings.Cut(line, "\t")
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("expected_counts.tsv: %q", line)
		}
		want[k] = n
	}
	r := task.NewRegistry()
	if err := r.AddDir(filepath.Join(root, "lm_eval", "tasks")); err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(r)
	got := map[string]int{}
	for _, n := range r.Tasks() {
		got["tasks"]++
		ls := ix.Of(n)
		if len(ls) > 0 {
			got["with_language"]++
		}
		seen := map[string]bool{}
		for _, l := range ls {
			if !seen[l.Code] {
				seen[l.Code] = true
				got[l.Code]++
			}
		}
	}
	for _, k := range sortedKeys(want, got) {
		if got[k] != want[k] {
			var eg []string
			if k != "tasks" && k != "with_language" {
				eg = ix.Names(Lang{Code: k})
				if len(eg) > 8 {
					eg = eg[:8]
				}
			}
			t.Errorf("%s: the index has %d, the listing %d (index: %v)", k, got[k], want[k], eg)
		}
	}
	t.Logf("%d languages; %d of %d tasks have one", len(want)-2, got["with_language"], got["tasks"])
}

func sortedKeys(ms ...map[string]int) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
