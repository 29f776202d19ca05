#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/util/file.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/util/rule_files.hpp"

namespace cudaperf::compile {

namespace fs = std::filesystem;

namespace {

std::string demangle(const std::string& m) {
  int status = 0;
  char* d = abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &status);
  std::string out = (status == 0 && d) ? d : m;
  std::free(d);
  return out;
}

int int_before(const std::string& line, const std::string& unit) {
  auto pos = line.find(unit);
  if (pos == std::string::npos) return 0;
  size_t end = pos;
  while (end > 0 && line[end - 1] == ' ') --end;
  size_t start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
  return start < end ? std::atoi(line.substr(start, end - start).c_str()) : 0;
}

// config/candidate_policy.toml's tables of the C path (compiled in): the link allowlist, the
// reasons of the denied families, the libraries a candidate may link, the library headers.
struct LinkPolicy {
  std::set<std::string, std::less<>> allowed;
  std::regex allowed_family;  // compiler-emitted helpers: libstdc++'s exception helpers, RTTI
  std::vector<std::pair<std::regex, std::string>> denied;  // first match gives the reason
  std::regex allowed_library;
  std::regex library_include;
};

LinkPolicy parse_policy() {
  namespace rf = rule_files;
  constexpr std::string_view file = "candidate_policy.toml";
  const toml::table t = rf::parse(rf::candidate_policy_toml(), file);
  LinkPolicy p;
  const toml::table* groups = t.at_path("c_link.allowed").as_table();
  if (!groups) rf::defect(file, "c_link.allowed: missing or not a table");
  for (const auto& group : *groups)  // one list per purpose; all of them are allowed
    for (auto& n : rf::strings(*groups, group.first.str(), file)) p.allowed.insert(std::move(n));
  p.allowed_family = std::regex(rf::alternatives(t, "c_link.allowed_patterns", file));
  const toml::array* denied = t.at_path("c_link.denied").as_array();
  if (!denied) rf::defect(file, "c_link.denied: missing or not an array of tables");
  for (const auto& d : *denied) {
    const toml::table* e = d.as_table();
    if (!e) rf::defect(file, "c_link.denied: an entry is not a table");
    p.denied.emplace_back(std::regex(rf::alternatives(*e, "pattern", file)), rf::get<std::string>(*e, "reason", file));
  }
  p.allowed_library = std::regex("^(" + rf::alternatives(t, "c_link.allowed_libraries", file) + ")$");
  p.library_include = std::regex(R"(#\s*include\s*[<"]()" + rf::alternatives(t, "c_source.library_headers", file) + ")[/_.]");
  return p;
}

const LinkPolicy& policy() {
  static const LinkPolicy p = parse_policy();
  return p;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace

constexpr size_t kMaxSymbol = 4096;  // longer names are never on the allowlist (and never parsed by regex)

std::vector<KernelResources> parse_ptxas_info(const std::string& log) {
  std::vector<KernelResources> out;
  KernelResources* cur = nullptr;
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  for (const auto& line : lines_of(log)) {
    if (line.size() > 2 * kMaxSymbol) continue;  // a kernel name that long (the candidate's) is not parsed by regex
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      out.push_back({});
      cur = &out.back();
      cur->mangled = m[1];
      cur->name = demangle(cur->mangled);
    } else if (std::regex_search(line, m, props)) {
      cur = nullptr;
      for (auto& k : out)
        if (k.mangled == m[1].str()) cur = &k;
    } else if (cur && line.find("stack frame") != std::string::npos) {
      cur->stack_frame = int_before(line, "bytes stack frame");
      cur->spill_stores = int_before(line, "bytes spill stores");
      cur->spill_loads = int_before(line, "bytes spill loads");
    } else if (cur && line.find("Used ") != std::string::npos && line.find("registers") != std::string::npos) {
      cur->registers = int_before(line, "registers");
      cur->barriers = int_before(line, "barriers");
      cur->shared_static = int_before(line, "bytes smem");
      cur->constant0 = int_before(line, "bytes cmem[0]");
    }
  }
  return out;
}

