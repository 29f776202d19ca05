import asyncio
import socket
import time
import unittest
from email.utils import formatdate

from cudaperf.client import (AsyncClient, Client, CudaperfBadRequest, CudaperfError, CudaperfTimeout,
                             CudaperfUnavailable, parse_retry_after)
from tests.fake_service import TASK, TASKS, FakeService, fake_result, source


def dead_url() -> str:
    """A URL nothing listens on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


class TwoServices(unittest.TestCase):
    """Two fake services, a and b."""

    def setUp(self):
        self.a, self.b = FakeService(), FakeService()
        self.addCleanup(self.a.stop)
        self.addCleanup(self.b.stop)


class ClientTest(TwoServices):

    def test_evaluate_returns_results_in_request_order(self):
        srcs = [source("SPEEDUP=2"), source("COMPILE_ERROR"), source("WRONG"), source("SPEEDUP=0.5"), source("HACK")]
        reqs = [{"task": TASKS[k % 2], "source": s} for k, s in enumerate(srcs)]
        results = Client(self.a.url).evaluate(reqs)
        self.assertEqual(results, [fake_result(r["task"], r["source"]) for r in reqs])
        self.assertEqual(len(self.a.calls("POST", "/v1/evaluate")), 1)
        self.assertEqual(self.a.calls("POST")[0][2]["wait_s"], 30.0)

    def test_empty_batch_makes_no_request(self):
        self.assertEqual(Client(self.a.url).evaluate([]), [])
        self.assertEqual(self.a.calls(), [])

    def test_malformed_request_is_refused_locally(self):
        with self.assertRaises(ValueError):
            Client(self.a.url).evaluate([{"task": TASK}])

    def test_unfinished_jobs_are_polled_on_the_url_that_took_them(self):
        c = Client([self.a.url, self.b.url])
        for _ in range(2):  # round robin: one call starts on each service
            r = c.evaluate([{"task": TASK, "source": source("POLL=3 SPEEDUP=3")}, {"task": TASK, "source": source("")}])
            self.assertEqual(r[0]["speedup"], 3.0)
            self.assertEqual(r[1]["speedup"], 1.5)
        for svc in (self.a, self.b):
            self.assertEqual(len(svc.calls("POST")), 1)
            self.assertEqual(len(svc.calls("GET", "/v1/jobs/")), 3)
            self.assertEqual(len({c[1] for c in svc.calls("GET")}), 1)  # only the slow job

    def test_wait_zero_polls_every_job(self):
        r = Client(self.a.url).evaluate([{"task": TASK, "source": source("SPEEDUP=4")}], wait_s=0)
        self.assertEqual(r[0]["speedup"], 4.0)
        self.assertEqual(len(self.a.calls("GET", "/v1/jobs/")), 1)

    def test_429_is_retried_after_retry_after(self):
        self.a.faults.append(("/v1/evaluate", 429, {"Retry-After": "0.3"}))
        t0 = time.monotonic()
        r = Client(self.a.url, backoff_s=0.01).evaluate_one(TASK, source("SPEEDUP=2"))
        self.assertGreaterEqual(time.monotonic() - t0, 0.3)
        self.assertEqual(r["speedup"], 2.0)
        self.assertEqual(len(self.a.calls("POST")), 2)

    def test_429_goes_to_another_url_meanwhile(self):
        self.a.faults.append(("/v1/evaluate", 429, {"Retry-After": "30"}))
        c = Client([self.a.url, self.b.url])
        t0 = time.monotonic()
        for _ in range(2):
            c.evaluate_one(TASK, source())
        self.assertLess(time.monotonic() - t0, 5)

    def test_endless_429_ends_at_the_timeout(self):
        self.a.always = (429, {"Retry-After": "0.05"})
        t0 = time.monotonic()
        with self.assertRaises(CudaperfTimeout):
            Client(self.a.url, timeout_s=0.6).evaluate_one(TASK, source())
        self.assertLess(time.monotonic() - t0, 3)
        self.assertGreater(len(self.a.calls()), 3)  # 429s do not use up the retries

    def test_500_fails_over_to_the_next_url(self):
        self.a.always = (500, {})
        c = Client([self.a.url, self.b.url], backoff_s=0.01)
        for k in range(4):
            self.assertEqual(c.evaluate_one(TASK, source(f"SPEEDUP={k + 1}"))["speedup"], k + 1)
        self.assertGreaterEqual(len(self.a.calls()), 1)  # some calls started there
        self.assertEqual(len(self.b.calls("POST")), 4)

    def test_connection_errors_fail_over(self):
        self.b.faults.append(("/v1/evaluate", "close", {}))
        c = Client([dead_url(), self.b.url], backoff_s=0.01)
        for _ in range(3):
            self.assertEqual(c.evaluate_one(TASK, source("SPEEDUP=2"))["verdict"], "ok")

    def test_retries_run_out(self):
        self.a.always = (503, {})
        with self.assertRaises(CudaperfUnavailable) as cm:
            Client([self.a.url, dead_url()], retries=3, backoff_s=0.01).evaluate_one(TASK, source())
        self.assertIn("failed 4 time(s)", str(cm.exception))

    def test_400_is_never_retried(self):
        c = Client([self.a.url, self.b.url])
        with self.assertRaises(CudaperfBadRequest) as cm:
            c.evaluate_one("nope/none", source())
        self.assertEqual(cm.exception.status, 400)
        self.assertIn("unknown task 'nope/none'", str(cm.exception))
        self.assertEqual(len(self.a.calls()) + len(self.b.calls()), 1)
        self.assertIsInstance(cm.exception, CudaperfError)

    def test_bad_body_400(self):
        with self.assertRaises(CudaperfBadRequest) as cm:
            Client(self.a.url)._request("POST", "/v1/evaluate", {"requests": 5})
        self.assertIn("'requests' must be an array", str(cm.exception))

    def test_oversized_source_400(self):
        with self.assertRaises(CudaperfBadRequest) as cm:
            Client(self.a.url).evaluate_one(TASK, "x" * 5000)
        self.assertIn("byte limit", str(cm.exception))

    def test_round_robin_spreads_calls(self):
        c = Client([self.a.url, self.b.url])
        for _ in range(4):
            c.evaluate_one(TASK, source())
        self.assertEqual(len(self.a.calls("POST")), 2)
        self.assertEqual(len(self.b.calls("POST")), 2)

    def test_lost_job_is_submitted_again(self):
        self.a.faults.append(("/v1/jobs/", 404, {}))
        r = Client(self.a.url).evaluate([{"task": TASK, "source": source("POLL=1 SPEEDUP=5")}])
        self.assertEqual(r[0]["speedup"], 5.0)
        self.assertEqual(len(self.a.calls("POST")), 2)

    def test_large_batches_are_split(self):
        reqs = [{"task": TASK, "source": source(f"SPEEDUP={k + 1}")} for k in range(5)]
        r = Client(self.a.url, max_batch=2).evaluate(reqs)
        self.assertEqual([x["speedup"] for x in r], [1.0, 2.0, 3.0, 4.0, 5.0])
        posts = self.a.calls("POST")
        self.assertEqual([len(p[2]["requests"]) for p in posts], [2, 2, 1])
        self.assertEqual([p[2]["wait_s"] for p in posts][:2], [0.0, 0.0])

    def test_polling_times_out(self):
        with self.assertRaises(CudaperfTimeout) as cm:
            Client(self.a.url, timeout_s=1).evaluate_one(TASK, source("POLL=1000"))
        self.assertIn("not done", str(cm.exception))

    def test_options_are_sent(self):
        Client(self.a.url).evaluate_one(TASK, source(), time_budget_s=0.5)
        self.assertEqual(self.a.calls("POST")[0][2]["requests"][0]["options"], {"time_budget_s": 0.5})

    def test_job_and_health(self):
        c = Client([self.a.url, self.b.url])
        body, where = c._request("POST", "/v1/evaluate", {"requests": [{"task": TASK, "source": source("POLL=1")}],
                                                          "wait_s": 0})
        jid = body["jobs"][0]["id"]
        self.assertEqual(c.job(jid)["state"], "done")  # found on whichever URL has it
        self.assertEqual(c.job(jid, url=c.urls[where])["id"], jid)
        with self.assertRaises(CudaperfError) as cm:
            c.job("feedbeef")
        self.assertEqual(cm.exception.status, 404)
        dead = dead_url()
        self.assertEqual(Client([self.a.url, dead]).health(), {self.a.url: True, dead: False})

    def test_openrlhf(self):
        c = Client(self.a.url)
        out = c.openrlhf(["P```cuda\n" + source("SPEEDUP=2") + "```\n"], ["P"], [TASK])
        self.assertAlmostEqual(out["rewards"][0], fake_result(TASK, source("SPEEDUP=2"))["reward"]["total"])
        self.assertEqual(c.openrlhf([], [], []), {"rewards": [], "scores": [], "extra_logs": {}})
        self.assertEqual(len(self.a.calls("POST", "/v1/openrlhf")), 1)
        with self.assertRaises(ValueError):
            c.openrlhf(["a"], [], [])

    def test_urls_forms(self):
        self.assertEqual(Client("http://x:1/, http://y:2").urls, ["http://x:1", "http://y:2"])
        with self.assertRaises(ValueError):
            Client([])

    def test_parse_retry_after(self):
        self.assertEqual(parse_retry_after("5"), 5.0)
        self.assertEqual(parse_retry_after("0.25"), 0.25)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        later = parse_retry_after(formatdate(time.time() + 60, usegmt=True))
        self.assertTrue(55 <= later <= 61, later)
        self.assertEqual(parse_retry_after(formatdate(time.time() - 60, usegmt=True)), 0.0)


class AsyncClientTest(TwoServices):
    def test_async_methods(self):
        async def main():
            c = AsyncClient([self.a.url, self.b.url])
            try:
                batches = [[{"task": TASK, "source": source(f"POLL={k} SPEEDUP={k + j + 1}")} for j in range(3)]
                           for k in range(4)]
                results = await asyncio.gather(*(c.evaluate(b) for b in batches))
                one = await c.evaluate_one(TASK, source("SPEEDUP=7"))
                health = await c.health()
                rl = await c.openrlhf([], [], [])
                return batches, results, one, health, rl
            finally:
                c.close()

        batches, results, one, health, rl = asyncio.run(main())
        for b, r in zip(batches, results):
            self.assertEqual(r, [fake_result(q["task"], q["source"]) for q in b])
        self.assertEqual(one["speedup"], 7.0)
        self.assertEqual(set(health.values()), {True})
        self.assertEqual(rl["rewards"], [])

    def test_async_errors_propagate(self):
        async def main():
            c = AsyncClient(self.a.url)
            try:
                await c.evaluate_one("nope/none", source())
            finally:
                c.close()

        with self.assertRaises(CudaperfBadRequest):
            asyncio.run(main())


if __name__ == "__main__":
    unittest.main()
