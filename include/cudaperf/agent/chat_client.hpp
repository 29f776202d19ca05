// A client for OpenAI-compatible chat-completions endpoints (llama.cpp's llama-server, vLLM,
// SGLang, hosted APIs): POST {base}/chat/completions, non-streaming, with timeouts and retries.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/agent/http.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::agent {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatConfig {
  std::string base_url = "http://127.0.0.1:8080/v1";  // OpenAI-style base; "/v1" is assumed when it has no path
  std::string model;
  std::string api_key_env = "OPENAI_API_KEY";  // read at construction; unset or empty: no Authorization header
  double temperature = 0.7;
  int max_tokens = 4096;
  std::optional<double> top_p;
  std::optional<long long> seed;  // sent when set (vLLM, SGLang, llama.cpp and OpenAI accept it)
  Timeouts timeouts;
  RetryPolicy retry;
};

struct ChatReply {
  std::string content;        // the first choice's message content ("" when null)
  std::string finish_reason;  // "stop", "length", ... ("" when absent)
  nlohmann::json usage;       // as returned (null when absent)
  std::vector<Attempt> attempts;
  double seconds = 0;         // total, retries and backoff included
};

// The request body: {model, messages, temperature, max_tokens, [top_p], [seed], stream: false}.
nlohmann::json chat_request_body(const ChatConfig& c, const std::vector<ChatMessage>& messages);
// The reply of a 2xx body; errors say what is missing or malformed (never throws).
Result<ChatReply> parse_chat_response(const std::string& body);

class ChatClient {
 public:
  // Errors: a malformed URL, or https without OpenSSL support in this build.
  static Result<ChatClient> create(ChatConfig c, Transport transport = http_send,
                                   std::function<void(double)> sleep = nullptr);

  // One completion. Transport errors, 408/429/5xx and malformed 2xx bodies are retried with
  // backoff up to retry.max_attempts; the error then lists every attempt. Thread-safe.
  // On failure `attempts` (when given) receives what was tried.
  Result<ChatReply> complete(const std::vector<ChatMessage>& messages, std::vector<Attempt>* attempts = nullptr) const;

  const ChatConfig& config() const { return c_; }
  const Url& url() const { return url_; }

 private:
  ChatClient() = default;
  ChatConfig c_;
  Url url_;
  std::string path_;  // ".../chat/completions"
  std::string api_key_;
  Transport transport_;
  std::function<void(double)> sleep_;
};

}  // namespace cudaperf::agent
