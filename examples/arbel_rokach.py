"""Arbel & Rokach (2006), "Classifier evaluation under limited resources", Tables 8 and 9,
re-run with `informed` on the UCI data sets that ship with scikit-learn.

Their setting: a random 2/3 - 1/3 split, C4.5, naive Bayes and a neural network (Weka),
AUC, average hit rate, average Qrecall and PEM of the smallest class (Table 8) and of
the largest class (Table 9), one class against the rest. Here: iris, wine, breast cancer
(Wisconsin) and the optical digits, the scikit-learn loaders that need no download; an
entropy decision tree standing in for C4.5, Gaussian naive Bayes, a one-hidden-layer
perceptron; a stratified split with a fixed seed; every measure with a percentile
bootstrap interval. Also written: PEM beside 2 AUC - 1 on every row, how much a tool
that breaks ties by input order moves PEM on the trees (tied rows shuffled), and the
rows the paper prints that contradict PEM = 2 AUC - 1.

    python examples/arbel_rokach.py           # rewrite the generated sections
    python examples/arbel_rokach.py --check   # exit 1 if the document differs

scikit-learn (the `test` extra) provides the models and the data.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _docgen import Output, fmt, markdown, run
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from informed.inference import bootstrap_ranking
from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    largest_class,
    pem,
    smallest_class,
)

SCRIPT = "examples/arbel_rokach.py"
PRINTED = Path(__file__).with_name("data") / "arbel_rokach_2006_tables_8_9.json"
SEED = 0
REPLICATES = 300
"""Bootstrap replicates per interval: enough for the second decimal of a 95 % interval,
and few enough that tests/examples regenerates the whole document in seconds."""
SHUFFLES = 1000
"""Random orders of the tied rows per ranking, for the tie-order study."""

# data set -> (loader, the paper's row, how the two compare)
DATA_SETS: dict[str, tuple[Callable[..., Any], str, str]] = {
    "Iris": (load_iris, "Iris", "the same 150 cases"),
    "Wine": (load_wine, "Wine", "the same 178 cases"),
    "Breast cancer": (
        load_breast_cancer,
        "Breast .Ca",
        "not the same data: scikit-learn ships the Wisconsin diagnostic set (569 cases, "
        "30 attributes); the paper used the Ljubljana set (286 cases, 9 attributes)",
    ),
    "Digits": (
        load_digits,
        "OPTIC",
        "the same UCI optical digits, but 1,797 of the paper's 5,628 cases",
    ),
}
MODELS = {
    "tree": "C4.5",
    "naive Bayes": "Naive Bayes",
    "MLP": "Neural network",
}
MEASURES: dict[str, Callable[[Ranking], float]] = {
    "auc": auc,
    "average_hit_rate": average_hit_rate,
    "average_qrecall": average_qrecall,
    "pem": pem,
}
TABLES = {"smallest": "Table 8, smallest class", "largest": "Table 9, largest class"}


def make_model(name: str, attributes: int, classes: int) -> Any:
    """The three classifiers, close to the paper's Weka defaults."""
    if name == "tree":
        # C4.5 (Weka's J48) splits on the gain ratio and keeps at least 2 cases per leaf;
        # a leaf's class frequencies are the scores, so many cases tie
        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=SEED)
    if name == "naive Bayes":
        return GaussianNB()  # Weka's NaiveBayes: a normal density per numeric attribute
    # Weka's MultilayerPerceptron: attributes scaled to [-1, 1], one sigmoid hidden layer
    # of (attributes + classes) / 2 units
    hidden = (attributes + classes) // 2
    return make_pipeline(
        MinMaxScaler(feature_range=(-1, 1)),
        MLPClassifier(
            hidden_layer_sizes=(hidden,),
            activation="logistic",
            solver="lbfgs",
            max_iter=1000,
            random_state=SEED,
        ),
    )


@dataclass(frozen=True)
class Row:
    """One data set, model and class: the measures, their intervals, the tie study."""

    data_set: str
    model: str
    which: str
    label: object
    positives: int
    n: int
    values: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    ties: dict[str, float]


def seed_of(*parts: str) -> int:
    """A seed per row, so that each row is the same whichever rows are computed."""
    return zlib.crc32("|".join(parts).encode())


