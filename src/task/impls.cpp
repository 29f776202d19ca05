// impls.hpp: one task's implementations and their strategy lines.
#include "impls.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>

#include "cudaperf/util/file.hpp"
#include "text.hpp"

namespace cudaperf::task::detail {

namespace fs = std::filesystem;

std::vector<Impl> read_impls(const fs::path& impl_dir, std::string_view ext, std::string_view comment,
                             std::vector<Diagnostic>& errors) {
  std::vector<Impl> impls;
  const std::string tag = fmt::format("{} strategy:", comment);
  for (const auto& e : fs::directory_iterator(impl_dir)) {
    if (!e.is_regular_file()) continue;
    if (e.path().extension() != ext) {
      errors.push_back({e.path().string(), 0, 0, fmt::format("unexpected file in impls/ (only <strategy>{})", ext)});
      continue;
    }
    Impl im;
    im.path = e.path();
    im.strategy = e.path().stem().string();
    auto src = read_file(e.path());
    std::string first = src ? src->substr(0, src->find('\n')) : "";
    if (first.rfind(tag, 0) != 0) {
      errors.push_back({im.path.string(), 1, 0,
                        fmt::format("first line must be \"{} {} — <what it does>\"", tag, im.strategy)});
    } else {
      im.header = collapse_spaces(first.substr(tag.size()));
      std::string named = im.header.substr(0, im.header.find_first_of(" \t"));
      if (named != im.strategy)
        errors.push_back({im.path.string(), 1, 0,
                          fmt::format("strategy line names '{}' but the file is {}{}", named, im.strategy, ext)});
      im.weak = im.header.find("weak)") != std::string::npos;  // "(weak)" or "(uncoalesced, weak)"
    }
    impls.push_back(std::move(im));
  }
  std::sort(impls.begin(), impls.end(), [](const Impl& a, const Impl& b) { return a.strategy < b.strategy; });
  return impls;
}

}  // namespace cudaperf::task::detail
