/*
 * lmeval.h: the C interface between lmeval's Go engine and llama.cpp.
 *
 * Plain C with opaque handles, so cgo never sees a llama.cpp type. The Go
 * side owns policy (what to decode, in which order, with which sequence
 * ids); this shim owns the hot loops over the vocabulary (log-softmax,
 * gather, argmax) so that only per-request numbers cross into Go. No
 * pointer passed in is kept after a call returns.
 */
#ifndef LMEVAL_H
#define LMEVAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lm_model lm_model;
typedef struct lm_sampler lm_sampler;

typedef void (*lm_log_fn)(int level, const char *text);
/* lm_progress_fn receives model loading progress in [0, 1] with the id
 * given in lm_params; returning 0 aborts the load. */
typedef int32_t (*lm_progress_fn)(float progress, uintptr_t id);

/* lm_init initialises the ggml backends once and routes llama.cpp's log to
 * fn (NULL: discard). */
void lm_init(lm_log_fn fn);
const char *lm_system_info(void);
const char *lm_llama_commit(void);
int32_t lm_max_devices(void);
int32_t lm_supports_gpu_offload(void);

#define LM_MAX_TENSOR_SPLIT 16

typedef struct lm_params {
	int32_t n_ctx;
	int32_t n_batch;
	int32_t n_ubatch;
	int32_t n_seq_max;
	int32_t n_threads;
	int32_t n_gpu_layers; /* -1: all layers */
	int32_t main_gpu;
	int32_t split_mode; /* 0 none, 1 layer, 2 row */
	float tensor_split[LM_MAX_TENSOR_SPLIT];
	int32_t flash_attn; /* -1 auto, 0 off, 1 on */
	int32_t type_k;     /* ggml_type */
	int32_t type_v;
	int32_t vocab_only;
	int32_t use_mmap;
	int32_t no_context; /* load the weights only; lm_context_init follows */
	lm_progress_fn progress; /* NULL: none (llama.cpp then logs dots) */
	uintptr_t progress_id;
} lm_params;

/* lm_load loads a model and (unless vocab_only or no_context) makes its
 * context. On failure it returns NULL with a message in err. */
lm_model *lm_load(const char *path, const lm_params *p, char *err, int32_t errlen);
/* lm_context_init makes the context of a model loaded with no_context,
 * with p's context settings. It returns 0, or -1 with a message in err
 * (the model stays loaded, so a smaller context can be tried). */
int32_t lm_context_init(lm_model *m, const lm_params *p, char *err, int32_t errlen);

/* ggml's backend devices, for sizing the KV cache to free memory. */
typedef struct lm_device {
	char name[64];         /* ggml's device name: "CPU", "Vulkan0", "CUDA0" */
	char description[128]; /* the driver's: "llvmpipe (LLVM 15.0.6, 256 bits)" */
	char backend[32];      /* the backend's registry name: "CPU", "Vulkan", "CUDA", "Metal" */
	int32_t type;          /* 0 CPU, 1 GPU, 2 integrated GPU, 3 accelerator */
	uint64_t free, total;
} lm_device;

/* lm_devices fills up to n devices and returns how many there are. */
int32_t lm_devices(lm_device *out, int32_t n);
/* lm_backend_name is the registry name of the i-th ggml backend built in
 * ("CPU", "CUDA", "Vulkan", "Metal"), whether or not it found a device;
 * NULL past the last. The string is static. */
const char *lm_backend_name(int32_t i);
/* lm_model_devices fills up to n of the devices lm_load gave the model for
 * offloading (none when n_gpu_layers is 0) and returns how many there are.
 * lm_load chooses them as llama.cpp's default does (the GPUs; integrated
 * GPUs only when there is no other; only main_gpu with split_mode none)
 * and passes the list explicitly, so this is what llama.cpp uses. */
