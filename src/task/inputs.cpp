#include "cudaperf/task/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <xxhash.h>

#include "cudaperf/util/parallel.hpp"

namespace cudaperf::task {

double BufferView::get(int64_t i) const {
  switch (type) {
    case ScalarType::I8: return static_cast<const int8_t*>(data)[i];
    case ScalarType::U8: return static_cast<const uint8_t*>(data)[i];
    case ScalarType::I32: return static_cast<const int32_t*>(data)[i];
    case ScalarType::U32: return static_cast<const uint32_t*>(data)[i];
    case ScalarType::I64: return static_cast<double>(static_cast<const int64_t*>(data)[i]);
    case ScalarType::U64: return static_cast<double>(static_cast<const uint64_t*>(data)[i]);
    case ScalarType::F32: return static_cast<const float*>(data)[i];
    case ScalarType::F64: return static_cast<const double*>(data)[i];
  }
  return 0;
}

namespace {
template <class T>
T saturate(double v) {
  if (std::isnan(v)) return T{0};
  double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v <= lo) return std::numeric_limits<T>::lowest();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}
}  // namespace

void BufferView::set(int64_t i, double v) {
  switch (type) {
    case ScalarType::I8: static_cast<int8_t*>(data)[i] = saturate<int8_t>(v); break;
    case ScalarType::U8: static_cast<uint8_t*>(data)[i] = saturate<uint8_t>(v); break;
    case ScalarType::I32: static_cast<int32_t*>(data)[i] = saturate<int32_t>(v); break;
    case ScalarType::U32: static_cast<uint32_t*>(data)[i] = saturate<uint32_t>(v); break;
    case ScalarType::I64: static_cast<int64_t*>(data)[i] = saturate<int64_t>(v); break;
    case ScalarType::U64: static_cast<uint64_t*>(data)[i] = saturate<uint64_t>(v); break;
    case ScalarType::F32: static_cast<float*>(data)[i] = static_cast<float>(v); break;
    case ScalarType::F64: static_cast<double*>(data)[i] = v; break;
  }
}

Result<CallShape> call_shape(const Task& t, const Config& c) {
  CallShape s;
  s.counts.assign(t.params.size(), 0);
  s.scalars.assign(t.params.size(), 0.0);
  for (size_t i = 0; i < t.params.size(); ++i) {
    const Param& p = t.params[i];
    if (p.pointer) {
      auto n = buffer_len(p, c);
      if (auto* m = std::get_if<std::string>(&n))
        return Diagnostic{t.dir.string(), p.line, 0, fmt::format("config '{}': {}", c.name, *m)};
      s.counts[i] = std::get<int64_t>(n);
    } else if (p.role == Role::Size) {
      s.scalars[i] = static_cast<double>(c.sizes.at(p.name));
    } else {
      auto it = c.scalars.find(p.name);
      s.scalars[i] = it != c.scalars.end() ? it->second : p.value.value_or(0.0);
    }
  }
  return s;
}

