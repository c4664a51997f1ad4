"""River BayesianLinearRegression test-then-train and scikit-learn ARDRegression pruning, for bench/vb-linear.bench.ts.

Usage: python3 vb_linear_river.py <job.json> (run with OPENBLAS_NUM_THREADS=1 etc., so numpy uses one core).
Rates are records per second of this process's CPU time ("rate") and of wall time ("wallRate"). The job names float64 little-endian files written by the
TypeScript bench (the same synthetic streams it runs): "streams": [{"p", "n", "prefix", "x", "y"}] and
"ard": [{"label", "n", "d", "x", "y", "relevant"}]. Prints one JSON object on stdout. Exit code 3 with
a message on stderr when river or scikit-learn is missing.
"""
import json
import sys
import time

try:
    import numpy as np
    from river import linear_model
    from sklearn.linear_model import ARDRegression
    import river
    import sklearn
except ImportError as error:  # the bench prints the message and skips this part
    print(f"missing Python package: {error.name}", file=sys.stderr)
    sys.exit(3)


def river_rate(stream):
    p, n, prefix = stream["p"], stream["n"], stream["prefix"]
    x = np.fromfile(stream["x"], dtype="<f8").reshape(n, p)
    y = np.fromfile(stream["y"], dtype="<f8")
    rows = [{j: float(v) for j, v in enumerate(row)} for row in x]
    targets = [float(v) for v in y]
    model = linear_model.BayesianLinearRegression()
    for r in range(prefix):
        model.learn_one(rows[r], targets[r])
    wall = time.perf_counter()
    cpu = time.process_time()
    for r in range(prefix, n):
        model.predict_one(rows[r])
        model.learn_one(rows[r], targets[r])
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {"p": p, "records": n - prefix, "rate": (n - prefix) / cpu, "wallRate": (n - prefix) / wall}


def ard_pruned(case):
    n, d = case["n"], case["d"]
    x = np.fromfile(case["x"], dtype="<f8").reshape(n, d)
    y = np.fromfile(case["y"], dtype="<f8")
    model = ARDRegression(threshold_lambda=1e4).fit(x, y)
    relevant = case["relevant"]
    coef = model.coef_
    return {
        "label": case["label"],
        "irrelevantZero": int(np.sum(coef[relevant:] == 0)),
        "relevantKept": int(np.sum(coef[:relevant] != 0)),
    }


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        job = json.load(handle)
    result = {
        "versions": {"river": river.__version__, "sklearn": sklearn.__version__},
        "river": [river_rate(stream) for stream in job["streams"]],
        "ard": [ard_pruned(case) for case in job["ard"]],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
