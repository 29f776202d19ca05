#include "cudaperf/serve/job_store.hpp"

#include <sqlite3.h>
#include <xxhash.h>

#include <chrono>
#include <fmt/format.h>
#include <mutex>
#include <random>

namespace cudaperf::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string new_id() {
  static std::mt19937_64 rng(std::random_device{}());
  static std::mutex mu;
  std::lock_guard lock(mu);
  return fmt::format("{:016x}", rng());
}

// A prepared statement, finalized on scope exit.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  Stmt(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s, nullptr); }
  ~Stmt() { sqlite3_finalize(s); }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(s, i, v);
    return *this;
  }
  Stmt& bind(int i, int v) {
    sqlite3_bind_int(s, i, v);
    return *this;
  }
  int step() { return sqlite3_step(s); }
  std::string text(int i) {
    auto* t = sqlite3_column_text(s, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
};

constexpr const char* kColumns = "id, key, task, source, options, state, worker, attempts, result, created, started, finished";

Job row(Stmt& st) {
  Job j;
  j.id = st.text(0);
  j.key = st.text(1);
  j.task = st.text(2);
  j.source = st.text(3);
  j.options = json::parse(st.text(4), nullptr, false);
  j.state = st.text(5);
  j.worker = sqlite3_column_int(st.s, 6);
  j.attempts = sqlite3_column_int(st.s, 7);
  std::string r = st.text(8);
  j.result = r.empty() ? json(nullptr) : json::parse(r, nullptr, false);
  j.created = sqlite3_column_double(st.s, 9);
  j.started = sqlite3_column_double(st.s, 10);
  j.finished = sqlite3_column_double(st.s, 11);
  return j;
}

}  // namespace

std::string job_key(const std::string& task, const std::string& source, const json& options) {
  std::string k = task + '\0' + source + '\0' + options.dump();
  return fmt::format("{:016x}", XXH3_64bits(k.data(), k.size()));
}

struct JobStore::Impl {
  sqlite3* db = nullptr;
  std::mutex mu;  // one connection per process, used by several HTTP threads
  ~Impl() {
    if (db) sqlite3_close(db);
  }
  bool exec(const char* sql) { return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }
};

JobStore::JobStore() : p_(std::make_unique<Impl>()) {}
JobStore::~JobStore() = default;
JobStore::JobStore(JobStore&&) noexcept = default;
JobStore& JobStore::operator=(JobStore&&) noexcept = default;

Result<JobStore> JobStore::open(const fs::path& file) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  JobStore s;
  if (sqlite3_open(file.c_str(), &s.p_->db) != SQLITE_OK)
    return Diagnostic{file.string(), 0, 0, fmt::format("cannot open the job store: {}", sqlite3_errmsg(s.p_->db))};
  sqlite3_busy_timeout(s.p_->db, 10000);
  if (!s.p_->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;") ||
      !s.p_->exec("CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, key TEXT NOT NULL, task TEXT NOT NULL, "
                  "source TEXT NOT NULL, options TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN "
                  "('queued','running','done')), worker INTEGER NOT NULL DEFAULT -1, attempts INTEGER NOT NULL "
                  "DEFAULT 0, result TEXT, created REAL NOT NULL, started REAL NOT NULL DEFAULT 0, finished REAL "
                  "NOT NULL DEFAULT 0);"
                  "CREATE INDEX IF NOT EXISTS jobs_key ON jobs(key);"
                  "CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, created);"))
    return Diagnostic{file.string(), 0, 0, fmt::format("cannot set up the job store: {}", sqlite3_errmsg(s.p_->db))};
  return s;
}

Result<Job> JobStore::submit(const std::string& task, const std::string& source, const json& options) {
  auto r = submit_all({{task, source, options}});
  if (!r) return r.errors().front();
  return r.value().front();
}

Result<std::vector<Job>> JobStore::submit_all(const std::vector<JobRequest>& requests) {
  std::lock_guard lock(p_->mu);
  // One transaction: a worker sees the whole request at once (and can batch it), or none of it.
  if (!p_->exec("BEGIN IMMEDIATE")) return Diagnostic{"job store", 0, 0, fmt::format("cannot store the jobs: {}", sqlite3_errmsg(p_->db))};
  std::vector<Job> out;
  for (const auto& r : requests) {
    std::string key = job_key(r.task, r.source, r.options);
    {
      Stmt q(p_->db, fmt::format("SELECT {} FROM jobs WHERE key = ? ORDER BY created LIMIT 1", kColumns).c_str());
      q.bind(1, key);
      if (q.step() == SQLITE_ROW) {
        out.push_back(row(q));
        continue;
      }
    }
    Job j;
    j.id = new_id();
    j.key = key;
    j.task = r.task;
    j.source = r.source;
    j.options = r.options;
    j.state = "queued";
    j.created = now_s();
    Stmt ins(p_->db, "INSERT INTO jobs (id, key, task, source, options, state, created) VALUES (?, ?, ?, ?, ?, 'queued', ?)");
    ins.bind(1, j.id).bind(2, key).bind(3, r.task).bind(4, r.source).bind(5, r.options.dump()).bind(6, j.created);
    if (ins.step() != SQLITE_DONE) {
      std::string err = sqlite3_errmsg(p_->db);
      p_->exec("ROLLBACK");
      return Diagnostic{"job store", 0, 0, fmt::format("cannot store the job: {}", err)};
    }
    out.push_back(std::move(j));
  }
  if (!p_->exec("COMMIT")) {
    std::string err = sqlite3_errmsg(p_->db);
    p_->exec("ROLLBACK");
    return Diagnostic{"job store", 0, 0, fmt::format("cannot store the jobs: {}", err)};
  }
  return out;
}

