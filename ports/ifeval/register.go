package ifeval

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

// The lm-eval functions and classes this package reproduces, with the
// sha256 of their source (testdata/gen_sha.py, at lm-eval commit
// 4e7e0d47f33bc71070c1d38394bafbb52b117163).

// The helpers this package registers ports of.
var (
	srcProcessResults  = task.Helper{File: "ifeval/utils.py", Function: "process_results", SHA256: "d75ffe29548e774424e56c36113b963eda53bf27bd469340f55df5fe3f1fca57"}
	srcAggInstLevelAcc = task.Helper{File: "ifeval/utils.py", Function: "agg_inst_level_acc", SHA256: "63eba157502e1a0dacf5531e3de4a1449c943c2487f5c6c2241ca4a1ac20ffb5"}
)

// Hooks are the functions lm-eval's YAML names (`!function utils.…`), in
// ifeval/ and leaderboard/ifeval/, whose utils.py are identical (both import
// lm_eval.tasks.ifeval.instructions_registry, so leaderboard/ifeval's own
// instructions.py is never run).
var Hooks = []task.Helper{
	srcProcessResults,
	srcAggInstLevelAcc,
	{File: "leaderboard/ifeval/utils.py", Function: "process_results", SHA256: "d75ffe29548e774424e56c36113b963eda53bf27bd469340f55df5fe3f1fca57"},
	{File: "leaderboard/ifeval/utils.py", Function: "agg_inst_level_acc", SHA256: "63eba157502e1a0dacf5531e3de4a1449c943c2487f5c6c2241ca4a1ac20ffb5"},
}

