"""cudaperf: Python client and RL-engine adapters for the cudaperf reward service.

    from cudaperf import Client
    client = Client("http://gpu-a:8080,http://gpu-b:8080")
    result = client.evaluate_one("reduction/sum_f32", open("kernel.cu").read(), time_budget_s=0.5)

Adapters (import nothing from the engines): cudaperf.verl, cudaperf.trl, cudaperf.openrlhf.
"""
from cudaperf.client import (
    AsyncClient,
    Client,
    CudaperfBadRequest,
    CudaperfError,
    CudaperfNoGpu,
    CudaperfTimeout,
    CudaperfUnavailable,
)
from cudaperf.extract import extract_code

__all__ = ["Client", "AsyncClient", "CudaperfError", "CudaperfBadRequest", "CudaperfTimeout", "CudaperfUnavailable",
           "CudaperfNoGpu", "extract_code"]
__version__ = "0.1.0"
