/* Per-vertex triangle counts on a bit adjacency matrix.
 * Row i holds W = ceil(n/32) words; bit b of word w stands for vertex j = 32*w + b.
 * Undirected edge {i, j} with i < j exists iff bit j of row i is set; bits with j <= i and j >= n
 * are ignored (the matrix need not be symmetric: only the strict upper triangle is read).
 * tri[i] = #{(j, k) : i < j < k < n, edges {i,j}, {i,k}, {j,k}}, i.e. the triangles whose smallest
 * vertex is i. For each edge {i, j} (i < j), count the k > j set in both row i and row j. */
#include <stddef.h>
#include <stdint.h>

static int bit_of(const unsigned int* row, int j) { return (int)((row[j >> 5] >> (j & 31)) & 1u); }

void triangle_count_bitset(int n, const unsigned int* adj, int* tri) {
  const int W = (n + 31) / 32;
  const unsigned int tail = (n & 31) ? ((1u << (n & 31)) - 1u) : 0xFFFFFFFFu;  // valid bits of word W-1
  for (int i = 0; i < n; ++i) {
    const unsigned int* ri = adj + (size_t)i * W;
    long long count = 0;
    for (int j = i + 1; j < n; ++j) {
      if (!bit_of(ri, j)) continue;
      const unsigned int* rj = adj + (size_t)j * W;
      const int w0 = j >> 5;
      for (int w = w0; w < W; ++w) {
        unsigned int m = ri[w] & rj[w];
        if (w == w0) m &= (unsigned int)(0xFFFFFFFFull << ((j & 31) + 1));  // only k > j
        if (w == W - 1) m &= tail;                                         // only k < n
        count += __builtin_popcount(m);
      }
    }
    tri[i] = (int)count;
  }
}
