// lmeval.cpp: the shim between lmeval's Go engine and llama.cpp. See
// lmeval.h for the contract.

#include "lmeval.h"

#include "llama.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#ifndef LMEVAL_LLAMA_COMMIT
#define LMEVAL_LLAMA_COMMIT "unknown"
#endif

struct lm_model {
	llama_model *model = nullptr;
	llama_context *ctx = nullptr;
	const llama_vocab *vocab = nullptr;
	llama_batch batch = {};
	int32_t n_batch = 0;
	int32_t n_seq_max = 0;
	int32_t n_vocab = 0;
	bool vocab_only = false;
	int32_t n_threads = 1;
	std::vector<float> tensor_split;
	// The devices given to llama.cpp for offloading, NULL-terminated.
	std::vector<ggml_backend_dev_t> devices;
	bool split_none = false;
	int32_t main_gpu = 0;
	// lm_score's scratch space.
	std::vector<int32_t> rows, amax;
	std::vector<double> lse;
	std::vector<const float *> ptrs;
};

struct lm_sampler {
	llama_sampler *chain = nullptr;
};

static lm_log_fn g_log = nullptr;

static void log_cb(enum ggml_log_level level, const char *text, void *) {
	lm_log_fn fn = g_log;
	if (fn != nullptr && text != nullptr) {
		fn((int)level, text);
	}
}

void lm_init(lm_log_fn fn) {
	static std::once_flag once;
	g_log = fn;
	llama_log_set(log_cb, nullptr);
	std::call_once(once, [] {
#ifdef GGML_BACKEND_DL
		// A build with loadable backends (LMEVAL_BACKEND_DL: the device
		// check's) loads libggml-<backend>.so from ggml's GGML_BACKEND_DIR
		// (the build's bin/), the executable's directory or the current one.
		ggml_backend_load_all();
#endif
		llama_backend_init();
	});
}

const char *lm_system_info(void) { return llama_print_system_info(); }
const char *lm_llama_commit(void) { return LMEVAL_LLAMA_COMMIT; }
int32_t lm_max_devices(void) { return (int32_t)llama_max_devices(); }
int32_t lm_supports_gpu_offload(void) { return llama_supports_gpu_offload() ? 1 : 0; }

static void set_err(char *err, int32_t errlen, const std::string &msg) {
	if (err != nullptr && errlen > 0) {
		snprintf(err, (size_t)errlen, "%s", msg.c_str());
	}
}

struct load_progress {
	lm_progress_fn fn;
	uintptr_t id;
};

static bool load_progress_cb(float progress, void *user) {
	auto *lp = (load_progress *)user;
	return lp->fn(progress, lp->id) != 0;
}

