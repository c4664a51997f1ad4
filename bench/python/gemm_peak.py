"""Single-thread float64 GEMM of numpy's BLAS: the machine's practical peak for the roofline bench.

Prints one JSON line {"blas": name, "sizes": [{"n": n, "gflops": g}, ...]} or {"skip": reason}.
Run with OPENBLAS_NUM_THREADS / MKL_NUM_THREADS / OMP_NUM_THREADS = 1 (bench/roofline.bench.ts sets them).
"""
import json
import time

try:
    import numpy as np
except ImportError as error:
    print(json.dumps({"skip": f"numpy missing ({error})"}))
    raise SystemExit(0)

rng = np.random.default_rng(7)
sizes = []
for n in (100, 200, 400, 800):
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, n))
    a @ b
    calls = 0
    start = time.process_time()
    while time.process_time() - start < 0.5:
        a @ b
        calls += 1
    seconds = (time.process_time() - start) / calls
    sizes.append({"n": n, "gflops": 2 * n ** 3 / seconds / 1e9})
config = np.show_config(mode="dicts") if "mode" in np.show_config.__code__.co_varnames else {}
blas = config.get("Build Dependencies", {}).get("blas", {}).get("name", "unknown")
print(json.dumps({"blas": f"numpy {np.__version__} ({blas})", "sizes": sizes}))
