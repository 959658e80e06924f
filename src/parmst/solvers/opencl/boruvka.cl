/* Segmented-scan Borůvka (Sun and Skadron, Algorithm 4), every step on the device.
 *
 * The graph of the current round is a CSR of directed entries (esrc, eadj, ekey)
 * grouped by source vertex, with indptr. ekey is the edge's unique
 * order-preserving key (< 2^63, packed (weight, id) or rank), and its top bit
 * flags the first entry of each vertex's segment, so find-min-edge is one
 * segmented min scan with the flag in the top bit (Sun and Skadron, section 6).
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

/* Step 4, add-edges-to-new-vertices, on the unsorted edge list (initialization): entries
   still joining two supervertices (here: not self-loops), counted per source vertex. */
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

/* Step 4 on the unsorted edge list: each kept entry takes a slot in its vertex's segment;
   the first to arrive carries the segment-head flag for the next round's min scan. */
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

/* Step 4 on a CSR (every round after the first): the entries of one old vertex all move
   to the same new vertex, so space is reserved per old vertex, not per entry (rmat hubs
   made per-entry atomics on one counter the slowest step). keep[j] marks entries that
   still join two supervertices; rank is its exclusive sum. */
__kernel void keep_entries(__global const uint *esrc, __global const uint *eadj, uint entries,
                           __global const uint *label, __global uint *keep)
{
    uint j = get_global_id(0);
    if (j < entries)
        keep[j] = label[esrc[j]] != label[eadj[j]];
}

/* Kept entries per old vertex, added to its new vertex's degree. */
__kernel void count_kept(__global const uint *indptr, __global const uint *keep,
                         __global const uint *rank, uint n, __global const uint *label,
                         __global uint *kept, __global uint *degree)
{
    uint u = get_global_id(0);
    if (u >= n)
        return;
    uint start = indptr[u];
    uint end = indptr[u + 1];
    uint count = start < end ? rank[end - 1] + keep[end - 1] - rank[start] : 0;
    kept[u] = count;
    if (count)
        atomic_add(&degree[label[u]], count);
}

/* Each old vertex reserves a run of its new vertex's segment. */
__kernel void reserve_runs(__global const uint *kept, uint n, __global const uint *label,
                           __global const uint *new_indptr, __global uint *fill,
                           __global uint *base)
{
    uint u = get_global_id(0);
    if (u < n && kept[u])
        base[u] = new_indptr[label[u]] + atomic_add(&fill[label[u]], kept[u]);
}

/* Kept entries move to their old vertex's run, in order; the segment's first entry carries
   the head flag for the next round's min scan. */
__kernel void scatter_runs(__global const uint *esrc, __global const uint *eadj,
                           __global const ulong *ekey, uint entries,
                           __global const uint *keep, __global const uint *rank,
                           __global const uint *indptr, __global const uint *base,
                           __global const uint *label, __global const uint *new_indptr,
                           __global uint *out_src, __global uint *out_adj,
                           __global ulong *out_key)
{
    uint j = get_global_id(0);
    if (j >= entries || !keep[j])
        return;
    uint u = esrc[j];
    uint a = label[u];
    uint pos = base[u] + rank[j] - rank[indptr[u]];
    out_src[pos] = a;
    out_adj[pos] = label[eadj[j]];
    out_key[pos] = (ekey[j] & ~TOP) | (pos == new_indptr[a] ? TOP : 0);
}