lm_model *lm_load(const char *path, const lm_params *p, char *err, int32_t errlen) {
	auto *m = new lm_model();
	llama_model_params mp = llama_model_default_params();
	// Lives on this stack frame: llama.cpp calls it only while loading.
	load_progress lp = {p->progress, p->progress_id};
	if (lp.fn != nullptr) {
		mp.progress_callback = load_progress_cb;
		mp.progress_callback_user_data = &lp;
	}
	mp.n_gpu_layers = p->n_gpu_layers < 0 ? 999999 : p->n_gpu_layers;
	mp.main_gpu = p->main_gpu;
	mp.split_mode = (enum llama_split_mode)p->split_mode;
	mp.vocab_only = p->vocab_only != 0;
	mp.use_mmap = p->use_mmap != 0;
	bool any_split = false;
	for (int i = 0; i < LM_MAX_TENSOR_SPLIT; i++) {
		any_split = any_split || p->tensor_split[i] != 0.0f;
	}
	// The offload devices, chosen as llama.cpp's default does, but passed
	// explicitly: lm_model_devices then reports what is used, and
	// n_gpu_layers 0 gives an empty list, so that llama.cpp does not
	// offload a batch's matrix products to a GPU either.
	if (p->n_gpu_layers != 0) {
		std::vector<ggml_backend_dev_t> igpus;
		for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
			ggml_backend_dev_t d = ggml_backend_dev_get(i);
			switch (ggml_backend_dev_type(d)) {
			case GGML_BACKEND_DEVICE_TYPE_GPU:
				m->devices.push_back(d);
				break;
			case GGML_BACKEND_DEVICE_TYPE_IGPU:
				igpus.push_back(d);
				break;
			default:
				break;
			}
		}
		if (m->devices.empty()) {
			m->devices = igpus;
		}
	}
	m->devices.push_back(nullptr);
	mp.devices = m->devices.data();
	m->split_none = p->split_mode == 0;
	m->main_gpu = p->main_gpu;
	if (any_split) {
		m->tensor_split.assign(std::max<size_t>(llama_max_devices(), LM_MAX_TENSOR_SPLIT), 0.0f);
		for (int i = 0; i < LM_MAX_TENSOR_SPLIT && i < (int)llama_max_devices(); i++) {
			m->tensor_split[i] = p->tensor_split[i];
		}
		mp.tensor_split = m->tensor_split.data();
	}
	m->model = llama_model_load_from_file(path, mp);
	if (m->model == nullptr) {
		set_err(err, errlen, std::string("llama.cpp could not load ") + path);
		delete m;
		return nullptr;
	}
	m->vocab = llama_model_get_vocab(m->model);
	m->n_vocab = llama_vocab_n_tokens(m->vocab);
	if (p->vocab_only) {
		m->vocab_only = true;
		return m;
	}

	if (p->no_context) {
		return m;
	}
	if (lm_context_init(m, p, err, errlen) != 0) {
		llama_model_free(m->model);
		delete m;
		return nullptr;
	}
	return m;
}

int32_t lm_context_init(lm_model *m, const lm_params *p, char *err, int32_t errlen) {
	if (m->ctx != nullptr || m->vocab_only) {
		set_err(err, errlen, "the model already has a context, or has no weights");
		return -1;
	}
	llama_context_params cp = llama_context_default_params();
	cp.n_ctx = (uint32_t)p->n_ctx;
	cp.n_batch = (uint32_t)p->n_batch;
	cp.n_ubatch = (uint32_t)p->n_ubatch;
	cp.n_seq_max = (uint32_t)p->n_seq_max;
	cp.n_threads = p->n_threads;
	cp.n_threads_batch = p->n_threads;
	cp.flash_attn_type = (enum llama_flash_attn_type)p->flash_attn;
	cp.type_k = (enum ggml_type)p->type_k;
	cp.type_v = (enum ggml_type)p->type_v;
	cp.no_perf = true;
	// One cache shared by all sequences: a token may then belong to several
	// sequences (shared prefixes), and sequences of any length pack in.
	cp.kv_unified = true;
	m->ctx = llama_init_from_model(m->model, cp);
	if (m->ctx == nullptr) {
		set_err(err, errlen, "llama.cpp could not create a context with n_ctx " + std::to_string(p->n_ctx) +
		                         ", n_seq_max " + std::to_string(p->n_seq_max) +
		                         " (out of memory? see the log above)");
		return -1;
	}
	m->n_threads = std::max(1, p->n_threads);
	m->n_batch = (int32_t)llama_n_batch(m->ctx);
	m->n_seq_max = (int32_t)llama_n_seq_max(m->ctx);
	m->batch = llama_batch_init(m->n_batch, 0, m->n_seq_max);
	return 0;
}

static void fill_device(ggml_backend_dev_t d, lm_device &o) {
	size_t free = 0, total = 0;
	ggml_backend_dev_memory(d, &free, &total);
	memset(&o, 0, sizeof(o));
	snprintf(o.name, sizeof(o.name), "%s", ggml_backend_dev_name(d));
	const char *desc = ggml_backend_dev_description(d);
	snprintf(o.description, sizeof(o.description), "%s", desc != nullptr ? desc : "");
	ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(d);
	snprintf(o.backend, sizeof(o.backend), "%s", reg != nullptr ? ggml_backend_reg_name(reg) : "");
	o.type = (int32_t)ggml_backend_dev_type(d);
	o.free = free;
	o.total = total;
}

