"""Model of rouge_score.scoring: Score, fmeasure, BootstrapAggregator."""
import collections

import numpy as np

Score = collections.namedtuple("Score", ["precision", "recall", "fmeasure"])
AggregateScore = collections.namedtuple("AggregateScore", ["low", "mid", "high"])


def fmeasure(precision, recall):
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


class BootstrapAggregator:
    def __init__(self, confidence_interval=0.95, n_samples=1000):
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self):
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            percentiles = self._bootstrap_resample(matrix)
            intervals = tuple(scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=intervals[0], mid=intervals[1], high=intervals[2])
        return result

    def _bootstrap_resample(self, matrix):
        sample_mean = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            sample_idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
            sample = matrix[sample_idx, :]
            sample_mean[i, :] = np.mean(sample, axis=0)
        width = 1 - self._confidence_interval
        percentiles = 100 * np.array([width / 2.0, 0.5, 1 - width / 2.0])
        return np.percentile(sample_mean, percentiles, axis=0)
