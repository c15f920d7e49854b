package afrimmlu

import "github.com/lmeval/lmeval/harness/task"

func init() {
	text := func(tmpl string) task.DocFunc {
		return func(d task.Doc) (any, error) { return DocToText(d, tmpl) }
	}
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_1/utils.py", Function: "doc_to_choice",
		SHA256: "a4502de419e48c6e2de7efb097d34807d51f7a06c2dd8a38f9a2161ed4f5d022"}, DocToChoice)
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_1/utils.py", Function: "doc_to_text",
		SHA256: "f9bb9aa0ac39ad8130cb439401bca5d7bae19aeb66c194903c21d499e9cf7ce2"}, text(Direct1))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_2/utils.py", Function: "doc_to_text",
		SHA256: "68a44ac2c0561870db545c0e6ade430a86599557b3155e75c44031ffcb726f91"}, text(Direct2))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_3/utils.py", Function: "doc_to_text",
		SHA256: "a981597be7ddaf47f075ff97e32cddc31e1655501b727f1f1d2917fe8b004c4f"}, text(Direct3))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_4/utils.py", Function: "doc_to_text",
		SHA256: "c5d97337cc5ca8b613bba8cb25d3fc4941b3e9f994599864e8ee6ac0812b3f6c"}, text(Direct4))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/direct/prompt_5/utils.py", Function: "doc_to_text",
		SHA256: "89a19e6cc614a61af288a658edbcc86f0c82d2af5979143d8e81655501675cab"}, text(Direct5))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/translate/prompt_3/utils.py", Function: "doc_to_text",
		SHA256: "b3c6e82ec6dce8335f153d5e9387a161e4712b64353b58e9dda0e29531906e55"}, text(Translate3))
	task.RegisterDocFunc(task.Helper{File: "afrimmlu/translate/prompt_5/utils.py", Function: "doc_to_text",
		SHA256: "86b60bc6df1d8559e99e433101a511e4c1dd70043507779c7c99c3cbafacb6d5"}, text(Translate5))
}
