package bbh

import "github.com/lmeval/lmeval/harness/task"

// bbh/cot_zeroshot/utils.py is the same file as bbh/zeroshot/utils.py, so
// these registrations serve both (docs/helpers.md).
func init() {
	task.RegisterFilter(task.Helper{File: "bbh/zeroshot/utils.py", Function: "MultiChoiceRegexFilter",
		SHA256: "556bfd63abb642063c4626a7b5243e66e48734e8dcd1782b721fb9266315c143"}, NewMultiChoiceRegex)
	task.RegisterFilter(task.Helper{File: "bbh/zeroshot/utils.py", Function: "WordSortFilter",
		SHA256: "7d735bdf06b010b76df9a57510344abb9666a8b2cc106b7ec9ee70da17b2f5a6"}, NewWordSort)
	task.RegisterFilter(task.Helper{File: "bbh/zeroshot/utils.py", Function: "MapRegexFilter",
		SHA256: "3c0715dfe077408dcc0e5b16ed32958b0595d3cc8748285e1668cc7bd654f922"}, NewMapRegex)
	task.RegisterFilter(task.Helper{File: "bbh/zeroshot/utils.py", Function: "NumberParseRegexFilter",
		SHA256: "e2118f69318d3f779f4e94523e92c064d035867fc9689905094e92823e0360f0"}, NewNumberParse)
}
