#include "task_toml_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return cudaperf::fuzz::task_toml_target(data, size);
}
