/* ECL-MST (Fallin et al., Algs. 1-2 and section 3.2) in OpenCL C.
 *
 * Worklist records are ulong2: (v << 32 | n, key), Fallin et al.'s 4-tuple
 * <v, n, weight, id> with weight and id in one packed key. Built with
 * -DWG=<work-group size>; every kernel runs one work-item per record, rounded
 * up to whole work-groups, because reserve() needs the whole work-group.
 * Needs cl_khr_int64_extended_atomics for the 64-bit atom_min.
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define NO_EDGE (~(ulong)0)

inline ulong pack_pair(uint v, uint n) { return ((ulong)v << 32) | n; }

/* Follow parents to the root, no explicit path compression (Fallin et al. section 3.2). */
inline uint find(__global const uint *parent, uint v)
{
    uint up = parent[v];
    while (up != v) {
        v = up;
        up = parent[v];
    }
    return v;
}

/* Lock-free union: the larger root points to the smaller; a failed CAS moves the
   larger side one step up its tree (Fallin et al.'s join). */
inline void join(__global volatile uint *parent, uint a, uint b)
{
    for (;;) {
        uint high = max(a, b);
        uint low = min(a, b);
        uint seen = atomic_cmpxchg(&parent[high], high, low);
        if (seen == high)
            return;
        a = low;
        b = seen;
    }
}

/* A worklist slot for each work-item that keeps a record: one local atomic per item and
   one global atomic per work-group (ECL-MST aggregates per warp; OpenCL has no portable
   warp vote, so the work-group aggregates). Every work-item of the group must call it;
   group is two words of the calling kernel's local memory. */
inline uint reserve(bool keep, __global volatile uint *count, __local volatile uint *group)
{
    if (get_local_id(0) == 0)
        group[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint offset = keep ? atomic_inc(&group[0]) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        group[1] = group[0] ? atomic_add(count, group[0]) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    return group[1] + offset;
}

/* Fallin et al. Alg. 2 lines 1-11, edge-centric: every edge of this phase whose endpoints
   are in different sets becomes a record (the heavy phase filters, section 3.3). Each
   undirected edge is listed once, so one direction comes for free. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void populate(__global const uint *src, __global const uint *dst, __global const ulong *keys,
              uint m, ulong threshold, int heavy, __global const uint *parent,
              __global ulong2 *wl, __global volatile uint *counts)
{
    __local uint group[2];
    uint e = get_global_id(0);
    bool keep = false;
    uint p = 0, q = 0;
    ulong key = NO_EDGE;
    if (e < m) {
        key = keys[e];
        p = find(parent, src[e]);
        q = find(parent, dst[e]);
        keep = (heavy ? key >= threshold : key < threshold) && p != q;
    }
    uint pos = reserve(keep, counts, group);
    if (keep)
        wl[pos] = (ulong2)(pack_pair(p, q), key);
}

/* Lower min_edge[v] to key with 64-bit atom_min; the guard loads first, since most
   attempts find no new minimum (Fallin et al. section 5.3 (1)). */
inline void lower_min(__global volatile ulong *min_edge, uint v, ulong key, int guard)
{
    if (!guard || min_edge[v] > key)
        atom_min(&min_edge[v], key);
}

/* Fallin et al. Alg. 2 lines 13-23: find both sets, drop records inside one set, keep the rest
   with the sets in place of the endpoints (implicit path compression), atomic minimum.
   The list sizes live on the device (counts[in], counts[out]), so the host can enqueue
   several rounds without reading them; launches cover an upper bound of the size.
   sizes[round] records the round's input size for the statistics. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void relax(__global const ulong2 *wl_in, __global ulong2 *wl_out, __global volatile uint *counts,
           uint in, uint out, __global const uint *parent, __global volatile ulong *min_edge,
           int guard, __global uint *sizes, uint round)
{
    __local uint group[2];
    uint i = get_global_id(0);
    uint size = counts[in];
    if (i == 0)
        sizes[round] = size;
    bool keep = false;
    uint p = 0, q = 0;
    ulong key = NO_EDGE;
    if (i < size) {
        ulong2 record = wl_in[i];
        key = record.y;
        p = find(parent, (uint)(record.x >> 32));
        q = find(parent, (uint)record.x);
        keep = p != q;
    }
    uint pos = reserve(keep, counts + out, group);
    if (keep) {
        wl_out[pos] = (ulong2)(pack_pair(p, q), key);
        lower_min(min_edge, p, key, guard);
        lower_min(min_edge, q, key, guard);
    }
}

/* Fallin et al. Alg. 2 lines 27-33: a record that is the minimum of either of its sets joins
   them and enters the forest. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void select_edges(__global const ulong2 *wl, __global const uint *counts, uint slot,
                  __global volatile uint *parent, __global const ulong *min_edge,
                  __global uchar *in_forest, ulong slot_mask)
{
    uint i = get_global_id(0);
    if (i >= counts[slot])
        return;
    ulong2 record = wl[i];
    uint v = (uint)(record.x >> 32);
    uint n = (uint)record.x;
    if (min_edge[v] == record.y || min_edge[n] == record.y) {
        join(parent, v, n);
        in_forest[record.y & slot_mask] = 1;
    }
}

/* Fallin et al. Alg. 2 lines 27-37 from the sets' side, for rounds with few vertices per record
   (ecl/gpu's select by vertices): each set that recorded a minimum joins along that edge and
   clears the minimum as it reads it, so no reset launch follows. A key's slot is the edge's
   position in src and dst. Also empties the drained list, as reset does. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void select_vertices(__global uint *counts, uint drained, __global const uint *src,
                     __global const uint *dst, __global volatile uint *parent,
                     __global ulong *min_edge, __global uchar *in_forest, ulong slot_mask,
                     uint n)
{
    uint v = get_global_id(0);
    if (v == 0)
        counts[drained] = 0;
    if (v >= n)
        return;
    ulong key = min_edge[v];
    if (key == NO_EDGE)
        return;
    min_edge[v] = NO_EDGE;
    uint e = (uint)(key & slot_mask);
    /* find reads without volatile, as in ECL-MST: a parent read before another set's join
       lands is a non-root, and join's compare-and-swap moves past it. The cast says so
       (passing a volatile pointer silently drops the qualifier, a warning on PoCL). */
    __global const uint *settled = (__global const uint *)parent;
    join(parent, find(settled, src[e]), find(settled, dst[e]));
    in_forest[e] = 1;
}

/* Fallin et al. Alg. 2 lines 34-37: clear the minima of the worklist's sets, and empty the
   drained list, which the next round fills. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reset(__global const ulong2 *wl, __global uint *counts, uint slot, uint drained,
           __global ulong *min_edge)
{
    uint i = get_global_id(0);
    if (i == 0)
        counts[drained] = 0;
    if (i >= counts[slot])
        return;
    ulong2 record = wl[i];
    min_edge[(uint)(record.x >> 32)] = NO_EDGE;
    min_edge[(uint)record.x] = NO_EDGE;
}