int32_t lm_devices(lm_device *out, int32_t n) {
	const int32_t count = (int32_t)ggml_backend_dev_count();
	for (int32_t i = 0; i < count && i < n; i++) {
		fill_device(ggml_backend_dev_get((size_t)i), out[i]);
	}
	return count;
}

const char *lm_backend_name(int32_t i) {
	if (i < 0 || (size_t)i >= ggml_backend_reg_count()) {
		return nullptr;
	}
	return ggml_backend_reg_name(ggml_backend_reg_get((size_t)i));
}

int32_t lm_model_devices(const lm_model *m, lm_device *out, int32_t n) {
	// The list ends with NULL; split_mode none keeps only main_gpu.
	std::vector<ggml_backend_dev_t> used(m->devices.begin(), m->devices.end() - (m->devices.empty() ? 0 : 1));
	if (m->split_none) {
		if (m->main_gpu >= 0 && m->main_gpu < (int32_t)used.size()) {
			used = {used[(size_t)m->main_gpu]};
		} else {
			used.clear();
		}
	}
	const int32_t count = (int32_t)used.size();
	for (int32_t i = 0; i < count && i < n; i++) {
		fill_device(used[(size_t)i], out[i]);
	}
	return count;
}

void lm_context_free(lm_model *m) {
	if (m->ctx != nullptr) {
		llama_batch_free(m->batch);
		llama_free(m->ctx);
		m->ctx = nullptr;
		m->batch = {};
	}
}

void lm_free(lm_model *m) {
	if (m == nullptr) {
		return;
	}
	lm_context_free(m);
	if (m->model != nullptr) {
		llama_model_free(m->model);
	}
	delete m;
}

void lm_get_info(const lm_model *m, lm_info *o) {
	memset(o, 0, sizeof(*o));
	o->n_vocab = m->n_vocab;
	if (!m->vocab_only) {
		// Per-layer hyperparameters assert on a model without layers.
		o->n_ctx_train = llama_model_n_ctx_train(m->model);
		o->n_embd = llama_model_n_embd(m->model);
		o->n_layer = llama_model_n_layer(m->model);
		o->n_head = llama_model_n_head(m->model);
		o->n_head_kv = llama_model_n_head_kv(m->model);
	}
	if (m->ctx != nullptr) {
		o->n_ctx = (int32_t)llama_n_ctx(m->ctx);
		o->n_batch = (int32_t)llama_n_batch(m->ctx);
		o->n_ubatch = (int32_t)llama_n_ubatch(m->ctx);
		o->n_seq_max = (int32_t)llama_n_seq_max(m->ctx);
	}
	o->bos = llama_vocab_bos(m->vocab);
	o->eos = llama_vocab_eos(m->vocab);
	o->eot = llama_vocab_eot(m->vocab);
	o->nl = llama_vocab_nl(m->vocab);
	o->add_bos = llama_vocab_get_add_bos(m->vocab) ? 1 : 0;
	o->add_eos = llama_vocab_get_add_eos(m->vocab) ? 1 : 0;
	o->n_params = llama_model_n_params(m->model);
	o->size = llama_model_size(m->model);
	o->vocab_type = (int32_t)llama_vocab_type(m->vocab);
}

int32_t lm_desc(const lm_model *m, char *buf, int32_t n) { return llama_model_desc(m->model, buf, (size_t)n); }

int32_t lm_meta(const lm_model *m, const char *key, char *buf, int32_t n) {
	return llama_model_meta_val_str(m->model, key, buf, (size_t)n);
}

int32_t lm_chat_template(const lm_model *m, char *buf, int32_t n) {
	const char *t = llama_model_chat_template(m->model, nullptr);
	if (t == nullptr) {
		return -1;
	}
	return (int32_t)snprintf(buf, (size_t)n, "%s", t);
}