void fill_input(const Param& p, const Config& c, uint64_t seed, BufferView out) {
  if (!p.dist || out.count == 0) return;
  const Dist& d = *p.dist;
  uint64_t stream = XXH3_64bits(p.name.data(), p.name.size());
  // Element-wise distributions are drawn in fixed chunks, each from its own generator, so large
  // buffers fill in parallel and the bytes do not depend on the thread count.
  constexpr int64_t kChunk = 1 << 20;
  if (d.kind == Dist::Kind::Uniform || d.kind == Dist::Kind::Normal || d.kind == Dist::Kind::Mixed ||
      d.kind == Dist::Kind::Index || d.kind == Dist::Kind::Const) {
    if (out.count > kChunk) {
      size_t chunks = static_cast<size_t>((out.count + kChunk - 1) / kChunk);
      parallel_for(chunks, default_jobs(), [&](size_t ci) {
        BufferView part = out;
        part.data = static_cast<unsigned char*>(out.data) + static_cast<size_t>(ci) * kChunk * type_size(out.type);
        part.count = std::min<int64_t>(kChunk, out.count - static_cast<int64_t>(ci) * kChunk);
        fill_input(p, c, seed ^ (0xA24BAED4963EE407ull * (ci + 1)), part);
      });
      return;
    }
  }
  Rng rng(seed, stream);
  auto ival = [&](size_t k) -> int64_t {
    auto v = d.ints[k].eval(c.sizes);
    return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : 0;
  };
  const bool fl = is_float(p.type);
  auto uniform = [&](double a, double b) {
    if (fl) return a + (b - a) * rng.uniform01();
    // integers: inclusive [a, b]
    auto lo = static_cast<int64_t>(std::ceil(a)), hi = static_cast<int64_t>(std::floor(b));
    if (hi < lo) return static_cast<double>(lo);
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return static_cast<double>(lo + static_cast<int64_t>(rng.next() % span));
  };
  switch (d.kind) {
    case Dist::Kind::Uniform:
      for (int64_t i = 0; i < out.count; ++i) out.set(i, uniform(d.reals[0], d.reals[1]));
      break;
    case Dist::Kind::Normal:
      for (int64_t i = 0; i < out.count; ++i) {
        double u1 = std::max(rng.uniform01(), 1e-300), u2 = rng.uniform01();
        out.set(i, d.reals[0] + d.reals[1] * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2));
      }
      break;
    case Dist::Kind::Mixed: {
      double a = d.reals[0], b = d.reals[1];
      double tiny_scale = std::max(std::fabs(a), std::fabs(b)) * 1e-4;
      for (int64_t i = 0; i < out.count; ++i) {
        uint64_t pick = rng.next() % 8;
        double v;
        if (pick == 0 && a <= 0 && b >= 0) v = (rng.uniform01() * 2 - 1) * tiny_scale;  // near zero
        else if (pick == 1) v = (rng.next() & 1) ? a : std::nextafter(b, a);           // range ends
        else if (pick == 2) v = std::round(uniform(a, b));                              // small integers
        else v = uniform(a, b);
        out.set(i, std::clamp(v, a, b));
      }
      break;
    }
    case Dist::Kind::Index: {
      int64_t lo = ival(0), hi = ival(1);
      uint64_t span = hi > lo ? static_cast<uint64_t>(hi - lo) : 1;
      for (int64_t i = 0; i < out.count; ++i) out.set(i, static_cast<double>(lo + static_cast<int64_t>(rng.next() % span)));
      break;
    }
    case Dist::Kind::Permutation: {
      std::vector<int64_t> perm(static_cast<size_t>(out.count));
      for (int64_t i = 0; i < out.count; ++i) perm[i] = i;
      for (int64_t i = out.count - 1; i > 0; --i) std::swap(perm[i], perm[rng.next() % static_cast<uint64_t>(i + 1)]);
      for (int64_t i = 0; i < out.count; ++i) out.set(i, static_cast<double>(perm[i]));
      break;
    }
    case Dist::Kind::RowPtr: {
      // rows = count-1; split nnz into rows random non-negative parts, in order.
      int64_t nnz = std::max<int64_t>(ival(0), 0), rows = out.count - 1;
      out.set(0, 0);
      if (rows <= 0) break;
      // Sorted random cut points, drawn as a random walk so it is O(rows).
      std::vector<double> w(static_cast<size_t>(rows));
      double total = 0;
      for (auto& x : w) total += (x = 0.25 + rng.uniform01() * 1.5 * (1 + (rng.next() % 16 == 0 ? 6 : 0)));
      int64_t acc = 0;
      double run = 0;
      for (int64_t r = 0; r < rows; ++r) {
        run += w[static_cast<size_t>(r)];
        int64_t next = (r == rows - 1) ? nnz : static_cast<int64_t>(std::floor(run / total * static_cast<double>(nnz)));
        acc = std::clamp(next, acc, nnz);
        out.set(r + 1, static_cast<double>(acc));
      }
      break;
    }
    case Dist::Kind::Sorted: {
      std::vector<double> v(static_cast<size_t>(out.count));
      for (auto& x : v) x = uniform(d.reals[0], d.reals[1]);
      std::sort(v.begin(), v.end());
      for (int64_t i = 0; i < out.count; ++i) out.set(i, v[static_cast<size_t>(i)]);
      // Re-read after conversion may reorder float rounding ties: conversion is monotone, fine.
      break;
    }
    case Dist::Kind::Const:
      for (int64_t i = 0; i < out.count; ++i) out.set(i, d.reals[0]);
      break;
  }
}

void prefill_output(BufferView out, Prefill kind) {
  if (kind == Prefill::Nan && is_float(out.type)) {
    for (int64_t i = 0; i < out.count; ++i) out.set(i, std::numeric_limits<double>::quiet_NaN());
  } else {
    std::memset(out.data, kind == Prefill::Nan ? 0x5A : 0xA5, out.bytes());
  }
}

}  // namespace cudaperf::task
