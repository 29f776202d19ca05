/* Key counting: table[j] = number of i with keys[i] == j, j in [0, k); other keys are ignored. */
void key_count_i32(int n, int k, const int* keys, int* table) {
  for (int j = 0; j < k; ++j) table[j] = 0;
  for (int i = 0; i < n; ++i) {
    const int key = keys[i];
    if (key >= 0 && key < k) table[key]++;
  }
}
