"""Model of Google's rouge_score 0.1.2 (not packaged by Debian), the one
stand-in the fidelity generator and the ports' vector generators share:
tokenize.tokenize (the default tokenizer, NLTK's PorterStemmer when
use_stemmer), rouge_scorer.RougeScorer (rougeN, rougeL, rougeLsum with
sentences split at newlines) and scoring.BootstrapAggregator (1000
resamples of the mean through numpy's global np.random.choice, the
np.percentile mid). It was ports/internal/vectors/pystubs' and
fidelity/testdata/infinitebench/pystubs' (which added the stemmer);
fidelity/pystubs had one that only let truthfulqa/utils.py import."""
