/* ASCII title-casing and character classification. */
static int is_letter(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

static unsigned char char_class(unsigned char c) {
  if (c == ' ' || (c >= 9 && c <= 13)) return 1;
  if (c < 32 || c == 127) return 0;
  if (c >= '0' && c <= '9') return 2;
  if (is_letter(c)) return 3;
  if (c >= 128) return 5;
  return 4;
}

void titlecase_classify(long long n, const unsigned char* text, unsigned char* out, unsigned char* cls) {
  for (long long i = 0; i < n; ++i) {
    const unsigned char c = text[i];
    unsigned char o = c;
    if (is_letter(c)) {
      const int start = (i == 0) || !is_letter(text[i - 1]);
      o = start ? (unsigned char)(c & ~0x20) : (unsigned char)(c | 0x20);
    }
    out[i] = o;
    cls[i] = char_class(c);
  }
}
