// The prompt a model gets for a C-to-CUDA task (and, render_torch_prompt, for a torch2cuda one): the C reference, the exact signature to define,
// the contract it is checked against (parameters, sizes, tolerance, rules) and the answer format.
// Used by `cudaperf export` (prompt datasets for verl / TRL / JSONL) and `cudaperf refine`.
//
// The text lives in template files under data/prompts/ (compiled into the binary at build time;
// a folder given at run time overrides them file by file). Placeholders are `{{name}}`; filled
// values are inserted verbatim and never re-scanned. docs/refine.md lists every template.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::task {

// Template files by name ("task.md", "phrases.txt", ...), and the one-line phrases of phrases.txt.
struct PromptTemplates {
  std::map<std::string, std::string> files;
  std::map<std::string, std::string> phrases;

  // The file's text ("" when there is none; check() reports missing ones).
  const std::string& file(const std::string& name) const;
  // A phrase by key ("" when there is none).
  const std::string& phrase(const std::string& key) const;
};

// The templates compiled in from data/prompts/ (always complete: a unit test checks it).
const PromptTemplates& builtin_templates();
// The built-ins with every file of `dir` replacing the one of the same name; errors name the file.
Result<PromptTemplates> load_templates(const std::filesystem::path& dir);
// Parses phrases.txt: `key: text` lines, `#` comments and blank lines skipped; errors by line.
Result<std::map<std::string, std::string>> parse_phrases(const std::string& text, const std::string& file_name);

// Replaces every {{name}} by vars[name]; an unknown or unclosed placeholder is an error naming it.
Result<std::string> fill(const std::string& tmpl, const std::map<std::string, std::string>& vars);

// Deterministic: the same task and templates always give the same text.
Result<std::string> render_prompt(const Task& t, const PromptTemplates& templates);
// With the built-in templates (which cannot fail).
std::string render_prompt(const Task& t);
// The prompt of a torch2cuda task (template torch_task.md): the reference module, the configs' module
// globals, the tolerance and the answer format.
Result<std::string> render_torch_prompt(const TorchTask& t, const PromptTemplates& templates);
std::string render_torch_prompt(const TorchTask& t);

}  // namespace cudaperf::task
