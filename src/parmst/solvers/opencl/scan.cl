/* Two-level reduce-then-scan (Sun and Skadron, Algorithms 1-3; after Merrill).
 *
 * Built once per value type, operator and segment mode with:
 *   -DT=<type> -DU=<unsigned type of the same width> -DOP=<0 add|1 min|2 max>
 *   -DIDENT=<identity of OP> -DMODE=<0 plain|1 head-flag array|2 head flag in the top bit>
 *   -DWG=<work-group size, a power of two> -DITEMS=<elements per thread and tile>
 * A tile is WG * ITEMS consecutive elements. A fixed number of work-groups each
 * walk a contiguous run of tiles: three launches whatever the input size.
 *
 * Segmented scans combine (flag, value) pairs with the associative operator
 *   (fa, a) . (fb, b) = (fa | fb, fb ? b : a OP b)
 * so a head flag restarts the running value, and the same reduce-then-scan
 * applies unchanged.
 */
#ifdef FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE (WG * ITEMS)

#if OP == 0
/* Integer add on the unsigned type: wraps modulo 2^bits as NumPy does, with no
   signed-overflow undefined behaviour. Floats add directly. */
#ifdef FLOAT
#define APPLY(a, b) ((a) + (b))
#else
#define APPLY(a, b) ((T)((U)(a) + (U)(b)))
#endif
#elif OP == 1
#define APPLY(a, b) ((b) < (a) ? (b) : (a))
#else
#define APPLY(a, b) ((b) > (a) ? (b) : (a))
#endif

#if MODE == 1
typedef struct { T v; uint f; } E;
inline E ident(void) { E e; e.v = IDENT; e.f = 0; return e; }
inline E combine(E a, E b) { E r; r.v = b.f ? b.v : APPLY(a.v, b.v); r.f = a.f | b.f; return r; }
inline bool is_head(E e) { return e.f != 0; }
inline T value(E e) { return e.v; }
#define LOAD(i) load_flagged(in, heads, i)
inline E load_flagged(__global const T *in, __global const uchar *heads, ulong i)
{
    E e; e.v = in[i]; e.f = heads[i]; return e;
}
#define HEADS_ARG , __global const uchar *heads
#elif MODE == 2
/* The head flag is the top bit of an unsigned value; the operator sees the rest. */
#define TOP ((T)1 << (8 * sizeof(T) - 1))
typedef T E;
inline E ident(void) { return IDENT; }
inline E combine(E a, E b) { return (b & TOP) ? b : ((a & TOP) | APPLY(a & ~TOP, b)); }
inline bool is_head(E e) { return (e & TOP) != 0; }
inline T value(E e) { return e & ~TOP; }
#define LOAD(i) in[i]
#define HEADS_ARG
#else
typedef T E;
inline E ident(void) { return IDENT; }
inline E combine(E a, E b) { return APPLY(a, b); }
inline bool is_head(E e) { return false; }
inline T value(E e) { return e; }
#define LOAD(i) in[i]
#define HEADS_ARG
#endif

/* Kogge-Stone inclusive scan of one value per work-item across the work-group.
   On return part[WG - 1] holds the work-group's total and part is stable. */
inline E group_scan(E p, __local E *part, uint lid)
{
    part[lid] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        E before = lid >= d ? part[lid - d] : p;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid >= d) {
            p = combine(before, p);
            part[lid] = p;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return p;
}

/* Coalesced load of one tile into local memory, identity past the end. */
#define LOAD_TILE(tile, base, n, lid)                                  \
    for (uint k = 0; k < ITEMS; ++k) {                                 \
        ulong i = (base) + k * WG + (lid);                             \
        (tile)[k * WG + (lid)] = i < (n) ? LOAD(i) : ident();          \
    }

/* Sequential reduction of this work-item's ITEMS consecutive tile elements. */
inline E thread_reduce(__local const E *tile, uint lid)
{
    E p = tile[lid * ITEMS];
    for (uint k = 1; k < ITEMS; ++k)
        p = combine(p, tile[lid * ITEMS + k]);
    return p;
}

