"""Powers (2003), "Recall and Precision versus the Bookmaker", re-run with `informed`.

Two parts, written into docs/reproductions.md and docs/figures/:

* Figure 1: the spreadsheet's four models of 100 cases (chance, perfect, informed 15 %
  of the time, misinformed 15 % of the time), every percentage and dollar it prints
  recomputed by the library, and each table drawn as the report's heat map.
* The unsupervised setting of "Selection, Abstention and an Example Evaluation" on real
  data: KMeans with K = 12 clusters on scikit-learn's handwritten digits (C = 10
  classes), `match()` by informedness, the two unmatched clusters treated as
  abstentions, B conditional on a class being given and discounted by n/N, the payoff
  matrix and the per-label bias diagnostics.

    python examples/powers_clusters.py           # rewrite the generated sections
    python examples/powers_clusters.py --check   # exit 1 if the document differs

scikit-learn (the `test` extra) provides KMeans and the digits, which ship with it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from _docgen import Output, fmt, markdown, run
from sklearn.cluster import KMeans
from sklearn.datasets import load_digits
from threadpoolctl import threadpool_limits

from informed import Matching, Table, average, evaluate, match, payoff
from informed.coding.labels import Label
from informed.report.html.figures import contingency_svg

SCRIPT = "examples/powers_clusters.py"
CLUSTERS = 12
SEED = 0

# Figure 1 as printed (Powers 2003): counts with rows +P, -P and columns +R, -R (N = 100,
# so counts are percentages); percentages; the payoff on the spreadsheet's $10 scale.
FIGURE1: dict[str, dict[str, Any]] = {
    "chance (0 %)": {
        "counts": [[56, 24], [14, 6]],
        "percent": [62, 80, 20, 70, 30, 74.67, 24.00, 52.50, 74.83, 24.49, 59.85, 0],
        "payoff": [[8.00, -8.00], [-2.00, 2.00]],
        "won": [0.00, 0.00],
        "weighted": [0.00, 0.00],
    },
    "perfect (100 %)": {
        "counts": [[70, 0], [0, 30]],
        "percent": [100, 100, 100, 100, 100, 100.00, 100.00, 100.00, 100.00, 100.00, 100.00, 100],
        "payoff": [[10.00, 0.00], [0.00, 10.00]],
        "won": [10.00, 10.00],
        "weighted": [7.00, 3.00],
    },
    "informed (+15 %)": {
        "counts": [[58.1, 20.4], [11.9, 9.6]],
        "percent": [68, 83, 32, 74, 45, 78.25, 37.28, 63.30, 78.38, 37.80, 67.00, 15],
        "payoff": [[8.30, -6.80], [-1.70, 3.20]],
        "won": [1.50, 1.50],
        "weighted": [1.18, 0.32],
    },
    "misinformed (-15 %)": {
        "counts": [[47.6, 24.9], [22.4, 5.1]],
        "percent": [53, 68, 17, 66, 19, 66.81, 17.74, 37.94, 66.82, 17.76, 46.41, -15],
        "payoff": [[6.80, -8.30], [-3.20, 1.70]],
        "won": [-1.50, -1.50],
        "weighted": [-1.09, -0.41],
    },
}
FIGURE1_MEASURES = [
    ("Accuracy (Rand)", "accuracy"),
    ("Recall", "recall"),
    ("Inverse recall", "inverse_recall"),
    ("Precision", "precision"),
    ("Inverse precision", "inverse_precision"),
    ("F(0.5)", "f_measure"),
    ("Inverse F", "inverse_f_measure"),
    ("Average F", "average_f_measure"),
    ("G", "g_measure"),
    ("Inverse G", "inverse_g_measure"),
    ("Average G", "average_g_measure"),
    ("Bookmaker B", "informedness"),
]

TWO_DECIMALS = {
    "f_measure",
    "inverse_f_measure",
    "average_f_measure",
    "g_measure",
    "inverse_g_measure",
    "average_g_measure",
}
"""Figure 1 prints F and G with two decimals, the other percentages whole."""


def printed(value: float, key: str) -> str:
    """A percentage as the spreadsheet prints it: F and G with two decimals, others whole."""
    return f"{value:.2f}" if key in TWO_DECIMALS else f"{value:.0f}"


def figure1(output: Output) -> None:
    """Figure 1: each model's measures and payoff, the library beside the printed value."""
    slugs = {name: f"powers-figure1-{name.split(' ')[0]}" for name in FIGURE1}
    evaluations = {}
    for name, spec in FIGURE1.items():
        table = Table.from_counts(spec["counts"], rows="predicted", labels=["+", "-"])
        evaluations[name] = evaluate(table, positive="+")
        output.figures[slugs[name]] = contingency_svg(
            table, payoff(table), ["+", "-"], ["+", "-"], name=slugs[name]
        )
    # the largest gap between the library and the paper, in half-units of the printed
    # last digit (< 1: the library's value rounds to the printed one)
    worst = 0.0
    measure_rows = []
    for k, (title, key) in enumerate(FIGURE1_MEASURES):
        cells = [title]
        for name, spec in FIGURE1.items():
            value = 100 * evaluations[name].measures[key]
            paper = spec["percent"][k]
            worst = max(worst, abs(value - paper) / (0.005 if key in TWO_DECIMALS else 0.5))
            cells.append(f"{fmt(value, 2)} ({printed(paper, key)})")
        measure_rows.append(cells)
    payoff_rows = []
    for name, spec in FIGURE1.items():
        bets = payoff(evaluations[name].table).scaled(10)
        for i, prediction in enumerate(["+P", "-P"]):
            cells = [f"{name}, {prediction}"]
            pairs = [(bets.matrix[i, j], spec["payoff"][i][j]) for j in range(2)]
            pairs += [(bets.won[i], spec["won"][i]), (bets.weighted[i], spec["weighted"][i])]
            for library, paper in pairs:
                worst = max(worst, abs(library - paper) / 0.005)
                cells.append(f"{fmt(library, 2)} ({paper:.2f})")
            payoff_rows.append(cells)
    names = list(FIGURE1)
    images = [
        f"![{name}: counts and payoff per unit stake](figures/{slugs[name]}.svg)"
        for name in FIGURE1
    ]
    output.sections["powers-figure1"] = (
        "Percentages: the library's value, then the printed one in parentheses.\n"
        + markdown(["measure", *FIGURE1], measure_rows)
        + "The payoff on the spreadsheet's $10 scale, `payoff(table).scaled(10)`: each cell "
        "is what the punter wins (or loses) on the cases of that cell; a row sums to "
        "10 B(l) (won), and the rows weighted by pP(l) add up to 10 B.\n"
        + markdown(["model, prediction", "+R", "-R", "won", "weighted"], payoff_rows)
        + "Every value of the library rounds to the printed one: the largest gap is "
        f"{worst:.2f} of half a unit in the printed last digit.\n\n"
        + "| {} | {} |\n|:---:|:---:|\n| {} | {} |\n| **{}** | **{}** |\n| {} | {} |\n".format(
            *names[:2], *images[:2], *names[2:], *images[2:]
        )
    )


