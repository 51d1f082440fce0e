"""Make the three-model example of `informed compare`: cross-validated predictions of three
classifiers on the same cases.

The UCI Wisconsin breast-cancer data (569 tumours, 212 malignant) ships with
scikit-learn. Three classifiers are scored by the same 10-fold stratified
cross-validation, so every prediction is made by a model that never saw that case and
every case is predicted by all three:

* ``logistic``: a standardised logistic regression;
* ``bayes``: Gaussian naive Bayes;
* ``tree``: a decision tree of depth 2 (its scores are the malignant share of its four
  leaves, so they are heavily tied).

Each model gives a predicted label (malignant when its probability exceeds 1/2) and a
score (that probability). scikit-learn is needed only to run this script.

    python examples/make_three_models.py > examples/three_models.csv
    informed compare examples/three_models.csv --actual actual \\
        --predicted logistic bayes tree --score logistic_score bayes_score tree_score \\
        --positive malignant --html three_models.html
"""

from __future__ import annotations

import csv
import sys

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

MODELS = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000)),
    "bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
}


def main() -> None:
    data = load_breast_cancer()
    # scikit-learn codes malignant as 0; the positive class here is malignant
    malignant = data.target == 0
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    scores = {
        name: cross_val_predict(model, data.data, malignant, cv=folds, method="predict_proba")[:, 1]
        for name, model in MODELS.items()
    }
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["case", "actual", *MODELS, *(f"{name}_score" for name in MODELS)])
    for i, truth in enumerate(malignant):
        labels = ["malignant" if scores[name][i] > 0.5 else "benign" for name in MODELS]
        values = [f"{scores[name][i]:.6f}" for name in MODELS]
        writer.writerow([i, "malignant" if truth else "benign", *labels, *values])


if __name__ == "__main__":
    main()