inline void tile_range(ulong n, ulong tiles_per_group, ulong *first, ulong *last)
{
    ulong tiles = (n + TILE - 1) / TILE;
    *first = min(tiles, get_group_id(0) * tiles_per_group);
    *last = min(tiles, *first + tiles_per_group);
}

#if MODE == 0
/* Algorithm 1 (upsweep) without segments: each work-group reduces its run of tiles
   to one value. Add, min and max commute, so each work-item folds a strided sweep
   straight from global memory (coalesced, ITEMS loads in flight, no local tile and
   no barrier per tile) and the group combines once at the end: the upsweep only
   reads, at the device's streaming rate. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void upsweep(__global const T *in, ulong n, ulong tiles_per_group, __global E *group_total)
{
    __local E part[WG];
    uint lid = get_local_id(0);
    ulong first, last;
    tile_range(n, tiles_per_group, &first, &last);
    ulong end = min(n, last * TILE);
    ulong i = first * TILE + lid;
    E carry = ident();
    for (; i + (ITEMS - 1) * WG < end; i += TILE) {
        E x[ITEMS];
        for (uint k = 0; k < ITEMS; ++k)
            x[k] = in[i + k * WG];
        for (uint k = 0; k < ITEMS; ++k)
            carry = combine(carry, x[k]);
    }
    for (; i < end; i += WG)  /* the run's last, partial tile */
        carry = combine(carry, in[i]);
    group_scan(carry, part, lid);
    if (lid == 0)
        group_total[get_group_id(0)] = part[WG - 1];
}
#else
/* Algorithm 1 (upsweep): each work-group reduces its run of tiles to one value.
   Segmented combination does not commute, so tiles are reduced in order. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void upsweep(__global const T *in HEADS_ARG, ulong n, ulong tiles_per_group,
             __global E *group_total)
{
    __local E tile[TILE];
    __local E part[WG];
    uint lid = get_local_id(0);
    ulong first, last;
    tile_range(n, tiles_per_group, &first, &last);
    E carry = ident();
    for (ulong t = first; t < last; ++t) {
        LOAD_TILE(tile, t * TILE, n, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        group_scan(thread_reduce(tile, lid), part, lid);
        carry = combine(carry, part[WG - 1]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        group_total[get_group_id(0)] = carry;
}
#endif

/* Algorithm 2 (spine): one work-group turns the groups' totals into exclusive
   prefixes, in place (at most TILE groups). */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void spine(__global E *group_total, uint groups)
{
    __local E tile[TILE];
    __local E part[WG];
    uint lid = get_local_id(0);
    for (uint k = 0; k < ITEMS; ++k) {
        uint i = k * WG + lid;
        tile[i] = i < groups ? group_total[i] : ident();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    group_scan(thread_reduce(tile, lid), part, lid);
    E run = lid ? part[lid - 1] : ident();
    for (uint k = 0; k < ITEMS; ++k) {
        uint i = lid * ITEMS + k;
        E x = tile[i];
        if (i < groups)
            group_total[i] = run;
        run = combine(run, x);
    }
}

/* Algorithm 3 (downsweep): rescan each tile with the carried prefix of the
   tiles before it; exclusive scans give the identity at segment heads. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void downsweep(__global const T *in HEADS_ARG, __global T *out, ulong n,
               ulong tiles_per_group, __global const E *group_prefix, int exclusive)
{
    __local E tile[TILE];
    __local E part[WG];
    uint lid = get_local_id(0);
    ulong first, last;
    tile_range(n, tiles_per_group, &first, &last);
    E carry = group_prefix[get_group_id(0)];
    for (ulong t = first; t < last; ++t) {
        ulong base = t * TILE;
        LOAD_TILE(tile, base, n, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        group_scan(thread_reduce(tile, lid), part, lid);
        E run = combine(carry, lid ? part[lid - 1] : ident());
        carry = combine(carry, part[WG - 1]);
        for (uint k = 0; k < ITEMS; ++k) {
            uint i = lid * ITEMS + k;
            E x = tile[i];
            E next = combine(run, x);
            tile[i] = !exclusive ? next : is_head(x) ? ident() : run;
            run = next;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < ITEMS; ++k) {
            ulong i = base + k * WG + lid;
            if (i < n)
                out[i] = value(tile[k * WG + lid]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
