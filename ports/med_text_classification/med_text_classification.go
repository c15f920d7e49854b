// Package med_text_classification ports
// lm_eval/tasks/med_text_classification/utils.py: topic classification of
// medical abstracts (easy: five classes, the first tenth of the split) and
// of transcriptions by medical specialty (hard: forty).
package med_text_classification

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

var easyChoices = []string{
	"neoplasms",
	"digestive system diseases",
	"nervous system diseases",
	"cardiovascular diseases",
	"general pathological conditions",
}

var hardChoices = []string{
	" Bariatrics", " Allergy / Immunology", " Dentistry", " Cardiovascular / Pulmonary", " Urology",
	" Hospice - Palliative Care", " Radiology", " Pediatrics - Neonatal", " Neurology", " Neurosurgery",
	" Emergency Room Reports", " IME-QME-Work Comp etc.", " Office Notes", " Surgery", " Letters",
	" Ophthalmology", " Hematology - Oncology", " Endocrinology", " Cosmetic / Plastic Surgery", " Diets and Nutritions",
	" Rheumatology", " Nephrology", " Physical Medicine - Rehab", " Podiatry", " Chiropractic",
	" Lab Medicine - Pathology", " Orthopedic", " Autopsy", " Psychiatry / Psychology", " Speech - Language",
	" ENT - Otolaryngology", " Sleep Medicine", " Dermatology", " SOAP / Chart / Progress Notes", " General Medicine",
	" Consult - History and Phy.", " Obstetrics / Gynecology", " Gastroenterology", " Pain Management", " Discharge Summary",
}

// ProcessDocs is process_docs: the first int(0.1 * len) documents.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	n := int(0.1 * float64(len(docs)))
	return docs[:n], nil
}

// ProcessDocsHard is process_docs_hard: the documents as they are.
func ProcessDocsHard(docs []task.Doc) ([]task.Doc, error) { return docs, nil }

func strs(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// DocToChoiceEasy is doc_to_choice_easy.
func DocToChoiceEasy(task.Doc) (any, error) { return strs(easyChoices), nil }

// DocToChoiceHard is doc_to_choice_hard.
func DocToChoiceHard(task.Doc) (any, error) { return strs(hardChoices), nil }

// DocToTextEasy is doc_to_text_easy.
func DocToTextEasy(doc task.Doc) (any, error) {
	t, err := pydoc.Field(doc, "text")
	if err != nil {
		return nil, err
	}
	c := easyChoices
	return fmt.Sprintf("Classify the topic of the following medical text into one of the following choices. \n"+
		"Text: %s \nChoices: \nA. %s \nB. %s \nC. %s \nD. %s \nE. %s \n Answer:",
		pyval.Str(t), c[0], c[1], c[2], c[3], c[4]), nil
}

// DocToTargetEasy is doc_to_target_easy: int(class) - 1.
func DocToTargetEasy(doc task.Doc) (any, error) {
	c, err := pydoc.Field(doc, "class")
	if err != nil {
		return nil, err
	}
	n, err := pyval.Int(c)
	if err != nil {
		return nil, err
	}
	return int(n) - 1, nil
}

// DocToTextHard is doc_to_text_hard: the choices as Python writes a list.
func DocToTextHard(doc task.Doc) (any, error) {
	t, err := pydoc.Field(doc, "transcription")
	if err != nil {
		return nil, err
	}
	return fmt.Sprintf("Select the medical specialty the following text is talking about among the following choices. \n"+
		"Text: %s \nChoices: %s\n Answer:", pyval.Str(t), pyval.Repr(strs(hardChoices))), nil
}

// DocToTargetHard is doc_to_target_hard: the specialty's index.
func DocToTargetHard(doc task.Doc) (any, error) {
	g, err := pydoc.Field(doc, "medical_specialty")
	if err != nil {
		return nil, err
	}
	for i, c := range hardChoices {
		if pyval.Equal(c, g) {
			return i, nil
		}
	}
	return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(g))
}

func init() {
	const file = "med_text_classification/utils.py"
	task.RegisterProcessDocs(task.Helper{File: file, Function: "process_docs", SHA256: "dd41faf99a8a0ba861ab2e06369343bba21d11169f642e8684aca36ab97e488e"}, ProcessDocs)
	task.RegisterProcessDocs(task.Helper{File: file, Function: "process_docs_hard", SHA256: "46a2fafe3a9e4c5aa1ded43a0feee22fd72efaeadec4020995990dc10e3be3f5"}, ProcessDocsHard)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice_easy", SHA256: "d53770d7fddb7be0e4bda66e5acf1bb9dc1226f2030a4e6507d6bb2283a18920"}, DocToChoiceEasy)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text_easy", SHA256: "7ba974a06c26c70194baa33f6138089b67accb2b1bbb409b26ba273de95ed2bb"}, DocToTextEasy)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target_easy", SHA256: "115a4720db26676d9ef846b8d6fa0692bdfd52103d1650a06d913263d7b3fa26"}, DocToTargetEasy)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text_hard", SHA256: "c336ded3a7c84ef26e11e7cc2f07d3b219073b66ad9d763c6de2b8cafa503a7d"}, DocToTextHard)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice_hard", SHA256: "f93077e78b93296b8333f4f5deed571af0d303a077746cb145fa9497c6be327f"}, DocToChoiceHard)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target_hard", SHA256: "4f0c3d29b76d245bd83348fbbfd9fb2489cc3d53ae299ab6f683d4eb706892f2"}, DocToTargetHard)
}
