"""River LogisticRegression test-then-train for bench/adf-logit-speed.bench.ts.

Usage: python3 logistic_river.py <job.json>. The job names float64 little-endian files written by the
TypeScript bench (its seeded streams): "streams": [{"p", "n", "x", "y"}]. For each stream, River's
default LogisticRegression() predicts each record (predict_proba_one) and then learns it (learn_one);
the feature dicts are built beforehand, outside the timing, and frozen out of the garbage collector.
Timed like the TypeScript side: the best of three passes after an untimed warm-up pass, each from a
fresh model. Prints one JSON object on stdout with records per second of this process's CPU time
("rate") and of wall time ("wallRate") of the best pass, and the prequential log-loss. Exit code 3 with a message on stderr when river is missing.
"""
import gc
import json
import math
import sys
import time
from array import array

try:
    import river
    from river import linear_model
except ImportError as error:  # the bench prints the message and skips this part
    print(f"missing Python package: {error.name}", file=sys.stderr)
    sys.exit(3)


def read(path):
    values = array("d")
    with open(path, "rb") as handle:
        values.frombytes(handle.read())
    if sys.byteorder != "little":
        values.byteswap()
    return values


PASSES = 3


def test_then_train(rows, labels):
    """One pass from a fresh model: (CPU seconds, wall seconds, prequential log-loss)."""
    model = linear_model.LogisticRegression()
    loss = 0.0
    wall = time.perf_counter()
    cpu = time.process_time()
    for r in range(len(rows)):
        prob = model.predict_proba_one(rows[r]).get(True, 0.0)
        loss -= math.log(min(max(prob if labels[r] else 1.0 - prob, 1e-15), 1.0))
        model.learn_one(rows[r], labels[r])
    return time.process_time() - cpu, time.perf_counter() - wall, loss / len(rows)


def river_rate(stream):
    p, n = stream["p"], stream["n"]
    x, y = read(stream["x"]), read(stream["y"])
    rows = [{j: x[r * p + j] for j in range(p)} for r in range(n)]
    labels = [v == 1.0 for v in y]
    gc.collect()
    gc.freeze()
    test_then_train(rows, labels)
    passes = [test_then_train(rows, labels) for _ in range(PASSES)]
    cpu = min(cpu for cpu, _, _ in passes)
    wall = min(wall for _, wall, _ in passes)
    return {"p": p, "records": n, "rate": n / cpu, "wallRate": n / wall, "logLoss": passes[0][2]}


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        job = json.load(handle)
    print(json.dumps({"version": river.__version__, "river": [river_rate(stream) for stream in job["streams"]]}))


if __name__ == "__main__":
    main()