int32_t lm_tokenize(const lm_model *m, const char *text, int32_t len, int32_t *out, int32_t n_max,
                    int32_t add_special, int32_t parse_special) {
	return llama_tokenize(m->vocab, text, len, out, n_max, add_special != 0, parse_special != 0);
}

int32_t lm_token_to_piece(const lm_model *m, int32_t tok, char *buf, int32_t n, int32_t special) {
	return llama_token_to_piece(m->vocab, tok, buf, n, 0, special != 0);
}

int32_t lm_detokenize(const lm_model *m, const int32_t *toks, int32_t n, char *buf, int32_t len,
                      int32_t remove_special, int32_t unparse_special) {
	return llama_detokenize(m->vocab, toks, n, buf, len, remove_special != 0, unparse_special != 0);
}

int32_t lm_is_eog(const lm_model *m, int32_t tok) { return llama_vocab_is_eog(m->vocab, tok) ? 1 : 0; }
int32_t lm_token_attr(const lm_model *m, int32_t tok) { return (int32_t)llama_vocab_get_attr(m->vocab, tok); }

void lm_mem_clear(lm_model *m) { llama_memory_clear(llama_get_memory(m->ctx), true); }

int32_t lm_seq_rm(lm_model *m, int32_t seq, int32_t p0, int32_t p1) {
	return llama_memory_seq_rm(llama_get_memory(m->ctx), seq, p0, p1) ? 1 : 0;
}

void lm_seq_cp(lm_model *m, int32_t src, int32_t dst, int32_t p0, int32_t p1) {
	llama_memory_seq_cp(llama_get_memory(m->ctx), src, dst, p0, p1);
}

int32_t lm_decode(lm_model *m, int32_t n, const int32_t *tokens, const int32_t *pos,
                  const int32_t *seq_off, const int32_t *seq_ids, const uint8_t *want) {
	if (n <= 0 || n > m->n_batch) {
		return -100;
	}
	llama_batch &b = m->batch;
	for (int32_t i = 0; i < n; i++) {
		b.token[i] = tokens[i];
		b.pos[i] = pos[i];
		int32_t k = seq_off[i + 1] - seq_off[i];
		if (k <= 0 || k > m->n_seq_max) {
			return -101;
		}
		b.n_seq_id[i] = k;
		for (int32_t j = 0; j < k; j++) {
			b.seq_id[i][j] = seq_ids[seq_off[i] + j];
		}
		b.logits[i] = want[i] ? 1 : 0;
	}
	b.n_tokens = n;
	const int32_t rc = llama_decode(m->ctx, b);
	if (rc == 0) {
		// Wait for the backend and put the outputs in batch order now, on
		// this thread: llama_get_logits_ith does both on first use, and the
		// scoring loops call it from several threads (which hangs a GPU
		// backend). Afterwards those calls only read.
		llama_get_logits(m->ctx);
	}
	return rc;
}

// row_stats finds a logits row's argmax and its log normaliser
// (max + log sum exp(x - max)), accumulating in double.
static void row_stats(const float *x, int32_t n, int32_t *amax, double *lse) {
	float mx = x[0];
	int32_t am = 0;
	for (int32_t i = 1; i < n; i++) {
		if (x[i] > mx) {
			mx = x[i];
			am = i;
		}
	}
	double s = 0.0;
	for (int32_t i = 0; i < n; i++) {
		// expf is exact to an ulp and much faster than exp; the sum is
		// kept in double.
		s += (double)expf(x[i] - mx);
	}
	*amax = am;
	*lse = (double)mx + log(s);
}

