"""The gallery: every plot informed draws, each made by the call shown beside it.

`DATA` builds the summaries once; each `Plot` is one call on them whose value is the plot:
a matplotlib Axes (each of `informed.plots`' functions, the comparison's two plots and
the slice search's forest, the very functions the HTML report draws with), rendered
here to SVG. The documentation build (`make docs`) runs `DATA`, then every call in
order, in one namespace, from the root of the repository, and writes docs/gallery.md's
figures; tests/test_docs_site.py checks that every plot function of `informed.plots`,
`informed.comparison` and `informed.disparity` has its entry. To add a plot, add a
`Plot` (and any data it needs to `DATA`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plot:
    """One figure of the gallery: its title, what it shows, and the call that draws it."""

    title: str
    about: str
    call: str


DATA = """\
from importlib.resources import files

import numpy as np

from informed import Tally, compare, evaluate, find_slices
from informed.comparison import (
    compare_folds, plot_differences, plot_fold_differences, plot_models_roc,
    plot_net_benefit_difference)
from informed.disparity import plot_found_slices
from informed.inference import bootstrap_slices
from informed.io import read_columns, read_summaries
from informed.plots import (
    plot_contingency, plot_decision_curve, plot_hit_rate, plot_lift, plot_per_label,
    plot_qrecall, plot_reliability, plot_roc, plot_slices, plot_slices_over_time, plot_tally)
from informed.slices import Slices
from informed.slices.windows import window_keys

# the data of `informed demo`: 569 tumours of the UCI breast-cancer data, each
# scored by a logistic regression in 10-fold cross-validation
# (examples/make_breast_cancer.py)
data = files("informed") / "data"
found = read_summaries(str(data / "breast_cancer_cv.csv"), actual="actual",
                       predicted="predicted", scores="score", positive="malignant")
ranking, table = found.ranking, found.table
evaluation = evaluate(table, positive="malignant")

# five classes, simulated: each label is right 60 % of the time, a guess otherwise
rng = np.random.default_rng(0)
classes = np.array(["cat", "dog", "eel", "fox", "owl"])
actual = rng.choice(classes, 600, p=[0.35, 0.25, 0.2, 0.15, 0.05])
guess = rng.choice(classes, 600)
five = evaluate(actual, np.where(rng.random(600) < 0.6, actual, guess))

# three models on the same tumours (examples/make_three_models.py)
models = ["logistic", "bayes", "tree"]
rows = read_columns("examples/three_models.csv", labels=["actual", *models],
                    numbers=[f"{m}_score" for m in models])
comparison = compare(rows.labels["actual"], {m: rows.labels[m] for m in models},
                     scores={m: rows.numbers[f"{m}_score"] for m in models},
                     positive="malignant", seed=0)

# slices: the tumours by size (breast_cancer_slices.csv)
sliced = read_summaries(str(data / "breast_cancer_slices.csv"), by="size",
                        actual="actual", predicted="predicted", positive="malignant")
by_size = bootstrap_slices(sliced, ["informedness"], positive="malignant", seed=0)
overall = evaluation.measures["informedness"]

# and by week, the tree's predictions: the weeks are simulated (the data has no
# dates), the cases spread over twelve weeks of 2024
actual, tree = rows.labels["actual"], rows.labels["tree"]
days = np.datetime64("2024-01-01") + np.sort(rng.integers(0, 84, len(actual)))
weekly = Slices.from_labels(by=window_keys(days, "1w"), names=["week"],
                            actual=actual, predicted=tree, positive="malignant")
by_week = bootstrap_slices(weekly, ["informedness"], positive="malignant", seed=0)
tree_overall = evaluate(actual, tree, positive="malignant").measures["informedness"]

# a multi-label tally: 400 documents, four topics, each assigned by a noisy tagger
topics = ["sport", "politics", "weather", "science"]
tally = Tally(categories=topics)
for _ in range(400):
    correct = [t for t in topics if rng.random() < 0.3] or [topics[0]]
    assigned = [t for t in topics if (t in correct) == (rng.random() < 0.8)]
    tally.add_result(assigned=assigned, correct=correct)

# a slice search, simulated (docs/slice_search.md): 20,000 rows, the model worse on
# phones in the east (TPR 0.55, FPR 0.35 against 0.9, 0.1)
n = 20_000
columns = {"region": rng.choice(["north", "south", "east"], n),
           "device": rng.choice(["phone", "tablet", "desktop"], n),
           "plan": rng.choice(["basic", "pro"], n)}
truth = rng.integers(0, 2, n)
east_phone = (columns["region"] == "east") & (columns["device"] == "phone")
said = rng.random(n) < np.where(truth == 1, np.where(east_phone, 0.55, 0.9),
                                np.where(east_phone, 0.35, 0.1))
search = find_slices(columns=columns, actual=truth, predicted=said.astype(int))

# two scikit-learn models in five repeats of two-fold cross-validation on scikit-learn's
# copy of the breast-cancer data (docs/cross_validation.md)
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from informed.sklearn import cross_evaluate

X, y = load_breast_cancer(return_X_y=True)
cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
bayes_folds = cross_evaluate(GaussianNB(), X, y, cv=cv)
logistic_folds = cross_evaluate(make_pipeline(StandardScaler(), LogisticRegression()), X, y,
                                cv=cv)
across_folds = compare_folds(bayes_folds, logistic_folds,
                             measures=["informedness", "markedness", "auc"],
                             names=("naive Bayes", "logistic"))
