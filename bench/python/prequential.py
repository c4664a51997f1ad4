"""Test-then-train of River LogisticRegression and Vowpal Wabbit on the stream written by
bench/prequential.bench.ts: x.f64 (n*d float64, row-major), y.f64 (n float64 0/1), meta.json.

For each learner, writes p(y = 1) made before each record was learnt to <dir>/<learner>.f64 and
prints one JSON line {"learner", "file", "recordsPerSecond", "riverLogLoss"}; the TS bench computes
every metric from those files. A missing package prints {"skip": reason} instead (never fails).
Timing covers the predict/learn loop only; feature dicts and VW lines are built beforehand.
"""
import json
import sys
import time
from array import array
from pathlib import Path


def read_stream(folder):
    meta = json.loads((folder / "meta.json").read_text())
    n, d = meta["n"], meta["d"]
    x = array("d")
    x.frombytes((folder / "x.f64").read_bytes())
    y = array("d")
    y.frombytes((folder / "y.f64").read_bytes())
    if sys.byteorder != "little":
        x.byteswap()
        y.byteswap()
    return n, d, x, y


def write_probs(folder, name, probs):
    path = folder / f"{name}.f64"
    out = array("d", probs)
    if sys.byteorder != "little":
        out.byteswap()
    path.write_bytes(out.tobytes())
    return str(path)


def river_log_loss(probs, y):
    """River's own LogLoss metric over the stream, a cross-check of the TS definition (None without River)."""
    try:
        from river import metrics
    except ImportError:
        return None

    metric = metrics.LogLoss()
    for p, label in zip(probs, y):
        metric.update(label == 1.0, {False: 1.0 - p, True: p})
    return metric.get()


def report(folder, name, probs, elapsed, y, settings):
    print(json.dumps({
        "learner": name,
        "settings": settings,
        "file": write_probs(folder, name, probs),
        "recordsPerSecond": len(probs) / elapsed,
        "riverLogLoss": river_log_loss(probs, y),
    }), flush=True)


def run_river(folder, n, d, x, y):
    from river import linear_model, optim, preprocessing

    rows = [{f"x{j}": x[r * d + j] for j in range(d)} for r in range(n)]
    labels = [v == 1.0 for v in y]
    variants = [
        ("river-lr", "LogisticRegression() (SGD(0.01))", lambda: linear_model.LogisticRegression()),
        ("river-lr-sgd0.1", "LogisticRegression(optimizer=SGD(0.1))", lambda: linear_model.LogisticRegression(optimizer=optim.SGD(0.1))),
        ("river-scaled-lr", "StandardScaler() | LogisticRegression()", lambda: preprocessing.StandardScaler() | linear_model.LogisticRegression()),
    ]
    for name, settings, make in variants:
        model = make()
        probs = [0.0] * n
        start = time.perf_counter()
        for r in range(n):
            probs[r] = model.predict_proba_one(rows[r]).get(True, 0.0)
            model.learn_one(rows[r], labels[r])
        report(folder, name, probs, time.perf_counter() - start, y, settings)


def run_vw(folder, n, d, x, y):
    from vowpalwabbit import Workspace

    settings = "--loss_function logistic --link logistic --quiet"
    features = [" ".join(f"x{j}:{x[r * d + j]:.17g}" for j in range(d)) for r in range(n)]
    unlabelled = [f"| {f}" for f in features]
    labelled = [f"{1 if y[r] == 1.0 else -1} | {features[r]}" for r in range(n)]
    vw = Workspace(settings)
    probs = [0.0] * n
    start = time.perf_counter()
    for r in range(n):
        probs[r] = vw.predict(unlabelled[r])
        vw.learn(labelled[r])
    elapsed = time.perf_counter() - start
    vw.finish()
    report(folder, "vowpal-wabbit", probs, elapsed, y, settings)


def main():
    folder = Path(sys.argv[1])
    n, d, x, y = read_stream(folder)
    for package, run in (("river", run_river), ("vowpalwabbit", run_vw)):
        try:
            __import__(package)
        except ImportError:
            print(json.dumps({"skip": f"{package} is not installed (pip install {package}); its learners are skipped"}), flush=True)
            continue
        run(folder, n, d, x, y)


if __name__ == "__main__":
    main()
