package memlimit

import "runtime/metrics"

// Held is the memory the Go runtime holds from the system — every class of
// runtime/metrics' /memory/classes/total:bytes but the heap released back
// to it: what the kernel counts against the process, as far as Go knows —
// and the part of it that is free heap, kept for reuse and returned to the
// system when the process nears the garbage collector's memory limit. It
// reads without stopping the world. The searches' limits, the swarm's and
// the symbolic engine's all measure this.
func Held() (held, free int64) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0, 0
		}
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64()), int64(s[2].Value.Uint64())
}
