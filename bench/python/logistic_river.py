"""River LogisticRegression test-then-train for bench/adf-logit-speed.bench.ts.

Usage: python3 logistic_river.py <job.json>. The job names float64 little-endian files written by the
TypeScript bench (its seeded streams): "streams": [{"p", "n", "x", "y"}]. For each stream, River's
default LogisticRegression() predicts each record (predict_proba_one) and then learns it (learn_one);
the feature dicts are built beforehand, outside the timing. Prints one JSON object on stdout with
records per second of this process's CPU time ("rate") and of wall time ("wallRate"), and the
prequential log-loss. Exit code 3 with a message on stderr when river is missing.
"""
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


def river_rate(stream):
    p, n = stream["p"], stream["n"]
    x, y = read(stream["x"]), read(stream["y"])
    rows = [{j: x[r * p + j] for j in range(p)} for r in range(n)]
    labels = [v == 1.0 for v in y]
    model = linear_model.LogisticRegression()
    loss = 0.0
    wall = time.perf_counter()
    cpu = time.process_time()
    for r in range(n):
        prob = model.predict_proba_one(rows[r]).get(True, 0.0)
        loss -= math.log(min(max(prob if labels[r] else 1.0 - prob, 1e-15), 1.0))
        model.learn_one(rows[r], labels[r])
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {"p": p, "records": n, "rate": n / cpu, "wallRate": n / wall, "logLoss": loss / n}


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        job = json.load(handle)
    print(json.dumps({"version": river.__version__, "river": [river_rate(stream) for stream in job["streams"]]}))


if __name__ == "__main__":
    main()
