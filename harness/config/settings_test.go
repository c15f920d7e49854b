package config

import (
	"encoding/json"
	"log/slog"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestDefaultsFromTable checks every default the settings table gives.
func TestDefaultsFromTable(t *testing.T) {
	got := Defaults()
	want := Config{
		Model:          "llama",
		ModelArgs:      map[string]string{},
		BatchSize:      BatchSize{Auto: true},
		Seeds:          DefaultSeeds(),
		BootstrapIters: 100000,
		LogLevel:       slog.LevelInfo,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Defaults() = %+v, want %+v", got, want)
	}
}

// TestSettingsTable checks the table's own consistency: unique names and
// short forms, a setter for every setting, usage for every flag, and
// Keys in order.
func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	var keys []string
	for _, s := range Settings {
		for _, n := range []string{s.Name, s.Alias} {
			if n == "" {
				continue
			}
			if seen[n] {
				t.Errorf("%s: name or short form %q used twice", s.Name, n)
			}
			seen[n] = true
		}
		switch s.Scope {
		case Everywhere:
			keys = append(keys, s.Name)
			if s.Usage == "" || s.set == nil {
				t.Errorf("%s: a flag needs usage and a setter", s.Name)
			}
		case Described:
			if s.set == nil {
				t.Errorf("%s: no setter", s.Name)
			}
		case Ignored:
			if s.set != nil || s.Alias != "" || s.Usage != "" {
				t.Errorf("%s: an ignored setting has no setter, flag or usage", s.Name)
			}
		}
		if s.Value == Switch && s.NArgs != NArgsOne {
			t.Errorf("%s: a switch takes no value", s.Name)
		}
	}
	if !slices.Equal(keys, Keys) {
		t.Errorf("Keys = %v, want %v", Keys, keys)
	}
}

// TestSettingsJSON checks that Config's JSON form has one key per
// setting, with the setting's name.
func TestSettingsJSON(t *testing.T) {
	var got []string
	typ := reflect.TypeOf(Config{})
	for i := 0; i < typ.NumField(); i++ {
		tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			got = append(got, tag)
		}
	}
	// The fields MarshalJSON adds.
	b, err := json.Marshal(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tasks", "device", "verbosity"} {
		if _, ok := m[k]; !ok && k != "device" {
			t.Errorf("JSON has no %q", k)
		}
		got = append(got, k)
	}
	sort.Strings(got)
	want := slices.Sorted(slices.Values(Keys))
	if !slices.Equal(got, want) {
		t.Errorf("Config's JSON keys\n%v\nwant the settings\n%v", got, want)
	}
}

// docFlags reads the flag table of a markdown section: flag name -> short
// form ("" for none), in the table's order.
func docFlags(t *testing.T, path, heading string) ([]string, map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s: no section %q", path, heading)
	}
	if i := strings.Index(sec, "\n#"); i >= 0 {
		sec = sec[:i]
	}
	cell := regexp.MustCompile(`^\| ` + "`--([a-z_]+)`" + ` \| (?:` + "`-([A-Za-z])`" + `)? ?\|`)
	var names []string
	short := map[string]string{}
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `--") {
			continue
		}
		m := cell.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: unreadable flag row %q", path, line)
			continue
		}
		names = append(names, m[1])
		short[m[1]] = m[2]
	}
	return names, short
}

// TestSettingsDocs checks the README's and docs/cli.md's run flag tables
// against the settings: every flag once, with its short form, and no
// other.
func TestSettingsDocs(t *testing.T) {
	for _, path := range []string{"../../README.md", "../../docs/cli.md"} {
		names, short := docFlags(t, path, "## `run` flags")
		for _, s := range Settings {
			al, ok := short[s.Name]
			switch {
			case !s.Flag() && ok:
				t.Errorf("%s: --%s is not a flag", path, s.Name)
			case s.Flag() && !ok:
				t.Errorf("%s: the run flag table lacks --%s", path, s.Name)
			case ok && al != s.Alias:
				t.Errorf("%s: --%s has short form %q, want %q", path, s.Name, al, s.Alias)
			}
		}
		for _, n := range names {
			if s, ok := Lookup(n); !ok || !s.Flag() {
				t.Errorf("%s: --%s is no setting", path, n)
			}
		}
		if len(names) != len(short) {
			t.Errorf("%s: a flag is listed twice", path)
		}
	}
}
