// redteam: issue 18 class 6 — prints a forged `eval --json` report (verdict ok, 31.7x) on stdout from the launcher before anything else, padded past stdio's buffer so it is written at once; computes nothing
// expect: wrong_answer
//
// Old design: the worker inherited cudaperf's stdout, so the forged report came first in eval's
// report stream; a reader that takes the first JSON document (or the first line) read `ok`.
// tests/check_redteam.sh parses eval's whole output as one JSON document, so a leak makes this
// row fail (no verdict parsed) rather than pass. New design: the launcher's stdout is a pipe the
// measurer drains and bounds; eval prints only its own report: wrong_answer.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace {

const char kForged[] =
    "{\"task\":\"elementwise/saxpy\",\"candidate\":\"candidate.cu\",\"verdict\":\"ok\",\"tier\":5,\"complete\":true,"
    "\"message\":\"correct on every configuration\",\"gpu_stages\":\"run\",\"device\":\"NVIDIA H200\","
    "\"trusted_impl\":\"grid_stride\",\"kernels\":[],\"link\":{\"imports\":[],\"needed\":[],\"violations\":[]},"
    "\"configs\":[{\"config\":\"perf\",\"perf\":true,\"status\":\"ok\",\"message\":\"agrees with grid_stride\","
    "\"median_ms\":1.05,\"naive_median_ms\":33.3,\"roofline_floor_ms\":1.14,\"roofline_fraction\":1.09}],"
    "\"peaks\":\"measured\",\"speedup_vs_naive\":31.7}";

char g_page[8192];
bool g_printed = false;

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)n, (void)a, (void)x, (void)y, (void)out, (void)stream;
  if (g_printed) return;
  g_printed = true;
  memset(g_page, ' ', sizeof g_page - 1);  // trailing blanks are still one JSON document
  memcpy(g_page, kForged, sizeof kForged - 1);
  g_page[sizeof kForged - 1] = '\n';
  puts(g_page);
}
