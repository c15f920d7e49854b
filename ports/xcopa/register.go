package xcopa

import "github.com/lmeval/lmeval/harness/task"

// textSHA is the sha256 of each doc_to_text_<lang> = partial(...) assignment.
var textSHA = map[string]string{
	"et": "46dfd3e20d74db4314dc386d4d130b1307be7deb386588fe707d3f8ca38b6b68",
	"ht": "4ad1eaa289b52a7e5d1b8296fa3addd92905a9c9e0daf53acc91a473118bd187",
	"it": "bcd52d3c54393757e33125b8e052801e788bc244a7d5a5aa00e8af57f8f3aa3e",
	"id": "77f67cc5cc72bace07bbc630baa2e1889b980432dca521db0fd3c27f9463a60b",
	"qu": "60299d12230b60cd0c643291efede1bbee995e51f2172b5c5c61a62685a7ff73",
	"sw": "ef8d7e71f8f529d6ed429cf6807f4f3a445887a00370deff53db76284939ab55",
	"ta": "47151db42beb856c87b31095ab93bcd62c2d360275e459cafdaf050d2d26c3eb",
	"th": "f8580f0f566dec5bd6db7fdb831f060bb3d0e1042db762b57bee4331d06167af",
	"tr": "cbc22b3c39868696b1e4e4e69c639c84793273ca9e29c409348d938b3f462d63",
	"vi": "c77e0889426453506cc1e73e06b07492bca846f11618878f2bd4d16330f866a7",
	"zh": "37bd20fed4df6cbe37d567583c5dd47532a4a01473f962dd8c0399a5ecc2d325",
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "xcopa/utils.py", Function: "doc_to_choice",
		SHA256: "3ae1e23df963a9847a4a5f40c090252befa544605106407e44e9b1b1fa0d7532"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
	for lang, conn := range Connectors {
		task.RegisterDocFunc(task.Helper{File: "xcopa/utils.py", Function: "doc_to_text_" + lang, SHA256: textSHA[lang]}, func(d task.Doc) (any, error) { return DocToText(d, conn) })
	}
}