std::string base_function(const std::string& symbol) {
  // glibc's fortified variants (_FORTIFY_SOURCE: __memcpy_chk, __printf_chk, __snprintf_chk, ...)
  // and its ISO C scanf/strtol redirects (__isoc99_sscanf, __isoc23_strtol): which of them a
  // compiler emits depends on its defaults and the glibc version, not on the candidate.
  static const std::regex fortified(R"(^__(\w+)_chk$)");
  static const std::regex iso(R"(^__isoc(99|23)_(\w+)$)");
  static const std::regex open2(R"(^__(open|open64|openat|openat64)_2$)");  // fortified open without a mode
  if (symbol.size() > kMaxSymbol) return symbol;  // never through std::regex (it recurses per character)
  std::smatch m;
  if (std::regex_match(symbol, m, fortified)) return m[1];
  if (std::regex_match(symbol, m, iso)) return m[2];
  if (std::regex_match(symbol, m, open2)) return m[1];
  return symbol;
}

std::string link_violation_reason(const std::string& imported) {
  if (policy().allowed.count(imported)) return "";
  // Before any regex: std::regex recurses once per character, and the name is the candidate's.
  if (imported.size() > kMaxSymbol) return "not on the allowlist of calls a kernel launcher needs (a name that long never is)";
  const std::string symbol = base_function(imported);
  if (symbol != imported) {
    auto why = link_violation_reason(symbol);
    return why.empty() ? "" : fmt::format("{} (a variant of {})", why, symbol);
  }
  if (std::regex_search(symbol, policy().allowed_family)) return "";
  for (const auto& [pattern, reason] : policy().denied)
    if (std::regex_search(symbol, pattern)) return reason;
  return "not on the allowlist of calls a kernel launcher needs";
}

std::string LinkReport::message() const {
  if (!error.empty()) return error;
  std::string out;
  for (const auto& v : violations) out += fmt::format("{}: {}\n", v.symbol, v.reason);
  if (!out.empty()) out.pop_back();
  return out;
}

namespace {

// "syscall", "sysenter" or "int $0x80" when the text names a system-call instruction: one objdump
// line (AT&T syntax, prefixes such as "cs" or "rex.W" allowed) or inline assembly (any case;
// int 0x80, int $128, int 80h); "" otherwise. Names in <...> (objdump's symbols, PTX's %r<10>) are
// not words of it.
std::string system_call_named(const std::string& text) {
  std::vector<std::string> words;
  std::string w;
  int angle = 0;
  for (char c : text + " ") {
    if (c == '<') {
      ++angle;
    } else if (c == '>' && angle > 0) {
      --angle;
    } else if (angle == 0 && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$')) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      continue;
    }
    if (!w.empty()) words.push_back(std::move(w));
    w.clear();
  }
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "syscall" || words[i] == "sysenter") return words[i];
    if (words[i] == "int" && i + 1 < words.size()) {
      std::string v = words[i + 1];
      if (!v.empty() && v[0] == '$') v.erase(0, 1);
      if (v == "0x80" || v == "128" || v == "80h") return "int $0x80";
    }
  }
  return "";
}

// A tool's whole output over `so`, or nullopt with `error` set. A listing cut at the cap would hide
// what comes after the cut (nm sorts by name: thousands of weak imports named "a..." would push
// "socket" out), so reaching the cap is an error too.
std::optional<std::string> inspect(std::vector<std::string> argv, const fs::path& so, const char* what, std::string& error) {
  constexpr size_t cap = size_t{64} << 20;
  argv.push_back(so.string());
  auto r = sandbox::run_process(argv, std::chrono::seconds(60), cap);
  if (!r.ok()) error = fmt::format("cannot {} {}: {}", what, so.string(), r.describe());
  else if (r.output.size() >= cap) error = fmt::format("cannot {} {}: more than {} MiB of output", what, so.string(), cap >> 20);
  else return std::move(r.output);
  return std::nullopt;
}

}  // namespace

