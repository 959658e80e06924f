/* A naive multi-pass scan-then-propagate of uint32 sums: the benchmark's stand-in for
 * the CLPP library that Sun and Skadron compare their reduce-then-scan with (section 3).
 * Each level scans blocks of WG elements in one work-group and writes the block sums;
 * the sums are scanned the same way, level after level, then every level adds its
 * block's prefix back: 2 log_WG(n) launches where the reduce-then-scan takes three.
 * Built with -DWG=<work-group size>.
 */

/* One work-group scans WG elements in place (exclusive, Kogge-Stone) and writes their sum. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_scan(__global uint *data, ulong n, __global uint *sums)
{
    __local uint part[WG];
    uint lid = get_local_id(0);
    ulong i = get_global_id(0);
    uint x = i < n ? data[i] : 0;
    uint p = x;
    part[lid] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        uint before = lid >= d ? part[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        p += before;
        part[lid] = p;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n)
        data[i] = p - x;
    if (lid == WG - 1)
        sums[get_group_id(0)] = p;
}

/* Add each block's scanned prefix to its elements. */
__kernel void propagate(__global uint *data, ulong n, __global const uint *sums)
{
    ulong i = get_global_id(0);
    if (i < n)
        data[i] += sums[i / WG];
}
