// agent/chat_client + agent/http: the OpenAI wire format (request body, reply parsing), URLs and
// the retry policy, driven through a fake transport (no network, no real sleeping).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <deque>

#include "cudaperf/agent/chat_client.hpp"

using namespace cudaperf::agent;
using nlohmann::json;

namespace {

std::string ok_body(const std::string& content, const std::string& finish = "stop") {
  return json{{"id", "x"},
              {"choices", json::array({{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", finish}}})},
              {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 5}}}}
      .dump();
}

// Replies from a queue (the last one repeats) and records every request and sleep.
struct Fake {
  std::deque<HttpResponse> replies;
  std::vector<HttpRequest> requests;
  std::vector<std::string> urls;
  std::vector<double> sleeps;
  Transport transport() {
    return [this](const Url& u, const HttpRequest& r, const Timeouts&) {
      requests.push_back(r);
      urls.push_back(u.origin() + r.path);
      HttpResponse x = replies.front();
      if (replies.size() > 1) replies.pop_front();
      return x;
    };
  }
  std::function<void(double)> sleeper() {
    return [this](double s) { sleeps.push_back(s); };
  }
};

HttpResponse status(int s, std::string body = "", std::optional<double> retry_after = std::nullopt) {
  HttpResponse r;
  r.status = s;
  r.body = std::move(body);
  r.retry_after_s = retry_after;
  return r;
}

ChatConfig config() {
  ChatConfig c;
  c.base_url = "http://127.0.0.1:9999/v1";
  c.model = "m";
  c.api_key_env = "";
  c.retry.max_attempts = 5;
  c.retry.backoff_s = 1;
  c.retry.max_backoff_s = 3;
  c.retry.jitter = 0;
  return c;
}

}  // namespace

TEST(AgentUrl, ParsesAndRejects) {
  auto u = parse_url("http://localhost:8000/v1/");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "localhost");
  EXPECT_EQ(u->port, 8000);
  EXPECT_EQ(u->path, "/v1");
  EXPECT_EQ(u->origin(), "http://localhost:8000");
  auto d = parse_url("HTTP://example.org");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->port, 80);
  EXPECT_EQ(d->path, "");
  EXPECT_FALSE(parse_url("localhost:8000").ok());
  EXPECT_FALSE(parse_url("ftp://x/v1").ok());
  EXPECT_FALSE(parse_url("http://:80").ok());
  EXPECT_FALSE(parse_url("http://h:99999").ok());
  EXPECT_FALSE(parse_url("http://h:abc").ok());
  auto s = parse_url("https://api.example.com/v1");
  EXPECT_EQ(s.ok(), https_supported());
  if (s) EXPECT_EQ(s->port, 443);
  else EXPECT_NE(s.errors().front().message.find("OpenSSL"), std::string::npos);
}

TEST(AgentChat, RequestBodyHasTheOpenAIFields) {
  ChatConfig c = config();
  c.temperature = 0.25;
  c.max_tokens = 123;
  auto b = chat_request_body(c, {{"system", "s"}, {"user", "u"}});
  EXPECT_EQ(b["model"], "m");
  EXPECT_EQ(b["messages"], json::parse(R"([{"role":"system","content":"s"},{"role":"user","content":"u"}])"));
  EXPECT_DOUBLE_EQ(b["temperature"].get<double>(), 0.25);
  EXPECT_EQ(b["max_tokens"], 123);
  EXPECT_EQ(b["stream"], false);
  EXPECT_FALSE(b.contains("top_p"));
  EXPECT_FALSE(b.contains("seed"));
  c.top_p = 0.9;
  c.seed = 7;
  b = chat_request_body(c, {});
  EXPECT_DOUBLE_EQ(b["top_p"].get<double>(), 0.9);
  EXPECT_EQ(b["seed"], 7);
}

TEST(AgentChat, ParsesReplies) {
  auto r = parse_chat_response(ok_body("hello", "length"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->content, "hello");
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_EQ(r->usage["completion_tokens"], 5);
  // content parts (some servers), null content (a refusal or only tool calls)
  auto parts = parse_chat_response(R"({"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]})");
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ(parts->content, "ab");
  auto null_content = parse_chat_response(R"({"choices":[{"message":{"role":"assistant","content":null}}]})");
  ASSERT_TRUE(null_content.ok());
  EXPECT_EQ(null_content->content, "");
  // malformed
  for (const char* bad : {"{not json", "[]", R"({"choices":[]})", R"({"choices":[{"text":"x"}]})",
                          R"({"choices":[{"message":{"content":5}}]})"})
    EXPECT_FALSE(parse_chat_response(bad).ok()) << bad;
  auto err = parse_chat_response(R"({"error":{"message":"model not loaded"}})");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.errors().front().message.find("model not loaded"), std::string::npos);
  EXPECT_NE(parse_chat_response("{oops").errors().front().message.find("malformed JSON"), std::string::npos);
}

