package longbench

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "longbench/metrics.py"
	for _, h := range []struct {
		fn, sha string
		port    task.ProcessResultsFunc
	}{
		{"get_qa_f1_with_score", "98f43ec55c8e3d9cf559a60a87c596bb843d40cf1b616f8e6a03d8982193fcf5", qaF1},
		{"get_rouge_with_score", "9a85e13ad0a6e7666274d8f7459d71f9cff40e0f3c7557627de46e9c15530a31", rouge},
		{"get_classification_with_score", "4224b20e657a60dfeb156a09623eb3d61bea98081b15f4c683bdf8b3ef9b19b9", classification},
		{"get_count_with_score", "9c4d578da6730547e9dba8734370fa69d2e8a5e63e588d595878a86174988472", count},
		{"get_retrieval_with_score", "0e9b56ec8d10ca5b3ac32e41647ef748d4f6f11bb11c7f8968d5a5ed457b91d9", retrieval},
		{"get_retrieval_zh_with_score", "cb106364dd179510c89535547e24059423e6550ef197a758b2e15ae31302c20c", retrievalZh},
		{"get_qa_f1_zh_with_score", "e33f1585daab344a283863cef97126dc6193b1b8329752526c0104abecae7ca6", qaF1Zh},
		{"get_rouge_zh_with_score", "e6457315f6e7919c06b14c9262e47e8e6e5440a26035334b9880d165cc4961b6", rougeZh},
		{"get_code_sim_with_score", "1622483032a07a48fa4396cee00f813a98ad7df3ecb8c5a87613739cb569714f", codeSim},
	} {
		task.RegisterProcessResults(task.Helper{File: file, Function: h.fn, SHA256: h.sha}, h.port)
	}
}
