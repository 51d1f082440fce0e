"""Make the example shipped with `informed`: cross-validated predictions on real data.

The UCI Wisconsin breast-cancer data (569 tumours, 212 malignant) ships with
scikit-learn. A standardised logistic regression is scored by 10-fold stratified
cross-validation, so every prediction is made by a model that never saw that case.
scikit-learn is needed only to run this script, never by `informed` itself.

    python examples/make_breast_cancer.py > src/informed/data/breast_cancer_cv.csv
"""

from __future__ import annotations

import csv
import sys

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def main() -> None:
    data = load_breast_cancer()
    # scikit-learn codes malignant as 0; the positive class here is malignant
    malignant = data.target == 0
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000))
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    score = cross_val_predict(model, data.data, malignant, cv=folds, method="predict_proba")[:, 1]
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["case", "actual", "predicted", "score"])
    for i, (truth, p) in enumerate(zip(malignant, score, strict=True)):
        label = "malignant" if truth else "benign"
        guess = "malignant" if p > 0.5 else "benign"
        writer.writerow([i, label, guess, f"{p:.6f}"])


if __name__ == "__main__":
    main()
