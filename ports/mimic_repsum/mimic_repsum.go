// Package mimic_repsum ports lm_eval/tasks/mimic_repsum: a radiology
// report's findings as the prompt and its impression as the target
// (utils.py), and the perplexity variant's process_results
// (utils_perplexity.py). The generation variant's process_results needs
// BLEURT, BERTScore and RadGraph F1: unavailable.
package mimic_repsum

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
)

var (
	impressionRe = mustCompile("IMPRESSION")
	findingRe    = mustCompile("FINDING")
)

func mustCompile(p string) *pyre.Regexp {
	r, err := pyre.CompileFlags(p, pyre.IGNORECASE)
	if err != nil {
		panic(err)
	}
	return r
}

// start is re.search(p, text, re.IGNORECASE).start() in code points, -1
// when there is no match.
func start(re *pyre.Regexp, text string) int {
	m := re.Search(text)
	if m == nil {
		return -1
	}
	return len([]rune(text[:m.Start()]))
}

// firstPart is s.split("     ")[0].
func firstPart(s string) string {
	p, _, _ := strings.Cut(s, "     ")
	return p
}

// sections is the impression and findings doc_to_text and doc_to_target
// cut out of doc["extractive_notes_summ"].
func sections(doc task.Doc) (text []rune, a int, impressions, findings string, err error) {
	s, err := pydoc.String(doc, "extractive_notes_summ")
	if err != nil {
		return nil, 0, "", "", err
	}
	text = []rune(s)
	a, b := start(impressionRe, s), start(findingRe, s)
	if a < b {
		impressions = firstPart(pydoc.Slice(text, a, b, false))
		findings = firstPart(pydoc.Slice(text, b, 0, true))
	} else {
		impressions = firstPart(pydoc.Slice(text, a, 0, true))
		findings = firstPart(pydoc.Slice(text, b, a, false))
	}
	return text, a, impressions, findings, nil
}

// DocToText is utils.doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	text, a, impressions, findings, err := sections(doc)
	if err != nil {
		return nil, err
	}
	if n := len([]rune(findings)); n < 5 && 5 < len([]rune(impressions)) {
		findings = pydoc.Slice(text, 0, a, false)
	}
	return fmt.Sprintf("Given the findings: %s.\nSummarize the findings.", findings), nil
}

// DocToTarget is utils.doc_to_target.
func DocToTarget(doc task.Doc) (any, error) {
	_, _, impressions, _, err := sections(doc)
	if err != nil {
		return nil, err
	}
	return impressions, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "mimic_repsum/utils.py", Function: "doc_to_text", SHA256: "712b562bc3c785fec1a0bdb7b46cee25a5824db4e7b4014e42982dfc73f0cdcc"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "mimic_repsum/utils.py", Function: "doc_to_target", SHA256: "d0f0015b20fcc05ca5cd2373484e96345f4cd11aa9857f10a401fd3080d4744e"}, DocToTarget)
	task.RegisterUnavailable(task.Helper{File: "mimic_repsum/utils.py", Function: "process_results", SHA256: "1f4b8733931360f8d8f0aabc6fd0059e48cdd955e8b20546c362ce1c8368d40f"}, medical.Unavailable(medical.BLEURTBERTScore+" and RadGraph F1 (radgraph)", "mimic_repsum_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "mimic_repsum/utils_perplexity.py", Function: "process_results", SHA256: "07c279ab7f75f7e771a9cd5fd509b67ceffbf8ef03db0bff2deaf040b74ba51b"}, medical.PerplexityOf(DocToTarget))
}
