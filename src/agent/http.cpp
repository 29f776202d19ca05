#include "cudaperf/agent/http.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <random>
#include <thread>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace cudaperf::agent {

std::string Url::origin() const { return fmt::format("{}://{}:{}", scheme, host, port); }

bool https_supported() {
#ifdef CPPHTTPLIB_OPENSSL_SUPPORT
  return true;
#else
  return false;
#endif
}

Result<Url> parse_url(const std::string& text) {
  Url u;
  size_t p = text.find("://");
  if (p == std::string::npos) return Diagnostic{"", 0, 0, fmt::format("'{}': expected http://host[:port][/path]", text)};
  u.scheme = text.substr(0, p);
  std::transform(u.scheme.begin(), u.scheme.end(), u.scheme.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (u.scheme != "http" && u.scheme != "https")
    return Diagnostic{"", 0, 0, fmt::format("'{}': scheme must be http or https", text)};
  std::string rest = text.substr(p + 3);
  size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  u.path = slash == std::string::npos ? "" : rest.substr(slash);
  while (!u.path.empty() && u.path.back() == '/') u.path.pop_back();
  if (hostport.empty()) return Diagnostic{"", 0, 0, fmt::format("'{}': no host", text)};
  size_t colon = hostport.rfind(':');
  bool bracketed = hostport.front() == '[';
  if (colon != std::string::npos && (!bracketed || colon > hostport.find(']'))) {
    std::string port = hostport.substr(colon + 1);
    if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit) || std::stoi(port) == 0 ||
        std::stoi(port) > 65535)
      return Diagnostic{"", 0, 0, fmt::format("'{}': bad port '{}'", text, port)};
    u.port = std::stoi(port);
    u.host = hostport.substr(0, colon);
  } else {
    u.host = hostport;
    u.port = u.scheme == "https" ? 443 : 80;
  }
  if (u.host.empty()) return Diagnostic{"", 0, 0, fmt::format("'{}': no host", text)};
  if (u.scheme == "https" && !https_supported())
    return Diagnostic{"", 0, 0, fmt::format("'{}': this build's cpp-httplib has no OpenSSL support, so https is not "
                                            "available; use an http endpoint (or a local TLS-terminating proxy)", text)};
  return u;
}

HttpResponse http_send(const Url& url, const HttpRequest& req, const Timeouts& t) {
  HttpResponse out;
  try {
    httplib::Client cli(url.origin());
    auto split = [](double s, time_t& sec, time_t& usec) {
      s = std::max(0.001, s);
      sec = static_cast<time_t>(s);
      usec = static_cast<time_t>((s - static_cast<double>(sec)) * 1e6);
    };
    time_t sec = 0, usec = 0;
    split(t.connect_s, sec, usec);
    cli.set_connection_timeout(sec, usec);
    split(t.read_s, sec, usec);
    cli.set_read_timeout(sec, usec);
    split(t.write_s, sec, usec);
    cli.set_write_timeout(sec, usec);
    cli.set_keep_alive(false);
    httplib::Headers h(req.headers.begin(), req.headers.end());
    auto res = req.method == "GET" ? cli.Get(req.path, h) : cli.Post(req.path, h, req.body, "application/json");
    if (!res) {
      auto e = res.error();
      out.error = e == httplib::Error::Read ? fmt::format("no complete answer within the read timeout ({:g} s) or the connection dropped", t.read_s)
                  : e == httplib::Error::ConnectionTimeout ? fmt::format("connection timed out ({:g} s)", t.connect_s)
                  : e == httplib::Error::Connection ? "cannot connect to " + url.origin()
                                                     : "HTTP error: " + httplib::to_string(e);
      return out;
    }
    out.status = res->status;
    out.body = res->body;
    if (res->has_header("Retry-After")) {
      std::string v = res->get_header_value("Retry-After");
      char* end = nullptr;
      double s = std::strtod(v.c_str(), &end);
      if (end != v.c_str() && std::isfinite(s) && s >= 0) out.retry_after_s = s;
    }
  } catch (const std::exception& e) {
    out.status = 0;
    out.error = std::string("HTTP client: ") + e.what();
  }
  return out;
}

double retry_delay(const RetryPolicy& p, int attempt, std::optional<double> retry_after_s, double jitter_draw) {
  if (retry_after_s) return std::clamp(*retry_after_s, 0.0, p.max_backoff_s);  // the server's wish, not jittered
  double d = std::clamp(p.backoff_s * std::pow(2.0, std::max(0, attempt - 1)), 0.0, p.max_backoff_s);
  return d * (1.0 - std::clamp(p.jitter, 0.0, 1.0) * std::clamp(jitter_draw, 0.0, 1.0));
}

bool retryable_status(int status) { return status == 0 || status == 408 || status == 429 || status >= 500; }

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double jitter_draw() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

std::string clip(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

}  // namespace

void sleep_seconds(double s) {
  if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

std::string describe_http_error(const HttpResponse& r) {
  if (r.status == 0) return r.error;
  std::string detail;
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("error")) {
    const auto& e = j["error"];
    detail = e.is_object() && e.contains("message") && e["message"].is_string() ? e["message"].get<std::string>()
             : e.is_string()                                                   ? e.get<std::string>()
                                                                                : e.dump();
  } else {
    detail = r.body;
  }
  return fmt::format("HTTP {}{}", r.status, detail.empty() ? "" : ": " + clip(detail, 300));
}

Result<HttpResponse> send_with_retries(const Transport& transport, const Url& url, const HttpRequest& req,
                                       const Timeouts& timeouts, const RetryPolicy& policy,
                                       const std::function<void(double)>& sleep,
                                       const std::function<std::string(const HttpResponse&)>& accept,
                                       std::vector<Attempt>* attempts) {
  std::string last_error;
  bool fatal = false;
  int tried = 0;
  double wait = 0;
  const int max_attempts = std::max(1, policy.max_attempts);
  for (int a = 0; a < max_attempts && !fatal; ++a) {
    if (a > 0 && wait > 0) (sleep ? sleep : sleep_seconds)(wait);
    auto t0 = std::chrono::steady_clock::now();
    HttpResponse r = transport(url, req, timeouts);
    ++tried;
    Attempt at;
    at.status = r.status;
    at.seconds = seconds_since(t0);
    at.waited_s = a > 0 ? wait : 0;
    if (r.status >= 200 && r.status < 300) {
      at.error = accept ? accept(r) : "";
      if (at.error.empty()) {
        if (attempts) attempts->push_back(at);
        return r;
      }
    } else {
      at.error = describe_http_error(r);
      fatal = !retryable_status(r.status);
    }
    if (attempts) attempts->push_back(at);
    last_error = at.error;
    wait = retry_delay(policy, a + 1, r.retry_after_s, jitter_draw());
  }
  std::string where = req.method + " " + url.origin() + req.path;
  return Diagnostic{"", 0, 0,
                    fatal ? fmt::format("{}: {} (not retried)", where, last_error)
                          : fmt::format("{}: gave up after {} attempt(s); last: {}", where, tried, last_error)};
}

}  // namespace cudaperf::agent
