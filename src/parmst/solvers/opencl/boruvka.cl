/* Segmented-scan Borůvka (seed 002, Algorithm 4), every step on the device.
 *
 * The graph of the current round is a CSR of directed entries (esrc, eadj, ekey)
 * grouped by source vertex, with indptr. ekey is the edge's unique
 * order-preserving key (< 2^63, packed (weight, id) or rank), and its top bit
 * flags the first entry of each vertex's segment, so find-min-edge is one
 * segmented min scan with the flag in the top bit (seed 002, section 6).
 * Each kernel takes its item count and bounds-checks, since launches are
 * rounded up to whole work-groups.
 */
#define TOP ((ulong)1 << 63)

/* Initialization: the edge list in both directions, as unsorted entries. */
__kernel void expand_edges(__global const uint *src, __global const uint *dst,
                           __global const ulong *key, ulong m,
                           __global uint *esrc, __global uint *eadj, __global ulong *ekey)
{
    ulong j = get_global_id(0);
    if (j >= 2 * m)
        return;
    ulong e = j < m ? j : j - m;
    esrc[j] = j < m ? src[e] : dst[e];
    eadj[j] = j < m ? dst[e] : src[e];
    ekey[j] = key[e];
}

__kernel void identity_labels(__global uint *label, uint n)
{
    uint v = get_global_id(0);
    if (v < n)
        label[v] = v;
}

/* Step 1, find-min-edge, after the segmented min scan: the last scanned value of a
   vertex's segment is its lightest key. Vertices without entries point at themselves. */
__kernel void segment_minimum(__global const uint *indptr, __global const ulong *scanned,
                              uint n, __global ulong *min_key, __global uint *succ)
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    uint end = indptr[v + 1];
    min_key[v] = indptr[v] < end ? scanned[end - 1] : ~(ulong)0;
    succ[v] = v;
}

/* Step 1, find-min-edge: the entry holding the vertex's minimum names its successor
   (keys are unique within a segment: one entry per edge and direction). */
__kernel void successor(__global const uint *esrc, __global const uint *eadj,
                        __global const ulong *ekey, uint entries,
                        __global const ulong *min_key, __global uint *succ)
{
    uint j = get_global_id(0);
    if (j >= entries)
        return;
    uint v = esrc[j];
    if ((ekey[j] & ~TOP) == min_key[v])
        succ[v] = eadj[j];
}

/* Step 2, remove-cycle: two vertices that chose each other chose the same edge; the
   smaller becomes the root of the pair. Every other choice is a forest edge. */
__kernel void remove_cycles(__global const uint *succ, __global const ulong *min_key, uint n,
                            ulong slot_mask, __global uint *parent, __global uchar *in_forest)
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    uint s = succ[v];
    bool root = s == v || (succ[s] == v && v < s);
    parent[v] = root ? v : s;
    if (!root)
        in_forest[min_key[v] & slot_mask] = 1;
}

/* Step 3, merge-vertices: follow parents to the root of each tree, shortening the path
   for later walkers (any value read is an ancestor, so races only shorten walks). */
__kernel void find_roots(__global uint *parent, uint n, __global uint *is_root)
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    uint r = parent[v];
    while (parent[r] != r)
        r = parent[r];
    parent[v] = r;
    is_root[v] = r == v;
}

/* Step 3: each vertex takes its root's new number (an exclusive sum of the root flags). */
__kernel void relabel(__global const uint *parent, __global const uint *new_id,
                      __global const uint *is_root, uint n, __global uint *label,
                      __global uint *totals)
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    label[v] = new_id[parent[v]];
    if (v == n - 1)
        totals[0] = new_id[v] + is_root[v];
}

/* Step 4, add-edges-to-new-vertices: entries still joining two supervertices, counted per
   new source vertex. */
__kernel void count_entries(__global const uint *esrc, __global const uint *eadj, uint entries,
                            __global const uint *label, __global uint *degree)
{
    uint j = get_global_id(0);
    if (j >= entries)
        return;
    uint a = label[esrc[j]];
    if (a != label[eadj[j]])
        atomic_inc(&degree[a]);
}

/* Step 4: the number of entries of the new graph, and its indptr's last offset. */
__kernel void close_indptr(__global uint *indptr, __global const uint *degree, uint n,
                           __global uint *totals)
{
    uint total = indptr[n - 1] + degree[n - 1];
    indptr[n] = total;
    totals[1] = total;
}

/* Step 4: each kept entry moves into its new vertex's segment; the first to arrive
   carries the segment-head flag for the next round's min scan. */
__kernel void scatter_entries(__global const uint *esrc, __global const uint *eadj,
                              __global const ulong *ekey, uint entries,
                              __global const uint *label, __global const uint *indptr,
                              __global uint *fill, __global uint *out_src,
                              __global uint *out_adj, __global ulong *out_key)
{
    uint j = get_global_id(0);
    if (j >= entries)
        return;
    uint a = label[esrc[j]];
    uint b = label[eadj[j]];
    if (a == b)
        return;
    uint offset = atomic_inc(&fill[a]);
    uint pos = indptr[a] + offset;
    out_src[pos] = a;
    out_adj[pos] = b;
    out_key[pos] = (ekey[j] & ~TOP) | (offset == 0 ? TOP : 0);
}