"""

PLOTS = [
    Plot(
        "ROC curve, convex hull and operating point",
        "Each threshold on the scores is a point at (fallout, recall); a tie group is one "
        "straight segment, the hull joins the points no mixture of thresholds beats, and "
        "the marked point is the threshold of best informedness (Youden's J). Chance is "
        "the diagonal.",
        "plot_roc(ranking, threshold=ranking.best_threshold())",
    ),
    Plot(
        "Qrecall by quota, with PEM's areas",
        "Arbel & Rokach (2006, Classifier evaluation under limited resources): the share of "
        "all positives caught among the top j (Qrecall), against the optimal order and "
        "chance; PEM is the area the model gains over chance (S1, less S2 where it falls "
        "below) as a share of what the optimal order gains (S3).",
        "plot_qrecall(ranking)",
    ),
    Plot(
        "Hit rate by quota",
        "The share of positives among the top j cases, against the optimal order (1 up to "
        "j = n+) and chance (the prevalence); Arbel & Rokach (2006, Classifier evaluation "
        "under limited resources).",
        "plot_hit_rate(ranking)",
    ),
    Plot(
        "Lift by decile",
        "Each tenth of the ranking's rate of positives over the overall rate, and the "
        "cumulative lift; ties are shared out by the fraction of positives in the group.",
        "plot_lift(ranking, bins=10)",
    ),
    Plot(
        "Reliability diagram (CORP), with its bands",
        "The isotonic recalibration of the scores over their tie groups (Dimitriadis, "
        "Gneiting & Jordan, 2021, Stable reliability diagrams for probabilistic "
        "classifiers): no bins. Where the curve leaves the grey consistency band the data "
        "disagree with calibration; the blue band is its bootstrap confidence band, and "
        "the bars the scores' histogram. The legend decomposes the Brier score.",
        "plot_reliability(ranking, seed=0)",
    ),
    Plot(
        "Decision curve, with bands",
        "Net benefit of acting on the tumours scored at least p_t, against treating all and "
        "treating none (Vickers & Elkin, 2006, Decision curve analysis: a novel method for "
        "evaluating prediction models), exact at every threshold, with a bootstrap band.",
        "plot_decision_curve({'logistic': ranking}, seed=0)",
    ),
    Plot(
        "The table as a heat map, with its payoff",
        "Counts, rows predicted and columns actual, each cell with its fair-odds payoff per "
        "unit stake (Powers, 2003, Recall and Precision versus the Bookmaker, Figure 1): "
        "each row adds up to the label's informedness.",
        "plot_contingency(table)",
    ),
    Plot(
        "Informedness against markedness per label",
        "Each label's informedness (how far its predictions beat chance about the class) "
        "against its markedness (how far the class beats chance about the prediction; "
        "Powers, 2011, Evaluation: from precision, recall and F-measure to ROC, "
        "informedness, markedness and correlation).",
        "plot_per_label(five, annotate=five.table.labels)",
    ),
    Plot(
        "Models' ROC curves on one plane",
        "Each model's ROC curve from its scores and the operating point of its predicted "
        "labels (`informed compare`).",
        "plot_models_roc(comparison)",
    ),
    Plot(
        "A comparison's forest plot",
        "Each model's difference from the best, measure by measure, with its paired "
        "bootstrap interval: a bar that misses 0 is a difference beyond resampling noise.",
        "plot_differences(comparison)",
    ),
    Plot(
        "Net benefit against the best model",
        "Each model's net benefit less the best one's at every threshold probability "
        "(Vickers & Elkin 2006, Decision curve analysis: a novel method for evaluating "
        "prediction models), with its paired bootstrap band (the cases resampled once for "
        "both models): below 0 the best model is worth more when acting on the tumours "
        "scored at least p_t. Here the naive Bayes and the tree lose to the logistic "
        "regression at every p_t up to 0.99.",
        "plot_net_benefit_difference(comparison)",
    ),
    Plot(
        "Two models across cross-validation folds",
        "Per measure, each fold's difference between two models (ticks), their mean with "
        "the corrected resampled t interval (Nadeau & Bengio 2003), which counts the "
        "variance that retraining on overlapping training sets adds, and the naive paired "
        "t interval that takes the folds for independent samples, too narrow "
        "(`informed compare --folds`).",
        "plot_fold_differences(across_folds)",
    ),
    Plot(
        "Informedness by slice",
        "Each slice's informedness with its bootstrap interval (each slice resampled from "
        "its own cells) against the value of all rows (dashed); a slice too small to say "
        "anything is drawn hollow (`informed evaluate --by`).",
        "plot_slices(by_size, overall=overall)",
    ),
    Plot(
        "Informedness over time",
        "Window by window, with the interval as a band, against the value of all rows "
        "(`informed evaluate --by-time`); the weeks here are simulated. A window whose "
        "replicates all agree (every case right) has no interval, and no band.",
        "plot_slices_over_time(by_week, overall=tree_overall)",
    ),
    Plot(
        "A tally's categories",
        "Each category's informedness with its interval (a bootstrap of its own 2x2 table), "
        "against the micro and macro values (`informed tally --html`).",
        "plot_tally(tally, seed=0)",
    ),
    Plot(
        "Slices found where the model is least informed",
        "Each slice a search found (`informed evaluate --find-slices`), ranked by the lower "
        "bound of its gap (the rest's informedness less the slice's) with its interval, "
        "which holds over every hypothesis the search tested; a slice found inside another "
        "one found is orange. Here the phones in the east, simulated, and the two slices "
        "that hold them.",
        "plot_found_slices(search)",
    ),
]
