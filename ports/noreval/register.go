package noreval

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/f1score"
	"github.com/lmeval/lmeval/ports/truthfulqa"
)

type promptPort struct {
	file, fn, sha string
	p             Prompt
}

// prompts are the p<N>_<lang> functions of nortruthfulqa's multiple choice
// and nrk_quiz_qa (p0 is one source in both, registered once).
var prompts = []promptPort{
	{"noreval/nortruthfulqa/multiple_choice/nob/utils.py", "p0_nb", "adb9dd1b9086c2e509143b027649f39411599012667121aa21cee892a618858b",
		Prompt{"Spørsmål: {question}\n\nSvar:", noChoices}},
	{"noreval/nortruthfulqa/multiple_choice/nob/utils.py", "p1_nb", "2117e88edc2de8fa8ab2ce5b3a706db8f9e83a614222bbf2c10760f49b3e5e40",
		Prompt{"Spørsmål: {question}\n\nSvaralternativer:{choices}\n\nSvar:", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nob/utils.py", "p2_nb", "ae19cfe79a0782c23b3316c602a2dc96d6c203f2738be4d089212d12e2dd0809",
		Prompt{"Spørsmål: {question}\n\nHvilke av følgende alternativer er riktig svar på spørsmålet?{choices}", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nob/utils.py", "p3_nb", "5425dca93c2b9135fc146a58f8adbe4e6816c49769d14249410fe00f14d96e78",
		Prompt{"Gitt følgende spørsmål, hvilket av de mulige svarene under er riktig?\nSpørsmål: {question}\n{choices}", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nob/utils.py", "p4_nb", "9c3edf1f2fe3a8e0256f0ce10a897bb529d96eb50af16b05b73933a0ebc7bcab",
		Prompt{"{question}\nVelg et av følgende mulige svar:{choices}\n\nSvar:", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nno/utils.py", "p0_nn", "fa47591bb372e14bc0204c3419c8f8e3c28c23212e1e9d6899680bd5ed89e7ed",
		Prompt{"Spørsmål: {question}\n\nSvar:", noChoices}},
	{"noreval/nortruthfulqa/multiple_choice/nno/utils.py", "p1_nn", "3054504ace6fc546403d3347d7f02120a7ceada3df514c9fba318612a6cb0d22",
		Prompt{"Spørsmål: {question}\n\nSvaralternativ:{choices}\n\nSvar:", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nno/utils.py", "p2_nn", "32bdef530476f1b8d739e80f920b4c8b3444ab1bce0234b9abf49bc827328c77",
		Prompt{"Spørsmål: {question}\n\nKva av følgande alternativ er rett svar på spørsmålet?{choices}", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nno/utils.py", "p3_nn", "a46c586c21ab0ffb1d4cb709e09208f661ea97195b3c918dfb6b2045c09d203d",
		Prompt{"Gitt følgande spørsmål, kva av dei moglege svara under er rett?\nSpørsmål: {question}\n{choices}", dashMC1}},
	{"noreval/nortruthfulqa/multiple_choice/nno/utils.py", "p4_nn", "32b6372807ad34df391353c5395e75a002a161a59a30cb48ea56dd244fff7250",
		Prompt{"{question}\nVel eit av følgande moglege svar:{choices}\n\nSvar:", dashMC1}},
	{"noreval/nrk_quiz_qa/nob/utils.py", "p1_nb", "c504ede1385f75e3a76147ae04918f202faf67ab5e4965fafb831f89c57b97e2",
		Prompt{"{question}\n\nSvaralternativer:{choices}\n\nHva er riktig svar?\n\nSvar:", dashText}},
	{"noreval/nrk_quiz_qa/nob/utils.py", "p2_nb", "6a4d8d8bfb87de5acdafa41406535766217653257971471fabf9cb84d176404c",
		Prompt{"{question}{choices}\n\nEr det riktige svaret {enumerated_choices}?\n\nSvar:", enumerated}},
	{"noreval/nrk_quiz_qa/nob/utils.py", "p3_nb", "ffbd070c9bcc63346b23d170edc4387524e71d12589221c334f3de201d871634",
		Prompt{"Spørsmål: {question}{choices}\n\nSvar:", labelled}},
	{"noreval/nrk_quiz_qa/nob/utils.py", "p4_nb", "8e046ba91019790c71e3a018d674fddadccc543a509c38c921bec71566e6acd8",
		Prompt{"{question}\nVelg riktig svar blant disse alternativene:{choices}\n\nSvar:", dashText}},
	{"noreval/nrk_quiz_qa/nno/utils.py", "p1_nn", "1e5a38473abccfeb81cc102261081931156126487487ac905ed660faaf7f8b1b",
		Prompt{"{question}\n\nSvaralternativer:{choices}\n\nKva er rett svar?\n\nSvar:", dashText}},
	{"noreval/nrk_quiz_qa/nno/utils.py", "p2_nn", "4c30c2c1496c3924f153cdc70eef10870f036d79547288c9e8aeb9c1d1360a07",
		Prompt{"{question}{choices}\n\nEr det rette svaret {enumerated_choices}?\n\nSvar:", enumerated}},
	{"noreval/nrk_quiz_qa/nno/utils.py", "p3_nn", "d285aa60e278733ca7d10a29c6eb12703b83f999a577bd739017089c334719ec",
		Prompt{"Spørsmål: {question}{choices}\n\nSvar:", labelled}},
	{"noreval/nrk_quiz_qa/nno/utils.py", "p4_nn", "b50af61354129d550846fa4fc2134ad8ca792b16506f107a555fa48cfba20afb",
		Prompt{"{question}\nVel rett svar blant desse alternativa:{choices}\n\nSvar:", dashText}},
}

// norquadPrompts are norquad/utils.py's p0..p4 f-strings.
var norquadPrompts = []struct{ sha, template string }{
	{"29678d9a1fcfa657aec2000c9f2c5203562c1a2253e768f8335512d27723426a", "Tittel: {title}\n\nTekst: {passage}\n\nSpørsmål: {question}\n\nSvar:"},
	{"c3a1dbc92c41df55b4312c1eb33e0aa9726af4338ed1b55f91b3b782c46c2e72", "Tittel: {title}\n\nTekst: {passage}\n\nGitt teksten over, hva er svaret på følgende spørsmål? \"{question}\"\n\nSvar:"},
	{"2b137ee6e4c85feb904568ddac22c111ccf0d586cce15633d19b3ad1b523f456", "Tittel: {title}\n\nTekst: {passage}\n\nSvar på følgende: {question}\n\nSvar:"},
	{"99e796aff1607a76fac27cef7dff0ca58100fe4c7f38a5f3a272fcd7188fed51", "Tittel: {title}\n\nTekst: {passage}\n\nHvordan kan man svare på spørsmålet \"{question}\", gitt teksten over?\n\nSvar:"},
	{"1732184e5ab3515adfc23d3084616f92ec7bd67b7d72ea3913429a4d7cdf3714", "Tittel: {title}\n\nTekst:{passage}\n\nGitt teksten over, besvar følgende spørsmål: \"{question}\"\n\nSvar:"},
}

func init() {

	for _, p := range prompts {
		pr := p.p
		task.RegisterDocFunc(task.Helper{File: p.file, Function: p.fn, SHA256: p.sha}, func(d task.Doc) (any, error) { return pr.Render(d) })
	}
	for i, p := range norquadPrompts {
		f := NorquadPrompt(p.template)
		task.RegisterDocFunc(task.Helper{File: "noreval/norquad/utils.py", Function: "p" + string(rune('0'+i)), SHA256: p.sha}, func(d task.Doc) (any, error) { return f(d) })
	}
	task.RegisterMapDocs(task.Helper{File: "noreval/norquad/utils.py", Function: "process_docs", SHA256: "00c41a097506ca1a985d4207bcc7a07a66b2e543b26ae3da26d26119dafd9de7"}, task.MapDocs{Fn: NorquadProcessDocs, Columns: NorquadColumns})
	task.RegisterProcessResults(task.Helper{File: "noreval/norquad/utils.py", Function: "process_results", SHA256: "0526e4815c9b5204f4eb5096cc65889431e31a6e5bc0a0a1053549728f766dde"}, NorquadProcessResults)
	// preds, golds = zip(*items) names them backwards, but the macro F1 of
	// f1_score(y_true, y_pred) is symmetric in its two arguments.
	task.RegisterAggregation(task.Helper{File: "noreval/norec/utils.py", Function: "multi_f1", SHA256: "876bd5d799170b95c809eba63d08f822cc5eaad69f72faf102a646cbf0b69552"}, f1score.Macro)
	task.RegisterProcessDocs(task.Helper{File: "noreval/noropenbookqa/utils.py", Function: "filter_dataset", SHA256: "66be315126477407e8b0398eb479fd513571ecf9cd54c11f63a47e48264602bd"}, FilterFact)
	// noridiom's YAML names these lm_eval.tasks.noreval.noridiom.utils.*,
	// a module path the helper table does not follow: registered unchecked.
	task.RegisterProcessResults(task.Helper{File: "noreval/noridiom/utils.py", Function: "process_results", SHA256: "0fa8da71396b3198318571d8c6bcd407c5fae723af512f6004c3b86d389258ea"}, IdiomProcessResults)
	task.RegisterProcessDocs(task.Helper{File: "noreval/noridiom/utils.py", Function: "filter_dataset_nb", SHA256: "2a3a3a6b25ecf82f882a62a4700e2212c0e974f3589888d463d348620dba1b68"}, FilterLanguage("nob"))
	task.RegisterProcessDocs(task.Helper{File: "noreval/noridiom/utils.py", Function: "filter_dataset_nn", SHA256: "a4a67c0e19a7d18dd2897198216f4642f43522991d44154be88e14480b3d89b7"}, FilterLanguage("nno"))
	task.RegisterMapDocs(task.Helper{File: "noreval/nortruthfulqa/generation/utils.py", Function: "process_docs", SHA256: "14cbb8b84ee5066e2b97ecc168445ac2315750f4aed75d18bcf4480f61a4281d"}, task.MapDocs{Fn: GenProcessDocs, Columns: GenColumns})
	task.RegisterUnavailable(task.Helper{File: "noreval/norsumm/utils.py", Function: "process_results", SHA256: "1bcf94d84f194fa2d952bde177504846bc5726b2581e254f936869b6390745d1"}, "it scores with BERTScore, a BERT model (bert-base-multilingual-cased) run through Hugging Face evaluate, which lmeval does not reimplement")
	// The same BLEU (sacrebleu, intl) and ROUGE (rouge_score) scores as
	// truthfulqa's process_results_gen.
	task.RegisterProcessResults(task.Helper{File: "noreval/nortruthfulqa/generation/utils.py", Function: "process_results", SHA256: "19da5b4bbba8d53f2723e4724cc704c9f58d02642a9d71733f9a8d225f294429"}, truthfulqa.ProcessResultsGen)
}
