"""Integrations: informed connected to the systems where people fit models and keep
their results. Each is an adapter that starts from (or ends in) the ordinary summaries
and results, imports its library only when used, and computes no measure of its own
(docs/architecture.md).

* `informed.integrations.sklearn` (also `informed.sklearn`): scikit-learn scorers of
  informed's measures, and `cross_evaluate`.
"""
