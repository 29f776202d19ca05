// The reward service's job store: dedupe, batch claims, ownership of results, requeue.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cudaperf/serve/job_store.hpp"

namespace cudaperf::serve {
namespace {

namespace fs = std::filesystem;

struct JobStoreTest : ::testing::Test {
  fs::path file = fs::temp_directory_path() / ("cudaperf-jobstore-" + std::to_string(getpid()) + "-" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".sqlite");
  void TearDown() override {
    for (const char* s : {"", "-wal", "-shm"}) fs::remove(file.string() + s);
  }
};

TEST_F(JobStoreTest, IdenticalRequestsAreOneJob) {
  auto st = JobStore::open(file);
  ASSERT_TRUE(st);
  auto a = st->submit("cat/t", "src", {{"time_budget_s", 1}});
  auto b = st->submit("cat/t", "src", {{"time_budget_s", 1}});
  auto c = st->submit("cat/t", "src", {{"time_budget_s", 2}});
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->id, b->id);
  EXPECT_NE(a->id, c->id);
  EXPECT_EQ(st->queued(), 2);
}

TEST_F(JobStoreTest, ARequestIsStoredWholeInOneTransaction) {
  auto st = JobStore::open(file);
  ASSERT_TRUE(st);
  auto other = JobStore::open(file);  // another process's view (a worker)
  ASSERT_TRUE(other);
  auto jobs = st->submit_all({{"cat/a", "1", {}}, {"cat/a", "2", {}}, {"cat/a", "1", {}}, {"cat/b", "3", {}}});
  ASSERT_TRUE(jobs);
  ASSERT_EQ(jobs->size(), 4u);
  EXPECT_EQ(jobs.value()[0].id, jobs.value()[2].id);  // a duplicate inside the request is the same job
  EXPECT_NE(jobs.value()[0].id, jobs.value()[1].id);
  EXPECT_EQ(other->queued(), 3);
  auto batch = other->claim_batch(7, 8);  // the whole request's jobs of cat/a, in one claim
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].task, "cat/a");
  EXPECT_EQ(batch[1].task, "cat/a");
  auto again = st->submit_all({{"cat/b", "3", {}}});  // answered from the store
  ASSERT_TRUE(again);
  EXPECT_EQ(again.value()[0].id, jobs.value()[3].id);
  EXPECT_EQ(st->queued(), 1);
}

TEST_F(JobStoreTest, BatchClaimTakesOneTaskWithTheSameOptionsOldestFirst) {
  auto st = JobStore::open(file);
  ASSERT_TRUE(st);
  auto first = st->submit("cat/a", "1", {});
  st->submit("cat/b", "2", {});
  auto third = st->submit("cat/a", "3", {});
  st->submit("cat/a", "4", {{"time_budget_s", 5}});  // other options: another batch
  auto fifth = st->submit("cat/a", "5", {});
  auto batch = st->claim_batch(7, 8);
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[0].id, first->id);
  EXPECT_EQ(batch[1].id, third->id);
  EXPECT_EQ(batch[2].id, fifth->id);
  for (const auto& j : batch) {
    EXPECT_EQ(j.state, "running");
    EXPECT_EQ(j.worker, 7);
    EXPECT_EQ(j.attempts, 1);
  }
  EXPECT_EQ(st->queued(), 2);
  EXPECT_EQ(st->claim_batch(8, 2).front().task, "cat/b");
  EXPECT_EQ(st->claim_batch(8, 2).front().source, "4");
  EXPECT_TRUE(st->claim_batch(8, 2).empty());
}

TEST_F(JobStoreTest, OnlyTheOwnerFinishesAndARequeuedJobRunsAlone) {
  auto st = JobStore::open(file);
  ASSERT_TRUE(st);
  st->submit("cat/a", "1", {});
  st->submit("cat/a", "2", {});
  auto batch = st->claim_batch(1, 8);
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(st->requeue(1), 2);  // worker 1 died
  // Its late result is refused: the job is no longer its own.
  EXPECT_FALSE(st->finish(batch[0].id, 1, {{"verdict", "ok"}}));
  // A second attempt is claimed alone (it may be what killed the worker).
  auto retry = st->claim_batch(2, 8);
  ASSERT_EQ(retry.size(), 1u);
  EXPECT_EQ(retry[0].attempts, 2);
  EXPECT_TRUE(st->finish(retry[0].id, 2, {{"verdict", "ok"}}));
  EXPECT_FALSE(st->finish(retry[0].id, 2, {{"verdict", "ok"}}));  // exactly once
  auto done = st->get(retry[0].id);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, "done");
  EXPECT_EQ(done->result["verdict"], "ok");
}

TEST_F(JobStoreTest, JobsSurviveReopening) {
  std::string id;
  {
    auto st = JobStore::open(file);
    ASSERT_TRUE(st);
    id = st->submit("cat/a", "1", {})->id;
    ASSERT_EQ(st->claim_batch(3, 1).size(), 1u);
  }
  auto st = JobStore::open(file);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->get(id)->state, "running");
  EXPECT_EQ(st->requeue(-1), 1);
  EXPECT_EQ(st->get(id)->state, "queued");
}

}  // namespace
}  // namespace cudaperf::serve
