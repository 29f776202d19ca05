// Launch shapes from host code: a small source scanner (no C++ parser) that finds the kernel
// launches `NAME<<<grid, block[, smem[, stream]]>>>` of a .cu file and resolves the block size and
// the dynamic shared memory when they are compile-time values written in that file. Rules and
// limits: docs/analysis.md ("Launch shape").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaperf::analysis {

// One launch argument (block size or dynamic shared memory) and what the scanner made of it.
struct LaunchValue {
  std::string expr;               // the argument as written (whitespace collapsed)
  std::vector<int64_t> values;    // the values it can take, sorted, without duplicates (a runtime
                                  // choice between constants gives several); empty: unknown
  std::string why;                // when values.size() != 1: why it is not one known value
  bool known() const { return values.size() == 1; }
};

// A template argument of a launch, as far as the scanner can tell.
struct TemplateArg {
  enum Kind { Number, Type, Unknown } kind = Unknown;
  int64_t number = 0;  // Number: true = 1, false = 0
  std::string text;    // Type: a builtin type spelt with single spaces ("unsigned int")
};

struct LaunchSite {
  int line = 0;                      // 1-based line of the `<<<`
  std::string kernel;                // the callee as written, e.g. "ns::k<128, true>"
  std::string base;                  // its last identifier: "k"
  bool templated = false;            // template arguments were written
  std::vector<TemplateArg> template_args;
  LaunchValue block;                 // threads per block: the product of the dim3 components
  LaunchValue dynamic_smem;          // bytes; "0" when the launch gives no third argument
};

// Every `<<<...>>>` launch in a CUDA source file, in source order. Launches inside macros and
// through function pointers or cudaLaunchKernel are not seen.
std::vector<LaunchSite> scan_launches(std::string_view source);

// What the launch sites say about one kernel. A value is resolved only when every site that may
// launch the kernel gives the same single value; otherwise it is nullopt and the note says why.
struct KernelLaunchShape {
  std::vector<const LaunchSite*> sites;   // the sites that may launch this kernel
  std::optional<int64_t> block_size;
  std::string block_note;                 // why unresolved (empty when resolved)
  std::optional<int64_t> dynamic_smem;
  std::string smem_note;
};

// The sites that may launch the kernel with this demangled name (c++filt output, e.g.
// "void (anonymous namespace)::k<128, true>(float*, int)"): same last identifier, and template
// arguments that agree where both sides are known (a launch `k<L>` with L not a constant may
// launch any instantiation).
KernelLaunchShape launch_shape_for(const std::vector<LaunchSite>& sites, std::string_view demangled_name);

}  // namespace cudaperf::analysis
