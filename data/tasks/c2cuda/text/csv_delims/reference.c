/* Delimiter positions of a quoted CSV buffer (',' and '\n' outside double quotes). */
void csv_delims(int n, const unsigned char* data, int* count, int* pos) {
  int inside = 0, c = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned char b = data[i];
    if (b == '"') inside ^= 1;
    else if (!inside && (b == ',' || b == '\n')) pos[c++] = i;
  }
  count[0] = c;
  for (int i = c; i < n; ++i) pos[i] = -1;
}
