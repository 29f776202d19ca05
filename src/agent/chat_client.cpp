#include "cudaperf/agent/chat_client.hpp"

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>

namespace cudaperf::agent {

using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string clip(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

}  // namespace

json chat_request_body(const ChatConfig& c, const std::vector<ChatMessage>& messages) {
  json m = json::array();
  for (const auto& x : messages) m.push_back({{"role", x.role}, {"content", x.content}});
  json body = {{"model", c.model}, {"messages", m}, {"temperature", c.temperature}, {"max_tokens", c.max_tokens},
               {"stream", false}};
  if (c.top_p) body["top_p"] = *c.top_p;
  if (c.seed) body["seed"] = *c.seed;
  return body;
}

Result<ChatReply> parse_chat_response(const std::string& body) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return Diagnostic{"", 0, 0, fmt::format("malformed JSON in the answer: {}", clip(body, 200))};
  if (!j.is_object()) return Diagnostic{"", 0, 0, "the answer is not a JSON object"};
  if (j.contains("error") && !j["error"].is_null()) {
    const auto& e = j["error"];
    std::string msg = e.is_object() && e.contains("message") && e["message"].is_string() ? e["message"].get<std::string>() : e.dump();
    return Diagnostic{"", 0, 0, "the endpoint returned an error: " + clip(msg, 500)};
  }
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
    return Diagnostic{"", 0, 0, "the answer has no 'choices'"};
  const auto& ch = j["choices"][0];
  if (!ch.is_object() || !ch.contains("message") || !ch["message"].is_object())
    return Diagnostic{"", 0, 0, "choices[0] has no 'message' object"};
  const auto& msg = ch["message"];
  ChatReply r;
  if (msg.contains("content") && msg["content"].is_string()) {
    r.content = msg["content"].get<std::string>();
  } else if (msg.contains("content") && msg["content"].is_array()) {  // content parts: [{type: text, text}]
    for (const auto& part : msg["content"])
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
        r.content += part["text"].get<std::string>();
  } else if (!msg.contains("content") || !msg["content"].is_null()) {
    return Diagnostic{"", 0, 0, "choices[0].message.content is missing or not text"};
  }
  if (ch.contains("finish_reason") && ch["finish_reason"].is_string()) r.finish_reason = ch["finish_reason"].get<std::string>();
  if (j.contains("usage")) r.usage = j["usage"];
  return r;
}

Result<ChatClient> ChatClient::create(ChatConfig c, Transport transport, std::function<void(double)> sleep) {
  if (c.model.empty()) return Diagnostic{"", 0, 0, "no model name (--model)"};
  auto u = parse_url(c.base_url);
  if (!u) return u.errors();
  ChatClient cl;
  cl.url_ = u.value();
  std::string base = cl.url_.path.empty() ? "/v1" : cl.url_.path;
  const std::string suffix = "/chat/completions";
  cl.path_ = base.size() >= suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0 ? base
                                                                                                                   : base + suffix;
  if (!c.api_key_env.empty())
    if (const char* k = std::getenv(c.api_key_env.c_str())) cl.api_key_ = k;
  cl.c_ = std::move(c);
  cl.transport_ = transport ? std::move(transport) : Transport(http_send);
  cl.sleep_ = sleep ? std::move(sleep) : std::function<void(double)>(sleep_seconds);
  return cl;
}

Result<ChatReply> ChatClient::complete(const std::vector<ChatMessage>& messages, std::vector<Attempt>* attempts_out) const {
  HttpRequest req;
  req.method = "POST";
  req.path = path_;
  req.body = chat_request_body(c_, messages).dump();
  req.headers["Accept"] = "application/json";
  if (!api_key_.empty()) req.headers["Authorization"] = "Bearer " + api_key_;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Attempt> attempts;
  std::optional<ChatReply> reply;
  // A malformed 2xx body (a proxy cut it, a worker crashed mid-answer) is retried like a 5xx.
  auto accept = [&](const HttpResponse& r) -> std::string {
    auto p = parse_chat_response(r.body);
    if (!p) return p.errors().front().message;
    reply = std::move(p.value());
    return "";
  };
  auto r = send_with_retries(transport_, url_, req, c_.timeouts, c_.retry, sleep_, accept, &attempts);
  if (attempts_out) *attempts_out = attempts;
  if (!r) return r.errors();
  reply->attempts = std::move(attempts);
  reply->seconds = seconds_since(t0);
  return std::move(*reply);
}

}  // namespace cudaperf::agent