def pem_in_order(hits: np.ndarray) -> np.ndarray:
    """Eq. 14-15 on 0/1 lists in ranked order (the last axis), as a tool without the tie
    rule computes it: (sum_j Qrecall(j) - (n + 1)/2) / (n- / 2), where Qrecall(j) is the
    number of positives in the top j over n+."""
    n = hits.shape[-1]
    positives = hits.sum(axis=-1)
    qrecall_sum = np.cumsum(hits, axis=-1).sum(axis=-1) / positives
    return (qrecall_sum - (n + 1) / 2) / ((n - positives) / 2)


def tie_study(scores: np.ndarray, hits: np.ndarray, seed: int) -> dict[str, float]:
    """PEM when ties are broken by row order: the input order, random orders, the bounds."""
    rng = np.random.default_rng(seed)
    _, rank, sizes = np.unique(-scores, return_inverse=True, return_counts=True)
    positives = np.bincount(rank, weights=hits)
    mixed = (positives > 0) & (positives < sizes)
    # each row of `orders` ranks by score and breaks ties at random: one shuffle of the ties
    orders = np.argsort(rank + rng.random((SHUFFLES, scores.size)), axis=1)
    shuffled = pem_in_order(hits[orders])
    return {
        "groups": float(sizes.size),
        "tied_rows": float(sizes[sizes > 1].sum() / scores.size),
        "mixed_rows": float(sizes[mixed].sum() / scores.size),
        "input_order": float(pem_in_order(hits[np.argsort(rank, kind="stable")])),
        "mean": float(np.mean(shuffled)),
        "low": float(np.min(shuffled)),
        "high": float(np.max(shuffled)),
        "worst": float(pem_in_order(hits[np.lexsort((hits, rank))])),
        "best": float(pem_in_order(hits[np.lexsort((-hits, rank))])),
    }


def compute() -> list[Row]:
    """Every row of both tables."""
    rows = []
    for data_set, (loader, _, _) in DATA_SETS.items():
        data = loader()
        x_train, x_test, y_train, y_test = train_test_split(
            data.data, data.target, test_size=1 / 3, random_state=SEED, stratify=data.target
        )
        classes = np.unique(data.target)
        for model_name in MODELS:
            model = make_model(model_name, data.data.shape[1], classes.size)
            model.fit(x_train, y_train)
            scores = model.predict_proba(x_test)
            rankings = Ranking.one_vs_rest(
                actual=y_test, scores=scores, classes=list(model.classes_)
            )
            for which, pick in (("smallest", smallest_class), ("largest", largest_class)):
                label = pick(rankings)
                ranking = rankings[label]
                seed = seed_of(data_set, model_name, which)
                boot = bootstrap_ranking(ranking, replicates=REPLICATES, seed=seed)
                column = list(model.classes_).index(label)
                rows.append(
                    Row(
                        data_set=data_set,
                        model=model_name,
                        which=which,
                        label=data.target_names[label] if "target_names" in data else label,
                        positives=int(ranking.n_positive),
                        n=int(ranking.n),
                        values={k: f(ranking) for k, f in MEASURES.items()},
                        intervals={
                            k: (boot.intervals[k].low, boot.intervals[k].high) for k in MEASURES
                        },
                        ties=tie_study(
                            scores[:, column], (y_test == label).astype(np.float64), seed
                        ),
                    )
                )
    return rows


def printed_tables() -> dict[str, dict[str, dict[str, Any]]]:
    """The paper's Tables 8 and 9 as printed: table -> data set -> row."""
    data = json.loads(PRINTED.read_text(encoding="utf-8"))
    return {key: {r["data_set"]: r for r in rows} for key, rows in data["tables"].items()}


