// cudaperf's first try at a candidate's C++ file (torch_worker.build_role): the tensor API and the
// Python bindings (what load_inline's generated PYBIND11_MODULE needs), without the rest of the
// C++ frontend (torch/all.h). A file that needs more fails here and is built again against the
// real header.
#pragma once
#include <torch/types.h>
#include <torch/python.h>
