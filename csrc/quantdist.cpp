// quantdist.cpp: quantization and per-position distribution statistics for
// lmeval's sweeps. See quantdist.h for the contract and docs/sweep.md for the
// KL-divergence bound.

#include "quantdist.h"

#include "llama.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

int32_t lm_quantize(const char *in, const char *out, const lm_quant_params *p) {
	llama_model_quantize_params qp = llama_model_quantize_default_params();
	qp.ftype = (enum llama_ftype)p->ftype;
	qp.nthread = p->n_threads;
	qp.allow_requantize = p->allow_requantize != 0;
	qp.pure = p->pure != 0;
	// llama.cpp reads the importance matrix as this map (see
	// llama-quant.cpp), through a void pointer.
	std::unordered_map<std::string, std::vector<float>> imatrix;
	if (p->imatrix != nullptr && p->imatrix->n > 0) {
		const lm_imatrix *im = p->imatrix;
		for (int32_t i = 0; i < im->n; i++) {
			const float *d = im->data + im->off[i];
			imatrix[im->names[i]] = std::vector<float>(d, d + im->len[i]);
		}
		qp.imatrix = &imatrix;
	}
	return (int32_t)llama_model_quantize(in, out, &qp);
}

namespace {

constexpr double NEG_INF = -std::numeric_limits<double>::infinity();

// row copies one logits row of the last decode into a reusable buffer.
struct row_buf {
	std::vector<float> x;
	std::vector<uint8_t> mark; // tokens of the base's top-k set
	std::vector<int32_t> idx;
	std::vector<double> lq;

	bool load(lm_model *m, int32_t n_vocab, int32_t row) {
		x.resize((size_t)n_vocab);
		return lm_logits(m, row, x.data(), n_vocab) == n_vocab;
	}
};

// max_lse returns the first argmax and the log normaliser in double.
void max_lse(const float *x, int32_t n, int32_t *amax, double *mx, double *lse) {
	float m = x[0];
	int32_t am = 0;
	for (int32_t i = 1; i < n; i++) {
		if (x[i] > m) {
			m = x[i];
			am = i;
		}
	}
	double s = 0.0;
	for (int32_t i = 0; i < n; i++) {
		s += exp((double)x[i] - (double)m);
	}
	*amax = am;
	*mx = (double)m;
	*lse = (double)m + log(s);
}

} // namespace

// topk_item summarises one row (see lm_dist_topk).
static bool topk_item(row_buf &rb, lm_model *m, int32_t n_vocab, int32_t row, int32_t target, int32_t k,
                      double *lp, int32_t *argmax, int32_t *ids, double *lps, double *tail) {
	if (target < 0 || target >= n_vocab || !rb.load(m, n_vocab, row)) {
		return false;
	}
	const float *x = rb.x.data();
	int32_t amax;
	double mx, lse;
	max_lse(x, n_vocab, &amax, &mx, &lse);
	*lp = (double)x[target] - lse;
	*argmax = amax;

	// Top k by one scan over a heap of the k best so far, ordered so that
	// its front is the worst of them: O(n_vocab) comparisons. Ties go to
	// the lower id, as the argmax.
	const int32_t kk = std::min(k, n_vocab);
	auto better = [x](int32_t a, int32_t b) { return x[a] > x[b] || (x[a] == x[b] && a < b); };
	std::vector<int32_t> &h = rb.idx;
	h.clear();
	for (int32_t i = 0; i < n_vocab; i++) {
		if ((int32_t)h.size() < kk) {
			h.push_back(i);
			std::push_heap(h.begin(), h.end(), better);
		} else if (better(i, h.front())) {
			std::pop_heap(h.begin(), h.end(), better);
			h.back() = i;
			std::push_heap(h.begin(), h.end(), better);
		}
	}
	std::sort_heap(h.begin(), h.end(), better);
	for (int32_t i = 0; i < k; i++) {
		ids[i] = i < kk ? h[i] : -1;
		lps[i] = i < kk ? (double)x[h[i]] - lse : NEG_INF;
	}
	// The tail's mass summed directly, not as 1 - sum(top-k): no
	// cancellation when the top k hold nearly everything.
	rb.mark.assign((size_t)n_vocab, 0);
	for (int32_t i = 0; i < kk; i++) {
		rb.mark[h[i]] = 1;
	}
	double s = 0.0;
	for (int32_t i = 0; i < n_vocab; i++) {
		if (!rb.mark[i]) {
			s += exp((double)x[i] - mx);
		}
	}
	*tail = s > 0 ? mx + log(s) - lse : NEG_INF;
	return true;
}