def clusters(output: Output) -> None:
    """KMeans on the digits, matched by informedness; unmatched clusters abstain."""
    digits = load_digits()
    model = KMeans(n_clusters=CLUSTERS, n_init=10, random_state=SEED, algorithm="lloyd")
    table = Table.from_labels(
        actual=digits.target, predicted=model.fit_predict(digits.data), clusters=True
    )
    m = match(table)
    a = m.abstention
    text = [
        _raw_table(table, m),
        _reading(table, m),
        _per_label(m),
        _payoff(a.table),
    ]
    output.figures["powers-clusters"] = contingency_svg(
        a.table,
        payoff(a.table),
        list(a.table.predicted),
        list(a.table.actual),
        name="powers-clusters",
    )
    output.sections["powers-clusters"] = "".join(text)


def _raw_table(table: Table, m: Matching) -> str:
    """The clusters against the digits, in the order of the class each was matched to."""
    classes = list(table.actual)
    order = sorted(m.mapping, key=lambda c: classes.index(m.mapping[c])) + list(m.unmatched)
    rows = []
    for cluster in order:
        counts = [table.count(cluster, c) for c in classes]
        rows.append([str(cluster), str(m.mapping.get(cluster, "none")), *counts, sum(counts)])
    rows.append(["total", "", *table.counts.sum(axis=0).tolist(), table.n])
    pairs = _pair_contributions(table, m.mapping)
    unmatched = "; ".join(f"cluster {c}: {_describe(table, c)}" for c in m.unmatched)
    return (
        f"KMeans (K = {CLUSTERS}, 10 starts, `random_state={SEED}`) on the {table.n:,} "
        f"digits (C = {len(classes)} classes). Rows: clusters, in the order of the class "
        "`match()` gave them; columns: the real digit.\n"
        + markdown(["cluster", "matched to", *map(str, classes), "total"], rows)
        + f"`match(table)` leaves {len(m.unmatched)} clusters without a class ({unmatched}). "
        f"`m.score` = {fmt(m.score)} is the largest sum over matched pairs of pP(l) B(l -> c) "
        f"(the largest term: cluster {pairs[0][0]} as {pairs[0][1]}, {fmt(pairs[0][2])}; "
        f"the smallest: cluster {pairs[-1][0]} as {pairs[-1][1]}, {fmt(pairs[-1][2])}).\n"
    )


