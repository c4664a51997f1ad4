"""Vowpal Wabbit's contextual bandit on the simulated bandits written by bench/thompson-speed.bench.ts.

<dir>/meta.json lists the runs {"name", "arms", "dim", "steps", "seed"}; for each, <name>.x.f64 holds
the contexts (steps*dim float64, row-major) and <name>.rewards.f64 every arm's reward at each step
(steps*arms float64). VW plays each run online with action-dependent features (`--cb_explore_adf`):
one shared line `shared |s x0:v0 ... x{d-1}:v{d-1}` and K action lines `|a a{k}`, crossed by `-q sa`,
so every arm has its own linear model of the context (the disjoint arms of vbstream's policies); the
cost of the played arm is minus its reward. Two explorations: VW's default (epsilon-greedy, epsilon
0.05) and `--squarecb`. Each step takes VW's fastest input path we found: parse the step's lines once,
predict (the PMF over the K actions), sample an arm from it, set the label `0:cost:p` on the played
action's parsed example and learn that same example (the PMFs are those of building the labelled text
and parsing it again, which runs 1.5x slower).

Timing (time.process_time, this process's CPU time) covers the predict/sample/learn loop only; the
text of every step is built beforehand (as bench/python/prequential.py does). What a VW user must do
in the loop anyway (sampling from the PMF, formatting the played action's label) is timed alone over
the same steps with the same PMFs, and subtracted: "vwCpuSeconds" is VW's own share (the figure the
TS bench compares against, the one most favourable to VW), "cpuSeconds" the whole loop.
Writes the arms played to <dir>/<learner>.<name>.arms.f64 and prints one JSON line per run
{"learner", "run", "file", "cpuSeconds", "vwCpuSeconds", "settings"}. A missing package prints
{"skip": reason} instead (never fails).
"""
import json
import random
import sys
import time
from pathlib import Path

from float64_file import read, write


def sample(pmf, u):
    """The index whose cumulative PMF first exceeds u (the last one if rounding leaves u above the sum)."""
    total = 0.0
    for index, p in enumerate(pmf):
        total += p
        if u < total:
            return index
    return len(pmf) - 1


def play(vw, examples, rewards, k, seed):
    """Plays the bandit online; returns the arms played, the PMF of each step and the loop's CPU seconds."""
    steps = len(examples)
    arms = [0] * steps
    pmfs = [None] * steps
    rng = random.Random(seed)
    start = time.process_time()
    for t in range(steps):
        parsed = vw.parse(examples[t])
        pmf = vw.predict(parsed)
        arm = sample(pmf, rng.random())
        parsed[1 + arm].set_label_string(f"0:{-rewards[t * k + arm]!r}:{pmf[arm]!r}")
        vw.learn(parsed)
        vw.finish_example(parsed)
        arms[t] = arm
        pmfs[t] = pmf
    return arms, pmfs, time.process_time() - start


def python_side(rewards, k, seed, pmfs):
    """CPU seconds of the loop's Python work alone (sampling, the label's text), replayed over the PMFs VW gave."""
    rng = random.Random(seed)
    labels = [""] * len(pmfs)
    start = time.process_time()
    for t, pmf in enumerate(pmfs):
        arm = sample(pmf, rng.random())
        labels[t] = f"0:{-rewards[t * k + arm]!r}:{pmf[arm]!r}"
    return time.process_time() - start


def main(folder):
    try:
        from vowpalwabbit import Workspace
    except ImportError as error:
        print(json.dumps({"skip": f"Vowpal Wabbit skipped ({error}); pip install vowpalwabbit"}), flush=True)
        return
    meta = json.loads((folder / "meta.json").read_text())
    learners = {
        "VW cb_explore_adf (epsilon 0.05)": "--cb_explore_adf -q sa --quiet",
        "VW cb_explore_adf --squarecb": "--cb_explore_adf --squarecb -q sa --quiet",
    }
    for run in meta["runs"]:
        k, d, steps = run["arms"], run["dim"], run["steps"]
        x = read(folder / f"{run['name']}.x.f64")
        rewards = read(folder / f"{run['name']}.rewards.f64")
        actions = [f"|a a{a}" for a in range(k)]
        examples = [
            ["shared |s " + " ".join(f"x{j}:{x[t * d + j]!r}" for j in range(d))] + actions
            for t in range(steps)
        ]
        for learner, settings in learners.items():
            vw = Workspace(f"{settings} --random_seed {run['seed']}")
            arms, pmfs, cpu = play(vw, examples, rewards, k, run["seed"])
            vw.finish()
            side = python_side(rewards, k, run["seed"], pmfs)
            out = folder / f"{learner.replace(' ', '-').replace('/', '')}.{run['name']}.arms.f64"
            write(out, arms)
            print(json.dumps({"learner": learner, "run": run["name"], "file": str(out), "cpuSeconds": cpu, "vwCpuSeconds": cpu - side, "settings": settings}), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
