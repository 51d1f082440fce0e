// The live operating point of informed's HTML report (informed/report/html/live.py).
//
// The page embeds exact operating points of the ranking (#live-data: each cut's
// threshold and 2x2 counts, and the informedness and markedness Python computed for
// it). A slider, a click on the ROC plot or the page's address (#threshold=0.42) picks
// one; this script then writes its counts, measures, payoff per unit stake and the
// Bookmaker's dollar stakes into the panel, and moves the circle on the ROC curve.
// The payoff and the stakes are computed here with the operations of
// informed.table.payoff, in the same order, so that every number equals Python's to
// the last bit; numbers are written as Python writes them (rounding half to even).
// Without script the panel shows the first operating point, rendered by Python.
(() => {
  "use strict";
  const source = document.getElementById("live-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const $ = (id) => document.getElementById(id);
  const size = data.k.length;
  const thresholdAt = (i) => (data.t[i] === null ? Infinity : data.t[i]);
  const valueAt = (array, i) => (array[i] === null ? NaN : array[i]);

  // ------------------------------------------------------------ Python's formats
  // f"{x:.{d}f}": the exact binary value rounded to d decimals, half to even
  function fixed(x, d) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    const a = Math.abs(x);
    if (a >= 1e21) return sign + a.toString();
    const exact = a.toFixed(100); // exact: a double's expansion ends within 100 digits here
    const point = exact.indexOf(".");
    const kept = exact.slice(0, point + 1 + d).replace(/\.$/, "");
    const rest = exact.slice(point + 1 + d);
    if (!/^50*$/.test(rest)) return sign + a.toFixed(d);
    // a tie: keep the even neighbour
    const last = Number(kept[kept.length - 1]);
    if (last % 2 === 0) return sign + kept;
    return sign + (Number(kept) + Math.pow(10, -d)).toFixed(d);
  }
  // thousands separators on the whole part, as Python's "," option
  function grouped(text) {
    const sign = text.startsWith("-") ? "-" : "";
    const body = sign ? text.slice(1) : text;
    const [whole, fraction] = body.split(".");
    const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return sign + withCommas + (fraction === undefined ? "" : "." + fraction);
  }
  // f"{x:,.{p}g}": p significant digits, trailing zeros dropped, exponent past 10^p
  function general(x, p) {
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    const a = Math.abs(x);
    let exponent = Math.floor(Math.log10(a));
    if (Math.pow(10, exponent) > a) exponent -= 1;
    if (Math.pow(10, exponent + 1) <= a) exponent += 1;
    let text = fixed(a, Math.max(p - 1 - exponent, 0));
    if (Math.abs(Number(text)) >= Math.pow(10, exponent + 1)) {
      exponent += 1; // rounding carried into the next power of ten
      text = fixed(a, Math.max(p - 1 - exponent, 0));
    }
    const sign = x < 0 ? "-" : "";
    if (exponent < -4 || exponent >= p) {
      const [mantissa, power] = a.toExponential(p - 1).split("e");
      const digits = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
      const e = Number(power);
      return sign + digits + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return sign + grouped(text);
  }
  const count = (x) => (data.weighted ? general(x, 6) : grouped(String(x)));
  const number = (x) => (Number.isNaN(x) ? "undefined" : fixed(x, 4));
  const signed = (x) => (x === 0 ? "0" : (x > 0 ? "+" : "") + fixed(x, 4));
  const money = (x) => "$" + grouped(fixed(x, 2));
  // a bet's amount: four decimals at most, trailing zeros dropped ($7, $6.275)
  const amount = (x) => "$" + grouped(fixed(x, 4).replace(/\.?0+$/, ""));
  const thresholdText = (t) => (t === Infinity ? "∞" : String(t));

  // ------------------------------------------------------------ the numbers of a cut
  function numbers(i) {
    // fn and tn as informed.ranking's cut_tables makes them: the totals less tp and fp
    const tp = data.tp[i], fp = data.fp[i], fn = data.positives - tp, tn = data.negatives - fp;
    // the square in the payoff's label order (informed.table.payoff); 0 = first label
    const S = data.positive_first ? [[tp, fp], [fn, tn]] : [[tn, fn], [fp, tp]];
    const pos = data.positive_first ? 0 : 1;
    const neg = 1 - pos;
    const actual = [S[0][0] + S[1][0], S[0][1] + S[1][1]];
    let total = 0;
    for (const row of S) for (const cell of row) if (cell !== 0) total += cell;
    const value = S.map((row, r) =>
      row.map((cell, c) =>
        cell === 0 ? 0 : r === c ? cell / actual[r] : -(cell / (total - actual[r])),
      ),
    );
    // each row's win: its stored (non-zero) cells added in order, as numpy's bincount does
    const won = S.map((row, r) => {
      let sum = 0;
      row.forEach((cell, c) => {
        if (cell !== 0) sum += value[r][c];
      });
      return sum;
    });
    // stakes(total=10): each bet on label l risks pR(l) x 10 to win (1 - pR(l)) x 10
    let n = 0;
    for (const row of S) for (const cell of row) n += cell;
    const stake = actual.map((sum) => (n ? sum / n : 0) * data.total);
    const prize = stake.map((s) => data.total - s);
    const cash = S.map((row, r) =>
      row.map((cell, c) => (cell === 0 ? 0 : r === c ? cell * prize[r] : -cell * stake[r])),
    );
    let gained = 0, lost = 0;
    for (const row of cash) for (const v of row) if (v > 0) gained += v;
    for (const row of cash) for (const v of row) if (v < 0) lost += v;
    lost = -lost;
    return {
      tp, fp, fn, tn,
      informedness: valueAt(data.b, i),
      markedness: valueAt(data.m, i),
      payoff: { tp: value[pos][pos], fp: value[pos][neg], fn: value[neg][pos], tn: value[neg][neg] },
      won: { positive: won[pos], negative: won[neg] },
      stake: { positive: stake[pos], negative: stake[neg] },
      prize: { positive: prize[pos], negative: prize[neg] },
      gained, lost, net: gained - lost,
    };
  }

  // ------------------------------------------------------------ writing the panel
  function put(id, text, value) {
    const element = $(id);
    if (!element) return;
    element.textContent = text;
    if (value !== undefined) element.dataset.value = Number.isNaN(value) ? "nan" : String(value);
  }

  let last = null; // the threshold and numbers shown, for the decision curve below

  function show(i, asked) {
    const t = thresholdAt(i);
    const v = numbers(i);
    put("live-threshold", thresholdText(t), t);
    for (const cell of ["tp", "fp", "fn", "tn"]) put("live-" + cell, count(v[cell]), v[cell]);
    put("live-informedness", number(v.informedness), v.informedness);
    put("live-markedness", number(v.markedness), v.markedness);
    const reason = Number.isNaN(v.markedness)
      ? "undefined: " + (data.tp[i] + data.fp[i] === 0 ? data.reasons.no_positive : data.reasons.no_negative)
      : "";
    put("live-markedness-reason", reason);
    for (const cell of ["tp", "fp", "fn", "tn"]) put("live-payoff-" + cell, signed(v.payoff[cell]), v.payoff[cell]);
    put("live-won-positive", signed(v.won.positive), v.won.positive);
    put("live-won-negative", signed(v.won.negative), v.won.negative);
    // "59 × $6.46", never broken over two lines (no-break spaces)
    const term = (cases, each) => count(cases) + "\u00a0×\u00a0" + amount(each);
    put("live-won-terms", term(v.tp, v.prize.positive) + " + " + term(v.tn, v.prize.negative));
    put("live-lost-terms", term(v.fn, v.stake.negative) + " + " + term(v.fp, v.stake.positive));
    put("live-gained", money(v.gained), v.gained);
    put("live-lost", money(v.lost), v.lost);
    put("live-net", money(v.net), v.net);
    // what was asked, and which embedded threshold is shown
    const note = $("live-note");
    if (note) {
      note.textContent = asked.text;
      note.hidden = !asked.text;
    }
    // the circle on the ROC curve
    const marker = document.getElementById(data.svg.marker);
    if (marker) {
      const x = (v.fp / data.negatives - data.svg.fpr0) * data.svg.bx;
      const y = (v.tp / data.positives - data.svg.tpr0) * data.svg.by;
      marker.setAttribute("transform", "translate(" + x + " " + y + ")");
      marker.dataset.fpr = String(v.fp / data.negatives);
      marker.dataset.tpr = String(v.tp / data.positives);
    }
    const slider = $("live-slider");
    if (slider) slider.value = String(size - 1 - i);
    const first = $("live-first"); // how the first point was chosen, shown with it only
    if (first) first.hidden = i !== data.initial;
    last = [t, v];
    if (data.decision) showDecision(t, v);
  }

  // ------------------------------------------------------------ the decision curve
  // the net benefit of acting on the rows scored >= t at p_t = t, with the operations of
  // informed.ranking.decision_curve in the same order; the words of decision_text
  function decisionText(t, netBenefit, treatAll) {
    if (!(t >= 0 && t < 1)) {
      return "At score ≥ " + thresholdText(t) +
        " there is no threshold probability (p_t must lie below 1), so no net benefit.";
    }
    let verdict = "treating none does at least as well";
    if (netBenefit > treatAll && netBenefit > 0) verdict = "acting on the scores beats both";
    else if (treatAll >= netBenefit && treatAll >= 0) verdict = "treating all does at least as well";
    return "At p_t = " + thresholdText(t) + ": net benefit " + number(netBenefit) +
      " per row (treat all " + number(treatAll) + ", treat none 0): " + verdict + ".";
  }

  function showDecision(t, v) {
    const d = data.decision;
    const defined = t >= 0 && t < 1;
    const odds = t / (1.0 - t);
    const netBenefit = defined ? v.tp / d.n - v.fp / d.n * odds : NaN;
    const treatAll = defined ? d.prevalence - (1.0 - d.prevalence) * odds : NaN;
    put("decision-at", decisionText(t, netBenefit, treatAll), netBenefit);
    const marker = document.getElementById(d.marker);
    if (!marker) return;
    const inside = defined && netBenefit >= d.ylim[0] && netBenefit <= d.ylim[1];
    marker.style.display = inside ? "" : "none";
    if (!inside) return;
    const x = (t - d.x0) * d.bx;
    const y = (netBenefit - d.y0) * d.by;
    marker.setAttribute("transform", "translate(" + x + " " + y + ")");
    marker.dataset.threshold = String(t);
    marker.dataset.netBenefit = String(netBenefit);
  }

  // the embedded point a threshold T selects: the cut of the lowest embedded threshold
  // at least T, exact when no cut left out lies between it and the next one; otherwise
  // the nearest embedded threshold, and the page says so
  function pick(T) {
    let i = 0;
    while (i + 1 < size && thresholdAt(i + 1) >= T) i += 1;
    const t = thresholdAt(i);
    if (i + 1 === size || data.k[i + 1] === data.k[i] + 1) {
      const same = t === T ? "" :
        "score ≥ " + thresholdText(T) + " predicts the same rows as score ≥ " + thresholdText(t) +
        ", the lowest score at least " + thresholdText(T) + ".";
      return { index: i, text: same };
    }
    const j = i + 1;
    const nearest = t !== Infinity && t - T <= T - thresholdAt(j) ? i : j;
    return {
      index: nearest,
      text: "score ≥ " + thresholdText(T) + " is not one of the " + size.toLocaleString("en-US") +
        " operating points embedded in this page; showing the nearest embedded one, score ≥ " +
        thresholdText(thresholdAt(nearest)) + ".",
    };
  }

  function fromAddress() {
    const match = /(?:^#|&)threshold=([^&]*)/.exec(location.hash);
    if (!match) return false;
    const text = decodeURIComponent(match[1]);
    const T = Number(text);
    if (text.trim() === "" || Number.isNaN(T)) {
      show(data.initial, { text: "#threshold=" + text + " is not a number; showing the first operating point." });
      return true;
    }
    const found = pick(T);
    show(found.index, found);
    return true;
  }

  function choose(i) {
    show(i, { text: "" });
    const t = thresholdAt(i);
    try {
      history.replaceState(null, "", "#threshold=" + (t === Infinity ? "Infinity" : String(t)));
    } catch (error) {
      // a page opened where the address cannot change: the panel still moves
    }
  }

  const controls = $("live-controls");
  if (controls) controls.hidden = false;
  const slider = $("live-slider");
  if (slider) slider.addEventListener("input", () => choose(size - 1 - Number(slider.value)));
  const plot = document.getElementById(data.svg.plot);
  if (plot) {
    plot.style.cursor = "crosshair";
    plot.addEventListener("click", (event) => {
      const matrix = plot.getScreenCTM();
      if (!matrix) return;
      const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      const fpr = (at.x - data.svg.ax) / data.svg.bx;
      const tpr = (at.y - data.svg.ay) / data.svg.by;
      let best = 0, distance = Infinity;
      for (let i = 0; i < size; i += 1) {
        const dx = data.fp[i] / data.negatives - fpr, dy = data.tp[i] / data.positives - tpr;
        if (dx * dx + dy * dy < distance) { distance = dx * dx + dy * dy; best = i; }
      }
      choose(best);
    });
  }
  window.addEventListener("hashchange", fromAddress);
  // the calibration section comes after this script: its marker and words exist once the
  // page is parsed
  if (data.decision) {
    document.addEventListener("DOMContentLoaded", () => { if (last) showDecision(...last); });
  }
  if (!fromAddress()) show(data.initial, { text: data.initial_note });
})();