LinkReport check_link(const fs::path& so) {
  LinkReport rep;
  auto nm = inspect({"nm", "-D", "--undefined-only"}, so, "list the imports of", rep.error);
  if (!nm) return rep;
  for (const auto& line : lines_of(*nm)) {
    std::istringstream ls(line);
    std::string kind, sym;
    ls >> kind >> sym;
    if (sym.empty()) continue;
    sym = sym.substr(0, sym.find('@'));
    rep.imports.push_back(sym);
    if (auto why = link_violation_reason(sym); !why.empty())
      rep.violations.push_back({sym.size() > 200 ? sym.substr(0, 200) + "[...]" : sym, why});
  }
  auto re = inspect({"readelf", "-d"}, so, "read the dynamic section of", rep.error);
  if (!re) return rep;
  static const std::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  for (const auto& line : lines_of(*re)) {
    std::smatch m;
    if (std::regex_search(line, m, needed)) {
      rep.needed.push_back(m[1]);
      if (!std::regex_match(m[1].str(), policy().allowed_library))
        rep.violations.push_back({m[1], "links a library beyond the CUDA runtime and the C/C++ runtime"});
    }
  }
  for (auto& v : check_code(so, rep.error)) rep.violations.push_back(std::move(v));
  return rep;
}

std::vector<LinkViolation> check_code(const fs::path& so, std::string& error) {
  std::vector<LinkViolation> out;
  // Every section the object marks executable, linearly decoded: the crt start-up code, the PLT,
  // nvcc's registration stubs and the candidate's own functions (with -cudart shared nothing else is
  // linked in, and none of those make system calls themselves; data is not decoded).
  auto od = inspect({"objdump", "-d", "--no-show-raw-insn"}, so, "disassemble", error);
  if (!od) return out;
  // Parsed by hand: the names are the candidate's, and std::regex recurses once per character
  // (a 100 KB name would overflow the stack of this process).
  std::string fn = "?";
  std::set<std::string> seen;
  for (const auto& line : lines_of(*od)) {
    if (line.size() > 2 && line.compare(line.size() - 2, 2, ">:") == 0 && !std::isspace(static_cast<unsigned char>(line[0]))) {
      auto lt = line.find(" <");
      if (lt != std::string::npos) fn = demangle(line.substr(lt + 2, line.size() - lt - 4));
      continue;
    }
    auto colon = line.find(":\t");
    if (line.empty() || !std::isspace(static_cast<unsigned char>(line[0])) || colon == std::string::npos) continue;
    if (auto what = system_call_named(line.substr(colon + 2)); !what.empty() && seen.insert(what + " in " + fn).second)
      out.push_back({fmt::format("{} instruction in {}", what, fn),
                     "makes raw system calls: a launcher calls only the C library functions on the allowlist"});
  }
  // Code that could be written at run time: a segment both writable and executable, text
  // relocations (the loader makes code writable to patch it), an executable stack.
  auto hdr = inspect({"readelf", "-lW", "-d"}, so, "read the program headers of", error);
  if (!hdr) return out;
  static const std::regex textrel(R"(\(TEXTREL\)|\(FLAGS\).*\bTEXTREL\b)");
  static const std::regex segment(R"(^\s*(LOAD|GNU_STACK)\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+([RWE ]+?)\s+0x)");
  for (const auto& line : lines_of(*hdr)) {
    std::smatch m;
    if (std::regex_search(line, m, segment)) {
      std::string flags = m[2];
      bool w = flags.find('W') != std::string::npos, x = flags.find('E') != std::string::npos;
      if (m[1] == "LOAD" && w && x)
        out.push_back({"writable and executable segment", "has code that can be rewritten at run time"});
      if (m[1] == "GNU_STACK" && x) out.push_back({"executable stack", "asks for an executable stack"});
    } else if (std::regex_search(line, textrel)) {
      if (seen.insert("TEXTREL").second)
        out.push_back({"text relocations", "has code the loader must make writable to patch (build position-independent code)"});
    }
  }
  return out;
}

