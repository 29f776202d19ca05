"""Framed tensor records: tensors as raw bytes behind a checked header, never pickle.

A record: <II klen hlen> <Q dlen> key header data. The header (JSON) lists each tensor's dtype and
shape; the data is their raw bytes, one after the other. No pickle crosses from the candidate to the
reference: the reader builds plain tensors from bytes, after checking every size. torch is imported
lazily (this module is importable without it).
"""
from __future__ import annotations

import json
import math
import struct
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from torch import Tensor

FRAME_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64", "bool",
                "complex64", "complex128")


def write_frame(f: BinaryIO, key: str, tensors: list[Tensor]) -> None:
    import ctypes
    dense = [t.contiguous() for t in tensors]  # CPU tensors (torch_outputs.host_copies)
    header = json.dumps([{"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)} for t in dense]).encode()
    k = key.encode()
    sizes = [t.numel() * t.element_size() for t in dense]
    f.write(struct.pack("<II", len(k), len(header)) + struct.pack("<Q", sum(sizes)) + k + header)
    for t, n in zip(dense, sizes):
        if n:  # the tensor's memory as a buffer (no copy, no numpy); `dense` keeps it alive
            f.write(memoryview((ctypes.c_ubyte * n).from_address(t.data_ptr())))
    f.flush()


def read_frames(path: str, limit_bytes: int) -> dict[str, list[Tensor]]:
    import torch
    out = {}
    with open(path, "rb") as f:
        total = 0
        while True:
            head = f.read(16)
            if not head:
                break
            if len(head) < 16:
                raise ValueError("truncated output record")
            klen, hlen = struct.unpack("<II", head[:8])
            (dlen,) = struct.unpack("<Q", head[8:])
            total += 16 + klen + hlen + dlen
            if klen > 256 or hlen > 1 << 16 or total > limit_bytes:
                raise ValueError("output records larger than the outputs could be")
            key = f.read(klen).decode(errors="replace")
            metas = json.loads(f.read(hlen))
            if not isinstance(metas, list) or len(metas) > 64:
                raise ValueError("malformed output record header")
            tensors, used = [], 0
            for m in metas:
                dt, shape = m.get("dtype"), m.get("shape")
                if dt not in FRAME_DTYPES or not isinstance(shape, list) or len(shape) > 16 or \
                        not all(type(d) is int and 0 <= d < 1 << 40 for d in shape):  # noqa: E721
                    raise ValueError("malformed output record header")
                dtype = getattr(torch, dt)
                n = math.prod(shape) * torch.empty((), dtype=dtype).element_size()
                used += n
                if used > dlen:
                    raise ValueError("output record shorter than its header says")
                buf = bytearray(n)  # read straight into it: GBs at perf size, one copy
                if f.readinto(buf) != n:
                    raise ValueError("truncated output record")
                t = (torch.frombuffer(buf, dtype=torch.uint8).view(dtype).reshape(shape) if n
                     else torch.empty(shape, dtype=dtype))
                tensors.append(t)
            if used != dlen:
                raise ValueError("output record longer than its header says")
            out[key] = tensors
    return out
