package scrolls

import "github.com/lmeval/lmeval/harness/task"

// sha256 of each class's source in lm-eval's scrolls/task.py.
var sources = map[string]string{
	"ContractNLI":  "dbf06715af98443c2d9907d728a02d1aa9fd4d279ccfe9b944d517b6168413de",
	"GovReport":    "dd1f9d8c58a1d59f685bd986df9e940953082745e6eb5cf6e42ed041fa0f14c4",
	"NarrativeQA":  "cd15e36194b77c5e2a7829dd4275f2ac58a794f3ebba7df75ab77635d0aa9b77",
	"QMSum":        "766ce2d96e58a28bb26ddcaedc1cbed5201c7c0576a03152d819d8a31a520e82",
	"Qasper":       "0bcc056f831fba193ff642b46b03fb602be63166df68fca8faddb5a07912eed3",
	"QuALITY":      "6cdd19867490785ead5b04b09b878aefb13285bf30685787a305e7e99b2886bc",
	"SummScreenFD": "fc74c6802bfbe651a98266659c7952dc9600efebe24bae97c455ca31e64aad13",
}

func init() {
	for _, k := range kinds {
		task.RegisterClass(k.class(sources[k.name]))
	}
}
