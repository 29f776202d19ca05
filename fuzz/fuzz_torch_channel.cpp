// The torch2cuda worker's result channel (fd 3): bytes the worker, and in a candidate worker the
// candidate, wrote. Parsed strictly (candidate worker) and not (reference worker).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cudaperf/torch2cuda/channel.hpp"

using cudaperf::torch2cuda::parse_channel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto loose = parse_channel(bytes, false, false);
  auto strict = parse_channel(bytes, false, true);
  auto overflowed = parse_channel(bytes, true, true);
  // What the supervisor relies on: strictness flags lines but never drops or adds events, and an
  // overflowed channel is never trusted. (Which events a candidate may send is the protocol's rule,
  // tested with the protocol.)
  if (strict.events.size() != loose.events.size() || !loose.forged.empty()) std::abort();
  if (overflowed.forged.empty()) std::abort();
  return 0;
}
