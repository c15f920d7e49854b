package mmlu_pro

import "github.com/lmeval/lmeval/harness/task"

// subjectSHA is the sha256 of each `process_<subject> = partial(...)`
// line of mmlu_pro/utils.py.
var subjectSHA = map[string]string{
	"process_biology":          "302be0256f36c77a64f218341061da9fbe6c3523ba815febe598c8fedee9d0d7",
	"process_business":         "66a8ab5829b5bec8a4ffbc324cfb60f704581c275a15f25e6c22f6a53eda2951",
	"process_chemistry":        "59f7091c5529ef587579b339bc975e5bce182237c3d675a661f2b4959c5c1726",
	"process_computer_science": "f7531ad2b65354915ccca245f1bc0a85ca9ab0baeb7e039dc2f3a21e72cb867a",
	"process_economics":        "83c42f4d5e6d64489d5b58ef508cedf072f5af0d610512a6347ceb6d8957685b",
	"process_engineering":      "882b631846449a242c22c77ad0ba8a4ea9f176c1e08458489585358f78b1f910",
	"process_health":           "4f7067d995f81530b8a1f6f005f972d07808ecb0c10c4ad5b55601ab11f2b1f9",
	"process_history":          "25ab7eb0d10d0fd3a6ec94f5b17a58e634cd2c3ec390bac1ded1ab400f5f9fac",
	"process_law":              "e84e2c4dabd56149457a9871ac72b7819dd30b15c1cb160dd421c4cf733f3e59",
	"process_math":             "708452081514960c3293d2ad206db94be8b623bc931bbae5dcb5f5580742e9bb",
	"process_other":            "756838bae786dc41d9e432e596f103dc16a49b6619c220f12b96bf66e52d8228",
	"process_philosophy":       "886a01aded8c6423364297173589af4b163f4eee04ca6fe2676bf4f13cb049df",
	"process_physics":          "da3d217002a3dca15929252bce1c970b6d9a657b38dbb3f7d7a118ad99266957",
	"process_psychology":       "c2027a4dc595e382a99376b3d1307032a462c324af830d16ee0a2f50883a5ad3",
}

func init() {
	const file = "mmlu_pro/utils.py"
	doc := func(fn func(task.Doc) (string, error)) task.DocFunc {
		return func(d task.Doc) (any, error) { return fn(d) }
	}
	noAnswer := func(d task.Doc) (string, error) { return FormatCOTExample(d, false) }
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text", SHA256: "40e65486a1298a70b479bab0774237b2955cdbb9ec64ca6193c4569aabb1f877"}, doc(noAnswer))
	task.RegisterDocFunc(task.Helper{File: file, Function: "fewshot_to_text", SHA256: "f360e07842344e14b38a1cd3246d56b3eec017a381af09e3567b41bca67bd6d3"}, doc(noAnswer))
	task.RegisterDocFunc(task.Helper{File: file, Function: "fewshot_to_target", SHA256: "1ba68d751ccec5e1585b040221ec01aa3719bea4fb7f24a452cabbc63da57ee8"}, doc(FormatCOTTarget))
	for name, subject := range Subjects {
		task.RegisterProcessDocs(task.Helper{File: file, Function: name, SHA256: subjectSHA[name]}, func(docs []task.Doc) ([]task.Doc, error) { return ProcessDocs(docs, subject), nil })
	}
}
