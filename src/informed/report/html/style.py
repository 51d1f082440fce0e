"""The style sheet of every HTML page informed writes, inline in the page's <head>
(`informed.report.html.page`): nothing is fetched, the page reads the same offline."""

from __future__ import annotations

__all__ = ["CSS"]

CSS = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa;
  --good: #1a7f37; --bad: #cf222e; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans",
  Arial, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 36px 0 10px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 22px 0 8px; }
p { margin: 6px 0; }
.meta, .note, figcaption, .small { color: var(--muted); font-size: 0.9rem; }
.note { background: var(--soft); border-left: 3px solid var(--accent); padding: 6px 10px; }
nav { margin: 10px 0 0; font-size: 0.92rem; }
nav a { color: var(--accent); margin-right: 14px; text-decoration: none; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card h3 { margin: 0; font-size: 1rem; }
.card .value { font-size: 2rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .undefined { font-size: 1.3rem; }
.meter { position: relative; height: 10px; background: var(--soft);
  border: 1px solid var(--line); border-radius: 5px; margin: 8px 0 4px; }
.meter .chance { position: absolute; top: -4px; bottom: -4px; width: 2px; background: #888; }
.meter .interval { position: absolute; top: 1px; bottom: 1px; background: #9ecae1;
  border-radius: 3px; }
.meter .dot { position: absolute; top: -4px; width: 4px; height: 16px; margin-left: -2px;
  background: var(--accent); border-radius: 2px; }
.scroll { overflow-x: auto; max-width: 100%;
  background: linear-gradient(to right, #fff 30%, #fff0),
    linear-gradient(to left, #fff 30%, #fff0) 100% 0,
    radial-gradient(farthest-side at 0 50%, #0003, #0000),
    radial-gradient(farthest-side at 100% 50%, #0003, #0000) 100% 0;
  background-repeat: no-repeat; background-size: 40px 100%, 40px 100%, 12px 100%, 12px 100%;
  background-attachment: local, local, scroll, scroll; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 0.9rem; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 9px; text-align: left;
  vertical-align: top; }
thead th { background: var(--soft); border-bottom: 2px solid var(--line);
  vertical-align: bottom; }
.scroll tr > th:first-child { position: sticky; left: 0; z-index: 1; background: #fff;
  box-shadow: inset -1px 0 0 var(--line); }
.scroll thead tr > th:first-child { background: var(--soft); }
.scroll tr.total > th:first-child { background: #fbfbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
td.nowrap { white-space: nowrap; }
.alias { color: var(--muted); font-size: 0.82rem; font-weight: normal; }
td.total, th.total, tr.total td, tr.total th { background: #fbfbfc; font-weight: 600; }
td.diagonal { background: #eaf3fb; }
td.undefined, span.undefined { color: var(--bad); }
td.neg { color: var(--bad); }
th.label { font-weight: 600; overflow-wrap: normal; word-break: normal; hyphens: manual; }
th.long { overflow-wrap: anywhere; min-width: 12em; }  /* after th.label: it wins */
.swatched { white-space: nowrap; }
.long .swatched { white-space: normal; }
th.vertical { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap;
  text-align: left; vertical-align: bottom; padding: 9px 4px; }
td.text { min-width: 16em; }
#measures-table td.small:not(:empty), #ranking-table td.small:not(:empty) { min-width: 11em; }
#compare-differences td.small { white-space: nowrap; }
.formula { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.82rem; }
.figures { display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(440px, 100%), 1fr));
  gap: 22px; margin: 14px 0; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 10px;
  min-width: 0; }
figure.wide { grid-column: 1 / -1; }
figure svg { display: block; max-width: 100%; height: auto; margin: 0 auto;
  overflow: visible; }
.live-row { display: flex; flex-wrap: wrap; gap: 10px 22px; align-items: flex-start; }
.live-row > svg { flex: 1 1 340px; max-width: 470px; margin: 0; }
.live { flex: 1 1 330px; min-width: 0; }
.live h4 { margin: 12px 0 4px; font-size: 0.95rem; }
.live-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px;
  margin: 4px 0 8px; }
.live-controls input { flex: 1 1 180px; min-width: 0; }
.live-cards { grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 10px;
  margin: 8px 0; }
.live-cards .card .value { font-size: 1.5rem; }
[hidden] { display: none !important; }
.pair { display: flex; flex-wrap: wrap; justify-content: center; gap: 8px; }
.pair svg { flex: 1 1 340px; margin: 0; }
@media (max-width: 600px) {
  main { padding: 14px 12px 32px; }
  figure { padding: 6px; }
  nav a { display: inline-block; margin: 2px 12px 2px 0; }
}
figcaption { margin-top: 6px; }
details { margin: 6px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 0.85rem;
  border-top: 1px solid var(--line); padding-top: 8px; }
"""
"""The page's CSS: a readable column, tables that scroll sideways with their first
column kept in view, figures in a grid that becomes one column on a phone."""
