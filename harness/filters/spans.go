package filters

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// lm-eval's filters for tagging tasks (afrobench's masakhapos and
// masakhaner): regex_pos (extraction.POSFilter) and format_span
// (transformation.SPANFilter).

func init() {
	Register("regex_pos", newPOS)
	Register("format_span", noArgs("format_span", FilterFunc(formatSpan)))
}

// posTuple is POSFilter's extract_tagged_tokens pattern: ('word', 'TAG').
var posTuple = pyre.MustCompile(`\('([^']*)', '([^']*)'\)`)

// newPOS is regex_pos: each response becomes the list of the tags of the
// ('word', 'TAG') tuples it contains, or the fallback (["invalid"]) when
// it has none. Its regex_pattern and group_select are accepted and, as in
// lm-eval, unused.
func newPOS(args map[string]any) (Filter, error) {
	if err := checkArgs("regex_pos", args, "regex_pattern", "group_select", "fallback"); err != nil {
		return nil, err
	}
	if p, ok := args["regex_pattern"]; ok && p != nil {
		s, ok := p.(string)
		if !ok {
			return nil, fmt.Errorf("regex_pos: regex_pattern: want a string, got %T", p)
		}
		if _, err := pyre.Compile(s); err != nil {
			return nil, fmt.Errorf("regex_pos: regex_pattern: %w", err)
		}
	}
	fallback := any([]any{"invalid"})
	if f, ok := args["fallback"]; ok && f != nil {
		fallback = f
	}
	return FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
		return perResponse(resps, func(resp any, doc int) (any, error) {
			var tags []any
			switch r := resp.(type) {
			case string:
				for _, m := range posTuple.FindAll(r) {
					tags = append(tags, m.Group(2))
				}
			case []any: // already (word, tag) pairs
				for _, p := range r {
					pair, ok := p.([]any)
					if !ok || len(pair) != 2 {
						return nil, fmt.Errorf("regex_pos: document %d: want (word, tag) pairs, got %T", doc, p)
					}
					tags = append(tags, pair[1])
				}
			default:
				return nil, fmt.Errorf("regex_pos: document %d: want a text response, got %T", doc, resp)
			}
			if len(tags) == 0 { // `pos_tags or self.fallback`
				return fallback, nil
			}
			return tags, nil
		})
	}), nil
}

// spanLabels is SPANFilter's label_dict, in its order.
var spanLabels = []struct{ key, label string }{
	{"person", "PER"}, {"location", "LOC"}, {"organization", "ORG"}, {"counties", "LOC"},
	{"places", "LOC"}, {"people", "PER"}, {"persons", "PER"}, {"company", "ORG"},
	{"country", "LOC"}, {"continent", "LOC"}, {"time", "DATE"}, {"date", "DATE"},
	{"per", "PER"}, {"loc", "LOC"}, {"org", "ORG"},
}

var (
	spanLabelRes = func() []*pyre.Regexp {
		out := make([]*pyre.Regexp, len(spanLabels))
		for i, l := range spanLabels {
			out[i] = pyre.MustCompile(`\b` + pyre.Escape(l.key) + `\s*:`)
		}
		return out
	}()
	spanEntity = pyre.MustCompile(`\b(PER|LOC|ORG|DATE):\s*([^$]+)`)
)

// formatSpan is format_span: format_named_entities(format_ner_text(
// resp.lower())) for every response.
func formatSpan(resps []any, _ []map[string]any) ([]any, error) {
	return perResponse(resps, func(resp any, doc int) (any, error) {
		s, err := text(resp, doc)
		if err != nil {
			return nil, fmt.Errorf("format_span: %w", err)
		}
		return formatNamedEntities(formatNERText(pyre.Lower(s))), nil
	})
}

// formatNERText rewrites the labels (the word before a ":") to PER, LOC,
// ORG or DATE, makes "$$" separators "$" and drops trailing "$".
func formatNERText(s string) string {
	s = pyre.Lower(s)
	for i, re := range spanLabelRes {
		s, _ = re.Sub(spanLabels[i].label+":", s, 0)
	}
	s = strings.Join(strings.Split(s, "$$"), "$")
	return strings.TrimRight(s, "$")
}

// formatNamedEntities lists the "LABEL: a, b" groups as "label: a $
// label: b", dropping entities that read "none".
func formatNamedEntities(s string) string {
	s = pyre.Strip(strings.ReplaceAll(s, "\n", "$"))
	var out []string
	for _, m := range spanEntity.FindAll(s) {
		label := pyre.Lower(m.Group(1))
		for _, v := range strings.Split(m.Group(2), ",") {
			e := pyre.Strip(v)
			if pyre.Lower(e) != "none" {
				out = append(out, label+": "+e)
			}
		}
	}
	return strings.Join(out, " $ ")
}
