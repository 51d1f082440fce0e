"""Make the slices example: the shipped breast-cancer predictions with two slice columns.

The predictions are those of `examples/make_breast_cancer.py` (a standardised logistic
regression, 10-fold stratified cross-validation on the UCI Wisconsin data). Two columns
of the data itself are added to slice by: `size`, the tumour's mean radius in thirds
(small, medium, large), and `texture`, its mean texture below or above the median (low,
high). The data has no dates: `seen` is an illustrative timestamp, made up to show time
windows (case i seen i/569 of the way through the twelve weeks from Monday 2024-01-08,
in whole hours), so no drift is built in. No value is missing here (a blank cell would
be the slice "missing"); docs/slices.md shows the "missing" slice on a frame.

    python examples/make_slices.py > src/informed/data/breast_cancer_slices.csv
"""

from __future__ import annotations

import csv
import sys

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def main() -> None:
    data = load_breast_cancer()
    malignant = data.target == 0
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000))
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    score = cross_val_predict(model, data.data, malignant, cv=folds, method="predict_proba")[:, 1]
    radius = data.data[:, list(data.feature_names).index("mean radius")]
    texture = data.data[:, list(data.feature_names).index("mean texture")]
    cuts = np.quantile(radius, [1 / 3, 2 / 3])
    size = np.array(["small", "medium", "large"])[np.searchsorted(cuts, radius, side="right")]
    rough = np.where(texture > np.median(texture), "high", "low")
    writer = csv.writer(sys.stdout, lineterminator="\n")
    start = np.datetime64("2024-01-08T00:00")
    hours = (np.arange(malignant.size) * 12 * 7 * 24) // malignant.size
    seen = np.datetime_as_string(start + hours.astype("timedelta64[h]"), unit="m")
    writer.writerow(["case", "actual", "predicted", "score", "size", "texture", "seen"])
    for i, (truth, p) in enumerate(zip(malignant, score, strict=True)):
        label = "malignant" if truth else "benign"
        guess = "malignant" if p > 0.5 else "benign"
        writer.writerow([i, label, guess, f"{p:.6f}", size[i], rough[i], seen[i]])


if __name__ == "__main__":
    main()