def _reading(table: Table, m: Matching) -> str:
    """The numbers, read as Powers reads his dog/train example."""
    a = m.abstention
    b = a.conditional.measures["informedness"]
    many = match(table, method="many-to-one").score
    rows = [
        ["informedness of the relabelled table", "nan", "`evaluate(m.table)`"],
        ["cases given a class, n", f"{a.n:,}", "`a.n`"],
        ["all cases, N", f"{a.total:,}", "`a.total`"],
        ["coverage n/N", fmt(a.coverage), "`a.coverage`"],
        ["B where a class is given (B_wav)", fmt(b), '`a.conditional.measures["informedness"]`'],
        ["B x n/N", fmt(a.discounted["informedness"]), '`a.discounted["informedness"]`'],
        [
            "recall where a class is given",
            fmt(a.conditional.measures["recall"]),
            '`a.conditional.measures["recall"]`',
        ],
        ["recall x n/N", fmt(a.discounted["recall"]), '`a.discounted["recall"]`'],
        ["B, zero weight on the abstentions", fmt(a.zero_weight), "`a.zero_weight`, `m.score`"],
        [
            "B, each cluster to its best class",
            fmt(many),
            '`match(table, method="many-to-one").score`',
        ],
    ]
    reason = evaluate(m.table).reasons["informedness"]
    return (
        "\nWith `a = m.abstention`:\n"
        + markdown(["quantity", "from", "value"], [[q, api, v] for q, v, api in rows], left=2)
        + f"The relabelled table `m.table` keeps all {a.total:,} cases; its unmatched rows "
        f"predict no class, so its informedness is undefined ({reason}). Where a class is "
        f"given, it is an informed decision {fmt(100 * b, 1)} % of the time (B_wav). Since "
        f"only {a.n:,} of {a.total:,} cases ({fmt(100 * a.coverage, 1)} %) were given a "
        "class, B (and r) must be discounted by n/N, so that overall informedness is "
        f"estimated at {fmt(b)} x {fmt(a.coverage)} = "
        f"{fmt(100 * a.discounted['informedness'], 1)} %. Powers's other reading, zero "
        "weight on the abstentions, keeps all N cases: a digit that fell into an unmatched "
        "cluster counts as a miss of its class, and the rates are taken over all N cases, "
        f"which gives {fmt(a.zero_weight)}. `match()` maximises that reading, so it is "
        "`m.score`. Sending every cluster to its best class instead abstains on nothing "
        f"and merges clusters: {fmt(many)}.\n"
    )


PER_LABEL = [
    ("bias pP", "bias"),
    ("prevalence pR", "prevalence"),
    ("pP/pR", "bias_ratio"),
    ("r", "recall"),
    ("p", "precision"),
    ("B", "informedness"),
    ("F", "f_measure"),
    ("G", "g_measure"),
]


