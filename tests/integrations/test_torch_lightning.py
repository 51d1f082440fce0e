"""informed.torch's metrics logged by Lightning (`self.log("val_informedness", metric)`):
the value Lightning logs at the end of each validation epoch is `informed.evaluate`'s on
the predictions of that epoch, counted here from the same predictions (issue 31).

A tiny classifier trained 2 epochs on the CPU on a few hundred rows; the validation step
records its predictions beside the metric's update, and the oracle is the informedness
written out from those rows (recall + inverse recall - 1, Powers' bias-weighted
average of the labels' for three classes), and `informed.evaluate` of `Table.from_labels`.
Lightning's CSVLogger writes what `self.log` gave it (the float64 value of `compute()`,
at the end of the epoch, then reset); the test reads that file. No code of informed.torch
is Lightning's: the metrics are torchmetrics Metrics, which `self.log` takes.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import Table, evaluate

torch = pytest.importorskip("torch", reason="torch is not installed: pip install '.[test]'")
pytest.importorskip("torchmetrics", reason="torchmetrics is not installed: pip install '.[test]'")
lightning = pytest.importorskip(
    "lightning", reason="lightning is not installed: pip install '.[test]'"
)
from lightning.pytorch.loggers import CSVLogger  # noqa: E402  (after the skips)

from informed.torch import ContingencyTable, Informedness, Markedness  # noqa: E402

ROWS = 400


def _data(classes: int) -> tuple[Any, Any]:
    generator = torch.Generator().manual_seed(classes)
    y = torch.randint(0, classes, (ROWS,), generator=generator)
    x = torch.randn(ROWS, 6, generator=generator)
    x[torch.arange(ROWS), y] += 1.5  # the class leaves a trace in its feature
    return x, y


class Classifier(lightning.LightningModule):  # type: ignore[misc]
    """A linear classifier; its validation step logs informed's metrics, the test reads
    the predictions it counted."""

    def __init__(self, classes: int) -> None:
        super().__init__()
        self.classes = classes
        self.layer = torch.nn.Linear(6, classes)
        task = "binary" if classes == 2 else "multiclass"
        self.val_informedness = Informedness(task, num_classes=classes)
        self.val_markedness = Markedness(task, num_classes=classes)
        self.val_table = ContingencyTable(task, num_classes=classes)
        self.seen: list[tuple[list[int], list[int]]] = []  # per epoch: actual, predicted
        self.tables: list[Table] = []

    def forward(self, x: Any) -> Any:
        return self.layer(x)

    def _preds(self, logits: Any) -> Any:
        """The binary task reads class 1's probability; the multiclass task the logits."""
        if self.classes == 2:
            return torch.softmax(logits, dim=1)[:, 1]
        return logits

    def training_step(self, batch: Any, batch_idx: int) -> Any:
        x, y = batch
        return torch.nn.functional.cross_entropy(self(x), y)

    def on_validation_epoch_start(self) -> None:
        self.seen.append(([], []))

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        preds = self._preds(self(x))
        self.val_informedness.update(preds, y)
        self.val_markedness.update(preds, y)
        self.val_table.update(preds, y)
        self.log("val_informedness", self.val_informedness, on_epoch=True)
        self.log("val_markedness", self.val_markedness, on_epoch=True)
        predicted = (preds >= 0.5).long() if self.classes == 2 else preds.argmax(dim=1)
        self.seen[-1][0].extend(y.tolist())
        self.seen[-1][1].extend(predicted.tolist())

    def on_validation_epoch_end(self) -> None:
        self.tables.append(self.val_table.table())
        self.val_table.reset()

    def configure_optimizers(self) -> Any:
        return torch.optim.SGD(self.parameters(), lr=0.5)


def _informedness(actual: list[int], predicted: list[int], classes: int) -> float:
    """Powers' informedness written out: for each class its recall + inverse recall - 1,
    weighted by how often it is predicted (its bias); for two classes the one value."""
    a, p = np.asarray(actual), np.asarray(predicted)
    total = 0.0
    for label in range(classes):
        j = np.mean(p[a == label] == label) + np.mean(p[a != label] != label) - 1
        if classes == 2:
            return float(j)
        total += np.mean(p == label) * j
    return float(total)


@pytest.mark.parametrize("classes", [2, 3])
def test_lightning_logs_informeds_value_of_the_epoch(tmp_path: Path, classes: int) -> None:
    x, y = _data(classes)
    dataset = torch.utils.data.TensorDataset(x, y)
    train = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=False)
    val = torch.utils.data.DataLoader(dataset, batch_size=50)
    torch.manual_seed(classes)  # the layer's first weights: the same run in any order
    model = Classifier(classes)
    trainer = lightning.Trainer(
        accelerator="cpu",
        max_epochs=2,
        logger=CSVLogger(tmp_path),
        enable_progress_bar=False,
        enable_checkpointing=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*does not have many workers.*")
        trainer.fit(model, train, val)
    with (Path(trainer.logger.log_dir) / "metrics.csv").open() as handle:
        logged = [row for row in csv.DictReader(handle) if row.get("val_informedness")]
    assert len(logged) == 2 == len(model.seen)  # one value per validation epoch
    for row, (actual, predicted), table in zip(logged, model.seen, model.tables, strict=True):
        assert len(actual) == ROWS
        expected = evaluate(Table.from_labels(actual, predicted), positive=1 if classes == 2
                            else None)  # fmt: skip
        assert table == Table.from_labels(actual, predicted, labels=list(range(classes)))
        # exactly informed's: Lightning keeps the float64 tensor compute() gives and the
        # CSV holds its repr
        assert float(row["val_informedness"]) == expected.measures["informedness"]
        assert float(row["val_markedness"]) == expected.measures["markedness"]
        assert float(row["val_informedness"]) == pytest.approx(
            _informedness(actual, predicted, classes), abs=1e-12
        )
    last = trainer.callback_metrics["val_informedness"]
    assert last.dtype == torch.float64 and last.item() == float(logged[-1]["val_informedness"])
    # the model learned: the second epoch's value differs from the first's
    assert logged[0]["val_informedness"] != logged[1]["val_informedness"]
