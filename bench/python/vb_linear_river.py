"""River BayesianLinearRegression test-then-train and minibatch learning, and scikit-learn ARDRegression pruning, for bench/vb-linear.bench.ts.

Usage: python3 vb_linear_river.py <job.json> (run with OPENBLAS_NUM_THREADS=1 etc., so numpy uses one core).
Rates are records per second of this process's CPU time ("rate") and of wall time ("wallRate"), the best of
two timed passes ("learnPasses" of the job when learning alone) after an untimed warm-up pass, each from a
fresh model (as the TypeScript side measures its own). The job names float64 little-endian files written by the
TypeScript bench (the same synthetic streams it runs): "streams": [{"p", "n", "prefix", "x", "y"}] and
"ard": [{"label", "n", "d", "x", "y", "relevant"}]; with "batches": [sizes], each stream is also learnt
by learn_many in minibatches of each size after the same first 2p records (pandas frames built
beforehand; skipped with a note without pandas) and by learn_one alone (no predictions). Prints one
JSON object on stdout. Exit code 3 with a message on stderr when river or scikit-learn is missing.
"""
import gc
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


def load(stream):
    """The stream's arrays, and its rows as feature dicts and targets as floats."""
    p, n = stream["p"], stream["n"]
    x = np.fromfile(stream["x"], dtype="<f8").reshape(n, p)
    y = np.fromfile(stream["y"], dtype="<f8")
    rows = [{j: float(v) for j, v in enumerate(row)} for row in x]
    targets = [float(v) for v in y]
    # The bench's own rows (20,000 dicts) out of the collector's way: kept tracked, every full collection during
    # learn_many walks them (measured: learn_many at p = 100 in batches of 1,000 about 1.3x slower).
    gc.collect()
    gc.freeze()
    return x, y, rows, targets


def started(rows, targets, prefix):
    """A BayesianLinearRegression that has learnt the first `prefix` records."""
    model = linear_model.BayesianLinearRegression()
    for r in range(prefix):
        model.learn_one(rows[r], targets[r])
    return model


# Timed passes after the warm-up pass (the TypeScript side's `passes`; the job's "learnPasses" for learning alone).
PASSES = 2


def best_rate(records, timed_pass, passes=PASSES):
    """Records per CPU-second (and per wall-second) of the best of `passes` calls of timed_pass() after an untimed warm-up call; timed_pass returns its (CPU, wall) seconds."""
    timed_pass()
    best_cpu = best_wall = float("inf")
    for _ in range(passes):
        cpu, wall = timed_pass()
        best_cpu = min(best_cpu, cpu)
        best_wall = min(best_wall, wall)
    return records / best_cpu, records / best_wall


def record_pass(rows, targets, prefix, n, predict):
    """(CPU, wall) seconds of one pass of learn_one over records prefix…n−1, each first predicted when `predict`, from a fresh model that has learnt the first `prefix`."""
    model = started(rows, targets, prefix)
    wall = time.perf_counter()
    cpu = time.process_time()
    for r in range(prefix, n):
        if predict:
            model.predict_one(rows[r])
        model.learn_one(rows[r], targets[r])
    return time.process_time() - cpu, time.perf_counter() - wall


def river_rate(stream):
    p, n, prefix = stream["p"], stream["n"], stream["prefix"]
    _, _, rows, targets = load(stream)
    rate, wall_rate = best_rate(n - prefix, lambda: record_pass(rows, targets, prefix, n, True))
    return {"p": p, "records": n - prefix, "rate": rate, "wallRate": wall_rate}


def river_learn_rates(stream, sizes, passes):
    """Records per CPU-second of learning the stream after its first 2p records: learn_one per record, and learn_many per minibatch size."""
    p, n, prefix = stream["p"], stream["n"], stream["prefix"]
    x, y, rows, targets = load(stream)
    result = {"p": p, "learnOne": best_rate(n - prefix, lambda: record_pass(rows, targets, prefix, n, False), passes)[0], "learnMany": {}}
    try:
        import pandas as pd
    except ImportError:
        result["note"] = "pandas is not installed: learn_many skipped"
        return result
    columns = list(range(p))
    for size in sizes:
        frames = [(pd.DataFrame(x[start:start + size], columns=columns), pd.Series(y[start:start + size])) for start in range(prefix, n, size)]

        def learn_many_pass():
            model = started(rows, targets, prefix)
            wall = time.perf_counter()
            cpu = time.process_time()
            for frame, target in frames:
                model.learn_many(frame, target)
            return time.process_time() - cpu, time.perf_counter() - wall

        result["learnMany"][str(size)] = best_rate(n - prefix, learn_many_pass, passes)[0]
    return result


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
        "learn": [river_learn_rates(stream, job.get("batches", []), job.get("learnPasses", PASSES)) for stream in job["streams"]],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