std::optional<Job> JobStore::get(const std::string& id) {
  std::lock_guard lock(p_->mu);
  Stmt q(p_->db, fmt::format("SELECT {} FROM jobs WHERE id = ?", kColumns).c_str());
  q.bind(1, id);
  if (q.step() == SQLITE_ROW) return row(q);
  return std::nullopt;
}

std::optional<Job> JobStore::claim(int worker) {
  auto v = claim_batch(worker, 1);
  if (v.empty()) return std::nullopt;
  return std::move(v.front());
}

std::vector<Job> JobStore::claim_batch(int worker, int max) {
  std::lock_guard lock(p_->mu);
  std::vector<Job> out;
  if (max < 1 || !p_->exec("BEGIN IMMEDIATE")) return out;
  {
    Stmt q(p_->db, fmt::format("SELECT {} FROM jobs WHERE state = 'queued' ORDER BY created LIMIT 1", kColumns).c_str());
    if (q.step() == SQLITE_ROW) out.push_back(row(q));
  }
  // A job on its second attempt runs alone: if it is what kills workers, it takes no other job down.
  if (!out.empty() && max > 1 && out[0].attempts == 0) {
    // The oldest job's companions: queued jobs of the same task with the same options.
    Stmt q(p_->db, fmt::format("SELECT {} FROM jobs WHERE state = 'queued' AND task = ? AND options = ? AND id != ? AND attempts = 0 "
                               "ORDER BY created LIMIT ?", kColumns).c_str());
    q.bind(1, out[0].task).bind(2, out[0].options.dump()).bind(3, out[0].id).bind(4, max - 1);
    while (q.step() == SQLITE_ROW) out.push_back(row(q));
  }
  bool ok = true;
  for (auto& j : out) {
    j.state = "running";
    j.worker = worker;
    j.started = now_s();
    ++j.attempts;
    Stmt u(p_->db, "UPDATE jobs SET state = 'running', worker = ?, started = ?, attempts = attempts + 1 WHERE id = ?");
    u.bind(1, worker).bind(2, j.started).bind(3, j.id);
    ok = ok && u.step() == SQLITE_DONE;
  }
  if (!ok) out.clear();
  p_->exec(out.empty() ? "ROLLBACK" : "COMMIT");
  return out;
}

bool JobStore::finish(const std::string& id, int worker, const json& result) {
  std::lock_guard lock(p_->mu);
  Stmt u(p_->db, "UPDATE jobs SET state = 'done', result = ?, finished = ? WHERE id = ? AND state = 'running' AND worker = ?");
  u.bind(1, result.dump()).bind(2, now_s()).bind(3, id).bind(4, worker);
  return u.step() == SQLITE_DONE && sqlite3_changes(p_->db) == 1;
}

int JobStore::requeue(int worker) {
  std::lock_guard lock(p_->mu);
  Stmt u(p_->db, worker < 0 ? "UPDATE jobs SET state = 'queued', worker = -1 WHERE state = 'running'"
                            : "UPDATE jobs SET state = 'queued', worker = -1 WHERE state = 'running' AND worker = ?");
  if (worker >= 0) u.bind(1, worker);
  u.step();
  return sqlite3_changes(p_->db);
}

int JobStore::queued() {
  std::lock_guard lock(p_->mu);
  Stmt q(p_->db, "SELECT COUNT(*) FROM jobs WHERE state = 'queued'");
  return q.step() == SQLITE_ROW ? sqlite3_column_int(q.s, 0) : 0;
}

json JobStore::stats() {
  std::lock_guard lock(p_->mu);
  json j = {{"state", json::object()}, {"verdict", json::object()}, {"latency_le", json::array()}};
  {
    Stmt q(p_->db, "SELECT state, COUNT(*) FROM jobs GROUP BY state");
    while (q.step() == SQLITE_ROW) j["state"][q.text(0)] = sqlite3_column_int(q.s, 1);
  }
  {
    Stmt q(p_->db, "SELECT json_extract(result, '$.verdict'), COUNT(*) FROM jobs WHERE state = 'done' GROUP BY 1");
    while (q.step() == SQLITE_ROW) j["verdict"][q.text(0).empty() ? "unknown" : q.text(0)] = sqlite3_column_int(q.s, 1);
  }
  for (double le : {1.0, 5.0, 15.0, 60.0, 300.0, 1e300}) {
    Stmt q(p_->db, "SELECT COUNT(*) FROM jobs WHERE state = 'done' AND finished - created <= ?");
    q.bind(1, le);
    int n = q.step() == SQLITE_ROW ? sqlite3_column_int(q.s, 0) : 0;
    j["latency_le"].push_back({le > 1e299 ? "+Inf" : fmt::format("{}", le), n});  // ascending, as Prometheus wants
  }
  {
    Stmt q(p_->db, "SELECT COALESCE(SUM(finished - created), 0), COUNT(*), COALESCE(SUM(attempts - 1), 0) FROM jobs WHERE state = 'done'");
    if (q.step() == SQLITE_ROW) {
      j["latency_sum"] = sqlite3_column_double(q.s, 0);
      j["done"] = sqlite3_column_int(q.s, 1);
      j["retried"] = sqlite3_column_int(q.s, 2);
    }
  }
  return j;
}

}  // namespace cudaperf::serve
