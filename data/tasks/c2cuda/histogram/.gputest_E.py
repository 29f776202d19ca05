import sys, os, ctypes, subprocess, tomllib, re, math, time, concurrent.futures as cf
import numpy as np, torch

NP = {"int": np.int32, "int32_t": np.int32, "unsigned int": np.uint32, "uint32_t": np.uint32,
      "long long": np.int64, "int64_t": np.int64, "unsigned long long": np.uint64, "uint64_t": np.uint64,
      "unsigned char": np.uint8, "uint8_t": np.uint8, "signed char": np.int8, "int8_t": np.int8,
      "float": np.float32, "double": np.float64}
CT = {np.int32: ctypes.c_int, np.uint32: ctypes.c_uint, np.int64: ctypes.c_longlong, np.uint64: ctypes.c_ulonglong,
      np.uint8: ctypes.c_ubyte, np.int8: ctypes.c_byte, np.float32: ctypes.c_float, np.float64: ctypes.c_double}
TT = {np.int32: torch.int32, np.uint32: torch.uint32, np.int64: torch.int64, np.uint8: torch.uint8,
      np.int8: torch.int8, np.float32: torch.float32, np.float64: torch.float64}

def ev(expr, env):
    e = str(expr).replace("/", "//")
    return int(eval(e, {"min": min, "max": max, "cdiv": lambda a, b: -(-a // b), "log2": lambda a: a.bit_length() - 1, "pow": pow}, dict(env)))

def base_type(t):
    t = t.replace("const", "").replace("*", "").strip()
    return NP[t]

def parse_dist(d):
    m = re.match(r"(\w+)\((.*)\)$", d.strip())
    return m.group(1), [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []

def gen(p, n, env, rng, gpu):
    dt = base_type(p["type"]); kind, args = parse_dist(p["dist"])
    isf = dt in (np.float32, np.float64)
    if gpu:
        dev = "cuda"; tt = TT[dt]
        if kind == "uniform":
            a, b = float(args[0]), float(args[1])
            if isf: return torch.rand(n, dtype=tt, device=dev) * (b - a) + a
            return torch.randint(int(a), int(b) + 1, (n,), device=dev, dtype=torch.int64).to(tt) if dt != np.uint8 else torch.randint(int(a), int(b) + 1, (n,), device=dev, dtype=torch.uint8)
        if kind == "normal": return torch.randn(n, dtype=tt, device=dev) * float(args[1]) + float(args[0])
        if kind == "mixed":
            a, b = float(args[0]), float(args[1]); return torch.rand(n, dtype=tt, device=dev) * (b - a) + a
        if kind == "index":
            lo, hi = ev(args[0], env), ev(args[1], env); return torch.randint(lo, hi, (n,), device=dev, dtype=tt)
        if kind == "rowptr":
            nnz = ev(args[0], env); r = torch.randint(0, nnz + 1, (n,), device=dev, dtype=torch.int64).sort().values
            r[0] = 0; r[-1] = nnz; return r.to(tt)
        raise ValueError(kind)
    if kind == "uniform":
        a, b = float(args[0]), float(args[1])
        return (rng.uniform(a, b, n) if isf else rng.integers(int(a), int(b) + 1, n)).astype(dt)
    if kind == "normal": return rng.normal(float(args[0]), float(args[1]), n).astype(dt)
    if kind == "mixed":
        a, b = float(args[0]), float(args[1]); v = rng.uniform(a, b, n); c = rng.integers(0, 10, n)
        near = rng.uniform(-1e-3, 1e-3, n); v = np.where(c == 0, np.clip(near, a, b), v)
        v = np.where(c == 1, np.where(rng.integers(0, 2, n) == 0, a, b), v)
        ints = rng.integers(math.ceil(a), math.floor(b) + 1, n); v = np.where(c == 2, ints, v)
        return v.astype(dt)
    if kind == "index":
        lo, hi = ev(args[0], env), ev(args[1], env); return rng.integers(lo, hi, n).astype(dt)
    if kind == "rowptr":
        nnz = ev(args[0], env); r = np.sort(rng.integers(0, nnz + 1, n)); r[0] = 0; r[-1] = nnz; return r.astype(dt)
    if kind == "permutation": return rng.permutation(n).astype(dt)
    if kind == "sorted":
        a, b = float(args[0]), float(args[1]); return np.sort(rng.uniform(a, b, n) if isf else rng.integers(int(a), int(b) + 1, n)).astype(dt)
    if kind == "const": return np.full(n, float(args[0])).astype(dt)
    raise ValueError(kind)

def close(got, exp, rtol, atol):
    if got.dtype.kind in "iu":
        bad = got != exp
    else:
        g = got.astype(np.float64); e = exp.astype(np.float64)
        bad = ~((np.abs(g - e) <= atol + rtol * np.abs(e)) | (np.isnan(g) & np.isnan(e)))
    return int(bad.sum()), (np.argmax(bad) if bad.any() else -1)

def build(task_dir, impls, tag):
    os.makedirs("/tmp/b", exist_ok=True)
    ref = f"/tmp/b/{tag}_ref.so"
    jobs = [["gcc", "-std=c11", "-O2", "-Wall", "-Werror", "-shared", "-fPIC", "-o", ref, f"{task_dir}/reference.c"]]
    outs = {}
    for im in impls:
        so = f"/tmp/b/{tag}_{im}.so"; outs[im] = so
        jobs.append(["nvcc", "-arch=sm_90", "-std=c++17", "-Xcompiler", "-fPIC", "-shared", "-cudart", "shared", "-o", so, f"{task_dir}/impls/{im}.cu"])
    return ref, outs, jobs

def main():
    dirs = sys.argv[1:]
    tasks = []
    alljobs = []
    for d in dirs:
        t = tomllib.load(open(f"{d}/task.toml", "rb"))
        impls = sorted(f[:-3] for f in os.listdir(f"{d}/impls") if f.endswith(".cu"))
        tag = t["id"].replace("/", "_")
        ref, outs, jobs = build(d, impls, tag)
        tasks.append((d, t, impls, ref, outs)); alljobs += jobs
    with cf.ThreadPoolExecutor(16) as ex:
        for j, r in zip(alljobs, ex.map(lambda j: subprocess.run(j, capture_output=True, text=True), alljobs)):
            if r.returncode or r.stderr.strip(): print("BUILD", j[-1], r.returncode, r.stderr[-2000:], flush=True)
    stream = torch.cuda.current_stream().cuda_stream
    for d, t, impls, ref, outs in tasks:
        print(f"=== {t['id']}", flush=True)
        fn = t["function"]; params = t["params"]; rtol = t["tolerance"]["rtol"]; atol = t["tolerance"]["atol"]
        det = t.get("deterministic", True)
        reflib = ctypes.CDLL(ref); libs = {}
        for im in impls:
            try: libs[im] = ctypes.CDLL(outs[im])
            except OSError as e: print("LOAD FAIL", im, e)
        for cfg in t["configs"]:
            env = {p["name"]: cfg[p["name"]] for p in params if p["role"] == "size"}
            perf = cfg["name"].startswith("perf")
            rng = np.random.default_rng(1234)
            host = {}
            for p in params:
                if p["role"] in ("in", "inout", "out"):
                    n = ev(p["len"], env); host[p["name"]] = (n, None if p["role"] == "out" else gen(p, n, env, rng, perf))
            def scal(p):
                v = cfg.get(p["name"], p.get("value")); return CT[base_type(p["type"])](v)
            exp = {}
            if not perf:
                args = []; keep = {}
                for p in params:
                    if p["role"] == "size": args.append(CT[base_type(p["type"])](env[p["name"]]))
                    elif p["role"] == "scalar": args.append(scal(p))
                    else:
                        n, arr = host[p["name"]]; dt = base_type(p["type"])
                        a = arr.copy() if arr is not None else np.full(max(n, 1), 0x7f, dtype=dt)
                        keep[p["name"]] = a; args.append(a.ctypes.data_as(ctypes.c_void_p))
                t0 = time.time(); getattr(reflib, fn)(*args); rt = time.time() - t0
                for p in params:
                    if p["role"] in ("out", "inout"): exp[p["name"]] = keep[p["name"]][:host[p["name"]][0]].copy()
                # determinism of the reference
                keep2 = {}; args2 = []
                for p in params:
                    if p["role"] == "size": args2.append(CT[base_type(p["type"])](env[p["name"]]))
                    elif p["role"] == "scalar": args2.append(scal(p))
                    else:
                        n, arr = host[p["name"]]; dt = base_type(p["type"])
                        a = arr.copy() if arr is not None else np.full(max(n, 1), 0x3f, dtype=dt)
                        keep2[p["name"]] = a; args2.append(a.ctypes.data_as(ctypes.c_void_p))
                getattr(reflib, fn)(*args2)
                for k in exp:
                    if not np.array_equal(exp[k], keep2[k][:len(exp[k])], equal_nan=True): print("  REF NONDETERMINISTIC", cfg["name"], k)
                summ = {k: (float(np.abs(v.astype(np.float64)).mean()) if len(v) else 0) for k, v in exp.items()}
                print(f"  [{cfg['name']}] ref {rt*1e3:.1f} ms, mean|out| {summ}", flush=True)
            dev_in = {}
            for p in params:
                if p["role"] in ("in", "inout"):
                    arr = host[p["name"]][1]
                    dev_in[p["name"]] = arr if perf else torch.from_numpy(arr).cuda()
            results = {}
            for im in impls:
                if im not in libs: continue
                runs = []
                times = []
                for rep in range(2 if not perf else 4):
                    bufs = {}; args = []
                    for p in params:
                        if p["role"] == "size": args.append(CT[base_type(p["type"])](env[p["name"]]))
                        elif p["role"] == "scalar": args.append(scal(p))
                        else:
                            n = host[p["name"]][0]; dt = base_type(p["type"])
                            if p["role"] == "in": b = dev_in[p["name"]]
                            elif p["role"] == "inout": b = dev_in[p["name"]].clone()
                            else:
                                b = torch.empty(max(n, 1), dtype=TT[dt], device="cuda")
                                if dt in (np.float32, np.float64): b.fill_(float("nan"))
                                else: b.view(torch.uint8).fill_(0xA5)
                            bufs[p["name"]] = b; args.append(ctypes.c_void_p(b.data_ptr()))
                    torch.cuda.synchronize()
                    e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
                    e0.record(); getattr(libs[im], fn)(*args, ctypes.c_void_p(stream)); e1.record()
                    torch.cuda.synchronize(); times.append(e0.elapsed_time(e1))
                    err = torch.cuda.synchronize() or None
                    o = {p["name"]: bufs[p["name"]][:host[p["name"]][0]].cpu().numpy() for p in params if p["role"] in ("out", "inout")}
                    runs.append(o)
                    if perf and times[-1] > 2000: break
                msg = f"  [{cfg['name']}] {im:24s} "
                if perf:
                    tm = min(times[1:]) if len(times) > 1 else times[0]
                    cb = ev(t["cost"]["bytes"], env)
                    msg += f"{tm:9.3f} ms  {cb/tm/1e6:8.1f} GB/s(cost)"
                    results[im] = runs[-1]
                else:
                    bad = [(k,) + close(runs[0][k], exp[k], rtol, atol) for k in exp]
                    ok = all(b[1] == 0 for b in bad)
                    msg += "OK" if ok else "FAIL " + str([(k, nb, int(i), runs[0][k][i], exp[k][i]) for k, nb, i in bad if nb])
                if det and len(runs) > 1:
                    for k in runs[0]:
                        if not np.array_equal(runs[0][k], runs[1][k], equal_nan=True): msg += f" NONDET({k})"
                print(msg, flush=True)
            if perf and results:
                refim = [im for im in impls if im != "naive"][0]
                for im, o in results.items():
                    bad = [(k,) + close(o[k], results[refim][k], max(rtol, 1e-5) * 10 if rtol else 0, atol * 10) for k in o]
                    if any(b[1] for b in bad): print(f"  [perf] {im} disagrees with {refim}: {bad}")
                print("  [perf] cross-check done", flush=True)
            del dev_in; torch.cuda.empty_cache()

main()