int32_t lm_score(lm_model *m, int32_t n_items, const int32_t *row, const int32_t *target,
                 const int32_t *slot, double *out_lp, uint8_t *out_greedy) {
	// The distinct rows (items of one row are adjacent) get their argmax and
	// normaliser in parallel: with large vocabularies and fast (GPU)
	// decoding these loops would otherwise dominate.
	std::vector<int32_t> &rows = m->rows;
	rows.clear();
	for (int32_t k = 0; k < n_items; k++) {
		if (k == 0 || row[k] != row[k - 1]) {
			rows.push_back(row[k]);
		}
	}
	const int32_t n_rows = (int32_t)rows.size();
	m->amax.resize((size_t)n_rows);
	m->lse.resize((size_t)n_rows);
	// The row pointers are fetched on this thread: llama_get_logits_ith
	// synchronizes the backend (and may reorder outputs), which must not
	// run from several threads at once (on a GPU backend it hangs).
	std::vector<const float *> &ptrs = m->ptrs;
	ptrs.resize((size_t)n_rows);
	for (int32_t r = 0; r < n_rows; r++) {
		ptrs[(size_t)r] = llama_get_logits_ith(m->ctx, rows[(size_t)r]);
		if (ptrs[(size_t)r] == nullptr) {
			return -1;
		}
	}
#ifdef _OPENMP
#pragma omp parallel for num_threads(m->n_threads) schedule(static) if (n_rows > 1 && (int64_t)n_rows * m->n_vocab >= 65536)
#endif
	for (int32_t r = 0; r < n_rows; r++) {
		row_stats(ptrs[(size_t)r], m->n_vocab, &m->amax[(size_t)r], &m->lse[(size_t)r]);
	}
	int32_t r = -1;
	const float *x = nullptr;
	for (int32_t k = 0; k < n_items; k++) {
		if (k == 0 || row[k] != row[k - 1]) {
			r++;
			x = llama_get_logits_ith(m->ctx, row[k]);
		}
		int32_t t = target[k];
		if (t < 0 || t >= m->n_vocab) {
			return -2;
		}
		out_lp[slot[k]] += (double)x[t] - m->lse[(size_t)r];
		// Ties: the first maximum wins, as torch.argmax does.
		if (t != m->amax[(size_t)r]) {
			out_greedy[slot[k]] = 0;
		}
	}
	return 0;
}

int32_t lm_argmax(lm_model *m, int32_t n, const int32_t *rows, int32_t *out) {
	for (int32_t k = 0; k < n; k++) {
		const float *x = llama_get_logits_ith(m->ctx, rows[k]);
		if (x == nullptr) {
			return -1;
		}
		float mx = x[0];
		int32_t am = 0;
		for (int32_t i = 1; i < m->n_vocab; i++) {
			if (x[i] > mx) {
				mx = x[i];
				am = i;
			}
		}
		out[k] = am;
	}
	return 0;
}

int32_t lm_logits(lm_model *m, int32_t row, float *out, int32_t n) {
	const float *x = llama_get_logits_ith(m->ctx, row);
	if (x == nullptr || n < m->n_vocab) {
		return -1;
	}
	memcpy(out, x, sizeof(float) * (size_t)m->n_vocab);
	return m->n_vocab;
}

lm_sampler *lm_sampler_new(const lm_model *m, float temp, float top_p, int32_t top_k, uint32_t seed) {
	(void)m;
	auto *s = new lm_sampler();
	s->chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
	if (top_k > 0) {
		llama_sampler_chain_add(s->chain, llama_sampler_init_top_k(top_k));
	}
	if (top_p > 0.0f && top_p < 1.0f) {
		llama_sampler_chain_add(s->chain, llama_sampler_init_top_p(top_p, 1));
	}
	llama_sampler_chain_add(s->chain, llama_sampler_init_temp(temp));
	llama_sampler_chain_add(s->chain, llama_sampler_init_dist(seed));
	return s;
}

int32_t lm_sampler_sample(lm_sampler *s, lm_model *m, int32_t row) {
	// llama_sampler_sample also accepts the token into the chain.
	return llama_sampler_sample(s->chain, m->ctx, row);
}

void lm_sampler_free(lm_sampler *s) {
	if (s == nullptr) {
		return;
	}
	llama_sampler_free(s->chain);
	delete s;
}
