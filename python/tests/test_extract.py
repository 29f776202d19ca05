import unittest

from cudaperf.extract import extract_code, fenced_blocks, response_text, strip_prompt

KERNEL = '__global__ void k(float* y) { y[threadIdx.x] = 1.f; }\n'
PROMPT = ("Write a CUDA implementation of the C function below.\n\nC reference:\n```c\nvoid f(float* y) { y[0] = 1; }\n```\n\n"
          "Your .cu file must define exactly this function:\n```cuda\nextern \"C\" void f(float* y, cudaStream_t s);\n```\n\n"
          "Answer with the complete .cu file in one ```cuda code block.\n")


class ExtractTest(unittest.TestCase):
    def test_last_cuda_block_wins(self):
        text = f"First try:\n```cuda\nold\n```\nBetter:\n```cuda\n{KERNEL}```\nTest it with:\n```python\nprint(1)\n```\n"
        self.assertEqual(extract_code(text), KERNEL)

    def test_tagged_block_preferred_over_later_untagged(self):
        self.assertEqual(extract_code(f"```cpp\n{KERNEL}```\nthen\n```\nnvcc -O3 k.cu\n```\n"), KERNEL)

    def test_untagged_fallback_is_the_last_block(self):
        self.assertEqual(extract_code("```\nfirst\n```\n```text\nsecond\n```\n"), "second\n")

    def test_every_code_tag(self):
        for tag in ("cuda", "cu", "cpp", "c++", "c", "CUDA", "Cu", "cuda title=kernel.cu", "{.cuda}", " cuda"):
            with self.subTest(tag=tag):
                self.assertEqual(extract_code(f"```{tag}\n{KERNEL}```\n```python\nx = 1\n```\n"), KERNEL)

    def test_no_block(self):
        for text in (None, "", "no code here", "inline ```cuda x``` is not a block", "   \n"):
            with self.subTest(text=text):
                self.assertIsNone(extract_code(text))

    def test_unclosed_block_is_not_a_candidate(self):
        self.assertIsNone(extract_code(f"```cuda\n{KERNEL}"))
        self.assertEqual(extract_code(f"```cuda\n{KERNEL}```\nmore:\n```cuda\ntruncated"), KERNEL)

    def test_empty_blocks_are_skipped(self):
        self.assertEqual(extract_code(f"```cuda\n{KERNEL}```\n```cuda\n\n```\n"), KERNEL)

    def test_longer_and_tilde_fences(self):
        inner = "// ``` inside a comment\n" + KERNEL
        self.assertEqual(extract_code(f"````cuda\n{inner}````\n"), inner)
        self.assertEqual(extract_code(f"~~~cu\n{KERNEL}~~~\n"), KERNEL)
        self.assertEqual(fenced_blocks("  ```c\nx\n  ```\n"), [("c", "x\n")])

    def test_prompt_echo_is_stripped(self):
        response = f"Sure.\n```cuda\n{KERNEL}```\n"
        self.assertEqual(extract_code(PROMPT + response, PROMPT), KERNEL)
        # the prompt's own blocks are never the candidate
        self.assertIsNone(extract_code(PROMPT + "I cannot do this.", PROMPT))
        # a chat template around the prompt
        self.assertIsNone(extract_code("<|im_start|>user\n" + PROMPT + "<|im_end|>\n<|im_start|>assistant\nNo.", PROMPT))

    def test_prompt_found_by_its_tail(self):
        echoed = PROMPT.replace("Write a CUDA", "write a CUDA", 1)  # decoding changed the start
        self.assertIsNone(extract_code(echoed + "Nothing.", PROMPT))
        self.assertEqual(strip_prompt("abc", "zzz"), "abc")
        self.assertEqual(strip_prompt("abc", None), "abc")

    def test_reasoning_is_dropped(self):
        self.assertEqual(extract_code(f"<think>draft\n```cuda\ndraft\n```\n</think>\n```cuda\n{KERNEL}```\n"), KERNEL)
        self.assertIsNone(extract_code("<think>\n```cuda\ndraft\n```\n</think>\nI give up."))
        self.assertIsNone(extract_code("<think>\n```cuda\ndraft\n```\nstill thinking"))

    def test_response_text(self):
        self.assertEqual(response_text("abc"), "abc")
        self.assertEqual(response_text(None), "")
        conv = [{"role": "assistant", "content": "a"}, {"role": "tool", "content": "t"},
                {"role": "assistant", "content": [{"type": "text", "text": "b"}, {"type": "image"}]}]
        self.assertEqual(response_text(conv), "a\n\nb")
        self.assertEqual(response_text({"role": "assistant", "content": "x"}), "x")
        self.assertEqual(extract_code(response_text([{"role": "assistant", "content": f"```cuda\n{KERNEL}```"}])), KERNEL)


if __name__ == "__main__":
    unittest.main()
