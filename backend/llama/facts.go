package llama

// Engine is the in-process engine's settings, the llama backend's facts
// in the results' lmeval block (model.Description.Facts; the tags are read by
// model.Description.Sections and CacheIdentity).
type Engine struct {
	NCtx       int      `json:"n_ctx" info:"engine"`
	MaxLength  int      `json:"max_length" info:"engine,identity"`
	NBatch     int      `json:"n_batch" info:"engine,identity"`
	NUBatch    int      `json:"n_ubatch" info:"engine,identity"`
	NSeqMax    int      `json:"n_seq_max" info:"engine"`
	Threads    int      `json:"threads" info:"engine"`
	NGPULayers int      `json:"n_gpu_layers" info:"engine,identity"`
	Device     string   `json:"device" info:"engine,identity"` // cpu, or the backend the layers run on
	Devices    []Device `json:"devices" info:"engine"`
	FlashAttn  string   `json:"flash_attn" info:"engine,identity"`
	TypeK      string   `json:"type_k" info:"engine,identity"`
	TypeV      string   `json:"type_v" info:"engine,identity"`
	AddBOS     bool     `json:"add_bos_token" info:"engine,identity"`
	// With batch_size auto: the most cells the cache may grow to, and the
	// times it grew.
	NCtxMax      *int `json:"n_ctx_max,omitempty" info:"engine"`
	CacheGrowths *int `json:"cache_growths,omitempty" info:"engine"`

	BatchSize       string `json:"batch_size" info:"extra"` // "auto", an integer, or ""
	KVBytesPerToken int64  `json:"kv_bytes_per_token" info:"extra"`
	PrefixTokenID   int32  `json:"prefix_token_id" info:"extra"`
	// FreeMemory is the free memory batch_size auto sized the context to.
	FreeMemory *int64 `json:"free_memory,omitempty" info:"extra"`
}

// Device is one device the layers run on, with its memory at load. The
// fields are in key order, as the results have always listed them.
type Device struct {
	Backend     string `json:"backend"`
	Description string `json:"description"`
	MemoryFree  uint64 `json:"memory_free"`
	MemoryTotal uint64 `json:"memory_total"`
	Name        string `json:"name"`
}
