// The launch scanner over candidate source (the .cu a model wrote), and the per-kernel lookup the
// analyses do with it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cudaperf/analysis/launch_scan.hpp"

using namespace cudaperf::analysis;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto sites = scan_launches(std::string_view(reinterpret_cast<const char*>(data), size));
  // Look each launched kernel up as c++filt would spell it: plain, and instantiated with the
  // template arguments the site wrote.
  for (const auto& s : sites) {
    (void)launch_shape_for(sites, "void " + s.base + "(float*, int)");
    std::string args;
    for (const auto& a : s.template_args) {
      if (!args.empty()) args += ", ";
      args += a.kind == TemplateArg::Number ? std::to_string(a.number) : a.kind == TemplateArg::Type ? a.text : "T";
    }
    (void)launch_shape_for(sites, "void (anonymous namespace)::" + s.base + "<" + args + ">(float*)");
  }
  (void)launch_shape_for(sites, std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
