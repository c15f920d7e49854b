package darija_bench

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	const (
		sent  = "darija_bench/darija_sentiment/utils.py"
		summ  = "darija_bench/darija_summarization/utils.py"
		trans = "darija_bench/darija_translation/utils.py"
		lit   = "darija_bench/darija_transliteration/utils.py"
	)
	items := metrics.DocFunc(Items)
	task.RegisterDocFunc(task.Helper{File: sent, Function: "doc_to_text", SHA256: "7202233483355a49b4d216724909505eb0496d4419e7294c2240493229601636"}, func(d task.Doc) (any, error) { return SentimentText(d) })
	task.RegisterDocFunc(task.Helper{File: sent, Function: "doc_to_target", SHA256: "a1817e20c77e31a5c81dda3e8678a12cbd539f87b7fd284d565751d2cb3914d2"}, SentimentTarget)
	task.RegisterDocFunc(task.Helper{File: sent, Function: "doc_to_choice_3", SHA256: "8423933385874f7d41a7c99b72e388c540625e6259d08f3ef5ac31007ce847f3"}, func(task.Doc) (any, error) { return append([]any(nil), sentimentAlpha...), nil })
	task.RegisterDocFunc(task.Helper{File: sent, Function: "doc_to_choice_2", SHA256: "a001c9bb591933e26951e3dd0ea0a05e099055824b9924fe8dae5abefb561540"}, func(task.Doc) (any, error) { return append([]any(nil), sentimentAlpha[:2]...), nil })
	// summarization's (translation's and transliteration's are the
	// same: strip, doc_to_target, bert, darijabert)
	task.RegisterFilterFunc(task.Helper{File: summ, Function: "strip", SHA256: "5f919ccf05cf41d94e70973add5fd94b8ba6ae35fccba2c5ac1d4d97275a77af"}, Strip)
	task.RegisterDocFunc(task.Helper{File: summ, Function: "doc_to_text", SHA256: "9543eda335553c46c26609d1bb017fa1d27aa1909a339c618c8cea2df8aa68f4"}, func(d task.Doc) (any, error) { return SummarizationText(d) })
	task.RegisterDocFunc(task.Helper{File: summ, Function: "doc_to_target", SHA256: "895ef150360d9279e944293d76f71f21d1ab9cbb3e7bf763e7fdf15cab621033"}, func(d task.Doc) (any, error) { return DocToTarget(d) })
	task.RegisterDocMetric(task.Helper{File: summ, Function: "bert", SHA256: "cf77de794ea4a5766f141ed969bd0a91cdd1c597ada04d471abdd1d557f82596"}, items)
	task.RegisterDocMetric(task.Helper{File: summ, Function: "rouge1", SHA256: "18906461e95d5f2680d5a0a2f369778aa9ce3cad5a401db2b3baf984fea3a1c9"}, items)
	// rouge2's source is also japanese_leaderboard's rouge2, whose
	// port serves it.
	task.RegisterDocMetric(task.Helper{File: summ, Function: "rougeL", SHA256: "6804a8e459b40ea13db5457ec4004b06f8b3adec21a56cd903fd2fb9d846ebf6"}, items)
	task.RegisterDocMetric(task.Helper{File: summ, Function: "rougeLsum", SHA256: "f97459112d914f90b533498e7303d52bb0fac5411e8184ba9d24822433e3e463"}, items)
	task.RegisterUnavailable(task.Helper{File: summ, Function: "agg_rouge1", SHA256: "44f09b1536ce35434361ad4a2ac02b64ccc3fe18d6648429fdb013cc487857c2"}, rouge)
	task.RegisterUnavailable(task.Helper{File: summ, Function: "agg_rouge2", SHA256: "721127cf2bbf3439620a20f6190acd097a542bfd85da21fcd0d0c3aa23b3460d"}, rouge)
	task.RegisterUnavailable(task.Helper{File: summ, Function: "agg_rougel", SHA256: "8513dbf28d98ed7e94e9c1272510080d6340c22299eba88693ab94aafdb54d38"}, rouge)
	task.RegisterUnavailable(task.Helper{File: summ, Function: "agg_rougelsum", SHA256: "1d488b80af6e8333927127fcc1617545b35401d642a7d7e364d94f188343a79c"}, rouge)
	task.RegisterUnavailable(task.Helper{File: summ, Function: "darijabert", SHA256: "94b9ec78e419c24a93594e1432e33d0414746cdf0c230a5f7fcd3afc9bc2680f"}, bertScore("SI2M-Lab/DarijaBERT"))
	// translation's (doc_to_text and mbert are also transliteration's)
	task.RegisterDocFunc(task.Helper{File: trans, Function: "doc_to_text", SHA256: "e8291275887c15860dafdbb6439bce9db48f01ef47ef9c106882261b373effbc"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterUnavailable(task.Helper{File: trans, Function: "camembert", SHA256: "fafeabebdf270df255f1621056f8654b8e1c5748de8fe967cb54a2c0f80cea91"}, bertScore("almanach/camembert-base"))
	task.RegisterUnavailable(task.Helper{File: trans, Function: "arabert", SHA256: "4359212a0b633397bf71dc12b9ed33012a142c639d57cd29e03e3713d9b62d5d"}, bertScore("aubmindlab/bert-base-arabert"))
	task.RegisterUnavailable(task.Helper{File: trans, Function: "bertbase", SHA256: "0f2a0fcb8aac2ec4baaf1533a029a91f6a1d086ed141c4cd7f1dbbaff108f2a0"}, bertScore("google-bert/bert-base-uncased"))
	task.RegisterUnavailable(task.Helper{File: trans, Function: "mbert", SHA256: "0f8461aad2bcc99cb3fb58c152e1e84af4d33442b1bdf0d69ac1528e4320833b"}, bertScore("google-bert/bert-base-multilingual-cased"))
	task.RegisterUnavailable(task.Helper{File: lit, Function: "arabizibert", SHA256: "4c9ac7e516efd4d9e6ea2de6bc49d8762703cc151e70b14faa0e31eb7a47271e"}, bertScore("SI2M-Lab/DarijaBERT-arabizi"))
	for file, dirs := range map[string][]string{
		trans: {"dr_fr", "dr_en", "dr_msa", "fr_dr", "en_dr", "msa_dr"},
		lit:   {"dr_ar", "ar_dr"},
	} {
		for _, d := range dirs {
			task.RegisterProcessDocs(task.Helper{File: file, Function: d, SHA256: directionSHA[d]}, Direction(d))
		}
	}
}

// directionSHA is the sha256 of each direction filter's source.
var directionSHA = map[string]string{
	"dr_fr":  "cddc9aaa97adbd9f203c0d549d29a12010ff190a596d8a404f15c430da9a5be5",
	"dr_en":  "ba8a69433f5f3838b0c4076adafe3a6d3c6282a88117b326fb3ec4cad066c91b",
	"dr_msa": "4d88a766ca496aa5eddbdcfe06ee5f0598f54c119c7102b4ab817eeb0a520ec8",
	"fr_dr":  "9f00af5b3cb71bd75de1ae56261825b402ae27cfd8b0377ac936361a32e10972",
	"en_dr":  "2b41d4aaccae23e1615ca2f31425d5a26eb31330ddd59cf42fb42f7f1fb8e032",
	"msa_dr": "1d4762f16ed796a98c06ad0d2b2bea4d63d019b1465e549065c23f9698ae2913",
	"dr_ar":  "559468757b7373eef97787825b09a59549e50542a49b69ac8b21a809e28c803f",
	"ar_dr":  "37b72045266cdcb5323e54c3011d176d462554042564d84928249c08f34a1a54",
}