namespace {

// The source with comments blanked and every string literal kept; by hand, not std::regex (which
// recurses once per character: a long comment would overflow the stack).
std::string strip_comments(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"' || s[i] == '\'') {  // a literal, copied whole
      char q = s[i];
      out += s[i];
      for (++i; i < s.size() && s[i] != q && s[i] != '\n'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) out += s[i++];
        out += s[i];
      }
      if (i < s.size()) out += s[i];
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      auto end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 1;
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The text of the string literals in each asm statement (asm, __asm__, __asm, with volatile /
// inline / goto qualifiers): adjacent literals joined ("sys" "call" is "syscall"), operands and
// constraints outside the literals a space.
std::vector<std::string> asm_operands(const std::string& code) {
  std::vector<std::string> out;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '"' || code[i] == '\'') {  // a literal outside asm: skipped
      for (char q = code[i++]; i < code.size() && code[i] != q && code[i] != '\n'; ++i)
        if (code[i] == '\\') ++i;
      continue;
    }
    if (!word_char(code[i]) || (i > 0 && word_char(code[i - 1]))) continue;
    size_t e = i;
    while (e < code.size() && word_char(code[e])) ++e;
    std::string word = code.substr(i, e - i);
    if (word != "asm" && word != "__asm__" && word != "__asm") {
      i = e - 1;
      continue;
    }
    size_t p = e;
    for (;;) {  // qualifiers
      while (p < code.size() && std::isspace(static_cast<unsigned char>(code[p]))) ++p;
      size_t q = p;
      while (q < code.size() && word_char(code[q])) ++q;
      std::string qual = code.substr(p, q - p);
      if (qual != "volatile" && qual != "__volatile__" && qual != "inline" && qual != "goto") break;
      p = q;
    }
    if (p >= code.size() || code[p] != '(') continue;
    std::string body;
    int depth = 0;
    bool in_string = false;
    for (; p < code.size(); ++p) {
      char c = code[p];
      if (in_string) {
        if (c == '\\' && p + 1 < code.size()) {
          body += c;
          c = code[++p];
        } else if (c == '"') {
          in_string = false;
          continue;  // the closing quote: the next literal continues this one
        }
        body += c;
      } else if (c == '"') {
        in_string = true;
      } else {
        if (c == '(') ++depth;
        if (c == ')' && --depth == 0) break;
        if (!std::isspace(static_cast<unsigned char>(c)) && (body.empty() || body.back() != ' ')) body += ' ';
      }
    }
    out.push_back(std::move(body));
    i = p;
  }
  return out;
}

}  // namespace

std::vector<LinkViolation> check_source_rules(const std::string& source) {
  std::vector<LinkViolation> out;
  std::smatch m;
  if (std::regex_search(source, m, policy().library_include))
    out.push_back({fmt::format("#include <{}...>", m[1].str()), "uses a library instead of its own kernels"});
  // Host inline assembly that makes system calls (device asm is PTX, which has no such instruction,
  // so it never matches). Defence in depth: check_code finds them in the built object however spelled.
  for (const auto& body : asm_operands(strip_comments(source)))
    if (auto what = system_call_named(body); !what.empty()) {
      out.push_back({fmt::format("asm(\"{}\")", what),
                     "makes raw system calls from inline assembly: a launcher calls only the C library functions on the allowlist"});
      break;
    }
  return out;
}

CandidateBuild build_candidate(const task::Task& t, const fs::path& source, const Options& o) {
  CandidateBuild b;
  // Source rules first: a forbidden library is a link error whether or not the file compiles.
  b.link.violations = check_source_rules(read_file(source).value_or(""));
  if (!b.link.violations.empty()) {
    b.artifact.ok = true;  // not built: the link verdict is already decided
    return b;
  }
  b.artifact = compile_cuda(t, source, o, /*verbose_ptxas=*/true);
  if (!b.artifact.ok) return b;
  b.kernels = parse_ptxas_info(b.artifact.diagnostics);
  b.link = check_link(b.artifact.path);
  return b;
}

}  // namespace cudaperf::compile