// parallel runs fn(rb, j) for j in [0, n) on up to n_threads threads, each
// with its own buffers, and reports whether every call succeeded.
template <typename F> static bool parallel(int32_t n, int32_t n_threads, F fn) {
	const int32_t nt = std::max(1, std::min(n_threads, n / 8));
	std::atomic<bool> ok{true};
	auto work = [&](int32_t t) {
		row_buf rb;
		for (int32_t j = t; j < n && ok.load(std::memory_order_relaxed); j += nt) {
			if (!fn(rb, j)) {
				ok = false;
			}
		}
	};
	std::vector<std::thread> ts;
	for (int32_t t = 1; t < nt; t++) {
		ts.emplace_back(work, t);
	}
	work(0);
	for (auto &t : ts) {
		t.join();
	}
	return ok;
}

int32_t lm_dist_topk(lm_model *m, int32_t n_vocab, int32_t n_threads, int32_t n, const int32_t *rows,
                     const int32_t *targets, int32_t k, double *out_lp, int32_t *out_argmax, int32_t *out_ids,
                     double *out_lps, double *out_tail) {
	bool ok = parallel(n, n_threads, [&](row_buf &rb, int32_t j) {
		return topk_item(rb, m, n_vocab, rows[j], targets[j], k, &out_lp[j], &out_argmax[j], out_ids + (size_t)j * k,
		                 out_lps + (size_t)j * k, &out_tail[j]);
	});
	return ok ? 0 : -1;
}

void lm_kld_tail_bounds(double log_pt, double log_cap, double *lq, int32_t n, double *lo, double *hi) {
	*lo = 0.0;
	*hi = 0.0;
	if (n <= 0 || std::isinf(log_pt) || log_pt < -745.0) {
		return;
	}
	// Lower: the minimum of the convex sum p log(p/q) over {0 <= p_i <=
	// cap, sum p_i = P}. Its KKT point is p_i = min(cap, c q_i) ("water
	// filling"); when no p_i reaches the cap that is p proportional to q,
	// and the minimum is the log-sum inequality's P log(P/Q).
	double mq = NEG_INF;
	for (int32_t i = 0; i < n; i++) {
		mq = std::max(mq, lq[i]);
	}
	double s = 0.0;
	for (int32_t i = 0; i < n; i++) {
		s += exp(lq[i] - mq);
	}
	const double log_qt = mq + log(s);
	const double pt = exp(log_pt);
	const double cap = exp(log_cap);
	if (log_pt - log_qt + mq <= log_cap) {
		*lo = pt * (log_pt - log_qt);
	} else {
		// Some tokens are capped: the largest q first. rest[j] is the sum
		// of q over the uncapped ones when j are capped, summed from the
		// smallest up so that it keeps its precision.
		std::sort(lq, lq + n, [](double a, double b) { return a > b; });
		std::vector<double> rest((size_t)n + 1, 0.0);
		for (int32_t i = n - 1; i >= 0; i--) {
			rest[i] = rest[i + 1] + exp(lq[i]);
		}
		double capped = 0.0; // sum of log q over the capped tokens
		int32_t j = 0;
		for (; j < n; j++) {
			const double pr = pt - (double)j * cap;
			if (pr <= 0 || rest[j] <= 0) {
				break;
			}
			const double c = pr / rest[j];
			if (c * exp(lq[j]) <= cap) {
				*lo = (double)j * cap * log_cap - cap * capped + pr * log(c);
				break;
			}
			capped += lq[j];
		}
		if (j == n || pt - (double)j * cap <= 0 || rest[j] <= 0) {
			// Everything left capped (P = j cap up to rounding).
			*lo = (double)j * cap * log_cap - cap * capped;
		}
	}

	// Upper: sum p log(p/q) is convex in p, so over {0 <= p_i <= cap,
	// sum p_i = P} its maximum sits at a vertex: m = floor(P/cap) entries
	// at cap, one at the remainder r, the rest 0. Larger p on smaller q
	// gives more (rearrangement), so cap goes to the m smallest q and r to
	// the next.
	double mf = std::floor(pt / cap);
	int32_t mm = mf >= (double)n ? n : (int32_t)mf;
	double r = pt - (double)mm * cap;
	if (mm >= n || r < 0) {
		r = 0;
	}
	const int32_t need = std::min(n, mm + 1);
	std::nth_element(lq, lq + (need - 1), lq + n);
	std::sort(lq, lq + need);
	double h = 0.0;
	for (int32_t i = 0; i < mm && i < n; i++) {
		h += cap * (log_cap - lq[i]);
	}
	if (r > 0 && mm < n) {
		h += r * (log(r) - lq[mm]);
	}
	*hi = std::max(h, *lo);
}

