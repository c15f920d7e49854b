// Code generated from latex2sympy2_extended 1.11.0 math_normalization.py; DO NOT EDIT.

package minerva_math

const mvUnitsPattern = "(\\d|\\}|\\s)\\s*(?:(?:integerpoint|feet|sue|digit|pound|meal|edge|student|children ticket|multiple|east|degree|mph|kmph|ft|m square| m east|sq m|deg|mile|q .|monkey|prime|ratio|profit of rs|rd|o|gm|p . m|lb|tile|per|dm|lt|gain|ab|way|west|a .|b .|c .|d .|e .|f .|g .|h .|t|h|no change|men|soldier|pie|bc|excess|st|inches|noon|cent|by|gal|kmh|c|acre|rise|a . m|th|π r 2|sq|mark|l|toy|coin|sq . m|gallon|° f|profit|minw|yr|women|am|pm|hr|cu cm|square|v â € ™|are|rupee|rounds|cubic|cc|mtr|s|ohm|number|kmph|day|hour|minute|min|second|man|woman|sec|cube|mt|sq inch|mp|∏ cm ³|hectare|more|sec|unit|cu . m|cm 2|rs .|rs|kg|g|month|km|m|cm|mm|apple|liter|loss|yard|pure|year|increase|decrease|d|less|Surface|litre|pi sq m|s .|metre|meter|inch)(?:s|es)?)\\s*$"
const mvReplacePattern = "(?P<math>\\\\math(?:rm|it|bf))|(?P<text>\\\\text(?:normal|bf|it|rm))|(?P<frac>\\\\(?:d|t|c)frac)|(?P<decimal_space>\\s\\.)|(?P<decimal_brace>\\{\\.)|(?P<approx>\\~\\=)|(?P<comma>\\s*\\{\\s*,\\s*\\})|(?P<and_or>(?<![a-zA-Z])(,?\\s*(?:and|or))(?![a-zA-Z]))|(?P<and_or_text>(,?\\s*\\\\text{\\s*(?:and|or)\\s*}))|(?P<backslash_space>(?<!\\\\)\\\\\\s)|(?P<infinity>infinity)|(?P<dot>,?(\\\\ldots))|(?P<percentage>\\s*\\bpercentage\\b)|(?P<percentage_in_text>\\\\text{percentage})|(?P<percent>\\s*\\bpercent\\b)|(?P<percent_in_text>\\\\text{percent})|(?P<pct>\\s*\\bpct\\b)|(?P<pct_in_text>\\\\text{pct})|(?P<inf>((?<!\\\\)inf(?!inity)))|(?P<sqrt> sqrt)"

var mvReplacements = map[string]string{
	"math":               "\\text",
	"text":               "\\text",
	"frac":               "\\frac",
	"decimal_space":      " 0.",
	"decimal_brace":      "{0.",
	"approx":             "\\approx",
	"comma":              ",",
	"and_or":             ",",
	"and_or_text":        ",",
	"backslash_space":    " ",
	"infinity":           "\\infty",
	"dot":                " ",
	"percentage":         "\\%",
	"percentage_in_text": "%",
	"percent":            "\\%",
	"percent_in_text":    "%",
	"pct":                "\\%",
	"pct_in_text":        "%",
	"inf":                "\\infty",
	"sqrt":               "\\sqrt",
}

const mvToRemovePattern = "\\\\mathrm\\{th\\}|\\\\!\\s*|\\\\text\\s*\\{\\s*\\}|\\\\text\\s*\\{\\s*\\}|\\\\\\$|\\$|(?<!\\\\)[\\\"\\']|\\\\displaystyle"
const mvLeftPattern = "\\\\m?left(\\\\\\{|\\{|\\\\\\||\\||\\[|\\(|\\\\rbracl|\\\\lgroup|\\\\lbrace|\\\\lbrack|\\\\vert|\\\\lvert|\\\\lceil|\\\\lfloor|\\\\vert|\\\\lvert|\\\\langle|\\\\llcorner|\\\\ulcorner)"
const mvRightPattern = "\\\\m?right(\\\\\\}|\\}|\\\\\\||\\||\\]|\\)|\\\\rbrack|\\\\rgroup|\\\\rbrace|\\\\rbrack|\\\\vert|\\\\rvert|\\\\rceil|\\\\rfloor|\\\\vert|\\\\rvert|\\\\rangle|\\\\lrcorner|\\\\urcorner)"
const mvPermutationPattern = "\\(([a-zA-Z0-9+\\-*/\\\\ ]+?)\\)_{([a-zA-Z0-9+\\-*/\\\\ ]+?)}"
const mvUnitSuperscriptPattern = "(\\\\(?:text|mbox){.*?})(\\^\\d|\\{\\^\\d\\})?$"
