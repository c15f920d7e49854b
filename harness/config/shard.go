package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Shard is the part of a run's requests one process evaluates (--shard):
// part Index of Count, counted from 0. lmeval merge combines the parts
// (docs/scale.md). The zero value is no sharding.
type Shard struct {
	Index, Count int
	// Auto: the part was taken from a scheduler's environment (--shard
	// auto); Source says which variables.
	Auto   bool
	Source string
}

// IsSet reports whether the run is one part of a sharded run.
func (s Shard) IsSet() bool { return s.Count > 0 }

// String is the value as --shard takes it: I/N, "" when unset.
func (s Shard) String() string {
	if !s.IsSet() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// MarshalText writes the shard as I/N ("" when unset).
func (s Shard) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

const shardForms = "I/N with 0 <= I < N (part I of N, counted from 0), or auto (from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)"

// ParseShard reads --shard: I/N, or auto, which ShardFromEnv resolves.
func ParseShard(s string) (Shard, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		return ShardFromEnv()
	}
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("invalid shard %q: want %s", s, shardForms)
	}
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return Shard{}, fmt.Errorf("invalid shard %q: want %s", s, shardForms)
	}
	return Shard{Index: index, Count: count}, nil
}

// ShardFromEnv is --shard auto: the part a scheduler gave this process.
//
//   - A Slurm job array (sbatch --array=A-B[:S]): part
//     (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP of
//     SLURM_ARRAY_TASK_COUNT.
//   - A Kubernetes Indexed Job: part JOB_COMPLETION_INDEX of
//     LMEVAL_SHARD_COUNT, which the manifest sets to the Job's completions
//     (Kubernetes puts the index in the environment, not the count).
//
// LMEVAL_SHARD_COUNT, when set, also overrides Slurm's count, and the
// index is then SLURM_ARRAY_TASK_ID itself: so that one failed task of an
// array 0-N can be rerun alone (sbatch --array=3 with LMEVAL_SHARD_COUNT=N).
func ShardFromEnv() (Shard, error) {
	count, countSet, err := envInt("LMEVAL_SHARD_COUNT")
	if err != nil {
		return Shard{}, err
	}
	if id, ok, err := envInt("SLURM_ARRAY_TASK_ID"); err != nil || ok {
		if err != nil {
			return Shard{}, err
		}
		if countSet {
			return checkShard(Shard{Index: id, Count: count, Auto: true,
				Source: fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d, LMEVAL_SHARD_COUNT=%d", id, count)})
		}
		n, ok, err := envInt("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, err
		}
		if !ok {
			return Shard{}, fmt.Errorf("auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT (Slurm older than 20.02?): give --shard I/N, or set LMEVAL_SHARD_COUNT")
		}
		lo, _, err := envInt("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, err
		}
		step, ok, err := envInt("SLURM_ARRAY_TASK_STEP")
		if err != nil {
			return Shard{}, err
		}
		if !ok || step < 1 {
			step = 1
		}
		src := fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d, SLURM_ARRAY_TASK_MIN=%d, SLURM_ARRAY_TASK_STEP=%d, SLURM_ARRAY_TASK_COUNT=%d", id, lo, step, n)
		if (id-lo)%step != 0 {
			return Shard{}, fmt.Errorf("auto: %s: not a regular array (use --array=0-%d)", src, n-1)
		}
		return checkShard(Shard{Index: (id - lo) / step, Count: n, Auto: true, Source: src})
	}
	if idx, ok, err := envInt("JOB_COMPLETION_INDEX"); err != nil || ok {
		if err != nil {
			return Shard{}, err
		}
		if !countSet {
			return Shard{}, fmt.Errorf("auto: JOB_COMPLETION_INDEX=%d is set but not LMEVAL_SHARD_COUNT: set it in the Job's manifest to the Job's completions (docs/scale.md)", idx)
		}
		return checkShard(Shard{Index: idx, Count: count, Auto: true,
			Source: fmt.Sprintf("JOB_COMPLETION_INDEX=%d, LMEVAL_SHARD_COUNT=%d", idx, count)})
	}
	return Shard{}, fmt.Errorf("auto: no scheduler's variables in the environment (SLURM_ARRAY_TASK_ID of a Slurm job array, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job): give --shard I/N")
}

func checkShard(s Shard) (Shard, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return Shard{}, fmt.Errorf("auto: %s: part %d of %d is out of range (parts are counted from 0)", s.Source, s.Index, s.Count)
	}
	return s, nil
}

// envInt reads an integer environment variable; ok is false when it is
// unset or empty.
func envInt(name string) (n int, ok bool, err error) {
	v, set := os.LookupEnv(name)
	if !set || strings.TrimSpace(v) == "" {
		return 0, false, nil
	}
	n, err = strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, true, fmt.Errorf("auto: %s=%q is not an integer", name, v)
	}
	return n, true, nil
}