int32_t lm_model_devices(const lm_model *m, lm_device *out, int32_t n);
/* lm_context_free frees a model's context (lm_context_init may follow). */
void lm_context_free(lm_model *m);
void lm_free(lm_model *m);

typedef struct lm_info {
	int32_t n_vocab, n_ctx_train, n_embd, n_layer, n_head, n_head_kv;
	int32_t n_ctx, n_batch, n_ubatch, n_seq_max;
	int32_t bos, eos, eot, nl;
	int32_t add_bos, add_eos;
	uint64_t n_params, size;
	int32_t vocab_type;
} lm_info;

void lm_get_info(const lm_model *m, lm_info *out);
/* String getters return the full length (which may exceed n: call again
 * with a larger buffer), or -1 when absent. */
int32_t lm_desc(const lm_model *m, char *buf, int32_t n);
int32_t lm_meta(const lm_model *m, const char *key, char *buf, int32_t n);
int32_t lm_chat_template(const lm_model *m, char *buf, int32_t n);

/* lm_tokenize returns the token count, or minus the count needed when n_max
 * is too small. */
int32_t lm_tokenize(const lm_model *m, const char *text, int32_t len, int32_t *out, int32_t n_max,
                    int32_t add_special, int32_t parse_special);
int32_t lm_token_to_piece(const lm_model *m, int32_t tok, char *buf, int32_t n, int32_t special);
int32_t lm_detokenize(const lm_model *m, const int32_t *toks, int32_t n, char *buf, int32_t len,
                      int32_t remove_special, int32_t unparse_special);
int32_t lm_is_eog(const lm_model *m, int32_t tok);
int32_t lm_token_attr(const lm_model *m, int32_t tok);

/* Memory (KV cache) of sequences. */
void lm_mem_clear(lm_model *m);
int32_t lm_seq_rm(lm_model *m, int32_t seq, int32_t p0, int32_t p1);
void lm_seq_cp(lm_model *m, int32_t src, int32_t dst, int32_t p0, int32_t p1);

/* lm_decode decodes n tokens in one llama_batch (n <= n_batch). Token i is
 * tokens[i] at position pos[i], member of the sequences
 * seq_ids[seq_off[i] .. seq_off[i+1]); want[i] != 0 asks for its logits,
 * addressed afterwards by its batch index i. Returns llama_decode's status
 * (0 ok, 1 no KV slot, <0 error). */
int32_t lm_decode(lm_model *m, int32_t n, const int32_t *tokens, const int32_t *pos,
                  const int32_t *seq_off, const int32_t *seq_ids, const uint8_t *want);

/* lm_score reads the logits of the last lm_decode. For item k it takes the
 * row of batch index row[k], computes log_softmax(row)[target[k]] and adds
 * it to out_lp[slot[k]]; if target[k] is not the row's argmax it sets
 * out_greedy[slot[k]] = 0. Items with equal rows should be adjacent: the
 * row's normaliser is computed once per run. Returns 0, or -1 on a bad
 * row. */
int32_t lm_score(lm_model *m, int32_t n_items, const int32_t *row, const int32_t *target,
                 const int32_t *slot, double *out_lp, uint8_t *out_greedy);

/* lm_argmax writes the argmax token of each listed row. */
int32_t lm_argmax(lm_model *m, int32_t n, const int32_t *rows, int32_t *out);

/* lm_logits copies one full logits row (n_vocab floats). It exists for
 * tests that check the scorer against an independent computation. */
int32_t lm_logits(lm_model *m, int32_t row, float *out, int32_t n);

/* Samplers: top-k, top-p, temperature, then a seeded draw. */
lm_sampler *lm_sampler_new(const lm_model *m, float temp, float top_p, int32_t top_k, uint32_t seed);
int32_t lm_sampler_sample(lm_sampler *s, lm_model *m, int32_t row);
void lm_sampler_free(lm_sampler *s);

#ifdef __cplusplus
}
#endif

#endif
