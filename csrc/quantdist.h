/*
 * quantdist.h: quantizing a GGUF and comparing next-token distributions,
 * the native parts of lmeval's quantization sweeps (see docs/sweep.md):
 * quantizing a GGUF through llama_model_quantize, and
 * per-position next-token statistics over the logits rows of the last
 * lm_decode, computed here so that only a few numbers per position cross
 * into Go.
 */
#ifndef LMEVAL_QUANTDIST_H
#define LMEVAL_QUANTDIST_H

#include "lmeval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An importance matrix: n entries, entry i named names[i] with len[i]
 * floats at data + off[i]. */
typedef struct lm_imatrix {
	int32_t n;
	const char *const *names;
	const float *data;
	const int64_t *off;
	const int64_t *len;
} lm_imatrix;

typedef struct lm_quant_params {
	int32_t ftype; /* llama_ftype */
	int32_t n_threads;
	int32_t allow_requantize;
	int32_t pure;
	const lm_imatrix *imatrix; /* NULL: none */
} lm_quant_params;

/* lm_quantize writes in quantized to out. Returns 0, or non-zero when
 * llama.cpp refuses (its reason goes to the log). */
int32_t lm_quantize(const char *in, const char *out, const lm_quant_params *p);

/* lm_dist_topk summarises the next-token distribution of batch rows
 * rows[0..n) of the last lm_decode (n_vocab entries each), on up to
 * n_threads threads. For item j:
 *   out_lp[j]      log p(targets[j]), in double from the full row;
 *   out_argmax[j]  the first maximum;
 *   out_ids[j*k..], out_lps[j*k..]  the k most probable tokens and their
 *                  log-probs, most probable first (ties: lower id first),
 *                  padded with id -1 and -inf when k > n_vocab;
 *   out_tail[j]    log of the probability of every other token, summed
 *                  over those tokens (-inf when there are none).
 * Returns 0, or -1 on a bad row or target. */
int32_t lm_dist_topk(lm_model *m, int32_t n_vocab, int32_t n_threads, int32_t n, const int32_t *rows,
                     const int32_t *targets, int32_t k, double *out_lp, int32_t *out_argmax, int32_t *out_ids,
                     double *out_lps, double *out_tail);

/* lm_dist_compare compares the rows with a base model's summaries (as
 * lm_dist_topk wrote them, k per item). For item j it writes the model's
 * out_lp and out_argmax as above, and bounds on KL(base || model) at that
 * position: the sum over the base's top-k set is exact; the rest, whose
 * individual base probabilities are unknown, lies in [out_kld_lo,
 * out_kld_hi] (see docs/sweep.md for the derivation). Returns 0 or -1. */
int32_t lm_dist_compare(lm_model *m, int32_t n_vocab, int32_t n_threads, int32_t n, const int32_t *rows,
                        const int32_t *targets, int32_t k, const int32_t *base_ids, const double *base_lps,
                        const double *base_tail, double *out_lp, int32_t *out_argmax, double *out_kld_lo, double *out_kld_hi);

/* lm_kld_tail_bounds is the bound on the tail term alone, exposed for
 * tests: base tail mass exp(log_pt) whose entries are each at most
 * exp(log_cap), against model log-probs lq[0..n) of the same tokens
 * (scratch: reordered). */
void lm_kld_tail_bounds(double log_pt, double log_cap, double *lq, int32_t n, double *lo, double *hi);

#ifdef __cplusplus
}
#endif

#endif