// compare_item compares one row with the base's summary (see
// lm_dist_compare).
static bool compare_item(row_buf &rb, lm_model *m, int32_t n_vocab, int32_t row, int32_t target, int32_t k,
                         const int32_t *ids, const double *lps, double base_tail, double *lp, int32_t *argmax,
                         double *kld_lo, double *kld_hi) {
	if (target < 0 || target >= n_vocab || !rb.load(m, n_vocab, row)) {
		return false;
	}
	const float *x = rb.x.data();
	int32_t amax;
	double mx, lse;
	max_lse(x, n_vocab, &amax, &mx, &lse);
	*lp = (double)x[target] - lse;
	*argmax = amax;

	rb.mark.assign((size_t)n_vocab, 0);
	double head = 0.0;
	double log_cap = 0.0;
	for (int32_t i = 0; i < k && ids[i] >= 0; i++) {
		if (ids[i] >= n_vocab) {
			return false;
		}
		const double l = lps[i];
		rb.mark[ids[i]] = 1;
		if (!std::isinf(l)) {
			head += exp(l) * (l - ((double)x[ids[i]] - lse));
		}
		log_cap = l;
	}
	// Widen the cap by a rounding error so that it still bounds tail
	// entries equal to the k-th.
	log_cap += 1e-12 * std::max(1.0, std::fabs(log_cap));
	rb.lq.clear();
	for (int32_t i = 0; i < n_vocab; i++) {
		if (!rb.mark[i]) {
			rb.lq.push_back((double)x[i] - lse);
		}
	}
	double lo, hi;
	lm_kld_tail_bounds(base_tail, log_cap, rb.lq.data(), (int32_t)rb.lq.size(), &lo, &hi);
	// KL of the coarse-grained pair (top-k tokens, the rest) is itself a
	// KL divergence, so >= 0: clamp rounding below zero.
	*kld_lo = std::max(0.0, head + lo);
	*kld_hi = std::max(*kld_lo, head + hi);
	return true;
}

int32_t lm_dist_compare(lm_model *m, int32_t n_vocab, int32_t n_threads, int32_t n, const int32_t *rows,
                        const int32_t *targets, int32_t k, const int32_t *base_ids, const double *base_lps,
                        const double *base_tail, double *out_lp, int32_t *out_argmax, double *out_kld_lo,
                        double *out_kld_hi) {
	bool ok = parallel(n, n_threads, [&](row_buf &rb, int32_t j) {
		return compare_item(rb, m, n_vocab, rows[j], targets[j], k, base_ids + (size_t)j * k,
		                    base_lps + (size_t)j * k, base_tail[j], &out_lp[j], &out_argmax[j], &out_kld_lo[j],
		                    &out_kld_hi[j]);
	});
	return ok ? 0 : -1;
}
