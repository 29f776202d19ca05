// The candidate in a model answer, by the rules of python/cudaperf/extract.py (shared cases in
// tests/data/extract/cases.json): the text after the prompt's echo, reasoning (<think>…</think>)
// dropped, closed CommonMark-style fences (``` or ~~~, a closing fence at least as long as the
// opening one), the last block tagged cuda/cu/cpp/c++/c, else the last non-empty block.
// The reward service (serve::extract_code) and `cudaperf refine` both call it.
#pragma once
#include <string>

namespace cudaperf::agent {

// "" when there is no closed, non-empty block.
std::string extract_code(const std::string& response, const std::string& prompt = "");

// Why extract_code found nothing: "unclosed" (a fence opened and never closed: a cut-off answer),
// "empty" (only whitespace blocks) or "none" (no fence at all).
std::string missing_code_reason(const std::string& response, const std::string& prompt = "");

}  // namespace cudaperf::agent
