package language

import (
	"fmt"
	"path"
)

// table gives languages to the tasks and groups whose files name none
// (no code, no language name, no README language for their folder), and
// corrects the few whose files mislead the rules. Each row: a shell
// pattern over names (path.Match), the languages ("" for a task with no
// one language: multilingual, a programming language, a constructed
// one), and why. The first matching row wins; the table is checked
// before everything else.
var table = []tableRow{
	// Corrections: what the files say is not the task's language.
	{"cnn_dailymail*", "eng", "lm-eval's README lists it as Chinese; CNN/DailyMail is English news"},
	{"cabbq_spanish_region", "cat", "a BBQ category of the Catalan BBQ, not the language"},
	{"pisa_ch*", "zho", "PISA-Bench's ch split is Chinese, not Chamorro"},
	{"xwinograd_jp", "jpn", "jp is XWinograd's name for Japanese (ISO: ja)"},
	{"infinitebench_*_chn", "zho", "chn is InfiniteBench's name for Chinese (ISO 639-3 chn is Chinook jargon)"},
	{"AraDiCE_*_egy", "arz", "AraDiCE's egy is Egyptian Arabic (ISO 639-3 egy is Ancient Egyptian)"},
	{"AraDiCE_*_lev", "apc", "AraDiCE's lev is Levantine Arabic"},
	{"AraDiCE_*_eng", "eng", "AraDiCE's English originals (dataset_name TruthfulQA-eng, ...)"},
	{"aclue_*", "lzh", "ACLUE is classical (literary) Chinese; its README says Ancient Chinese"},
	{"tmlu_*", "zho_Hant", "TMLU is Taiwanese: Traditional Chinese"},
	{"global_piqa_*_cls_*", "san", "cls (Classical Sanskrit) is newer than the ISO 639-3 table used"},
	{"xlsum_pidgin*", "pcm", "XL-Sum's pidgin is Nigerian Pidgin"},
	{"bigbench_multiemo*", "pol", "MultiEmo is Polish"},
	{"bigbench_parsinlu_*", "fas", "ParsiNLU is Persian"},
	{"bigbench_hinglish_toxicity*", "hin_Latn eng", "Hinglish: Hindi in Latin script mixed with English"},
	{"bigbench_conlang_translation*", "", "constructed languages"},
	{"bigbench_kanji_ascii*", "", "ASCII art of kanji"},
	{"bigbench_language_identification*", "", "many languages"},
	{"bigbench_which_wiki_edit*", "", "many languages"},
	{"bigbench_international_phonetic_alphabet_*", "", "IPA"},
	{"bigbench_gem*", "", "several languages"},
	{"bigbench_natural_instructions*", "", "several languages"},
	{"hrm8k_gsm8k", "kor", "HRM8K's Korean sets (the _en ones say English)"},
	{"hrm8k_ksm", "kor", ""},
	{"hrm8k_math", "kor", ""},
	{"hrm8k_mmmlu", "kor", ""},
	{"hrm8k_omni_math", "kor", ""},
	{"agieval_gaokao_english", "eng", "the English exam of the gaokao"},
	{"agieval_gaokao_*", "zho", "AGIEval's README: English, Chinese; the gaokao and JEC-QA are Chinese"},
	{"agieval_jec_qa_*", "zho", ""},
	{"agieval_aqua_rat", "eng", "AQuA-RAT, LSAT, SAT and MATH are English"},
	{"agieval_lsat_*", "eng", ""},
	{"agieval_sat_*", "eng", ""},
	{"agieval_math", "eng", ""},
	{"longbench_dureader", "zho", "LongBench's README: English, Chinese; DuReader, LSHT and VCSUM are Chinese"},
	{"longbench_lsht", "zho", ""},
	{"longbench_vcsum", "zho", ""},
	{"translation_dr_en_*", "ary eng", "DarijaBench translates Darija (dr) to and from English, French, MSA"},
	{"translation_en_dr_*", "eng ary", ""},
	{"translation_dr_fr_*", "ary fra", ""},
	{"translation_fr_dr_*", "fra ary", ""},
	{"translation_dr_msa_*", "ary ara", ""},
	{"translation_msa_dr_*", "ara ary", ""},
	{"phrases_va-es", "cat spa", "va is Valencian: Catalan in ISO 639"},
	{"phrases_es-va", "spa cat", ""},
	{"phrases_va-ca", "cat", ""},
	{"phrases_ca-va", "cat", ""},
}

