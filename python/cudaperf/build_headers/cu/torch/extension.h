// cudaperf's first try at a candidate's CUDA file (torch_worker.build_role): torch/extension.h cut
// down to the tensor API (ATen and torch::Tensor), without the C++ frontend (torch/all.h) and the
// Python bindings that a kernel file does not use. Parsing those is most of a cold build's time.
// A file that needs more fails here and is built again against the real header.
#pragma once
#include <torch/types.h>
