// The PTX reader and the static analyses over what it reads. Candidate PTX comes from nvcc, but the
// source is the candidate's (inline asm is copied through), so the reader sees attacker-shaped text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cudaperf/analysis/census.hpp"
#include "cudaperf/analysis/coalescing.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "cudaperf/analysis/report.hpp"

using namespace cudaperf::analysis;

namespace {

void analyse(const PtxKernel& k) {
  (void)immediate_dominators(block_successors(k), 0);
  auto with_exit = block_successors_with_exit(k);
  (void)immediate_post_dominators(with_exit, static_cast<int>(k.blocks.size()));
  for (const auto& in : k.instrs) {
    for (const auto& part : opcode_parts(in.opcode)) (void)type_bytes(part);
    for (const auto& op : in.operands) (void)operand_registers(op);
  }
  Census c = census(k);
  (void)census_to_json(c).dump();
  (void)sync_score(c);
  auto accesses = coalescing(k);
  (void)coalescing_score(accesses);  // (address_form would re-run the same fixpoint)
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto m = parse_ptx(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ptx");
  if (!m.ok()) return 0;
  for (const auto& k : m->kernels) analyse(k);
  for (const auto& f : m->funcs) analyse(f);
  return 0;
}
