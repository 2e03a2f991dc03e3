"""Reference values for ClusteredSpreadTest: the cluster-robust standard error of a mean, computed the way statsmodels does
(OLS(y, ones).fit(cov_type='cluster', cov_kwds={'groups': g}, use_correction=True)), in plain numpy matrix algebra
since statsmodels cannot be installed here. Run once: python3 cluster_reference.py > cluster_reference.json

For a regression on X (n x k): beta = (X'X)^-1 X'y, e = y - X beta, bread = (X'X)^-1,
meat = sum_g (X_g' e_g)(X_g' e_g)', cov = c * bread meat bread with c = G/(G-1) * (n-1)/(n-k).
"""
import json

import numpy as np


def cluster_se(y, groups):
    y = np.asarray(y, dtype=float)
    n = len(y)
    X = np.ones((n, 1))
    bread = np.linalg.inv(X.T @ X)
    beta = bread @ X.T @ y
    e = y - X @ beta
    labels = sorted(set(groups))
    meat = np.zeros((1, 1))
    for label in labels:
        rows = np.array([g == label for g in groups])
        score = X[rows].T @ e[rows]
        meat += np.outer(score, score)
    G, k = len(labels), X.shape[1]
    c = G / (G - 1) * (n - 1) / (n - k)
    cov = c * bread @ meat @ bread
    return float(beta[0]), float(np.sqrt(cov[0, 0]))


# Clusters are visited in sorted order: iterating a set of strings follows PYTHONHASHSEED, and the file must come out
# the same on every run.
rng = np.random.default_rng(33)
datasets = []
for size, clusters, kind in [(12, 4, "binary"), (50, 7, "score"), (200, 23, "binary"), (31, 31, "score"), (40, 2, "score")]:
    groups = ["s%d" % rng.integers(clusters) for _ in range(size)]
    effect = {g: rng.normal(0, 0.3) for g in sorted(set(groups))}
    if kind == "binary":
        values = [float(rng.random() < min(1, max(0, 0.6 + effect[g]))) for g in groups]
    else:
        values = [float(np.clip(0.5 + effect[g] + rng.normal(0, 0.2), 0, 1)) for g in groups]
    mean, se = cluster_se(values, groups)
    datasets.append({"values": values, "clusters": groups, "mean": mean, "stderr": se})
# Paired comparisons (runs compare A B): two runs' scores of the same cases, the cases in clusters; the reference is
# the same regression on the paired differences b - a. Drawn after the sets above, so those stay as they were.
for size, clusters in [(30, 6), (120, 15), (64, 64)]:
    groups = ["s%d" % rng.integers(clusters) for _ in range(size)]
    effect = {g: rng.normal(0, 0.25) for g in sorted(set(groups))}
    a = [float(rng.random() < min(1, max(0, 0.55 + effect[g]))) for g in groups]
    b = [float(np.clip(0.6 + effect[g] + rng.normal(0, 0.25), 0, 1)) for g in groups]
    mean, se = cluster_se([y - x for x, y in zip(a, b)], groups)
    datasets.append({"a": a, "b": b, "clusters": groups, "mean": mean, "stderr": se})
print(json.dumps(datasets, indent=1))
