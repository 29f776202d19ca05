"""The reference's timer of the eager and torch.compile baselines (torch_baselines): one timed call
with its set-up outside the window, and the SM clock beside it. torch is imported lazily (this module
is importable without it)."""
from __future__ import annotations

import time
from typing import Any, Callable

from cudaperf import torch_timing


def sync(device: str) -> None:
    import torch
    if device == "cuda":
        torch.cuda.synchronize()


def flush_buffer(torch: Any) -> Any:
    """The L2 flush buffer on device 0: torch_timing.l2_flush_bytes of its L2 size (config/timing.toml
    [l2_flush]; a device that reports none gets the file's unknown-size rule), as float32."""
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or 0
    return torch.empty((torch_timing.l2_flush_bytes(l2) + 3) // 4, dtype=torch.float32, device="cuda")


class Timer:
    """One timed call as the protocol wants it: the persisting L2 reset, inputs of its set copied in,
    L2 flushed (config/timing.toml [l2_flush]), all outside the window and in the C measurer's order;
    events on the current stream around the call; the wall time to a device-wide sync beside it (work
    off the stream shows up as wall >> events)."""

    def __init__(self, device: str) -> None:
        import torch
        self.device = device
        self.flush: Any = None
        self.nvml: tuple[Any, Any] | None = None
        self.reset_l2: Callable[[], Any] | None = None
        self.max_mhz = -1.0
        self.clocks: list[float] = []
        if device == "cuda":
            self.flush = flush_buffer(torch)
            self.e0 = torch.cuda.Event(enable_timing=True)
            self.e1 = torch.cuda.Event(enable_timing=True)
            self._open_clock(torch)
            self._open_l2_reset()

    # Set up before the sandbox's filter (library loads and device opens happen here).
    def _open_clock(self, torch: Any) -> None:
        """The SM clock through NVML (nvidia-ml-py), read after every sample; None without it."""
        try:
            import pynvml
            pynvml.nvmlInit()
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            h = None
            if getattr(props, "uuid", None):  # NVML numbers devices without CUDA_VISIBLE_DEVICES: find ours by UUID
                u = str(props.uuid)
                try:
                    h = pynvml.nvmlDeviceGetHandleByUUID(u if u.startswith("GPU-") else "GPU-" + u)
                except Exception:
                    h = None
            if h is None and hasattr(props, "pci_bus_id"):
                bus = (f"{getattr(props, 'pci_domain_id', 0):08x}:{props.pci_bus_id:02x}:"
                       f"{getattr(props, 'pci_device_id', 0):02x}.0")
                h = pynvml.nvmlDeviceGetHandleByPciBusId(bus)
            self.max_mhz = float(pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM))
            self.nvml = (pynvml, h)
        except Exception:  # no NVML: samples are kept, the clock is not reported
            self.nvml = None

    def _open_l2_reset(self) -> None:
        """cudaCtxResetPersistingL2Cache from the CUDA runtime torch loaded: a candidate's persisting-L2
        policy must not carry over into the next sample."""
        import ctypes
        for name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so"):
            try:
                self.reset_l2 = ctypes.CDLL(name).cudaCtxResetPersistingL2Cache
                return
            except (OSError, AttributeError):
                continue

    def sm_mhz(self) -> float:
        if not self.nvml:
            return -1.0
        try:
            pynvml, h = self.nvml
            return float(pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM))
        except Exception:
            return -1.0

    def throttled(self) -> bool:
        """Reads the SM clock after a sample (kept for the report); True when it is throttled by
        config/timing.toml [clock] (torch_timing.clock_throttled, the C measurer's rule)."""
        mhz = self.sm_mhz()
        if mhz > 0:
            self.clocks.append(mhz)
        return bool(torch_timing.clock_throttled(mhz, self.max_mhz))

    def run(self, fn: Callable[[], Any], prepare: Callable[[], Any]) -> tuple[Any, float, float]:
        """prepare() then fn(); returns (result, event_ms, wall_ms). Before the window, in the order of
        src/verify/measurer.cpp: the persisting L2 reset (the device is idle: the last call synced),
        prepare(), the flush."""
        if self.reset_l2 is not None:
            self.reset_l2()
        prepare()
        if self.flush is not None:
            self.flush.zero_()
        sync(self.device)
        w0 = time.perf_counter()
        if self.device == "cuda":
            self.e0.record()
            out = fn()
            self.e1.record()
            import torch
            torch.cuda.synchronize()
            wall = (time.perf_counter() - w0) * 1e3
            return out, float(self.e0.elapsed_time(self.e1)), wall
        out = fn()
        wall = (time.perf_counter() - w0) * 1e3
        return out, wall, wall
