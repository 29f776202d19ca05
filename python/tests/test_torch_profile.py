"""torch_profile.judge_profile on the rows of tests/data/torch_profile/cases.json (no torch needed)."""
import json
import os
import unittest

from cudaperf import torch_profile

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "torch_profile", "cases.json")


class JudgeProfileCases(unittest.TestCase):
    def test_cases(self):
        rows = json.load(open(CASES, encoding="utf-8"))["cases"]
        self.assertGreaterEqual(len(rows), 10)
        for row in rows:
            with self.subTest(row["name"]):
                names = [k for k, _ in row["kernels"]]
                times = [t for _, t in row["kernels"]]
                got = torch_profile.judge_profile(names, row["ops"], row["own"], row.get("own_required", True),
                                                  None if None in times else times)
                if row["rule"]:
                    self.assertTrue(got.startswith(f"rule {row['rule']}:"), got)
                    self.assertIn(row.get("needle", ""), got)
                else:
                    self.assertEqual(got, "")


if __name__ == "__main__":
    unittest.main()