// fallbacks give languages to what no rule and no README gives one: the
// English families whose README row names no language (or none usable).
// Unlike table, they are checked last.
var fallbacks = []tableRow{
	{"bigbench_*", "eng", "BIG-bench (README: Multiple): the rest are English"},
	{"bbh_*", "eng", "BIG-Bench Hard is English (its README row says English, German)"},
	{"longbench_*", "eng", "the other LongBench tasks are English"},
	{"infinitebench_*", "eng", "InfiniteBench's other tasks are English"},
	{"advanced_ai_risk_*", "eng", "Anthropic's model-written evaluations are English"},
	{"persona_*", "eng", ""},
	{"sycophancy_*", "eng", ""},
	{"winogenerated*", "eng", ""},
	{"mmmu_*", "eng", "MMMU (README: Image, Text) asks in English"},
	{"chartqa*", "eng", "ChartQA (README: Image, Text) asks in English"},
	{"arc_challenge_llama", "eng", "Llama 3's English evaluations (README: English, Multilingual)"},
	{"gsm8k_llama", "eng", ""},
	{"mmlu_llama*", "eng", ""},
	{"mmlu_cot_llama*", "eng", ""},
	{"mmlu_pro_llama*", "eng", ""},
	{"piqa_ar", "ara", "AlGhafa's Arabic PIQA and COPA"},
	{"copa_ar", "ara", ""},
	{"arab_culture_completion*", "ara", "ArabCulture's completion variant (README row: arab_culture, Arabic)"},
	{"csatqa*", "kor", "CSAT-QA is the Korean college entrance exam"},
	{"ru_entity_*", "rus", "NEREL-bench is Russian"},
	{"ru_relation_*", "rus", ""},
	{"noticia", "spa", "NoticIA is Spanish news"},
	{"careqa_open*", "eng", "its dataset is CareQA_en_open"},
	{"common_voice_en", "eng", ""},
	{"gsm8k_platinum*", "eng", "GSM8K-Platinum, GSM-Plus and the medical QA sets are English"},
	{"gsm_plus*", "eng", ""},
	{"medqa*", "eng", ""},
	{"medmcqa", "eng", ""},
	{"meqsum", "eng", ""},
	{"med_prescriptions*", "eng", ""},
	{"med_text_classification*", "eng", ""},
	{"realtoxicityprompts", "eng", ""},
	{"bear", "eng", "BEAR probes English relational knowledge"},
	{"bear_big", "eng", ""},
	{"graphwalks*", "eng", ""},
	{"logiqa", "eng", "lm-eval's LogiQA and LogiQA 2.0 tasks are the English sets"},
	{"logiqa2", "eng", ""},
	{"logieval", "eng", ""},
	{"noor_*", "eng", "e2lmc's tasks are English"},
	{"sciknoweval_*", "eng", ""},
	{"mmlu_early_training", "eng", ""},
}

type tableRow struct {
	pattern string
	langs   string // space-separated Lang strings
	why     string
}

// fromTable returns the languages rows give name; found is false when
// no row matches (a row with no languages matches: the task has none).
func fromTable(rows []tableRow, name string) (langs []Lang, found bool) {
	for _, row := range rows {
		if ok, _ := path.Match(row.pattern, name); ok {
			for _, s := range tokensSpace(row.langs) {
				l, err := Parse(s)
				if err != nil {
					panic(fmt.Sprintf("language table row %q: %v", row.pattern, err))
				}
				if l.Script == "" {
					if in, ok := LookupCode(l.Code); ok {
						l.Script = in.Script
					}
				}
				langs = addLang(langs, l)
			}
			return langs, true
		}
	}
	return nil, false
}

func tokensSpace(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}
