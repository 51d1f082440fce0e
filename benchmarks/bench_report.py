"""What the live operating point costs the HTML report, and what a notebook plot costs.

Usage: .venv/bin/python benchmarks/bench_report.py [--n 10**4 10**5 10**6] [--repeat 3]

For rankings of n rows with continuous scores (n distinct thresholds), it times
`html_report(ranking=...)` (the whole ranking section: summaries, four plots, the live
panel), the live panel alone (choosing the points, their tables, the panel and its
data), and `informed.plot_roc(ranking)` to a PNG, as a notebook shows it; and it prints
the page's size and the live data's. Each time is the best of `--repeat` runs, in one
process (the import of matplotlib is not counted).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import informed
from informed.ranking import Ranking
from informed.report.html import html_report
from informed.report.html.live import live_points, live_roc_svg, panel


def best(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--n", nargs="+", type=lambda s: int(eval(s)), default=[10**4, 10**5, 10**6]
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    informed.plot_roc([1, 0], [1.0, 0.0], positive=1)  # load matplotlib before timing
    for n in args.n:
        rng = np.random.default_rng(0)
        actual = rng.random(n) < 0.3
        ranking = Ranking.from_scores(actual, rng.normal(size=n) + actual, positive=True)
        page = html_report(ranking=ranking)
        start = page.index('id="live-data">')
        data = page.index("</script>", start) - start
        report = best(lambda r=ranking: html_report(ranking=r), args.repeat)

        def live(r: Ranking = ranking) -> str:
            points = live_points(r, r.best_threshold(), "the threshold with the best informedness")
            _, mapping = live_roc_svg(r, points, None)
            positive, negative = r.at_threshold(points.asked).table.predicted
            return panel(points, mapping, positive, negative)

        panel_time = best(live, args.repeat)
        roc = best(lambda r=ranking: informed.plot_roc(r)._repr_png_(), args.repeat)  # type: ignore[attr-defined]
        print(
            f"n = {n:>9,}: html_report {report:6.2f} s, page {len(page):>9,} bytes "
            f"(live data {data:,}); live panel and its ROC {panel_time:5.2f} s; "
            f"plot_roc to PNG {roc:5.2f} s"
        )


if __name__ == "__main__":
    main()