// Dependencies are the Python the hooks call, ported here too.
var Dependencies = []task.Helper{
	{File: "ifeval/utils.py", Function: "test_instruction_following_strict", SHA256: "e2fdf4cf8b66e8915f8bffa89d71a7197a0097f5cbc1eb7633f050096410bab3"},
	{File: "ifeval/utils.py", Function: "test_instruction_following_loose", SHA256: "73b97f4c6cf5df9c002b45f4ae2123a3630df1b655279c2d6ffac939da71a1e5"},
	{File: "ifeval/instructions_util.py", Function: "count_words", SHA256: "655f81a942a94047c5691cf143bd308531277833660fc6b7c52ccb68855ee753"},
	{File: "ifeval/instructions_util.py", Function: "count_sentences", SHA256: "6c061b5af7390cbdd707ccd7c474833ac8371c075e6648f07c0bfc8e75b996a2"},
	{File: "ifeval/instructions.py", Function: "ResponseLanguageChecker", SHA256: "ab4967350d0c310aa14345d3e1d885bbdb5a7cdbecc0621fe4cd2ac8416fdb88"},
	{File: "ifeval/instructions.py", Function: "NumberOfSentences", SHA256: "b8cddd6a6016665ddc529b547c6c2f84df05e74fa1f43365dddd9c95e86620ef"},
	{File: "ifeval/instructions.py", Function: "PlaceholderChecker", SHA256: "06c7a604d70e58cca2f6fd41704bcf2c97ac9b76b60728d64075d0ff106ea2f4"},
	{File: "ifeval/instructions.py", Function: "BulletListChecker", SHA256: "4325d47b1a04a2516aeaa677841cfc0bef3d916287deb90a604b068013b07d39"},
	{File: "ifeval/instructions.py", Function: "ConstrainedResponseChecker", SHA256: "419b11b8524a070ee3a89847c82cfda7b0e98e3feacd72d57eac083e7b61593d"},
	{File: "ifeval/instructions.py", Function: "HighlightSectionChecker", SHA256: "69eeb4a04bd0d8582da2ceee00471153aeaa99d0a6ee42b73bb185ca236ff431"},
	{File: "ifeval/instructions.py", Function: "SectionChecker", SHA256: "9a25d5be3b67bc78c82177760ad047092d5d1e7f48efe57bd7957eab8b85468b"},
	{File: "ifeval/instructions.py", Function: "ParagraphChecker", SHA256: "13738c73763036915d79ee66bfb271cb48f65230f4877a19f1a788a1ffaa4f6a"},
	{File: "ifeval/instructions.py", Function: "PostscriptChecker", SHA256: "d15e500a4fc51e03c4480ba7274f2042f78db351346eb5f8a06a3330629e547b"},
	{File: "ifeval/instructions.py", Function: "KeywordChecker", SHA256: "3d530e6c8a9f4db0278135f3fb2a3a61c81815e2cd801e4230e84a55fff50389"},
	{File: "ifeval/instructions.py", Function: "KeywordFrequencyChecker", SHA256: "5074f6c569753d86763cd09a15251e8f46f9232f2ab834c62adcca92c125fe71"},
	{File: "ifeval/instructions.py", Function: "NumberOfWords", SHA256: "115e073d70cb6559443acdd2febcfce8b8185e17033bec48e682bf182a046db2"},
	{File: "ifeval/instructions.py", Function: "JsonFormat", SHA256: "7eea9b0e5666de24554fb80d65d242eae8aaebe338864ade70020256ec0e348a"},
	{File: "ifeval/instructions.py", Function: "ParagraphFirstWordCheck", SHA256: "6ccd0ebc308aaf5c0f303e3150b739e312df59cbad802704539c686a8ed86dba"},
	{File: "ifeval/instructions.py", Function: "ForbiddenWords", SHA256: "12b5e0070b8685c7c7078ab59079b1baeb90fb61767352ad725dc6eb3f68f9d7"},
	{File: "ifeval/instructions.py", Function: "TwoResponsesChecker", SHA256: "2dc5a76c4ceeb5626bd453ec4bcbd2c313d978bea7d52afc881a6b65052cfb7a"},
	{File: "ifeval/instructions.py", Function: "RepeatPromptThenAnswer", SHA256: "ffcb9fd809b16d5a64d3f7d6b483476f2852a4d71cc1ead23820076e206edb36"},
	{File: "ifeval/instructions.py", Function: "EndChecker", SHA256: "ccff21ba13437dde501947b12de1ac254aefdb932741cd4726dc9e4ea2918d0b"},
	{File: "ifeval/instructions.py", Function: "TitleChecker", SHA256: "f88b1097f39a0d643f601c039ec504acd812ac7fe01252ce2230aaaab91db5ac"},
	{File: "ifeval/instructions.py", Function: "LetterFrequencyChecker", SHA256: "bf57fff1595132fff0122c4a7c3ed66fd381e241d54c8d1ace0a8587060c8735"},
	{File: "ifeval/instructions.py", Function: "CapitalLettersEnglishChecker", SHA256: "3042b9d6331f462063d3d021e2da5c4039e7a69c902cf00161ffed68820481a9"},
	{File: "ifeval/instructions.py", Function: "LowercaseLettersEnglishChecker", SHA256: "7358d0f9d1cf45e74ddf54b5624c6d61da5d76a87810ba2f7beeeadf1465e646"},
	{File: "ifeval/instructions.py", Function: "CommaChecker", SHA256: "ca3a3e60a5286444e85c3024252f15b39ca4050746ff13502bdf5051329efd4d"},
	{File: "ifeval/instructions.py", Function: "CapitalWordFrequencyChecker", SHA256: "2419767ab8fc3e4bf93362e00e4000df8a87710a2ce1932763d210fceeacc35f"},
	{File: "ifeval/instructions.py", Function: "QuotationChecker", SHA256: "ee3fd2729d5b9a771f15491c3712cee34d6fe7d3773c64905bbd6c3bf0d4aeb3"},
}

// instLevelAcc is agg_inst_level_acc as a named aggregation; the YAML's
// `aggregation: !function utils.agg_inst_level_acc` resolves to it. It has
// no standard error (lm-eval gives N/A for a custom aggregation).
var instLevelAcc = &metrics.Aggregation{Name: "ifeval/utils.py:agg_inst_level_acc", Fn: AggInstLevelAcc}

func init() {
	metrics.RegisterAggregation(instLevelAcc)
	// leaderboard/ifeval/utils.py has the same sources (and ifeval/multilingual's
	// agg_inst_level_acc too): these registrations serve them all.
	task.RegisterProcessResults(srcProcessResults, ProcessResults)
	task.RegisterAggregation(srcAggInstLevelAcc, instLevelAcc)
}
