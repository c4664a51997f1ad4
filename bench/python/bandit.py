"""MABWiser LinTS and LinUCB on the simulated bandits written by bench/bandit.bench.ts.

<dir>/meta.json lists the runs {"name", "arms", "dim", "steps", "seed"}; for each, <name>.x.f64 holds
the contexts (steps*dim float64, row-major) and <name>.rewards.f64 every arm's reward at each step
(steps*arms float64: the environment draws them whatever is played). For each learner and run this
plays the bandit online (predict, then partial_fit the reward of the arm played), writes the arms
played to <dir>/<learner>.<name>.arms.f64 and prints one JSON line {"learner", "run", "file",
"decisionsPerSecond"}; the TS bench computes the regret. MABWiser needs a fit before its first predict,
so each learner plays the K arms once in turn and is fit on those K rewards first (counted in its
regret and its time). A missing package prints {"skip": reason} instead (never fails).
"""
import json
import sys
import time
from pathlib import Path

from float64_file import read, write


def main(folder):
    try:
        import numpy as np
        from mabwiser.mab import MAB, LearningPolicy
    except ImportError as error:
        print(json.dumps({"skip": f"MABWiser skipped ({error}); pip install mabwiser"}), flush=True)
        return
    meta = json.loads((folder / "meta.json").read_text())
    learners = {
        "MABWiser LinTS": LearningPolicy.LinTS(alpha=1.0, l2_lambda=1.0),
        "MABWiser LinUCB": LearningPolicy.LinUCB(alpha=1.0, l2_lambda=1.0),
    }
    for run in meta["runs"]:
        k, d, steps = run["arms"], run["dim"], run["steps"]
        x = np.frombuffer(read(folder / f"{run['name']}.x.f64"), dtype=np.float64).reshape(steps, d)
        rewards = np.frombuffer(read(folder / f"{run['name']}.rewards.f64"), dtype=np.float64).reshape(steps, k)
        for learner, policy in learners.items():
            arms = np.zeros(steps)
            start = time.perf_counter()
            mab = MAB(arms=list(range(k)), learning_policy=policy, seed=run["seed"])
            first = list(range(k))
            mab.fit(decisions=first, rewards=[rewards[t, first[t]] for t in range(k)], contexts=x[:k])
            arms[:k] = first
            for t in range(k, steps):
                context = x[t : t + 1]
                arm = int(mab.predict(context))
                arms[t] = arm
                mab.partial_fit(decisions=[arm], rewards=[rewards[t, arm]], contexts=context)
            elapsed = time.perf_counter() - start
            out = folder / f"{learner.replace(' ', '-')}.{run['name']}.arms.f64"
            write(out, arms.tolist())
            print(json.dumps({"learner": learner, "run": run["name"], "file": str(out), "decisionsPerSecond": steps / elapsed}), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
