/* Root and depth in a parent-pointer forest.
 * parent(i) = i - off[i] when 0 < off[i] <= i, otherwise i is a root (parent(i) = i).
 * Parents always have smaller indices, so the forest is acyclic and can be resolved in index
 * order: root[i] = root[parent(i)], depth[i] = depth[parent(i)] + 1; roots get root[i] = i and
 * depth[i] = 0. The result equals following parent pointers from i until a root is reached. */
void forest_root_depth(int n, const unsigned char* off, int* root, int* depth) {
  for (int i = 0; i < n; ++i) {
    const int o = off[i];
    if (o == 0 || o > i) {
      root[i] = i;
      depth[i] = 0;
    } else {
      root[i] = root[i - o];
      depth[i] = depth[i - o] + 1;
    }
  }
}
