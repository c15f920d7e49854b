package afrobench

import (
	"fmt"
	"sort"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// mafand/prompt_*/{african-english,english-african}/utils.py: MAFAND-MT
// translation prompts between an African language and English or French.
//
// create_text_prompt_2 and create_reverse_prompt_2 return a 1-tuple (a
// trailing comma), not a string, and lm-eval stops on the first document
// with AssertionError: Context is not a string!; the ports fail the same
// way (prompt_2 in both directions and prompt_3/african-english, which
// uses create_text_prompt_2).

// MafandLanguages is utils.py's languages.
var MafandLanguages = map[string]string{
	"amh": "Amharic", "bam": "Bambara", "bbj": "Gbomala", "ewe": "Ewe", "fon": "Fon",
	"hau": "Hausa", "ibo": "Igbo", "kin": "Kinyarwanda", "lug": "Luganda", "luo": "Luo",
	"mos": "Mossi", "nya": "Chichewa", "pcm": "Nigerian Pidgin", "sna": "Shona", "swa": "Swahili",
	"tsn": "Setswana", "twi": "Twi", "wol": "Wolof", "xho": "Xhosa", "yor": "Yoruba", "zul": "Zulu",
}

type translation struct {
	m map[string]any
	// african is the first key that is neither en nor fr (the dataset's
	// Translation feature orders its languages; a map keeps no order, so
	// with several African keys the first in sorted order).
	african string
	// pivot is "en" when present, else "fr".
	pivot string
}

func translationOf(doc task.Doc) (*translation, error) {
	m, ok := doc["translation"].(map[string]any)
	if !ok {
		if _, has := doc["translation"]; !has {
			return nil, fmt.Errorf("KeyError: 'translation'")
		}
		return nil, fmt.Errorf("translation is %T, want a dict", doc["translation"])
	}
	t := &translation{m: m, pivot: "fr"}
	if _, ok := m["en"]; ok {
		t.pivot = "en"
	}
	var keys []string
	for k := range m {
		if k != "en" && k != "fr" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		t.african = keys[0]
	}
	return t, nil
}

func (t *translation) pivotName() string {
	if t.pivot == "en" {
		return "English"
	}
	return "French"
}

// get is translation[key] as an f-string writes it.
func (t *translation) get(key string) (string, error) {
	v, ok := t.m[key]
	if !ok {
		return "", fmt.Errorf("KeyError: %s", pyval.Repr(key))
	}
	return pyval.Str(v), nil
}

// africanKey is the African language's code and name.
func (t *translation) africanKey() (string, string, error) {
	if t.african == "" {
		return "", "", fmt.Errorf("IndexError: list index out of range (no language other than en and fr)")
	}
	name, ok := MafandLanguages[t.african]
	if !ok {
		return "", "", fmt.Errorf("KeyError: %s", pyval.Repr(t.african))
	}
	return t.african, name, nil
}

// GetTarget is get_target: the English (else French) sentence.
func GetTarget(doc task.Doc) (string, error) {
	t, err := translationOf(doc)
	if err != nil {
		return "", err
	}
	return t.get(t.pivot)
}

// GetTargetReverse is get_target_reverse: the African sentence.
func GetTargetReverse(doc task.Doc) (string, error) {
	t, err := translationOf(doc)
	if err != nil {
		return "", err
	}
	if t.african == "" {
		return "", fmt.Errorf("IndexError: list index out of range (no language other than en and fr)")
	}
	return t.get(t.african)
}

// toPivot gathers an African-to-pivot prompt's parts: the language name,
// the sentence and the pivot language's name.
func toPivot(doc task.Doc) (lang, sentence, pivot string, err error) {
	t, err := translationOf(doc)
	if err != nil {
		return "", "", "", err
	}
	key, lang, err := t.africanKey()
	if err != nil {
		return "", "", "", err
	}
	if sentence, err = t.get(key); err != nil {
		return "", "", "", err
	}
	return lang, sentence, t.pivotName(), nil
}

// fromPivot gathers a pivot-to-African prompt's parts.
func fromPivot(doc task.Doc) (pivot, sentence, lang string, err error) {
	t, err := translationOf(doc)
	if err != nil {
		return "", "", "", err
	}
	_, lang, err = t.africanKey()
	if err != nil {
		return "", "", "", err
	}
	if sentence, err = t.get(t.pivot); err != nil {
		return "", "", "", err
	}
	return t.pivotName(), sentence, lang, nil
}

// CreateTextPrompt1 is create_text_prompt_1 (African to English/French).
func CreateTextPrompt1(doc task.Doc) (string, error) {
	lang, s, pivot, err := toPivot(doc)
	if err != nil {
		return "", err
	}
	return "You are an advanced Translator, a specialized assistant designed to translate documents from " +
		lang + " into " + pivot + ". \nYour main goal is to ensure translations are grammatically " +
		"correct and human-oriented. \n" + lang + ": " + s + " \n" + pivot + ": ", nil
}

// CreateReversePrompt1 is create_reverse_prompt_1 (English/French to
// African).
func CreateReversePrompt1(doc task.Doc) (string, error) {
	pivot, s, lang, err := fromPivot(doc)
	if err != nil {
		return "", err
	}
	return "You are an advanced Translator, a specialized assistant designed to translate documents from " +
		pivot + " into " + lang + ". \nYour main goal is to ensure translations are " +
		"grammatically correct and human-oriented. \n" + pivot + ": " + s + " \n" + lang + ": ", nil
}

// notAString is lm-eval's failure on a doc_to_text that returned the
// 1-tuple (text,).
func notAString(text string) error {
	return fmt.Errorf("AssertionError: Context is not a string! : (%s,) (this lm-eval helper returns a tuple, so lm-eval fails on every document)", pyval.Repr(text))
}

// CreateTextPrompt2 is create_text_prompt_2, whose value is a tuple.
func CreateTextPrompt2(doc task.Doc) (string, error) {
	lang, s, pivot, err := toPivot(doc)
	if err != nil {
		return "", err
	}
	return "", notAString(lang + " sentence: " + s + " \n" + pivot + " sentence: ")
}

// CreateReversePrompt2 is create_reverse_prompt_2, whose value is a
// tuple.
func CreateReversePrompt2(doc task.Doc) (string, error) {
	pivot, s, lang, err := fromPivot(doc)
	if err != nil {
		return "", err
	}
	return "", notAString(pivot + " sentence: " + s + " \n" + lang + " sentence: \n")
}

// CreateReversePrompt3 is create_reverse_prompt_3.
func CreateReversePrompt3(doc task.Doc) (string, error) {
	pivot, s, lang, err := fromPivot(doc)
	if err != nil {
		return "", err
	}
	return "You are a translation expert. Translate the following " + pivot + " sentence into " + lang + "\n" +
		pivot + " sentence: " + s + "\n" + lang + " sentence: ", nil
}
