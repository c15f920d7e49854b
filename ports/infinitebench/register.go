package infinitebench

import "github.com/lmeval/lmeval/harness/task"

func doc(f func(task.Doc) (string, error)) task.DocFunc {
	return func(d task.Doc) (any, error) { return f(d) }
}

func init() {
	const file = "infinitebench/utils.py"
	for _, h := range []struct {
		fn, sha string
		port    task.DocFunc
	}{
		{"doc_to_text_code_run", "920e3922a5617c0debdf59cb202cd836c826d0dc9aa2520923e33d32ea75970a", doc(DocToTextCodeRun)},
		{"doc_to_text_code_debug", "10a5000e8d005c9866421f7583e08d58b7f1dea234b86eedcc980fe41f71473f", doc(DocToTextCodeDebug)},
		{"doc_to_text_longbook_choice", "6bcae407f1677f591e447ecba9348257c63d32baa29aa0e2556fab64c8b5c56c", doc(DocToTextLongbookChoice)},
		{"doc_to_text_longdialogue", "788d7fd6726526cde251a0b593c11e0b5fa0456e74a0de8194ad28de6805933d", doc(DocToTextLongdialogue)},
		{"doc_to_text_math_find", "a3372e7c10d86927150a342ed481c1ab3910d67a13928f824cd39b41e165c72a", doc(DocToTextMathFind)},
	} {
		task.RegisterDocFunc(task.Helper{File: file, Function: h.fn, SHA256: h.sha}, h.port)
	}
	for _, h := range []struct {
		fn, sha string
		port    task.ProcessResultsFunc
	}{
		{"process_results", "e3057433678e4a87e990f31981d694d51a8a087c2c8a8a6b2f57ce5a5922d4e5", withAnswers(Substring)},
		{"process_results_kv", "f81e197aa8b41c61418d86607b8083eeae844e385d27a23a2b72e7d9506fe94b", withAnswers(KV)},
		{"process_results_int_match", "b4d57b91b1d4dcc33a4eede1f8213b22bc37027a8926e67d1bdb600eff337acf", withAnswers(IntMatch)},
		{"process_results_math", "1154fa5a9fe2a6ac21682725aec73490e1255662a731db0c99f4ef5463c7026e", withAnswers(Math)},
		{"process_results_choice", "03a7f4c3934be6e69945a2c106e8a7b6cda4dd7056c7c236626d04bf03f4dd71", Choice},
		{"process_results_code_debug", "cc850cda3e27858d22212c70a07fcf2fa29bc655f2ac08bf9bccc6b3a34511d1", CodeDebug},
		{"process_results_code_run", "e098e3306bf3eddbb726e84f58a4ea5281ae486311b461e087827e85197aef10", withAnswers(CodeRun)},
		{"process_results_qa_en", "4045454340890d917904f9bb2afee28c69cd4e04331c53c1dc6737e64e9e174d", QA(false)},
		{"process_results_qa_chn", "13ec6f4d956256f75592afafe07c6c2692aec527357c176a7f35ad22d541c59b", QA(true)},
		{"process_results_rouge", "33d8934fa97ae1196987cb85eccd3d7b0870cb1704aca37214133fb36d190cb5", Rouge},
	} {
		task.RegisterProcessResults(task.Helper{File: file, Function: h.fn, SHA256: h.sha}, h.port)
	}
}
