"""The HTML report in a real browser: headless Chromium (Debian's `chromium` package).

Chromium renders the report, and the tests check what a reader would see:

* a screenshot of the whole page (saved under the test's temporary folder) is a real
  picture, and the box of every figure in it holds its plot's colours;
* the DOM Chromium built holds every <figure> with its <svg> drawing, and no element
  that refers to anything outside the page;
* a layout probe (a copy of the page with a measuring script added) finds every figure
  and its plot displayed, visible and of a readable size;
* no request leaves the browser: every run goes through a recording proxy on localhost,
  which must see nothing from the report. Two remote canary images in the probe copy show
  that the proxy does see the requests a page makes;
* the live operating point: the page opened at ``#threshold=T`` for several T shows, once
  its one script has run, the counts, informedness, markedness, payoff and stakes that
  `Ranking.at_threshold(T)` gives, read from the rendered DOM (not from the embedded
  data), and moves the circle on the ROC curve to that point.

Without chromium every test here is skipped with a message saying the browser test did not
run; `.ci/run` installs chromium so that CI always runs it.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import subprocess
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from live_expected import IDS as LIVE_IDS
from live_expected import TEXTS as LIVE_TEXTS
from live_expected import assert_panel_shows, assert_shown, lowest_score_at_least, tie_ranking
from matplotlib.image import imread
from report_dom import Node, external_references, parse

from informed import Table, compare, evaluate
from informed.inference import bootstrap
from informed.ranking import Ranking
from informed.report.html import FIGURES, write_html_report
from informed.report.html.live import choose_cuts, js_number

HOSTILE_MODEL = "<script>alert(2)</script>"
NOT_RUN = "chromium not installed: the browser test did not run (.ci/run installs it)"
WIDTH = 1200
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
]
# The browser's own services, contacted even for a blank page despite the flags above
# (component updates, account check, network clock, the optimization guide's hints).
# They are not the page's requests; anything else reaching the proxy is. Fonts or
# scripts from Google would be fonts.googleapis.com or www.gstatic.com: not in this list.
BROWSER_SERVICES = {
    "update.googleapis.com",
    "accounts.google.com",
    "clients2.google.com",
    "optimizationguide-pa.googleapis.com",
}
# A colour of each plot (Okabe-Ito, Blues) that must be painted inside its figure's box.
PLOT_COLOURS = {
    "heatmap": [(8, 48, 107)],  # the darkest cells of the Blues map
    "labels": [(0, 114, 178), (230, 159, 0)],  # label points, overall star
    "roc": [(0, 114, 178), (230, 159, 0), (0, 158, 115)],  # the curve, its hull, threshold
    "lift": [(86, 180, 233)],  # the bars
    "quota": [(191, 231, 220), (0, 114, 178)],  # S1 shading (green at 25 %), Qrecall
    "compare-roc": [(0, 114, 178), (230, 159, 0), (0, 158, 115)],  # the three models
    "forest": [(230, 159, 0), (0, 158, 115)],  # the second and third model's differences
    "net-benefit-difference": [(230, 159, 0), (0, 158, 115)],  # the same two, against the best
    "reliability": [(0, 114, 178)],  # the CORP curve
    "decision": [(0, 114, 178), (213, 94, 0)],  # the model's net benefit, the live marker
}
PROBE = """<img src="http://canary.invalid/pixel.png" alt="">
<img src="https://secure-canary.invalid/pixel.png" alt="">
<script>
window.addEventListener("load", () => {
  const page = document.documentElement;
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};
  };
  const out = {height: page.scrollHeight, width: page.scrollWidth, figures: {}};
  out.longest = Math.max(0, ...[...document.querySelectorAll("th.long")].map(
    (cell) => cell.getBoundingClientRect().width));
  for (const figure of document.querySelectorAll("figure")) {
    const svg = figure.querySelector("svg");
    const style = getComputedStyle(figure);
    out.figures[figure.id] = {
      box: box(figure), svg: svg ? box(svg) : null,
      display: style.display, visibility: style.visibility, opacity: style.opacity,
      svgDisplay: svg ? getComputedStyle(svg).display : null,
    };
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


class BrowserTestNotRun(UserWarning):
    """Chromium is missing: the browser test was skipped."""


def _chromium() -> str | None:
    found = shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


@dataclass
class Recorder:
    """A proxy that answers 403 to everything and records each request line."""

    server: socket.socket
    requests: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.server.getsockname()[1])

    def serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            # one thread per connection: a preconnect that sends nothing blocks no other
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection: socket.socket) -> None:
        with connection:
            connection.settimeout(5)
            try:
                head = connection.recv(65536).split(b"\r\n", 1)[0]
                if head:
                    self.requests.append(head.decode("latin-1"))
                connection.sendall(
                    b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
            except OSError:
                pass


def hosts(requests: list[str]) -> set[str]:
    """The host of each request line (CONNECT host:port, or GET http://host/... )."""
    out = set()
    for line in requests:
        parts = line.split(" ")
        target = parts[1] if len(parts) > 1 else ""
        if "://" in target:
            target = target.split("://", 1)[1].split("/", 1)[0]
        out.add(target.rsplit(":", 1)[0] if target.count(":") == 1 else target)
    return out


@dataclass
class Run:
    stdout: str
    requests: list[str]  # request lines that reached the proxy during this run


@dataclass
class Browser:
    executable: str
    folder: Path
    recorder: Recorder
    runs: int = 0

    def run(self, url: str, *arguments: str) -> Run:
        """One headless Chromium run on `url`, through the recording proxy.

        Runs are sequential and the proxy records a request before it answers, so the
        requests recorded between start and exit are this run's.
        """
        self.runs += 1
        before = len(self.recorder.requests)
        profile = self.folder / f"profile-{self.runs}"
        command = [
            self.executable,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--proxy-server=http://127.0.0.1:{self.recorder.port}",
            "--proxy-bypass-list=<-loopback>",
            *arguments,
            url,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, f"chromium failed ({done.returncode}): {done.stderr[-2000:]}"
        return Run(done.stdout, self.recorder.requests[before:])


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    executable = _chromium()
    if executable is None:
        # a skip's reason is hidden by `pytest -q`; a warning is listed in its summary
        warnings.warn(NOT_RUN, BrowserTestNotRun, stacklevel=1)
        pytest.skip(NOT_RUN)
    server = socket.create_server(("127.0.0.1", 0))
    recorder = Recorder(server)
    thread = threading.Thread(target=recorder.serve, daemon=True)
    thread.start()
    try:
        yield Browser(executable, tmp_path_factory.mktemp("browser"), recorder)
    finally:
        server.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
        server.close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def report(browser: Browser) -> Path:
    """A report with every section and plot: five labels, intervals, a ranking with its
    best threshold, and a comparison of three models (one named like a script)."""
    rng = np.random.default_rng(11)
    labels = ["cat", "dog", "bird", "fish", "<script>alert(1)</script>"]
    actual = rng.choice(labels, size=800, p=[0.35, 0.3, 0.15, 0.12, 0.08])
    predicted = np.where(rng.random(800) < 0.7, actual, rng.choice(labels, size=800))
    table = Table.from_labels(actual=actual, predicted=predicted)
    evaluation = evaluate(table)
    scores = rng.normal(size=800) + (actual == "cat") * 1.2
    # probabilities (a logistic of the scores): the page has its calibration section
    probabilities = (1 / (1 + np.exp(-scores))).round(3)
    ranking = Ranking.from_scores(actual=actual == "cat", scores=probabilities, positive=True)
    is_cat = (actual == "cat").astype(int)
    model_scores = {
        "sharp": scores.round(2),
        HOSTILE_MODEL: (rng.normal(size=800) + is_cat * 0.8).round(1),
        "dull": (rng.normal(size=800) + is_cat * 0.3).round(1),
    }
    # the models' scores as probabilities too: the comparison has its net benefit figure
    model_probabilities = {
        name: (1 / (1 + np.exp(-s))).round(3) for name, s in model_scores.items()
    }
    comparison = compare(
        is_cat,
        {name: (s > 0.5).astype(int) for name, s in model_scores.items()},
        scores=model_probabilities,
        positive=1,
        replicates=200,
        permutations=199,
        seed=0,
    )
    path = browser.folder / "report.html"
    write_html_report(
        path,
        evaluation,
        ranking,
        intervals=bootstrap(table, replicates=200, level=0.95, seed=0),
        source="pets.csv",
        ranking_positive="cat",
        quotas=[100],
        threshold=ranking.best_threshold(),
        comparison=comparison,
    )
    return path


@dataclass
class Probe:
    layout: dict[str, Any]  # boxes of the page and of each figure
    requests: list[str]  # what reached the proxy, the canary's requests among them


@pytest.fixture(scope="module")
def probe(browser: Browser, report: Path) -> Probe:
    """A copy of the report with a measuring script and two canary images at its end.

    Chromium measures the page's layout, and the canary images (one http, one https) must
    reach the proxy: the proof that the proxy sees a request when a page makes one.
    """
    path = report.with_name("probe.html")
    path.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"))
    run = browser.run(path.as_uri(), f"--window-size={WIDTH},1000", "--dump-dom")
    layout: dict[str, Any] = json.loads(parse(run.stdout).by_id("probe").text())
    return Probe(layout, run.requests)


@pytest.fixture(scope="module")
def layout(probe: Probe) -> dict[str, Any]:
    return probe.layout


@dataclass
class Rendered:
    dom: Node  # the DOM as Chromium built it
    screenshot: Path  # the whole page, in a window as tall as the page
    requests: list[str]  # what reached the proxy while Chromium showed the report


@pytest.fixture(scope="module")
def rendered(browser: Browser, report: Path, layout: dict[str, Any]) -> Rendered:
    """One run on the report itself: its DOM and a screenshot kept in the test's folder."""
    path = browser.folder / "report.png"
    height = min(int(layout["height"]) + 10, 16000)
    run = browser.run(
        report.as_uri(), f"--window-size={WIDTH},{height}", f"--screenshot={path}", "--dump-dom"
    )
    return Rendered(parse(run.stdout), path, run.requests)


@pytest.fixture(scope="module")
def screenshot(rendered: Rendered) -> Path:
    return rendered.screenshot


def test_screenshot_is_a_real_picture(screenshot: Path) -> None:
    """The page was painted: a PNG of the right width, with text and plots, not one colour."""
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 50_000
    pixels = imread(screenshot)
    assert pixels.shape[1] == WIDTH
    rgb = (pixels[::3, ::3, :3] * 255).round().astype(np.int32)
    colours = np.unique(rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2])
    assert colours.size > 200
    assert float(pixels[..., :3].std()) > 0.05


def test_every_plot_is_visible(layout: dict[str, Any], screenshot: Path) -> None:
    """Each figure is displayed, of a readable size, and its plot's colours are in its box."""
    assert sorted(layout["figures"]) == sorted(FIGURES.values())
    assert layout["width"] <= WIDTH  # nothing wider than the window
    pixels = (imread(screenshot)[..., :3] * 255).round().astype(np.int16)
    for key, element_id in FIGURES.items():
        figure = layout["figures"][element_id]
        assert figure["display"] != "none" and figure["visibility"] == "visible", key
        assert float(figure["opacity"]) == 1.0 and figure["svgDisplay"] != "none", key
        svg = figure["svg"]
        assert svg["width"] >= 300 and svg["height"] >= 100, (key, svg)
        top, left = round(svg["y"]), round(svg["x"])
        crop = pixels[top : top + round(svg["height"]), left : left + round(svg["width"])]
        assert crop.shape[0] > 50, (key, "figure beyond the screenshot")
        for colour in PLOT_COLOURS[key]:
            near = np.abs(crop - np.array(colour)).max(axis=-1) <= 12
            assert near.sum() >= 20, (key, colour, int(near.sum()))


def test_dom_has_every_figure_and_nothing_external(rendered: Rendered) -> None:
    """The DOM Chromium built: every figure with its drawn <svg>; no outside reference."""
    dom = rendered.dom
    for element_id in FIGURES.values():
        figure = dom.by_id(element_id)
        svg = figure.find("svg")
        assert len([n for n in svg.iter() if n.tag in ("path", "use")]) > 10, element_id
        assert figure.find("figcaption").text()
    assert external_references(dom) == []
    # the page's scripts: the live operating point's data and its one script, both inline
    scripts = dom.find_all("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", None]
    assert all("src" not in s.attrs for s in scripts)
    assert "<script>alert(1)</script>" in _text_of(dom, "per-label-table")
    assert HOSTILE_MODEL in _text_of(dom, "compare-models")
    assert HOSTILE_MODEL in _text_of(dom, "compare-differences")


def _text_of(dom: Node, element_id: str) -> str:
    return dom.by_id(element_id).text()


def test_no_network_request(probe: Probe, rendered: Rendered) -> None:
    """No request from the report reached the proxy; the canary's requests did."""
    assert hosts(rendered.requests) - BROWSER_SERVICES == set(), rendered.requests
    assert {"canary.invalid", "secure-canary.invalid"} <= hosts(probe.requests), probe.requests


NARROW = 420  # a phone's width in CSS pixels
NARROW_PROBE = """<script>
window.addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const out = {width, scrollWidth: document.documentElement.scrollWidth, overflowing: [],
               broken: [], figures: {}};
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string" ? "." + e.className : "");
  // wide tables scroll inside their .scroll box; nothing else may reach past the window
  for (const element of document.body.querySelectorAll("*")) {
    if (element.closest(".scroll") && !element.classList.contains("scroll")) continue;
    const r = element.getBoundingClientRect();
    if (r.width && (r.right > width + 0.5 || r.left < -0.5)) {
      out.overflowing.push([name(element), Math.round(r.left), Math.round(r.right)]);
    }
  }
  // a label may wrap at a space or a slash, never between two letters or digits of a word
  const line = (node, i, vertical) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const r = range.getBoundingClientRect();
    return vertical ? r.left : r.top;
  };
  for (const cell of document.querySelectorAll("th.label:not(.long)")) {
    const vertical = cell.classList.contains("vertical");
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data;
      for (let i = 1; i < text.length; i++) {
        if (/\\w/.test(text[i - 1]) && /\\w/.test(text[i])
            && Math.abs(line(node, i - 1, vertical) - line(node, i, vertical)) > 2) {
          out.broken.push(cell.textContent);
          break;
        }
      }
    }
  }
  out.longest = Math.max(0, ...[...document.querySelectorAll("th.long")].map(
    (cell) => cell.getBoundingClientRect().width));
  for (const figure of document.querySelectorAll("figure")) {
    out.figures[figure.id] = [...figure.querySelectorAll("svg")].map((svg) => {
      const r = svg.getBoundingClientRect();
      return [Math.round(r.left), Math.round(r.right), Math.round(r.width)];
    });
  }
  parent.postMessage(JSON.stringify(out), "*");
});
</script>"""
# Headless Chromium lays a page out at least 500 px wide, whatever --window-size says: the
# report is measured in a 420 px frame, and its probe posts what it found to this page.
NARROW_FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:{width}px;height:1000px;border:0"></iframe>
<pre id="narrow-probe"></pre>
<script>addEventListener("message", (event) => {{
  document.getElementById("narrow-probe").textContent = event.data; }});</script>
</body></html>"""


VERY_LONG = "a_label_longer_than_any_column_should_be_" * 2  # may wrap inside a word


@pytest.fixture(scope="module")
def long_labels(browser: Browser) -> Path:
    """A report whose labels are long single words (as "malignant" or "category_105_x"):
    eight of them, so that the contingency table writes its column labels upwards."""
    rng = np.random.default_rng(5)
    labels = [f"category_{k:03d}_{'x' * k}" for k in range(8)] + ["malignant", VERY_LONG]
    actual = rng.choice(labels, size=900)
    predicted = np.where(rng.random(900) < 0.8, actual, rng.choice(labels, size=900))
    evaluation = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    path = browser.folder / "long-labels.html"
    write_html_report(path, evaluation, source="long labels.csv")
    return path


@pytest.fixture(scope="module")
def tally_page(browser: Browser) -> Path:
    """The page of a tally of twelve categories, long names among them
    (`informed tally --html`)."""
    from informed import Tally
    from informed.inference import tally_intervals
    from informed.report.html.tally import write_tally_page
    from informed.tally import summarize_tally

    rng = np.random.default_rng(6)
    names = [f"category_{k:02d}" for k in range(11)] + [VERY_LONG]
    tally = Tally(names)
    for _ in range(300):
        correct = [c for c in names if rng.random() < 0.2]
        assigned = [c for c in names if (c in correct) == (rng.random() < 0.8)]
        tally.add_result(assigned, correct)
    intervals = tally_intervals(tally, replicates=200, seed=0)
    path = browser.folder / "tally.html"
    write_tally_page(path, summarize_tally(tally), intervals, source="docs.jsonl")
    return path


@pytest.mark.parametrize("which", ["report", "long_labels", "tally_page"])
def test_nothing_wider_than_a_phone(
    which: str, browser: Browser, request: pytest.FixtureRequest
) -> None:
    """At 420 px wide, no element reaches past the window (wide tables scroll in their own
    box), every plot is shrunk to the window, and no label is broken inside a word.

    The probe marks a label broken when two letters or digits next to each other lie on
    two lines; the same page with the earlier rule (`overflow-wrap: anywhere` on label
    cells, figures at least 440 px wide) fails every assertion here."""
    page: Path = request.getfixturevalue(which)
    probed = page.with_name(f"probed-{page.name}")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", NARROW_PROBE + "</body>"))
    frame = page.with_name(f"narrow-{page.name}")
    frame.write_text(NARROW_FRAME.format(src=probed.name, width=NARROW), encoding="utf-8")
    run = browser.run(
        frame.as_uri(), "--window-size=800,1000", "--virtual-time-budget=5000", "--dump-dom"
    )
    found: dict[str, Any] = json.loads(parse(run.stdout).by_id("narrow-probe").text())
    assert found["width"] == NARROW, found["width"]
    assert found["broken"] == [], found["broken"]
    assert found["scrollWidth"] <= NARROW, found["overflowing"][:10]
    assert found["overflowing"] == []
    assert found["figures"], "no figure"
    if which == "long_labels":  # a very long label keeps the numbers of its row in view
        assert 0 < found["longest"] <= NARROW / 2, found["longest"]
    for element_id, boxes in found["figures"].items():
        for left, right, width in boxes:
            assert left >= 0 and right <= NARROW and width >= 150, (element_id, left, right)


# ---------------------------------------------------------------------- the live point
# the page's script runs as the page is parsed: the DOM at its load holds what it wrote
LIVE_FLAGS = ("--window-size=1200,1000", "--dump-dom")


def _live_ranking(n: int, seed: int, digits: int, weights: bool = False) -> Ranking:
    rng = np.random.default_rng(seed)
    actual = rng.random(n) < 0.35
    scores = (rng.normal(size=n) + 1.2 * actual).round(digits)
    weight = rng.choice([0.1, 0.7, 1.3, 2.5], n) if weights else None
    return Ranking.from_scores(actual=actual, scores=scores, positive=True, weights=weight)


@pytest.fixture(scope="module")
def live(browser: Browser) -> dict[str, tuple[Path, Ranking]]:
    """Reports of a ranking alone: few scores (every operating point embedded), many
    (a choice of 2,000), float weights, and the tie at four decimals."""
    rankings = {
        "few": _live_ranking(500, 1, 2),
        "many": _live_ranking(30_000, 2, 6),
        "weighted": _live_ranking(400, 3, 1, weights=True),
        "tie": tie_ranking(),
    }
    pages = {}
    for name, ranking in rankings.items():
        path = browser.folder / f"live-{name}.html"
        write_html_report(path, ranking=ranking, source=f"{name}.csv")
        pages[name] = (path, ranking)
    return pages


def _open_at(browser: Browser, path: Path, fragment: str) -> tuple[Node, Run]:
    run = browser.run(f"{path.as_uri()}#threshold={fragment}", *LIVE_FLAGS)
    return parse(run.stdout), run


# Moves the live point to each threshold in turn, as an edited address does (the page's
# own hashchange handler), and copies what the panel then shows into #live-probe.
LIVE_PROBE = """<script>
window.addEventListener("load", () => {
  const ids = IDS;
  const out = [];
  const snapshot = () => {
    const seen = {};
    for (const id of ids) {
      const node = document.getElementById("live-" + id);
      seen[id] = [node.textContent, node.dataset.value === undefined ? "nan" : node.dataset.value];
    }
    const marker = document.getElementById("plot-roc-threshold");
    seen.marker = [marker.getAttribute("transform"), marker.dataset.fpr, marker.dataset.tpr];
    seen.hash = [location.hash];
    out.push(seen);
  };
  for (const hash of HASHES) {
    history.replaceState(null, "", hash);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
    snapshot();
  }
  // the slider, moved as a reader moves it
  const slider = document.getElementById("live-slider");
  slider.value = String(SLIDER);
  slider.dispatchEvent(new Event("input"));
  snapshot();
  // a click on the ROC plot, where the embedded point CLICK is drawn
  const data = JSON.parse(document.getElementById("live-data").textContent);
  const plot = document.getElementById(data.svg.plot);
  const fpr = data.fp[CLICK] / data.negatives, tpr = data.tp[CLICK] / data.positives;
  const at = new DOMPoint(data.svg.ax + data.svg.bx * fpr, data.svg.ay + data.svg.by * tpr)
    .matrixTransform(plot.getScreenCTM());
  plot.dispatchEvent(new MouseEvent("click", {clientX: at.x, clientY: at.y, bubbles: true}));
  snapshot();
  const pre = document.createElement("pre");
  pre.id = "live-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _marker_moved(seen: list[str], data: dict[str, Any], fpr: float, tpr: float) -> None:
    """The circle at (fpr, tpr): its data and its translation on the plot."""
    transform, seen_fpr, seen_tpr = seen
    assert float(seen_fpr) == fpr and float(seen_tpr) == tpr
    dx, dy = (float(v) for v in transform[10:-1].split())
    assert dx == pytest.approx((fpr - data["fpr0"]) * data["bx"], abs=1e-9)
    assert dy == pytest.approx((tpr - data["tpr0"]) * data["by"], abs=1e-9)


def test_the_page_at_threshold_shows_at_threshold(
    browser: Browser, live: dict[str, tuple[Path, Ranking]]
) -> None:
    """Opened at #threshold=T, the rendered page shows every number at_threshold(T) gives
    (every operating point embedded: exact for any T: below every score, at one, between
    two, above all), names the score the cut is at, and moves the circle to T's (fallout,
    recall); an address that is no number keeps the first point and says so. The first T
    is read from the page as Chromium built it; the others after the address changes,
    the slider moves, and a click on the ROC curve."""
    path, ranking = live["few"]
    scores = np.sort(ranking.scores)
    thresholds = [
        float((scores[10] + scores[11]) / 2),
        float(scores[0]) - 1.0,
        float(scores[len(scores) // 2]),
        float(scores[-1]) + 0.5,
    ]
    dom, run = _open_at(browser, path, repr(thresholds[0]))
    assert_panel_shows(dom, ranking, thresholds[0])
    assert "hidden" not in dom.by_id("live-controls").attrs  # the script shows the slider
    assert hosts(run.requests) - BROWSER_SERVICES == set(), run.requests
    data = json.loads(dom.by_id("live-data").text())["svg"]
    hashes = [f"#threshold={T!r}" for T in thresholds] + ["#threshold=soon"]
    slider, click = 7, 40
    probe = (
        LIVE_PROBE.replace("IDS", json.dumps([*LIVE_IDS, *LIVE_TEXTS]))
        .replace("HASHES", json.dumps(hashes))
        .replace("SLIDER", str(slider))
        .replace("CLICK", str(click))
    )
    probed = path.with_name("probed-live-few.html")
    probed.write_text(path.read_text(encoding="utf-8").replace("</body>", probe + "</body>"))
    run = browser.run(probed.as_uri(), *LIVE_FLAGS)
    snapshots = json.loads(parse(run.stdout).by_id("live-probe").text())
    for T, seen in zip(thresholds, snapshots, strict=False):
        assert_shown(_read(seen), ranking, T)
        point = ranking.at_threshold(T)
        _marker_moved(seen["marker"], data, point.false_positive_rate, point.true_positive_rate)
        cut = lowest_score_at_least(ranking, T)
        note = seen["note"][0]
        if cut == T:
            assert note == "", note
        else:
            shown = "∞" if cut == math.inf else js_number(cut)
            assert f"predicts the same rows as score ≥ {shown}" in note
    first = ranking.best_threshold().threshold
    assert snapshots[4]["note"][0].startswith("#threshold=soon is not a number")
    assert_shown(_read(snapshots[4]), ranking, first)
    # every cut is embedded here: slider position v shows cut n_groups - v, and the address
    # then holds its threshold; a click on the curve at cut 40 shows cut 40
    moved = float(ranking.cut_tables([ranking.n_groups - slider])[0][0])
    assert_shown(_read(snapshots[5]), ranking, moved)
    assert snapshots[5]["hash"][0] == f"#threshold={js_number(moved)}"
    clicked = float(ranking.cut_tables([click])[0][0])
    assert_shown(_read(snapshots[6]), ranking, clicked)


def _read(seen: dict[str, list[str]]) -> dict[str, tuple[str, float]]:
    """What the probe read of the panel: id -> (text, value behind it)."""
    found = {key: (pair[0], float(pair[1])) for key, pair in seen.items() if key in LIVE_IDS}
    for key in LIVE_TEXTS:
        found[key] = (seen[key][0], math.nan)
    return found


def test_between_two_embedded_points_the_page_shows_the_nearest_and_says_so(
    browser: Browser, live: dict[str, tuple[Path, Ranking]]
) -> None:
    """30,000 distinct scores, about 2,000 embedded: a T in a gap between two embedded cuts
    shows the nearest embedded threshold's numbers (exactly at_threshold there), with a
    note naming it."""
    path, ranking = live["many"]
    cuts, _ = choose_cuts(ranking, [ranking.best_threshold().groups])
    thresholds, _ = ranking.cut_tables(cuts)
    gap = next(i for i in range(1, cuts.size - 1) if cuts[i + 1] - cuts[i] > 3)
    high, low = float(thresholds[gap]), float(thresholds[gap + 1])
    T = low + 0.3 * (high - low)  # nearer the lower embedded threshold
    dom, _ = _open_at(browser, path, repr(T))
    assert_panel_shows(dom, ranking, low)
    note = dom.by_id("live-note").text()
    assert f"is not one of the {cuts.size:,} operating points embedded" in note
    assert f"the nearest embedded one, score ≥ {js_number(low)}" in note


def test_weighted_counts_and_a_tie_at_four_decimals(
    browser: Browser, live: dict[str, tuple[Path, Ranking]]
) -> None:
    """Float weights: every value the script computes (payoff, stakes) equals the
    library's to the last bit; and 1/32 = 0.03125 is written 0.0312, as Python does."""
    path, ranking = live["weighted"]
    dom, _ = _open_at(browser, path, "0.3")
    assert_panel_shows(dom, ranking, 0.3)
    path, ranking = live["tie"]
    dom, _ = _open_at(browser, path, "0.99")
    assert dom.by_id("live-informedness").text() == "0.0312"
    assert_panel_shows(dom, ranking, 0.99)


JS_NUMBERS = [5.0, 0.1, -2.5, 1e-06, 1e-07, 1.5e-07, 1.2345e22, 123456789012345680000.0, 1 / 3]


def test_numbers_are_written_as_the_browser_writes_them(browser: Browser) -> None:
    """The page writes thresholds as JavaScript's String() does; js_number, which writes
    them without script, agrees with the browser."""
    path = browser.folder / "numbers.html"
    path.write_text(
        "<!DOCTYPE html><pre id='out'></pre><script>document.getElementById('out')"
        f".textContent = JSON.stringify({json.dumps(JS_NUMBERS)}.map(String));</script>",
        encoding="utf-8",
    )
    run = browser.run(path.as_uri(), *LIVE_FLAGS)
    written = json.loads(parse(run.stdout).by_id("out").text())
    assert written == [js_number(x) for x in JS_NUMBERS]


@pytest.fixture(scope="module")
def probabilities(browser: Browser) -> tuple[Path, np.ndarray, np.ndarray]:
    """A report of a ranking of probabilities (every operating point embedded), with the
    rows it was counted from."""
    rng = np.random.default_rng(7)
    scores = rng.beta(2, 4, 700).round(2)
    actual = (rng.random(700) < scores).astype(int)
    path = browser.folder / "probabilities.html"
    write_html_report(path, ranking=Ranking.from_scores(actual, scores, positive=1))
    return path, actual, scores


def test_the_decision_curves_marker_follows_the_live_point(
    browser: Browser, probabilities: tuple[Path, np.ndarray, np.ndarray]
) -> None:
    """Opened at #threshold=T, the page says the net benefit at p_t = the lowest score at
    least T, counted here over the rows, and moves the decision curve's circle there (by
    the plot's own map from (p_t, net benefit) to the SVG); past the top score, no p_t
    below 1, the circle is hidden and the page says so."""
    path, actual, scores = probabilities
    n, prevalence = len(actual), float(actual.mean())
    distinct = np.unique(scores)
    for T in (0.1, float(distinct[5] + distinct[6]) / 2, float(distinct[-3])):
        dom, _ = _open_at(browser, path, repr(T))
        cut = float(distinct[distinct >= T][0])
        acted = scores >= cut
        odds = cut / (1 - cut)
        nb = (actual & acted).sum() / n - (acted & (actual == 0)).sum() / n * odds
        everyone = prevalence - (1 - prevalence) * odds
        at = dom.by_id("decision-at")
        assert float(at.attrs["data-value"]) == nb, T  # the operations of decision_curve
        assert f"At p_t = {js_number(cut)}: net benefit {nb:.4f} per row" in at.text(), T
        verdict = "beats both" if nb > max(everyone, 0) else "does at least as well"
        assert verdict in at.text(), T
        data = json.loads(dom.by_id("live-data").text())["decision"]
        marker = dom.by_id(data["marker"])
        assert float(marker.attrs["data-threshold"]) == cut
        dx, dy = (float(v) for v in marker.attrs["transform"][10:-1].split())
        assert dx == pytest.approx((cut - data["x0"]) * data["bx"], abs=1e-9)
        assert dy == pytest.approx((nb - data["y0"]) * data["by"], abs=1e-9)
        assert "display" not in marker.attrs.get("style", "")
    dom, _ = _open_at(browser, path, "2")
    assert "there is no threshold probability" in dom.by_id("decision-at").text()
    marker = dom.by_id(json.loads(dom.by_id("live-data").text())["decision"]["marker"])
    assert "display: none" in marker.attrs["style"]