def paper_value(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def with_interval(value: float, interval: tuple[float, float]) -> str:
    return f"{fmt(value)} [{fmt(interval[0])}, {fmt(interval[1])}]"


def results(rows: Sequence[Row], output: Output) -> None:
    """Tables 8 and 9: ours with intervals, the paper's value beside each."""
    paper = printed_tables()
    order = list(MEASURES)
    for which, title in TABLES.items():
        lines = []
        for row in (r for r in rows if r.which == which):
            printed_row = paper[which][DATA_SETS[row.data_set][1]][MODELS[row.model]]
            cells: list[object] = [
                row.data_set,
                row.model,
                f"{row.label} ({row.positives}/{row.n})",
            ]
            for k, key in enumerate(order):
                cells += [
                    with_interval(row.values[key], row.intervals[key]),
                    paper_value(printed_row[k]),
                ]
            cells.append(fmt(2 * row.values["auc"] - 1))
            lines.append(cells)
        header = [
            "data set",
            "model",
            "class (n+/n)",
            "AUC",
            "paper",
            "avg hit rate",
            "paper",
            "avg Qrecall",
            "paper",
            "PEM",
            "paper",
            "2 AUC - 1",
        ]
        inside, compared = _agreement(rows, which, paper)
        output.sections[f"arbel-rokach-{which}"] = (
            f"{title}: the library's value [95 % interval], then the paper's printed value "
            "for the same data set and model (-: not in the transcribed table).\n"
            + markdown(header, lines, left=3)
            + f"On iris and wine, the paper's own data, {inside} of the {compared} printed "
            "values lie inside the library's interval.\n"
        )
    output.sections["arbel-rokach-data"] = markdown(
        ["data set", "scikit-learn", "the paper's row", "how they compare"],
        [
            [name, f"`{loader.__name__}()`", printed_name, note]
            for name, (loader, printed_name, note) in DATA_SETS.items()
        ],
        left=4,
    )
    gap = max(abs(r.values["pem"] - (2 * r.values["auc"] - 1)) for r in rows)
    output.sections["arbel-rokach-identity"] = (
        f"Over all {len(rows)} rows, the largest |PEM - (2 AUC - 1)| is "
        f"{'below 1e-12' if gap < 1e-12 else f'{gap:.1e}'}.\n"
    )


def _agreement(
    rows: Sequence[Row], which: str, paper: dict[str, dict[str, dict[str, Any]]]
) -> tuple[int, int]:
    """How many printed values of the paper's own data sets lie inside our intervals."""
    inside = compared = 0
    for row in rows:
        if row.which != which or row.data_set not in ("Iris", "Wine"):
            continue
        printed_row = paper[which][DATA_SETS[row.data_set][1]][MODELS[row.model]]
        for key, value in zip(MEASURES, printed_row, strict=True):
            if value is None:
                continue
            compared += 1
            low, high = row.intervals[key]
            # the printed value is rounded: it agrees if its rounding interval meets ours
            half = 0.5 * 10.0 ** -_decimals(value)
            inside += low - half <= value <= high + half
    return inside, compared


def ties(rows: Sequence[Row], output: Output) -> None:
    """The tie-order study: PEM of a tool that breaks ties by the order of the rows."""
    lines = []
    for row in rows:
        if row.model != "tree":
            continue
        t = row.ties
        lines.append(
            [
                row.data_set,
                f"{row.which}: {row.label}",
                f"{t['groups']:.0f}",
                f"{100 * t['mixed_rows']:.0f} %",
                fmt(row.values["pem"]),
                fmt(t["input_order"]),
                f"{fmt(t['mean'])} [{fmt(t['low'])}, {fmt(t['high'])}]",
                f"[{fmt(t['worst'])}, {fmt(t['best'])}]",
            ]
        )
    trees = [r for r in rows if r.model == "tree"]
    widest = max(trees, key=lambda r: r.ties["high"] - r.ties["low"])
    binary = [r for r in trees if r.data_set == "Breast cancer"]
    others = []
    for model in MODELS:
        if model == "tree":
            continue
        mine = [r for r in rows if r.model == model]
        mixed = max(mine, key=lambda r: r.ties["mixed_rows"])
        spread = max(mine, key=lambda r: r.ties["high"] - r.ties["low"])
        if mixed.ties["mixed_rows"] == 0:
            others.append(f"the {model} never gives one score to cases of both classes")
            continue
        others.append(
            f"{model} gives one score to cases of both classes on up to "
            f"{100 * mixed.ties['mixed_rows']:.0f} % of a test set ({where(mixed)}: "
            "probabilities of exactly 0 or 1), and shuffling moves its PEM by up to "
            f"{spread.ties['high'] - spread.ties['low']:.3f} ({where(spread)})"
        )
    output.sections["arbel-rokach-ties"] = (
        markdown(
            [
                "tree on",
                "class",
                "distinct scores",
                "rows in mixed ties",
                "PEM (tie rule)",
                "input order",
                f"{SHUFFLES:,} shuffles: mean [min, max]",
                "bounds [last, first]",
            ],
            lines,
            left=2,
        )
        + f"The widest spread over shuffles is {row_label(widest)}: "
        f"{fmt(widest.ties['low'])} to {fmt(widest.ties['high'])}, around the tie rule's "
        f"{fmt(widest.values['pem'])}. On the binary breast cancer data, input order gives "
        f"{fmt(binary[0].ties['input_order'])} for one class and "
        f"{fmt(binary[1].ties['input_order'])} for the other, while the tie rule gives "
        f"{fmt(binary[0].values['pem'])} for both. The other models: " + "; ".join(others) + ".\n"
    )


def where(row: Row) -> str:
    return f"{row.data_set.lower()}, {row.which} class"


def row_label(row: Row) -> str:
    return f"the tree on {row.data_set.lower()}, {row.which} class ({row.label})"


def tolerance(*values: float) -> float:
    """How far PEM may sit from 2 AUC - 1 through the printing's rounding alone: half a
    unit of PEM's last digit plus twice half a unit of AUC's."""
    pem_value, auc_value = values
    return 0.5 * 10.0 ** -_decimals(pem_value) + 10.0 ** -_decimals(auc_value)


def _decimals(value: float) -> int:
    text = f"{value:g}"
    return len(text.partition(".")[2])


def findings(output: Output) -> None:
    """Every printed row checked against PEM = 2 AUC - 1 within the printing's rounding."""
    paper = printed_tables()
    models = ("Naive Bayes", "Neural network")
    checked = 0
    wrong = []
    for which, title in TABLES.items():
        for row in paper[which].values():
            for model in models:
                auc_value, _, _, pem_value = row[model]
                if pem_value is None:
                    continue
                checked += 1
                gap = pem_value - (2 * auc_value - 1)
                if abs(gap) > tolerance(pem_value, auc_value) + 1e-12:
                    wrong.append(
                        [
                            title.split(",")[0],
                            row["printed_name"],
                            model,
                            f"{auc_value:g}",
                            f"{pem_value:g}",
                            f"{2 * auc_value - 1:.4f}",
                            f"{gap:+.4f}",
                        ]
                    )
    binary = []
    for data_set, small in paper["smallest"].items():
        large = paper["largest"][data_set]
        if small["classes"] != 2:
            continue
        auc_value, pem_small, pem_large = small["C4.5"][0], small["C4.5"][3], large["C4.5"][3]
        mean = (pem_small + pem_large) / 2
        binary.append(
            [
                large["printed_name"],
                f"{auc_value:g}",
                f"{pem_small:g}",
                f"{pem_large:g}",
                f"{mean:.4f}",
                f"{2 * auc_value - 1:.4f}",
                f"{mean - (2 * auc_value - 1):+.4f}",
            ]
        )
    output.sections["arbel-rokach-findings"] = (
        f"Naive Bayes and the neural network: {checked} printed rows give both AUC and PEM; "
        f"{checked - len(wrong)} agree with PEM = 2 AUC - 1 within the rounding of the "
        f"printed digits, these {len(wrong)} do not:\n\n"
        + markdown(["table", "data set", "model", "AUC", "PEM", "2 AUC - 1", "gap"], wrong, left=3)
        + "\nC4.5 on the binary data sets, whose leaves tie many cases: the two printed "
        "PEMs (one per class) differ, and their mean is 2 AUC - 1.\n\n"
        + markdown(
            [
                "data set",
                "AUC",
                "PEM smallest",
                "PEM largest",
                "mean",
                "2 AUC - 1",
                "gap",
            ],
            binary,
        )
    )


def generate() -> Output:
    """Every section, single-threaded so that every machine computes the same numbers."""
    output = Output(SCRIPT)
    with threadpool_limits(1):
        rows = compute()
    results(rows, output)
    ties(rows, output)
    findings(output)
    return output


def main(argv: Iterable[str] | None = None) -> int:
    return run(generate, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
