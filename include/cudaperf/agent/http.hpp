// HTTP for the agent loop: URLs, one JSON request with timeouts (cpp-httplib), and the retry
// policy shared by the chat client and the reward-service client (exponential backoff, Retry-After).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"

namespace cudaperf::agent {

// "http://host:port/base" split for cpp-httplib. https needs cpp-httplib built with OpenSSL.
struct Url {
  std::string scheme;  // "http" or "https"
  std::string host;
  int port = 0;        // explicit, or 80 / 443
  std::string path;    // "" or "/v1" (no trailing slash)
  std::string origin() const;  // "scheme://host:port"
};
Result<Url> parse_url(const std::string& text);
// Whether this build can speak https (cpp-httplib with CPPHTTPLIB_OPENSSL_SUPPORT).
bool https_supported();

struct HttpRequest {
  std::string method = "POST";  // POST or GET
  std::string path;             // absolute path on the origin
  std::string body;             // JSON
  std::map<std::string, std::string> headers;
};

// What came back: a status and body, or a transport error (status 0).
struct HttpResponse {
  int status = 0;
  std::string body;
  std::string error;                   // transport error ("read timeout", "connection refused", ...)
  std::optional<double> retry_after_s; // the Retry-After header (seconds), when given
};

struct Timeouts {
  double connect_s = 10;
  double read_s = 600;   // a long generation is slow: the whole answer must arrive within this
  double write_s = 60;
};

// One request; never throws.
using Transport = std::function<HttpResponse(const Url&, const HttpRequest&, const Timeouts&)>;
HttpResponse http_send(const Url& url, const HttpRequest& req, const Timeouts& t);

struct RetryPolicy {
  int max_attempts = 5;        // the first try included
  double backoff_s = 1;        // delay before the second attempt; doubled after each failure
  double max_backoff_s = 30;   // cap for the doubled delay and for Retry-After
  double jitter = 0.25;        // the delay is scaled by a uniform factor in [1 - jitter, 1]
};
// The delay before retry `attempt` (1 = the first retry): Retry-After when the server gave one
// (capped at max_backoff_s, not jittered), else backoff_s · 2^(attempt-1) capped at max_backoff_s
// and scaled by 1 - jitter · jitter_draw (jitter_draw in [0, 1)).
double retry_delay(const RetryPolicy& p, int attempt, std::optional<double> retry_after_s, double jitter_draw);
// Transport errors, 408, 429 and 5xx are worth retrying; other statuses are not.
bool retryable_status(int status);

// One attempt as recorded in the transcripts: what happened and how long it took.
struct Attempt {
  int status = 0;          // HTTP status, 0 for a transport error
  std::string error;       // "" when the attempt succeeded
  double seconds = 0;      // time of the attempt
  double waited_s = 0;     // backoff slept before it
};

// Sends `req` until a 2xx reply that `accept` takes ("" = accepted, else why not: retried),
// retrying transport errors, 408, 429 and 5xx with retry_delay() between attempts; other statuses
// fail at once. The error names the method, URL, attempt count and the last problem. Every attempt
// is appended to `attempts` when given. `sleep` waits (tests pass a recorder).
Result<HttpResponse> send_with_retries(const Transport& transport, const Url& url, const HttpRequest& req,
                                       const Timeouts& timeouts, const RetryPolicy& policy,
                                       const std::function<void(double)>& sleep,
                                       const std::function<std::string(const HttpResponse&)>& accept,
                                       std::vector<Attempt>* attempts = nullptr);
// The error text of a non-2xx reply: status plus the server's {"error": ...} message or the body start.
std::string describe_http_error(const HttpResponse& r);
// Sleeps on this thread.
void sleep_seconds(double s);

}  // namespace cudaperf::agent
