// Package infinitebench ports lm_eval/tasks/infinitebench/utils.py: the
// prompts of the tasks whose input needs reshaping, and the scores of
// InfiniteBench's compute_scores.py (substring, word, first-integer,
// number, option-letter and token-F1 matches).
package infinitebench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

const (
	asciiPunct    = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	zhPunctuation = "！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—''‛„‟…‧﹏."
)

var (
	control  = pyre.MustCompile(`[\x00-\x1f]`)
	funcCall = pyre.MustCompile(`(func_[0-9]+)\(\-?[0-9]+\)`)
	theXOf   = pyre.MustCompile(`The .+ of`)
	articles = pyre.MustCompile(`\b(a|an|the)\b`)
	number   = pyre.MustCompile(`\d+\.\d+|\d+`)
	lastAD   = pyre.MustCompile(`\b([A-D])\b(?!.*\b[A-D]\b)`)
	lastAJ   = pyre.MustCompile(`\b([A-J])\b(?!.*\b[A-J]\b)`)
)

func split(s string) []string { return strings.FieldsFunc(s, pyre.IsSpace) }

// Postprocess is postprocess_prediction.
func Postprocess(p string) string {
	p = pyre.Strip(p)
	p, _ = control.Sub(" ", p, 0)
	return pyre.Strip(p)
}

func field(doc task.Doc, key string) (string, error) {
	v, ok := doc[key]
	if !ok {
		return "", fmt.Errorf("infinitebench: no %s (KeyError)", key)
	}
	return pyval.Str(v), nil
}

// options is doc.get("options", []) and its first four, "" past the end.
func options(doc task.Doc) ([4]string, error) {
	var out [4]string
	v, ok := doc["options"]
	if !ok {
		return out, nil
	}
	l, isList := v.([]any)
	if !isList {
		return out, fmt.Errorf("infinitebench: options is %T (TypeError: len())", v)
	}
	for i := range out {
		if i < len(l) {
			out[i] = pyval.Str(l[i])
		}
	}
	return out, nil
}

// DocToTextCodeRun is doc_to_text_code_run.
func DocToTextCodeRun(doc task.Doc) (string, error) {
	ctx, err := field(doc, "context")
	if err != nil {
		return "", err
	}
	in, ok := doc["input"].(string)
	if !ok {
		return "", fmt.Errorf("infinitebench: input is %T", doc["input"])
	}
	fn, call := "the function", pyre.Strip(in)
	if m := funcCall.Search(in); m != nil {
		fn, call = m.Group(1), m.Group(0)
	}
	return "Following is a set of Python functions. There is a function called named " + fn + ".\n\n" +
		ctx + "\n\nPlease give me the exact number of the return value of " + call +
		". Be concise. Your response must end with the final returned value.", nil
}

// DocToTextCodeDebug is doc_to_text_code_debug.
func DocToTextCodeDebug(doc task.Doc) (string, error) {
	ctx, err := field(doc, "context")
	if err != nil {
		return "", err
	}
	o, err := options(doc)
	if err != nil {
		return "", err
	}
	return "There is ONLY ONE function in the large project that is deliberately made to include an obvious error. " +
		"Please find the function that contains the most obvious errors. I will give you four options to narrow your scope. " +
		"You can inspect the options and think. Eventually, tell me the answer using one single letter (A, B, C, or D).\n\n" +
		ctx + "\n\nWhich funtion has deliberate error?\nA. " + o[0] + "\nB. " + o[1] + "\nC. " + o[2] + "\nD. " + o[3] + "\n\n" +
		"You should first find the functions in the options. Repeat their content, inspect through code, and at last give me " +
		"your answer for the function that has the deliberate and obvious error in A, B, C, or D.", nil
}

// DocToTextLongbookChoice is doc_to_text_longbook_choice.
func DocToTextLongbookChoice(doc task.Doc) (string, error) {
	ctx, err := field(doc, "context")
	if err != nil {
		return "", err
	}
	q, err := field(doc, "input")
	if err != nil {
		return "", err
	}
	o, err := options(doc)
	if err != nil {
		return "", err
	}
	return "Read the book and answer the question.\n\n" + ctx + "\n\nQuestion: " + q + "\n\n" +
		"Only one of the following options is correct, tell me the answer using one single letter (A, B, C, or D). " +
		"Don't say anything else.\nA. " + o[0] + "\nB. " + o[1] + "\nC. " + o[2] + "\nD. " + o[3], nil
}

// DocToTextLongdialogue is doc_to_text_longdialogue.
func DocToTextLongdialogue(doc task.Doc) (string, error) {
	ctx, err := field(doc, "context")
	if err != nil {
		return "", err
	}
	return "Below is a dialogue script where one random occurrence of a character name is replaced with \"$$MASK$$\", " +
		"and you should try to guess who that character is.\n\nThe dialogue:\n\n---\n\n" + ctx + "\n\n---\n\nEnd of dialogue.\n\n" +
		"Which character is most likely \"$$MASK$$\"? Just say the name used by the scriptwriter (before the colon marks) " +
		"of one single character and nothing else.", nil
}

// DocToTextMathFind is doc_to_text_math_find.
func DocToTextMathFind(doc task.Doc) (string, error) {
	ctx, err := field(doc, "context")
	if err != nil {
		return "", err
	}
	in, ok := doc["input"].(string)
	if !ok {
		return "", fmt.Errorf("infinitebench: input is %T", doc["input"])
	}
	prefix := in
	if m := theXOf.Search(in); m != nil {
		t := []rune(pyre.Lower(m.Group(0)))
		prefix = "What is " + string(t[:max(0, len(t)-3)]) + " in the following list?"
	}
	return prefix + "\n\n" + ctx + "\n\n" + in, nil
}

// normalizeEn is _normalize_en.
func normalizeEn(s string) string {
	s = pyre.Lower(s)
	s, _ = articles.Sub(" ", s, 0)
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, s)
	return strings.Join(split(s), " ")
}

// normalizeZh is _normalize_zh.
func normalizeZh(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(asciiPunct, r) || strings.ContainsRune(zhPunctuation, r) {
			return -1
		}
		return r
	}, s)
	return strings.Join(split(pyre.Lower(s)), "")
}

// TokenF1 is _token_f1.
func TokenF1(prediction, reference string, chinese bool) float64 {
	var p, r []string
	if chinese {
		for _, c := range normalizeZh(prediction) {
			p = append(p, string(c))
		}
		for _, c := range normalizeZh(reference) {
			r = append(r, string(c))
		}
	} else {
		p, r = split(normalizeEn(prediction)), split(normalizeEn(reference))
	}
	return metrics.TokenF1(p, r)
}