def _per_label(m: Matching) -> str:
    """Powers's per-label table (r, p, B, F, G) and the bias diagnostics."""
    a = m.abstention
    retained = a.table
    values = a.conditional.per_label
    cluster_of = {v: k for k, v in m.mapping.items()}
    rows = []
    for label in retained.actual:
        cells = [f"{label} (cluster {cluster_of[label]})"]
        for _, key in PER_LABEL:
            value = values[label][key]
            cells.append(
                fmt(value) if key in ("bias", "prevalence", "bias_ratio") else fmt(100 * value, 0)
            )
        rows.append(cells)
    rows.append(
        ["wav (bias-weighted)", "", "", ""]
        + [fmt(100 * average(retained, key, "bias"), 0) for _, key in PER_LABEL[3:]]
    )
    over = [str(x) for x in retained.actual if values[x]["bias_ratio"] > 1.25]
    under = [str(x) for x in retained.actual if values[x]["bias_ratio"] < 0.8]
    weakest = min(retained.actual, key=lambda x: values[x]["informedness"])
    informed = 100 * values[weakest]["informedness"]
    return (
        f"\nPer label, on the {a.n:,} cases given a class (percentages, as in Powers's "
        "table; bias and prevalence as fractions):\n"
        + markdown(["label", *[title for title, _ in PER_LABEL]], rows)
        + "The bias diagnostics. A label predicted far more often than its class occurs "
        f"(pP/pR > 1.25: {', '.join(over) or 'none'}) collects other classes' cases: its "
        "precision falls while its recall stays high. One predicted far less often "
        f"(pP/pR < 0.8: {', '.join(under) or 'none'}) shows the opposite. B(l) is the share "
        f"of informed decisions behind label l: the weakest label is {weakest}, "
        f"B = {fmt(informed, 0)} %, so {fmt(100 - informed, 0)} % of its decisions are "
        "guesswork.\n"
    )


def _payoff(retained: Table) -> str:
    """The payoff matrix of the cases given a class, per unit stake."""
    bets = payoff(retained)
    where = {x: i for i, x in enumerate(bets.labels)}
    rows = []
    for label in retained.predicted:
        i = where[label]
        rows.append(
            [str(label)]
            + [fmt(bets.matrix[i, where[c]]) for c in retained.actual]
            + [fmt(bets.won[i]), fmt(bets.weighted[i])]
        )
    rows.append(
        ["column sums"]
        + [fmt(bets.column_sums[where[c]]) for c in retained.actual]
        + ["", fmt(bets.informedness)]
    )
    image = "![The digits given a class: counts and payoff per unit stake]"
    return (
        "\nThe payoff matrix of the cases given a class, per unit stake, `payoff(a.table)`: a "
        "correct bet on label l wins 1/pR(l) per case, a wrong one loses 1/(1 - pR(l)); a "
        "row sums to B(l) (won), and the rows weighted by pP(l) add up to B_wav = "
        f"{fmt(bets.informedness)}.\n"
        + markdown(["predicted", *map(str, retained.actual), "won", "weighted"], rows)
        + f"{image}(figures/powers-clusters.svg)\n"
    )


def _describe(table: Table, cluster: Label) -> str:
    """'93 cases, 71 of class 5, ...': the largest classes inside a cluster."""
    counts = sorted(((table.count(cluster, c), c) for c in table.actual), key=lambda x: -x[0])
    top = ", ".join(f"{n} of class {c}" for n, c in counts[:3] if n)
    return f"{sum(n for n, _ in counts)} cases, {top}"


def _pair_contributions(
    table: Table, mapping: dict[Label, Label]
) -> list[tuple[Label, Label, float]]:
    """pP(l) B(l -> c) of each matched pair over all N cases, largest first."""
    total = table.n
    pairs = []
    for cluster, target in mapping.items():
        tp = table.count(cluster, target)
        row = sum(table.count(cluster, c) for c in table.actual)
        col = sum(table.count(k, target) for k in table.predicted)
        pairs.append((cluster, target, row / total * (tp / col - (row - tp) / (total - col))))
    return sorted(pairs, key=lambda x: -x[2])


def generate() -> Output:
    """Both sections and their figures, on one thread so that every machine agrees."""
    output = Output(SCRIPT)
    with threadpool_limits(1):
        figure1(output)
        clusters(output)
    return output


def main(argv: Iterable[str] | None = None) -> int:
    return run(generate, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
