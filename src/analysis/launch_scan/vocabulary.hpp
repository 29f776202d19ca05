// C++ words and builtin types the launch scan recognises.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace cudaperf::analysis::launch {

const std::set<std::string>& keywords();
bool is_keyword(const std::string& s);
// Identifiers that may appear in the specifiers of an integer declaration.
const std::set<std::string>& integer_words();
// Qualifiers and storage classes that may come with a declaration's type.
const std::set<std::string>& qualifier_words();
// sizeof of builtin and CUDA vector types (x86-64 host, as nvcc compiles host code).
std::optional<int64_t> sizeof_type(const std::string& t);
// Canonical c++filt spelling of a builtin type, for matching template arguments; "" when unknown.
std::string canonical_type(const std::string& t);

}  // namespace cudaperf::analysis::launch
