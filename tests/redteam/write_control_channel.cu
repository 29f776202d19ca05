// redteam: issue 18 class 2 — forges the launcher's replies: finds the measurer's last command in its own memory (the nonce of this call), then writes forged "enqueued"/"returned" lines for it and the next ones, and old-style result lines, on every descriptor 0-64 with libc's write found at run time (write is refused at link time); computes nothing
// expect: wrong_answer|hack_suspected|runtime_error|crash|timeout
//
// Old design: there was no control channel (the report was a shared mapping, class 2's
// forge_report_log row); what reached fd 1/2 landed in eval's own report stream (print_forged_report).
// New design (sandbox/launcher_main.cpp): fd 3 carries {"enq":N} and {"ret":N,"err":0,...} per call;
// the measurer times with its own events and compares in its own context, so forged replies are
// control flow at most: out keeps its poison (wrong_answer), or the measurer sees replies out of
// order (runtime_error / hack_suspected). A descriptor of the CUDA driver's that takes the lines
// may wedge the context (crash / timeout): any of these is a refusal.
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

using WriteFn = long (*)(int, const void*, size_t);

// The decimal after `"n":` in the newest {"op":"call",...} the launcher received (the channel's
// buffer or the parsed line, on its stack or heap); 0 when none is found.
unsigned long long find_nonce(const redteam::Probe& pr) {
  static const char key[] = "\"n\":";
  static const char op[] = "\"op\":\"call\"";
  unsigned long long best = 0;
  for (const redteam::Range& r : {redteam::stack_range(pr), redteam::heap_range(pr)}) {
    for (uintptr_t p = r.lo; p + 64 <= r.hi; ++p) {
      const char* c = reinterpret_cast<const char*>(p);
      if (c[0] != '{' || memcmp(c + 1, "\"cfg\"", 5) != 0) continue;  // nlohmann::json dumps keys in order
      const char* end = c;
      while (end < c + 60 && *end != '}' && *end != '\n') ++end;
      bool is_call = false;
      unsigned long long v = 0;
      for (const char* q = c; q + sizeof op - 1 <= end; ++q) is_call |= memcmp(q, op, sizeof op - 1) == 0;
      for (const char* q = c; q + sizeof key - 1 <= end; ++q)
        if (memcmp(q, key, sizeof key - 1) == 0)
          for (const char* d = q + sizeof key - 1; d < end && *d >= '0' && *d <= '9'; ++d) v = v * 10 + (*d - '0');
      if (is_call && v > best) best = v;
    }
  }
  return best;
}

size_t append_number(char* b, unsigned long long v) {
  char tmp[24];
  size_t k = 0;
  do tmp[k++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
  for (size_t i = 0; i < k; ++i) b[i] = tmp[k - 1 - i];
  return k;
}

size_t append_text(char* b, const char* s) {
  size_t k = strlen(s);
  memcpy(b, s, k);
  return k;
}

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)n, (void)a, (void)x, (void)y, (void)out, (void)stream;
  auto write = reinterpret_cast<WriteFn>(redteam::libc_symbol("write"));
  if (!write) return;
  redteam::Probe pr;
  unsigned long long nonce = find_nonce(pr);
  char buf[4096];
  size_t len = 0;
  for (unsigned long long k = nonce; k < nonce + 4; ++k) {  // this call and the next ones (if sequential)
    len += append_text(buf + len, "{\"enq\":");
    len += append_number(buf + len, k);
    len += append_text(buf + len, "}\n{\"err\":0,\"msg\":\"\",\"ret\":");
    len += append_number(buf + len, k);
    len += append_text(buf + len, "}\n");
  }
  len += append_text(buf + len,
                     "{\"config\":\"perf\",\"run\":0,\"status\":\"done\",\"median_ms\":1.05,\"min_ms\":1.04,\"q1_ms\":1.045,"
                     "\"q3_ms\":1.055,\"rel_stdev\":0.002,\"samples\":40}\n{\"verdict\":\"ok\",\"status\":\"ok\"}\n");
  for (int fd = 0; fd <= 64; ++fd) write(fd, buf, len);
}
