"""GPyTorch's SVGP minibatch step on the data of bench/sparse-gp.bench.ts's step timing.

argv: <dir> <repeats>. <dir>/x.f64 holds B*d float64 inputs (row-major), <dir>/y.f64 B targets, <dir>/meta.json
{"B", "d", "M", "dataSize", "z": M*d inducing inputs}. The model is the one the TS bench times as "ELBO, whitened,
everything learned": a whitened variational GP (full-covariance q(u) by its Cholesky factor, inducing inputs learned),
a scaled RBF-ARD kernel, a Gaussian likelihood, the ELBO scaled to dataSize, Adam. One step = zero_grad, ELBO,
backward, Adam step. Prints one JSON line per dtype {"dtype", "cpuMs": median CPU ms per step (one thread)} or
{"skip": reason} when torch or gpytorch is missing.
"""
import json
import sys
import time
from pathlib import Path


def main(folder, repeats):
    try:
        import numpy as np
        import torch
        import gpytorch
    except ImportError as error:
        print(json.dumps({"skip": f"GPyTorch part skipped ({error}); pip install torch gpytorch"}), flush=True)
        return
    torch.set_num_threads(1)
    meta = json.loads((folder / "meta.json").read_text())
    B, d, M = meta["B"], meta["d"], meta["M"]
    x64 = torch.from_numpy(np.fromfile(folder / "x.f64", dtype="<f8").reshape(B, d).copy())
    y64 = torch.from_numpy(np.fromfile(folder / "y.f64", dtype="<f8").copy())
    z64 = torch.tensor(meta["z"], dtype=torch.float64).reshape(M, d)

    for dtype in (torch.float64, torch.float32):
        x, y, z = x64.to(dtype), y64.to(dtype), z64.to(dtype)

        class Svgp(gpytorch.models.ApproximateGP):
            def __init__(self):
                distribution = gpytorch.variational.CholeskyVariationalDistribution(M)
                strategy = gpytorch.variational.VariationalStrategy(self, z.clone(), distribution, learn_inducing_locations=True)
                super().__init__(strategy)
                self.mean_module = gpytorch.means.ZeroMean()
                self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel(ard_num_dims=d))

            def forward(self, inputs):
                return gpytorch.distributions.MultivariateNormal(self.mean_module(inputs), self.covar_module(inputs))

        model = Svgp().to(dtype)
        likelihood = gpytorch.likelihoods.GaussianLikelihood().to(dtype)
        model.train()
        likelihood.train()
        optimizer = torch.optim.Adam([*model.parameters(), *likelihood.parameters()], lr=0.01)
        elbo = gpytorch.mlls.VariationalELBO(likelihood, model, num_data=meta["dataSize"])

        def step():
            optimizer.zero_grad()
            loss = -elbo(model(x), y)
            loss.backward()
            optimizer.step()

        for _ in range(3):
            step()
        times = []
        for _ in range(repeats):
            start = time.process_time()
            step()
            times.append((time.process_time() - start) * 1000)
        times.sort()
        name = "float64" if dtype == torch.float64 else "float32"
        print(json.dumps({"dtype": name, "cpuMs": times[len(times) // 2], "versions": {"torch": torch.__version__, "gpytorch": gpytorch.__version__}}), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
