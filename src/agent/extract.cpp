#include "cudaperf/agent/extract.hpp"

#include <cctype>
#include <cstring>
#include <vector>

namespace cudaperf::agent {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(p, e - p);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (e == text.size()) break;
    p = e + 1;
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A fence line: three or more backticks or tildes, then (for an opening line) an info string.
bool fence_of(const std::string& line, std::string& fence, std::string& info) {
  std::string t = trim(line);
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return false;
  size_t n = t.find_first_not_of(t[0]);
  if (n == std::string::npos) n = t.size();
  if (n < 3) return false;
  fence = t.substr(0, n);
  info = trim(t.substr(n));
  return true;
}

// A line without the end-of-turn tokens at its end (`<|im_end|>`, ...): engines that decode with
// skip_special_tokens=False leave them after a closing fence (the rules of python/cudaperf/extract.py).
std::string strip_end_tokens(std::string line) {
  static const char* const tokens[] = {"<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "</s>"};
  for (bool again = true; again;) {
    again = false;
    std::string t = line.substr(0, line.find_last_not_of(" \t") + 1);
    for (const char* tok : tokens) {
      size_t n = std::strlen(tok);
      if (t.size() >= n && t.compare(t.size() - n, n, tok) == 0) {
        line = t.substr(0, t.size() - n);
        again = true;
        break;
      }
    }
  }
  return line;
}

// The answer without the prompt's echo and without reasoning.
std::string answer_part(const std::string& response, const std::string& prompt) {
  std::string r = response;
  if (!prompt.empty()) {
    if (size_t at = r.find(prompt); at != std::string::npos) {
      r = r.substr(at + prompt.size());
    } else {
      std::string anchor = trim(prompt);
      if (anchor.size() > 200) anchor = anchor.substr(anchor.size() - 200);
      if (anchor.size() >= 20)
        if (size_t a = r.find(anchor); a != std::string::npos) r = r.substr(a + anchor.size());
    }
  }
  if (size_t e = r.rfind("</think>"); e != std::string::npos) r = r.substr(e + 8);
  if (size_t s = r.find("<think>"); s != std::string::npos) r = r.substr(0, s);
  return r;
}

struct Scan {
  std::string tagged, any;
  int closed_blocks = 0, empty_blocks = 0;
  bool unclosed = false;
};

Scan scan(const std::string& response, const std::string& prompt) {
  Scan s;
  std::string open_fence, tag, body;
  bool in_block = false;
  for (const auto& line : split_lines(answer_part(response, prompt))) {
    std::string fence, info;
    if (!in_block) {
      if (fence_of(line, fence, info) && !(fence[0] == '`' && info.find('`') != std::string::npos)) {
        size_t k = 0;
        if (k < info.size() && info[k] == '{') ++k;
        if (k < info.size() && info[k] == '.') ++k;
        size_t e = k;
        while (e < info.size() && (std::isalnum(static_cast<unsigned char>(info[e])) || std::strchr("_+#.-", info[e]))) ++e;
        tag = info.substr(k, e - k);
        for (auto& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        open_fence = fence;
        body.clear();
        in_block = true;
      }
      continue;
    }
    if (fence_of(strip_end_tokens(line), fence, info) && info.empty() && fence[0] == open_fence[0] && fence.size() >= open_fence.size()) {
      in_block = false;
      ++s.closed_blocks;
      if (body.find_first_not_of(" \t\n") == std::string::npos) {  // whitespace-only block
        ++s.empty_blocks;
        continue;
      }
      s.any = body;
      if (tag == "cuda" || tag == "cu" || tag == "cpp" || tag == "c++" || tag == "c") s.tagged = body;
    } else {
      body += line + "\n";
    }
  }
  s.unclosed = in_block;
  return s;
}

}  // namespace

std::string extract_code(const std::string& response, const std::string& prompt) {
  Scan s = scan(response, prompt);
  return s.tagged.empty() ? s.any : s.tagged;
}

std::string missing_code_reason(const std::string& response, const std::string& prompt) {
  Scan s = scan(response, prompt);
  if (s.unclosed) return "unclosed";
  if (s.empty_blocks > 0) return "empty";
  return "none";
}

}  // namespace cudaperf::agent
