"""`informed.model_card.to_model_index`: the ``model-index`` of a Hugging Face model card,
each value a number with its interval and n in ``args`` (issue 31, item 4), written into a
README.md by `huggingface_hub.metadata_save`, read back by `metadata_load` and parsed by
the hub's own `model_index_to_eval_results`. No network: HF_HUB_OFFLINE is set."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from informed import Ranking, Table, bootstrap
from informed.errors import InputError, UndefinedMeasureWarning
from informed.model_card import to_model_index

hub = pytest.importorskip("huggingface_hub")

RNG = np.random.default_rng(4)
ACTUAL = RNG.integers(0, 2, 300)
SCORES = np.round(np.clip(RNG.normal(0.3 + 0.35 * ACTUAL, 0.2), 0, 1), 2)
PREDICTED = (SCORES >= 0.5).astype(int)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_the_card_round_trips_through_huggingface_hub(tmp_path: Path) -> None:
    """metadata_save writes the entries; metadata_load reads them as they were; the hub's
    parser gives each value as a number (informedness as its formula gives it from the
    rows, the AUC as scikit-learn's) and the interval and n in metric_args."""
    from huggingface_hub.repocard_data import model_index_to_eval_results
    from sklearn.metrics import roc_auc_score

    table = Table.from_labels(ACTUAL, PREDICTED)
    intervals = bootstrap(table, positive=1, replicates=500, level=0.9, seed=1)
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    index = to_model_index(
        [intervals, ranking],
        positive=1,
        model_name="informed-demo",
        dataset_name="Synthetic reviews",
        dataset_type="synthetic-reviews",
        dataset_split="test",
        measures=["youden", "AUROC", "MCC"],
    )
    readme = tmp_path / "README.md"
    readme.write_text("# informed-demo\n\nA model card.\n")
    hub.metadata_save(readme, {"model-index": index, "license": "mit"})
    loaded = hub.metadata_load(readme)
    assert loaded is not None
    assert loaded["model-index"] == index
    assert readme.read_text().endswith("A model card.\n")
    name, results = model_index_to_eval_results(loaded["model-index"])
    assert name == "informed-demo"
    by_type = {r.metric_type: r for r in results}
    assert list(by_type) == ["informedness", "auc", "matthews_correlation"]
    tp = np.sum((PREDICTED == 1) & (ACTUAL == 1))
    fn = np.sum((PREDICTED == 0) & (ACTUAL == 1))
    fp = np.sum((PREDICTED == 1) & (ACTUAL == 0))
    tn = np.sum((PREDICTED == 0) & (ACTUAL == 0))
    informedness = by_type["informedness"]
    assert isinstance(informedness.metric_value, float)
    assert informedness.metric_value == pytest.approx(tp / (tp + fn) - fp / (fp + tn), abs=1e-15)
    low, high = intervals.intervals["informedness"].low, intervals.intervals["informedness"].high
    assert informedness.metric_args == {
        "ci_low": low, "ci_high": high, "level": 0.9, "method": "percentile",
        "replicates": 500, "n": 300.0,
    }  # fmt: skip
    assert low < informedness.metric_value < high
    assert informedness.metric_name == "Informedness"
    assert informedness.dataset_split == "test"
    assert informedness.task_type == "text-classification"
    auc = by_type["auc"]
    assert auc.metric_value == pytest.approx(roc_auc_score(ACTUAL, SCORES), abs=1e-12)
    assert auc.metric_args == {"n": 300.0}  # no interval was made for it


def test_the_default_measures_are_those_beyond_chance() -> None:
    index = to_model_index(
        Table.binary(tp=30, fp=10, fn=10, tn=50), positive="+",
        model_name="m", dataset_name="d", dataset_type="d",
    )  # fmt: skip
    metrics = index[0]["results"][0]["metrics"]
    assert [m["type"] for m in metrics] == ["informedness", "markedness", "correlation"]
    assert metrics[0]["value"] == pytest.approx(30 / 40 - 10 / 60, abs=1e-15)
    assert index[0]["results"][0]["task"] == {
        "type": "text-classification", "name": "Text Classification"
    }  # fmt: skip


def test_an_undefined_value_is_left_out_with_a_warning() -> None:
    """No actual negatives: informedness has no number, so no entry (never 0)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        index = to_model_index(
            Table.binary(tp=5, fp=0, fn=3, tn=0), positive="+",
            model_name="m", dataset_name="d", dataset_type="d",
            measures=["informedness", "recall"],
        )  # fmt: skip
    assert [m["type"] for m in index[0]["results"][0]["metrics"]] == ["recall"]
    assert any(
        issubclass(w.category, UndefinedMeasureWarning) and "informedness" in str(w.message)
        for w in caught
    )


def test_a_measure_the_result_lacks_is_refused() -> None:
    with pytest.raises(InputError, match="no value of 'auc'"):
        to_model_index(
            Table.binary(tp=5, fp=1, fn=3, tn=4), positive="+",
            model_name="m", dataset_name="d", dataset_type="d", measures="AUROC",
        )  # fmt: skip
    with pytest.raises(TypeError, match="model_name"):
        to_model_index(
            Table.binary(tp=5, fp=1, fn=3, tn=4), model_name="", dataset_name="d",
            dataset_type="d",
        )  # fmt: skip