TEST(AgentChat, PathAndApiKey) {
  setenv("CUDAPERF_UNIT_KEY", "k123", 1);
  ChatConfig c = config();
  c.api_key_env = "CUDAPERF_UNIT_KEY";
  Fake f;
  f.replies = {status(200, ok_body("x"))};
  auto cl = ChatClient::create(c, f.transport(), f.sleeper());
  ASSERT_TRUE(cl.ok());
  ASSERT_TRUE(cl->complete({{"user", "u"}}).ok());
  EXPECT_EQ(f.urls.back(), "http://127.0.0.1:9999/v1/chat/completions");
  EXPECT_EQ(f.requests.back().headers.at("Authorization"), "Bearer k123");
  EXPECT_EQ(json::parse(f.requests.back().body)["messages"][0]["content"], "u");
  // no path: /v1 assumed; a full .../chat/completions URL is used as is; an unset variable sends no key
  c.base_url = "http://h:1";
  c.api_key_env = "CUDAPERF_UNIT_KEY_UNSET";
  unsetenv("CUDAPERF_UNIT_KEY_UNSET");
  auto c2 = ChatClient::create(c, f.transport(), f.sleeper());
  ASSERT_TRUE(c2.ok());
  ASSERT_TRUE(c2->complete({}).ok());
  EXPECT_EQ(f.urls.back(), "http://h:1/v1/chat/completions");
  EXPECT_EQ(f.requests.back().headers.count("Authorization"), 0u);
  c.base_url = "http://h:1/openai/chat/completions";
  auto c3 = ChatClient::create(c, f.transport(), f.sleeper());
  ASSERT_TRUE(c3->complete({}).ok());
  EXPECT_EQ(f.urls.back(), "http://h:1/openai/chat/completions");
  c.model = "";
  EXPECT_FALSE(ChatClient::create(c).ok());
}

TEST(AgentChat, RetriesTransientFailuresWithBackoffAndRetryAfter) {
  Fake f;
  HttpResponse timeout;
  timeout.error = "no complete answer within the read timeout";
  f.replies = {status(500, R"({"error":{"message":"boom"}})"), status(429, "", 7.0), timeout, status(200, "{garbage"),
               status(503, "down"), status(200, ok_body("done"))};
  auto cl = ChatClient::create(config(), f.transport(), f.sleeper());
  ASSERT_TRUE(cl.ok());
  ChatConfig c = config();
  c.retry.max_attempts = 6;
  cl = ChatClient::create(c, f.transport(), f.sleeper());
  auto r = cl->complete({{"user", "u"}});
  ASSERT_TRUE(r.ok()) << r.errors().front().message;
  EXPECT_EQ(r->content, "done");
  ASSERT_EQ(r->attempts.size(), 6u);
  EXPECT_EQ(r->attempts[0].status, 500);
  EXPECT_NE(r->attempts[0].error.find("boom"), std::string::npos);
  EXPECT_EQ(r->attempts[1].status, 429);
  EXPECT_EQ(r->attempts[2].status, 0);
  EXPECT_NE(r->attempts[3].error.find("malformed JSON"), std::string::npos);
  EXPECT_TRUE(r->attempts[5].error.empty());
  // backoff 1, then Retry-After 7 capped at 3, then 2^(n-1) doubling capped at 3
  EXPECT_EQ(f.sleeps, (std::vector<double>{1, 3, 3, 3, 3}));
}

TEST(AgentChat, GivesUpAndReports) {
  Fake f;
  f.replies = {status(502, "bad gateway")};
  auto cl = ChatClient::create(config(), f.transport(), f.sleeper());
  std::vector<Attempt> attempts;
  auto r = cl->complete({}, &attempts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(attempts.size(), 5u);
  EXPECT_EQ(f.requests.size(), 5u);
  const std::string& m = r.errors().front().message;
  EXPECT_NE(m.find("gave up after 5 attempt(s)"), std::string::npos) << m;
  EXPECT_NE(m.find("HTTP 502: bad gateway"), std::string::npos) << m;
  // a client error is not retried
  Fake g;
  g.replies = {status(401, R"({"error":{"message":"bad key"}})")};
  auto c2 = ChatClient::create(config(), g.transport(), g.sleeper());
  auto r2 = c2->complete({}, &attempts);
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(g.requests.size(), 1u);
  EXPECT_TRUE(g.sleeps.empty());
  EXPECT_NE(r2.errors().front().message.find("not retried"), std::string::npos);
  EXPECT_NE(r2.errors().front().message.find("bad key"), std::string::npos);
}

TEST(AgentRetry, DelayAndClassification) {
  RetryPolicy p;
  p.backoff_s = 0.5;
  p.max_backoff_s = 4;
  p.jitter = 0.5;
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, std::nullopt, 0), 0.5);
  EXPECT_DOUBLE_EQ(retry_delay(p, 3, std::nullopt, 0), 2);
  EXPECT_DOUBLE_EQ(retry_delay(p, 10, std::nullopt, 0), 4);
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, std::nullopt, 1), 0.25);  // jitter scales down only
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, 2.0, 0.9), 2);            // Retry-After as given
  EXPECT_DOUBLE_EQ(retry_delay(p, 1, 100.0, 0), 4);            // capped
  for (int s : {0, 408, 429, 500, 502, 503, 504}) EXPECT_TRUE(retryable_status(s)) << s;
  for (int s : {400, 401, 403, 404, 413, 422}) EXPECT_FALSE(retryable_status(s)) << s;
}
