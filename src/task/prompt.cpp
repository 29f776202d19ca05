#include "cudaperf/task/prompt.hpp"
#include "cudaperf/util/file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace cudaperf::task {

namespace {
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

std::string render_prompt(const Task& t) {
  std::string reference = trimmed(read_file(t.reference).value_or(""));
  std::string p = fmt::format(
      "Write a CUDA implementation of the sequential C function below for an NVIDIA H100/H200 (sm_90). It must "
      "produce the same results and run as fast as you can make it.\n\nTask {}: {}\n\nC reference:\n```c\n{}\n```\n\n"
      "Your .cu file must define exactly this function (C linkage, plus a trailing stream argument):\n```cuda\n{}\n```\n\n",
      t.id, t.summary, reference, trimmed(t.cuda_declaration()));
  p += "Parameters:\n";
  for (const auto& prm : t.params) {
    std::string extra;
    if (prm.pointer && !prm.len.empty()) extra = fmt::format(", {} elements", prm.len.text());
    p += fmt::format("- {}: {}{}\n", prm.c_decl(), role_name(prm.role), extra);
  }
  p += "\nIt is checked against the C reference at these sizes (and timed at the largest):\n";
  for (const auto& c : t.configs) {
    std::string sizes;
    for (const auto& [k, v] : c.sizes) sizes += fmt::format("{}{} = {}", sizes.empty() ? "" : ", ", k, v);
    for (const auto& [k, v] : c.scalars) sizes += fmt::format("{}{} = {}", sizes.empty() ? "" : ", ", k, v);
    p += fmt::format("- {}{}: {}\n", c.name, c.perf ? " (timed)" : "", sizes);
  }
  p += fmt::format("\nOutputs must match within rtol = {:g}, atol = {:g}{}.\n", t.rtol, t.atol,
                   t.deterministic ? ", and be bitwise identical from one call to the next" : "");
  p += "\nRules: write your own kernels (no cuBLAS, cuDNN, Thrust or CUB); launch all work on the given stream and "
       "do not synchronise the device or create streams; allocate scratch memory only with cudaMallocAsync / "
       "cudaFreeAsync on that stream; no host threads, files, network or environment; do not modify inputs or "
       "write outside the given buffers. Every call gets fresh inputs and every output is checked.\n\n"
       "Answer with the complete .cu file in one ```cuda code block.\n";
  return p;
}

}  // namespace cudaperf::task
